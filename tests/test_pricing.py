"""One pricing rule for every face: a tensor-parallel replica rents all its GPUs in one machine."""
import datetime

import pytest

from gpusizer.catalog import Catalog, CloudOffer
from gpusizer.tools import compare_gpus, estimate_vram
from gpusizer.tools.pricing import cheapest, cheapest_fleet, cheapest_job, job_prices, spot_price_doubt


def offer(offer_id, gpus, price):
    return CloudOffer(offer_id=offer_id, provider="lambda", instance_type=offer_id, gpu_id="h100-sxm", gpus_per_instance=gpus,
                      region="us-east-1", on_demand_usd_per_hour=price, as_of="2026-11-01", checked=datetime.date(2026, 11, 22),
                      source="a test")


@pytest.fixture
def two_offers(catalog):
    """One 1-GPU machine at $2/h and one 8-GPU machine at $24/h."""
    return Catalog(catalog.gpus, catalog.models, [offer("one", 1, 2.0), offer("eight", 8, 24.0)], catalog.providers)


def test_a_two_gpu_tensor_parallel_replica_is_priced_in_one_machine(two_offers):
    # Two 1-GPU machines ($4/h) cannot host tensor parallelism: one replica alone rents the 8-GPU machine ($24/h); a
    # fleet filling it hosts four 2-GPU replicas, $24 / 4 = $6/h each.
    replica = cheapest_job(two_offers, "h100-sxm", 2, one_machine=True)
    assert (replica.offer.offer_id, replica.jobs_per_instance, replica.usd_per_hour) == ("eight", 4, 24.0)
    assert replica.usd_per_hour_shared == 6.0 and replica.idle_gpus == 6
    data_parallel = cheapest_job(two_offers, "h100-sxm", 2, one_machine=False)
    assert (data_parallel.offer.offer_id, data_parallel.instances, data_parallel.usd_per_hour) == ("one", 2, 4.0)


def test_a_three_gpu_replica_pays_for_the_idle_one(two_offers):
    replica = cheapest_job(two_offers, "h100-sxm", 3, one_machine=True)
    assert replica.jobs_per_instance == 2 and replica.usd_per_hour == 24.0 and replica.usd_per_hour_shared == 12.0


def test_every_face_prices_a_70b_on_two_h100s_as_one_machine(two_offers):
    """Running it once rents the machine that holds both GPUs; a comparison's per-token cost is a full machine's share."""
    fit = next(f for f in estimate_vram("llama-3.1-70b", catalog=two_offers).fits if f.gpu_id == "h100-sxm")
    assert fit.gpus_needed == 2 and fit.usd_per_hour == 24.0 and fit.instance_type == "eight"
    row = compare_gpus(["h100-sxm", "a100 80gb"], model="llama-3.1-70b", catalog=two_offers).gpus[0]
    assert row.replica_usd_per_hour == 6.0
    tokens_per_hour = row.decode_tokens_per_s * 3600
    assert row.usd_per_million_tokens == pytest.approx(6.0 / tokens_per_hour * 1e6, rel=1e-3)


def priced_offer(offer_id, gpus, on_demand, spot):
    return CloudOffer(offer_id=offer_id, provider="aws", instance_type=offer_id, gpu_id="h100-sxm", gpus_per_instance=gpus,
                      region="ap-southeast-3", on_demand_usd_per_hour=on_demand, spot_usd_per_hour=spot, spot_zone="a zone",
                      as_of="2026-11-01", checked=datetime.date(2026, 11, 22), source="a test")


@pytest.fixture
def a_stale_spot(catalog):
    """The stale AWS p5 row of issue #34 ($7.60/h spot on $75.96/h on-demand: $0.95 per GPU-hour) beside a sound offer."""
    offers = [priced_offer("stale-p5", 8, 75.9552, 7.5955), priced_offer("sound", 8, 60.0, 24.0)]
    return Catalog(catalog.gpus, catalog.models, offers, catalog.providers)


def test_why_is_the_95_cent_h100_spot_price_not_the_cheapest_spot_h100(a_stale_spot):
    # 10% of on-demand is below the 20% floor: a stale row, so the spot rule prices the sound offer ($3/GPU-h) instead.
    assert spot_price_doubt(a_stale_spot.offers[0]) == "spot $7.60/h is 10% of on-demand $75.96/h, below the 20% floor"
    assert spot_price_doubt(a_stale_spot.offers[1]) is None
    best = cheapest(a_stale_spot, "h100-sxm", "spot")
    assert (best.offer.offer_id, best.usd_per_gpu_hour) == ("sound", 3.0)
    assert cheapest_job(a_stale_spot, "h100-sxm", 8, "spot").offer.offer_id == "sound"
    assert {p.offer.offer_id for p in job_prices(a_stale_spot, "h100-sxm", 8, "spot")} == {"sound"}
    assert cheapest_fleet(a_stale_spot, "h100-sxm", 8, 2, "spot").job.offer.offer_id == "sound"


def test_the_stale_row_still_prices_on_demand(a_stale_spot):
    best = cheapest(a_stale_spot, "h100-sxm", "on_demand")
    assert (best.offer.offer_id, best.usd_per_gpu_hour) == ("sound", 7.5)
    assert [p.offer.offer_id for p in job_prices(a_stale_spot, "h100-sxm", 8)] == ["sound", "stale-p5"]


def test_a_spot_price_above_on_demand_loads_but_is_flagged_and_never_used(catalog):
    dear = priced_offer("dear", 8, 20.0, 24.0)  # a user's row may carry one: it loads rather than breaking the catalog
    assert spot_price_doubt(dear) == "spot $24.00/h is above on-demand $20.00/h"
    alone = Catalog(catalog.gpus, catalog.models, [dear], catalog.providers)
    assert cheapest(alone, "h100-sxm", "spot") is None and cheapest_job(alone, "h100-sxm", 8, "spot") is None
    assert cheapest(alone, "h100-sxm", "on_demand").usd_per_gpu_hour == 2.5


@pytest.mark.parametrize("spot,doubted", [(12.0, False), (11.99, True), (60.0, False), (60.01, True)])
def test_the_check_keeps_spot_between_a_fifth_of_on_demand_and_on_demand(catalog, spot, doubted):
    assert (spot_price_doubt(priced_offer("edge", 8, 60.0, spot)) is not None) == doubted


def test_prices_remembered_for_ever_new_arguments_stop_at_the_limit(catalog, monkeypatch):
    """A long-running server asked with a new jurisdiction on every call keeps at most DERIVED_LIMIT derived answers."""
    from gpusizer.tools import pricing

    monkeypatch.setattr(pricing, "DERIVED_LIMIT", len(catalog.derived) + 3)
    for n in range(20):
        pricing.cheapest_job(catalog, "h100-sxm", 8, jurisdiction=f"X{n}")
        pricing.cheapest_fleet(catalog, "h100-sxm", 1, 3, jurisdiction=f"Y{n}")
    assert len(catalog.derived) <= pricing.DERIVED_LIMIT
    assert pricing.cheapest_job(catalog, "h100-sxm", 8) is not None  # still answered, only not kept


def test_one_mi300x_for_one_model_pays_for_the_node_it_is_sold_in(catalog):
    """TensorWave, Vultr and OCI rent MI300X only as 8-GPU machines: running one 1-GPU model there rents all eight,
    so the fit list shows what one job pays (a serving fleet that fills the node pays an eighth per replica)."""
    fit = next(f for f in estimate_vram("llama-3.1-8b", catalog=catalog).fits if f.gpu_id == "mi300x")
    cheapest_machine = min(o.on_demand_usd_per_hour for o in catalog.offers_for("mi300x") if o.on_demand_usd_per_hour)
    assert fit.gpus_needed == 1 and fit.usd_per_hour == cheapest_machine  # no 1-GPU MI300X rents on demand: a whole node
