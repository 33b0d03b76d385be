"""One pricing rule for every face: a tensor-parallel replica rents all its GPUs in one machine."""
import datetime

import pytest

from gpusizer.catalog import Catalog, CloudOffer
from gpusizer.tools import compare_gpus, estimate_vram
from gpusizer.tools.pricing import cheapest_job


def offer(offer_id, gpus, price):
    return CloudOffer(offer_id=offer_id, provider="lambda", instance_type=offer_id, gpu_id="h100-sxm", gpus_per_instance=gpus,
                      region="us-east-1", on_demand_usd_per_hour=price, as_of="2026-11-01", checked=datetime.date(2026, 11, 22),
                      source="a test")


@pytest.fixture
def two_offers(catalog):
    """One 1-GPU machine at $2/h and one 8-GPU machine at $24/h."""
    return Catalog(catalog.gpus, catalog.models, [offer("one", 1, 2.0), offer("eight", 8, 24.0)], catalog.providers)


def test_a_two_gpu_tensor_parallel_replica_is_priced_in_one_machine(two_offers):
    # Two 1-GPU machines ($4/h) cannot host tensor parallelism; the 8-GPU machine hosts four 2-GPU replicas: $24 / 4 = $6/h.
    replica = cheapest_job(two_offers, "h100-sxm", 2, one_machine=True)
    assert (replica.offer.offer_id, replica.jobs_per_instance, replica.usd_per_hour) == ("eight", 4, 6.0)
    data_parallel = cheapest_job(two_offers, "h100-sxm", 2, one_machine=False)
    assert (data_parallel.offer.offer_id, data_parallel.instances, data_parallel.usd_per_hour) == ("one", 2, 4.0)


def test_a_three_gpu_replica_pays_for_the_idle_one(two_offers):
    replica = cheapest_job(two_offers, "h100-sxm", 3, one_machine=True)
    assert replica.jobs_per_instance == 2 and replica.usd_per_hour == 12.0 and replica.idle_gpus == 2


def test_every_face_prices_a_70b_on_two_h100s_as_one_machine(two_offers):
    fit = next(f for f in estimate_vram("llama-3.1-70b", catalog=two_offers).fits if f.gpu_id == "h100-sxm")
    assert fit.gpus_needed == 2 and fit.usd_per_hour == 6.0 and fit.instance_type == "eight"
    row = compare_gpus(["h100-sxm", "a100 80gb"], model="llama-3.1-70b", catalog=two_offers).gpus[0]
    assert row.replica_usd_per_hour == 6.0
    tokens_per_hour = row.decode_tokens_per_s * 3600
    assert row.usd_per_million_tokens == pytest.approx(6.0 / tokens_per_hour * 1e6, rel=1e-3)
