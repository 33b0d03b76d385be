"""`gpusizer catalog update`: current prices from SkyPilot's catalog files, tested on a recorded copy (no network)."""
import datetime
import os
from pathlib import Path

import pytest

from gpusizer.catalog import load_catalog
from gpusizer.catalog.catalog import clear_cache
from gpusizer.catalog.price_update import RecordedSource, report_lines, update_offers, write_update
from gpusizer.tui.cli import main as gpusizer

RECORDED = Path(__file__).parent / "data" / "skypilot_recorded"
TODAY = datetime.date(2026, 11, 22)
CLOUDS = ["aws", "gcp", "lambda"]


@pytest.fixture
def folder():
    path = Path(os.environ["GPUSIZER_CATALOG_DIR"])
    clear_cache()
    yield path
    clear_cache()


def run_update(folder, catalog, clouds=CLOUDS):
    result = update_offers(catalog, RecordedSource(RECORDED), TODAY, folder / "offers.csv", clouds)
    write_update(result, folder, TODAY)
    clear_cache()
    return result, {o.offer_id: o for o in load_catalog(folder).offers}


def test_a_price_that_moved_more_than_10_percent_is_reported_and_used(folder, catalog):
    result, offers = run_update(folder, catalog)
    moved = {c.offer_id: c for c in result.moved}
    assert moved["aws-p5.48xlarge-us-east-1"].old_usd_per_hour == 55.04
    p5 = offers["aws-p5.48xlarge-us-east-1"]
    assert p5.on_demand_usd_per_hour == 61.0
    assert (p5.spot_usd_per_hour, p5.spot_zone) == (14.246, "use1-az5 (cheapest zone in us-east-1)")  # two zones: the cheaper
    assert p5.as_of == "2026-11-20" and p5.checked == TODAY  # priced on the commit's day, read today
    assert p5.source.endswith("catalogs/v9/aws/vms.csv @0123456789abcdef0123456789abcdef01234567")
    assert "aws-p4d.24xlarge-us-east-1" not in moved  # +5%: re-priced, not news
    assert offers["aws-p4d.24xlarge-us-east-1"].on_demand_usd_per_hour == pytest.approx(catalog_price(catalog, "aws-p4d.24xlarge-us-east-1") * 1.05, rel=1e-4)


def catalog_price(catalog, offer_id):
    return next(o.on_demand_usd_per_hour for o in catalog.offers if o.offer_id == offer_id)


def test_an_instance_no_longer_listed_is_withdrawn_from_every_answer(folder, catalog):
    result, offers = run_update(folder, catalog)
    assert "aws-g6.xlarge-us-east-1" in {c.offer_id for c in result.removed}
    assert "aws-g6.xlarge-us-east-1" not in offers
    assert "aws-g6.4xlarge-us-east-1" in offers  # its siblings stay


def test_a_gpu_a_cloud_now_sells_is_added_in_its_cheapest_region_and_unknown_accelerators_are_left_out(folder, catalog):
    result, offers = run_update(folder, catalog)
    new = {c.offer_id for c in result.new}
    assert "aws-p6-b300.48xlarge-us-west-2" in new and "aws-p6-b300.48xlarge-us-east-1" not in new
    b300 = offers["aws-p6-b300.48xlarge-us-west-2"]
    assert (b300.gpu_id, b300.gpus_per_instance, b300.on_demand_usd_per_hour, b300.jurisdiction) == ("b300", 8, 142.42, "US")
    assert not any("trn2" in offer_id for offer_id in new)
    assert offers["lambda-gpu_2x_h100_pcie-us-west-1"].gpu_id == "h100-pcie"  # 'H100' in a PCIe instance is the PCIe part


def test_gcp_prices_the_host_and_the_gpus_of_one_zone_together(folder, catalog):
    _, offers = run_update(folder, catalog)
    a3 = offers["gcp-a3-highgpu-1g-us-central1"]
    assert a3.on_demand_usd_per_hour == pytest.approx(1.18251 + 4.20076)
    assert a3.spot_usd_per_hour == pytest.approx(0.36117 + 2.9926) and a3.spot_zone.startswith("us-central1-a")
    assert offers["gcp-tpu-v6e-1-us-central1"].on_demand_usd_per_hour == 2.7  # a TPU slice is its accelerator row
    assert "gcp-a3-highgpu-8g-us-central1" not in offers  # no host row for it in this copy: withdrawn, not guessed


def test_your_own_rows_are_kept_and_a_second_update_reports_nothing_new(folder, catalog):
    (folder / "offers.csv").write_text("offer_id,on_demand_usd_per_hour,notes\naws-p5.48xlarge-us-east-1,40.0,my contract price\n")
    first, offers = run_update(folder, catalog)
    assert first.kept_yours == ["aws-p5.48xlarge-us-east-1"]
    assert offers["aws-p5.48xlarge-us-east-1"].on_demand_usd_per_hour == 40.0
    second, again = run_update(folder, catalog, ["aws"])
    assert (second.new, second.removed, second.moved) == ([], [], [])
    assert again["aws-p5.48xlarge-us-east-1"].on_demand_usd_per_hour == 40.0
    assert "gcp-tpu-v6e-1-us-central1" in again and again["lambda-gpu_2x_h100_pcie-us-west-1"]  # clouds not re-read keep the first update


def test_the_command_prints_what_changed_and_a_dry_run_writes_nothing(folder, capsys):
    assert gpusizer(["catalog", "update", "--from", str(RECORDED), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "On-demand moved more than 10%: 1" in out and "on-demand $55.04 -> $61.00/h (+11%)" in out
    assert "Dry run: nothing written." in out
    assert "Skipped nebius: v9/nebius/vms.csv not read" in out  # the recorded copy holds four clouds
    assert not (folder / "offers.csv").exists()
    assert gpusizer(["catalog", "update", "--from", str(RECORDED), "--cloud", "aws"]) == 0
    assert "Wrote" in capsys.readouterr().out and (folder / "offers.csv").exists()


def test_offline_nothing_is_written_and_the_shipped_catalog_still_answers(folder, catalog):
    class Offline:
        label = "nowhere"

        def latest(self, file):
            raise OSError("network unreachable")

        def text(self, file, commit):
            raise AssertionError

    result = update_offers(catalog, Offline(), TODAY, folder / "offers.csv", ["aws"])
    assert result.files == {} and result.skipped == ["aws: v9/aws/vms.csv not read (network unreachable)"]
    assert report_lines(result, "nowhere", None)[-1] == "Dry run: nothing written."
    assert gpusizer(["catalog", "update", "--from", str(folder)]) == 2  # not a recorded copy: a sentence, exit 2


async def test_the_catalog_tab_updates_prices_and_every_tab_uses_them(folder, catalog):
    from gpusizer.tui.app import GpusizerApp

    app = GpusizerApp(tab="catalog", catalog=catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one("#catalog-pane")
        pane.price_source = RecordedSource(RECORDED)
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "On-demand moved more than 10%: 1" in str(pane.query_one("#catalog-detail").render())
        assert next(o for o in app.catalog.offers if o.offer_id == "aws-p5.48xlarge-us-east-1").on_demand_usd_per_hour == 61.0


def test_a_spot_move_of_30_percent_is_reported_as_a_spot_move_even_when_on_demand_stays(catalog):
    result = update_offers(catalog, RecordedSource(RECORDED), TODAY, None, ["aws"])
    spot = {c.offer_id: c for c in result.moved if c.pricing == "spot"}
    assert (spot["aws-p5en.48xlarge-us-east-1"].old_usd_per_hour, spot["aws-p5en.48xlarge-us-east-1"].new_usd_per_hour) == (19.1652, 25.0)
    assert "aws-p5en.48xlarge-us-east-1" not in {c.offer_id for c in result.moved if c.pricing == "on_demand"}
    lines = report_lines(result, "recorded", None)
    assert "Spot moved more than 10%: 1" in lines
    assert "  ~ aws p5en.48xlarge (8 x h200-sxm) in us-east-1: spot $19.17 -> $25.00/h (+30%)" in lines


def test_spot_from_a_local_zone_or_wavelength_zone_is_not_the_regions_spot_price(catalog):
    result = update_offers(catalog, RecordedSource(RECORDED), TODAY, None, ["aws"])
    g5 = next(r for r in result.rows if r["offer_id"] == "aws-g5.xlarge-us-east-1")
    assert (g5["spot_usd_per_hour"], g5["spot_zone"]) == (0.4591, "use1-az2 (cheapest zone in us-east-1)")  # not Boston's $0.12
    assert result.left_out_zones == {"aws": 2}
    assert "Left out 2 aws rows from Local Zones and Wavelength Zones (not the region's prices)" in report_lines(result, "r", None)


def test_a_spot_price_above_on_demand_is_flagged_in_the_update_and_never_chosen_by_default(folder, catalog):
    from gpusizer.tools import cloud_cost

    result, offers = run_update(folder, catalog, ["aws"])
    flagged = {c.offer_id: c.why for c in result.doubtful}
    assert flagged["aws-p4de.24xlarge-us-east-1"] == "spot $30.00/h is above on-demand $27.45/h"
    assert offers["aws-p4de.24xlarge-us-east-1"].spot_usd_per_hour == 30.0  # kept as read, flagged
    updated = load_catalog(folder)
    both = cloud_cost("a100-80gb-sxm", gpu_count=8, hours=10, catalog=updated)
    assert not any(o.instance_type == "p4de.24xlarge" and o.pricing == "spot" for o in both.offers)
    alone = cloud_cost("a100-80gb-sxm", gpu_count=8, hours=10, pricing="spot", catalog=updated)
    stale = next(o for o in alone.offers if o.instance_type == "p4de.24xlarge")
    assert stale.price_warning and "above on-demand" in stale.price_warning and alone.offers[-1] == stale


def test_the_cheapest_a10g_is_the_g5_xlarge_and_an_update_adds_a_cheaper_4_gpu_shape(catalog):
    from gpusizer.tools.pricing import cheapest

    assert cheapest(catalog, "a10g", "on_demand").offer.instance_type == "g5.xlarge"  # $1.006/h, not g5.4xlarge's $1.624
    result = update_offers(catalog, RecordedSource(RECORDED), TODAY, None, ["aws"])
    assert "aws-g5.12xlarge-us-east-1" in {c.offer_id for c in result.new}  # 4 x A10G for $5.67/h beside g5.24xlarge's $8.14
    g5 = next(r for r in result.rows if r["offer_id"] == "aws-g5.12xlarge-us-east-1")
    assert g5["spot_usd_per_hour"] == 1.9046  # the Wavelength Zone's $0.30 is not the region's


def test_a_new_gcp_machine_type_is_read_through_the_machine_type_table(catalog):
    result = update_offers(catalog, RecordedSource(RECORDED), TODAY, None, ["gcp"])
    a4 = next(r for r in result.rows if r["offer_id"] == "gcp-a4-highgpu-8g-us-central1")
    assert (a4["gpu_id"], a4["gpus_per_instance"]) == ("b200", 8)  # the host row names no GPU: instance_types.csv does
    assert a4["on_demand_usd_per_hour"] == pytest.approx(9.5 + 80.0)  # host + 8 x B200 of the same zone
    assert "b200 from instance_types.csv" in a4["notes"]


def test_azure_prices_come_from_skypilots_azure_file_with_the_gpu_counts_microsoft_publishes(folder, catalog):
    result, offers = run_update(folder, catalog, ["azure"])
    nd = offers["azure-ND96isr_H100_v5-eastus"]
    assert (nd.gpu_id, nd.gpus_per_instance, nd.on_demand_usd_per_hour) == ("h100-sxm", 8, 98.32)  # the file says 12 GPUs
    assert nd.spot_usd_per_hour is None  # the file's spot equals on-demand: no spot price
    assert nd.source.startswith("skypilot-org/skypilot-catalog catalogs/v8/azure/vms.csv @20291d7e")
    assert offers["azure-NC40ads_H100_v5-eastus"].gpu_id == "h100-nvl"  # 'H100' in the file; H100 NVL 94GB per Microsoft
    a100 = next(c for c in result.doubtful if c.offer_id == "azure-NC24ads_A100_v4-eastus")
    assert a100.why.startswith("spot $0.44/h is 12% of on-demand $3.67/h")
