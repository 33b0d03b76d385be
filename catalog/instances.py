"""Cloud instance types as the GPUs they hold ('p4d.24xlarge' is 8 x A100 40GB), so a question may name either."""
from __future__ import annotations

import datetime
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from .loading import builtin_text, parse_records, validate_rows


class InstanceType(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    instance_type: str = Field(pattern=r"^[a-z0-9][a-z0-9._\-]*$", description="as the provider writes it, lower case")
    provider: str
    gpu_id: str
    gpus_per_instance: int = Field(gt=0, le=64)
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = Field(min_length=3, description="how the row was checked (against offers.csv, or not fetched)")


@cache
def instance_types() -> dict[str, InstanceType]:
    """The built-in table (catalog/data/instance_types.csv), by instance type."""
    name = "instance_types.csv"
    rows = validate_rows(parse_records(builtin_text(name), name), InstanceType, name, "instance_type")
    return {row.instance_type: row for row in rows}


def instance_gpus(name: str, provider: str | None = None) -> tuple[str, int] | None:
    """'p4d.24xlarge' -> ('a100-40gb-sxm', 8); Azure's 'Standard_' prefix is optional; None for a name the table does
    not hold (or holds for another provider, where one is named)."""
    key = name.lower()
    row = instance_types().get(key) or instance_types().get(key.removeprefix("standard_"))
    if row is None or (provider is not None and row.provider != provider):
        return None
    return row.gpu_id, row.gpus_per_instance
