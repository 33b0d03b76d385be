"""Prices from the catalog's offers: the one rule every face uses to price a job, billed time, price age.

A spot price above its offer's on-demand price, or below SPOT_FLOOR of it, is a stale or mistyped row (nobody pays more
than on-demand; spot markets bottom out around a quarter of it): `spot_price_doubt` says why, and the rule here
(cheapest, job and fleet prices) sets such a price aside, so asking for spot prices the job at the offers whose spot
price is sound. cloud_cost lists a doubtful spot price, flagged and ranked after the sound ones, only where the caller
asked for spot alone (pricing="spot"), and says in its notes which it set aside and why.

A job of N GPUs split with tensor parallelism, or sharded for training, needs all N in one machine (one NVLink
domain): it is priced from instances that hold N GPUs, and an instance of k >= N GPUs hosts k // N such replicas
(`machine_price`, the rule every tool uses). Where no machine holds N, the largest machines are combined, as a
multi-node job runs; smaller machines split a job only when a caller asks (cloud_cost single_instance=false).
Every price names its class (`offer_class`): datacenter or marketplace on-demand, spot.
"""
from __future__ import annotations

import datetime
import difflib
import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import NamedTuple, Protocol, TypeVar

from gpusizer.catalog import Catalog, CloudOffer, Provider, SizingError
from gpusizer.catalog.offer import SPOT_FLOOR as SPOT_FLOOR  # the floor lives beside the offer: the update applies it too
from gpusizer.catalog.offer import spot_doubt

STALE_AFTER_DAYS = 90
DERIVED_LIMIT = 200_000  # entries a long-running server keeps of answers derived from the catalog
Remembered = TypeVar("Remembered")
HOURS_PER_YEAR = 8760
HOURS_PER_MONTH = HOURS_PER_YEAR / 12  # 730: the month every tool and face prices by


@dataclass(frozen=True)
class GpuHourPrice:
    usd_per_gpu_hour: float
    offer: CloudOffer


@dataclass(frozen=True)
class JobPrice:
    """What one job of `gpus` GPUs costs per hour on one offer, and how it sits on the instances."""
    offer: CloudOffer
    pricing: str
    gpus: int
    one_machine: bool
    instances: int              # instances rented for one job (one_machine: 1)
    jobs_per_instance: int      # one_machine: how many such jobs one instance hosts
    usd_per_instance_hour: float

    @property
    def usd_per_hour(self) -> float:
        """What the job pays alone: its whole instances (one GPU of a machine sold only whole pays the machine)."""
        return self.instances * self.usd_per_instance_hour

    @property
    def usd_per_hour_shared(self) -> float:
        """Its share of an instance that hosts several such jobs (replicas of a fleet filling the machine)."""
        return self.usd_per_hour / self.jobs_per_instance

    @property
    def usd_per_gpu_hour(self) -> float:
        return self.usd_per_hour / self.gpus

    @property
    def idle_gpus(self) -> float:
        """GPUs the job rents but does not use."""
        return self.instances * self.offer.gpus_per_instance - self.gpus

    def describe(self) -> str:
        o = self.offer
        how = (f"{self.jobs_per_instance} x {self.gpus}-GPU replicas per {o.instance_type}" if self.jobs_per_instance > 1
               else f"{self.instances} x {o.instance_type}")
        return f"{o.provider} {how} ({o.region}, {self.pricing.replace('_', '-')})"


def spot_price_doubt(offer: CloudOffer) -> str | None:
    """Why the offer's spot price is not to be trusted, or None: above its on-demand price, or below SPOT_FLOOR of it."""
    return spot_doubt(offer.spot_usd_per_hour, offer.on_demand_usd_per_hour)


def instance_usd_per_hour(offer: CloudOffer, pricing: str) -> float | None:
    """One instance's price under the rule: None where the offer has no such price or its spot price is in doubt."""
    if pricing != "on_demand" and spot_price_doubt(offer):
        return None
    return offer.usd_per_hour(pricing)


def usd_per_gpu_hour(offer: CloudOffer, pricing: str) -> float | None:
    price = instance_usd_per_hour(offer, pricing)
    return None if price is None else price / offer.gpus_per_instance


def offer_class(catalog: Catalog, offer: CloudOffer) -> str:
    """datacenter or marketplace: the offer's own class, else its provider's."""
    if offer.offer_class:
        return offer.offer_class
    provider = catalog.provider_by_id.get(offer.provider)
    return provider.offer_class if provider else "datacenter"


def known_providers(catalog: Catalog, providers: list[str] | None) -> frozenset[str] | None:
    """The providers asked for, lower-cased (None where none is); an unknown one raises with the closest names."""
    wanted = frozenset(p.lower() for p in providers or [])
    unknown = wanted - set(catalog.provider_by_id)
    if unknown:
        close = [m for name in sorted(unknown) for m in difflib.get_close_matches(name, list(catalog.provider_by_id), 1)]
        raise SizingError(f"unknown provider(s) {sorted(unknown)}" + (f"; did you mean {', '.join(close)}?" if close else "")
                          + f" Known: {', '.join(sorted(catalog.provider_by_id))}")
    return wanted or None


def price_class(catalog: Catalog, offer: CloudOffer, pricing: str) -> str:
    """The class a figure is quoted in: spot for a spot price, else the offer's on-demand class."""
    return "spot" if pricing == "spot" else offer_class(catalog, offer)


def offers_in(catalog: Catalog, gpu_id: str, jurisdiction: str | None = None) -> list[CloudOffer]:
    offers = catalog.offers_for(gpu_id)
    if jurisdiction:
        offers = [o for o in offers if in_jurisdiction(o, jurisdiction)]
    return offers


def in_jurisdiction(offer: CloudOffer, wanted: str) -> bool:
    """EU includes the EEA rows only when asked for EEA; a country code matches its country too."""
    wanted = wanted.strip().upper()
    return wanted in (offer.jurisdiction.upper(), offer.country.upper())


def cheapest(catalog: Catalog, gpu_id: str, pricing: str, jurisdiction: str | None = None) -> GpuHourPrice | None:
    priced = [(rate, o) for o in offers_in(catalog, gpu_id, jurisdiction) if (rate := usd_per_gpu_hour(o, pricing)) is not None]
    if not priced:
        return None
    price, offer = min(priced, key=lambda p: (p[0], p[1].offer_id))
    return GpuHourPrice(price, offer)


def job_prices(catalog: Catalog, gpu_id: str, gpus: int, pricing: str = "on_demand", *, one_machine: bool = True,
               jurisdiction: str | None = None) -> list[JobPrice]:
    """Every offer that can run a job of `gpus` GPUs, cheapest per job first. Slices of a GPU are left out."""
    return sorted(job_options(catalog, gpu_id, gpus, pricing, one_machine, jurisdiction), key=job_order)


def job_order(price: JobPrice) -> tuple[float, float, str]:
    return price.usd_per_hour, price.idle_gpus, price.offer.offer_id


def job_options(catalog: Catalog, gpu_id: str, gpus: int, pricing: str, one_machine: bool,
                jurisdiction: str | None) -> list[JobPrice]:
    found = []
    for offer in offers_in(catalog, gpu_id, jurisdiction):
        hourly, size = instance_usd_per_hour(offer, pricing), offer.gpus_per_instance
        if hourly is None or size < 1 or size != int(size):
            continue
        size = int(size)
        if one_machine:
            if size < gpus:
                continue
            found.append(JobPrice(offer, pricing, gpus, True, 1, size // gpus, hourly))
        else:
            found.append(JobPrice(offer, pricing, gpus, False, math.ceil(gpus / size), 1, hourly))
    return found


def cheapest_job(catalog: Catalog, gpu_id: str, gpus: int, pricing: str = "on_demand", *, one_machine: bool = True,
                 jurisdiction: str | None = None) -> JobPrice | None:
    key = ("cheapest_job", gpu_id, gpus, pricing, one_machine, jurisdiction)
    if key in catalog.derived:  # the fit scan asks this for every GPU of every estimate
        found = catalog.derived[key]
        assert found is None or isinstance(found, JobPrice)
        return found
    prices = job_options(catalog, gpu_id, gpus, pricing, one_machine, jurisdiction)
    return remembered(catalog, key, min(prices, key=job_order) if prices else None)


def machine_price(catalog: Catalog, gpu_id: str, gpus: int, pricing: str = "on_demand", *,
                  jurisdiction: str | None = None) -> JobPrice | None:
    """The default price of a job of `gpus` GPUs: the cheapest machine that holds them all (a tensor-parallel replica or a
    sharded training job wants one NVLink domain); where no machine does, the cheapest of the largest machines combined,
    as a multi-node job runs. Smaller machines split the job only when a caller asks (cloud_cost single_instance=false)."""
    one = cheapest_job(catalog, gpu_id, gpus, pricing, one_machine=True, jurisdiction=jurisdiction)
    if one is not None:
        return one
    key = ("machine_price", gpu_id, gpus, pricing, jurisdiction)
    if key in catalog.derived:
        found = catalog.derived[key]
        assert found is None or isinstance(found, JobPrice)
        return found
    return remembered(catalog, key, machine_choice([], job_options(catalog, gpu_id, gpus, pricing, False, jurisdiction)))


def machine_choice(one_machine: list[JobPrice], combined: list[JobPrice]) -> JobPrice | None:
    """`machine_price`'s rule over given options: the cheapest in one machine, else the cheapest of the largest combined."""
    if one_machine:
        return min(one_machine, key=job_order)
    largest = max((p.offer.gpus_per_instance for p in combined), default=0)
    return min((p for p in combined if p.offer.gpus_per_instance == largest), key=job_order, default=None)


def remembered(catalog: Catalog, key: tuple[Hashable, ...], value: Remembered) -> Remembered:
    """A derived answer kept for the next call, while the catalog holds fewer than DERIVED_LIMIT of them: a long-running
    server asked with ever new arguments (a jurisdiction string, a GPU count) must not grow without bound."""
    if len(catalog.derived) < DERIVED_LIMIT:
        catalog.derived[key] = value
    return value


class FleetPrice(NamedTuple):  # a NamedTuple: the planner builds thousands per call
    """`replicas` tensor-parallel replicas of `gpus` GPUs each, every replica inside one machine."""
    job: JobPrice
    instances: int

    @property
    def usd_per_hour(self) -> float:
        return self.instances * self.job.usd_per_instance_hour


def cheapest_fleet(catalog: Catalog, gpu_id: str, gpus: int, replicas: int, pricing: str = "on_demand",
                   jurisdiction: str | None = None) -> FleetPrice | None:
    """The offer that hosts all replicas for the least per hour: an instance of k GPUs holds k // gpus replicas, so the
    cheapest offer for one replica is not always the cheapest for several."""
    answer = ("fleet", gpu_id, gpus, replicas, pricing, jurisdiction)
    if answer in catalog.derived:  # a planner asks the same few fleets of every GPU again and again
        found = catalog.derived[answer]
        assert found is None or isinstance(found, FleetPrice)
        return found
    key = ("fleet_options", gpu_id, gpus, pricing, jurisdiction)
    options = catalog.derived.get(key)
    if options is None:  # per instance size, only its cheapest instance can be the answer
        by_size: dict[int, JobPrice] = {}
        for job in job_prices(catalog, gpu_id, gpus, pricing, one_machine=True, jurisdiction=jurisdiction):
            held = by_size.get(job.jobs_per_instance)
            if held is None or (job.usd_per_instance_hour, job.offer.offer_id) < (held.usd_per_instance_hour, held.offer.offer_id):
                by_size[job.jobs_per_instance] = job
        options = remembered(catalog, key, list(by_size.values()))
    assert isinstance(options, list)
    fleets = [FleetPrice(job, math.ceil(replicas / job.jobs_per_instance)) for job in options]
    return remembered(catalog, answer, min(fleets, key=lambda f: (f.usd_per_hour, f.job.offer.offer_id)) if fleets else None)


def billed_hours(hours: float, provider: Provider) -> float:
    """Wall-clock hours rounded up to the provider's billing increment, at least its minimum charge (per second with no
    minimum where the provider publishes none in the catalog)."""
    increment = provider.billing_increment_seconds or 1
    seconds = hours * 3600
    increments = max(1, math.ceil(round(seconds / increment, 9)))  # any job, however short, starts one increment
    return max(provider.minimum_billed_seconds or 0, increments * increment) / 3600


@dataclass(frozen=True)
class PriceAge:
    stale: bool        # certainly older than STALE_AFTER_DAYS
    uncertain: bool    # the price date is an interval reaching back further than that


def price_age(offer: CloudOffer, today: datetime.date | None = None) -> PriceAge:
    today = today or datetime.date.today()
    earliest, latest = offer.price_dates
    stale = (today - latest).days > STALE_AFTER_DAYS
    uncertain = not stale and (earliest is None or (today - earliest).days > STALE_AFTER_DAYS)
    return PriceAge(stale, uncertain)


@dataclass(frozen=True)
class FitCost:
    """What running a workload costs per hour on one GPU type, by the job-pricing rule above."""
    gpu_id: str
    gpus_needed: int
    usd_per_gpu_hour: float | None
    usd_per_hour: float | None
    provider: str | None


class PricedFit(Protocol):
    """What ranking needs of a fit (estimate_vram's GpuFit, priced by the fit scan)."""
    @property
    def gpu_id(self) -> str: ...
    @property
    def gpus_needed(self) -> int: ...
    @property
    def usd_per_hour(self) -> float | None: ...
    @property
    def provider(self) -> str | None: ...


def cheapest_fits(catalog: Catalog, fits: Iterable[PricedFit]) -> list[FitCost]:
    """estimate_vram's fits (each already priced by `price_fit`) ranked by hourly cost; unpriced GPUs last."""
    costs = [FitCost(f.gpu_id, f.gpus_needed, f.usd_per_hour / f.gpus_needed if f.usd_per_hour else None, f.usd_per_hour,
                     f.provider) for f in fits]
    return sorted(costs, key=lambda c: (c.usd_per_hour is None, c.usd_per_hour or 0, c.gpus_needed, c.gpu_id))
