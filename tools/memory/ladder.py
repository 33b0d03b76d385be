"""The fix-it ladder: what people change first when a model does not fit the GPU they named, each change re-estimated.

The rungs are a table, in the order people reach for them: split over the GPUs already there, a smaller release
format (FP8, then a 4-bit AWQ/GPTQ checkpoint, or a smaller GGUF under llama.cpp), an FP8 KV cache, a shorter
context; for training ZeRO-3 over the GPUs there, gradient checkpointing, then with an 8-bit AdamW, pure bf16 (what
transformers 5 does with a bf16 checkpoint), the Unsloth recipe, QLoRA; last, more GPUs of the same type. Each rung is
estimated, never guessed: where it does not fit on the GPUs given, the fewest GPUs it needs with that change are
found and estimated too. The alternatives are ranked by GPUs needed, then by rung order, and the first few returned.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from gpusizer.catalog import Catalog, GpuSpec, SizingError
from gpusizer.tools.figures import gib
from gpusizer.tools.memory import fitting
from gpusizer.tools.memory.engines.kernels import loadable_format
from gpusizer.tools.memory.engines.memory import VLLM_GPU_MEMORY_UTILIZATION
from gpusizer.tools.memory.model.formats import FORMATS
from gpusizer.tools.memory.request import Alternative, VramEstimate

Arguments = Mapping[str, Any]
Estimate = Callable[[Mapping[str, Any], Catalog], VramEstimate]
LARGER_SHARE = 0.95  # what operators raise vLLM's 0.9 (SGLang's mem_fraction_static) to when the KV cache is short
LARGER_SHARE_SAYS = f"a larger memory share (--gpu-memory-utilization {LARGER_SHARE:g})"
SHORTEST_USEFUL_CONTEXT = 512  # a "fits at N tokens" fix below this is no answer to a sizing question


class Situation(NamedTuple):
    """What the rungs look at in an answer: the same for an estimate and for a serving or training plan."""
    workload: str
    method: str
    bits: float                  # bits per weight of the weights' format
    kv_cache_dtype: str
    kv_share: float              # the KV cache's share of the peak
    checkpointing: bool
    mixed_precision: bool        # training keeps fp32 master weights and states


def situation_of(result: VramEstimate) -> Situation:
    fmt = FORMATS.get(result.weights_dtype)
    training = result.training
    return Situation(result.workload, result.method, fmt.bits_per_weight if fmt else 16.0, result.kv_cache_dtype,
                     result.breakdown.kv_cache / max(result.total_bytes, 1), bool(training and training.gradient_checkpointing),
                     bool(training and training.training_precision == "mixed"))


@dataclass(frozen=True)
class Rung:
    """One change people make: when it applies to a request and its answer, and the arguments it sets."""
    workload: str
    says: str                                                  # the change in words ({n}: the GPUs given)
    applies: Callable[[Arguments, Situation], bool]
    changes: Callable[[Arguments, Situation], dict[str, Any]]
    more_gpus: bool = True  # where it does not fit the GPUs given, try it on the fewest that hold it


def given(arguments: Arguments, name: str, default: Any) -> Any:
    value = arguments.get(name)
    return default if value is None else value


def gpus_given(arguments: Arguments) -> int:
    return int(given(arguments, "num_gpus", 1))


def share_can_grow(arguments: Arguments) -> bool:
    """vLLM or SGLang below the larger memory share operators give it."""
    return given(arguments, "engine", "hf") in ("vllm", "sglang") \
        and given(arguments, "gpu_memory_utilization", VLLM_GPU_MEMORY_UTILIZATION) < LARGER_SHARE


def llama_cpp(arguments: Arguments) -> bool:
    return bool(given(arguments, "engine", "hf") == "llama_cpp")


RUNGS: tuple[Rung, ...] = (
    Rung("inference", "tensor parallel over the {n} GPUs given",
         lambda a, s: gpus_given(a) > 1 and given(a, "tensor_parallel", 1) == 1,
         lambda a, s: {"tensor_parallel": gpus_given(a)}, more_gpus=False),
    Rung("inference", LARGER_SHARE_SAYS,
         lambda a, s: share_can_grow(a), lambda a, s: {"gpu_memory_utilization": LARGER_SHARE}, more_gpus=False),
    Rung("inference", "FP8 weights (an FP8 checkpoint, or vLLM --quantization fp8)",
         lambda a, s: not llama_cpp(a) and s.bits > 9, lambda a, s: {"weights_dtype": "fp8"}),
    Rung("inference", "a 4-bit AWQ/GPTQ checkpoint",
         lambda a, s: not llama_cpp(a) and s.bits > 4.5, lambda a, s: {"weights_dtype": "awq"}),
    Rung("inference", "the Q4_K_M GGUF", lambda a, s: llama_cpp(a) and s.bits > 5, lambda a, s: {"weights_dtype": "q4_k_m"}),
    Rung("inference", "the Q3_K_M GGUF", lambda a, s: llama_cpp(a) and s.bits > 4, lambda a, s: {"weights_dtype": "q3_k_m"}),
    Rung("inference", "an FP8 KV cache (vLLM --kv-cache-dtype fp8)",
         lambda a, s: not llama_cpp(a) and s.kv_share > 0.1 and s.kv_cache_dtype not in ("fp8", "int8", "q8_0", "q4_0"),
         lambda a, s: {"kv_cache_dtype": "fp8"}),
    Rung("inference", "a q8_0 KV cache (-ctk q8_0 -ctv q8_0)",
         lambda a, s: llama_cpp(a) and s.kv_share > 0.1 and s.kv_cache_dtype not in ("q8_0", "q4_0"),
         lambda a, s: {"kv_cache_dtype": "q8_0"}),
    Rung("training", "ZeRO-3 / FSDP over the {n} GPUs given",
         lambda a, s: gpus_given(a) > 1 and given(a, "sharding", "none") == "none", lambda a, s: {"sharding": "zero3"},
         more_gpus=False),
    Rung("training", "gradient checkpointing", lambda a, s: not s.checkpointing, lambda a, s: {"gradient_checkpointing": True}),
    Rung("training", "gradient checkpointing with an 8-bit AdamW (bitsandbytes)",
         lambda a, s: given(a, "optimizer", "adamw") == "adamw",
         lambda a, s: {"gradient_checkpointing": True, "optimizer": "adamw_8bit"}),
    Rung("training", "pure bf16 training (transformers 5 keeps a bf16 checkpoint in bf16) with gradient checkpointing",
         lambda a, s: s.method == "full" and s.mixed_precision,
         lambda a, s: {"training_precision": "bf16", "gradient_checkpointing": True}),
    Rung("training", "the Unsloth recipe", lambda a, s: s.method != "full" and given(a, "recipe", None) != "unsloth",
         lambda a, s: {"recipe": "unsloth"}),
    Rung("training", "QLoRA with the Unsloth recipe", lambda a, s: s.method != "qlora",
         lambda a, s: {"method": "qlora", "recipe": "unsloth", "weights_dtype": None}),
)


def alternatives(arguments: Arguments, result: VramEstimate, catalog: Catalog, estimate: Estimate,
                 limit: int = 3) -> list[Alternative]:
    """For an estimate checked on a GPU it does not fit: the cheapest changes that make it fit, each with its figure."""
    check = result.gpu_check
    if check is None or check.fits:
        return []
    found: list[tuple[int, int, Alternative]] = []
    situation = situation_of(result)
    gpu = catalog.resolve_gpu(check.gpu_id).gpu
    for order, rung in enumerate(RUNGS):
        if rung.workload == result.workload and rung.applies(arguments, situation):
            loadable = runnable(arguments, rung.changes(arguments, situation), rung.says, gpu)
            if loadable is None:
                continue
            changes, says = loadable
            alternative = tried(arguments, {**base_layout(arguments, result), **changes},
                                says.format(n=gpus_given(arguments)), catalog, estimate, rung.more_gpus)
            if alternative:
                found.append((alternative.gpus, order, alternative))
            if alternative and alternative.gpus > gpus_given(arguments) and "weights_dtype" in changes:
                fewer = at_shorter_context(arguments, result, changes, says, catalog, estimate)
                if fewer:  # after the fixes that keep the format asked on as many GPUs
                    found.append((fewer.gpus, len(RUNGS) + 3 + order, fewer))
    same_size = runnable(arguments, {"weights_dtype": result.weights_dtype}, "", gpu)
    if same_size and same_size[0]["weights_dtype"] != result.weights_dtype:  # the engine has no kernel for the format asked
        alternative = tried(arguments, {**base_layout(arguments, result), **same_size[0]}, same_size[1], catalog, estimate)
        if alternative:
            found.append((alternative.gpus, -1, alternative))
    for extra, shorter in enumerate((shorter_context(arguments, result, catalog, estimate),
                                     share_and_context(arguments, result, catalog, estimate))):
        if shorter:
            found.append((shorter.gpus, len(RUNGS) + extra, shorter))
    if check.gpus_needed and check.gpus_needed > gpus_given(arguments):
        more = tried(arguments, dict(fitting.spread_over(result.workload, check.gpus_needed, arguments.get("gradient_checkpointing"))),
                     check.split or "more GPUs",
                     catalog, estimate)
        if more:
            found.append((more.gpus, len(RUNGS) + 2, more))
    ranked = [alternative for _, _, alternative in sorted(found, key=lambda item: item[:2])]
    unique: dict[str, Alternative] = {}
    for alternative in ranked:  # one rung per result: 'FP8 weights' on 8 GPUs adds nothing beside '8 GPUs'
        unique.setdefault(f"{alternative.gpus}:{alternative.per_gpu_bytes}", alternative)
    return list(unique.values())[:limit]


def runnable(arguments: Arguments, changes: dict[str, Any], says: str, gpu: GpuSpec) -> tuple[dict[str, Any], str] | None:
    """The change as the engine can load it on this GPU (a 4-bit GPTQ checkpoint where it has no AWQ kernel), or None."""
    wanted = changes.get("weights_dtype")
    if not wanted:
        return changes, says
    loadable = loadable_format(str(given(arguments, "engine", "hf")), wanted, gpu)
    if loadable is None:
        return None
    if loadable != wanted:
        return {**changes, "weights_dtype": loadable}, f"a 4-bit {loadable.upper()} checkpoint (no {wanted.upper()} kernel for this GPU)"
    return changes, says


def base_layout(arguments: Arguments, result: VramEstimate) -> dict[str, Any]:
    """The GPUs already given, used the way the fit scan uses them: a change is tried on top of that."""
    gpus = gpus_given(arguments)
    layout = dict(fitting.spread_over(result.workload, gpus)) if gpus > 1 else {}
    layout.pop("gradient_checkpointing", None)  # as the request runs on them: a rung changes one thing at a time
    return layout


def tried(arguments: Arguments, changes: dict[str, Any], says: str, catalog: Catalog, estimate: Estimate,
          more_gpus: bool = True) -> Alternative | None:
    """The change on the GPUs given; where it still does not fit, on the fewest GPUs it needs with it."""
    again = reestimate(arguments, changes, catalog, estimate)
    check = again.gpu_check if again else None
    if again is None or check is None or loaded_otherwise(changes, again):
        return None
    if not check.fits:
        if not more_gpus or not check.gpus_needed or check.gpus_needed <= gpus_given({**arguments, **changes}):
            return None
        changes = {**changes, **fitting.spread_over(again.workload, check.gpus_needed,
                                                    {**arguments, **changes}.get("gradient_checkpointing"))}
        again = reestimate(arguments, changes, catalog, estimate)
        check = again.gpu_check if again else None
        if again is None or check is None or not check.fits:
            return None
    gpus = gpus_given({**arguments, **changes})
    text = f"{says}: fits {gpus} x {check.name} at {gib(check.per_gpu_bytes)} per GPU"
    return Alternative(change=says, arguments=changes, gpu_id=check.gpu_id, gpus=gpus,
                       per_gpu_bytes=check.per_gpu_bytes, text=text)


def loaded_otherwise(changes: dict[str, Any], again: VramEstimate) -> bool:
    """The engine loads the asked format as another (transformers dequantizes FP8 on a GPU without FP8 tensor cores):
    the change saves nothing there."""
    wanted = changes.get("weights_dtype")
    return bool(wanted) and again.weights_dtype != wanted


def shorter_context(arguments: Arguments, result: VramEstimate, catalog: Catalog, estimate: Estimate) -> Alternative | None:
    check = result.gpu_check
    longest = check.max_seq_len if check else None
    engine = result.serving is not None and result.serving.engine in ("vllm", "sglang")  # their context is max_model_len
    asked = result.serving.max_model_len if engine and result.serving else given(arguments, "seq_len", 2048)
    if not longest or longest < SHORTEST_USEFUL_CONTEXT or longest >= (asked or 0):
        return None
    says = f"a context of {longest:,} tokens (seq_len / max_model_len)"
    return tried(arguments, {"max_model_len" if engine else "seq_len": longest}, says, catalog, estimate)


def at_shorter_context(arguments: Arguments, result: VramEstimate, changes: dict[str, Any], says: str, catalog: Catalog,
                       estimate: Estimate) -> Alternative | None:
    """A smaller format on the GPUs given with the longest context it leaves room for, where vLLM/SGLang would otherwise
    refuse to start at the model's full context ('a 4-bit checkpoint with --max-model-len 60,000: fits 1 x H100')."""
    if result.serving is None or result.serving.engine not in ("vllm", "sglang"):
        return None
    changed = {**base_layout(arguments, result), **changes}
    again = reestimate(arguments, changed, catalog, estimate)
    longest = again.gpu_check.max_seq_len if again and again.gpu_check else None
    if not longest or longest < SHORTEST_USEFUL_CONTEXT:
        return None
    return tried(arguments, {**changed, "max_model_len": longest}, f"{says} with --max-model-len {longest:,}", catalog, estimate,
                 more_gpus=False)


def share_and_context(arguments: Arguments, result: VramEstimate, catalog: Catalog, estimate: Estimate) -> Alternative | None:
    """vLLM/SGLang at a 0.95 memory share with the longest context that share holds: what operators do when a model
    just misses one GPU at the model's full context ('--max-model-len 8192 --gpu-memory-utilization 0.95')."""
    if not share_can_grow(arguments):
        return None
    share = {**base_layout(arguments, result), "gpu_memory_utilization": LARGER_SHARE}
    again = reestimate(arguments, share, catalog, estimate)
    check = again.gpu_check if again else None
    longest = check.max_seq_len if check else None
    if not longest or longest < SHORTEST_USEFUL_CONTEXT or (check is not None and check.fits):
        return None
    says = f"--gpu-memory-utilization {LARGER_SHARE:g} with --max-model-len {longest:,}"
    return tried(arguments, {**share, "max_model_len": longest}, says, catalog, estimate, more_gpus=False)


def reestimate(arguments: Arguments, changes: dict[str, Any], catalog: Catalog, estimate: Estimate) -> VramEstimate | None:
    try:
        return estimate({**arguments, **changes}, catalog)
    except SizingError:  # a change this model or engine cannot take (e.g. heads that 8 GPUs do not divide)
        return None


def format_changes(arguments: Arguments, situation: Situation) -> list[tuple[str, dict[str, Any]]]:
    """The inference rungs that change what is served (its weights' or KV cache's format), not how many GPUs hold it:
    what a serving or speed plan tries, with its own tool, before more hardware."""
    return [(rung.says, rung.changes(arguments, situation)) for rung in RUNGS
            if rung.workload == "inference" and rung.more_gpus and rung.applies(arguments, situation)]
