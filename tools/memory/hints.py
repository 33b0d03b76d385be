"""What one change would make a workload fit the GPU it was checked on: each hint is re-estimated, never guessed.

Tried in order, each alone: split an inference model across the GPUs already given (tensor parallel), turn on
gradient checkpointing for training, then as many GPUs of this type as the fit search needs. A hint is offered only
when the estimate with that change fits.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.memory import fitting
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.request import VramEstimate, VramRequest
from gpusizer.tools.validation import default_of


class FitHint(BaseModel):
    changes: dict[str, Any]  # estimate_vram arguments to set
    per_gpu_bytes: int       # the peak per GPU with them


def fit_hints(arguments: dict[str, Any], result: VramEstimate, catalog: Catalog, limit: int = 2) -> list[FitHint]:
    """For an estimate checked on a GPU that does not fit: the changes that make it fit, best first."""
    check = result.gpu_check
    if check is None or check.fits or arguments.get("engine", "hf") != "hf":
        return []
    workload = arguments.get("workload", "inference")
    gpus = arguments.get("num_gpus", 1)
    tries: list[dict[str, Any]] = []
    if workload == "inference" and gpus > 1 and arguments.get("tensor_parallel", 1) == 1:
        tries.append({"tensor_parallel": gpus})
    if workload == "training" and not (result.training and result.training.gradient_checkpointing):
        tries.append({"gradient_checkpointing": True})
    needed = next((f.gpus_needed for f in result.fits if f.gpu_id == check.gpu_id), None)
    if needed and needed > gpus:  # only what changes: 'tensor_parallel 1' is no change when it is 1 already
        layout = fitting.spread_over(workload, needed)
        tries.append({k: v for k, v in layout.items() if arguments.get(k, default_of(VramRequest, k)) != v})
    hints = []
    for changes in tries:
        try:
            again = estimate_vram(**{**arguments, **changes, "catalog": catalog})
        except SizingError:
            continue
        if again.gpu_check is not None and again.gpu_check.fits:
            hints.append(FitHint(changes=changes, per_gpu_bytes=again.gpu_check.per_gpu_bytes))
        if len(hints) == limit:
            break
    return hints
