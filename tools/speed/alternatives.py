"""Alternatives for the speed tools, each tried through the tool itself.

- estimate_speed: a model that does not fit the GPUs named has no speed there; the fix-it ladder's changes that make
  it fit (a smaller format, an FP8 or q8_0 KV cache, more GPUs) are timed instead.
- plan_training: the training rungs plan_training can take (gradient checkpointing, the Unsloth recipe, QLoRA) where
  they make the job fit the GPUs named, or cut the cheapest plan's cost by at least 15%.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.alternatives import Change, retried, worth_it
from gpusizer.tools.figures import gib, number, usd
from gpusizer.tools.memory import VramEstimate, estimate_vram
from gpusizer.tools.memory.fitting import spread_over
from gpusizer.tools.memory.ladder import RUNGS, situation_of

SHOWN = 3
ALL_LAYERS = 999  # llama.cpp -ngl 999: every layer on the GPU, as the speed model times it (no CPU layers)
TRAINING_INPUTS = frozenset({"gradient_checkpointing", "recipe", "method"})  # the memory rungs plan_training can take


class SpeedAlternative(Change):
    """A change that makes the model fit, and its decode speed."""
    num_gpus: int
    decode_tokens_per_s: float


class TrainingAlternative(Change):
    """A change to the training job and the cheapest plan it gives."""
    gpu_id: str
    gpus: int
    wall_clock_hours: float
    usd_total: float | None


def memory_check(arguments: Mapping[str, Any], engine: str, catalog: Catalog) -> VramEstimate | None:
    """Whether the model's weights and its sequences' KV cache fit the GPUs named (estimate_vram's fit check)."""
    gpus = int(arguments.get("num_gpus") or 1)
    context = int(arguments.get("prompt_tokens") or 1024) + int(arguments.get("output_tokens") or 256)
    try:
        return estimate_vram(arguments.get("model"), params_billions=arguments.get("params_billions"),
                             weights_dtype=arguments.get("weights_dtype"), kv_cache_dtype=arguments.get("kv_cache_dtype"),
                             engine="llama_cpp" if engine == "llama_cpp" else "hf", gpu=str(arguments["gpu"]),
                             batch_size=int(arguments.get("concurrency") or 1), seq_len=context,
                             n_gpu_layers=ALL_LAYERS if engine == "llama_cpp" else None,  # the speed is all layers' on the GPU
                             catalog=catalog, **spread_over("inference", gpus))  # type: ignore[arg-type]
    except SizingError:
        return None


def speed_alternatives(arguments: Mapping[str, Any], check: VramEstimate | None,
                       speed: Callable[..., Any]) -> list[SpeedAlternative]:
    """Where the model does not fit: the ladder's changes that fit, timed by estimate_speed."""
    if check is None or check.gpu_check is None or check.gpu_check.fits:
        return []
    found = []
    for fix in check.alternatives:
        change = {name: value for name, value in fix.arguments.items() if name in ("weights_dtype", "kv_cache_dtype")}
        change["num_gpus"] = fix.gpus
        again = retried(speed, arguments, change)
        if again is not None:
            text = f"{fix.text}: {number(again.decode_tokens_per_s)} tokens/s per sequence"
            found.append(SpeedAlternative(change=fix.change, arguments=change, text=text, num_gpus=fix.gpus,
                                          decode_tokens_per_s=again.decode_tokens_per_s))
    return found[:SHOWN]


def does_not_fit(check: VramEstimate | None) -> str | None:
    """'does not fit the GPUs named: 140.31 GiB per GPU, 21.59 GiB usable; it takes 8 x rtx-4090', None where it fits."""
    fit = check.gpu_check if check else None
    if fit is None or fit.fits:
        return None
    takes = f"; it takes {fit.gpus_needed} x {fit.gpu_id}" if fit.gpus_needed else ""
    return f"does not fit the GPUs named: {gib(fit.per_gpu_bytes)} per GPU, {gib(fit.usable_bytes)} usable{takes}"


def training_alternatives(arguments: Mapping[str, Any], job: VramEstimate | None, cheapest: tuple[float | None, float | None],
                          plan: Callable[..., Any]) -> list[TrainingAlternative]:
    """The training rungs plan_training takes, planned again; kept where the job then fits, or costs 15% less.
    cheapest: the first option's (usd_total, wall_clock_hours), (None, None) when no option holds the job."""
    if job is None:
        return []
    situation = situation_of(job)
    found = []
    for rung in RUNGS:
        if rung.workload != "training" or not rung.applies(arguments, situation):
            continue
        change = {name: value for name, value in rung.changes(arguments, situation).items() if value is not None}
        if not set(change) <= TRAINING_INPUTS:
            continue
        again = retried(plan, arguments, change)
        if again is None or not again.options:
            continue
        first = again.options[0]
        usd_before, hours_before = cheapest
        better = worth_it(usd_before, first.usd_total) if usd_before is not None and first.usd_total is not None \
            else worth_it(hours_before, first.wall_clock_hours)
        if better:
            cost = f", {usd(first.usd_total)}" if first.usd_total is not None else ""
            text = f"{rung.says}: {first.gpus} x {first.gpu_id}, {number(first.wall_clock_hours, 1)} hours{cost}"
            found.append(TrainingAlternative(change=rung.says, arguments=change, text=text, gpu_id=first.gpu_id,
                                             gpus=first.gpus, wall_clock_hours=first.wall_clock_hours, usd_total=first.usd_total))
    return found[:SHOWN]
