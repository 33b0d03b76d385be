"""What a job of N GPUs for H hours costs on every offer in the catalog."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusizer.catalog import load_catalog
from gpusizer.tools import SizingError, cloud_cost, estimate_vram

CATALOG = load_catalog(include_user=False)


def offer(result, instance_type, pricing="on_demand"):
    return next(o for o in result.offers if o.instance_type == instance_type and o.pricing == pricing)


def test_three_gpus_on_an_eight_gpu_instance_pays_for_five_idle(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=3, hours=10, providers=["aws"], region="us-east-1")
    p5 = offer(result, "p5.48xlarge")
    assert (p5.instances, p5.idle_gpus) == (1, 5)
    assert p5.total_usd == pytest.approx(1 * 55.04 * 10)  # one p5.48xlarge at $55.04/h for 10 h


def test_sixteen_gpus_need_two_eight_gpu_instances(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=16, hours=2, providers=["lambda"])
    eight = offer(result, "gpu_8x_h100_sxm5")
    assert eight.instances == 2 and eight.idle_gpus == 0
    assert eight.total_usd == pytest.approx(2 * 31.92 * 2)


def test_eight_gpus_are_priced_in_one_machine_unless_split_is_asked_for(catalog):
    """Issue #34: tensor parallelism and sharded training need one NVLink domain, so one machine is the default."""
    one_machine = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=1)
    assert one_machine.offers and all(o.instances == 1 and o.gpus_per_instance >= 8 for o in one_machine.offers)
    assert any("only machines holding all 8 GPUs" in note and "single_instance=false" in note for note in one_machine.notes)
    spread = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=1, single_instance=False)
    assert any(o.instances > 1 for o in spread.offers)
    assert any("not for tensor parallel" in note and "single_instance=true" in note for note in spread.notes)
    assert {(o.provider, o.instance_type) for o in one_machine.offers} == {
        (o.provider, o.instance_type) for o in spread.offers if o.gpus_per_instance >= 8}
    assert not any("not for tensor parallel" in note for note in one_machine.notes)
    explicit = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=1, single_instance=True)
    assert [o.total_usd for o in explicit.offers] == [o.total_usd for o in one_machine.offers]


def test_a_70b_on_h100s_is_priced_on_one_machine_not_two_one_gpu_vms(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100", model="llama-3.1-70b", hours=10)
    assert result.gpu_count >= 2
    assert result.offers and all(o.instances == 1 for o in result.offers)


def test_a_sharded_full_fine_tune_is_not_priced_on_separate_spot_vms(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", model="qwen2.5-32b", workload="training", hours=10)
    assert result.gpu_count > 1 and result.offers
    # one machine where one holds the job; past 8 GPUs, whole 8-GPU machines (the memory estimate decides how many)
    machine = min(result.gpu_count, 8)
    assert all(o.gpus_per_instance >= machine and o.instances * o.gpus_per_instance >= result.gpu_count for o in result.offers)
    assert all(o.instances == 1 for o in result.offers) or result.gpu_count > 8


def test_sixteen_h100s_run_on_whole_eight_gpu_machines_by_default(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=16, hours=1)
    assert result.offers and all(o.gpus_per_instance == 8 and o.instances == 2 for o in result.offers)
    assert any("no h100-sxm machine holds 16 GPUs" in note for note in result.notes)


def test_a_per_gpu_quote_for_an_eight_gpu_mi300x_machine_is_an_eight_gpu_machine(catalog):
    """OCI, TensorWave and Vultr sell MI300X as 8-GPU machines and quote per GPU-hour: one GPU cannot be rented there."""
    for offer_id in ("oci-BM.GPU.MI300X.8", "tensorwave-mi300x", "vultr-mi300x"):
        row = next(o for o in catalog.offers if o.offer_id == offer_id)
        assert row.gpus_per_instance == 8 and row.quoted_per_gpu and row.machine_gpus == 8
    one = cloud_cost(catalog=catalog, gpu="mi300x", gpu_count=1, hours=1, pricing="on_demand")
    tensorwave = next(o for o in one.offers if o.provider == "tensorwave")
    assert tensorwave.usd_per_gpu_hour == pytest.approx(1.50) and tensorwave.idle_gpus == 7


def test_every_price_names_its_class(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=1)
    classes = {(o.pricing, o.offer_class) for o in result.offers}
    assert ("spot", "spot") in classes and ("on_demand", "datacenter") in classes and ("on_demand", "marketplace") in classes
    assert all(o.offer_class == "spot" for o in result.offers if o.pricing == "spot")
    vast = next(o for o in result.offers if o.provider == "vast")
    assert vast.offer_class == "marketplace"


def test_no_instance_holds_sixteen_gpus_and_the_note_says_how_many_the_largest_has(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=16, hours=1, single_instance=True)
    assert result.offers == []
    assert any("the largest h100-sxm instance has 8 GPUs" in note for note in result.notes)


def test_billing_rounds_up_to_the_providers_increment(catalog):
    # Verda bills in 10-minute increments: 61 minutes are billed as 70 minutes.
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", hours=61 / 60, providers=["verda"], pricing="on_demand")
    cheapest = min(o.on_demand_usd_per_hour for o in catalog.offers_for("h100-sxm") if o.provider == "verda" and o.on_demand_usd_per_hour)
    assert result.offers[0].billed_hours == pytest.approx(70 / 60)
    assert result.offers[0].total_usd == pytest.approx(cheapest * 70 / 60)


def test_minimum_charge_applies_to_short_jobs(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", hours=10 / 3600, providers=["aws"], pricing="on_demand")
    assert all(o.billed_hours == pytest.approx(60 / 3600) for o in result.offers)  # AWS: 60-second minimum


def test_offers_are_sorted_cheapest_first_with_spot_and_on_demand(catalog):
    result = cloud_cost(catalog=catalog, gpu="a100-40gb-sxm", gpu_count=8, hours=24)
    totals = [o.total_usd for o in result.offers]
    assert totals == sorted(totals)
    assert {"on_demand", "spot"} <= {o.pricing for o in result.offers}


def test_spot_interruptions_stretch_the_spot_wall_clock(catalog):
    plain = cloud_cost(catalog=catalog, gpu="h100-sxm", hours=10, providers=["nebius"], pricing="spot")
    risky = cloud_cost(catalog=catalog, gpu="h100-sxm", hours=10, providers=["nebius"], pricing="spot",
                       spot_interruptions_per_hour=0.1, hours_lost_per_interruption=0.5, checkpoint_overhead_fraction=0.05)
    assert risky.offers[0].billed_hours == pytest.approx(10 * 1.05 * (1 + 0.1 * 0.5))
    assert risky.offers[0].total_usd > plain.offers[0].total_usd
    assert any("wall-clock grows" in n for n in risky.notes)


def test_a_price_dated_long_ago_is_stale_and_one_known_only_within_bounds_says_so(tmp_path):
    from gpusizer.catalog import load_catalog
    (tmp_path / "offers.csv").write_text("offer_id,as_of,checked\nlambda-gpu_1x_h100_sxm5,2025-01-15,2026-11-22\n")
    result = cloud_cost(catalog=load_catalog(tmp_path), gpu="h100-sxm", hours=1, providers=["lambda"], pricing="on_demand")
    dated = next(o for o in result.offers if o.instance_type == "gpu_1x_h100_sxm5")
    assert dated.stale and dated.as_of == dated.price_date == "2025-01-15" and dated.checked == "2026-11-22"
    runpod = cloud_cost(catalog=load_catalog(tmp_path), gpu="h100-pcie", hours=1, providers=["runpod"])
    assert runpod.offers and all(o.price_date_uncertain and not o.stale for o in runpod.offers)
    assert any("price dates are only bounded" in n for n in runpod.notes)


@pytest.mark.parametrize("arguments,fragment", [
    ({"gpu": "h100-sxm", "hours": -1}, "hours must be > 0"),
    ({"gpu": "H10", "hours": 1}, "did you mean"),
    ({"gpu": "gaudi3", "hours": 1}, "no cloud offer for gaudi3"),
    ({"gpu": "h100-sxm", "hours": 1, "providers": ["ibm"]}, "unknown provider"),
    ({"gpu": "h100-sxm", "hours": 1, "pricing": "reserved"}, "pricing='reserved' is not allowed"),
])
def test_bad_requests_get_fix_it_messages(catalog, arguments, fragment):
    with pytest.raises(SizingError) as error:
        cloud_cost(catalog=catalog, **arguments)
    assert fragment in str(error.value)


gpus_with_offers = sorted({o.gpu_id for o in CATALOG.offers if o.gpus_per_instance >= 1})


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(gpus_with_offers), st.integers(1, 40), st.floats(0.01, 500))
def test_total_is_instances_times_rate_times_billed_hours(gpu, count, hours):
    for o in cloud_cost(catalog=CATALOG, gpu=gpu, gpu_count=count, hours=hours).offers:
        assert o.total_usd == pytest.approx(o.instances * o.usd_per_hour * o.billed_hours)
        assert o.instances * o.gpus_per_instance >= count


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(gpus_with_offers), st.integers(1, 40), st.floats(0.01, 500))
def test_spot_is_never_dearer_than_on_demand_for_the_same_offer(gpu, count, hours):
    result = cloud_cost(catalog=CATALOG, gpu=gpu, gpu_count=count, hours=hours)
    by_key = {}
    for o in result.offers:
        by_key.setdefault((o.provider, o.instance_type, o.region), {})[o.pricing] = o.total_usd
    for prices in by_key.values():
        if len(prices) == 2:
            assert prices["spot"] <= prices["on_demand"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(gpus_with_offers), st.integers(1, 16), st.floats(0.01, 500), st.floats(0.01, 100))
def test_more_hours_are_never_cheaper(gpu, count, hours, extra):
    shorter = {(o.provider, o.instance_type, o.region, o.pricing): o.total_usd for o in cloud_cost(catalog=CATALOG, gpu=gpu, gpu_count=count, hours=hours).offers}
    for o in cloud_cost(catalog=CATALOG, gpu=gpu, gpu_count=count, hours=hours + extra).offers:
        assert o.total_usd >= shorter[(o.provider, o.instance_type, o.region, o.pricing)]


def test_storage_and_egress_are_priced_per_provider_after_the_free_tier(catalog):
    # AWS in providers.csv: gp3 $0.08/GB-month, internet egress $0.09/GB after the first 100 GB each month.
    # 100 GB-months x 0.08 = $8.00; (250 - 100) GB x 0.09 = $13.50; all-in = compute + 21.50
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=10, providers=["aws"], pricing="on_demand",
                        storage_gb_months=100, egress_gb=250)
    offer = result.offers[0]
    assert offer.storage_usd == pytest.approx(8.0) and offer.egress_usd == pytest.approx(13.5)
    assert offer.all_in_usd == pytest.approx(offer.total_usd + 21.5)
    small = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=10, providers=["aws"], pricing="on_demand", egress_gb=80)
    assert small.offers[0].egress_usd == 0  # inside the free 100 GB


def test_a_jurisdiction_keeps_only_offers_under_that_law(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", hours=1, jurisdiction="EU")
    assert result.offers and all(o.jurisdiction == "EU" for o in result.offers)


def test_a_provider_without_egress_fees_charges_nothing_for_egress(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=10, providers=["lambda"], egress_gb=10_000)
    assert all(o.egress_usd == 0 for o in result.offers)


def test_unknown_storage_price_is_null_with_a_note_and_can_be_given(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=1, hours=5, providers=["nebius"], storage_gb_months=10)
    assert all(o.storage_usd is None and o.all_in_usd is None for o in result.offers)
    assert any("storage_usd_per_gb_month" in n for n in result.notes)
    given = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=1, hours=5, providers=["nebius"], storage_gb_months=10,
                       storage_usd_per_gb_month=0.05)
    assert all(o.storage_usd == pytest.approx(0.5) for o in given.offers)


def test_a_workload_instead_of_a_gpu_count_asks_estimate_vram(catalog):
    # Llama 3.1 70B in bf16 is ~141 GB of weights: it needs 2 x 80 GB H100 (estimate_vram's fit search says so)
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", hours=1, model="meta-llama/Llama-3.1-70B")
    needed = next(f.gpus_needed for f in estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B").fits if f.gpu_id == "h100-sxm")
    assert result.gpu_count == needed == 2
    assert any("gpu_count 2" in n for n in result.notes)


def test_a_workload_field_that_does_not_exist_is_rejected(catalog):
    with pytest.raises(SizingError, match="unknown argument"):
        cloud_cost(catalog=catalog, gpu="h100-sxm", hours=1, modle="llama")


@given(storage=st.floats(0, 1e5), egress=st.floats(0, 1e5))
def test_all_in_is_never_below_the_compute_total(storage, egress):
    result = cloud_cost(catalog=load_catalog(include_user=False), gpu="a100-80gb-sxm", gpu_count=2, hours=3,
                        storage_gb_months=storage, egress_gb=egress)
    assert all(o.all_in_usd is None or o.all_in_usd >= o.total_usd - 1e-9 for o in result.offers)


def test_the_stale_aws_p5_spot_in_jakarta_is_set_aside_and_the_notes_say_why(catalog):
    """Issue #34: aws-p5.48xlarge-ap-southeast-3 records spot $7.5955/h on $75.9552/h on-demand ($0.95 per GPU-hour)."""
    result = cloud_cost(catalog=catalog, gpu="h100", gpu_count=8, hours=10, providers=["aws"], region="ap-southeast-3")
    assert [o.pricing for o in result.offers] == ["on_demand"]
    note = next(n for n in result.notes if n.startswith("spot prices set aside"))
    assert "p5.48xlarge (ap-southeast-3): spot $7.60/h is 10% of on-demand $75.96/h, below the 20% floor" in note


def test_asking_for_spot_alone_lists_a_doubtful_spot_price_last_and_flagged(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100", gpu_count=8, hours=10, pricing="spot", providers=["aws"])
    stale = result.offers[-1]  # the cheapest AWS spot H100 on paper, ranked after every sound one
    assert (stale.region, stale.usd_per_gpu_hour) == ("ap-southeast-3", pytest.approx(0.9494, abs=1e-4))
    assert stale.price_warning.endswith("below the 20% floor")
    assert all(not o.price_warning for o in result.offers[:-1]) and result.offers[0].total_usd > stale.total_usd
    assert any(n.startswith("spot prices in doubt") for n in result.notes)


def test_sound_spot_prices_carry_no_warning(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=10, providers=["aws"], region="us-east-1")
    assert offer(result, "p5.48xlarge", "spot").price_warning == ""
    assert not any("set aside" in n for n in result.notes)


def test_an_a100_80gb_on_a_provider_that_rents_only_the_pcie_part_is_priced_as_that_part(catalog):
    """'A100 80GB on RunPod': RunPod rents the PCIe card, not the SXM one the name defaults to; the answer prices the
    PCIe card and says so, rather than 'no offer'."""
    result = cloud_cost(catalog=catalog, gpu="a100-80gb", providers=["runpod"], hours=100)
    assert result.gpu_id == "a100-80gb-pcie" and result.offers
    assert "read as a100-80gb-pcie" in result.notes[0]
    exact = cloud_cost(catalog=catalog, gpu="a100-80gb-sxm", providers=["runpod"], hours=100)
    assert exact.gpu_id == "a100-80gb-sxm" and not exact.offers  # a part named exactly is never swapped


def test_an_a100_on_a_provider_that_rents_the_usual_part_only_as_whole_nodes_also_prices_its_single_cards(catalog):
    """'What does Lambda charge for one A100?': 'A100' reads as the 80GB SXM part, which the catalog's Lambda rents only
    as 8-GPU machines (7 idle for one); Lambda's one-GPU A100 40GB machine is priced beside it, and the note says why."""
    usual = [o for o in catalog.offers_for("a100-80gb-sxm") if o.provider == "lambda"]
    assert usual and min(o.gpus_per_instance for o in usual) > 1
    result = cloud_cost("a100", hours=1, providers=["lambda"], pricing="on_demand", catalog=catalog)
    first = result.offers[0]
    assert (first.gpu_id, first.idle_gpus) == ("a100-40gb-sxm", 0) and first.total_usd < min(o.total_usd for o in result.offers[1:])
    assert any(n.startswith("lambda: 'a100' also names the A100 40GB") for n in result.notes)
    exact = cloud_cost("a100-80gb-sxm", hours=1, providers=["lambda"], pricing="on_demand", catalog=catalog)
    assert {o.gpu_id for o in exact.offers} == {"a100-80gb-sxm"}  # a part named exactly is what is priced


def test_a_provider_that_rents_no_such_gpu_says_what_to_rent_instead(catalog):
    """'a 4090 on aws': the catalog's AWS rents no RTX 4090; the answer names the cheapest 4090 elsewhere and AWS's own
    cards of at least 24 GB, cheapest first."""
    assert not [o for o in catalog.offers_for("rtx-4090") if o.provider == "aws"]
    result = cloud_cost("rtx 4090", hours=10, providers=["aws"], catalog=catalog)
    assert result.offers == []
    note = next(n for n in result.notes if n.startswith("aws: rents no rtx-4090"))
    cheapest = min((o for o in catalog.offers_for("rtx-4090") if o.on_demand_usd_per_hour and o.gpus_per_instance == 1),
                   key=lambda o: o.on_demand_usd_per_hour)
    assert f"elsewhere is {cheapest.provider}'s" in note
    aws_cards = [o for o in catalog.offers if o.provider == "aws" and o.on_demand_usd_per_hour
                 and catalog.gpu_by_id[o.gpu_id].memory_gb >= 24]
    first = min(aws_cards, key=lambda o: o.on_demand_usd_per_hour)
    assert f"aws's GPUs with at least 24 GB: {first.gpu_id}" in note


def test_several_gpus_to_rent_instead_are_priced_in_one_machine_as_the_job_runs(catalog):
    """'8 x 4090 on aws': the 4090s elsewhere are priced as cloud_cost prices the job, on one machine holding all eight
    (tensor parallelism wants one box), not as eight separate one-GPU rentals that happen to cost less."""
    note = next(n for n in cloud_cost("rtx 4090", gpu_count=8, hours=10, providers=["aws"], catalog=catalog).notes
                if n.startswith("aws: rents no rtx-4090"))
    elsewhere = note.split("elsewhere is ")[1].split(";")[0]
    whole = [o for o in catalog.offers_for("rtx-4090") if o.on_demand_usd_per_hour and o.gpus_per_instance >= 8]
    assert whole and any(f"({o.instance_type})" in elsewhere for o in whole)
    assert " x " not in elsewhere.split("(")[1]  # one machine, not '8 x 1x-RTX_4090'


def test_a_provider_that_rents_the_gpu_gets_no_rent_instead_note(catalog):
    result = cloud_cost("h100", hours=10, providers=["aws"], catalog=catalog)
    assert result.offers and not [n for n in result.notes if "rents no" in n]
