"""Which question was asked, and which tool call answers it.

Each journey turns a `Reading` into one or more calls of `gpusizer.tools` (the functions behind the MCP tools)
and words the answer from their results: no figure here that a tool did not return.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from gpusizer import tools
from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools import fitting
from gpusizer.tools.parameters import count_parameters
from gpusizer.tools.pricing import cheapest, cheapest_fits
from gpusizer.tools.rent_vs_buy import RentVsBuyRequest
from gpusizer.tools.serving_plan_models import PlanServingRequest
from gpusizer.tools.validation import default_of
from gpusizer.tools.vram_models import GpuCheck, VramRequest, stored_weights_dtype
from gpusizer.tools.weights import default_weights_dtype

from ..format import gib, number, percent, usd
from .reading import Reading, read_question

EXAMPLES = [
    "how much VRAM for llama 3.1 70b at 8k context?",
    "will mixtral fit on 2x H100?",
    "which GPU should I use to QLoRA qwen2.5-14b?",
    "longest context for llama 3.1 8b on a 4090",
    "compare h100, mi300x and l40s for llama 3.1 70b",
    "cheapest way to rent 8 H100s for 100 hours",
    "rent or buy 8 h100 at 60% utilization over 4 years",
    "what is an mi300x?",
    "tell me about gpt-oss-120b",
    "how many GPUs to serve llama 3.1 70b to 500 concurrent users with vllm?",
]


ASSUMED_HOURS = 1.0  # cloud_cost needs a duration; a question without one is priced per hour, and says so


class ToolCall(BaseModel):
    tool: str
    arguments: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str | None = None


class AskAnswer(BaseModel):
    question: str
    understood: bool
    journey: str | None = None
    interpretation: str
    answer: str
    calls: list[ToolCall] = []


class Journey:
    """A question kind: when it applies, and how to answer it."""

    def __init__(self, name: str, applies: Callable[[Reading], bool], answer: Callable[[Reading, Catalog, list], str]):
        self.name, self.applies, self.answer = name, applies, answer


def said(reading: Reading, pattern: str) -> bool:
    return re.search(pattern, reading.text) is not None


def has_workload_subject(reading: Reading) -> bool:
    return bool(reading.models) or reading.params_billions is not None


# ---- the tool calls, recorded so the answer can show them
Result = TypeVar("Result", bound=BaseModel)


def call(calls: list[ToolCall], catalog: Catalog, tool: Callable[..., Result], **arguments: Any) -> Result:
    arguments = {k: v for k, v in arguments.items() if v is not None}
    record = ToolCall(tool=tool.__name__, arguments=arguments)
    calls.append(record)
    try:
        result = tool(catalog=catalog, **arguments)
    except SizingError as error:
        record.error = str(error)
        raise
    record.result = result.model_dump(mode="json")
    return result


def workload_arguments(reading: Reading) -> dict[str, Any]:
    return {"model": reading.model, "params_billions": None if reading.model else reading.params_billions,
            "workload": reading.workload, "method": reading.method, "weights_dtype": reading.weights_dtype,
            "batch_size": reading.batch_size, "seq_len": reading.seq_len,
            "gradient_checkpointing": reading.gradient_checkpointing}


def spread_over(reading: Reading, count: int | None) -> dict[str, Any]:
    """N GPUs, laid out exactly as the tool's fit search lays them out."""
    if not count or count == 1:
        return {}
    layout = fitting.spread_over(reading.workload or default_of(VramRequest, "workload"), count)
    return {key: value for key, value in layout.items() if value != default_of(VramRequest, key)}


# ---- the eight journeys
def answer_estimate(reading: Reading, catalog: Catalog, calls: list) -> str:
    result = call(calls, catalog, tools.estimate_vram, **workload_arguments(reading))
    parts = ", ".join(f"{k.replace('_', ' ')} {gib(v)}" for k, v in result.breakdown.model_dump().items() if v)
    fits = ", ".join(f"{f.gpus_needed} × {f.gpu_id}" for f in result.fits[:6]) or f"no catalog GPU within {fitting.MAX_GPUS} GPUs"
    return (f"Peak memory: {gib(result.total_bytes)} per GPU ({parts}). Fits on (fewest GPUs first): {fits}."
            + warnings_line(result.warnings))


def checked(result: tools.VramEstimate) -> GpuCheck:
    """The GPU check of an estimate asked with a gpu (always there then)."""
    if result.gpu_check is None:
        raise SizingError("the estimate has no GPU check: name a GPU")
    return result.gpu_check


def answer_fit(reading: Reading, catalog: Catalog, calls: list) -> str:
    gpu_id, count = reading.gpus[0]
    result = call(calls, catalog, tools.estimate_vram, **workload_arguments(reading), gpu=gpu_id, **spread_over(reading, count))
    check = checked(result)
    label = f"{count or 1} × {check.name}"
    if check.fits:
        return (f"Yes: it fits on {label}, {gib(check.per_gpu_bytes)} of {gib(check.usable_bytes)} usable per GPU "
                f"({gib(check.headroom_bytes)} to spare)." + warnings_line(result.warnings))
    needed = next((f.gpus_needed for f in result.fits if f.gpu_id == gpu_id), None)
    more = (f"It takes {needed} × {gpu_id} (the tool's fit search)." if needed
            else f"It does not fit on up to {fitting.MAX_GPUS} × {gpu_id}.")
    return f"No: it needs {gib(check.per_gpu_bytes)} per GPU on {label}, which has {gib(check.usable_bytes)} usable. {more}"


def answer_which_gpu(reading: Reading, catalog: Catalog, calls: list) -> str:
    result = call(calls, catalog, tools.estimate_vram, **workload_arguments(reading))
    ranked = cheapest_fits(catalog, result.fits)
    lines = [f"{c.gpus_needed} × {c.gpu_id}: {usd(c.usd_per_hour)}/h on {c.provider}" for c in ranked if c.usd_per_hour][:5]
    unpriced = [f"{c.gpus_needed} × {c.gpu_id}" for c in ranked if not c.usd_per_hour][:4]
    text = f"It needs {gib(result.total_bytes)} per GPU. Cheapest ways to run it (on-demand): " + "; ".join(lines or ["none priced"])
    if unpriced:
        text += f". Also fits (no cloud price in the catalog): {', '.join(unpriced)}"
    return text + "."


def answer_limits(reading: Reading, catalog: Catalog, calls: list) -> str:
    gpu_id, count = reading.gpus[0]
    asked_batch = said(reading, r"batch|users|requests|concurren")
    serving_words = reading.engine or said(reading, r"\b(concurren\w*|requests|users|serv\w*)\b")
    if asked_batch and serving_words and reading.workload != "training":
        engine = reading.engine or "vllm"  # concurrent requests are what a serving engine admits, not one prefill
        n = count or 1
        if engine == "llama_cpp":  # llama-server's slots: what its memory holds beside every layer
            plan = call(calls, catalog, tools.plan_serving, model=reading.model, engine=engine, gpu=gpu_id,
                        weights_dtype=reading.weights_dtype, prompt_tokens=reading.seq_len, concurrent_users=1)
            if not plan.options:
                return f"llama.cpp cannot serve it from {gpu_id}: {plan.infeasible[0].reason if plan.infeasible else ''}"
            slot = plan.options[0]
            prompt = calls[-1].arguments.get("prompt_tokens", default_of(PlanServingRequest, "prompt_tokens"))
            return (f"llama.cpp ({plan.weights_dtype}) on {slot.gpus_per_replica} × {gpu_id} holds "
                    f"{number(slot.max_concurrency_per_replica)} slots (-np) of {number(prompt)} prompt + "
                    f"{number(default_of(PlanServingRequest, 'output_tokens'))} output tokens, decoding at "
                    f"{number(slot.tokens_per_s_per_user, 1)} tokens/s with one user.")
        spread = {"num_gpus": n, "tensor_parallel": n} if n > 1 and engine != "llama_cpp" else {}
        served = call(calls, catalog, tools.estimate_vram, model=reading.model, weights_dtype=reading.weights_dtype,
                      engine=engine, gpu=gpu_id, max_model_len=reading.seq_len, **spread).serving
        if served is None or not served.starts:
            return f"{engine} does not start on {n} × {gpu_id}: {served.reason if served else 'no serving budget'}"
        return (f"{engine} {served.engine_version} on {n} × {gpu_id} holds {number(served.kv_cache_tokens)} KV-cache tokens "
                f"per GPU: {number(served.max_concurrency)} concurrent requests of {number(served.max_model_len)} tokens "
                "(its 'Maximum concurrency' at start-up).")
    result = call(calls, catalog, tools.estimate_vram, **workload_arguments(reading), gpu=gpu_id, **spread_over(reading, count))
    check = checked(result)
    if asked_batch:
        return (f"Largest batch that fits on {count or 1} × {check.name} at {number(result_seq_len(calls))} tokens: "
                f"{number(check.max_batch_size)}.")
    return (f"Longest sequence that fits on {count or 1} × {check.name} at batch {number(reading.batch_size or 1)}: "
            f"{number(check.max_seq_len)} tokens.")


def result_seq_len(calls: list[ToolCall]) -> int:
    return calls[-1].arguments.get("seq_len", default_of(VramRequest, "seq_len"))


def answer_serving(reading: Reading, catalog: Catalog, calls: list) -> str:
    traffic = ({"requests_per_s": reading.requests_per_s} if reading.requests_per_s is not None
               else {"concurrent_users": reading.users or reading.batch_size or 1})
    result = call(calls, catalog, tools.plan_serving, model=reading.model, engine=reading.engine,
                  weights_dtype=reading.weights_dtype, gpu=reading.gpu, prompt_tokens=reading.seq_len,
                  tokens_per_s_per_user=reading.tokens_per_s_per_user, **traffic)
    if not result.options:
        reason = result.infeasible[0].reason if result.infeasible else "no GPU in the catalog serves it"
        return f"No catalog GPU serves it this way: {reason}"
    lines = []
    for o in result.options[:4]:
        cost = (f"{usd(o.usd_per_month)}/month ({usd(o.usd_per_million_output_tokens)} per million output tokens)"
                if o.usd_per_hour is not None else "no cloud price")
        lines.append(f"{o.total_gpus} × {o.gpu_id} ({o.replicas} replica(s) of {o.gpus_per_replica}): {cost}, "
                     f"{number(o.tokens_per_s_per_user, 1)} tokens/s per user, first token {number(o.ttft_s, 2)} s")
    return (f"With {result.engine} {result.engine_version}, cheapest first: " + "; ".join(lines) + "."
            + warnings_line(result.warnings))


def answer_compare(reading: Reading, catalog: Catalog, calls: list) -> str:
    workload = workload_arguments(reading) if has_workload_subject(reading) else {}
    result = call(calls, catalog, tools.compare_gpus, gpus=[g for g, _ in reading.gpus], **workload)
    lines = []
    for row in result.gpus:
        line = (f"{row.gpu_id}: {number(row.memory_gb)} GB, {number(row.memory_bandwidth_gbps)} GB/s, "
                f"{number(row.bf16_tflops_dense)} BF16 TFLOPS, {usd(row.cheapest_usd_per_gpu_hour)}/GPU-h")
        if row.gpus_needed is not None:
            line += f"; needs {row.gpus_needed}, decode ≤ {number(row.decode_tokens_per_s)} tokens/s"
        lines.append(line)
    return "\n".join(lines)


def answer_cloud(reading: Reading, catalog: Catalog, calls: list) -> str:
    gpu_id, count = reading.gpus[0]
    result = call(calls, catalog, tools.cloud_cost, gpu=gpu_id, gpu_count=count or 1, hours=reading.hours or ASSUMED_HOURS,
                  pricing=reading.pricing or "both")
    best = result.offers[:3]
    lines = [f"{usd(o.total_usd)} on {o.provider} {o.instance_type} ({o.pricing.replace('_', '-')}, {o.instances} instance(s), "
             f"{usd(o.usd_per_gpu_hour)}/GPU-h, {number(o.idle_gpus)} idle GPUs)" for o in best]
    return f"Cheapest for {result.gpu_count} × {result.gpu_id} for {number(result.hours)} h: " + "; ".join(lines) + "."


def answer_rent_or_buy(reading: Reading, catalog: Catalog, calls: list) -> str:
    gpu_id, count = reading.gpus[0]
    result = call(calls, catalog, tools.rent_vs_buy, gpu=gpu_id, gpu_count=count, utilization=reading.utilization,
                  years=reading.years, purchase_usd_per_gpu=reading.purchase_usd_per_gpu,
                  rent_usd_per_gpu_hour=reading.rent_usd_per_gpu_hour)
    verdict = "Buy" if result.recommendation == "buy" else "Rent"
    breakeven = ("renting stays cheaper even at 100% utilization" if result.breakeven_utilization is None
                 else f"break-even at {percent(result.breakeven_utilization)} utilization")
    return (f"{verdict}: owning {result.gpu_count} × {result.gpu_id} costs {usd(result.own_total_usd)}, renting "
            f"{usd(result.rent_total_usd)} over the horizon; {breakeven}. Staff and maintenance count as $0 unless you give them.")


def answer_gpu_card(reading: Reading, catalog: Catalog, calls: list) -> str:
    gpu = catalog.find_gpu(reading.gpu or "")
    price = cheapest(catalog, gpu.gpu_id, "on_demand")
    fp8 = f"{number(gpu.fp8_tflops_dense)} FP8" if gpu.fp8_tflops_dense else "no FP8"
    return (f"{gpu.name} ({gpu.vendor}): {number(gpu.memory_gb)} GB, {number(gpu.memory_bandwidth_gbps)} GB/s, "
            f"{number(gpu.bf16_tflops_dense)} BF16 / {fp8} dense TFLOPS, {number(gpu.tdp_watts)} W, {gpu.interconnect}; "
            f"cheapest on-demand {usd(price.usd_per_gpu_hour if price else None)}/GPU-h. Source: {gpu.source} (as of {gpu.as_of}).")


def answer_model_card(reading: Reading, catalog: Catalog, calls: list) -> str:
    arch = catalog.find_model(reading.model or "")
    counts = count_parameters(arch)
    moe = f", MoE with {counts.active / 1e9:.1f}B active" if counts.active != counts.total else ""
    return (f"{arch.model_id}: {counts.total / 1e9:.2f}B parameters{moe}; {arch.num_hidden_layers} layers, hidden "
            f"{arch.hidden_size}, {arch.num_attention_heads} query / {arch.num_key_value_heads} KV heads, vocabulary "
            f"{number(arch.vocab_size)}. Source: {arch.source} (as of {arch.as_of}).")


def warnings_line(warnings: list[str]) -> str:
    return f" Note: {warnings[0]}" if warnings else ""


def asks_serving(reading: Reading) -> bool:
    """A model and traffic: users or a request rate, with serving words ('serve', 'how many GPUs', 'host')."""
    traffic = reading.users is not None or reading.requests_per_s is not None
    return bool(reading.models) and traffic and reading.workload != "training" and said(
        reading, r"\b(serv\w*|host\w*|deploy\w*|how many (gpus?|cards?|replicas?|h100s?|a100s?|machines?)|capacity|users?|rps|qps)\b")


JOURNEYS = [  # first match wins
    Journey("serving", asks_serving, answer_serving),
    Journey("rent_or_buy", lambda r: bool(r.gpus) and said(r, r"\b(buy|purchas\w*|own(ing)?)\b"), answer_rent_or_buy),
    Journey("compare", lambda r: len(r.gpus) >= 2, answer_compare),
    Journey("cloud_cost", lambda r: bool(r.gpus) and not has_workload_subject(r)
            and (said(r, r"\b(cheap\w*|cost\w*|price\w*|rent\w*|pay|spend|bill\w*)\b") or r.hours is not None), answer_cloud),
    Journey("limits", lambda r: bool(r.gpus) and has_workload_subject(r)
            and said(r, r"\b(longest|max(imum)?|largest|biggest|how (long|big|many|much context))\b"), answer_limits),
    Journey("fit", lambda r: bool(r.gpus) and has_workload_subject(r), answer_fit),
    Journey("which_gpu", lambda r: has_workload_subject(r)
            and said(r, r"\b(which|what|best|recommend\w*|cheapest|choose|pick)\b.*\b(gpus?|hardware|card|accelerator|instance)\b"),
            answer_which_gpu),
    Journey("model_card", lambda r: bool(r.models) and said(r, r"\b(what is|what's|tell me about|describe|architecture|specs?)\b")
            and not said(r, r"\b(vram|memory|fit|need)\b"), answer_model_card),
    Journey("estimate", has_workload_subject, answer_estimate),
    Journey("gpu_card", lambda r: bool(r.gpus), answer_gpu_card),
]


def weights_reading(reading: Reading, workload: str, catalog: Catalog) -> str:
    """The weights format the estimate will use: the one asked for, else the release's own (tools' rule)."""
    if reading.weights_dtype:
        return stored_weights_dtype(reading.method, reading.weights_dtype)
    if not reading.model:
        return "bf16"
    dtype, why = default_weights_dtype(catalog.find_model(reading.model), workload, reading.method or "full")
    return dtype + (" (as released)" if why.startswith("as released") else "")


def interpretation(reading: Reading, journey: str, catalog: Catalog) -> str:
    if journey == "serving":
        traffic = (f"{number(reading.requests_per_s)} requests/s" if reading.requests_per_s is not None
                   else f"{number(reading.users or reading.batch_size or 1)} concurrent users")
        prompt = (f"{number(reading.seq_len)}-token prompts" if reading.seq_len else
                  f"{number(default_of(PlanServingRequest, 'prompt_tokens'))}-token prompts (default)")
        target = f", at least {number(reading.tokens_per_s_per_user)} tokens/s each" if reading.tokens_per_s_per_user else ""
        where = f" on {reading.gpu}" if reading.gpu else " on every catalog GPU"
        return (f"I read this as: serve {reading.model} with {reading.engine or 'vllm (default)'} to {traffic}, {prompt}, "
                f"{number(default_of(PlanServingRequest, 'output_tokens'))} output tokens (default){target}{where}")
    if journey in ("gpu_card", "cloud_cost", "rent_or_buy", "compare") and not has_workload_subject(reading):
        gpus = ", ".join(f"{c or 1} × {g}" if journey != "compare" else g for g, c in reading.gpus)
        utilization = reading.utilization if reading.utilization is not None else default_of(RentVsBuyRequest, "utilization")
        years = reading.years or default_of(RentVsBuyRequest, "years")
        extra = {"cloud_cost": f", {number(reading.hours or ASSUMED_HOURS)} h"
                 + ("" if reading.hours else f" (no duration given: {number(ASSUMED_HOURS)} hour)"),
                 "rent_or_buy": f", utilization {percent(utilization)}"
                 + ("" if reading.utilization is not None else " (default)") + f", {number(years)} years"}
        return f"I read this as: {journey.replace('_', ' ')}: {gpus}{extra.get(journey, '')}"
    subject = reading.model or f"a generic {number(reading.params_billions)}B dense model"
    workload = reading.workload or default_of(VramRequest, "workload")
    method = f" ({reading.method})" if workload == "training" and reading.method else ""
    dtype = weights_reading(reading, workload, catalog)
    pieces = [subject, workload + method, dtype, f"batch {number(reading.batch_size or default_of(VramRequest, 'batch_size'))}",
              f"{number(reading.seq_len or default_of(VramRequest, 'seq_len'))} tokens"]
    if reading.gradient_checkpointing:
        pieces.append("gradient checkpointing")
    if journey == "compare":
        pieces.insert(0, "compare " + ", ".join(g for g, _ in reading.gpus) + " for")
    elif reading.gpus:
        pieces.append("on " + ", ".join(f"{c or 1} × {g}" for g, c in reading.gpus))
    defaults = [name for name, value in (("batch", reading.batch_size), ("context", reading.seq_len)) if value is None]
    note = f" ({' and '.join(defaults)} not given: defaults)" if defaults else ""
    return "I read this as: " + ", ".join(pieces).replace(" for, ", " for ") + note


def not_understood(question: str, reading: Reading) -> AskAnswer:
    seen = []
    if reading.workload:
        seen.append(f"a workload ({reading.workload})")
    if reading.hours:
        seen.append(f"{number(reading.hours)} hours")
    known = f"I saw {', '.join(seen)} but " if seen else "I "
    text = (f"{known}found no model or GPU I know in this question. Name a model (e.g. 'llama 3.1 8b', 'a 13B model') "
            "or a GPU (e.g. 'h100', 'rtx 4090'). Examples:\n" + "\n".join(f"  • {e}" for e in EXAMPLES))
    return AskAnswer(question=question, understood=False, interpretation="not understood", answer=text)


def ask(question: str, catalog: Catalog) -> AskAnswer:
    """Answer a plain-words question with the tools, or explain what was understood."""
    reading = read_question(question, catalog)
    journey = next((j for j in JOURNEYS if j.applies(reading)), None)
    if journey is None:
        return not_understood(question, reading)
    calls: list[ToolCall] = []
    reading_text = interpretation(reading, journey.name, catalog)
    try:
        text = journey.answer(reading, catalog, calls)
    except SizingError as error:
        text = f"The tool could not answer: {error}"
    return AskAnswer(question=question, understood=True, journey=journey.name, interpretation=reading_text,
                     answer=text, calls=calls)
