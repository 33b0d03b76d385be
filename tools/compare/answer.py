"""The text answer of compare_gpus: which GPU wins first, then one line per GPU in the order asked, then the notes.

The MCP tool sends this as its text content (an answer a person could read aloud, at most 1,500 bytes); every column,
ratio and note stays in the structured content.
"""
from __future__ import annotations

from gpusizer.tools.compare.compare_gpus import GpuComparison, GpuRow
from gpusizer.tools.figures import best_of, number, usd, within_limit
from gpusizer.tools.memory.fitting import MAX_GPUS

NOTES_SHOWN = 3
OTHERS_IN_VERDICT = 3
METHOD_NOTES = ("decode bound:", "replica price:", "training run:")  # how figures are made: the same on every call


def compare_gpus_answer(result: GpuComparison) -> str:
    """The verdict (with a workload: the cheapest and the fastest that hold it), a line per GPU, and the notes."""
    workload = any(row.fits is not None for row in result.gpus)
    lines = [workload_verdict(result.gpus) if workload else spec_verdict(result.gpus)]
    lines += ["Fewer GPUs with " + "; ".join(a.text for a in result.alternatives)] if result.alternatives else []
    lines += best_of([gpu_line(row) for row in result.gpus])
    notes = [note for note in result.notes if not note.endswith(f": does not fit on {MAX_GPUS} GPUs")]  # the GPU's line says it
    lines += sorted(notes, key=lambda note: note.startswith(METHOD_NOTES))[:NOTES_SHOWN]
    return within_limit(lines)


def gpus(count: int | None) -> str:
    return f"{count} GPU{'s' if count != 1 else ''}"


def decode(row: GpuRow) -> float | None:
    """The expected decode speed where the tool has one (inference), else its bandwidth bound."""
    return row.decode_tokens_per_s_expected if row.decode_tokens_per_s_expected is not None else row.decode_tokens_per_s


def workload_verdict(rows: list[GpuRow]) -> str:
    """The cheapest per hour of those that hold the workload, and the fastest when that is another GPU."""
    holding = [row for row in rows if row.gpus_needed is not None]
    if not holding:
        return f"None of these GPUs holds the workload on up to {MAX_GPUS} GPUs: {', '.join(row.gpu_id for row in rows)}"
    priced = [row for row in holding if row.replica_usd_per_hour is not None]
    fastest = max(holding, key=lambda row: decode(row) or 0.0)
    if not priced:
        return f"Fastest that holds the workload: {fastest.gpu_id}, {speed_and_price(fastest)} (no offer prices the GPUs any of them needs)"
    cheapest = min(priced, key=lambda row: row.replica_usd_per_hour or 0.0)
    verdict = f"Cheapest per hour that holds the workload: {cheapest.gpu_id}, {speed_and_price(cheapest)}"
    if fastest is not cheapest and (decode(fastest) or 0.0) > (decode(cheapest) or 0.0):
        verdict += f"; fastest: {fastest.gpu_id}, {speed_and_price(fastest)}"
    return verdict


def speed_and_price(row: GpuRow) -> str:
    """'1 GPU at $1.29/hour, 126.17 tokens/s decode per sequence'."""
    cost = f" at {usd(row.replica_usd_per_hour)}/hour" if row.replica_usd_per_hour is not None else ""
    tokens = f", {number(decode(row))} tokens/s decode per sequence" if decode(row) is not None else ""
    return f"{gpus(row.gpus_needed)}{cost}{tokens}"


def spec_verdict(rows: list[GpuRow]) -> str:
    """The first GPU against the others, by the ratios the tool computed."""
    first, others = rows[0], rows[1:]
    labels = {"memory_gb": "memory", "memory_bandwidth_gbps": "bandwidth", "bf16_tflops_dense": "bf16 TFLOPS",
              "cheapest_usd_per_gpu_hour": "price"}

    def against(row: GpuRow) -> str:
        shown = [f"{number(ratio)}x {labels[column]}" for column, ratio in row.ratio_to_first.items()
                 if ratio is not None and column in labels]
        return f"{row.gpu_id} has {', '.join(shown) or 'no comparable figure'}"

    more = f"; {len(others) - OTHERS_IN_VERDICT} more below" if len(others) > OTHERS_IN_VERDICT else ""
    return f"Against {first.gpu_id}: " + "; ".join(against(row) for row in others[:OTHERS_IN_VERDICT]) + more


def bf16(row: GpuRow) -> str:
    return f"{number(row.bf16_tflops_dense)} bf16 TFLOPS dense" if row.bf16_tflops_dense is not None else "no bf16 figure"


def gpu_line(row: GpuRow) -> str:
    """Specs and price, and with a workload whether it fits, on how many GPUs, and how fast it decodes."""
    named = f"{row.cheapest_provider}, {row.cheapest_offer_class}" if row.cheapest_offer_class else row.cheapest_provider
    price = (f"{usd(row.cheapest_usd_per_gpu_hour)}/GPU-hour ({named})"
             if row.cheapest_usd_per_gpu_hour is not None else "no on-demand price")
    line = (f"- {row.gpu_id}: {number(row.memory_gb)} GB, {number(row.memory_bandwidth_gbps)} GB/s, "
            f"{bf16(row)}, {price}")
    if row.fits is not None:
        line += (f"; fits on {gpus(row.gpus_needed)}" if row.gpus_needed is not None else f"; does not fit on {MAX_GPUS} GPUs")
        if decode(row) is not None:
            line += f", {number(decode(row))} tokens/s decode"
    if row.training_hours is not None:
        line += f"; training {number(row.training_hours)} hours" + (f", {usd(row.training_usd)}" if row.training_usd else "")
    return line
