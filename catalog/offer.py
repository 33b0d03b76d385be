"""Cloud offers (one instance type in one region) and the billing rules of their providers."""
from __future__ import annotations

import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SPOT_FLOOR = 0.20  # a spot price below this share of its on-demand price is set aside


def spot_doubt(spot: float | None, on_demand: float | None) -> str | None:
    """Why a spot price is not to be trusted beside its on-demand price, or None: above it (nobody pays more than
    on-demand: a stale row), or below SPOT_FLOOR of it (spot markets bottom out around a quarter of on-demand; lower is a
    stale or mistyped row). The one rule `gpusizer catalog update` and every pricing tool apply."""
    if spot is None or on_demand is None:
        return None
    if spot > on_demand:
        return f"spot ${spot:,.2f}/h is above on-demand ${on_demand:,.2f}/h"
    if spot < SPOT_FLOOR * on_demand:
        return f"spot ${spot:,.2f}/h is {spot / on_demand:.0%} of on-demand ${on_demand:,.2f}/h, below the {SPOT_FLOOR:.0%} floor"
    return None


def price_date_bounds(text: str) -> tuple[datetime.date | None, datetime.date]:
    """'2026-05-18' -> (that day, that day); '2026-02-06/2026-11-22' -> both ends; '../2026-11-22' -> (None, end)."""
    start, _, end = str(text).partition("/")
    try:
        if not end:
            day = datetime.date.fromisoformat(start)
            return day, day
        last = datetime.date.fromisoformat(end)
        first = None if start in ("", "..") else datetime.date.fromisoformat(start)
    except ValueError:
        raise ValueError(f"as_of must be an ISO date or an interval such as 2026-02-06/2026-11-22 (got {text!r})") from None
    if first is not None and first > last:
        raise ValueError(f"as_of interval {text!r} ends before it starts")
    return first, last


class Provider(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    billing_increment_seconds: int | None = Field(default=None, gt=0, description="None: not published (per second assumed)")
    minimum_billed_seconds: int | None = Field(default=None, ge=0)
    sells_spot: bool
    offer_class: Literal["datacenter", "marketplace"] = Field(
        default="datacenter", description="datacenter: the provider runs the machines; marketplace: hosts or resold capacity "
        "listed by others (community clouds, aggregators)")
    storage_usd_per_gb_month: float | None = Field(default=None, ge=0, description="block/network storage next to the GPUs")
    egress_usd_per_gb: float | None = Field(default=None, ge=0, description="internet egress, first pricing tier")
    egress_free_gb_per_month: float = Field(default=0.0, ge=0, description="internet egress the provider does not charge each month")
    storage_egress_source: str = ""
    storage_egress_verification: str = ""
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = ""
    notes: str = ""


class CloudOffer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    offer_id: str = Field(min_length=3)
    provider: str
    instance_type: str
    gpu_id: str
    gpus_per_instance: float = Field(gt=0, le=64, description="GPUs in the smallest unit one rents; fractional where a "
                                     "provider sells a slice of one GPU")
    machine_gpus: int | None = Field(default=None, ge=1, le=72, description="GPUs in the physical machine (or NVLink domain) "
                                     "the instance runs on, where known: a 1-GPU VM on an 8-GPU host says 8")
    interconnect: str = Field(default="", description="how the instance's GPUs talk to each other ('NVLink 900 GB/s', "
                              "'Infinity Fabric', 'PCIe'); empty: not stated by the source")
    quoted_per_gpu: bool = Field(default=False, description="the source quotes a per-GPU-hour price for a machine sold whole: "
                                 "on_demand_usd_per_hour is that price x gpus_per_instance")
    offer_class: Literal["datacenter", "marketplace"] | None = Field(default=None, description="overrides the provider's class "
                                                                       "(a provider with both, like RunPod's secure and community clouds)")
    vcpus: float | None = Field(default=None, gt=0)
    ram_gb: float | None = Field(default=None, gt=0)
    region: str
    country: str = ""
    jurisdiction: str = Field(default="", description="whose data-protection law applies: EU, EEA, US, UK, CA, JP, IN, ...")
    on_demand_usd_per_hour: float | None = Field(default=None, gt=0, description="one instance")
    spot_usd_per_hour: float | None = Field(default=None, gt=0, description="one instance")
    spot_zone: str = Field(default="", description="the zone the spot price is for, or how it was chosen")
    as_of: str = Field(description="when the provider priced it: an ISO date, or an interval start/end ('../end': start unknown)")
    checked: datetime.date = Field(description="when gpusizer read the price")
    source: str = Field(min_length=3)
    verification: str = ""
    notes: str = ""
    withdrawn: bool = Field(default=False, exclude=True,
                            description="true: the provider no longer lists it (a user's row, or `gpusizer catalog update`, hides it)")

    @field_validator("as_of")
    @classmethod
    def _price_date(cls, value: str) -> str:
        price_date_bounds(value)
        return value

    @property
    def price_dates(self) -> tuple[datetime.date | None, datetime.date]:
        """(earliest, latest) date the price can be from; earliest None when unknown."""
        return price_date_bounds(self.as_of)

    @model_validator(mode="after")
    def _priced(self) -> CloudOffer:
        if self.on_demand_usd_per_hour is None and self.spot_usd_per_hour is None:
            raise ValueError("an offer needs an on-demand or a spot price")
        return self  # a spot price above on-demand loads: the price rule (tools/pricing.py) flags it and sets it aside

    def usd_per_hour(self, pricing: str) -> float | None:
        """The recorded price, checked or not: price with tools/pricing.py, which sets doubtful spot prices aside."""
        return self.on_demand_usd_per_hour if pricing == "on_demand" else self.spot_usd_per_hour
