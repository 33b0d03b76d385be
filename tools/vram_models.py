"""The pydantic input and output of estimate_vram (the MCP tool's schema comes from these)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Workload = Literal["inference", "training"]
Method = Literal["full", "lora", "qlora"]
WeightsDtype = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4"]
KvDtype = Literal["fp32", "bf16", "fp16", "fp8", "int8"]
TrainingPrecision = Literal["mixed", "bf16"]
Optimizer = Literal["adamw", "adamw_8bit", "sgd", "adafactor"]
Sharding = Literal["none", "zero1", "zero2", "zero3", "fsdp"]


class VramRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(default=None, description="Hugging Face id or catalog alias, e.g. 'meta-llama/Llama-3.1-8B'")
    params_billions: float | None = Field(default=None, gt=0, le=10_000, description="size of a generic dense decoder when the architecture is not known")
    workload: Workload = "inference"
    method: Method = "full"
    weights_dtype: WeightsDtype = "bf16"
    training_precision: TrainingPrecision = "mixed"
    optimizer: Optimizer = "adamw"
    batch_size: int = Field(default=1, ge=1, le=1_000_000, description="sequences per GPU (micro-batch)")
    seq_len: int = Field(default=2048, ge=1, le=100_000_000, description="tokens per sequence")
    gradient_checkpointing: bool = False
    lora_rank: int = Field(default=16, ge=1, le=65_536)
    num_gpus: int = Field(default=1, ge=1, le=1_000_000)
    sharding: Sharding = "none"
    tensor_parallel: int = Field(default=1, ge=1, le=1024)
    gpu: str | None = Field(default=None, description="check the fit on this GPU")
    kv_cache_dtype: KvDtype | None = Field(default=None, description="default: bf16 (fp32 for fp32 weights)")


class Breakdown(BaseModel):
    weights: int
    kv_cache: int
    activations: int
    gradients: int
    optimizer_states: int
    runtime_overhead: int


class GpuFit(BaseModel):
    gpu_id: str
    gpus_needed: int
    per_gpu_bytes: int
    usable_bytes: int
    note: str | None = None


class GpuCheck(BaseModel):
    gpu_id: str
    name: str
    fits: bool
    per_gpu_bytes: int
    usable_bytes: int
    headroom_bytes: int
    max_batch_size: int | None = Field(description="largest batch that fits at this seq_len (None: not even 1)")
    max_seq_len: int | None = Field(description="longest sequence that fits at this batch size (None: not even 1 token)")
    notes: list[str] = []


class VramEstimate(BaseModel):
    model: str
    workload: Workload
    method: Method
    total_bytes: int = Field(description="peak per GPU, the sum of breakdown")
    total_gib: float
    breakdown: Breakdown
    peak_phase: str = Field(description="the moment of the step the peak belongs to")
    params: int
    trainable_params: int
    active_params: int = Field(description="parameters one token passes through (MoE: routed experts only)")
    gpu_check: GpuCheck | None = None
    fits: list[GpuFit]
    assumptions: list[str]
    warnings: list[str]
