"""The rent side of rent_vs_buy: the machines one would rent instead of buying, by offer class.

Owned GPUs compare with rented ones that leave none idle, from a data-centre provider where one rents that many, else
a marketplace; else the nearest larger machine, else the largest machines combined. Reserved (1- and 3-year)
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


def on_demand_rate(catalog: Catalog, spec: GpuSpec, gpu_count: int, wanted_class: str,
                   providers: frozenset[str] | None = None) -> tuple[RentRate, JobPrice]:
    """The cheapest on-demand offer that rents `gpu_count` GPUs without paying for idle ones (a machine of that size, or
    machines whose size divides it, the largest such size first: owned servers compare with rented servers); 'auto'
    takes a data-centre offer where one exists, else a marketplace one (one rented 4090 is one card on a marketplace,
    not a data-centre's 8-GPU machine). Only where none does: the nearest larger machine, else the largest combined.
    With `providers`, only their offers."""
    classes = ("datacenter", "marketplace") if wanted_class == "auto" else (wanted_class,)
    found = None
    for way in (without_idle, larger_machine, combined):
        found = next(((chosen, c) for c in classes if (chosen := way(catalog, spec, gpu_count, (c, providers))) is not None), None)
        if found is not None:
            break
    if found is None:
        raise SizingError(f"no {'' if wanted_class == 'auto' else wanted_class + ' '}on-demand offer for {spec.gpu_id} in the catalog"
                          + (f" from {', '.join(sorted(providers))}" if providers else "") + "; pass rent_usd_per_gpu_hour"
                          + ("" if wanted_class == "marketplace" else " or rent_class='marketplace'"))
    (best, how), offer_class_used = found
    o = best.offer
    count = f"{best.instances} x " if best.instances > 1 else ""
    rate = RentRate(offer_class_used, best.usd_per_gpu_hour, False, f"{o.provider} {count}{o.instance_type} ({o.region})",
                    f"cheapest {offer_class_used} on-demand, {how}: {best.describe()}, priced {o.as_of} ({o.source})"
                    + ("" if offer_class_used == classes[0] else "; no data-centre offer rents that many without idle GPUs"))
    return rate, best


Chosen = tuple[JobPrice, str] | None


Wanted = tuple[str, frozenset[str] | None]  # the offer class, and the providers to rent from (None: any)


def of_class(catalog: Catalog, prices: list[JobPrice], wanted: Wanted) -> list[JobPrice]:
    wanted_class, providers = wanted
    return [p for p in prices if offer_class(catalog, p.offer) == wanted_class and (not providers or p.offer.provider in providers)]


def without_idle(catalog: Catalog, spec: GpuSpec, gpu_count: int, wanted: Wanted) -> Chosen:
    """Machines whose size divides the count, the largest such size, cheapest of it: every GPU paid for is used."""
    fitting = [p for p in of_class(catalog, job_prices(catalog, spec.gpu_id, gpu_count, one_machine=False), wanted)
               if p.idle_gpus == 0]
    best = min(fitting, key=lambda p: (-p.offer.gpus_per_instance, p.usd_per_gpu_hour, p.offer.offer_id), default=None)
    if best is None:
        return None
    return best, "as many GPUs, none idle" if best.instances == 1 else f"{best.offer.gpus_per_instance:g}-GPU machines combined, none idle"


def larger_machine(catalog: Catalog, spec: GpuSpec, gpu_count: int, wanted: Wanted) -> Chosen:
    larger = of_class(catalog, job_prices(catalog, spec.gpu_id, gpu_count), wanted)
    return (larger[0], f"no offer rents {gpu_count} without idle GPUs: the cheapest larger machine") if larger else None


def combined(catalog: Catalog, spec: GpuSpec, gpu_count: int, wanted: Wanted) -> Chosen:
    machines = of_class(catalog, job_prices(catalog, spec.gpu_id, gpu_count, one_machine=False), wanted)
    largest = max((p.offer.gpus_per_instance for p in machines), default=0)
    best = next((p for p in machines if p.offer.gpus_per_instance == largest), None)
    return None if best is None else (best, f"no instance holds them all: {largest:g}-GPU machines combined")


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
