"""Turns a request into a plan (architecture, formats, parallelism) and a plan into per-GPU bytes."""
from __future__ import annotations

from dataclasses import dataclass

from gpusizer.catalog import Catalog, ModelArch, SizingError

from .activations import FP32, Shape, inference_transient_bytes, loss_bytes, saved_per_layer_bytes
from .formats import DTYPE_BYTES, FORMATS, WeightFormat
from .generic_model import generic_dense_decoder
from .kv_cache import kv_cache_bytes
from .overhead import runtime_overhead_bytes
from .parameters import ParameterCount, count_parameters
from .training_states import optimizer_step_transient_bytes, training_state_bytes
from .vram_models import QLORA_BASE_DTYPE, Breakdown, VramRequest, stored_weights_dtype

LORA_TARGETS = "every linear layer of the decoder blocks (q, k, v, o, gate, up, down)"


@dataclass(frozen=True)
class Plan:
    request: VramRequest
    arch: ModelArch
    counts: ParameterCount
    weight_format: WeightFormat
    kv_bytes: float
    act_bytes: int
    trainable: int
    largest_param: int
    generic: bool


def build_plan(request: VramRequest, catalog: Catalog) -> Plan:
    check_combination(request)
    if request.model:
        arch, generic = catalog.find_model(request.model), False
    else:
        arch, generic = generic_dense_decoder(request.params_billions), True
    weights_dtype = stored_weights_dtype(request.method, request.weights_dtype)
    fmt = FORMATS[weights_dtype]
    counts = count_parameters(arch)
    kv_dtype = request.kv_cache_dtype or ("fp32" if weights_dtype == "fp32" else "bf16")
    act_bytes = 4 if (weights_dtype == "fp32" and request.workload == "inference") else 2
    if request.workload == "training" and request.method == "full" and weights_dtype == "fp32" and request.training_precision == "bf16":
        act_bytes = 4
    trainable = counts.total if request.method == "full" else lora_parameters(arch, request.lora_rank)
    largest = max(counts.embedding, counts.lm_head, arch.hidden_size * arch.intermediate_size)
    if request.method != "full":
        largest = max(arch.hidden_size, arch.intermediate_size) * request.lora_rank
    return Plan(request, arch, counts, fmt,
                DTYPE_BYTES[kv_dtype], act_bytes, trainable, largest, generic)


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
    if request.method == "qlora" and request.weights_dtype not in ("bf16", QLORA_BASE_DTYPE):
        raise SizingError(f"method='qlora' stores the frozen base in nf4; weights_dtype='{request.weights_dtype}' contradicts it (omit it or use method='lora')")
    if request.workload == "training" and request.method == "full" and request.weights_dtype not in ("bf16", "fp16", "fp32"):
        raise SizingError(f"full training needs trainable 16- or 32-bit weights, not '{request.weights_dtype}'; use method='qlora' or 'lora' for a quantized base")


def lora_parameters(arch: ModelArch, rank: int) -> int:
    h, d = arch.hidden_size, arch.attention_head_dim
    q, kv = arch.num_attention_heads * d, arch.num_key_value_heads * d
    attention = (h + q) + 2 * (h + kv) + (q + h)
    widths = [arch.intermediate_size] if (arch.dense_mlp and not arch.is_moe) else []
    mlp = sum(2 * (h + w) + (w + h) for w in widths)
    return rank * arch.num_hidden_layers * (attention + mlp)


def weight_bytes(plan: Plan) -> float:
    counts, fmt = plan.counts, plan.weight_format
    kept_16bit = counts.embedding + counts.lm_head + counts.norms + counts.routers + counts.vision
    if fmt.quantized:
        return counts.linear_in_blocks * fmt.bytes_per_param + kept_16bit * 2
    return counts.total * fmt.bytes_per_param


def per_gpu(plan: Plan, batch: int, seq: int, num_gpus: int, tensor_parallel: int, sharding: str) -> tuple[Breakdown, str]:
    if plan.request.workload == "inference":
        return inference_breakdown(plan, batch, seq, tensor_parallel)
    return training_breakdown(plan, batch, seq, num_gpus, tensor_parallel, sharding)


def inference_breakdown(plan: Plan, batch: int, seq: int, tp: int) -> tuple[Breakdown, str]:
    weights = weight_bytes(plan) / tp
    kv = kv_cache_bytes(plan.arch, batch, seq, plan.kv_bytes) / (1 if plan.arch.uses_mla else tp)
    activations = inference_transient_bytes(Shape.of(plan.arch, tp), batch, seq, plan.act_bytes)
    live = int(weights) + int(kv) + activations
    return Breakdown(weights=int(weights), kv_cache=int(kv), activations=activations, gradients=0, optimizer_states=0,
                     runtime_overhead=runtime_overhead_bytes(live, "inference")), "prefill (last layer's MLP)"


def training_breakdown(plan: Plan, batch: int, seq: int, num_gpus: int, tp: int, sharding: str) -> tuple[Breakdown, str]:
    request, arch, counts = plan.request, plan.arch, plan.counts
    full = request.method == "full"
    precision = request.training_precision
    frozen_bytes = weight_bytes(plan) / counts.total if not full else 0
    states = training_state_bytes(
        frozen_params=0 if full else counts.total, frozen_bytes_per_param=frozen_bytes, trainable_params=plan.trainable,
        precision=precision, optimizer=request.optimizer, sharding=sharding, data_parallel=num_gpus // tp,
        factored_fraction=2 / arch.hidden_size)
    weights, gradients, optimizer = states.weights / tp, states.gradients / tp, states.optimizer_states / tp
    tokens = batch * seq
    shape = Shape.of(arch, tp)
    amp = states.autocast
    layer = saved_per_layer_bytes(shape, tokens, plan.act_bytes, lora_rank=None if full else request.lora_rank, amp=amp)
    layers = arch.num_hidden_layers
    saved = layers * (tokens * arch.hidden_size * plan.act_bytes if request.gradient_checkpointing else layer)
    outside_layers = tokens * arch.hidden_size * (FP32 + plan.act_bytes) + 2 * tokens * 8
    autocast_cache = (counts.linear_in_blocks + (counts.lm_head or counts.embedding)) * 2 / tp if amp else 0
    loss = loss_bytes(shape, tokens, plan.act_bytes, logits_kept=request.logits_kept)
    # Three moments compete for the peak: the loss at the start of backward (all activations, no gradients yet),
    # the first checkpointed layer's recomputation, and the optimizer step (all gradients, no activations).
    at_loss = saved + outside_layers + autocast_cache + loss
    at_recompute = (saved + layer + outside_layers + autocast_cache + tokens * arch.hidden_size * FP32) if request.gradient_checkpointing else 0
    head_grad = (counts.lm_head or counts.embedding) * (gradients / max(1, plan.trainable)) if full else 0
    step = optimizer_step_transient_bytes(plan.largest_param, plan.trainable, request.optimizer, 4 if precision == "mixed" else 2) / tp
    candidates = {
        "start of backward (loss over the full vocabulary)": (at_loss, 0, 0),
        "checkpointed layer recomputed in backward": (at_recompute, head_grad, 0),
        "optimizer step": (0, gradients, step),
    }
    phase, (activations, grads_live, transient) = max(candidates.items(), key=lambda kv: kv[1][0] + kv[1][1] + kv[1][2])
    live = int(weights + optimizer + activations + grads_live + transient)
    return Breakdown(weights=int(weights), kv_cache=0, activations=int(activations), gradients=int(grads_live),
                     optimizer_states=int(optimizer + transient), runtime_overhead=runtime_overhead_bytes(live, "training")), phase
