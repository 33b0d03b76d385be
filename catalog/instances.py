"""Cloud instance types as the GPUs they hold ('p4d.24xlarge' is 8 x A100 40GB), so a question may name either."""
from __future__ import annotations

import datetime
import re
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, cast

from pydantic import BaseModel, ConfigDict, Field

from .loading import builtin_text, parse_records, validate_rows

if TYPE_CHECKING:
    from .catalog import Catalog


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


class Machine(NamedTuple):
    """An instance type as the catalog's offers sell it: where, and the GPUs in it."""
    instance_type: str
    provider: str
    gpu_id: str
    gpus_per_instance: float


def machine_key(name: str) -> str:
    """A name as the machines index keys it: lower case, Azure's optional 'Standard_' prefix dropped, each run of other
    characters one '_' ('Standard_NC96ads_A100_v4' -> 'nc96ads_a100_v4', '1H100.80S.30V' -> '1h100_80s_30v'), so a name
    typed with other separators, or rewritten by a reader, is still found."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower().removeprefix("standard_")).strip("_")


def machines(catalog: Catalog) -> dict[str, Machine]:
    """Every instance type the catalog's offers sell, by machine_key, kept on the catalog (its rows never change after
    loading). A key that offers give different GPUs is left out: it names no one machine."""
    key = ("machines",)
    if key not in catalog.derived:
        found: dict[str, Machine | None] = {}
        for offer in catalog.offers:
            machine = Machine(offer.instance_type, offer.provider, offer.gpu_id, offer.gpus_per_instance)
            known = found.setdefault(machine_key(offer.instance_type), machine)
            if known is not None and known[2:] != machine[2:]:
                found[machine_key(offer.instance_type)] = None
        catalog.derived[key] = {name: machine for name, machine in found.items() if machine is not None}
    return cast("dict[str, Machine]", catalog.derived[key])


def machine_gpus(name: str) -> tuple[str, int, str] | None:
    """A word that names a machine ('p4d.24xlarge', 'gpu_8x_h100_sxm5', 'Standard_NC96ads_A100_v4') as the GPU it holds,
    how many, and its machine_key (cloud_names reads it as the machine, sold or not); None for any
    other word. The offers are the default catalog's: a question's words are read before a catalog is chosen."""
    from .catalog import load_catalog

    sold = machines(load_catalog()).get(machine_key(name))
    found = instance_gpus(name)
    if found is None and sold is not None and sold.gpus_per_instance >= 1:  # (a share of one GPU is no machine to name)
        found = (sold.gpu_id, int(sold.gpus_per_instance))
    return None if found is None else (*found, machine_key(name))
