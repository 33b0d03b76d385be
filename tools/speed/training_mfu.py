"""Model-FLOPs utilisation (MFU) of a training run, by GPU generation, model size and scale, from published runs.

MFU here counts 6 FLOPs per parameter per token (attention's own FLOPs left out, as training_time counts them) over the
run's time, as a share of the dense 16-bit peak of every GPU, under the source's own activation checkpointing; where a
source reports tokens/s, the MFU is worked out from it that way (torchtitan's own MFU adds attention's FLOPs, a few
points more at 8k tokens). To time a run under other settings, the row is turned into the share of the peak the GPUs'
arithmetic reached (hardware FLOPs: 8 per parameter under full recomputation, about 6.2 under selective recomputation)
and the run's own FLOPs are counted at that share (training_time.py).

Scale decides which rows apply: a job on one or a few nodes runs at its steady-state throughput (torchtitan's tables);
pretraining on thousands of GPUs is what the published GPU-hours of whole runs imply, failures and restarts included.
"""
from __future__ import annotations

import math
from typing import Literal, NamedTuple

from gpusizer.catalog import GpuSpec

Checkpointing = Literal["none", "selective", "full"]
TORCHTITAN = "pytorch/torchtitan docs/performance.md"
# Selective recomputation redoes only attention's softmax/dropout/QK^T part: 2.7% more FLOPs for GPT-3 175B (Korthikanti
# et al. 2022, "Reducing Activation Recomputation in Large Transformer Models", table 4); 6 x 1.03 per parameter.
SELECTIVE_FLOPS_PER_PARAMETER = 6.2
CLUSTER_GPUS = 256  # from here on, a run is cluster pretraining: the whole-run rows apply


class MfuRow(NamedTuple):
    generation: str          # GPU architecture family: "ampere", "hopper"
    cluster: bool            # a whole pretraining run on thousands of GPUs (True) or a job on a few nodes (False)
    params_billions: float   # the model size the row was measured on
    mfu: float
    checkpointing: Checkpointing
    source: str


MFU_ROWS = (
    MfuRow("ampere", False, 8, 0.45, "selective", f"{TORCHTITAN}: Llama 3 8B, FSDP2 on 64 A100, 2,904-2,973 tokens/s/GPU"),
    MfuRow("ampere", False, 70, 0.45, "full", f"{TORCHTITAN}: Llama 3 70B, FSDP2 on 64 A100, 331 tokens/s/GPU"),
    MfuRow("ampere", True, 7, 0.40, "none", "Llama 2 paper table 2: 7B-70B on 2T tokens, 184k-1.72M A100 hours = 38-43%"),
    MfuRow("ampere", True, 70, 0.40, "none", "Llama 2 paper table 2: 7B-70B on 2T tokens, 184k-1.72M A100 hours = 38-43%"),
    MfuRow("ampere", True, 530, 0.56, "selective", "Korthikanti et al. 2022 (Megatron-LM) table 5: 175B-1T on 2,240+ A100, "
           "51.4-56.3%"),
    MfuRow("hopper", False, 8, 0.30, "selective", f"{TORCHTITAN}: Llama 3.1 8B, FSDP on 8 H100 at 500 W, 5,762-6,667 "
           "tokens/s/GPU"),
    MfuRow("hopper", False, 405, 0.27, "full", f"{TORCHTITAN}: Llama 3.1 405B, FSDP + TP on 128 H100, 109 tokens/s/GPU"),
    MfuRow("hopper", True, 8, 0.14, "none", "Llama 3.1 8B model card: 1.46M H100 hours for 15T tokens = 14%"),
    MfuRow("hopper", True, 70, 0.25, "none", "Llama 3.1 70B model card: 7.0M H100 hours for 15T tokens = 25%"),
    MfuRow("hopper", True, 405, 0.35, "none", "Llama 3.1 405B model card: 30.84M H100 hours for 15.6T tokens = 35% (the "
           "Llama 3 paper's steady state: 38-43%)"),
)
# FP8 linear layers (torchao float8 / Transformer Engine) speed a run up over the same run in BF16, by model size:
FP8_SPEEDUP = ((8, 1.28, f"{TORCHTITAN}: Llama 3.1 8B on 8 H100, 8,532 vs 6,667 tokens/s/GPU (FSDP + compile)"),
               (405, 1.62, f"{TORCHTITAN}: Llama 3.1 405B on 128 H100, 177 vs 109 tokens/s/GPU (FSDP + TP)"))
# A generation with no published row borrows one, and says so: Hopper's where its dense 16-bit peak is Hopper-class
# (the same 8B model runs at 57% of an A100 and 36% of an H100: the bigger the peak, the more the fixed costs of a step
# weigh), Ampere's below.
HOPPER_CLASS_TFLOPS = 600.0


class Mfu(NamedTuple):
    mfu: float                   # model FLOPs (6 per parameter) over the dense 16-bit peak, under the source's checkpointing
    hardware_share: float        # the share of the peak the arithmetic reached, recomputation included
    source: str


def flops_per_parameter_of(checkpointing: Checkpointing) -> float:
    return {"none": 6.0, "selective": SELECTIVE_FLOPS_PER_PARAMETER, "full": 8.0}[checkpointing]


def generation_of(gpu: GpuSpec) -> tuple[str, bool]:
    """The table's generation for this GPU, and whether it is borrowed from another."""
    name = gpu.architecture.lower().split(" (")[0]
    if name in ("ampere", "hopper"):
        return name, False
    peak = gpu.bf16_tflops_dense or gpu.fp16_tflops_dense or 0.0
    return ("hopper" if peak >= HOPPER_CLASS_TFLOPS else "ampere"), True


def training_mfu(gpu: GpuSpec, params_billions: float, gpus: int) -> Mfu:
    """The published row nearest this run: same generation and scale, the closest model size (log scale)."""
    generation, _ = generation_of(gpu)
    cluster = gpus >= CLUSTER_GPUS
    rows = [r for r in MFU_ROWS if r.generation == generation and r.cluster == cluster]
    row = min(rows, key=lambda r: abs(math.log(max(params_billions, 0.1) / r.params_billions)))
    return Mfu(row.mfu, row.mfu * flops_per_parameter_of(row.checkpointing) / 6.0, row.source)


def fp8_speedup(params_billions: float) -> tuple[float, str]:
    _, speedup, source = min(FP8_SPEEDUP, key=lambda r: abs(math.log(max(params_billions, 0.1) / r[0])))
    return speedup, source
