"""The rent side of rent_vs_buy: the machines one would rent instead of buying, by offer class.

Owned servers compare with rented machines of the same size from a data-centre provider (not a marketplace host): an
instance with as many GPUs, else the nearest larger one, else the largest machines combined. Reserved (1- and 3-year)
rates sit beside it: a provider's published share of that offer's on-demand price, or a market rate per GPU-hour.
"""
from __future__ import annotations

from dataclasses import dataclass

from gpusizer.catalog import Catalog, CloudOffer, GpuSpec, SizingError
from gpusizer.tools.pricing import JobPrice, job_prices, offer_class

RESERVED_TERMS = ("reserved_1y", "reserved_3y")


@dataclass(frozen=True)
class RentRate:
    offer_class: str            # datacenter / marketplace (on-demand), reserved_1y, reserved_3y
    usd_per_gpu_hour: float
    committed: bool             # reserved: every hour of the term is paid, busy or not
    offer: str | None           # 'provider instance (region)', None for a market rate or a given rate
    how: str                    # why this rate, with its source and date


def on_demand_rate(catalog: Catalog, spec: GpuSpec, gpu_count: int, wanted_class: str) -> tuple[RentRate, JobPrice]:
    """The cheapest on-demand machine of the class holding as many GPUs as are bought, else the nearest larger, else the
    largest machines combined."""
    def of_class(prices: list[JobPrice]) -> list[JobPrice]:
        return [p for p in prices if offer_class(catalog, p.offer) == wanted_class]

    same = [p for p in of_class(job_prices(catalog, spec.gpu_id, gpu_count)) if p.offer.gpus_per_instance == gpu_count]
    best, how = (same[0], "an instance with as many GPUs") if same else (None, "")
    if best is None:
        larger = of_class(job_prices(catalog, spec.gpu_id, gpu_count))
        best, how = (larger[0], f"no {gpu_count}-GPU instance: the cheapest larger one") if larger else (None, "")
    if best is None:  # a cluster of owned servers compares with rented servers, not with as many one-GPU machines
        combined = of_class(job_prices(catalog, spec.gpu_id, gpu_count, one_machine=False))
        largest = max((p.offer.gpus_per_instance for p in combined), default=0)
        best = next((p for p in combined if p.offer.gpus_per_instance == largest), None)
        how = f"no instance holds them all: {largest:g}-GPU machines combined"
    if best is None:
        raise SizingError(f"no {wanted_class} on-demand offer for {spec.gpu_id} in the catalog; pass rent_usd_per_gpu_hour"
                          + ("" if wanted_class == "marketplace" else " or rent_class='marketplace'"))
    o = best.offer
    rate = RentRate(wanted_class, best.usd_per_gpu_hour, False, f"{o.provider} {o.instance_type} ({o.region})",
                    f"cheapest {wanted_class} on-demand, {how}: {best.describe()}, priced {o.as_of} ({o.source})")
    return rate, best


def reserved_rates(catalog: Catalog, spec: GpuSpec, job: JobPrice | None) -> list[RentRate]:
    """Per term: the on-demand offer's own reserved price where its provider publishes a share, else the lowest of the
    provider shares for machines of that size and the market rate."""
    found = []
    for term in RESERVED_TERMS:
        rows = [r for r in catalog.reserved if r.gpu_id == spec.gpu_id and r.term == term]
        options = []
        for row in rows:
            if row.usd_per_gpu_hour is not None:
                options.append(RentRate(term, row.usd_per_gpu_hour, True, None,
                                        f"{term.replace('_', ' ')} market rate ${row.usd_per_gpu_hour:.2f}/GPU-hour ({row.source})"))
                continue
            offer = matching_offer(catalog, spec, row.provider, row.instance_type, job)
            if offer is not None and offer.on_demand_usd_per_hour and row.share_of_on_demand:
                per_gpu = offer.on_demand_usd_per_hour * row.share_of_on_demand / offer.gpus_per_instance
                options.append(RentRate(term, per_gpu, True, f"{offer.provider} {offer.instance_type} ({offer.region})",
                                        f"{term.replace('_', ' ')}: {row.share_of_on_demand:.1%} of {offer.provider} "
                                        f"{offer.instance_type}'s on-demand price ({row.source})"))
        if options:
            found.append(min(options, key=lambda r: r.usd_per_gpu_hour))
    return found


def matching_offer(catalog: Catalog, spec: GpuSpec, provider: str, instance_type: str, job: JobPrice | None) -> CloudOffer | None:
    """The reserved row's offer: the on-demand machine chosen when it is the same instance, else its cheapest region."""
    if job is not None and (job.offer.provider, job.offer.instance_type) == (provider, instance_type):
        return job.offer
    same = [o for o in catalog.offers_for(spec.gpu_id)
            if (o.provider, o.instance_type) == (provider, instance_type) and o.on_demand_usd_per_hour]
    return min(same, key=lambda o: (o.on_demand_usd_per_hour or 0.0, o.offer_id)) if same else None
