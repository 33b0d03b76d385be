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
QLORA_BASE_DTYPE: WeightsDtype = "nf4"  # QLoRA stores its frozen base this way, whatever weights_dtype says


def stored_weights_dtype(method: str | None, weights_dtype: str) -> str:
    """How the weights are actually stored: QLoRA's base is NF4, every other method keeps weights_dtype."""
    return QLORA_BASE_DTYPE if method == "qlora" else weights_dtype


class VramRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(default=None, description="Hugging Face id (case-insensitive, e.g. 'meta-llama/Llama-3.1-8B') or catalog alias "
                              "('llama 3.1 8b', 'mixtral'); give this or params_billions")
    params_billions: float | None = Field(default=None, gt=0, le=10_000, description="size in billions of parameters of a generic dense "
                                          "decoder (Llama-style), for a model whose architecture is not in the catalog")
    workload: Workload = Field(default="inference", description="'inference': prefill + KV cache of batch_size prompts of seq_len tokens; "
                               "'training': one optimizer step")
    method: Method = Field(default="full", description="training only: 'full' fine-tune/pretrain, 'lora' adapters on a 16-bit base, "
                           "'qlora' adapters on an NF4 base")
    weights_dtype: WeightsDtype = Field(default="bf16", description="format of the inference weights, or of the frozen base for LoRA "
                                        "('qlora' implies 'nf4'); int4/int8 = GPTQ/AWQ group-128, fp8 with block scales")
    training_precision: TrainingPrecision = Field(default="mixed", description="'mixed': fp32 master weights, gradients and optimizer "
                                                  "states with bf16 compute (HF Trainer bf16=True, DeepSpeed); 'bf16': everything bf16 (torchtune)")
    optimizer: Optimizer = Field(default="adamw", description="training optimizer; 'adamw_8bit' is bitsandbytes' 8-bit AdamW")
    batch_size: int = Field(default=1, ge=1, le=1_000_000, description="sequences per GPU (micro-batch)")
    seq_len: int = Field(default=2048, ge=1, le=100_000_000, description="tokens per sequence; for inference the context held in the KV cache")
    gradient_checkpointing: bool = Field(default=False, description="training: recompute each layer's activations in the backward pass")
    lora_rank: int = Field(default=16, ge=1, le=65_536, description="LoRA rank r; adapters on every linear layer of the decoder blocks")
    num_gpus: int = Field(default=1, ge=1, le=1_000_000, description="GPUs the job runs on (data parallel for training)")
    sharding: Sharding = Field(default="none", description="training state sharding over num_gpus: zero1 = optimizer states, zero2 = "
                               "+ gradients, zero3/fsdp = + parameters")
    tensor_parallel: int = Field(default=1, ge=1, le=1024, description="GPUs each layer is split across (weights, KV heads, MLP)")
    gpu: str | None = Field(default=None, description="optional GPU name or alias ('h100', 'rtx 4090') to check the fit on and to "
                            "answer the largest batch / longest sequence that fits")
    kv_cache_dtype: KvDtype | None = Field(default=None, description="KV cache format; default bf16 (fp32 for fp32 weights)")
    logits_kept: bool = Field(default=True, description="training: the loop still holds the model output, and so its 16-bit "
                              "logits, during backward ('out = model(**batch); out.loss.backward()'); false for HF Trainer, "
                              "torchtune and 'loss = model(**batch).loss', which free them: 2 bytes less per logit at the loss")

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
