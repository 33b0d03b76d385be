"""The catalog's cost-of-owning lines, reserved rates and machines as sold (issue #34)."""
import typing

import pytest

from gpusizer.catalog import OwnershipCost
from gpusizer.catalog.ownership import CostLine, GpuClass


def test_at_least_90_percent_of_rented_gpus_have_a_purchase_price_or_are_not_sold(catalog):
    rented = sorted({o.gpu_id for o in catalog.offers})
    priced = [g for g in rented if catalog.gpu_by_id[g].purchase_usd or catalog.gpu_by_id[g].node_usd_per_gpu
              or "not sold" in catalog.gpu_by_id[g].purchase_note]
    assert len(priced) / len(rented) >= 0.9, sorted(set(rented) - set(priced))


def test_every_owning_line_has_a_sourced_dated_default_for_every_gpu_class(catalog):
    wanted = {f"{line}:{kind}" for line in typing.get_args(CostLine) for kind in typing.get_args(GpuClass)}
    assert wanted <= set(catalog.ownership_by_id)
    for row in catalog.ownership:
        assert isinstance(row, OwnershipCost) and len(row.source) > 10 and row.as_of


def test_colocation_default_lies_in_the_published_150_to_250_per_kw_month(catalog):
    assert 150 <= catalog.ownership_by_id["colocation:datacenter"].value <= 250
    assert 0.03 <= catalog.ownership_by_id["maintenance:datacenter"].value <= 0.05


def test_reserved_rates_name_known_gpus_providers_and_machines(catalog):
    assert {r.term for r in catalog.reserved} == {"reserved_1y", "reserved_3y"}
    for row in catalog.reserved:
        assert row.gpu_id in catalog.gpu_by_id and row.source
        if row.provider:
            assert any(o.provider == row.provider and o.instance_type == row.instance_type for o in catalog.offers)


@pytest.mark.parametrize("offer_id,per_gpu", [("oci-BM.GPU.MI300X.8", 6.00), ("tensorwave-mi300x", 1.50), ("vultr-mi300x", 1.85),
                                              ("packetai-h200-sxm", 2.25), ("tensorwave-mi325x", 1.95)])
def test_a_per_gpu_quote_of_an_eight_gpu_machine_is_stored_as_the_machine(catalog, offer_id, per_gpu):
    row = next(o for o in catalog.offers if o.offer_id == offer_id)
    assert row.gpus_per_instance == 8 and row.quoted_per_gpu
    assert row.on_demand_usd_per_hour / row.gpus_per_instance == pytest.approx(per_gpu)
    assert row.interconnect


def test_marketplaces_are_marked_as_such(catalog):
    classes = {p.provider: p.offer_class for p in catalog.providers}
    assert classes["vast"] == classes["shadeform"] == classes["primeintellect"] == "marketplace"
    assert classes["aws"] == classes["lambda"] == classes["nebius"] == "datacenter"
