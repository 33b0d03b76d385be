"""An optional workload riding along another tool's arguments (compare_gpus, cloud_cost): estimate_vram's fields."""
from __future__ import annotations

from pydantic import BaseModel

from gpusizer.catalog import SizingError

from .vram_models import VramRequest

# What describes the job; how it is spread over GPUs is the calling tool's business.
WORKLOAD_FIELDS = [name for name in VramRequest.model_fields if name not in {"gpu", "num_gpus", "tensor_parallel", "sharding"}]


def workload_of(request: BaseModel, tool: str) -> dict:
    """The extra arguments of a request that allows extras, checked to be workload fields (or a fix-it error)."""
    workload = dict(request.model_extra or {})
    unknown = set(workload) - set(WORKLOAD_FIELDS)
    if unknown:
        raise SizingError(f"{tool}: unknown argument(s) {sorted(unknown)}; workload fields are {sorted(WORKLOAD_FIELDS)}")
    return workload
