"""Prices from the catalog's offers: per GPU-hour, cheapest, billed time, staleness."""
from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from gpusizer.catalog import Catalog, CloudOffer, Provider

STALE_AFTER_DAYS = 90


@dataclass(frozen=True)
class GpuHourPrice:
    usd_per_gpu_hour: float
    offer: CloudOffer


def usd_per_gpu_hour(offer: CloudOffer, pricing: str) -> float | None:
    price = offer.usd_per_hour(pricing)
    return None if price is None else price / offer.gpus_per_instance


def cheapest(catalog: Catalog, gpu_id: str, pricing: str) -> GpuHourPrice | None:
    priced = [(rate, o) for o in catalog.offers_for(gpu_id) if (rate := usd_per_gpu_hour(o, pricing)) is not None]
    if not priced:
        return None
    price, offer = min(priced, key=lambda p: (p[0], p[1].offer_id))
    return GpuHourPrice(price, offer)


def billed_hours(hours: float, provider: Provider) -> float:
    """Wall-clock hours rounded up to the provider's billing increment, at least its minimum charge."""
    seconds = hours * 3600
    increments = math.ceil(round(seconds / provider.billing_increment_seconds, 9))
    return max(provider.minimum_billed_seconds, increments * provider.billing_increment_seconds) / 3600


def is_stale(as_of: datetime.date, today: datetime.date | None = None) -> bool:
    return ((today or datetime.date.today()) - as_of).days > STALE_AFTER_DAYS


@dataclass(frozen=True)
class FitCost:
    """What running a workload costs per hour on one GPU type: the GPUs it needs at the cheapest on-demand rate."""
    gpu_id: str
    gpus_needed: int
    usd_per_gpu_hour: float | None
    usd_per_hour: float | None
    provider: str | None


def cheapest_fits(catalog: Catalog, fits) -> list[FitCost]:
    """`estimate_vram`'s fits ranked by hourly cost (gpus_needed x cheapest on-demand $/GPU-h); unpriced GPUs last."""
    costs = []
    for fit in fits:
        price = cheapest(catalog, fit.gpu_id, "on_demand")
        rate = price.usd_per_gpu_hour if price else None
        costs.append(FitCost(fit.gpu_id, fit.gpus_needed, rate, rate * fit.gpus_needed if rate else None,
                             price.offer.provider if price else None))
    return sorted(costs, key=lambda c: (c.usd_per_hour is None, c.usd_per_hour or 0, c.gpus_needed, c.gpu_id))
