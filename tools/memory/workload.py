"""An optional workload riding along another tool's arguments (compare_gpus, cloud_cost): estimate_vram's fields."""
from __future__ import annotations

from typing import Any, TypedDict

from pydantic import BaseModel

from gpusizer.catalog import SizingError
from gpusizer.tools.memory.engine_settings import ENGINE_FIELDS
from gpusizer.tools.memory.request import (
    KvDtype,
    LoraTargets,
    Loss,
    Method,
    Optimizer,
    OptimizerStep,
    Recipe,
    TrainingPrecision,
    VramRequest,
    WeightsDtype,
    Workload,
)

# What describes the job; how it is spread over GPUs is the calling tool's business.
WORKLOAD_FIELDS = [name for name in VramRequest.model_fields
                   if name not in {"gpu", "num_gpus", "tensor_parallel", "sharding", *ENGINE_FIELDS}]
# The riders an MCP client sees on compare_gpus and cloud_cost (tools/list is context on every turn: the rarely
# used ones are estimate_vram's alone; Python callers may pass any workload field).
CORE_WORKLOAD_FIELDS = ["model", "params_billions", "workload", "method", "weights_dtype", "batch_size", "seq_len"]


class WorkloadArguments(TypedDict, total=False):
    """estimate_vram's workload fields riding along compare_gpus, cloud_cost and plan_serving (VramRequest holds
    their limits and descriptions; tests check the two agree)."""
    model: str
    params_billions: float
    workload: Workload
    method: Method
    weights_dtype: WeightsDtype
    kv_cache_dtype: KvDtype
    training_precision: TrainingPrecision
    optimizer: Optimizer
    recipe: Recipe
    loss: Loss
    logits_kept: bool
    gradient_checkpointing: bool
    activation_offloading: bool
    optimizer_in_backward: bool
    torch_compile: bool
    batch_size: int
    seq_len: int
    lora_rank: int
    lora_targets: LoraTargets
    lora_dropout: float
    optimizer_step: OptimizerStep
    kbit_upcast: bool
    framework_version: str


def workload_of(request: BaseModel, tool: str, own: list[str]) -> dict[str, Any]:
    """The extra arguments of a request that allows extras, checked to be workload fields (or a fix-it error)."""
    workload = dict(request.model_extra or {})
    unknown = set(workload) - set(WORKLOAD_FIELDS)
    if unknown:
        from gpusizer.tools.validation import unknown_arguments_message

        raise SizingError(unknown_arguments_message(tool, unknown, [*own, *WORKLOAD_FIELDS]))
    return workload

