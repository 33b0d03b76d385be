"""Cloud offers (one instance type in one region) and the billing rules of their providers."""
from __future__ import annotations

import datetime

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Provider(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    billing_increment_seconds: int = Field(gt=0)
    minimum_billed_seconds: int = Field(ge=0)
    sells_spot: bool
    storage_usd_per_gb_month: float | None = Field(default=None, ge=0, description="block/network storage next to the GPUs")
    egress_usd_per_gb: float | None = Field(default=None, ge=0, description="internet egress, first pricing tier")
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
    gpus_per_instance: float = Field(gt=0, le=64, description="fractional where a provider sells a slice of one GPU")
    vcpus: float | None = Field(default=None, gt=0)
    ram_gb: float | None = Field(default=None, gt=0)
    region: str
    on_demand_usd_per_hour: float | None = Field(default=None, gt=0, description="one instance")
    spot_usd_per_hour: float | None = Field(default=None, gt=0, description="one instance")
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = ""
    notes: str = ""

    @model_validator(mode="after")
    def _priced(self) -> CloudOffer:
        if self.on_demand_usd_per_hour is None and self.spot_usd_per_hour is None:
            raise ValueError("an offer needs an on-demand or a spot price")
        on_demand, spot = self.on_demand_usd_per_hour, self.spot_usd_per_hour
        if on_demand is not None and spot is not None and spot > on_demand:
            raise ValueError("spot price above on-demand price")
        return self

    def usd_per_hour(self, pricing: str) -> float | None:
        return self.on_demand_usd_per_hour if pricing == "on_demand" else self.spot_usd_per_hour
