"""Turns a request into a plan (architecture, formats, recipe, parallelism) and a plan into per-GPU bytes."""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from gpusizer.catalog import Catalog, ModelArch, SizingError
from gpusizer.tools.memory.lora import adapted_projections, lora_parameters
from gpusizer.tools.memory.model.formats import FORMATS, KV_DTYPE_BYTES, SIXTEEN_BIT, TRAINABLE, WeightFormat
from gpusizer.tools.memory.model.generic_model import generic_dense_decoder
from gpusizer.tools.memory.model.parameters import ParameterCount, count_parameters
from gpusizer.tools.memory.model.weights import default_weights_dtype, weight_bytes_of
from gpusizer.tools.memory.recipes import TrainingSettings, training_settings
from gpusizer.tools.memory.request import QLORA_BASE_DTYPE, TRAINING_OVERRIDES, VramRequest

# GPU-independent parts of an engine budget, computed once per plan and reused across a scan of GPUs (each engine
# keys and types its own entries)
Memo = dict[Hashable, Any]



@dataclass(frozen=True)
class Plan:
    request: VramRequest
    arch: ModelArch
    counts: ParameterCount
    weights_dtype: str
    weight_format: WeightFormat
    weights_total_bytes: float   # one full copy of the model's weights, as stored
    weights_how: str
    kv_dtype: str
    kv_bytes: float
    act_bytes: int
    trainable: int
    largest_param: int
    generic: bool
    notes: tuple[str, ...]       # how names and defaults were read (warnings)
    training: TrainingSettings | None
    gpu_bytes: int | None = None  # the GPU the job runs on, for memory its kernels size from what is free
    memo: Memo = field(default_factory=dict, compare=False, repr=False)  # GPU-independent parts an engine scan reuses


def build_plan(request: VramRequest, catalog: Catalog) -> Plan:
    check_combination(request)
    notes: list[str] = []
    if request.model:
        match = catalog.resolve_model(request.model)
        arch, generic = match.model, False
        notes += [match.note] if match.note else []
    else:
        arch, generic = generic_dense_decoder(request.params_billions or 1.0), True
    heads = arch.num_attention_heads
    if request.tensor_parallel > 1 and heads % request.tensor_parallel:
        divisors = ", ".join(str(n) for n in range(1, min(heads, 64) + 1) if heads % n == 0)
        raise SizingError(f"tensor_parallel {request.tensor_parallel} does not divide {arch.model_id}'s {heads} attention heads: "
                          f"use one of {divisors}", arguments=("tensor_parallel",), allowed=f"one of {divisors}")
    settings = None
    if request.workload == "training":
        settings = training_settings(request.recipe, request.method, seq_len=request.seq_len,
                                     precision=request.training_precision, framework_version=request.framework_version,
                                     overrides=request.model_dump(include=set(TRAINING_OVERRIDES)))
    weights_dtype, why = resolve_weights_dtype(request, arch, settings)
    if weights_dtype == "fp8" and transformers_dequantizes_fp8(request, catalog):
        weights_dtype, why = "bf16", "the FP8 checkpoint as transformers loads it on this GPU"
        notes.append(TRANSFORMERS_FP8_FALLBACK)
    fmt = FORMATS[weights_dtype]
    counts = count_parameters(arch)
    total_bytes, how = weight_bytes_of(arch, counts, weights_dtype)
    kv_dtype = request.kv_cache_dtype or ("fp32" if weights_dtype == "fp32" else "fp16" if weights_dtype == "fp16" else
                                          "fp16" if request.engine == "llama_cpp" else "bf16")  # llama.cpp: -ctk/-ctv f16
    act_bytes = 4 if (weights_dtype == "fp32" and request.workload == "inference") else 2
    precision = settings.training_precision if settings else (request.training_precision or "mixed")
    if request.workload == "training" and request.method == "full" and weights_dtype == "fp32" and precision == "bf16":
        act_bytes = 4
    targets = settings.lora_targets if settings else "all_linear"
    trainable = counts.total if request.method == "full" else lora_parameters(arch, request.lora_rank, targets)
    largest = max(counts.embedding, counts.lm_head, arch.hidden_size * arch.intermediate_size)
    if request.method != "full":
        widths = [max(width, out) for _, width, out in adapted_projections(arch, targets)]
        largest = max(widths, default=arch.hidden_size) * request.lora_rank
    return Plan(request, arch, counts, weights_dtype, fmt, total_bytes, f"{weights_dtype} ({why}): {how}", kv_dtype,
                KV_DTYPE_BYTES[kv_dtype], act_bytes, trainable, largest, generic, tuple(notes), settings)


LLAMA_CPP_DEFAULT = "q4_k_m"  # the GGUF most people run: Ollama's default tags, the first quant model cards recommend


TRANSFORMERS_FP8_FALLBACK = (
    "FP8 checkpoint sized in BF16: transformers dequantizes FP8 weights to BF16 on GPUs below compute capability 8.9 "
    "(FineGrainedFP8HfQuantizer.validate_environment; before 5.x it refused to load them); vLLM keeps them in FP8 "
    "there (weight-only FP8 Marlin on Turing and Ampere)")


def transformers_dequantizes_fp8(request: VramRequest, catalog: Catalog) -> bool:
    """transformers on an NVIDIA GPU without FP8 tensor cores (compute capability < 8.9) loads FP8 weights as BF16."""
    if request.engine != "hf" or request.workload != "inference" or not request.single_gpu:
        return False
    gpu = catalog.resolve_gpu(request.single_gpu).gpu
    return gpu.vendor == "NVIDIA" and not gpu.native_fp8


def resolve_weights_dtype(request: VramRequest, arch: ModelArch, settings: TrainingSettings | None) -> tuple[str, str]:
    if request.weights_dtype is None and request.engine == "llama_cpp":
        if arch.release_format == "mxfp4":
            return "mxfp4", "llama.cpp's MXFP4 GGUF of this release: experts MXFP4, other matrices Q8_0"
        return LLAMA_CPP_DEFAULT, "the GGUF most people run with llama.cpp and Ollama (Q4_K_M)"
    if request.weights_dtype is None:
        dtype, why = default_weights_dtype(arch, request.workload, request.method)
        if settings and settings.loads_fp32 and request.method == "lora" and dtype in SIXTEEN_BIT:
            return "fp32", (f"{settings.recipe} loads a model id in float32 (the LoRA base stays fp32); "
                            "weights_dtype='bf16' if you load it in bf16")
        return dtype, why
    if request.method == "qlora":
        return QLORA_BASE_DTYPE, "QLoRA stores the frozen base in NF4"
    if request.engine == "llama_cpp" and request.weights_dtype in LLAMA_CPP_BITS:
        gguf = LLAMA_CPP_BITS[request.weights_dtype]
        return gguf, f"'{request.weights_dtype}' under llama.cpp/Ollama is its {gguf.upper()} GGUF ({LLAMA_CPP_BITS_WHY[gguf]})"
    return request.weights_dtype, "as requested"


# A bit width said to llama.cpp or Ollama ('4-bit', 'int8') is the GGUF file type of that width people pull: the
# quantization Ollama's library tags default to (q4_K_M) and its 8-bit tags (q8_0); GGUF has no FP8 or plain int4.
LLAMA_CPP_BITS = {"int4": "q4_k_m", "int8": "q8_0", "fp8": "q8_0"}
LLAMA_CPP_BITS_WHY = {"q4_k_m": "the 4-bit file Ollama's tags pull by default", "q8_0": "the 8-bit GGUF"}


def check_combination(request: VramRequest) -> None:
    if (not (request.model or "").strip()) == (request.params_billions is None):
        raise SizingError("give exactly one of model (e.g. 'meta-llama/Llama-3.1-8B') or params_billions (e.g. 7)")
    if request.workload == "inference":
        if request.method != "full":
            raise SizingError(f"method='{request.method}' is a fine-tuning method: use workload='training', or method='full' for inference")
        if request.sharding != "none":
            raise SizingError("sharding (ZeRO/FSDP) applies to training; for inference split the model with tensor_parallel")
    if request.num_gpus % request.tensor_parallel:
        raise SizingError(f"num_gpus ({request.num_gpus}) must be a multiple of tensor_parallel ({request.tensor_parallel})")
    dtype = request.weights_dtype
    if request.method == "qlora" and dtype not in (None, *SIXTEEN_BIT, QLORA_BASE_DTYPE):
        raise SizingError(f"method='qlora' stores the frozen base in nf4; weights_dtype='{dtype}' contradicts it "
                          "(omit it or use method='lora')")
    if request.workload == "training" and request.method == "full" and dtype not in (None, *TRAINABLE):
        raise SizingError(f"full training needs trainable 16- or 32-bit weights, not '{dtype}'; "
                          "use method='qlora' or 'lora' for a quantized base")
    if request.workload == "training" and dtype and FORMATS[dtype].gguf:
        raise SizingError(f"'{dtype}' is a llama.cpp (GGUF) inference format; training needs a 16-bit, NF4 or int8 base")


def weight_bytes(plan: Plan) -> float:
    return plan.weights_total_bytes
