"""The lines of the cost of owning GPUs: each line's value is the caller's, or the catalog's sourced default for the
GPU's class (catalog/data/ownership.csv), and says which it is.

One basis for the server price of every GPU class: the card's price (gpus.csv `purchase_usd`) plus the non-GPU parts of
its server; only a GPU sold solely inside a rack system (GB200) is priced from the system's price per GPU.
"""
from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from gpusizer.catalog import Catalog, GpuSpec, SizingError

GPUS_PER_NODE = 8  # staff and fabric are counted per 8-GPU server, the machine data-centre GPUs are sold in


class CostLine(BaseModel):
    """One line of the owner's costs: the figure used, its unit, where it came from, and its dollars over the horizon."""
    line: str
    value: float
    unit: str
    total_usd: float = 0.0
    given: bool
    source: str
    as_of: str = ""


@dataclass(frozen=True)
class Figure:
    value: float
    unit: str
    given: bool
    source: str
    as_of: str = ""


def gpu_class(spec: GpuSpec) -> str:
    """'workstation' for a consumer or workstation card (it goes into a computer you own), else 'datacenter'."""
    form = spec.form_factor.lower()
    return "workstation" if "consumer" in form or "workstation" in form or spec.vendor == "Apple" else "datacenter"


def sold_in(spec: GpuSpec, server: int) -> int:
    """How many of a GPU come together when no count is said: one PCIe card, else a server of SXM or OAM modules."""
    return 1 if spec.form_factor.startswith("PCIe") else server


def default_figure(catalog: Catalog, line: str, spec: GpuSpec, given: float | None, unit: str | None = None) -> Figure:
    """The caller's figure, else the catalog's row for this line and the GPU's class."""
    row = catalog.ownership_by_id.get(f"{line}:{gpu_class(spec)}")
    if given is not None:
        return Figure(given, unit or (row.unit if row else ""), True, "given")
    if row is None:
        raise SizingError(f"the catalog has no default for {line} ({gpu_class(spec)}); pass it")
    return Figure(row.value, row.unit, False, row.source, row.as_of.isoformat())


def server_price(catalog: Catalog, spec: GpuSpec, purchase: float | None, server_share: float | None) -> tuple[Figure, Figure]:
    """(the GPU with its share of the server, the server share alone) per GPU, on one basis for every class."""
    if purchase:
        return Figure(purchase, "usd_per_gpu", True, "given"), Figure(0.0, "usd_per_gpu", True, "inside the given purchase")
    if spec.purchase_usd is None:
        if spec.node_usd_per_gpu and server_share is None:  # sold only inside a rack system: the system's price per GPU
            return (Figure(spec.node_usd_per_gpu, "usd_per_gpu", False, f"a rack system's price per GPU: {spec.node_price_source}",
                           spec.as_of.isoformat()),
                    Figure(0.0, "usd_per_gpu", False, f"inside the system price ({spec.node_price_parts})"))
        raise SizingError(f"the catalog has no purchase price for {spec.gpu_id} ({spec.purchase_note or 'none found'}); "
                          "say what you would pay: pass purchase_usd_per_gpu (the GPU plus its share of server and network)")
    share = default_figure(catalog, "server_parts", spec, server_share, "usd_per_gpu")
    return (Figure(spec.purchase_usd + share.value, "usd_per_gpu", False,
                   f"the card ${spec.purchase_usd:,.0f} + server parts ${share.value:,.0f} (card: {spec.purchase_source}; "
                   f"server parts: {share.source})",
                   spec.as_of.isoformat()), share)


def busy_watts(catalog: Catalog, spec: GpuSpec, given: float | None) -> Figure:
    """The GPU's TDP plus its share of the host's draw (a row of ownership.csv per GPU class)."""
    if given is not None:
        return Figure(given, "watts_per_gpu", True, "given")
    if spec.tdp_watts is None:
        raise SizingError(f"the catalog has no TDP for {spec.gpu_id}; pass power_watts_per_gpu")
    host = default_figure(catalog, "host_power", spec, None)
    return Figure(spec.tdp_watts * (1 + host.value), "watts_per_gpu", False,
                  f"{spec.tdp_watts:.0f} W TDP (gpus.csv) + {host.value:.0%} for the host: {host.source}", spec.as_of.isoformat())


def nodes(gpu_count: int) -> int:
    return -(-gpu_count // GPUS_PER_NODE)


def residual_share(figure: Figure, years: float) -> float:
    """The residual value's share of the hardware at the horizon: a default given for 3 years keeps its yearly decline."""
    if figure.given or figure.unit != "fraction_after_3_years":
        return figure.value
    return float(figure.value ** (years / 3))
