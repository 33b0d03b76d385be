"""Weights, gradients and optimizer states of a training step, per GPU, under ZeRO/FSDP sharding.

ZeRO's definitions: stage 1 shards the optimizer states (fp32 master weights included), stage 2 adds the
gradients, stage 3 (= FSDP full shard) adds the parameters."""
from __future__ import annotations

from dataclasses import dataclass

SHARDINGS = ("none", "zero1", "zero2", "zero3", "fsdp")
OPTIMIZERS = ("adamw", "adamw_8bit", "paged_adamw_8bit", "paged_adamw", "sgd", "adafactor")
STAGE = {"none": 0, "zero1": 1, "zero2": 2, "zero3": 3, "fsdp": 3}


@dataclass(frozen=True)
class StateBytes:
    weights: float
    gradients: float
    optimizer_states: float
    notes: tuple[str, ...]
    autocast: bool = False  # fp32 parameters run under bf16 autocast, which caches bf16 copies of the weights


def optimizer_bytes_per_param(optimizer: str, state_bytes: int, factored_fraction: float) -> float:
    """Optimizer state bytes per trainable parameter on the GPU (master weights not included). bitsandbytes' paged
    optimizers keep their states in CUDA unified memory, which the driver pages out to CPU memory under pressure:
    they are not counted against the GPU (PyTorch's allocator does not see them either)."""
    if optimizer.startswith("paged_"):
        return 0.0
    if optimizer == "adamw":
        return 2 * state_bytes
    if optimizer == "adamw_8bit":  # bitsandbytes blockwise: 1 byte per state plus an fp32 absmax per 2048 values
        return 2 * (1 + 4 / 2048)
    if optimizer == "sgd":  # momentum buffer
        return state_bytes
    return 4 * factored_fraction  # Adafactor: row and column second-moment factors only, no first moment


def training_state_bytes(*, frozen_params: int, frozen_bytes_per_param: float, trainable_params: int,
                         precision: str, optimizer: str, sharding: str, data_parallel: int,
                         factored_fraction: float) -> StateBytes:
    stage = STAGE[sharding] if data_parallel > 1 else 0

    def shard(value: float, from_stage: int) -> float:
        return value / data_parallel if stage >= from_stage else value

    notes = []
    if precision == "mixed" and stage == 0:
        # HF Trainer style: fp32 parameters (they are the master copy), fp32 gradients, fp32 optimizer states.
        weights_per, grads_per, master_per, state_bytes = 4, 4, 0, 4
        notes.append("mixed precision: fp32 weights (the master copy), fp32 gradients, bf16 autocast compute")
    elif precision == "mixed":
        # DeepSpeed/Megatron style: bf16 parameters and gradients, fp32 master weights inside the optimizer.
        weights_per, grads_per, master_per, state_bytes = 2, 2, 4, 4
        notes.append("mixed precision under ZeRO: bf16 weights and gradients, fp32 master weights and optimizer states")
    else:
        weights_per, grads_per, master_per, state_bytes = 2, 2, 0, 2
        notes.append("bf16 training: weights, gradients and optimizer states all in bf16")
    optimizer_per = master_per + optimizer_bytes_per_param(optimizer, state_bytes, factored_fraction)
    weights = shard(frozen_params * frozen_bytes_per_param + trainable_params * weights_per, 3)
    gradients = shard(trainable_params * grads_per, 2)
    optimizer_states = shard(trainable_params * optimizer_per, 1)
    if stage:
        notes.append(f"{sharding} over {data_parallel} GPUs: stage {stage} shards "
                     + ", ".join(["optimizer states", "gradients", "parameters"][:stage]))
    autocast = precision == "mixed" and stage == 0 and frozen_params == 0
    return StateBytes(weights, gradients, optimizer_states, tuple(notes), autocast)


def optimizer_step_transient_bytes(largest_param: float, trainable_params: float, optimizer: str, state_bytes: int,
                                   step_kind: str = "per_parameter") -> int:
    """Temporaries of the optimizer step. A per-parameter (foreach=False) AdamW step holds two the size of the
    parameter it updates; the foreach implementation (torch's default on CUDA) one the size of all the parameters
    it steps at once (sqrt of the second moments); a fused kernel none."""
    if trainable_params == 0 or step_kind == "fused" or optimizer.startswith("paged_"):
        return 0
    if step_kind == "foreach" and optimizer in ("adamw",):
        return int(trainable_params * state_bytes)
    if optimizer in ("sgd", "adafactor"):
        return int(min(largest_param, trainable_params) * state_bytes)
    return int(2 * min(largest_param, trainable_params) * state_bytes)
