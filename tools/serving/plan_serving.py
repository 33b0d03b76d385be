"""plan_serving: how many GPUs of which type serve a model to the traffic asked, at what speed and cost.

Per GPU type and replica shape (1, 2, 4 or 8 GPUs, tensor parallel inside one machine): the engine's start-up budget
gives the requests a replica's KV cache holds (replica_capacity), the roofline per step (serving_speed) the largest
batch that still meets the targets, the traffic the replicas needed, and the catalog's offers their price.
"""
from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Callable
from typing import NamedTuple, get_args

from gpusizer.catalog import Catalog, GpuSpec, SizingError, load_catalog
from gpusizer.tools.alternatives import with_alternatives
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES, ServingEngine, engine_runs_on, unread_backend
from gpusizer.tools.memory.engine_versions import version_key
from gpusizer.tools.memory.engines.estimate import check_engine_request
from gpusizer.tools.memory.engines.kernels import kernel_problem
from gpusizer.tools.memory.model.generic_model import assumed_architecture
from gpusizer.tools.memory.plan import Plan, build_plan
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.pricing import HOURS_PER_MONTH, FleetPrice, cheapest_fleet, price_class
from gpusizer.tools.serving.alternatives import serving_alternatives
from gpusizer.tools.serving.plan_models import (
    InfeasibleGpu,
    PlanServingRequest,
    ReplicaSize,
    ServingOffer,
    ServingOption,
    ServingPlan,
    ServingPricing,
)
from gpusizer.tools.serving.replica_capacity import ReplicaCapacity, capacity_problem, replica_capacity
from gpusizer.tools.serving.targets import INTERACTIVE_FLOOR_TOKENS_PER_S, speed_warnings, with_speed_floor
from gpusizer.tools.speed.serving_speed import LoadPoint, ReplicaLoad, Roofline, default_factors, factors_note, roofline
from gpusizer.tools.validation import declared_by, parse_request

SHAPES = (1, 2, 4, 8)
assert SHAPES == get_args(get_args(PlanServingRequest.model_fields["gpus_per_replica"].annotation)[0]), \
    "gpus_per_replica takes the shapes the planner tries"
CostOrder = tuple[bool, float, int]  # (unpriced, $/hour, GPUs): plans compare in this order


@declared_by(PlanServingRequest, "plan_serving")
def plan_serving(model: str | None = None, *, params_billions: float | None = None, weights_dtype: str | None = None,
                 kv_cache_dtype: str | None = None, engine: ServingEngine = "vllm",
                 engine_version: str | None = None, concurrent_users: int | None = None, requests_per_s: float | None = None,
                 prompt_tokens: int = 1024, output_tokens: int = 256, ttft_s: float | None = None,
                 tokens_per_s_per_user: float | None = None, min_tokens_per_s_per_user: float | None = None,
                 gpu: str | None = None,
                 gpus_per_replica: ReplicaSize | None = None, pricing: ServingPricing = "on_demand",
                 jurisdiction: str | None = None, gpu_memory_utilization: float | None = None,
                 bandwidth_efficiency: float | None = None, compute_efficiency: float | None = None,
                 catalog: Catalog | None = None) -> ServingPlan:
    """Per GPU type, the cheapest replica shape and replica count that serve `concurrent_users` requests at once (or
    `requests_per_s` arrivals) of prompt_tokens in and output_tokens out under the engine, meeting the ttft_s and
    tokens_per_s_per_user targets, with speed and $/hour, $/month, $ per million output tokens; gpus_per_replica fixes
    the shape (tensor parallel, llama.cpp: layers split), e.g. one 8-GPU node. An unlisted model is given by
    params_billions (a dense decoder of that size, as estimate_vram assumes). Raises SizingError."""
    arguments = {name: value for name, value in locals().items() if name != "catalog"}
    catalog = catalog or load_catalog()
    request = parse_request(PlanServingRequest, arguments, "plan_serving")
    if (request.concurrent_users is None) == (request.requests_per_s is None):
        raise SizingError("plan_serving: give one of concurrent_users (requests in flight at once, e.g. 100) or requests_per_s "
                          "(arrivals per second, e.g. 5)")
    plan, warnings = sized_for_serving(request, catalog)
    if request.gpu:
        match = catalog.resolve_gpu(request.gpu)
        gpus = [match.gpu]
        warnings += [match.note] if match.note else []
    else:
        gpus = catalog.gpus
    floored = with_speed_floor(request)
    default_floor = floored is not request and request.min_tokens_per_s_per_user is None
    options, infeasible = plan_options(plan, gpus, floored, catalog)
    if default_floor and not options:  # no GPU keeps the default floor: plan without it, and say so
        options, infeasible, default_floor = *plan_options(plan, gpus, request, catalog), False
        warnings += [f"no GPU keeps {INTERACTIVE_FLOOR_TOKENS_PER_S:g} tokens/s per user (the default floor): these plans "
                     "run slower"] if options else []
    else:
        request = floored
    _, shown = version_key(request.engine, request.engine_version)
    warnings += speed_warnings(options, request)
    result = ServingPlan(model=plan.arch.model_id, engine=request.engine, engine_version=shown, weights_dtype=plan.weights_dtype,
                         kv_cache_dtype=plan.kv_dtype, concurrent_users=request.concurrent_users,
                         requests_per_s=request.requests_per_s, prompt_tokens=request.prompt_tokens,
                         output_tokens=request.output_tokens, options=options,
                         infeasible=infeasible, assumptions=assumptions(plan, request, shown, default_floor), warnings=warnings)
    return with_alternatives(result, lambda: serving_alternatives(arguments, result, functools.partial(plan_serving, catalog=catalog)))


def sized_for_serving(request: PlanServingRequest, catalog: Catalog, tool: str = "plan_serving") -> tuple[Plan, list[str]]:
    """The model sized under the engine with max_model_len = prompt_tokens + output_tokens, and the notes it brings."""
    context = request.prompt_tokens + request.output_tokens
    vram = parse_request(VramRequest, {"model": request.model, "params_billions": request.params_billions,
                                       "weights_dtype": request.weights_dtype,
                                       "kv_cache_dtype": request.kv_cache_dtype, "engine": request.engine,
                                       "engine_version": request.engine_version,
                                       "gpu_memory_utilization": request.gpu_memory_utilization, "max_model_len": context},
                         tool)
    plan = build_plan(vram, catalog)
    check_engine_request(vram, plan)
    window = plan.arch.max_position_embeddings
    if context > window:
        raise SizingError(f"prompt_tokens + output_tokens = {context:,} exceeds {plan.arch.model_id}'s context window of "
                          f"{window:,} tokens")
    warnings = list(plan.notes)
    if request.model is None:
        warnings.append(assumed_architecture(request.params_billions or 0, plan.arch))
    return plan, warnings


def plan_options(plan: Plan, gpus: list[GpuSpec], request: PlanServingRequest,
                 catalog: Catalog) -> tuple[list[ServingOption], list[InfeasibleGpu]]:
    options, infeasible = [], []
    for spec in gpus:
        found = best_option(plan, spec, request, catalog)
        if isinstance(found, str):
            infeasible.append(InfeasibleGpu(gpu_id=spec.gpu_id, reason=found))
        else:
            options.append(found)
    options.sort(key=lambda o: (o.usd_per_hour is None, o.usd_per_hour or 0, o.total_gpus, o.gpu_id))
    return options, infeasible


class Shape(NamedTuple):  # a NamedTuple: the planner builds thousands per call
    gpus: int
    capacity: ReplicaCapacity
    line: Roofline
    limited_by: str
    replicas: int
    planned: LoadPoint          # at the batch each replica runs under the traffic
    fleet: FleetPrice | None
    most: LoadPoint             # at the largest batch within the targets: what a replica can take


class Candidate(NamedTuple):
    """A replica shape that starts, with the least it can cost: were its KV cache the only limit."""
    order: CostOrder      # (unpriced, $/hour, GPUs) at that least
    gpus: int
    capacity: ReplicaCapacity
    cap: int              # requests a replica may run: KV cache and the engine's max_num_seqs
    line: Roofline
    load: ReplicaLoad


def best_option(plan: Plan, gpu: GpuSpec, request: PlanServingRequest, catalog: Catalog) -> ServingOption | str:
    """The cheapest shape (unpriced GPUs: the fewest GPUs). Shapes are finished in the order of the least they can cost,
    and the search stops at one whose least is no better than a finished shape's real cost."""
    engine = request.engine
    if not engine_runs_on(engine, gpu.vendor):
        return unread_backend(engine, gpu.vendor)
    if not gpu.memory_bandwidth_gbps:
        return "the catalog has no memory bandwidth figure for this GPU"
    if problem := kernel_problem(engine, plan.weights_dtype, gpu):
        return problem
    heads = plan.arch.num_attention_heads
    # best-first: a shape's least cost is first its machine's (one replica), then its KV cache's; finish the most
    # promising shape, and stop once the least any other shape can cost is no better than a finished one
    queue: list[tuple[CostOrder, int, Candidate | None]] = []
    for n in shapes_of(request):
        if engine == "llama_cpp" or heads % n == 0:
            queue.append((cost_order(cheapest_fleet(catalog, gpu.gpu_id, n, 1, request.pricing, request.jurisdiction), n), n, None))
    heapq.heapify(queue)
    reasons: list[tuple[int, str | Callable[[], str]]] = []
    best: Shape | None = None
    best_order: CostOrder | None = None
    finished: dict[int, int] = {}  # GPUs in all, per shape finished on the way
    tried: dict[int, Candidate | str | Callable[[], str]] = {}  # per shape: fewest_gpus reuses them
    while queue:
        order, n, known = heapq.heappop(queue)
        if best_order is not None and order >= best_order:
            break
        found = known or tried.setdefault(n, candidate(plan, gpu, n, request, catalog))
        if not isinstance(found, Candidate):
            reasons.append((n, found))
            continue
        if known is None:
            heapq.heappush(queue, (found.order, n, found))
            continue
        shape = finish(found, gpu, request, catalog)
        if isinstance(shape, str):
            reasons.append((n, shape))
            continue
        finished[n] = shape.replicas * shape.gpus
        shape_order = cost_order(shape.fleet, shape.replicas * shape.gpus)
        if best_order is None or shape_order < best_order:
            best, best_order = shape, shape_order
    if best is None:  # every shape failed: the largest one's reason says the most
        if not reasons:
            return (f"{request.gpus_per_replica} GPUs do not divide the model's {heads} attention heads"
                    if request.gpus_per_replica else "no replica shape divides the model's attention heads")
        n, why = max(reasons, key=lambda r: r[0])
        return f"{n} GPU{'s' if n > 1 else ''}: {why if isinstance(why, str) else why()}"
    return option_of(gpu, best, request, fewest_gpus(plan, gpu, request, catalog, finished, tried), catalog)


def fewest_gpus(plan: Plan, gpu: GpuSpec, request: PlanServingRequest, catalog: Catalog, finished: dict[int, int],
                tried: dict[int, Candidate | str | Callable[[], str]]) -> int:
    """The fewest GPUs of this type that serve the traffic under the targets, whatever they cost: the least over the
    shapes of replicas x GPUs per replica (each grows with the traffic, so this never falls as traffic rises). `tried`
    holds the shapes best_option already worked out (a candidate depends on nothing else)."""
    totals = list(finished.values())
    for n in shapes_of(request):
        if n in finished or request.engine != "llama_cpp" and plan.arch.num_attention_heads % n:
            continue
        if totals and n >= min(totals):  # one replica of n GPUs already needs no fewer than a shape found
            continue
        found = tried[n] if n in tried else candidate(plan, gpu, n, request, catalog)
        if not isinstance(found, Candidate) or missed_target(found.load, 1, request):
            continue
        replicas, _ = traffic_fit(found.load, largest_batch(found.load, found.cap, request), request)
        totals.append(replicas * n)
    return min(totals)


def shapes_of(request: PlanServingRequest) -> tuple[int, ...]:
    """GPUs per replica to try: the one asked for ('on one 8-GPU node'), else every shape."""
    return (request.gpus_per_replica,) if request.gpus_per_replica else SHAPES


def cost_order(fleet: FleetPrice | None, gpus: int) -> CostOrder:
    return (fleet is None, fleet.usd_per_hour if fleet else 0.0, gpus)


def candidate(plan: Plan, gpu: GpuSpec, n: int, request: PlanServingRequest,
              catalog: Catalog) -> Candidate | str | Callable[[], str]:
    """The shape with its least cost, or why it cannot serve (a callable where wording it costs more than checking)."""
    capacity = replica_capacity(plan, gpu, n)
    if capacity is None:
        return functools.partial(capacity_problem, plan, gpu, n)
    cap = min(capacity.requests, capacity.max_num_seqs or capacity.requests)
    if cap < 1:
        return "the KV cache cannot hold one request of prompt_tokens + output_tokens"
    tp = 1 if request.engine == "llama_cpp" else n  # llama.cpp's layer split reads every layer in turn
    factors = default_factors(request.engine, gpu, tp, plan.weight_format.compute_dtype,
                              bandwidth=request.bandwidth_efficiency, compute=request.compute_efficiency)
    line = roofline(plan, gpu, tp, factors)
    if line is None:
        return "the catalog has no memory bandwidth or dense compute figure for this GPU"
    load = ReplicaLoad(line, request.prompt_tokens, request.output_tokens, capacity.chunk_tokens)
    most = cap  # the most requests a replica can run; the speed target may lower it (in closed form for dense models)
    if request.tokens_per_s_per_user:
        most = max(1, load.largest_within_step(1 / request.tokens_per_s_per_user, cap) or cap)
    fewest = (request.concurrent_users / most if request.concurrent_users is not None else  # a replica's rate grows with
              (request.requests_per_s or 0) / load.requests_per_s(most))                    # its batch, up to the most
    replicas = max(1, math.ceil(fewest - 1e-9))
    floor = cheapest_fleet(catalog, gpu.gpu_id, n, replicas, request.pricing, request.jurisdiction)
    return Candidate(cost_order(floor, replicas * n), n, capacity, cap, line, load)


def finish(c: Candidate, gpu: GpuSpec, request: PlanServingRequest, catalog: Catalog) -> Shape | str:
    """The shape under the targets and the traffic, or why even one request at a time misses a target."""
    load, cap = c.load, c.cap
    missed = missed_target(load, 1, request)
    if missed:
        return f"even one request at a time misses the target: {missed}"
    largest = largest_batch(load, cap, request)
    engine_cap = "max_running_requests" if request.engine == "sglang" else "max_num_seqs"
    limited_by = (engine_cap if cap < c.capacity.requests else "kv_cache") if largest == cap else \
        missed_target(load, largest + 1, request).split(" ", 1)[0]
    replicas, planned = traffic_fit(load, largest, request)
    fleet = cheapest_fleet(catalog, gpu.gpu_id, c.gpus, replicas, request.pricing, request.jurisdiction)
    return Shape(c.gpus, c.capacity, c.line, limited_by, replicas, load.point(planned), fleet, load.point(largest))


def missed_target(load: ReplicaLoad, batch: int, request: PlanServingRequest) -> str:
    """The first target a batch misses, named by its argument ('' when it meets both)."""
    wanted = request.tokens_per_s_per_user
    if wanted and 1 / load.step_s(batch) < wanted:
        return f"tokens_per_s_per_user {1 / load.step_s(batch):.1f} < {wanted:g}"
    if request.ttft_s and load.ttft_s(batch) > request.ttft_s:
        return f"ttft_s {load.ttft_s(batch):.3f} > {request.ttft_s:g}"
    return ""


def largest_batch(load: ReplicaLoad, cap: int, request: PlanServingRequest) -> int:
    """The largest batch up to `cap` meeting both targets: decode steps and times to first token only grow with the
    batch, so each target holds up to some batch, found by false position (steps grow almost linearly in the batch)."""
    largest = cap
    if request.tokens_per_s_per_user:
        exact = load.largest_within_step(1 / request.tokens_per_s_per_user, cap)
        largest = exact if exact is not None else last_within(load.step_s, 1 / request.tokens_per_s_per_user, largest)
    if request.ttft_s:
        largest = last_within(load.ttft_s, request.ttft_s, largest)
    return largest


def last_within(value: Callable[[int], float], limit: float, high: int, low: int = 1) -> int:
    """The largest batch b in [low, high] with value(b) <= limit, for value increasing and value(low) <= limit: false
    position (exact in one step where value is linear), halving whenever it stalls."""
    at_high = value(high)
    if at_high <= limit:
        return high
    at_low, bisect = value(low), False
    while high - low > 1:
        if bisect:
            guess = (low + high) // 2
        else:
            guess = low + int((limit - at_low) / (at_high - at_low) * (high - low)) if at_high > at_low else (low + high) // 2
            guess = min(max(guess, low + 1), high - 1)
        width, at = high - low, value(guess)
        if at <= limit:
            low, at_low = guess, at
        else:
            high, at_high = guess, at
        bisect = not bisect and (high - low) > width / 2
    return low


def traffic_fit(load: ReplicaLoad, largest: int, request: PlanServingRequest) -> tuple[int, int]:
    """Replicas needed and the batch each then runs: users spread evenly; arrivals through Little's law (each request is
    in flight for its time to first token plus output_tokens steps: the smallest batch whose rate carries the share)."""
    if request.concurrent_users is not None:
        replicas = math.ceil(request.concurrent_users / largest)
        return replicas, math.ceil(request.concurrent_users / replicas)
    assert request.requests_per_s is not None
    replicas = math.ceil(request.requests_per_s / load.requests_per_s(largest) - 1e-9)
    share = request.requests_per_s / replicas
    if load.requests_per_s(1) >= share:
        return replicas, 1
    # the batch must cover share x (time a request is in flight), which grows with the batch, more slowly than it:
    # iterating from below reaches the least such batch, usually in a few steps; close in on the rest by search

    def in_flight(b: int) -> float:
        return share * (load.ttft_s(b) + load.output * load.step_s(b))

    batch = 1
    for _ in range(4):
        needed = min(largest, math.ceil(in_flight(batch) - 1e-9))
        if needed <= batch:
            return replicas, batch
        batch = needed
    return replicas, min(largest, 1 + last_within(lambda b: b - in_flight(b), -1e-9, largest, batch - 1))


def option_of(gpu: GpuSpec, s: Shape, request: PlanServingRequest, fewest: int, catalog: Catalog | None = None) -> ServingOption:
    tokens_per_s = s.replicas * s.planned.tokens_per_s
    if request.requests_per_s is not None:  # what the traffic asks, not what the replicas could do
        tokens_per_s = min(tokens_per_s, request.requests_per_s * request.output_tokens)
    usd = s.fleet.usd_per_hour if s.fleet else None
    offer = None
    if s.fleet:
        o, job = s.fleet.job.offer, s.fleet.job
        offer = ServingOffer(provider=o.provider, instance_type=o.instance_type, region=o.region, pricing=job.pricing,
                             instances=s.fleet.instances, replicas_per_instance=job.jobs_per_instance,
                             usd_per_instance_hour=round(job.usd_per_instance_hour, 4), price_date=o.as_of, source=o.source,
                             offer_class=price_class(catalog, o, job.pricing) if catalog else "")
    return ServingOption(
        gpu_id=gpu.gpu_id, gpus_per_replica=s.gpus, tensor_parallel=1 if request.engine == "llama_cpp" else s.gpus,
        replicas=s.replicas, total_gpus=s.replicas * s.gpus, fewest_gpus=fewest,
        max_concurrency_per_replica=min(s.capacity.requests, 10**9),
        concurrency_per_replica=s.planned.batch, limited_by=s.limited_by, largest_concurrency_per_replica=s.most.batch,
        capacity_requests_per_s=round(s.replicas * s.most.requests_per_s(request.output_tokens), 3),
        tokens_per_s_per_user=round(s.planned.tokens_per_s_per_user, 2), aggregate_tokens_per_s=round(tokens_per_s, 1),
        ttft_s=round(s.planned.ttft_s, 4), decode_step_ms=round(s.planned.step_s * 1e3, 3),
        compute_bound_batch=s.line.compute_bound_batch(), kv_cache_tokens_per_replica=s.capacity.kv_tokens,
        usd_per_hour=round(usd, 4) if usd is not None else None,
        usd_per_month=round(usd * HOURS_PER_MONTH, 2) if usd is not None else None,
        usd_per_million_output_tokens=round(usd / (tokens_per_s * 3600) * 1e6, 4) if usd is not None and tokens_per_s else None,
        offer=offer)


def assumptions(plan: Plan, request: PlanServingRequest, shown: str, default_floor: bool = False) -> list[str]:
    engine = ENGINE_NAMES[request.engine]
    context = request.prompt_tokens + request.output_tokens
    memory = (f"{engine} {shown}: max_model_len {context:,} (prompt_tokens + output_tokens), gpu_memory_utilization "
              f"{request.gpu_memory_utilization or 0.9:g}, its default max_num_seqs and max_num_batched_tokens per GPU"
              if request.engine == "vllm" else
              f"{engine} {shown}: mem_fraction_static and chunked_prefill_size as it picks them per GPU; requests as the KV "
              f"pool holds {context:,}-token ones, up to its default max_running_requests (KV tokens / context_len x 512 "
              "held to 2,048..4,096, at most half the KV tokens)" if request.engine == "sglang" else
              f"{engine} {shown}: llama-server with every layer on the GPUs, -np slots of {context:,} tokens as the memory "
              "holds; several GPUs split the layers (each step reads them in turn)")
    traffic = (f"traffic: {request.concurrent_users:,} requests in flight at once, each {request.prompt_tokens:,} tokens in "
               f"and {request.output_tokens:,} out, spread evenly over the replicas" if request.concurrent_users is not None else
               f"traffic: {request.requests_per_s:g} requests/s, each {request.prompt_tokens:,} tokens in and "
               f"{request.output_tokens:,} out; in flight = rate x (time to first token + output_tokens x step) (Little's law)")
    targets = ("targets: " + ", ".join(t for t in (
        (f"at least {request.tokens_per_s_per_user:g} tokens/s per request"
         + (" (the default floor for interactive chat, above a fast reader's ~8 tokens/s; min_tokens_per_s_per_user=0 "
            "drops it)" if default_floor else "")) if request.tokens_per_s_per_user else "",
        f"first token within {request.ttft_s:g} s" if request.ttft_s else "") if t)
        if request.tokens_per_s_per_user or request.ttft_s else
        "targets: none given, so a replica runs as many requests as its KV cache (and max_num_seqs) holds")
    speed = factors_note(request.engine, request.bandwidth_efficiency, request.compute_efficiency)
    return [
        f"weights: {plan.weights_how}; KV cache {plan.kv_dtype}",
        memory, traffic, targets, speed,
        "time to first token without queueing: the prompt runs in chunks beside the running batch",
        f"money: the cheapest {request.pricing.replace('_', '-')} offer whose machines each hold whole replicas (tensor "
        f"parallel stays inside one machine){', in ' + request.jurisdiction if request.jurisdiction else ''}; "
        f"{HOURS_PER_MONTH:g} hours a month; $ per million output tokens at the planned load",
        "not modelled: prefix caching, speculative decoding, pipeline or expert parallelism, a spread of request lengths",
    ]
