"""What owning GPUs costs besides the GPUs: one row per cost line and GPU class, each with its source; and the
reserved (1- and 3-year) rates that are the real alternative to buying."""
from __future__ import annotations

import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

CostLine = Literal["server_parts", "networking", "host_power", "colocation", "idle_draw", "maintenance", "staff", "financing", "residual"]
GpuClass = Literal["datacenter", "workstation"]
ReservedTerm = Literal["reserved_1y", "reserved_3y"]


class OwnershipCost(BaseModel):
    """A default for one line of the cost of owning, for one class of GPU (rent_vs_buy reads these; every one is an
    argument a caller can override)."""
    model_config = ConfigDict(frozen=True, extra="forbid")

    cost_id: str = Field(pattern=r"^[a-z_]+:[a-z]+$", description="'<line>:<gpu class>'")
    line: CostLine
    gpu_class: GpuClass
    value: float = Field(ge=0)
    unit: str = Field(min_length=1, description="usd_per_gpu, usd_per_kw_month, fraction_of_gpu_tdp, fraction_of_busy_draw, "
                      "fraction_per_year, usd_per_node_year, rate_per_year, fraction_after_3_years")
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = ""
    notes: str = ""

    @model_validator(mode="after")
    def _named(self) -> OwnershipCost:
        if self.cost_id != f"{self.line}:{self.gpu_class}":
            raise ValueError(f"cost_id must be '{self.line}:{self.gpu_class}'")
        return self


class ReservedRate(BaseModel):
    """A 1- or 3-year commitment price: a share of one offer's on-demand price (instance_type set), or a market rate
    per GPU-hour for a GPU (instance_type empty)."""
    model_config = ConfigDict(frozen=True, extra="forbid")

    reserved_id: str = Field(min_length=3)
    provider: str = ""
    instance_type: str = ""
    gpu_id: str
    term: ReservedTerm
    share_of_on_demand: float | None = Field(default=None, gt=0, le=1)
    usd_per_gpu_hour: float | None = Field(default=None, gt=0)
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = ""
    notes: str = ""

    @model_validator(mode="after")
    def _priced(self) -> ReservedRate:
        if (self.share_of_on_demand is None) == (self.usd_per_gpu_hour is None):
            raise ValueError("give share_of_on_demand (with provider and instance_type) or usd_per_gpu_hour, not both")
        if self.share_of_on_demand is not None and not (self.provider and self.instance_type):
            raise ValueError("share_of_on_demand needs the provider and instance_type it applies to")
        return self
