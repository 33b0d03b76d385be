"""The pydantic input and output of estimate_vram (the MCP tool's schema comes from these)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gpusizer.tools.alternatives import Change
from gpusizer.tools.memory.engine_settings import Engine, ServingMemory
from gpusizer.tools.memory.engine_versions import VERSION_LIMIT
from gpusizer.tools.memory.model.formats import FORMATS, KV_DTYPE_BYTES
from gpusizer.tools.validation import NAME_LIMIT, MemoryFraction, ModelName, ParamsBillions

Workload = Literal["inference", "training"]
Method = Literal["full", "lora", "qlora"]
WeightsDtype = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "mxfp4", "nvfp4", "awq", "gptq",
                       "q8_0", "q6_k", "q5_k_m", "q5_k_s", "q4_k_m", "q4_k_s", "q4_0", "q4_1", "q5_0", "q3_k_l", "q3_k_m",
                       "q3_k_s", "q2_k", "iq4_xs", "iq4_nl", "iq3_xxs", "iq2_xxs", "iq1_m",
                       "iq1_s"]
KvDtype = Literal["fp32", "bf16", "fp16", "fp8", "int8", "q8_0", "q4_0"]
TrainingPrecision = Literal["mixed", "bf16"]
Optimizer = Literal["adamw", "adamw_8bit", "paged_adamw_8bit", "paged_adamw", "sgd", "adafactor"]
Sharding = Literal["none", "zero1", "zero2", "zero3", "fsdp"]
Recipe = Literal["pytorch", "hf_trainer", "trl", "torchtune", "unsloth"]
Loss = Literal["standard", "chunked", "fused"]
LoraTargets = Literal["q_v", "attention", "all_linear", "all_linear_and_head"]
OptimizerStep = Literal["per_parameter", "foreach", "fused"]
MAX_BOX_CARDS = 16  # GPUs in one box given as a list
QLORA_BASE_DTYPE: WeightsDtype = "nf4"  # QLoRA stores its frozen base this way, whatever weights_dtype says

assert set(WeightsDtype.__args__) == set(FORMATS), "every weights_dtype needs a storage format"  # type: ignore[attr-defined]
assert set(KvDtype.__args__) == set(KV_DTYPE_BYTES), "every kv_cache_dtype needs an element size"  # type: ignore[attr-defined]


def stored_weights_dtype(method: str | None, weights_dtype: str) -> str:
    """How the weights are actually stored: QLoRA's base is NF4, every other method keeps weights_dtype."""
    return QLORA_BASE_DTYPE if method == "qlora" else weights_dtype


class VramRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: ModelName | None = Field(default=None,
                              description="HF id, alias, config.json path or folder")
    params_billions: ParamsBillions | None = Field(default=None,
                                          description="or an unlisted dense model's size")
    workload: Workload = Field(default="inference",
                               description="inference: prefill of batch_size x seq_len")
    method: Method = Field(default="full", description="training")
    weights_dtype: WeightsDtype | None = Field(default=None,
                                               description="default: as released")
    kv_cache_dtype: KvDtype | None = Field(default=None, description="default: 16-bit")
    training_precision: TrainingPrecision | None = Field(default=None, description="mixed: fp32 master weights")
    optimizer: Optimizer = Field(default="adamw")
    recipe: Recipe | None = Field(default=None,
                                  description="framework defaults (hf_trainer)")
    loss: Loss | None = Field(default=None, description="override: standard, chunked (torchtune) or fused (Liger, Unsloth)")
    logits_kept: bool | None = Field(default=None, description="override: the loop holds the logits through backward")
    gradient_checkpointing: bool | None = Field(default=None, description="override: recompute each layer in backward")
    activation_offloading: bool | None = Field(default=None, description="override: checkpointed activations in CPU memory")
    optimizer_in_backward: bool | None = Field(default=None, description="override: step each parameter as its gradient arrives")
    torch_compile: bool | None = Field(default=None, description="override: torch.compile the model and loss (the loss then "
                                                                 "saves 16-bit logits, not fp32)")
    batch_size: int = Field(default=1, ge=1, le=1_000_000, description="per GPU")
    seq_len: int = Field(default=2048, ge=1, le=100_000_000, description="tokens per sequence")
    lora_rank: int = Field(default=16, ge=1, le=65_536, description="LoRA rank")
    lora_targets: LoraTargets | None = Field(default=None, description="recipe default")
    lora_dropout: float | None = Field(default=None, ge=0, lt=1, description="recipe default")
    optimizer_step: OptimizerStep | None = Field(default=None, description="recipe default")
    kbit_upcast: bool | None = Field(default=None, description="QLoRA: fp32 norms and embeddings")
    framework_version: str | None = Field(default=None, max_length=VERSION_LIMIT * 3, description="e.g. 'transformers 4.46'")
    num_gpus: int = Field(default=1, ge=1, le=1_000_000, description="training: data parallel")
    sharding: Sharding = Field(default="none", description="training")
    tensor_parallel: int = Field(default=1, ge=1, le=1024, description="GPUs a layer is split across")
    gpu: str | list[str] | None = Field(default=None, description="GPU to check, or a list: the cards of one box")
    engine: Engine = Field(default="hf", description="vllm and sglang need gpu")
    engine_version: str | None = Field(default=None, max_length=VERSION_LIMIT, description="e.g. '0.19.0', llama.cpp 'b6250' "
                                       "(default: the newest whose rules were read)")
    gpu_memory_utilization: MemoryFraction | None = Field(default=None, description="vLLM fraction of total (0.9); SGLang "
                                                 "mem_fraction_static")
    max_model_len: int | None = Field(default=None, ge=1, le=100_000_000, description="context per request (default: seq_len "
                                      "if not 2048, else the model's; llama.cpp 4096)")
    max_num_seqs: int | None = Field(default=None, ge=1, le=1_000_000, description="vLLM's batch cap (1024 or 256 by GPU)")
    max_num_batched_tokens: int | None = Field(default=None, ge=1, le=10_000_000, description="SGLang chunked_prefill_size, "
                                               "llama.cpp n_ubatch")
    enforce_eager: bool | None = Field(default=None, description="vLLM: no CUDA graphs")
    n_gpu_layers: int | None = Field(default=None, ge=0, le=100_000, description="llama.cpp -ngl (default: all, or what fits gpu)")
    flash_attention: bool | None = Field(default=None, description="llama.cpp -fa (default on from b6250)")

    @property
    def single_gpu(self) -> str | None:
        """The one GPU named (a list of cards is a box: estimate_vram checks it in box.py before this is read)."""
        if isinstance(self.gpu, list):
            raise ValueError("a list of GPUs is a box of cards: estimate_vram checks it as one")
        return self.gpu

    @field_validator("gpu", mode="after")
    @classmethod
    def _bounded_gpu_names(cls, value: str | list[str] | None) -> str | list[str] | None:
        names = [value] if isinstance(value, str) else value or []
        if len(names) > MAX_BOX_CARDS or any(len(name) > NAME_LIMIT for name in names):
            raise ValueError(f"gpu takes a name of at most {NAME_LIMIT} characters, or a list of at most {MAX_BOX_CARDS}")
        return value

    @field_validator("weights_dtype", "kv_cache_dtype", "recipe", "loss", "lora_targets", "optimizer_step", mode="before")
    @classmethod
    def _lower_case(cls, value: object) -> object:
        return value.strip().lower().replace("-", "_") if isinstance(value, str) else value


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
    usd_per_hour: float | None = Field(default=None, description="cheapest on-demand cost of the GPUs it needs: a tensor-parallel "
                                       "replica in one machine, the whole machine (one GPU of a machine sold only whole pays "
                                       "the machine), training across machines")
    provider: str | None = None
    instance_type: str | None = None
    stack_note: str | None = Field(default=None, description="why the software this job needs does not run there as "
                                   "estimated (bitsandbytes needs CUDA; TPUs and Trainium need XLA or Neuron builds)")


class GpuCheck(BaseModel):
    gpu_id: str
    name: str
    fits: bool
    per_gpu_bytes: int
    usable_bytes: int
    headroom_bytes: int
    max_batch_size: int | None = Field(description="largest batch that fits at this seq_len (None: not even 1)")
    max_seq_len: int | None = Field(description="longest sequence that fits at this batch size (None: not even 1 token)")
    max_seq_len_by_memory: int | None = Field(default=None, description="the same without the cap at the model's context window")
    gpus_needed: int | None = Field(default=None, description="fewest of this GPU that hold the job, spread as `split` says "
                                    "(None: not even 64)")
    split: str | None = Field(default=None, description="how gpus_needed shares the job; without gpus_needed, why no "
                              "number of this GPU runs it (an engine with no kernel for the format), if known")
    notes: list[str] = []


# The request fields a recipe's preset decides and a request may override (each None by default): TrainingSetup below
# holds the values an estimate used.
TRAINING_OVERRIDES = ("loss", "logits_kept", "gradient_checkpointing", "activation_offloading", "optimizer_in_backward",
                      "torch_compile", "optimizer_step", "kbit_upcast", "lora_targets", "lora_dropout")


class Alternative(Change):
    """A change that makes the job fit the GPU named, estimated (tools/memory/ladder.py)."""
    gpu_id: str
    gpus: int = Field(description="GPUs of that type it then takes")
    per_gpu_bytes: int


class TrainingSetup(BaseModel):
    """The training settings the estimate used: the recipe's defaults with the request's overrides (the names are the
    request's). The one declaration of these settings: recipes.TrainingSettings extends it."""
    model_config = ConfigDict(frozen=True)

    recipe: Recipe
    loss: Loss
    logits_kept: bool
    gradient_checkpointing: bool
    activation_offloading: bool
    optimizer_in_backward: bool
    torch_compile: bool
    optimizer_step: OptimizerStep
    kbit_upcast: bool
    lora_targets: LoraTargets
    lora_dropout: float
    training_precision: TrainingPrecision
    versions: str = Field(description="releases whose defaults apply")


class BoxCard(BaseModel):
    gpu_id: str
    usable_bytes: int
    share_bytes: int = Field(description="the model's weights and KV cache this card holds")
    buffers_bytes: int = Field(description="its own activations, CUDA context and workspaces")


class BoxCheck(BaseModel):
    fits: bool
    split: str = Field(description="how the engine shares the model among the cards")
    shared_bytes: int = Field(description="weights and KV cache, shared among the cards")
    cards: list[BoxCard]


class VramEstimate(BaseModel):
    model: str
    workload: Workload
    method: Method
    weights_dtype: str = Field(description="how the weights are stored in this estimate (the release's format unless asked)")
    kv_cache_dtype: str
    total_bytes: int = Field(description="peak per GPU, the sum of breakdown")
    reserved_bytes: int = Field(description="what PyTorch's caching allocator holds at the peak (no CUDA context)")
    total_gib: float
    breakdown: Breakdown
    peak_phase: str = Field(description="the moment of the step the peak belongs to")
    params: int
    trainable_params: int
    active_params: int = Field(description="parameters one token passes through (MoE: routed experts only)")
    training: TrainingSetup | None = None
    serving: ServingMemory | None = Field(default=None, description="the engine's start-up budget per GPU (null for hf)")
    gpu_check: GpuCheck | None = None
    box: BoxCheck | None = Field(default=None, description="with gpu as a list of different cards: how they share it")
    alternatives: list[Alternative] = Field(default=[], description="with a gpu it does not fit: the cheapest changes "
                                            "that make it fit (format, KV cache, context, checkpointing, recipe, GPUs)")
    fits: list[GpuFit]
    assumptions: list[str]
    warnings: list[str]
