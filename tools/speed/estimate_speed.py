"""estimate_speed: how fast a model runs on a GPU under an engine: decode, prompt processing, time to first token.

The same roofline plan_serving plans with (serving_speed.py): each step reads the weights its tokens route to and the
running sequences' KV cache, does 2 FLOPs per active parameter per token, and pays the engine's fixed cost per layer;
each part is bound by the bandwidth or the dense peak at the engine's measured share of them, named in `bound_by`.
"""
from __future__ import annotations

import functools
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gpusizer.catalog import Catalog, SizingError, load_catalog
from gpusizer.tools.alternatives import with_alternatives
from gpusizer.tools.figures import number, within_limit
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES, ServingEngine
from gpusizer.tools.memory.model.formats import FORMATS
from gpusizer.tools.memory.plan import build_plan
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.speed.alternatives import SpeedAlternative, does_not_fit, memory_check, speed_alternatives
from gpusizer.tools.speed.interconnect import link_note
from gpusizer.tools.speed.serving_speed import Roofline, default_factors, factors_note, roofline
from gpusizer.tools.validation import NAME_LIMIT, ModelName, ParamsBillions, declared_by, parse_request

Bound = Literal["weights", "compute", "kv_cache", "fixed_per_layer", "all_reduce"]
BOUND_WORDS = {"weights": "reading the weights (memory bandwidth)", "compute": "the GEMMs' compute",
               "kv_cache": "reading the KV cache",
               "fixed_per_layer": "the engine's fixed cost per layer (kernel launches and the host's work per token: a "
                                  "faster GPU barely helps)",
               "all_reduce": "the tensor-parallel all-reduces over the GPUs' link"}


class EstimateSpeedRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: ModelName | None = Field(default=None, description="HF id or alias (or params_billions)")
    params_billions: ParamsBillions | None = None
    gpu: str = Field(max_length=NAME_LIMIT, description="GPU name or alias")
    num_gpus: int = Field(default=1, ge=1, le=64, description="tensor parallel (llama.cpp: layers split, read in turn)")
    engine: ServingEngine | None = Field(default=None, description="default: llama_cpp for a GGUF format, else vllm")
    weights_dtype: str | None = Field(default=None, max_length=NAME_LIMIT, description="default: as released (llama.cpp: q4_k_m)")
    kv_cache_dtype: str | None = Field(default=None, max_length=NAME_LIMIT)
    concurrency: int = Field(default=1, ge=1, le=100_000, description="sequences decoding together")
    prompt_tokens: int = Field(default=1024, ge=1, le=10_000_000)
    output_tokens: int = Field(default=256, ge=1, le=1_000_000)


class SpeedEstimate(BaseModel):
    model: str
    gpu_id: str
    num_gpus: int
    engine: str
    weights_dtype: str
    concurrency: int
    decode_tokens_per_s: float = Field(description="per sequence, at the concurrency, mid-way through the output")
    aggregate_tokens_per_s: float = Field(description="all sequences together")
    prefill_tokens_per_s: float = Field(description="one prompt processed alone")
    ttft_s: float = Field(description="time to first token of one prompt, without queueing")
    decode_bound_by: Bound
    prefill_bound_by: Bound
    compute_bound_batch: int | None = Field(description="concurrency from which decode's GEMMs are compute-bound")
    assumptions: list[str]
    warnings: list[str] = Field(default=[], description="e.g. the model does not fit the GPUs named")
    alternatives: list[SpeedAlternative] = Field(default=[], description="where it does not fit: changes that do, timed")


@declared_by(EstimateSpeedRequest, "estimate_speed")
def estimate_speed(model: str | None = None, *, params_billions: float | None = None, gpu: str, num_gpus: int = 1,
                   engine: ServingEngine | None = None, weights_dtype: str | None = None, kv_cache_dtype: str | None = None,
                   concurrency: int = 1, prompt_tokens: int = 1024, output_tokens: int = 256,
                   catalog: Catalog | None = None) -> SpeedEstimate:
    """Decode tokens/s per sequence and in all at `concurrency`, prompt tokens/s and time to first token of `model` on
    `num_gpus` x `gpu` under `engine`, and what bounds each. Raises SizingError."""
    request = parse_request(EstimateSpeedRequest, {k: v for k, v in locals().items() if k != "catalog"}, "estimate_speed")
    catalog = catalog or load_catalog()
    dtype = (request.weights_dtype or "").strip().lower().replace("-", "_") or None
    chosen = request.engine or ("llama_cpp" if dtype and dtype in FORMATS and FORMATS[dtype].gguf else "vllm")
    vram = parse_request(VramRequest, {"model": request.model, "params_billions": request.params_billions, "weights_dtype": dtype,
                                       "kv_cache_dtype": request.kv_cache_dtype, "engine": chosen}, "estimate_speed")
    plan = build_plan(vram, catalog)
    spec = catalog.resolve_gpu(request.gpu).gpu
    tp = 1 if chosen == "llama_cpp" else request.num_gpus
    line = roofline(plan, spec, tp, default_factors(chosen, spec, tp, plan.weight_format.compute_dtype))
    if line is None:
        raise SizingError(f"estimate_speed: the catalog has no memory bandwidth or dense compute figure for {spec.gpu_id}")
    batch, context = request.concurrency, request.prompt_tokens + request.output_tokens / 2
    step = line.decode_step_s(batch, context)
    prefill = line.decode_step_s(0, 0, request.prompt_tokens, request.prompt_tokens / 2)
    check = memory_check(request.model_dump(), chosen, catalog)
    problem = does_not_fit(check)
    result = SpeedEstimate(
        model=plan.arch.model_id, gpu_id=spec.gpu_id, num_gpus=request.num_gpus, engine=chosen, weights_dtype=plan.weights_dtype,
        concurrency=batch, decode_tokens_per_s=round(1 / step, 4), aggregate_tokens_per_s=round(batch / step, 2),
        prefill_tokens_per_s=round(request.prompt_tokens / prefill, 1), ttft_s=round(prefill, 4),
        decode_bound_by=bound_by(line, batch, context, 0), prefill_bound_by=bound_by(line, 0, 0, request.prompt_tokens),
        compute_bound_batch=line.compute_bound_batch(),
        assumptions=[f"{ENGINE_NAMES[chosen]} on {request.num_gpus} x {spec.gpu_id}"
                     + (" (layers split, read in turn)" if chosen == "llama_cpp" and request.num_gpus > 1 else ""),
                     f"weights: {plan.weights_how}; KV cache {plan.kv_dtype}",
                     f"{batch} sequence(s) at {number(context)} tokens of context (prompt + half the output)",
                     factors_note(chosen, None, None)] + ([link_note(spec, tp)] if tp > 1 else []),
        warnings=[f"{plan.arch.model_id} {problem}: the speeds are what it would reach if it fitted"] if problem else [])
    return with_alternatives(result, lambda: speed_alternatives(request.model_dump(), check,
                                                                functools.partial(estimate_speed, catalog=catalog)))


def bound_by(line: Roofline, batch: int, context: float, prompt: int) -> Bound:
    """The largest part of one step: weights, compute, KV cache or the fixed per-layer cost."""
    t = line.traffic
    tokens = batch + prompt
    parts: dict[Bound, float] = {
        "weights": t.weights_read(tokens) / line.bytes_per_s,
        "compute": (tokens * t.flops_per_token + t.attention_flops_per_context * (batch * context + prompt * prompt / 2))
        / line.flops_per_s,
        "kv_cache": batch * t.kv_read(context) / line.bytes_per_s,
        "fixed_per_layer": line.fixed_s,
        "all_reduce": tokens * line.all_reduce_s_per_token,
    }
    return max(parts, key=lambda name: parts[name])


def estimate_speed_answer(result: SpeedEstimate) -> str:
    lines = [f"No: {result.warnings[0]}"] if result.warnings else []
    lines += [f"Fits with {result.alternatives[0].text}"] if result.alternatives else []
    lines += [f"{result.model} on {result.num_gpus} x {result.gpu_id} with {ENGINE_NAMES.get(result.engine, result.engine)} "
             f"({result.weights_dtype}): {number(result.decode_tokens_per_s)} tokens/s per sequence at {result.concurrency} at "
             f"once ({number(result.aggregate_tokens_per_s)} tokens/s in all); prompts at {number(result.prefill_tokens_per_s)} "
             f"tokens/s, first token in {number(result.ttft_s, 3)} s.",
             f"Decode is bound by {BOUND_WORDS[result.decode_bound_by]}, prompts by {BOUND_WORDS[result.prefill_bound_by]}"
             + (f"; decode turns compute-bound from {number(result.compute_bound_batch)} sequences at once."
                if result.compute_bound_batch else ".")]
    lines += [f"Assumed: {a}" for a in result.assumptions]
    return within_limit(lines)
