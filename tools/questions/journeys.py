"""Which question was asked, and which tool calls answer it.

Each journey turns a `Reading` into calls of `gpusizer.tools` (the functions behind the MCP tools) and words the
answer from their results: no figure here that a tool did not return, and no blank where a tool returned none.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from gpusizer import tools
from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.compare.answer import compare_gpus_answer
from gpusizer.tools.compare.card import gpu_card
from gpusizer.tools.figures import gib
from gpusizer.tools.memory import fitting
from gpusizer.tools.memory.answer import (
    count_answer,
    estimate_vram_answer,
    fit_answer,
    limits_answer,
    named_candidates,
    partly_in_system_ram,
    peak_answer,
)
from gpusizer.tools.memory.biggest import DEFAULT_CONTEXT as BIGGEST_DEFAULT_CONTEXT
from gpusizer.tools.memory.biggest import biggest_model, biggest_model_answer
from gpusizer.tools.memory.engines.llama_cpp import offloadable_layers
from gpusizer.tools.memory.in_house import in_house_answer
from gpusizer.tools.memory.model.parameters import model_card
from gpusizer.tools.memory.request import GpuCheck, VramRequest
from gpusizer.tools.money.answers import cloud_bill_answer, rent_vs_buy_answer
from gpusizer.tools.money.budget import budget_hours_answer, cheaper_run_verdict, cheapest_ways, use_of_hours
from gpusizer.tools.money.cheapest_way import cheapest_way, cheapest_way_answer
from gpusizer.tools.money.cloud_cost import as_named
from gpusizer.tools.money.ownership import sold_in
from gpusizer.tools.money.rent_vs_buy import RentVsBuyRequest, quoted_rent_line
from gpusizer.tools.pricing import cheapest_fits
from gpusizer.tools.serving.answer import fastest_answer, serving_plans_answer
from gpusizer.tools.serving.capacity import capacities_answer, serving_capacity
from gpusizer.tools.serving.plan_models import PlanServingRequest
from gpusizer.tools.serving.windows import model_window
from gpusizer.tools.serving.windows import prompt_within_window as window_prompt
from gpusizer.tools.speed.estimate_speed import estimate_speed_answer
from gpusizer.tools.speed.training_time import training_time, training_time_answer
from gpusizer.tools.validation import default_of

from . import regex as rx
from .answers import ToolCall, call
from .reading import Reading

ASSUMED_HOURS = 1.0  # cloud_cost needs a duration; a question without one is priced per hour, and says so
TRAINING_GPU, TRAINING_GPUS = "h100-sxm", 8  # a training-time question with no GPU is answered for one 8 x H100 node
BIGGEST_MODEL_CONTEXT = BIGGEST_DEFAULT_CONTEXT  # 'what's the biggest model I can run': a chat-length context, said so

Answer = Callable[[Reading, Catalog, list[ToolCall]], str]


class Journey(NamedTuple):
    """A question kind: when it applies, how to answer it, and which asks ('fit', 'speed', 'cost'...) it covers."""
    name: str
    applies: Callable[[Reading], bool]
    answer: Answer
    covers: tuple[str, ...]


def said(reading: Reading, pattern: str) -> bool:
    return rx.search(pattern, reading.asked) is not None


def within(at: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in spans)


def said_outside_asides(reading: Reading, pattern: str) -> bool:
    """Said where the question asks or tells, not only in a report or an aside ('our on-prem cluster is booked')."""
    return any(not within(m.start(), reading.aside) for m in rx.finditer(pattern, reading.asked))


def has_subject(reading: Reading) -> bool:
    return bool(reading.models) or reading.params_billions is not None


def subject_arguments(reading: Reading) -> dict[str, Any]:
    """The catalog model, or an unlisted model's size (a dense decoder of that size stands in)."""
    return {"model": reading.model, "params_billions": None if reading.model else reading.params_billions}


def named_gpus(reading: Reading) -> list[tuple[str, int | None]]:
    """GPUs from the catalog (not ones known only by memory size): what prices and speeds need."""
    return [(g, c) for g, c in reading.gpus if not g.endswith("GB")]


def workload_arguments(reading: Reading, *, with_gpu: bool = False) -> dict[str, Any]:
    """estimate_vram's workload, as the question gives it (the training settings only for training)."""
    training = reading.workload == "training"
    return {**subject_arguments(reading), "workload": reading.workload, "method": reading.method if training else None,
            "weights_dtype": reading.weights_dtype, "kv_cache_dtype": reading.kv_cache_dtype, "batch_size": reading.batch_size,
            "seq_len": reading.seq_len,
            **({} if reading.gradient_checkpointing is None else {"gradient_checkpointing": reading.gradient_checkpointing}),
            "recipe": reading.recipe if training else None, "optimizer": reading.optimizer if training else None,
            "training_precision": reading.training_precision if training else None, "engine": estimate_engine(reading, with_gpu)}


def estimate_engine(reading: Reading, with_gpu: bool) -> str | None:
    """The engine estimate_vram sizes: the one named, llama.cpp for a GGUF file, or vLLM (as most servers run) for
    serving words on a named GPU; vLLM and SGLang only on a GPU, whose memory they budget."""
    if reading.workload == "training":
        return None
    engine = serving_engine(reading) or (str(default_of(PlanServingRequest, "engine"))
                                         if with_gpu and reading.serving_words and reading.model else None)
    if engine == "llama_cpp" or engine in ("vllm", "sglang") and with_gpu and reading.model:
        return engine
    return None


def spread_over(reading: Reading, count: int | None) -> dict[str, Any]:
    """N GPUs, laid out as the tool's fit search lays them out (or with the ZeRO stage the question named)."""
    if not count or count == 1:
        return {}
    if estimate_engine(reading, True) == "llama_cpp":
        return {"num_gpus": count}  # llama.cpp splits layers across its GPUs
    workload = reading.workload or default_of(VramRequest, "workload")
    layout: dict[str, Any] = dict(fitting.spread_over(workload, count, reading.gradient_checkpointing))
    if reading.sharding and reading.workload == "training":
        layout = {"num_gpus": count, "sharding": reading.sharding}
    return {key: value for key, value in layout.items() if value != default_of(VramRequest, key)}


# ---- memory: how much, does it fit, on which GPU, how far it stretches
def answer_estimate(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    return peak_answer(call(calls, catalog, tools.estimate_vram, **workload_arguments(reading)))


def checked_on(reading: Reading, catalog: Catalog, calls: list[ToolCall], gpu: str, count: int | None
               ) -> tuple[tools.VramEstimate, GpuCheck]:
    """estimate_vram on `count` of a GPU, laid out as the fit search lays them out, and its check of the GPU."""
    result = call(calls, catalog, tools.estimate_vram, **workload_arguments(reading, with_gpu=True), gpu=gpu,
                  **spread_over(reading, count))
    if result.gpu_check is None:
        raise SizingError("the estimate has no GPU check: name a GPU")
    return result, result.gpu_check


def partly_offloaded(result: tools.VramEstimate) -> bool:
    """llama.cpp left layers in system RAM: it loads, at system-RAM speed."""
    served = result.serving
    return served is not None and served.engine == "llama_cpp" and partly_in_system_ram(served.model_dump())


# 'the box has a 3090 and a 3060 12gb in it': different cards in one machine, used together
MIXED_BOX = (r"\bplus an?\b|\bacross (?:all|both)\b|\bsplit (?:across|between|over) (?:both|them|all)\b"
             r"|\b(?:box|rig|pc|machine|server|workstation|build|system|desktop) (?:has|with|running)\b|\bin (?:it|there|one box"
             r"|the same (?:box|machine|pc|rig|tower|case|server|workstation))\b|\btogether\b|\bcombined\b|\bmixed\b|\bpaired with\b"
             r"|\balongside\b")


def mixed_box(reading: Reading) -> bool:
    joined = rx.search(r"\b[a-z]*\d{3,4}\w* ?\+ ?(?:an? )?(?:rtx |gtx |rx )?[a-z]*\d{3,4}", reading.text)  # 'a 3090 + 3060'
    return (len({g for g, _ in named_gpus(reading)}) >= 2 and not reading.how_many_gpus and (said(reading, MIXED_BOX) or bool(joined))
            and said(reading, FIT_ASK + r"|\b(?:can|could|will|would) (?:it|they|that|this|the box|the rig) (?:run|load|hold)\b"))


def answer_mixed_box(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    """Cards of different sizes in one machine, checked by estimate_vram as one box (gpu as a list)."""
    engine = serving_engine(reading) or "hf"
    arguments = {**workload_arguments(reading), "engine": engine,
                 "gpu_memory_utilization": reading.gpu_memory_utilization if engine in ("vllm", "sglang") else None}
    cards = [catalog.find_gpu(g).gpu_id for g, count in named_gpus(reading) for _ in range(count or 1)]
    result = call(calls, catalog, tools.estimate_vram, **arguments, gpu=cards)
    box = result.box
    if box is None:  # the same card listed twice: an ordinary fit
        return answer_fit(reading, catalog, calls)
    names = " + ".join(f"{count} × {g}" if count and count > 1 else g for g, count in named_gpus(reading))
    told = estimate_vram_answer(result).splitlines()  # the tool's verdict, and its cheapest fix where it does not fit
    told = told[:1] + [line for line in told if line.startswith("Cheapest fix")]
    note = f" Note: {result.warnings[0]}" if result.warnings else ""
    return f"{'Yes' if box.fits else 'No'}: {names} in one box. " + " ".join(told) + note


def answer_fit(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    if mixed_box(reading):
        return answer_mixed_box(reading, catalog, calls)
    gpu_id, count = reading.gpus[0]
    result, _ = checked_on(reading, catalog, calls, gpu_id, count)
    layers = offloadable_layers(catalog.find_model(result.model)) if partly_offloaded(result) and reading.model else 0  # 'Partly'
    return claim_answered(reading, fit_answer(result, count or 1, reading.weights_dtype, reading.sharding, layers))


SAYS = r"\b(?:says?|said|claims?|thinks?|reckons?|swears?|insists?|told (?:me|us))(?: that)? "
DENIES_FIT = SAYS + (r"(?:(?:no|nope)\b|(?:\S+ ){0,9}?(?:(?:won'?t|can'?t|cannot|(?:does|would|could|will)(?:n'?t| not)|never) "
                     r"(?:\S+ )?(?:fit|load|run|work)\b|impossible|not possible|too (?:big|large)))")  # 'says no'
ENOUGH = SAYS + r"(\d+)(?: \S+)? (?:is|are|(?:would|will|should) (?:be|do)) (?:plenty|enough|fine|sufficient)"


def claim_answered(reading: Reading, text: str) -> str:
    """'my buddy says it won't load, is he right?', 'a tweet says it runs on 8x H100. true?': a verdict on the claim."""
    verdict, rest = text.split(":", 1)
    if verdict == "Partly":  # it loads, at system-RAM speed: neither claim is simply right
        return text
    if rx.search(DENIES_FIT, reading.text):
        return ("No, that claim is wrong:" if text[0] == "Y" else "Yes, that claim is right, it does not fit:") + rest
    asked = rx.search(r"\b(?:true|right|correct|real|legit|accurate)\W*$", reading.text)
    return f"{verdict}, that claim is {'right' if text[0] == 'Y' else 'wrong'}:{rest}" if asked else text


def answer_which_gpu(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    result = call(calls, catalog, tools.estimate_vram, **workload_arguments(reading))
    spend = budget_of(reading)  # to buy ('which gpu should i buy for X, under $2000?'), or a rate to rent at ('$2/hr')
    ways = (in_house_answer(catalog, result.fits, workload_arguments(reading), spend) if said(reading, BUY + r"|\bin[ -]house\b")
            else cheapest_ways(cheapest_fits(catalog, result.fits), reading.rent_usd_per_gpu_hour, reading.hours, reading.one_gpu))
    named = [g for g, _ in named_gpus(reading)]
    candidates = named_candidates(named, result.fits) if len(named) > 1 and not reading.how_many_gpus else ""
    return (f"{named_gpu_count(reading, result.fits, catalog)}It needs {gib(result.total_bytes)} on a single GPU. "
            f"{candidates}{memory_gpu_count(reading, catalog, calls)}{ways}")


def named_gpu_count(reading: Reading, fits: list[tools.GpuFit], catalog: Catalog) -> str:
    """'How many H100s for X?': the count on the GPU asked about comes first, before the catalog's cheapest ways."""
    if not reading.how_many_gpus or not reading.gpus or reading.gpus[0][0].endswith("GB"):
        return ""
    claim = rx.search(ENOUGH, reading.text)  # 'colleague says 8 is plenty'
    return count_answer(reading.gpus[0][0], fits, int(claim.group(1)) if claim else None, catalog, reading.workload)


def memory_gpu_count(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    """'How many 16GB cards would it take?': the fewest of a card known by its memory that hold it, tried as the fit
    search lays GPUs out (any count for llama.cpp, which splits layers; powers of two for tensor parallelism)."""
    if not reading.how_many_gpus or not reading.gpus or not reading.gpus[0][0].endswith("GB"):
        return ""
    gpu = reading.gpus[0][0]
    counts = range(1, 9) if estimate_engine(reading, True) == "llama_cpp" else (1, 2, 4, 8)
    for count in counts:
        result, check = checked_on(reading, catalog, calls, gpu, count)
        if check.fits and not partly_offloaded(result):
            return (f"On {gpu[:-2]} GB cards: {count} of them ({gib(check.per_gpu_bytes)} of {gib(check.usable_bytes)} "
                    "usable per GPU). ")
        calls.pop()  # a count that does not hold it is no call the answer rests on
    return f"On {gpu[:-2]} GB cards: it does not fit on up to {counts[-1]} of them. "


RATE_ASK = r"\b(?:requests?|reqs?|queries|calls)(?: ?/ ?| per | an? | each )(?:s|sec\w*|min\w*|hour|hr)\b|\b(?:rps|qps)\b"
THROUGHPUT = r"\bthroughput\b|\b(?:aggregate|total|combined|overall) (?:output )?(?:tokens?|tok)\b"
ASKED_BATCH = r"batch|users|requests|concurren|parallel|simultaneous|chats|sessions|seqs|sequences|slots|streams|at once|" + RATE_ASK
PER_TOKEN_COST = (r"(?:\b(?:per|a) ?|/ ?)(?:1 ?)?(?:m|mn|million|1m|k|thousand)\b(?: output| input)? ?tok|\bcost per (?:token|request)\b"
                  r"|\b1 ?(?:m|million|k|thousand) (?:output |input )?tok\w* (?:would |will |does |do )?cost")  # 'what 1M tokens cost'


def asks_engine_capacity(reading: Reading) -> bool:
    """'How many concurrent requests ... with vllm / ollama': what a serving engine admits, not one prefill."""
    serving_words = reading.engine not in (None, "hf") or said(reading, r"\b(concurren\w*|requests|users|serv\w*|parallel)\b")
    asked = said(reading, ASKED_BATCH) or len(reading.gpus) == 1 and said(reading, THROUGHPUT)
    return (bool(reading.gpus) and asked and bool(serving_words) and reading.workload != "training"
            and bool(reading.model) and not reading.gpus[0][0].endswith("GB"))


ENGINE_WINDOW = r"\bengine context\b"  # a pasted --max-model-len


def floorless(reading: Reading) -> bool:  # 'max throughput', a window: no speed floor
    return said(reading, THROUGHPUT + "|" + ENGINE_WINDOW) and not reading.tokens_per_s_per_user


def capacity_asked(reading: Reading, journey: str) -> bool:
    """What an engine serves is the answer: a server's limits, or its throughput (at no batch said)."""
    return asks_engine_capacity(reading) and (journey == "limits" or journey == "speed" and said(reading, THROUGHPUT)
                                              and not (reading.batch_size or reading.users))


def answer_limits(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    gpu_id, count = reading.gpus[0]
    asked_batch = said(reading, ASKED_BATCH) and reading.batch_size is None
    if asks_engine_capacity(reading):
        return engine_capacity(reading, catalog, calls, [(gpu_id, count)])
    result, _ = checked_on(reading, catalog, calls, gpu_id, count)
    seq_len = int(calls[-1].arguments.get("seq_len", default_of(VramRequest, "seq_len")))
    return limits_answer(result, count or 1, seq_len, reading.batch_size or 1, asked_batch, model_window(catalog, result.model))


def prompt_within_window(reading: Reading, catalog: Catalog) -> int | None:
    """The prompt of a context said ('how fast at 128k'), the output taken out where the window holds both."""
    prompt, note = window_prompt(catalog, reading.model, reading.seq_len, reading.output_tokens or default_of(
        PlanServingRequest, "output_tokens"), reading.seq_len if said(reading, ENGINE_WINDOW) else None)
    reading.notes += [note] if note and note not in reading.notes else []
    return prompt


def lead_of(reading: Reading) -> str:
    return ("rate" if said(reading, RATE_ASK) else "cost" if said(reading, PER_TOKEN_COST)
            else "throughput" if said(reading, THROUGHPUT) else "requests")


def engine_capacity(reading: Reading, catalog: Catalog, calls: list[ToolCall], gpus: list[tuple[str, int | None]]) -> str:
    """What the GPUs serve under an engine (vLLM unless named) at the request length and speed said, else a chat's."""
    split = next((int(str(s.value)) for s in reading.spans if s.kind == "tensor_parallel"), 0)  # 'tp=8': the replica's size
    lead = lead_of(reading)
    request = {**request_arguments(reading, catalog), "engine": serving_engine(reading) or "vllm",
               "min_tokens_per_s_per_user": 0 if floorless(reading) else None}
    results = [call(calls, catalog, serving_capacity, **request, gpu=gpu_id, gpu_count=n or 8, fewest=not n,
                    tokens_per_s_per_user=reading.tokens_per_s_per_user, gpus_per_replica=split if split in (2, 4, 8) else None,
                    gpu_memory_utilization=reading.gpu_memory_utilization, pricing=reading.pricing or "on_demand")
               for gpu_id, n in gpus[:4]]
    return capacities_answer(results, lead)


# ---- serving and speed
def serving_engine(reading: Reading) -> str | None:
    if reading.engine and reading.engine != "hf":
        return reading.engine
    return "llama_cpp" if rx.fullmatch(r"i?q\d\w*", reading.weights_dtype or "") else None  # a GGUF file


def request_arguments(reading: Reading, catalog: Catalog) -> dict[str, Any]:
    """The model and the request, as plan_serving, serving_capacity and estimate_speed read them."""
    return {**subject_arguments(reading), "engine": serving_engine(reading), "weights_dtype": reading.weights_dtype,
            "kv_cache_dtype": reading.kv_cache_dtype, "prompt_tokens": prompt_within_window(reading, catalog),
            "output_tokens": reading.output_tokens}


def answer_serving(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    """A plan for the traffic on each GPU named, led by the price asked; no traffic: what the GPUs named serve."""
    gpus = named_gpus(reading)
    if gpus and not reading.how_many_gpus and not (reading.users or reading.batch_size or reading.requests_per_s):
        return engine_capacity(reading, catalog, calls, gpus)
    traffic = ({"requests_per_s": reading.requests_per_s} if reading.requests_per_s is not None
               else {"concurrent_users": reading.users or reading.batch_size or 1})
    request = {**request_arguments(reading, catalog), "tokens_per_s_per_user": reading.tokens_per_s_per_user,
               "pricing": reading.pricing or "on_demand", **traffic}
    plans = [call(calls, catalog, tools.plan_serving, **request, gpu=gpu) for gpu in ([g for g, _ in gpus[:4]] if gpus else [None])]
    lead = "per_token" if said(reading, PER_TOKEN_COST) else "month" if said(reading, COST_ASK + "|" + CHEAPEST_WAY) else ""
    return serving_plans_answer(plans, lead, reading.hours)


def answer_speed(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    """Decode speed from the serving roofline: one user unless users or a batch are given."""
    gpus = named_gpus(reading)
    users = reading.users or reading.batch_size or 1
    if reading.gpus and not gpus:
        what = f"the {reading.unknown_gpus[0]} is not in the catalog and" if reading.unknown_gpus else "a memory size alone"
        return (f"Speed needs the GPU's memory bandwidth, and {what} does not give it: name a catalog GPU "
                "(e.g. 'on a 3090') for a speed figure.")
    if capacity_asked(reading, "speed"):  # 'throughput on 2 l40s?'
        served = engine_capacity(reading, catalog, calls, gpus)
        if any((c.result or {}).get("layouts") for c in calls):
            return served  # else: the speed, the fit's verdict first
    workload = request_arguments(reading, catalog)
    if gpus:  # each GPU named, as estimate_speed answers it ('across one node of 4 MI250X': that many)
        answers = [estimate_speed_answer(call(calls, catalog, tools.estimate_speed, gpu=gpu, num_gpus=count or 1,
                                              concurrency=users, **workload)).splitlines() for gpu, count in gpus[:4]]
        return "\n".join([line for lines in answers for line in lines if not line.startswith("Assumed")]
                         + [line for line in answers[0] if line.startswith("Assumed")])
    return fastest_answer(call(calls, catalog, tools.plan_serving, concurrent_users=users, **workload), users)  # which is fastest


def training_count(catalog: Catalog, gpu: str, count: int | None) -> int:
    """The GPUs a run is timed on: as many as said; else 'on my 4090' is one card, 'on H100s' a node (as it is sold)."""
    return count or (1 if gpu.endswith("GB") else sold_in(catalog.find_gpu(gpu), TRAINING_GPUS))


def answer_training_time(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    gpus = named_gpus(reading)
    gpu, count = gpus[0] if gpus else (TRAINING_GPU, TRAINING_GPUS)
    told = {s.kind: s.value for s in reading.spans if isinstance(s.value, float)}  # 'Chinchilla-optimal', a claim
    per_parameter = told.get("tokens_asked")
    rate_only = not (reading.training_tokens or per_parameter)  # 'how many tokens per day': the rate, from a billion-token run
    method = reading.method if reading.method_said else None
    result = call(calls, catalog, training_time, **subject_arguments(reading), tokens_per_parameter=per_parameter,
                  training_tokens=None if per_parameter else reading.training_tokens or 1e9, gpu=gpu,
                  gpu_count=training_count(catalog, gpu, count), pricing=reading.pricing or "on_demand", method=method,
                  gradient_checkpointing=reading.gradient_checkpointing or None, seq_len=reading.seq_len, recipe=reading.recipe)
    return training_time_answer(result, method or "full", rate_only,
                                budget_of(reading), told.get("claimed_tokens"))  # '$10k: how many tokens can i pretrain on?'


def answer_training_run(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    """The run's time and bill; with a budget ('we have $20k, can we afford it?'), the verdict on it first, on the
    cheaper of the GPUs named."""
    budget = budget_of(reading)
    if budget is None or reading.training_tokens is None:  # none, or what the budget buys
        return answer_training_time(reading, catalog, calls)
    each = [dataclasses.replace(reading, gpus=[gpu]) for gpu in named_gpus(reading)[:3]] or [reading]
    runs: list[tuple[str, Mapping[str, Any]]] = [(answer_training_time(r, catalog, calls), calls[-1].result or {}) for r in each]
    return cheaper_run_verdict(runs, budget)


# ---- money
def answer_cheapest_method(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    """The cheapest GPU for each way of doing it (full, LoRA, QLoRA; or 16-bit, 8-bit, 4-bit weights), then the pick."""
    said_method = reading.method in ("lora", "qlora") or said(reading, r"\bfull\b")  # 'we LoRA-tune ... cheapest way'
    chosen = reading.method if said_method else None
    result = call(calls, catalog, cheapest_way, job=workload_arguments(reading), among=[g for g, _ in named_gpus(reading)],
                  method=chosen, training_tokens=reading.training_tokens, pricing=reading.pricing or "on_demand")
    return cheapest_way_answer(result)


def memory_of_unknown(reading: Reading) -> dict[str, str]:
    """Each GPU outside the catalog whose memory was said ('a 48GB card'), with that size, in the order both were read."""
    return dict(zip(reading.unknown_gpus, [g for g, _ in reading.gpus if g.endswith("GB")], strict=False))


def answer_compare(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    named = [g for g, _ in named_gpus(reading)][:20]
    unnamed = [f"'{g}'" for g in reading.unknown_gpus or [g for g, _ in reading.gpus if g.endswith("GB")]]
    outside = f"Not in the catalog, so not compared: {', '.join(unnamed)}." if unnamed else ""
    if len(named) < 2 and has_subject(reading) and reading.gpus:  # a model: whether it fits each, a memory size too
        at = dataclasses.replace(reading, seq_len=reading.seq_len or default_of(VramRequest, "seq_len"))  # as compare reads it
        sized = memory_of_unknown(reading)
        answers = [f"{g}: " + answer_fit(dataclasses.replace(at, gpus=[(g, c)]), catalog, calls) for g, c in reading.gpus]
        outside = " ".join(f"'{u}' is not in the catalog: " + (f"compared by its {sized[u]} of memory only (speed and price "
                                                               "need its bandwidth)." if u in sized else "not compared.")
                           for u in reading.unknown_gpus)
    elif len(named) < 2:  # one catalog GPU left: its card, and the other said plainly
        answers = [answer_gpu_card(reading, catalog, calls) if named else ""]
    else:  # the tool's own answer: the verdict first, one machine's price
        workload = {k: v for k, v in workload_arguments(reading).items() if k != "engine"} if has_subject(reading) else {}
        answers = [compare_gpus_answer(call(calls, catalog, tools.compare_gpus, gpus=named, **workload))]
    return "\n".join(filter(None, [*answers, outside]))


def budget_of(reading: Reading) -> float | None:
    """What there is to spend ('budget is $500'), as read_budgets read it."""
    return next((float(str(s.value)) for s in reading.spans if s.kind == "budget_usd" and s.value), None)


def answer_cloud(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    gpu_id, count = named_gpus(reading)[0]
    named = as_named(catalog, next((s.words for s in reading.spans if s.kind == "gpu" and s.value == gpu_id), gpu_id), gpu_id)
    told = {s.kind: s.value for s in reading.spans}
    result = call(calls, catalog, tools.cloud_cost, gpu=named if reading.providers else gpu_id, gpu_count=count or 1,
                  hours=reading.hours or ASSUMED_HOURS, pricing=told.get("pricing", reading.pricing or "both"),
                  providers=reading.providers or None, jurisdiction=reading.jurisdiction)
    budget = budget_of(reading)
    if budget and reading.training_tokens:  # '20B tokens, budget $10k: do we fit?'
        return answer_training_run(reading, catalog, calls)
    if budget and reading.hours is None:  # '$500 budget: how many hours of an H100?'
        return budget_hours_answer(result, budget)
    fit = "" if not has_subject(reading) or any(c.tool == "estimate_vram" for c in calls) else \
        "\nFit: " + answer_fit(reading, catalog, calls)  # 'qwen 7b on a T4 ..., how much?'
    return cloud_bill_answer(result, catalog, reading.providers, reading.rent_usd_per_gpu_hour, told, reading.instances,
                             said(reading, r"\bcheap")) + fit


def bought_count(reading: Reading, catalog: Catalog) -> int:
    """How many GPUs a rent-or-buy question weighs: the number said, one ('buy an A100'), else the unit it is sold in."""
    named = named_gpus(reading)
    if not named:  # a memory size or a GPU outside the catalog: as many as said
        return (reading.gpus[0][1] if reading.gpus else None) or 1
    gpu_id, count = named[0]
    told = rx.search(r"\b(?:buy\w*|purchas\w*|own)(?: our| my)?(?: own)? (\d{1,5})\b(?! ?(?:%|hours?|h|years?|k|gb)\b)", reading.asked)
    count = count or (int(told[1]) if told else None)  # 'buying our own 8', 'does buying 4 pay off?'
    at = reading.gpu_at[0] if reading.gpu_at else 0
    one = at > 0 and reading.text.split(" ")[at - 1] in ("a", "an", "one", "single")
    return count or (1 if one else sold_in(catalog.find_gpu(gpu_id), int(default_of(RentVsBuyRequest, "gpu_count"))))


def answer_rent_or_buy(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    gpu_id, count = named_gpus(reading)[0][0], bought_count(reading, catalog)
    utilization, used = reading.utilization, ""
    if utilization is None and reading.hours is not None:  # 'sixteen H200s for six weeks ... or buy?': the job is the use
        utilization, used = use_of_hours(reading.hours, reading.years or default_of(RentVsBuyRequest, "years"))
    result = call(calls, catalog, tools.rent_vs_buy, gpu=gpu_id, gpu_count=count, utilization=utilization,
                  years=reading.years, purchase_usd_per_gpu=reading.purchase_usd_per_gpu,
                  rent_usd_per_gpu_hour=reading.rent_usd_per_gpu_hour, providers=reading.providers or None,
                  **{k: v for s in reading.spans if s.kind == "rent_vs_buy" and isinstance(s.value, dict) for k, v in s.value.items()})
    first, even, *rest = rent_vs_buy_answer(result).splitlines()  # verdict, break-even, the rest
    rest += [quoted_rent_line(result, float(str(s.value))) for s in reading.spans if s.kind == "quoted_rent"]
    return "\n".join([even, first + used, *rest] if said(reading, BREAK_EVEN) else [first + used, even, *rest])


BREAK_EVEN = (r"\b(?:utili[sz]\w*|usage|break[ -]?even|pays? (?:off|for (?:itself|themselves))|how many (?:busy )?hours"
              r"|when (?:does|do|would|will) (?:\S+ ){0,6}?(?:beat|win|pay))\w*")


def biggest_model_asked(reading: Reading) -> bool:
    """'the biggest model I can run', 'which models fit': the question's subject is the GPU."""
    return said(reading, BIGGEST)


def answer_biggest_model(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    """The largest catalog models that fit the GPU(s): as released, and as a 4-bit GGUF (what local users run)."""
    gpu_id, count = reading.gpus[0]
    training = {k: v for k, v in workload_arguments(reading).items() if v is not None and k in (
        "method", "batch_size", "gradient_checkpointing", "training_precision", "optimizer")} if reading.workload == "training" else {}
    result = call(calls, catalog, biggest_model, gpu=gpu_id, gpu_count=count or 1, workload=reading.workload, **training,
                  weights_dtypes=[reading.weights_dtype] if reading.weights_dtype else None,
                  seq_len=reading.seq_len or BIGGEST_MODEL_CONTEXT)
    return biggest_model_answer(result)


# ---- what is
def answer_gpu_card(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    return gpu_card(catalog, named_gpus(reading)[0][0])


def answer_model_card(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    if not reading.models:  # 'hidden size of yi 1.5 34b?': a model the catalog does not hold has no card to read
        size = f" (sized as a generic {reading.params_billions:g}B model when asked about memory)" if reading.params_billions else ""
        return (f"'{reading.unknown_models[0]}' is not in the catalog, so its architecture is not known here{size}. Give "
                "estimate_vram (or the Estimate tab's model field) its Hugging Face repo id or a local config.json path to "
                "read its layers, heads and hidden size.")
    return model_card(catalog.find_model(reading.model or ""))


# ---- which journey: what each ask sounds like; of two asks the first said is the question, the other a second part
ABSOLUTE_SPEED = (r"how fast|\bspeed\b|\blatency\b|\btime (?:per|to first) (?:response|reply|answer|token)\b|\bttft\b"
                  r"|\beval (?:rate|speed)\b|tok(?:en)?s?/s|tokens? (?:per|a|/) ?s(?:ec\w*)?\b|\bt/s\b"
                  r"|\btps\b|throughput|how quick|generation rate|words (?:per|a|/) ?s(?:ec\w*)?\b"
                  r"|\b(?:any ?one|anybody) (?:actually )?benchmark\w*")
SPEED = ABSOLUTE_SPEED + r"|\b(?:quicker|faster|slower|snappier)\b"  # 'how much faster is the B200' compares, given two GPUs
COMPARING = r"\b(?:vs\.?|versus|compar\w*|stack up|against)\b"  # 'how does the L4 stack up against an A10G?'
SIDE_BY_SIDE = COMPARING + r"|\bbetween\b"
BETTER = r"(?:quicker|faster|slower|snappier|better|worse)"  # of two, the one that wins
WHICH_IS = r"\bwhich (?:one |of (?:the|them|these|those)(?: two)? )?(?:is|would be|will be|'?s)"  # 'which of them is faster'
CARDS = r"gpus?|cards?|accelerators?"
SERVING = (r"\b(serv\w*|host\w*|deploy\w*|handle|keep up with|cope with"
           r"|(?:how many|number of) (?:gpus?|cards?|replicas?|h100s?|a100s?|machines?|nodes?|instances?)"
           r"|how many (?:do|would|will|should) (?:we|i) need|capacity|rps|qps|(?:gpu|card|node) count)\b|\bhow many\s*$")
CHEAPEST_WAY = (r"\b(?:cheapest|most cheap|most economical|least costly) (?:way|option|setup|route|approach|method)\b"
                rf"|{WHICH_IS} (?:the )?cheapest\b(?! (?:\w+ )?(?:{CARDS})\b)"
                r"|\bleast expensive\b|\blowest[ -]cost\b"
                r"|\bmost cost[ -]effective\b"
                rf"|\bcheapest (?:{CARDS}|hardware) ?(?:\+|and|&|/) ?(?:method|approach|technique|recipe)"  # 'gpu + method combo'
                rf"|\bcheapest\b(?! (?:single |one |on-demand |spot )?(?:(?:{CARDS}|place|provider|cloud|rental"
                r"|instance)\b|·)).*\b(?:fine[ -]?tun|train|run|serv)")
OWN = r"(?<!my )(?<!our )(?<!your )(?<!their )(?<!his )(?<!her )(?<!its )own(ing)?"  # 'my own 5090', 'on its own': whose
BUY = rf"\b(buy\w*|purchas\w*|{OWN}|capex|on[ -]?prem\w*)\b"
RENT_OR_OWN = rf"\b(rent\w*|cloud|leas\w*|{OWN}|on[ -]?prem\w*|capex|break[ -]?even)\b"
COST_ASK = (r"\b(bill|invoice|cost\w*|price\w*|cheapest|how much (?:would|will|does|to|is|for)|spend|pay|set (?:me|us) back"
            r"|run (?:me|us)|(?:come|comes|work|works|add|adds) (?:out |up )?to|(?:what'?s|what is|whats) the damage)\b"
            r"|\btotal\s*$|\bwhat(?:'s| is|s) the total\b|\$ ?/ ?(?:mo|month|yr|year)\b")
FIT_ASK = (r"\b(fits?|enough|oom(?![ -]?killed)\w*|hold"
           r"|(?:can|could) (?:i|we|it|you) (?:run|load|serve|host|do (?=(?:it |this |that )?(?:at |in )?"
           r"(?:q\d|iq\d|fp\d|bf16|int\d|\d+[- ]?bit|awq|gptq|nf4|mxfp4|full|lora|qlora)))"
           r"|(?:can|could) (?:i|we|you) (?:even |actually )?(?:q?lora|fine[ -]?tune|full[ -]fine[ -]?tune|sft)"
           r"(?= (?:an? |the |my |our )?·)"  # 'can i qlora gemma 3 12b there?'
           # 'can gpt-oss-120b (mxfp4) run ...', 'would one of them load it': a name, perhaps its format, or who, then the verb
           r"|(?:will|would|can|could|does) (?:(?:an? |my |one )?·[·\s]*(?: [a-z0-9_]+)?|that|they|it|this|either|both"
           r"|(?:a single )?one(?: of (?:them|those|these))?) (?:even |actually )?(?:run|load|handle)"
           r"|(?:would|will|can|could|does) (?:an? |the |one |my )?(?:·[·\s]*|[a-z]{0,4}\d{1,4}[a-z0-9]*)(?: \w+)? (?:do|handle|manage)"
           r" (?:it|that|this)"  # 'would a t4 do it?'
           r"|(?:sit|stay|live|load)s? (?:entirely |fully |completely |all |actually )?(?:in|on|inside|within))\b")
# a run's time asked: 'if we go with qlora, how long would that take?'
TRAINING_TIME_ASK = r"\bhow long (?:will|would|does|did|to|is|for)\b|\bhow many (?:gpu[- ]?)?hours\b|\bwall[- ]?clock\b"
TIME_ASK = r"\bhow long\b|\bhow many (?:gpu[- ]?)?(?:hours|days)\b|\bwall[- ]?clock\b|\btime\b"
ESTIMATE_ASK = (r"\b(how (?:much|many) (?:total )?(?:vram|memory|gpu memory|gigs?|gb|gib)"
                r"|(?:rough(?:ly)?|ballpark|approx\w*) (?:gigs?|gb|gib)|(?:total|peak) (?:gpu )?(?:vram|memory)"
                r"|(?:vram|memory) (?:for|figure|number|estimate|footprint|requirements?|needed|required|usage|budget|bill)"
                r"|how (?:big|large) (?:does|is|will|would) (?:the |its )?kv)\b")  # 'how big does the kv cache get at 32k?'
# what a count at once is of: 'how many concurrent users', vLLM's 'max-num-seqs', '60 at the same time'
AT_ONCE_WORDS = (r"users?\b|requests|concurren\w*|parallel|sequences|seqs|slots|sessions|people|streams|chats|conversations|clients"
                 r"|(?:at the )?same time|at once|simultaneous\w*")
BATCH_WORDS = "batch|" + AT_ONCE_WORDS
LIMIT = (r"\b(longest|max(?:imum)?|largest|biggest|(?<!at )most|highest|ceiling|upper bound|concurrency|more room"
         r"|how (?:long|big(?! (?:does|is|will|would) (?:the |its )?kv)|far|high|much context)"
         rf"|(?:how )?many (?:\S+ ){{0,7}}?(?:{AT_ONCE_WORDS}|customers))\b")
WHICH_GPU = (r"\b(which|what|best|rec?com\w*|cheapest|smallest|choose|pick|should (?:i|we) (?:get|buy))\b"
             r"(?:\W+[\w']+){0,4}?\W+(?<!per-)(?<!per )(?<!same )(?<!those )(?<!these )(?<!that )(?<!this )(?<!my )(?<!our )"
             rf"({CARDS}|hardware|instances?|setup)\b(?! (?:memory|vram|ram)\b)"  # "what's the GPU memory needed?" asks the memory
             r"|\b(gpu|card|hardware) (rec?com\w*|suggestions?|advice|pick)"
             rf"|\b(?:{CARDS})\b[^.?!]{{0,60}}\bwhich one\b")  # '... stay on consumer cards - which one?'
BIGGEST = (r"\b(biggest|largest|most big|best)(?: \w+){0,2} (models?|llms?|thing|one)\b|\b(what|which)(?: \w+){0,2} (models?|llms?)\b"
           r"|\bwhat can (?:i|it|we) run\b")


def first(reading: Reading, pattern: str, *others: str) -> bool:
    """`pattern` is said, and before each of `others` (or they are not said): of two asks, the first is the question,
    and one in a sentence that asks comes before one in a sentence that tells ('it OOMs at 128k. what's the max?')."""
    def tier(at: int) -> int:  # 2 where the question asks, 0 where it reports others or the past, 1 elsewhere
        return 2 if within(at, reading.asking) else 0 if within(at, reading.aside) else 1

    def where(found: str) -> tuple[int, int] | None:
        matches = [m for m in rx.finditer(found, reading.asked) if reading.reports_count or tier(m.start()) > 0]
        best = min(matches, key=lambda m: (-tier(m.start()), m.start()), default=None)
        return None if best is None else (-tier(best.start()), best.start())

    a = where(pattern)
    if a is None:
        return False
    return all((b := where(other)) is None or a <= b for other in others)


def asks_limit(reading: Reading) -> bool:
    """'Longest context', 'largest batch', 'how many requests can it juggle': a limit not already given in the
    question ('can it hold a 128K max context' gives the context: that is a fit question)."""
    matches = [m for m in rx.finditer(LIMIT, reading.asked)  # 'how long would 2 epochs take' asks the run's time
               if not (m.group(0) == "how long" and reading.training_tokens is not None)]
    asked = [m for m in matches if within(m.start(), reading.asking)]
    if not matches or not first(reading, LIMIT, FIT_ASK):
        return False
    candidates = asked or matches  # 'we keep getting "max seq len ..." so: how many requests can it hold?'
    found = next((m for m in candidates if m.group(0).startswith(("how", "many"))), candidates[0])  # not 'max model len'
    given = reading.batch_size if limit_is_batch(found.group(0), reading.asked[found.end():]) else reading.seq_len
    return given is None or asks_past_told_context(reading) or asks_past_told_batch(reading)


def asked_limits_of_batch(reading: Reading) -> list[bool]:
    """Each limit asked where the question asks: whether it is of the batch (else of the context)."""
    return [limit_is_batch(m.group(0), reading.asked[m.end():]) for m in rx.finditer(LIMIT, reading.asked)
            if within(m.start(), reading.asking)]


def asks_past_told_context(reading: Reading) -> bool:
    """'It OOMs at 128k. What's the max context?': the length was told, the longest context is asked."""
    return reading.seq_len_told and not all(asked_limits_of_batch(reading))


def asks_past_told_batch(reading: Reading) -> bool:
    """'Max batch size for ...? Right now I'm at bs 2': the batch was told, the largest is asked."""
    return reading.batch_told and any(asked_limits_of_batch(reading))


def limit_is_batch(phrase: str, after: str) -> bool:
    """What the limit is of: the phrase's own noun ('how many requests'), else the first noun after it."""
    if rx.search(BATCH_WORDS, phrase):
        return True
    for word in after.split()[:7]:  # "how big can i make the per-device batch"
        if rx.match(r"(?:micro[-_]?|-?num[-_]?)?(?:" + BATCH_WORDS + ")", word):  # vLLM's 'max-num-seqs' counts sequences
            return True
        if rx.match(r"context|ctx|seq|sequence|length|len|window|tokens?\b", word):
            return False
    return False


def asks_serving(reading: Reading) -> bool:
    """A model and traffic (users or a request rate) with serving words or a price asked ('cheapest setup for 100 users'),
    or a rate or a cost per token asked of GPUs named ('what qps can one A100 take'); 'max concurrent on an H100' is a
    limit, 'how much VRAM to serve 5 people' a memory question, 'single user: what tok/s' a speed one."""
    traffic = (reading.users or 0) > 1 or reading.requests_per_s is not None
    sized = not traffic and bool(named_gpus(reading)) and said_outside_asides(reading, RATE_ASK + "|" + PER_TOKEN_COST)
    owned = any(c is not None for _, c in reading.gpus) and not said(reading, r"\bhow many\b")  # 'got one H100: host X?'
    if owned and said(reading, r"\bfits?\b"):  # 'will it fit' on hardware in hand; 'is it enough for 100 people' plans
        return False
    picks_a_gpu = (first(reading, WHICH_GPU, SERVING)  # 'which gpu to serve X to 20 users?'
                   and said(reading, r"\b(which|best|single|cheapest|recommend\w*|pick|choose)\b")
                   and not said(reading, r"\b(?:gpu|cloud|hardware) (?:count|setup|fleet|cluster)\b|\bgpus\b|\bmonthly\b"))
    if not reading.how_many_gpus and (said(reading, ESTIMATE_ASK) or picks_a_gpu):
        return False  # a memory figure or a GPU asked, and no GPU count
    target_set = reading.tokens_per_s_per_user is not None and not said(reading, r"how fast|how quick|what (?:tok|speed)")
    compares = compared_count(reading) >= 2 and (first(reading, COMPARING, SERVING)
                                                 or not reading.how_many_gpus and said(reading, rf"{WHICH_IS} {BETTER}\b"))
    return (has_subject(reading) and (traffic or sized)
            and not compares  # 'how does the L4 stack up against an A10G for that?'
            and (reading.how_many_gpus or target_set  # serving words or a price said before any speed word
                 or first(reading, "|".join((SERVING, COST_ASK, CHEAPEST_WAY, PER_TOKEN_COST, r"\bcheaper\b")), SPEED)
                 or said(reading, r"\bwhat (?:hardware|setup|infra\w*)\b(?! (?:do|would|will|should) (?:we|i) buy)"
                         r"|\b(?:cheapest|best|right|minimum|smallest) (?:setup|hardware|config\w*|deployment|infra\w*)\b"
                         r"|\b(?:gpus?|cards?|hardware) needed\b")))


def compared_count(reading: Reading) -> int:
    """GPUs a comparison would set side by side: those read, and ('7900 xtx vs 4090') a GPU outside the catalog whose
    memory was not given, when a comparing word says so."""
    by_memory = sum(1 for g, _ in reading.gpus if g.endswith("GB"))
    comparing = said(reading, SIDE_BY_SIDE + rf"|\b(?:{BETTER}|than)\b")
    unsized = max(0, len(reading.unknown_gpus) - by_memory) if comparing else 0
    return sum(1 for g, _ in reading.gpus if g != "unknown") + unsized  # not the stand-in for a GPU outside the catalog


def asks_rent_or_buy(reading: Reading) -> bool:
    """Owning against renting: a buy word with a rent/cloud/own framing or a horizon, or a purchase price set against
    a rent ('$2,000 vs renting at $0.69/hr'); 'which is the better buy' between two cards is a comparison; 'the only
    free card in our on-prem rack ... would it fit?' asks the fit."""
    if not named_gpus(reading):
        return False
    asking = " ".join(reading.asked[a:b] for a, b in reading.asking)
    if not rx.search(BUY + "|" + RENT_OR_OWN + r"|\b(?:pay|paid)\b", asking) and rx.search(
            "|".join((FIT_ASK, LIMIT, SPEED, ESTIMATE_ASK)), asking):
        return False
    def where_asked(pattern: str) -> re.Match[str] | None:  # 'on-prem fleet' in the backstory is no buy word
        return next((m for m in rx.finditer(pattern, reading.asked) if not reading.asking or within(m.start(), reading.asking)), None)
    cost, buy_word = where_asked(COST_ASK), where_asked(BUY)
    if cost and buy_word and cost.start() < buy_word.start() and rx.search(r"\balso\b|, and\b", reading.asked[cost.end():buy_word.start()]):
        return False  # 'what would renting 8x A100 for 100 hours cost? also, would buying make sense?': the bill first
    framed = said(reading, r"\b(rent\w*|cloud|leas\w*|capex)\b|" + BREAK_EVEN) or reading.years is not None \
        or reading.utilization is not None  # 'an on-prem cluster for Maverick' alone weighs nothing
    bought = reading.purchase_usd_per_gpu is not None or said_outside_asides(
        reading, r"\b(buy\w*|purchas\w*|owning|capex|on[ -]?prem\w*)\b|\b(?:versus|vs\.?|or)[ -]own\b")
    buy, versus = rx.search(BUY, reading.asked), rx.search(SIDE_BY_SIDE, reading.asked)
    comparing = len(reading.gpus) >= 2 and versus is not None and (buy is None or versus.start() < buy.start())
    return bought and framed and not comparing


def asks_job_cost(reading: Reading) -> bool:
    """A rental bill: GPUs named with a cost word, and either no model or a duration ('~72 hours on 8x H100: the bill?')."""
    if not named_gpus(reading):
        return False
    if said(reading, r"\b(?:fit|within|under|over|stay in|enough|blow)(?: \w+){0,3} budget\b|\bafford\b"):
        return True  # 'budget $10k: do we fit it?', 'can we afford a month of it?'
    if not has_subject(reading):
        # ('a v100 going cheap on ebay: specs?' tells a price; it asks the card)
        cost = COST_ASK + r"|\b(?:(?<!going )(?<!selling )cheap\w*|rent\w*|bill\w*|rate|go(?:ing)? for|per hour|an hour|hourly)\b|/ ?hr\b"
        card = r"\b(specs?|tdp|bandwidth|how much (?:memory|vram))\b"  # 'what is a Gaudi 3: memory, bandwidth, TDP?'
        return (said(reading, cost) or reading.hours is not None or budget_of(reading) is not None) and not first(reading, card, cost)
    other_ask = "|".join((ESTIMATE_ASK, FIT_ASK, LIMIT, ABSOLUTE_SPEED))  # 'how many users at once on that a10g? also what does it cost?'
    return reading.hours is not None and said(reading, COST_ASK + r"|\bhow much\W*$") and not first(reading, other_ask, COST_ASK)


# 'what's an L40S exactly?' asks its card, 'what's an L40S going for?' its price (· : a name, masked)
CARD_OF_A_NAME = (r"\bwhat(?: is|'s|s| exactly is) (?:the |an? )?(·)(?=·*+(?: ·+)*+(?: |$)(?!(?:going|go|on|for|cost\w*|per|rent\w*"
                  r"|pric\w*|gonna|running|at|with|in|to|vs|versus|or|and)\b))")
SPECS_OF_A_NAME = (r"\b(?:specs?|memory(?: size)?|vram|bandwidth|tdp)(?: (?:and|,) [a-z ]{1,30}?)? (?:of|for|on) (?:an? |the )?(·)"
                   r"|(?:^|\bthe |\ban? )(·)[·\s]*'?s? specs?\b")  # 'mi355x specs?'
CARD_FIRST = (r"\bwhat does (?:the )?\S+ (?:part |bit |suffix )?(?:mean|stand for)\b"
              r"|\barchitectur\w*(?! (?:proposal|review|diagram|doc\w*|decision))"
              r"|\bactive param\w*|\bhow many (?:layers|experts|heads|(?:total )?(?:params|parameters) (?:does|do))\b"
              r"|\bhow many (?:params |parameters )?(?:are )?active\b"
              r"|\b(?:a )?(?:trillion|billion) param\w*|\bis (?:it|·[·\s]*) (?:an? )?moe\b"
              r"|\b(?:layers|kv heads|hidden size|vocab\w*)\b")  # what asks for a model's card


def asks_gpu_card_first(reading: Reading) -> bool:
    """'What exactly is the H100 NVL? ... also would llama 70b fit on one?': the card first, then the rest; 'what is
    <name>' or 'bandwidth of an MI325X?' only where the name is a GPU's."""
    card = f"{CARD_OF_A_NAME}|{SPECS_OF_A_NAME}"
    named = any(reading.asked.count(" ", 0, m.start(m.lastindex or 0)) in reading.gpu_at for m in rx.finditer(card, reading.asked))
    return bool(named_gpus(reading)) and named and first(reading, card, *OTHER_ASKS)


WORK = r"run|serve|train\w*|fine[ -]?tun\w*"  # what is done with a model, asked of it
OTHER_ASKS = (FIT_ASK, ESTIMATE_ASK, SPEED, LIMIT, WHICH_GPU, COST_ASK, rf"\b(?:{WORK})\b")

# 'which gpu do i need to qlora X? wanna rent one card, l40s, a100 or h200?': a pick among the cards named
WHICH_ONE_TO_GET = r"\bwhich (?:single )?(?:gpu|card) (?:do|would|will|should) (?:i|we) (?:need|get|rent|use|buy|pick)\b"
# a comparison, unless speed ('how fast on a 4090 or a 3090?') or the fit is asked before the comparing words
SPEED_COMPARED = SIDE_BY_SIDE + (r"|\b(or|which one|best|which (?:\w+ )?(?:gives|has|offers|delivers)|which is|better|worse"
                                 r"|worth (?:it |the (?:\w+ )?)?over)\b")
FIT_COMPARED = SIDE_BY_SIDE + rf"|{WHICH_IS} (?:{BETTER}|cheaper)\b"


def count_asked(r: Reading) -> bool:
    """'How many H100s to hold it?': a GPU count asked, before any memory figure."""
    return r.how_many_gpus and not first(r, ESTIMATE_ASK, r"\bhow many\b")


def asks_training_run(r: Reading) -> bool:
    """Tokens to train on, or a rate of them asked ('how many tokens per day'), unless another ask comes first."""
    return (has_subject(r)  # a GPU, a memory figure or the fit asked first: 'is that gonna OOM? also how long would a pass take?'
            and not first(r, "|".join((WHICH_GPU, ESTIMATE_ASK, FIT_ASK)), TIME_ASK)
            and not (r.how_many_gpus and first(r, r"\b(?:how many|number of|minimum)\b", TIME_ASK))  # 'minimum number of H100s?'
            and not (compared_count(r) >= 2  # 'which of the two is faster, and how long would a run take?'
                     and first(r, COMPARING + rf"|\b(?:{BETTER}|which of the two)\b", TIME_ASK))
            and (r.training_tokens is not None or any(s.kind == "tokens_asked" for s in r.spans)
                 or r.workload == "training" and said(r, r"tokens? (?:per|a|/) ?(?:day|hour)|tokens/day")))

JOURNEYS = [
    Journey("model_card", lambda r: bool(r.models or r.unknown_models) and first(r, CARD_FIRST, *OTHER_ASKS), answer_model_card,
            ("card",)),  # 'what is GLM-4.5-Air architecturally, and would it fit on 2x H100?': the card, then the fit
    Journey("gpu_card", asks_gpu_card_first, answer_gpu_card, ("card",)),
    Journey("cheapest_method", lambda r: has_subject(r) and first(r, CHEAPEST_WAY, SPEED, FIT_ASK, ESTIMATE_ASK, TRAINING_TIME_ASK)
            and not asks_serving(r)  # 'the cheapest way to serve it to 100 users' is a serving plan: its price and its GPUs
            and not (compared_count(r) >= 2 and said(r, SIDE_BY_SIDE)  # 'h100 vs h200: most cost-effective?'
                     and not said(r, r"\bcheapest (?:way|route|approach|method) to\b")),  # 'cheapest way to tune X? a 4090 vs an a100'
            answer_cheapest_method, ("cost", "fit", "serving")),
    Journey("serving", asks_serving, answer_serving, ("serving", "speed", "cost", "fit", "which_gpu")),
    Journey("training_time", asks_training_run, answer_training_run, ("time", "cost", "speed")),
    Journey("rent_or_buy", asks_rent_or_buy, answer_rent_or_buy, ("buy", "cost")),
    Journey("compare", lambda r: compared_count(r) >= 2 and not mixed_box(r) and not (said(r, MIXED_BOX) and said(r, BIGGEST + "|" + LIMIT))
            and not said(r, WHICH_ONE_TO_GET) and not first(r, ABSOLUTE_SPEED, SPEED_COMPARED) and not first(r, r"\bfits?\b", FIT_COMPARED),
            answer_compare, ("compare", "speed", "cost", "fit", "which_gpu")),
    Journey("cloud_cost", asks_job_cost, answer_cloud, ("cost", "fit", "time")),  # a rental answers "how long" for a budget
    Journey("speed", lambda r: has_subject(r) and first(r, SPEED, FIT_ASK, LIMIT, ESTIMATE_ASK, WHICH_GPU), answer_speed, ("speed",)),
    Journey("limits", lambda r: bool(r.gpus) and has_subject(r) and asks_limit(r), answer_limits, ("fit", "limits")),
    Journey("fit", lambda r: bool(r.gpus) and has_subject(r) and not first(r, ESTIMATE_ASK, FIT_ASK)
            # 'which gpu should i get so it sits in vram?', 'which gpu do i need? l40s, a100 or h200?': a GPU asked first
            and not (first(r, WHICH_GPU, FIT_ASK) and said(r, FIT_ASK + "|" + WHICH_ONE_TO_GET))
            and not count_asked(r), answer_fit, ("fit",)),
    Journey("which_gpu", lambda r: has_subject(r) and (first(r, WHICH_GPU, ESTIMATE_ASK) or count_asked(r)), answer_which_gpu,
            ("fit", "cost", "which_gpu", "buy")),
    Journey("model_card", lambda r: bool(r.models) and said(r, CARD_FIRST + r"|\b(what is|what's|tell me about|describe|explain|structure"
            r"|specs?|moe|context length|config|how many (?:params|parameters))\b")
            and not said(r, rf"\b(vram|memory|fit|need|cheap\w*|cost\w*|{WORK})\b|" + ESTIMATE_ASK),
            answer_model_card, ("card",)),
    Journey("estimate", has_subject, answer_estimate, ("fit",)),
    Journey("biggest_model", lambda r: bool(r.gpus) and biggest_model_asked(r), answer_biggest_model, ("fit", "limits")),
    Journey("gpu_card", lambda r: bool(named_gpus(r)), answer_gpu_card, ("card",)),
]
JOURNEY_BY_NAME = {j.name: j for j in JOURNEYS}

