"""training_time: how long, and how much, to train a model on N tokens.

Compute is 6 FLOPs per active parameter per token (2 forward, 4 backward: Kaplan et al. 2020, the rule the Chinchilla
and Llama papers budget with); attention's own FLOPs are left out, as those papers do (at 4k context they add about
5% for 7B models and less for larger ones). The backward's 4 are 2 for the activations' gradients (dX = dY W^T) and 2
for the weights' (dW = X^T dY): adapters (LoRA, QLoRA) skip the frozen weights' half, 4 in all (the LoRA paper's
25% faster than full fine-tuning on GPT-3 is this saving, less overheads); gradient checkpointing runs each
layer's forward again in the backward, 2 more (selective recomputation, attention's core only, about 0.2). Time is that
compute at the share of the GPUs' dense 16-bit peak that published runs of the same GPU generation, model size and scale
reached (training_mfu.py: torchtitan's tables for jobs on a few nodes, Llama 2/3 GPU-hours and Megatron-LM for cluster
pretraining), times the speed-up FP8 linear layers gave where the GPU has FP8 tensor cores. An `mfu` given overrides
the table (MFU_DEFAULT, 40%, is Llama 2's A100 figure, kept for callers that state one).

A named model is also checked for fit on the GPUs given (training_fit.py: estimate_vram's memory at plan_training's
defaults): a run that cannot start gets `fits` false and the changes that make it fit, each timed again, and the answer
leads with that verdict instead of a time. A run of `params_billions` only is not checked (`fits` null).
"""
from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, Field

from gpusizer.catalog import Catalog, GpuSpec, SizingError, load_catalog
from gpusizer.tools.alternatives import with_alternatives
from gpusizer.tools.figures import gib, number, percent, token_count, usd, wall_time
from gpusizer.tools.memory.model.generic_model import generic_dense_decoder
from gpusizer.tools.memory.model.parameters import count_parameters
from gpusizer.tools.memory.request import Recipe
from gpusizer.tools.pricing import machine_price
from gpusizer.tools.speed.training_fit import METHOD_WORDS, TrainingFit, TrainingTimeAlternative, fit_assumption, memory_fit, training_fixes
from gpusizer.tools.speed.training_mfu import SELECTIVE_FLOPS_PER_PARAMETER, fp8_speedup, generation_of, training_mfu
from gpusizer.tools.validation import NAME_LIMIT, ModelName, ParamsBillions, parse_request

FLOPS_PER_PARAMETER_PER_TOKEN = 6
MFU_DEFAULT = 0.40
CHINCHILLA_TOKENS_PER_PARAMETER = 20.0  # compute-optimal pretraining: Hoffmann et al. 2022 ("Chinchilla"), Table 3's ~20
def flops_per_parameter(method: str = "full", gradient_checkpointing: bool = False, selective_checkpointing: bool = False) -> float:
    """FLOPs per active parameter per token: 6 in full training, 4 with frozen weights under adapters, +2 when
    gradient checkpointing recomputes the forward, about +0.2 when only attention's core is recomputed."""
    recompute = 2.0 if gradient_checkpointing else SELECTIVE_FLOPS_PER_PARAMETER - 6 if selective_checkpointing else 0.0
    return (FLOPS_PER_PARAMETER_PER_TOKEN if method == "full" else 4) + recompute


def training_seconds(active_params: float, tokens: float, gpus: int, dense_tflops: float, mfu: float,
                     flops_per_token: float = FLOPS_PER_PARAMETER_PER_TOKEN) -> float:
    """Wall-clock seconds of a training run: `flops_per_token` per active parameter at `mfu` of every GPU's peak."""
    return flops_per_token * active_params * tokens / (gpus * dense_tflops * 1e12 * mfu)


class TrainingTimeRequest(BaseModel):
    model: ModelName | None = Field(default=None, description="model name (or give params_billions)")
    params_billions: ParamsBillions | None = Field(default=None, description="a dense model of this size")
    training_tokens: float | None = Field(default=None, ge=1e6, le=1e15, description="tokens seen in training (all epochs)")
    tokens_per_parameter: float | None = Field(default=None, gt=0, le=1e5, description="instead of training_tokens: tokens "
                                               f"per parameter ({CHINCHILLA_TOKENS_PER_PARAMETER:g}: Chinchilla-optimal)")
    gpu: str = Field(default="h100-sxm", max_length=NAME_LIMIT, description="GPU name or alias")
    gpu_count: int = Field(default=8, ge=1, le=100_000, description="GPUs training together")
    mfu: float | None = Field(default=None, gt=0, le=0.8, description="share of the dense 16-bit peak; default: published "
                              "runs of this GPU generation, model size and scale")
    pricing: Literal["on_demand", "spot"] = Field(default="on_demand", description="which price to cost the GPU-hours at")
    method: Literal["full", "lora", "qlora"] = Field(default="full", description="adapters skip the frozen weights' gradients")
    gradient_checkpointing: bool | None = Field(default=None, description="recomputes each layer's forward in the backward; "
                                                "unsaid: timed without, memory as the recipe (one GPU) or sharded runs set it")
    selective_checkpointing: bool = Field(default=False, description="recomputes only attention's core in the backward")
    fp8: bool = Field(default=False, description="FP8 linear layers (torchao float8, Transformer Engine) where the GPU has them")
    check_fit: bool = Field(default=True, description="check a named model's memory on the GPUs (callers that did: false)")
    seq_len: int | None = Field(default=None, ge=1, le=10_000_000, description="tokens per sequence, for the memory check "
                                "(default 2,048); the time counts tokens, whatever their length")
    recipe: Recipe | None = Field(default=None, description="training framework, for the memory check (default hf_trainer)")


class TrainingTime(BaseModel):
    model: str
    active_params: int = Field(description="parameters each token passes through (all of them for dense models)")
    method: str = Field(default="full", description="full, lora or qlora, as timed and checked")
    training_tokens: float
    tokens_per_parameter: float | None = Field(default=None, description="where the tokens are a count per parameter")
    training_flops: float = Field(description="FLOPs per parameter (6 full, 4 adapters, +2 checkpointing) x active_params x "
                                  "training_tokens")
    gpu_id: str
    gpu_count: int
    mfu: float = Field(description="model FLOPs (6 per parameter) over the dense 16-bit peak, as the source reports it")
    mfu_source: str = Field(description="the published run the MFU comes from, or 'given'")
    fp8_speedup: float = Field(description="FP8 linear layers' speed-up over BF16 (1 without FP8)")
    gpu_hours: float
    wall_clock_hours: float
    wall_clock_days: float
    usd_per_gpu_hour: float | None = Field(description="cheapest catalog offer; null where the GPU has no cloud price")
    provider: str | None
    usd_total: float | None = Field(description="gpu_hours x usd_per_gpu_hour; null where unpriced")
    fits: bool | None = Field(default=None, description="whether the run fits gpu_count x gpu_id (estimate_vram's memory); "
                              "null where unchecked (params_billions only, or check_fit false)")
    per_gpu_bytes: int | None = Field(default=None, description="peak memory per GPU of one training step, where checked")
    usable_bytes: int | None = Field(default=None, description="the GPU's usable memory, where checked")
    gpus_needed: int | None = Field(default=None, description="where it does not fit: the fewest of this GPU that hold it "
                                    "(ZeRO-3); null where not even 64 do")
    assumptions: list[str]
    alternatives: list[TrainingTimeAlternative] = Field(default=[], description="where it does not fit: the changes that "
                                                        "make it fit (checkpointing, more GPUs, a lighter method), each timed")


def training_time(model: str | None = None, *, training_tokens: float | None = None, params_billions: float | None = None,
                  gpu: str = "h100-sxm", gpu_count: int = 8, mfu: float | None = None,
                  pricing: Literal["on_demand", "spot"] = "on_demand", method: Literal["full", "lora", "qlora"] = "full",
                  gradient_checkpointing: bool | None = None, selective_checkpointing: bool = False, fp8: bool = False,
                  tokens_per_parameter: float | None = None, check_fit: bool = True, seq_len: int | None = None,
                  recipe: Recipe | None = None, catalog: Catalog | None = None) -> TrainingTime:
    """GPU-hours, wall-clock time and cloud cost of training `model` (or a dense `params_billions` model) on
    `training_tokens` tokens with `gpu_count` x `gpu`, at the MFU published runs reached on that GPU generation (or
    `mfu` of their dense 16-bit peak), with FP8 linear layers if `fp8`; `tokens_per_parameter` (20: Chinchilla-optimal)
    sets the tokens from the model's parameters instead. A named model is checked for fit on the GPUs (`check_fit`, at
    `seq_len` tokens per sequence under `recipe`), with the changes that make it fit where it does not. Raises SizingError."""
    request = parse_request(TrainingTimeRequest, {k: v for k, v in locals().items() if k != "catalog"}, "training_time")
    catalog = catalog or load_catalog()
    if (request.model is None) == (request.params_billions is None):
        raise SizingError("training_time: give model or params_billions (one of them)")
    arch = (catalog.find_model(request.model) if request.model is not None
            else generic_dense_decoder(request.params_billions))  # type: ignore[arg-type]
    spec = catalog.find_gpu(request.gpu)
    peak_tflops = spec.bf16_tflops_dense or spec.fp16_tflops_dense
    if not peak_tflops:
        raise SizingError(f"training_time: the catalog has no dense 16-bit TFLOPS for {spec.gpu_id}; name another GPU")
    counts = count_parameters(arch)
    active = counts.active
    tokens = request.training_tokens or 0.0
    if request.tokens_per_parameter is not None:  # Chinchilla counts every parameter, experts included
        tokens = request.tokens_per_parameter * counts.total
    elif request.training_tokens is None:
        raise SizingError("training_time: give training_tokens or tokens_per_parameter")
    per_parameter = flops_per_parameter(request.method, bool(request.gradient_checkpointing), request.selective_checkpointing)
    flops = per_parameter * active * tokens
    speed = run_speed(spec, active / 1e9, request.gpu_count, request.mfu, request.fp8)
    wall = training_seconds(active, tokens, request.gpu_count, peak_tflops * speed.fp8_speedup,
                            speed.hardware_share, per_parameter) / 3600
    gpu_hours = wall * request.gpu_count
    price = machine_price(catalog, spec.gpu_id, request.gpu_count, request.pricing)
    rate = price.usd_per_gpu_hour if price else None
    assumptions = [f"tokens: {tokens_rule(request.tokens_per_parameter)}, x {counts.total / 1e9:.2f}B parameters = "
                   f"{token_count(tokens)}"] if request.tokens_per_parameter else []
    assumptions += [
        f"compute: {per_parameter} FLOPs per active parameter per token ({active / 1e9:.2f}B active; "
        + ("full training: 2 forward, 4 backward" if request.method == "full"
           else f"{request.method}: the frozen weights get no gradients, 2 forward, 2 backward")
        + ("; +2 to recompute the forward under gradient checkpointing" if request.gradient_checkpointing else "")
        + ("; +0.2 to recompute attention's core (selective checkpointing)" if request.selective_checkpointing
           and not request.gradient_checkpointing else "")
        + "), attention FLOPs not counted",
        f"speed: {speed.mfu:.0%} MFU of {spec.gpu_id}'s dense 16-bit peak ({peak_tflops:g} TFLOPS) on every GPU ({speed.source})"
        + (f", x{speed.fp8_speedup:g} with FP8 linear layers ({speed.fp8_source})" if speed.fp8_speedup > 1
           else f"; {speed.fp8_source}" if speed.fp8_source else ""),
        f"price: cheapest {request.pricing.replace('_', '-')} {spec.gpu_id} machine holding all {request.gpu_count} GPUs "
        "(the largest machines combined where none does)"
        + (f" ({price.offer.provider}, ${rate:.2f}/GPU-h)" if price and rate else ": none"),
    ]
    fit = fit_of(request, spec, catalog)
    if fit is not None:
        assumptions.append(fit_assumption(fit, request.method, spec.gpu_id, request.gpu_count))
    result = TrainingTime(model=arch.model_id, active_params=active, method=request.method, training_tokens=tokens,
                        tokens_per_parameter=request.tokens_per_parameter,
                        training_flops=flops, gpu_id=spec.gpu_id, gpu_count=request.gpu_count, mfu=speed.mfu,
                        mfu_source=speed.source, fp8_speedup=speed.fp8_speedup,
                        gpu_hours=gpu_hours, wall_clock_hours=wall, wall_clock_days=wall / 24, usd_per_gpu_hour=rate,
                        provider=price.offer.provider if price else None,
                        usd_total=gpu_hours * rate if rate else None, assumptions=assumptions,
                        fits=fit.fits if fit else None, per_gpu_bytes=fit.per_gpu_bytes if fit else None,
                        usable_bytes=fit.usable_bytes if fit else None, gpus_needed=fit.gpus_needed if fit else None)
    if fit is None or fit.fits:
        return result
    run = {**request.model_dump(), "model": arch.model_id, "catalog": catalog}
    return with_alternatives(result, lambda: training_fixes(run, fit, spec, catalog, training_time))


def fit_of(request: TrainingTimeRequest, spec: GpuSpec, catalog: Catalog) -> TrainingFit | None:
    """The run's memory on its GPUs, for a named model where asked; None where unchecked, or where the memory model
    cannot take the run (the time is still given, as before the check)."""
    if not request.check_fit or request.model is None:
        return None
    try:
        return memory_fit(request.model, request.method, spec, request.gpu_count, request.gradient_checkpointing, catalog,
                          request.seq_len, request.recipe)
    except SizingError:
        return None


def training_time_answer(result: TrainingTime, method: str = "full", rate_only: bool = False, budget_usd: float | None = None,
                         claimed_tokens: float | None = None) -> str:
    """The run in one sentence: GPU-hours, wall-clock time (hours for a small run, not '0.0 days'), MFU and the bill;
    with `rate_only`, the tokens a day the GPUs get through and what `result.training_tokens` of them cost, or the tokens
    a budget buys. A run that does not fit its GPUs gets that verdict and the changes that make it fit instead."""
    if result.fits is False:
        return does_not_fit(result)
    if rate_only and budget_usd:
        return tokens_for_budget(result, budget_usd, claimed_tokens)
    cost = (f", about {usd(result.usd_total)} at {usd(result.usd_per_gpu_hour)}/GPU-h ({result.provider})"
            if result.usd_total is not None else "; no cloud price for this GPU in the catalog")
    if rate_only:
        per_day = result.training_tokens / result.wall_clock_days
        price = usd(result.usd_total) if result.usd_total is not None else "no cloud price in the catalog"
        return (f"About {per_day / 1e9:.2f}B tokens a day ({per_day / 86400:,.0f} tokens/s) on {result.gpu_count} × "
                f"{result.gpu_id} at {percent(result.mfu)} MFU; {token_count(result.training_tokens)} tokens cost {price}.")
    wall = wall_time(result.wall_clock_hours)
    how = "" if method == "full" else f"{method} "
    lead = (f"{token_count(result.training_tokens)} tokens: {tokens_rule(result.tokens_per_parameter)}. "
            if result.tokens_per_parameter else "")
    return (f"{lead}About {number(result.gpu_hours, 0)} GPU-hours: {wall} of {how}training on {result.gpu_count} × "
            f"{result.gpu_id} at {percent(result.mfu)} MFU ({result.training_flops:.2e} FLOPs){cost}.")


def does_not_fit(result: TrainingTime) -> str:
    """'Does not fit: Qwen/Qwen2.5-1.5B full training needs 19.26 GiB per GPU on 1 × t4 (15.00 GiB usable). What fits,
    on 10M tokens: 1 × t4 with gradient checkpointing (13.57 GiB per GPU): about 1.1 hours, $0.5970 (aws); ...'."""
    job = f"{result.model} {METHOD_WORDS.get(result.method, result.method)} training"
    lead = (f"Does not fit: {job} needs {gib(result.per_gpu_bytes)} per GPU on {number(result.gpu_count)} × {result.gpu_id} "
            f"({gib(result.usable_bytes)} usable).")
    fixes = [fix.text for fix in result.alternatives]
    if not fixes:
        return lead + (f" It takes {number(result.gpus_needed)} × {result.gpu_id}." if result.gpus_needed else "")
    listed = "; ".join(fixes[:-1]) + ("; or " if len(fixes) > 1 else "") + fixes[-1]
    return f"{lead} What fits, on {token_count(result.training_tokens)} tokens: {listed}."


def tokens_rule(per_parameter: float | None) -> str:
    chinchilla = per_parameter == CHINCHILLA_TOKENS_PER_PARAMETER
    return f"{per_parameter:g} per parameter" + (" (Chinchilla-optimal: Hoffmann et al. 2022)" if chinchilla else "")


def tokens_for_budget(run: TrainingTime, budget_usd: float, claimed_tokens: float | None = None) -> str:
    """'$10k: how many tokens can I pretrain a 1B model on?': the budget over what a token costs on the run's GPUs
    (training_time's cost of `run.training_tokens`); a claim ('my advisor thinks 100B max') is set against it."""
    job = f"{number(run.gpu_count)} × {run.gpu_id}"
    if not run.usd_total or not run.usd_per_gpu_hour:
        return f"Cannot say: no cloud price for {job} in the catalog to divide {usd(budget_usd)} by."
    tokens = budget_usd / run.usd_total * run.training_tokens
    hours = budget_usd / run.usd_per_gpu_hour
    days = run.wall_clock_days * tokens / run.training_tokens
    line = (f"About {token_count(tokens)} tokens: {usd(budget_usd)} buys {number(hours, 0)} GPU-hours at "
            f"{usd(run.usd_per_gpu_hour)}/GPU-h ({run.provider}), {number(days, 1)} days on {job} at {percent(run.mfu)} MFU "
            f"({usd(run.usd_total / run.training_tokens * 1e9)} per billion tokens).")
    if claimed_tokens:
        ratio = tokens / claimed_tokens
        verdict = "too low" if ratio > 1.2 else "too high" if ratio < 0.8 else "about right"
        line += f" The {token_count(claimed_tokens)} claimed is {verdict}: the budget buys {ratio:.2g}× that."
    return line


class RunSpeed(NamedTuple):
    mfu: float              # as published (model FLOPs under the source's checkpointing), or as given
    hardware_share: float   # of the dense peak, that the run's own FLOPs (recomputation included) are counted at
    source: str
    fp8_speedup: float
    fp8_source: str


def run_speed(gpu: GpuSpec, params_billions: float, gpu_count: int, given_mfu: float | None = None, fp8: bool = False) -> RunSpeed:
    """The MFU row for this GPU, model size and scale (or the MFU given), and FP8's speed-up where the GPU has FP8."""
    if given_mfu is not None:
        share, mfu, source = given_mfu, given_mfu, "given"
    else:
        row = training_mfu(gpu, params_billions, gpu_count)
        generation, borrowed = generation_of(gpu)
        share, mfu = row.hardware_share, row.mfu
        source = row.source + (f"; no published run on {gpu.architecture}: {generation.title()}'s" if borrowed else "")
    speedup, fp8_source = fp8_speedup(params_billions) if fp8 and gpu.native_fp8 else (1.0, "")
    if fp8 and not gpu.native_fp8:
        fp8_source = f"FP8 asked, but {gpu.gpu_id} has no FP8 tensor cores: timed in BF16"
    return RunSpeed(mfu, share, source, speedup, fp8_source)
