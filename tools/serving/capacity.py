"""serving_capacity: what hardware in hand serves: how many requests of a given length it runs at once within a
per-user speed (and time-to-first-token) target, the requests per second it then sustains, and the price per million
output tokens when it is kept that busy.

The figures are plan_serving's own (a replica's KV cache as its engine budgets it, the roofline's largest batch within
the targets, Little's law for the rate), asked of the GPUs given rather than of the traffic: every way of splitting
them into replicas (tensor parallel inside the box) is worked out, and the one that takes the most requests comes
first.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from gpusizer.catalog import Catalog, GpuSpec, SizingError, load_catalog
from gpusizer.tools.figures import number, usd, within_limit
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES, ServingEngine, engine_runs_on, unread_backend
from gpusizer.tools.memory.engine_versions import version_key
from gpusizer.tools.memory.engines.kernels import kernel_problem
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.plan import Plan
from gpusizer.tools.pricing import HOURS_PER_MONTH, cheapest_fleet
from gpusizer.tools.serving.plan_models import PlanServingRequest, ReplicaSize, ServingPricing
from gpusizer.tools.serving.plan_serving import SHAPES, Candidate, candidate, largest_batch, missed_target, sized_for_serving
from gpusizer.tools.serving.targets import INTERACTIVE_FLOOR_TOKENS_PER_S, with_speed_floor
from gpusizer.tools.validation import parse_request


class ReplicaLayout(BaseModel):
    """The GPUs split into replicas of one size, each run as full as the targets allow."""
    gpus_per_replica: int
    replicas: int
    kv_cache_requests_per_replica: int = Field(description="requests of prompt + output tokens one replica's KV cache "
                                               "holds at once")
    requests_at_once: int = Field(description="all replicas: the most requests in flight that meet the targets")
    limited_by: str = Field(description="kv_cache, max_num_seqs (SGLang: max_running_requests), tokens_per_s_per_user "
                            "or ttft_s")
    tokens_per_s_per_user: float = Field(description="decode speed each request sees at that load")
    ttft_s: float = Field(description="time to first token at that load, without queueing")
    aggregate_tokens_per_s: float
    requests_per_s: float = Field(description="requests/s sustained: requests_at_once / (ttft_s + output_tokens / "
                                  "tokens_per_s_per_user), Little's law")
    usd_per_hour: float | None = Field(description="the cheapest on-demand (or spot) offer for these GPUs; null without one")
    usd_per_million_output_tokens: float | None = Field(description="at that load, kept busy around the clock")


class ServingCapacity(BaseModel):
    model: str
    engine: str
    engine_version: str
    weights_dtype: str
    kv_cache_dtype: str
    gpu_id: str
    gpu_count: int
    prompt_tokens: int
    output_tokens: int
    tokens_per_s_per_user: float | None = Field(description="the per-user speed target used (asked, or the default floor)")
    ttft_s: float | None = Field(description="the time-to-first-token target used")
    layouts: list[ReplicaLayout] = Field(description="each way to split the GPUs into replicas, most requests at once first")
    infeasible: list[str] = Field(description="replica sizes that cannot serve, with why")
    window_max_concurrency: float | None = Field(default=None, description="vLLM: the 'Maximum concurrency' its start-up "
                                                 "log prints for the first layout's replica at the model's whole context "
                                                 "window (max_model_len's default); null for other engines or where it "
                                                 "does not start")
    window_tokens: int | None = Field(default=None, description="the model's context window")
    assumptions: list[str]
    warnings: list[str]


def serving_capacity(model: str | None = None, *, gpu: str, gpu_count: int = 1, params_billions: float | None = None,
                     weights_dtype: str | None = None, kv_cache_dtype: str | None = None, engine: ServingEngine = "vllm",
                     engine_version: str | None = None, prompt_tokens: int = 1024, output_tokens: int = 256,
                     tokens_per_s_per_user: float | None = None, min_tokens_per_s_per_user: float | None = None,
                     ttft_s: float | None = None, gpus_per_replica: ReplicaSize | None = None,
                     pricing: ServingPricing = "on_demand", jurisdiction: str | None = None,
                     gpu_memory_utilization: float | None = None, fewest: bool = False,
                     catalog: Catalog | None = None) -> ServingCapacity:
    """What `gpu_count` x `gpu` serve of the model: requests of prompt_tokens in and output_tokens out at once within
    the targets (no speed target given: the interactive floor of plan_serving, min_tokens_per_s_per_user=0 drops it),
    the requests per second that sustains, and $ per million output tokens at that load. `fewest` (GPUs named without a
    count, 'on H100s'): the fewest of 1, 2, 4 ... up to `gpu_count` that serve it. Raises SizingError."""
    catalog = catalog or load_catalog()
    if fewest:
        return fewest_that_serve({k: v for k, v in locals().items() if k != "fewest"})
    if gpu_count < 1:
        raise SizingError("serving_capacity: gpu_count must be at least 1")
    request = parse_request(PlanServingRequest, {
        "model": model, "params_billions": params_billions, "weights_dtype": weights_dtype, "kv_cache_dtype": kv_cache_dtype,
        "engine": engine, "engine_version": engine_version, "concurrent_users": 1, "prompt_tokens": prompt_tokens,
        "output_tokens": output_tokens, "tokens_per_s_per_user": tokens_per_s_per_user, "ttft_s": ttft_s,
        "min_tokens_per_s_per_user": min_tokens_per_s_per_user, "gpu": gpu, "gpus_per_replica": gpus_per_replica,
        "pricing": pricing, "jurisdiction": jurisdiction, "gpu_memory_utilization": gpu_memory_utilization},
        "serving_capacity")
    plan, warnings = sized_for_serving(request, catalog, "serving_capacity")
    match = catalog.resolve_gpu(gpu)
    warnings += [match.note] if match.note else []
    floored = with_speed_floor(request)
    layouts, infeasible = replica_layouts(plan, match.gpu, gpu_count, floored, catalog)
    if not layouts and floored is not request and request.min_tokens_per_s_per_user is None:  # the floor is a default
        layouts, infeasible = replica_layouts(plan, match.gpu, gpu_count, request, catalog)
        warnings += [f"even one request at a time decodes slower than the default floor of "
                     f"{INTERACTIVE_FLOOR_TOKENS_PER_S:g} tokens/s: figures without it"] if layouts else []
    else:
        request = floored
    _, shown = version_key(request.engine, request.engine_version)
    window = window_figure(request, match.gpu.gpu_id, layouts[0].gpus_per_replica, catalog) if layouts else None
    return ServingCapacity(
        window_max_concurrency=window, window_tokens=plan.arch.max_position_embeddings if window is not None else None,
        model=plan.arch.model_id, engine=request.engine, engine_version=shown, weights_dtype=plan.weights_dtype,
        kv_cache_dtype=plan.kv_dtype, gpu_id=match.gpu.gpu_id, gpu_count=gpu_count, prompt_tokens=request.prompt_tokens,
        output_tokens=request.output_tokens, tokens_per_s_per_user=request.tokens_per_s_per_user, ttft_s=request.ttft_s,
        layouts=layouts, infeasible=infeasible, warnings=warnings, assumptions=assumptions(request, shown))


def fewest_that_serve(arguments: dict[str, Any]) -> ServingCapacity:
    """The fewest GPUs (1, 2, 4, 8: a replica's sizes, up to the count given) that serve the model; where one does not,
    the first warning says why."""
    most = arguments.pop("gpu_count")
    one = serving_capacity(**arguments, gpu_count=1)
    found, count = one, 1
    while not found.layouts and count * 2 <= most:
        count *= 2
        found = serving_capacity(**arguments, gpu_count=count)
    if found is not one:
        why = one.infeasible[-1] if one.infeasible else "no replica fits"
        found.warnings.insert(0, f"One {found.gpu_id} cannot serve it ({why}); " + (
            f"the fewest that can: {count}" if found.layouts else f"nor can {count}"))
    return found


def assumptions(request: PlanServingRequest, shown: str) -> list[str]:
    return [f"{ENGINE_NAMES[request.engine]} {shown}: max_model_len {request.prompt_tokens + request.output_tokens:,} "
            "(prompt + output tokens), its default memory share and running-request cap; replicas of 1, 2, 4 or 8 GPUs "
            "that divide the GPUs given",
            f"every request {request.prompt_tokens:,} tokens in and {request.output_tokens:,} out; a replica runs the most "
            "requests its KV cache holds that still meet the targets",
            "requests/s by Little's law: requests at once / (time to first token + output tokens / per-user speed)",
            f"money: the cheapest {request.pricing.replace('_', '-')} offer for the GPUs, {HOURS_PER_MONTH:g} h a month, "
            "kept busy at that load"]


def window_figure(request: PlanServingRequest, gpu_id: str, gpus: int, catalog: Catalog) -> float | None:
    """vLLM's start-up 'Maximum concurrency' at the model's whole window: the figure people read off its log."""
    if request.engine != "vllm":
        return None
    arguments: dict[str, Any] = {"params_billions": request.params_billions, "weights_dtype": request.weights_dtype,
                                 "kv_cache_dtype": request.kv_cache_dtype, "engine_version": request.engine_version,
                                 "gpu_memory_utilization": request.gpu_memory_utilization}
    if gpus > 1:
        arguments.update(num_gpus=gpus, tensor_parallel=gpus)
    try:
        served = estimate_vram(request.model, engine="vllm", gpu=gpu_id, catalog=catalog, **arguments).serving
    except SizingError:  # a figure beside the answer: its absence is no reason to refuse the answer
        return None
    return served.max_concurrency if served is not None and served.starts else None


def replica_layouts(plan: Plan, gpu: GpuSpec, gpu_count: int, request: PlanServingRequest,
                    catalog: Catalog) -> tuple[list[ReplicaLayout], list[str]]:
    """Each replica size that divides the GPUs (and the model's attention heads, for tensor parallelism), run full."""
    if not engine_runs_on(request.engine, gpu.vendor):
        return [], [unread_backend(request.engine, gpu.vendor)]
    if problem := kernel_problem(request.engine, plan.weights_dtype, gpu):
        return [], [problem]
    layouts, infeasible = [], []
    sizes = [request.gpus_per_replica] if request.gpus_per_replica else [n for n in SHAPES if n <= gpu_count]
    for n in sizes:
        if gpu_count % n or request.engine != "llama_cpp" and plan.arch.num_attention_heads % n:
            infeasible.append(f"{n} GPUs per replica: does not divide {gpu_count} GPUs or the model's "
                              f"{plan.arch.num_attention_heads} attention heads")
            continue
        found = candidate(plan, gpu, n, request, catalog)
        if isinstance(found, Candidate) and not (missed := missed_target(found.load, 1, request)):
            layouts.append(layout(found, gpu, gpu_count // n, request, catalog))
            continue
        why = (f"even one request at a time misses the target: {missed}" if isinstance(found, Candidate)
               else found if isinstance(found, str) else found())
        infeasible.append(f"{n} GPU{'s' if n > 1 else ''} per replica: {why}")
    layouts.sort(key=lambda o: (-o.requests_at_once, -o.requests_per_s, o.gpus_per_replica))
    return layouts, infeasible


def layout(c: Candidate, gpu: GpuSpec, replicas: int, request: PlanServingRequest, catalog: Catalog) -> ReplicaLayout:
    largest = largest_batch(c.load, c.cap, request)
    engine_cap = "max_running_requests" if request.engine == "sglang" else "max_num_seqs"
    limited_by = (engine_cap if c.cap < c.capacity.requests else "kv_cache") if largest == c.cap else \
        missed_target(c.load, largest + 1, request).split(" ", 1)[0]
    point = c.load.point(largest)
    tokens_per_s = replicas * point.tokens_per_s
    fleet = cheapest_fleet(catalog, gpu.gpu_id, c.gpus, replicas, request.pricing, request.jurisdiction)
    usd_per_hour = fleet.usd_per_hour if fleet else None
    return ReplicaLayout(
        gpus_per_replica=c.gpus, replicas=replicas, kv_cache_requests_per_replica=min(c.capacity.requests, 10**9),
        requests_at_once=replicas * largest, limited_by=limited_by, tokens_per_s_per_user=round(point.tokens_per_s_per_user, 2),
        ttft_s=round(point.ttft_s, 4), aggregate_tokens_per_s=round(tokens_per_s, 1),
        requests_per_s=round(replicas * point.requests_per_s(request.output_tokens), 3),
        usd_per_hour=round(usd_per_hour, 4) if usd_per_hour is not None else None,
        usd_per_million_output_tokens=round(usd_per_hour / (tokens_per_s * 3600) * 1e6, 4)
        if usd_per_hour is not None and tokens_per_s else None)


LIMITED_BY = {"kv_cache": "the KV cache", "max_num_seqs": "the engine's max_num_seqs",
              "max_running_requests": "the engine's max_running_requests", "tokens_per_s_per_user": "the speed target",
              "ttft_s": "the time-to-first-token target"}


def serving_capacity_answer(result: ServingCapacity, lead: str = "requests") -> str:
    """The capacity as an answer, verdict first: `lead` 'requests' (at once), 'rate' (requests/s), 'throughput' (output
    tokens/s in all) or 'cost' ($ per million output tokens at that load); then the other ways to split the GPUs and
    the assumptions that matter."""
    box = f"{result.gpu_count} × {result.gpu_id}"
    best = best_layout(result, lead)
    if best is None:
        why = result.infeasible[-1] if result.infeasible else "no replica size fits"
        return f"{box} cannot serve {result.model} with {ENGINE_NAMES[result.engine]}: {why}"
    length = f"requests of {number(result.prompt_tokens)} prompt + {number(result.output_tokens)} output tokens"
    target = (f"at least {number(result.tokens_per_s_per_user)} tokens/s each" if result.tokens_per_s_per_user
              else "no speed target") + (f", first token within {number(result.ttft_s)} s" if result.ttft_s else "")
    kv = best.replicas * best.kv_cache_requests_per_replica
    held = f"; the KV cache alone holds {number(kv)}" if kv > best.requests_at_once else ""
    at_once = (f"{number(best.requests_at_once)} {length} at once ({target}; limited by "
               f"{LIMITED_BY.get(best.limited_by, best.limited_by)}{held})")
    rate = f"{number(best.requests_per_s)} requests/s"
    cost = (f"{usd(best.usd_per_million_output_tokens)} per million output tokens ({usd(best.usd_per_hour)}/h)"
            if best.usd_per_million_output_tokens is not None else "no cloud price in the catalog")
    prompts = f"{number(best.requests_per_s * result.prompt_tokens)} prompt tokens/s"
    lines = [f"{box} ({split(best)}): " + {
        "throughput": f"about {number(best.aggregate_tokens_per_s)} output tokens/s in all (and {prompts}), at {at_once}, {rate}",
        "rate": f"about {rate} sustained, at {at_once}",
        "cost": f"{cost} kept busy at {at_once}, {rate}"}.get(lead, f"{at_once}; about {rate} sustained")
             + f", {number(best.tokens_per_s_per_user)} tokens/s per user, TTFT {number(best.ttft_s)} s."]
    if lead != "cost":
        lines.append(f"Kept that busy: {cost}.")
    lines += [f"- {split(o)}: {number(o.requests_at_once)} at once, {number(o.requests_per_s)} requests/s, "
              f"{number(o.tokens_per_s_per_user)} tokens/s per user" for o in result.layouts if o is not best][:3]
    if result.window_max_concurrency is not None and result.window_tokens and \
            result.window_tokens > result.prompt_tokens + result.output_tokens:
        lines.append(f"At the model's whole {number(result.window_tokens)}-token window, vLLM's start-up log prints "
                     f"'Maximum concurrency' {number(result.window_max_concurrency)} (a replica of "
                     f"{split(result.layouts[0]).split(' of ')[1]}): requests that long, not chat-length ones.")
    lines += result.warnings[:2]
    lines.append(f"Figures for {ENGINE_NAMES[result.engine]} {result.engine_version}, weights {result.weights_dtype}, "
                 f"KV cache {result.kv_cache_dtype}; requests/s = requests at once / (TTFT + output tokens / per-user speed)")
    return within_limit(lines)


LEADS = {"requests": "Most requests at once", "rate": "Most requests/s", "cost": "Cheapest per million output tokens",
         "throughput": "Most output tokens/s"}
FIGURES: dict[str, tuple[Callable[[ReplicaLayout], float], Callable[[ReplicaLayout], str]]] = {  # more is better
    "requests": (lambda o: o.requests_at_once, lambda o: f"{number(o.requests_at_once)} at once"),
    "rate": (lambda o: o.requests_per_s, lambda o: f"{number(o.requests_per_s)} requests/s"),
    "throughput": (lambda o: o.aggregate_tokens_per_s, lambda o: f"{number(o.aggregate_tokens_per_s)} output tokens/s")}


def best_layout(result: ServingCapacity, lead: str) -> ReplicaLayout | None:
    """The layout that does best at the figure asked for: the most requests at once, requests/s or output tokens/s, or
    the fewest $ per million output tokens (an unpriced one last)."""
    if not result.layouts:
        return None
    if lead == "cost":
        return min(result.layouts, key=lambda o: (o.usd_per_million_output_tokens is None, o.usd_per_million_output_tokens or 0))
    return result.layouts[0] if lead == "requests" else max(result.layouts, key=FIGURES[lead][0])


def capacities_answer(results: list[ServingCapacity], lead: str = "requests") -> str:
    """The model on each of several GPUs: each one's figure for the lead, the best first, then the best one's answer."""
    def rank(result: ServingCapacity) -> tuple[bool, float]:
        best = best_layout(result, lead)
        if best is None or lead == "cost" and best.usd_per_million_output_tokens is None:
            return True, 0.0
        return False, (best.usd_per_million_output_tokens or 0) if lead == "cost" else -FIGURES[lead][0](best)
    ranked = sorted(results, key=rank)
    if len(ranked) == 1:
        return serving_capacity_answer(ranked[0], lead)
    parts = []
    for result in ranked:
        best = best_layout(result, lead)
        figure = ("cannot serve it" if best is None else FIGURES[lead][1](best) if lead != "cost" else
                  usd(best.usd_per_million_output_tokens) if best.usd_per_million_output_tokens is not None else "no cloud price")
        parts.append(f"{result.gpu_count} × {result.gpu_id} {figure}")
    return f"{LEADS.get(lead, LEADS['requests'])}: " + "; ".join(parts) + ".\n" + serving_capacity_answer(ranked[0], lead)


def split(option: ReplicaLayout) -> str:
    """'one replica of 8 GPUs', '4 replicas of 2 GPUs'."""
    if option.replicas == 1:
        return f"one replica of {option.gpus_per_replica} GPU{'s' if option.gpus_per_replica > 1 else ''}"
    return f"{option.replicas} replicas of {option.gpus_per_replica} GPU{'s' if option.gpus_per_replica > 1 else ''}"
