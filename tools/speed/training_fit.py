"""Whether a training run fits its GPUs, and the cheapest changes that make it fit, each timed again.

The memory is estimate_vram's: the plan of one training step and its peak per GPU, laid out as the fit scan lays out a
sharded job (ZeRO-3 with each layer checkpointed where the caller leaves checkpointing unsaid: fitting.spread_over), at
plan_training's defaults (the recipe's settings, a micro-batch of 1 x 2,048 tokens). Where the run fits, that is one plan
and one sum; the fewest GPUs that hold it and the fixes are worked out only where it does not.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from gpusizer.catalog import Catalog, GpuSpec
from gpusizer.tools.alternatives import Change, retried
from gpusizer.tools.figures import gib, number, usd, wall_time
from gpusizer.tools.memory import fitting
from gpusizer.tools.memory.plan import build_plan
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.validation import default_of, parse_request

SEQ_LEN: int = default_of(VramRequest, "seq_len")  # plan_training's sequence where none is given
METHOD_WORDS = {"full": "full", "lora": "LoRA", "qlora": "QLoRA"}


class TrainingFit(NamedTuple):
    fits: bool
    per_gpu_bytes: int
    usable_bytes: int
    gpus_needed: int | None       # fewest of this GPU that hold the run (None: not even 64); only worked out where it does not fit
    gradient_checkpointing: bool  # as the memory plan runs it
    recipe: str
    seq_len: int


class TimedRun(Protocol):
    """What a fix reads from training_time's result."""
    fits: bool | None
    wall_clock_hours: float
    wall_clock_days: float
    gpu_hours: float
    usd_total: float | None
    provider: str | None


class TrainingTimeAlternative(Change):
    """A change that makes the run fit, timed and priced by training_time."""
    gpu_count: int
    method: str
    gradient_checkpointing: bool
    per_gpu_bytes: int
    wall_clock_hours: float
    gpu_hours: float
    usd_total: float | None


def memory_fit(model: str, method: str, gpu: GpuSpec, gpus: int, gradient_checkpointing: bool | None,
              catalog: Catalog, seq_len: int | None = None, recipe: str | None = None) -> TrainingFit:
    """The run's peak per GPU on `gpus` x `gpu`, as estimate_vram sizes it. Raises SizingError where the memory model
    cannot take the run (plan_training then has no option either)."""
    arguments = {"model": model, "workload": "training", "method": method, "gpu": gpu.gpu_id, "seq_len": seq_len or SEQ_LEN,
                 "gradient_checkpointing": gradient_checkpointing, **({"recipe": recipe} if recipe else {}),
                 **fitting.spread_over("training", gpus, gradient_checkpointing)}  # as plan_training asks estimate_vram
    request = parse_request(VramRequest, arguments, "training_time")
    plan = build_plan(request, catalog)
    peak = fitting.total_for(plan, request.batch_size, request.seq_len)
    fits = peak <= gpu.usable_memory_bytes
    needed = None if fits else fitting.gpus_needed(plan, gpu.usable_memory_bytes)
    settings = plan.training
    return TrainingFit(fits, peak, gpu.usable_memory_bytes, needed, bool(settings and settings.gradient_checkpointing),
                       settings.recipe if settings else "", request.seq_len)


def fit_assumption(fit: TrainingFit, method: str, gpu_id: str, gpus: int) -> str:
    layout = "one GPU" if gpus == 1 else f"ZeRO-3 over {number(gpus)} GPUs"
    verdict = "fits" if fit.fits else "does not fit"
    return (f"memory: {method} training as estimate_vram sizes it ({fit.recipe} recipe, micro-batch 1 x {fit.seq_len:,} tokens, "
            f"{layout}, gradient checkpointing {'on' if fit.gradient_checkpointing else 'off'}): {gib(fit.per_gpu_bytes)} per "
            f"GPU of {gpu_id}'s {gib(fit.usable_bytes)} usable: {verdict}")


# The fixes, in order: the same run with checkpointing, the same run on more of the GPU, then a lighter method on the
# GPUs given (the first row of them that fits; QLoRA's recipes checkpoint by default). Each row: what it says, and the
# change it makes (None where it does not apply).
Row = tuple[str, Callable[[Mapping[str, Any], TrainingFit], dict[str, Any] | None]]
FIXES: tuple[Row, ...] = (
    ("gradient checkpointing", lambda run, fit: None if fit.gradient_checkpointing else {"gradient_checkpointing": True}),
    ("more GPUs", lambda run, fit: {"gpu_count": fit.gpus_needed}
     if fit.gpus_needed and fit.gpus_needed > run["gpu_count"] else None),
    ("LoRA", lambda run, fit: {"method": "lora"} if run["method"] == "full" else None),
    ("LoRA with gradient checkpointing", lambda run, fit: {"method": "lora", "gradient_checkpointing": True}
     if run["method"] == "full" and not fit.gradient_checkpointing else None),
    ("QLoRA", lambda run, fit: {"method": "qlora"} if run["method"] in ("full", "lora") else None),
)
SHOWN = 3


def training_fixes(run: Mapping[str, Any], fit: TrainingFit, gpu: GpuSpec, catalog: Catalog,
                   time: Callable[..., TimedRun]) -> list[TrainingTimeAlternative]:
    """The fixes that make `run` (training_time's arguments) fit, each checked, then timed with the checkpointing its
    memory plan runs (so the figure is plan_training's for the same run)."""
    found: list[TrainingTimeAlternative] = []
    for says, change_of in FIXES:
        change = change_of(run, fit)
        if change is None or "method" in change and any(f.method != run["method"] for f in found):
            continue  # one lighter method: the first that fits
        changed = {**run, **change}
        fixed = memory_fit(run["model"], changed["method"], gpu, changed["gpu_count"], changed["gradient_checkpointing"], catalog,
                           run["seq_len"], run["recipe"])
        if not fixed.fits:
            continue
        change["gradient_checkpointing"] = fixed.gradient_checkpointing
        again = retried(time, run, change)
        if again is None or not again.fits:
            continue
        found.append(TrainingTimeAlternative(
            change=says, arguments=change, text=fix_text(changed["method"], gpu.gpu_id, changed["gpu_count"], fixed, again),
            gpu_count=changed["gpu_count"], method=changed["method"], gradient_checkpointing=fixed.gradient_checkpointing,
            per_gpu_bytes=fixed.per_gpu_bytes, wall_clock_hours=again.wall_clock_hours, gpu_hours=again.gpu_hours,
            usd_total=again.usd_total))
    return found[:SHOWN]


def fix_text(method: str, gpu_id: str, gpus: int, fit: TrainingFit, run: TimedRun) -> str:
    """'LoRA on 1 × t4 (11.66 GiB per GPU): about 0.6 hours, $0.2985 (aws)', '2 × t4 with ZeRO-3, gradient checkpointing
    (11.18 GiB per GPU): about 0.6 hours, $2.22 (aws)'."""
    how = "" if method == "full" else f"{METHOD_WORDS[method]} "
    layout = ", ".join((["ZeRO-3"] if gpus > 1 else []) + (["gradient checkpointing"] if fit.gradient_checkpointing else []))
    cost = f", {usd(run.usd_total)} ({run.provider})" if run.usd_total is not None else ""
    return (f"{how}{'on ' if how else ''}{number(gpus)} × {gpu_id}" + (f" with {layout}" if layout else "")
            + f" ({gib(fit.per_gpu_bytes)} per GPU): about {wall_time(run.wall_clock_hours)}{cost}")
