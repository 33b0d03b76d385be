"""plan_training: how long a training run takes, what it costs, and on which GPUs it is cheapest.

The tokens come as a count or as examples x tokens per example x epochs. For each GPU type (or the one named), the
GPUs the job needs come from estimate_vram's rules (the recipe's settings, ZeRO-3 across GPUs), or the count named;
time and cost come from training_time (FLOPs per active parameter per token at an MFU of the dense 16-bit peak,
priced on the cheapest machine holding all its GPUs), so Ask, the TUI and MCP give one figure for one run.
"""
from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gpusizer.catalog import Catalog, GpuSpec, SizingError, load_catalog
from gpusizer.tools.alternatives import with_alternatives
from gpusizer.tools.figures import best_of, gib, number, percent, token_count, usd, within_limit
from gpusizer.tools.memory import fitting
from gpusizer.tools.memory.estimate import estimate
from gpusizer.tools.memory.request import Method, Recipe
from gpusizer.tools.speed.alternatives import TrainingAlternative, training_alternatives
from gpusizer.tools.speed.training_time import MFU_DEFAULT, TrainingTime, training_time
from gpusizer.tools.validation import NAME_LIMIT, ModelName, ParamsBillions, declared_by, parse_request

CUDA_ONLY = "bitsandbytes (QLoRA's 4-bit base) runs on NVIDIA GPUs"
PYTORCH_VENDORS = ("NVIDIA", "AMD")  # the recipes are PyTorch + CUDA/ROCm; TPUs and Trainium need XLA/Neuron builds


class PlanTrainingRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: ModelName | None = Field(default=None, description="HF id or alias (or params_billions)")
    params_billions: ParamsBillions | None = None
    training_tokens: float | None = Field(default=None, ge=1e3, le=1e15, description="tokens seen, all epochs; or:")
    examples: int | None = Field(default=None, ge=1, le=10_000_000_000)
    tokens_per_example: int | None = Field(default=None, ge=1, le=10_000_000, description="average length")
    epochs: float = Field(default=1.0, gt=0, le=1000)
    method: Method = Field(default="full")
    recipe: Recipe | None = Field(default=None, description="framework defaults (hf_trainer)")
    gpu: str | None = Field(default=None, max_length=NAME_LIMIT, description="default: every GPU type, cheapest first")
    gpu_count: int | None = Field(default=None, ge=1, le=100_000, description="default: the fewest that hold the job")
    seq_len: int | None = Field(default=None, ge=1, le=10_000_000, description="default: tokens_per_example or 2048")
    batch_size: int = Field(default=1, ge=1, le=4096, description="micro-batch per GPU")
    gradient_checkpointing: bool | None = Field(default=None, description="default: as the recipe sets it")
    mfu: float | None = Field(default=None, gt=0, le=0.8, description="default: published runs' MFU")
    fp8_training: bool = False
    selective_checkpointing: bool = False
    pricing: Literal["on_demand", "spot"] = Field(default="on_demand")


class TrainingOption(BaseModel):
    gpu_id: str
    gpus: int
    per_gpu_bytes: int = Field(description="peak memory per GPU under the recipe")
    wall_clock_hours: float
    gpu_hours: float
    tokens_per_s_per_gpu: float
    mfu: float
    mfu_source: str
    usd_per_gpu_hour: float | None
    usd_total: float | None
    provider: str | None


class PlanTraining(BaseModel):
    model: str
    method: str
    recipe: str
    training_tokens: float
    mfu: float
    gpu_id: str | None = Field(description="the first option's (null when no GPU holds the job)")
    gpu_count: int | None
    wall_clock_hours: float | None
    gpu_hours: float | None
    tokens_per_s_per_gpu: float | None
    usd_total: float | None
    options: list[TrainingOption] = Field(description="one per GPU type, cheapest first (unpriced last)")
    assumptions: list[str]
    warnings: list[str]
    alternatives: list[TrainingAlternative] = Field(default=[], description="changes that make it fit, or cheaper")


@declared_by(PlanTrainingRequest, "plan_training")
def plan_training(model: str | None = None, *, params_billions: float | None = None, training_tokens: float | None = None,
                  examples: int | None = None, tokens_per_example: int | None = None, epochs: float = 1.0,
                  method: Method = "full", recipe: Recipe | None = None, gpu: str | None = None, gpu_count: int | None = None,
                  seq_len: int | None = None, batch_size: int = 1, gradient_checkpointing: bool | None = None,
                  mfu: float | None = None, fp8_training: bool = False, selective_checkpointing: bool = False,
                  pricing: Literal["on_demand", "spot"] = "on_demand", catalog: Catalog | None = None) -> PlanTraining:
    """Wall-clock time, GPU-hours and cost of training `model` on `training_tokens` (or examples x tokens_per_example
    x epochs) with `method` under `recipe`, on the GPU named or on each GPU type, cheapest first. Raises SizingError."""
    request = parse_request(PlanTrainingRequest, {k: v for k, v in locals().items() if k != "catalog"}, "plan_training")
    catalog = catalog or load_catalog()
    tokens = tokens_of(request)
    gpus = [catalog.resolve_gpu(request.gpu).gpu] if request.gpu else [g for g in catalog.gpus if runs_recipes(g, request)]
    warnings: list[str] = []
    options = [found for spec in gpus if (found := option_on(spec, request, tokens, catalog, warnings))]
    options.sort(key=lambda o: (o.usd_total is None, o.usd_total or 0.0, o.wall_clock_hours, o.gpu_id))
    first = options[0] if options else None
    setup = estimate(job_arguments(request, None, 1), catalog)  # the model and recipe as estimate_vram reads them
    result = PlanTraining(model=setup.model, method=request.method, recipe=setup.training.recipe if setup.training else "",
                        training_tokens=tokens, mfu=first.mfu if first else request.mfu or MFU_DEFAULT,
                        gpu_id=first.gpu_id if first else None,
                        gpu_count=first.gpus if first else None, wall_clock_hours=first.wall_clock_hours if first else None,
                        gpu_hours=first.gpu_hours if first else None,
                        tokens_per_s_per_gpu=first.tokens_per_s_per_gpu if first else None,
                        usd_total=first.usd_total if first else None, options=options,
                        assumptions=assumptions(request, tokens, setup.assumptions, first), warnings=warnings)
    cheapest = (first.usd_total, first.wall_clock_hours) if first else (None, None)
    return with_alternatives(result, lambda: training_alternatives(request.model_dump(), setup, cheapest,
                                                                   functools.partial(plan_training, catalog=catalog)))


def tokens_of(request: PlanTrainingRequest) -> float:
    if request.training_tokens is not None:
        return request.training_tokens
    if request.examples is None or request.tokens_per_example is None:
        raise SizingError("plan_training: give training_tokens (e.g. 2e9), or examples and tokens_per_example (and epochs)")
    return request.examples * request.tokens_per_example * request.epochs


def runs_recipes(gpu: GpuSpec, request: PlanTrainingRequest) -> bool:
    return gpu.vendor in PYTORCH_VENDORS and not (request.method == "qlora" and gpu.vendor != "NVIDIA")


def job_arguments(request: PlanTrainingRequest, gpu_id: str | None, gpus: int) -> dict[str, Any]:
    return {"model": request.model, "params_billions": request.params_billions, "workload": "training",
            "method": request.method, "recipe": request.recipe, "batch_size": request.batch_size,
            "seq_len": request.seq_len or request.tokens_per_example or 2048, "gpu": gpu_id,
            "gradient_checkpointing": request.gradient_checkpointing,
            **fitting.spread_over("training", gpus, request.gradient_checkpointing)}  # a False said is kept


def option_on(spec: GpuSpec, request: PlanTrainingRequest, tokens: float, catalog: Catalog,
              warnings: list[str]) -> TrainingOption | None:
    """The job on the fewest GPUs of this type that hold it (or the count named), timed and priced; None where it
    does not fit or the GPU has no 16-bit figure."""
    if not (spec.bf16_tflops_dense or spec.fp16_tflops_dense):
        return None
    try:
        check = estimate(job_arguments(request, spec.gpu_id, request.gpu_count or 1), catalog)
    except SizingError:
        return None
    fit = check.gpu_check
    gpus = request.gpu_count or (fit.gpus_needed if fit and not fit.fits else 1)
    if fit is None or gpus is None:
        return None
    if not request.gpu_count and gpus > 1:
        check = estimate(job_arguments(request, spec.gpu_id, gpus), catalog)
        fit = check.gpu_check
    if fit is None or not fit.fits:
        if request.gpu and fit is not None:
            takes = f"it takes {fit.gpus_needed}" if fit.gpus_needed else "not even 64 hold it"
            warnings.append(f"it does not fit {gpus} x {spec.gpu_id} ({gib(fit.per_gpu_bytes)} per GPU): {takes}")
        return None
    settings = check.training
    run: TrainingTime = training_time(request.model, training_tokens=tokens, params_billions=request.params_billions,
                                      gpu=spec.gpu_id, gpu_count=gpus, mfu=request.mfu, pricing=request.pricing,
                                      method=request.method, catalog=catalog,
                                      gradient_checkpointing=bool(settings and settings.gradient_checkpointing),
                                      selective_checkpointing=request.selective_checkpointing, fp8=request.fp8_training,
                                      check_fit=False)  # checked above, as estimate_vram sizes this recipe
    return TrainingOption(gpu_id=spec.gpu_id, gpus=gpus, per_gpu_bytes=fit.per_gpu_bytes, wall_clock_hours=run.wall_clock_hours,
                          gpu_hours=run.gpu_hours, tokens_per_s_per_gpu=tokens / (run.wall_clock_hours * 3600 * gpus),
                          mfu=run.mfu, mfu_source=run.mfu_source + (f"; FP8 x{run.fp8_speedup:g}" if run.fp8_speedup > 1 else ""),
                          usd_per_gpu_hour=run.usd_per_gpu_hour, usd_total=run.usd_total, provider=run.provider)


def assumptions(request: PlanTrainingRequest, tokens: float, memory: list[str], first: TrainingOption | None) -> list[str]:
    source = (f"{token_count(tokens)} tokens" + (f" = {number(request.examples)} examples x {number(request.tokens_per_example)} "
              f"tokens x {number(request.epochs)} epochs" if request.training_tokens is None else ""))
    lines = [f"run: {source}; {request.method} training",
             (f"time: {percent(first.mfu)} MFU of {first.gpu_id}'s dense 16-bit peak ({first.mfu_source}); each GPU type at "
              "its own generation's published MFU" if first else f"time: MFU {percent(request.mfu or MFU_DEFAULT)}")
             + "; 6 FLOPs per active parameter per token in full training, 4 with adapters, +2 under gradient checkpointing"
             + (", +0.2 under selective checkpointing (memory sized without its savings)" if request.selective_checkpointing else "")
             + (", FP8 linear layers where the GPU has them" if request.fp8_training else ""),
             "GPUs: the fewest of each type that hold the job as estimate_vram sizes it (ZeRO-3 across GPUs"
             + (", each layer's activations checkpointed as sharded recipes run it (torchtune, llama-recipes): "
                "gradient_checkpointing=false to turn it off" if request.gradient_checkpointing is None else "")
             + ") unless gpu_count is given; price: the cheapest machine holding all of them (a sharded job wants one NVLink "
             "domain), the largest machines combined where none does"]
    if request.method == "qlora":
        lines.append(f"{CUDA_ONLY}: other GPUs are left out")
    if not request.gpu:
        lines.append("GPU types: those the PyTorch recipes run on (NVIDIA, AMD); TPUs and Trainium need XLA or Neuron builds")
    return lines + memory[:3]


def plan_training_answer(result: PlanTraining) -> str:
    fix = [f"Fits with {result.alternatives[0].text}"] if result.alternatives and not result.options else \
        [f"Cheaper with {result.alternatives[0].text}"] if result.alternatives else []
    if not result.options:
        return within_limit([f"No GPU in the catalog holds {result.model} {result.method} training as asked.", *fix,
                             *[f"Warning: {w}" for w in result.warnings], *[f"Assumed: {a}" for a in result.assumptions]])
    first = result.options[0]
    lines = [f"{result.model} {result.method} training on {token_count(result.training_tokens)} tokens: "
             f"{duration(first.wall_clock_hours)} on {first.gpus} x {first.gpu_id}, {number(first.gpu_hours, 0)} GPU-hours, "
             + (f"{usd(first.usd_total)} at {usd(first.usd_per_gpu_hour)}/GPU-hour ({first.provider})" if first.usd_total
                else "no cloud price for this GPU")
             + f"; {number(first.tokens_per_s_per_gpu, 0)} tokens/s per GPU at {percent(result.mfu)} MFU.", *fix]
    others = [f"- {o.gpus} x {o.gpu_id}: {duration(o.wall_clock_hours)}, "
              + (usd(o.usd_total) if o.usd_total is not None else "unpriced") for o in result.options[1:]]
    if others:
        lines.append("Other GPU types, cheapest first:")
        lines += best_of(others, 4)
    lines += [f"Warning: {w}" for w in result.warnings[:3]] + [f"Assumed: {a}" for a in result.assumptions[:4]]
    return within_limit(lines)


def duration(hours: float) -> str:
    return f"{number(hours / 24, 1)} days" if hours >= 48 else f"{number(hours, 1)} hours"
