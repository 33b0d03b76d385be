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
    assert "Moved more than 10%: 1" in out and "$55.04 -> $61.00/h (+11%)" in out and "Dry run: nothing written." in out
    assert "Skipped nebius: v9/nebius/vms.csv not read" in out  # the recorded copy holds three clouds
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
        assert "Moved more than 10%: 1" in str(pane.query_one("#catalog-detail").render())
        assert next(o for o in app.catalog.offers if o.offer_id == "aws-p5.48xlarge-us-east-1").on_demand_usd_per_hour == 61.0
