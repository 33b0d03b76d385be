"""compare_gpus' alternatives: for each compared GPU a model does not fit on one of, the first change of the fix-it
ladder that fits it (estimate_vram on that GPU finds them), in the order the GPUs were asked."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.memory import Alternative, estimate_vram

SHOWN = 3


def compare_alternatives(workload: Mapping[str, Any], rows: list[tuple[str, bool | None]], catalog: Catalog) -> list[Alternative]:
    """rows: each compared GPU's id and whether the workload fits one of it (None: no workload)."""
    found: list[Alternative] = []
    for gpu_id, fits in rows:
        if fits is not False or len(found) == SHOWN:
            continue
        try:
            estimate = estimate_vram(**{**workload, "gpu": gpu_id}, catalog=catalog)
        except SizingError:
            continue
        found += estimate.alternatives[:1]
    return found
