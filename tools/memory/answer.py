"""estimate_vram's result as an answer to read aloud: the verdict, the cheapest fix, the figures, what moved them.

What an assistant receives as the tool's text (the whole result stays in the structured content): at most 1,500
bytes, verdict first. Priced fits are listed cheapest first, the way a person picks among them.
"""
from __future__ import annotations

from gpusizer.tools.figures import best_of, gib, number, usd, within_limit
from gpusizer.tools.memory.fitting import MAX_GPUS, split_of
from gpusizer.tools.memory.model.formats import FORMATS
from gpusizer.tools.memory.request import GpuFit, VramEstimate

FITS_SHOWN = 5
NOTES_SHOWN = 3


def estimate_vram_answer(result: VramEstimate) -> str:
    lines = [verdict(result)]
    if result.alternatives:
        first, *others = result.alternatives
        lines.append(f"Cheapest fix: {first.text}.")
        lines += [f"Also: {other.text}." for other in others]
    lines.append(f"Peak per GPU: {breakdown(result)} (at {result.peak_phase}).")
    if result.serving:
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
        return (f"Fits: {needs}; the {check.name} has {gib(check.usable_bytes)} usable "
                f"(largest batch {number(check.max_batch_size)}, longest sequence {number(check.max_seq_len)} tokens).")
    takes = (f"it takes {check.gpus_needed} x {check.name} ({check.split})" if check.gpus_needed
             else check.split or f"not even 64 x {check.name} hold it")  # a split without a count says why none holds it
    return f"Does not fit: {needs}, the {check.name} has {gib(check.usable_bytes)} usable; as asked, {takes}."


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


def count_answer(gpu_id: str, fits: list[GpuFit], claimed: int | None = None) -> str:
    """'How many H100s?': the fewest of that GPU, how the job spreads over them, and whether a count someone claimed
    ('8 is plenty') holds it."""
    fit = next((f for f in fits if f.gpu_id == gpu_id), None)
    enough = fit is not None and claimed is not None and claimed >= fit.gpus_needed
    verdict = "" if claimed is None else f"{'Yes' if enough else 'No'}, {claimed} is {'' if enough else 'not '}enough. "
    if fit is None:
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
            f"{number(s.max_concurrency)} requests of {number(s.max_model_len)} tokens at once.")


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
