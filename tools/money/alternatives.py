"""cloud_cost's alternatives: where a model decides how many GPUs a job rents, the fix-it ladder's changes that hold it
on fewer of them (estimate_vram on the GPU finds those), each priced again by cloud_cost and kept where the cheapest
offer costs at least 15% less."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import Field

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.alternatives import Change, retried, worth_it
from gpusizer.tools.figures import usd
from gpusizer.tools.memory import estimate_vram

SHOWN = 3
LAYOUT = frozenset({"num_gpus", "tensor_parallel", "sharding"})  # cloud_cost finds the GPUs a workload needs itself


class CostAlternative(Change):
    """A change to the workload and the cheapest offer for the GPUs it then needs."""
    gpu_count: int = Field(description="GPUs the job then rents")
    total_usd: float = Field(description="the cheapest offer's total")


def cost_alternatives(arguments: Mapping[str, Any], workload: Mapping[str, Any], gpu_id: str, gpu_count: int,
                      cheapest_usd: float | None, cost: Callable[..., Any], catalog: Catalog) -> list[CostAlternative]:
    """For a workload that takes more than one `gpu_id`: the changes that take fewer, priced; cheapest first."""
    if not workload or arguments.get("gpu_count") is not None or gpu_count <= 1:
        return []
    try:
        fixes = estimate_vram(**{**workload, "gpu": gpu_id}, catalog=catalog).alternatives
    except SizingError:
        return []
    found = []
    for fix in fixes:
        change = {name: value for name, value in fix.arguments.items() if name not in LAYOUT}
        if fix.gpus >= gpu_count or not change:
            continue
        again = retried(cost, {**arguments, **workload}, change)
        total: float | None = again.offers[0].total_usd if again is not None and again.offers else None
        if total is not None and again is not None and worth_it(cheapest_usd, total):
            text = f"{fix.change}: {again.gpu_count} x {gpu_id}, {usd(total)} in all"
            found.append(CostAlternative(change=fix.change, arguments=change, text=text, gpu_count=again.gpu_count,
                                         total_usd=total))
    unique: dict[int, CostAlternative] = {}
    for alternative in found:  # the ladder's order: a lighter change first ('FP8' before '4-bit' on as many GPUs)
        unique.setdefault(alternative.gpu_count, alternative)
    return sorted(unique.values(), key=lambda a: a.total_usd)[:SHOWN]
