"""estimate_vram's result as an answer to read aloud: the verdict, the cheapest fix, the figures, what moved them.

What an assistant receives as the tool's text (the whole result stays in the structured content): at most 1,500
bytes, verdict first. Priced fits are listed cheapest first, the way a person picks among them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gpusizer.tools.figures import best_of, gib, number, usd, within_limit
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES
from gpusizer.tools.memory.fitting import MAX_GPUS, most_gpus, split_of
from gpusizer.tools.memory.model.formats import FORMATS
from gpusizer.tools.memory.request import GpuFit, VramEstimate

if TYPE_CHECKING:
    from gpusizer.catalog import Catalog

FITS_SHOWN = 5
# a Mac outside the catalog: its GPU's share of unified memory (the catalog's Apple rows hold the same limit as usable memory)
UNIFIED_MEMORY_NOTE = ("On Apple silicon the GPU may use about 2/3 to 3/4 of unified memory by default (macOS's wired limit, "
                       "raised with iogpu.wired_limit_mb): compare the figure with that share, not the whole.")
NOTES_SHOWN = 3


def estimate_vram_answer(result: VramEstimate) -> str:
    lines = [verdict(result)]
    if result.alternatives:
        first, *others = result.alternatives
        lines.append(f"Cheapest fix: {first.text}.")
        lines += [f"Also: {other.text}." for other in others]
    lines.append(f"Peak per GPU: {breakdown(result)} (at {result.peak_phase}).")
    if result.serving and not (result.serving.reason and lines[0].startswith("Does not fit")):  # the reason is the verdict
        lines.append(serving(result))
    if result.fits and not (result.gpu_check and result.gpu_check.fits):
        lines.append("Fits on (cheapest first):")
        ranked = cheapest_first(result.fits)  # only the lines shown are worded: the answer is on every call's path
        lines += best_of([f"- {fit_line(fit)}" for fit in ranked[:FITS_SHOWN]], FITS_SHOWN, total=len(ranked))
    lines += [f"Warning: {warning}" for warning in result.warnings[:NOTES_SHOWN]]
    lines += [f"Assumed: {assumption}" for assumption in result.assumptions[:NOTES_SHOWN]]
    return within_limit(lines)


def verdict(result: VramEstimate) -> str:
    job = (f"{result.model} inference ({result.weights_dtype})" if result.workload == "inference"
           else f"{result.model} {result.method} training ({result.weights_dtype} weights)")
    needs = f"{job} needs {gib(result.total_bytes)} per GPU"
    if result.box is not None:
        return box_verdict(result, job)
    check = result.gpu_check
    if check is None:
        return f"{needs}."
    if check.fits:
        limits = [f"{what} {number(value)}" for what, value in (("largest batch", check.max_batch_size),
                                                                 ("longest sequence", check.max_seq_len)) if value is not None]
        stretch = f" ({', '.join(limits)} tokens)" if limits and limits[-1].startswith("longest") else \
            f" ({', '.join(limits)})" if limits else ""  # llama.cpp sizes no batch: no placeholder for it
        return f"Fits: {needs}; the {check.name} has {gib(check.usable_bytes)} usable{stretch}."
    takes = (f"it takes {check.gpus_needed} x {check.name} ({check.split})" if check.gpus_needed
             else check.split or f"not even 64 x {check.name} hold it")  # a split without a count says why none holds it
    served = result.serving
    if served is not None and served.reason:  # within the card's memory, but not the engine's budget: say the engine's why
        return f"Does not fit: {ENGINE_NAMES[served.engine]} would not start on the {check.name}: {served.reason}; as asked, {takes}."
    return f"Does not fit: {needs}, the {check.name} has {gib(check.usable_bytes)} usable; as asked, {takes}."


def partly_in_system_ram(serving: Mapping[str, Any] | None) -> bool:
    """Whether llama.cpp left layers in system RAM (an estimate's `serving`, as a dict): a partial fit. Their KV cache
    stays there with them, so host KV bytes say it (host weight bytes do not: llama.cpp keeps the token-embedding table
    in system RAM on any fit). One rule for the Ask answer ('Partly: ...') and the TUI card ('fits partly')."""
    return bool(serving and (serving.get("host_kv_bytes") or 0) > 0)


THIN_SHARE = 0.05  # under 5% of usable memory to spare: a longer prompt, a second request or another process tips it over


def peak_answer(result: VramEstimate) -> str:
    """'How much VRAM for X?': the peak per GPU, its parts, and the fewest of each catalog GPU that hold it."""
    fits = ", ".join(f"{f.gpus_needed} × {f.gpu_id}" for f in result.fits[:6]) or f"no catalog GPU within {MAX_GPUS} GPUs"
    note = f" Note: {result.warnings[0]}" if result.warnings else ""
    return f"Peak memory: {gib(result.total_bytes)} per GPU ({breakdown(result)}). Fits on (fewest GPUs first): {fits}.{note}"


def fit_answer(result: VramEstimate, count: int, asked_dtype: str | None, sharding: str | None, layers: int = 0) -> str:
    """Whether the job fits `count` of the GPU checked, verdict first: 'Yes' (or 'Yes, barely'), 'Partly' where llama.cpp
    keeps some of the model's `layers` in system RAM, the engine's own refusal in its terms, or 'No' with the cheapest
    fixes and the count the fit search needs."""
    check = result.gpu_check
    assert check is not None
    label = gpus_label(result, count, check.name, asked_dtype, sharding)
    note = f" Note: {result.warnings[0]}" if result.warnings else ""
    partly = partly_offloaded(result, layers, label) if check.fits and layers else None
    if partly or check.fits:
        return partly or fits_answer(result, label) + note
    needed = next((f.gpus_needed for f in result.fits if f.gpu_id == check.gpu_id), None)
    served = result.serving
    if served is not None and served.reason:  # the engine's own refusal says what to change, in its terms
        also = f" Without changing it, it takes {needed} × {check.gpu_id}." if needed and needed != count else ""
        return (f"No: {ENGINE_NAMES[served.engine]} would not start on {label} ({gib(check.per_gpu_bytes)} of "
                f"{gib(check.usable_bytes)} usable per GPU): {served.reason}.{also}")
    fixes = [a.text for a in result.alternatives]  # the cheapest fix in the verdict's sentence
    more = (f" It takes {needed} × {check.gpu_id} (the tool's fit search)." if needed
            else f" It does not fit on up to {MAX_GPUS} × {check.name}." if not check.gpu_id.endswith("GB")
            else " Smaller formats (4-bit), a shorter context or more GPUs would bring it down.")
    return (f"No: it needs {gib(check.per_gpu_bytes)} per GPU on {label}, which has {gib(check.usable_bytes)} usable"
            f"{'; yes with ' if fixes else ''}{'. Or: '.join(fixes)}.{more}")


def named_candidates(named: list[str], fits: list[GpuFit]) -> str:
    """'Which gpu do I need? L40S, A100 or H200?': each card named, with how many it takes and its price, the pick first."""
    found = {f.gpu_id: f for f in fits}
    ranked = sorted(named, key=lambda g: (g not in found, found[g].gpus_needed if g in found else 0,
                                          found[g].usd_per_hour or float("inf") if g in found else 0))
    lines = [f"{g}: {found[g].gpus_needed} GPU(s)" + (f" at {usd(found[g].usd_per_hour)}/h ({found[g].provider})"
                                                       if found[g].usd_per_hour else "") if g in found
             else f"{g}: not on up to {MAX_GPUS}" for g in ranked]
    return f"Of the cards you named: {'; '.join(lines)}. "


def roomy(fits: list[GpuFit]) -> list[GpuFit]:
    """The fits with at least THIN_SHARE of the memory to spare: what to recommend buying, not what only just loads."""
    return [fit for fit in fits if fit.usable_bytes - fit.per_gpu_bytes >= THIN_SHARE * fit.usable_bytes]


def fits_answer(result: VramEstimate, label: str) -> str:
    """'Yes: it fits on 1 × T4, ...' for a job that fits the GPU checked; under THIN_SHARE of the usable memory to spare,
    'Yes, barely', with the changes that leave room (a smaller format, a shorter context)."""
    check = result.gpu_check
    assert check is not None
    figures = (f"it fits on {label}, {gib(check.per_gpu_bytes)} of {gib(check.usable_bytes)} usable per GPU "
               f"({gib(check.headroom_bytes)} to spare)")
    if check.headroom_bytes >= THIN_SHARE * check.usable_bytes:
        return f"Yes: {figures}."
    bits = FORMATS[result.weights_dtype].bits_per_weight
    smaller = ("4-bit weights (Q4_K_M, AWQ)" if bits <= 9 else "8-bit weights (Q8_0, FP8, bitsandbytes 8-bit)"
               ) if result.workload == "inference" else "gradient checkpointing, LoRA"
    longest = f", up to {number(check.max_seq_len)} tokens" if check.max_seq_len else ""
    return (f"Yes, barely: {figures}, too little for a longer context, a bigger batch or anything else on the GPU. "
            f"To leave room: {smaller} or a shorter context{longest}.")


def box_verdict(result: VramEstimate, job: str) -> str:
    box = result.box
    assert box is not None
    parts = ", ".join(f"{gib(card.share_bytes)} + {gib(card.buffers_bytes)} of buffers on {card.gpu_id} "
                      f"({gib(card.usable_bytes)} usable)" for card in box.cards)
    verdict = "Fits" if box.fits else "Does not fit"
    return f"{verdict} the box: {job} shares {gib(box.shared_bytes)} of weights and KV cache; {box.split}: {parts}."


def gpus_label(result: VramEstimate, gpus: int, name: str, asked_dtype: str | None, sharding: str | None = None) -> str:
    """The GPUs as the estimate used them: '1 × GeForce RTX 4090 as Q4_K_M GGUF' ('4-bit' to Ollama), '16 × H100 SXM5
    80GB (ZeRO-3 / FSDP over 16 GPUs with gradient checkpointing, ...)' (a sharded training job, unless `sharding` was
    named)."""
    label = f"{gpus} × {name}"
    if result.weights_dtype != asked_dtype and FORMATS[result.weights_dtype].gguf:
        label += f" as {result.weights_dtype.upper()} GGUF"
    if result.workload == "training" and gpus > 1 and result.training and not sharding:
        label += f" ({split_of('training', gpus, result.training.gradient_checkpointing)})"
    return label


def count_answer(gpu_id: str, fits: list[GpuFit], claimed: int | None = None, catalog: Catalog | None = None,
                 workload: str | None = None) -> str:
    """'How many H100s?': the fewest of that GPU, how the job spreads over them, and whether a count someone claimed
    ('8 is plenty') holds it; with the catalog, a GPU one machine holds only so many of (PCIe cards) says so."""
    fit = next((f for f in fits if f.gpu_id == gpu_id), None)
    enough = fit is not None and claimed is not None and claimed >= fit.gpus_needed
    verdict = "" if claimed is None else f"{'Yes' if enough else 'No'}, {claimed} is {'' if enough else 'not '}enough. "
    if fit is None:
        most = most_gpus(catalog.find_gpu(gpu_id), workload or "inference") if catalog else MAX_GPUS
        if most < MAX_GPUS:  # 'how many 3090s for DeepSeek V3?': more than one machine of PCIe cards holds
            return (f"{verdict}On {gpu_id}: it does not fit on the {most} one machine holds; more of them means several "
                    "machines joined over the network (llama.cpp's RPC, a multi-node engine), which this estimate does not size. ")
        return f"{verdict}On {gpu_id}: it does not fit on up to {MAX_GPUS} of them. "
    price = f" ({usd(fit.usd_per_hour)}/h on {fit.provider})" if fit.usd_per_hour else ""
    return f"{verdict}On {gpu_id}: {fit.gpus_needed} GPU(s){price}{f': {fit.note}' if fit.note else ''}. "


def partly_offloaded(result: VramEstimate, layers: int, where: str) -> str | None:
    """llama.cpp holding only some layers on the GPUs (`where`): what stays in system RAM, and what puts it all on them."""
    served, check = result.serving, result.gpu_check
    if served is None or check is None or served.n_gpu_layers is None or not layers:
        return None
    needed = next((f"{f.gpus_needed} × {f.gpu_id}" for f in result.fits if f.gpu_id == check.gpu_id), "a larger GPU")
    return (f"Partly: llama.cpp puts {served.n_gpu_layers} of {layers} layers on {where} ({gib(check.per_gpu_bytes)}); the other "
            f"{gib(served.host_weights_bytes or 0)} of weights and {gib(served.host_kv_bytes or 0)} of KV cache stay in system RAM, "
            f"so tokens come at system-RAM speed. All of it on the GPU takes {needed}, a smaller GGUF or a shorter context.")


def breakdown(result: VramEstimate) -> str:
    parts = result.breakdown.model_dump()
    return ", ".join(f"{name.replace('_', ' ')} {gib(value)}" for name, value in parts.items() if value)


def serving(result: VramEstimate) -> str:
    s = result.serving
    assert s is not None
    if not s.starts:
        return f"{s.engine} {s.engine_version} does not start: {s.reason}"
    return (f"{s.engine} {s.engine_version} starts: KV cache {number(s.kv_cache_tokens)} tokens per GPU, "
            f"{number(s.max_concurrency)} request{'' if s.max_concurrency == 1 else 's'} of {number(s.max_model_len)} tokens at once.")


def cheapest_first(fits: list[GpuFit]) -> list[GpuFit]:
    return sorted(fits, key=lambda f: (f.stack_note is not None, f.usd_per_hour is None, f.usd_per_hour or 0.0, f.gpus_needed,
                                       f.gpu_id))


def fit_line(fit: GpuFit) -> str:
    price = f", {usd(fit.usd_per_hour)}/h on {fit.provider}" if fit.usd_per_hour is not None else ", no cloud offer"
    caveat = f" ({fit.stack_note})" if fit.stack_note else ""
    return f"{fit.gpus_needed} x {fit.gpu_id} ({gib(fit.per_gpu_bytes)} of {gib(fit.usable_bytes)}){price}{caveat}"


def limits_answer(result: VramEstimate, gpus: int, seq_len: int, batch_size: int, batch_asked: bool, window: int | None) -> str:
    """How far the GPUs checked stretch: the largest batch at `seq_len` (`batch_asked`), else the longest sequence at
    `batch_size`; under vLLM or SGLang, the longest --max-model-len one request can have, never past the model's
    `window` (the engine refuses a length beyond it)."""
    check, served = result.gpu_check, result.serving
    assert check is not None
    label = f"{gpus} × {check.name}"
    if not batch_asked and served is not None and served.engine in ("vllm", "sglang"):
        if served.max_model_len_fits is None:
            return f"{served.engine} does not start on {label}: {served.reason}"
        longest = (f"is {number(served.max_model_len_fits)} tokens" if window is None or served.max_model_len_fits <= window
                   else f"is the model's whole window, {number(window)} tokens (memory would hold "
                        f"{number(served.max_model_len_fits)}, but the engine refuses a length beyond the window)")
        return (f"{served.engine} {served.engine_version} on {label}: the longest context one request can have "
                f"(--max-model-len) {longest}. Its KV cache holds {number(served.kv_cache_tokens)} tokens per GPU at the "
                "model's default length.")
    if batch_asked:
        if check.max_batch_size is None:
            return f"Not even batch 1 fits on {label} at {number(seq_len)} tokens."
        return f"Largest batch that fits on {label} at {number(seq_len)} tokens: {number(check.max_batch_size)}."
    if check.max_seq_len is None:
        return f"It does not fit on {label} even with a 1-token sequence: it needs {gib(check.per_gpu_bytes)}."
    capped = (check.max_seq_len_by_memory or 0) > check.max_seq_len
    return (f"Longest sequence that fits on {label} at batch {number(batch_size)}: {number(check.max_seq_len)} tokens"
            + (f" (the model's own context window; memory would hold {number(check.max_seq_len_by_memory)})" if capped else "")
            + ".")
