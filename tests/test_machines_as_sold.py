"""Issue #34: a tensor-parallel replica or a sharded training job is priced on a machine that holds all its GPUs, through
every tool that prices."""
import pytest

from gpusizer.tools import compare_gpus, estimate_vram, plan_serving
from gpusizer.tools.pricing import machine_price
from gpusizer.tools.speed import plan_training


def instance_gpus(catalog, provider, instance_type):
    return next(o.gpus_per_instance for o in catalog.offers if (o.provider, o.instance_type) == (provider, instance_type))


def test_serving_a_70b_to_100_users_puts_each_replica_in_one_machine(catalog):
    result = plan_serving("llama-3.1-70b", concurrent_users=100, catalog=catalog)
    priced = [o for o in result.options if o.offer]
    assert priced
    for option in priced:
        held = instance_gpus(catalog, option.offer.provider, option.offer.instance_type)
        assert held >= option.gpus_per_replica, option


def test_an_mi300x_quoted_per_gpu_is_no_longer_a_one_gpu_machine_at_six_dollars(catalog):
    result = plan_serving("llama-3.1-70b", concurrent_users=100, gpu="mi300x", catalog=catalog)
    for option in result.options:
        if option.offer and option.offer.provider in ("oci", "tensorwave", "vultr"):
            assert instance_gpus(catalog, option.offer.provider, option.offer.instance_type) == 8


def test_training_4_h100s_is_priced_on_a_machine_holding_all_four(catalog):
    result = plan_training("llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", gpu_count=4, catalog=catalog)
    option = result.options[0]
    job = machine_price(catalog, "h100-sxm", 4)
    assert job is not None and job.offer.gpus_per_instance >= 4
    assert option.usd_per_gpu_hour == pytest.approx(job.usd_per_gpu_hour)
    assert option.usd_per_gpu_hour > min(o.on_demand_usd_per_hour / o.gpus_per_instance
                                         for o in catalog.offers_for("h100-sxm") if o.on_demand_usd_per_hour)


def test_compare_prices_a_sharded_fine_tune_in_one_machine(catalog):
    rows = compare_gpus(["h100-sxm", "a100-80gb-sxm"], model="llama-3.1-8b", workload="training", catalog=catalog).gpus
    for row in rows:
        if row.gpus_needed > 1 and row.replica_offer:
            job = machine_price(catalog, row.gpu_id, row.gpus_needed)
            assert job.offer.gpus_per_instance >= row.gpus_needed
            assert row.replica_usd_per_hour == pytest.approx(job.usd_per_hour, abs=1e-3)


def test_the_fit_list_prices_a_sharded_full_fine_tune_in_one_machine(catalog):
    fits = estimate_vram("llama-3.1-8b", workload="training", catalog=catalog).fits
    several = [f for f in fits if f.gpus_needed > 1 and f.instance_type]
    assert several
    for fit in several:
        job = machine_price(catalog, fit.gpu_id, fit.gpus_needed)
        if job.offer.gpus_per_instance >= fit.gpus_needed:
            assert instance_gpus(catalog, fit.provider, fit.instance_type) >= fit.gpus_needed


def test_more_gpus_than_any_machine_holds_run_on_the_largest_machines_combined(catalog):
    job = machine_price(catalog, "h100-sxm", 16)
    assert job is not None and job.offer.gpus_per_instance == 8 and job.instances == 2


def test_asking_for_8_h100s_for_a_week_lambda_vs_runpod_prices_whole_8_gpu_machines(catalog):
    """Issue #34: Ask set RunPod spot split over eight 1-GPU VMs beside Lambda's 8-GPU node."""
    from gpusizer.tools.questions import ask

    answer = ask("how much to rent 8 H100s for a week, lambda vs runpod?", catalog)
    costs = [call for call in answer.calls if call.tool == "cloud_cost"]
    assert costs
    for call in costs:
        offers = call.result["offers"]
        assert offers and all(o["instances"] == 1 and o["gpus_per_instance"] >= 8 for o in offers)
    # RunPod sells H100s one to a machine: the answer says so instead of claiming it has no H100 at all
    assert "runpod: no machine with 8 × h100-sxm" in answer.answer and "its largest has 1" in answer.answer


def test_the_serving_plan_names_the_class_of_the_offer_it_chose(catalog):
    from gpusizer.tools.pricing import offer_class

    result = plan_serving("llama-3.1-8b", concurrent_users=10, gpu="h100", catalog=catalog)
    offer = result.options[0].offer
    chosen = next(o for o in catalog.offers if (o.provider, o.instance_type, o.region) == (offer.provider, offer.instance_type, offer.region))
    assert offer.offer_class == offer_class(catalog, chosen) and offer.offer_class in ("datacenter", "marketplace")
    spot = plan_serving("llama-3.1-8b", concurrent_users=10, gpu="h100", pricing="spot", catalog=catalog)
    assert spot.options[0].offer.offer_class == "spot"


def test_compare_says_whether_the_cheapest_price_is_a_data_centre_or_a_marketplace_offer(catalog):
    from gpusizer.tools.pricing import cheapest, offer_class

    rows = {r.gpu_id: r for r in compare_gpus(["h100", "a10g"], catalog=catalog).gpus}
    for gpu_id, row in rows.items():
        assert row.cheapest_offer_class == offer_class(catalog, cheapest(catalog, gpu_id, "on_demand").offer)
    assert rows["a10g"].cheapest_offer_class == "datacenter"  # AWS g5.xlarge
