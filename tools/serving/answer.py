"""The text answer of plan_serving: the cheapest plan first, what limits it, the next options, and the engine it holds for.

The MCP tool sends this as its text content (an answer a person could read aloud, at most 1,500 bytes); every option,
infeasible GPU and assumption stays in the structured content.
"""
from __future__ import annotations

from gpusizer.tools.figures import best_of, number, usd, within_limit
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES
from gpusizer.tools.pricing import HOURS_PER_MONTH
from gpusizer.tools.serving.alternatives import cheapest_price
from gpusizer.tools.serving.plan_models import ServingOption, ServingPlan

WARNINGS_SHOWN = 3
LIMITS = {"kv_cache": "the KV cache", "max_num_seqs": "the engine's max_num_seqs",
          "max_running_requests": "the engine's max_running_requests",
          "tokens_per_s_per_user": "the tokens/s per user target", "ttft_s": "the time-to-first-token target"}


def plan_serving_answer(result: ServingPlan, lead: str = "") -> str:
    """The cheapest option as a sentence, the next four, the GPUs that cannot serve, the warnings and the engine; `lead`
    'month' or 'per_token' puts the figure asked for first: the plan's $/month, or its $ per million output tokens."""
    engine = f"{ENGINE_NAMES.get(result.engine, result.engine)} {result.engine_version}"
    load = traffic(result)
    if not result.options:
        who = f"{result.infeasible[0].gpu_id} cannot" if len(result.infeasible) == 1 else "No GPU in the catalog can"
        why = f": {result.infeasible[0].reason}" if len(result.infeasible) == 1 else "; each GPU's reason:"
        lines = [f"{who} serve {result.model} to {load} with {engine}{why}"]
        lines += [f"Possible with {result.alternatives[0].text}"] if result.alternatives else []
        if len(result.infeasible) > 1:
            lines += best_of([f"- {g.gpu_id}: {g.reason}" for g in result.infeasible])
    else:
        best = result.options[0]
        verb = "serve" if best.replicas > 1 else "serves"
        first = lead_figure(best, lead)
        lines = [f"{first}{shape(best)} {verb} {result.model} to {load} at {speed(best)}, {price(best, bool(first))}; "
                 f"limited by {LIMITS.get(best.limited_by, best.limited_by)}"]
        lines += [f"Cheaper with {result.alternatives[0].text}"] if result.alternatives else []
        if best.fewest_gpus < best.total_gpus:
            lines.append(f"Fewest {best.gpu_id} that serve it: {best.fewest_gpus} GPUs (the plan above is the cheapest)")
        lines += best_of([f"- {shape(o)}: {speed(o)}, {price(o)}" for o in result.options[1:]], shown=4)
    lines += [w for w in result.warnings if not w.startswith("no GPU in the catalog serves this")][:WARNINGS_SHOWN]
    lines.append(f"Figures for {engine}, weights {result.weights_dtype}, KV cache {result.kv_cache_dtype}")
    if result.options and result.infeasible:
        names = [g.gpu_id for g in result.infeasible]
        more = f" and {len(names) - 5} more" if len(names) > 5 else ""
        lines.append(f"Cannot serve it: {', '.join(names[:5])}{more} (reasons in the structured result)")
    return within_limit(lines)


def lead_figure(option: ServingOption, lead: str) -> str:
    """'$3,394.50/month in all: ' or '$0.42 per million output tokens at this load: ' before the plan, where asked."""
    if lead == "per_token" and option.usd_per_million_output_tokens is not None:
        return f"{usd(option.usd_per_million_output_tokens)} per million output tokens at this load: "
    return f"{usd(option.usd_per_month)}/month in all ({usd(option.usd_per_hour)}/h): " if lead and option.usd_per_month else ""


def serving_plans_answer(plans: list[ServingPlan], lead: str = "", hours: float | None = None) -> str:
    """Plans of one traffic on each GPU named: the cheapest plan's answer (led by the figure asked for), after a line
    setting the GPUs' prices side by side where there are several, and its bill for `hours` where a span is asked."""
    result = min(plans, key=lambda p: cheapest_price(p) or float("inf"))
    best = result.options[0] if result.options else None
    lasting = (f"\nThe plan for {number(hours)} h: {usd(best.usd_per_hour * hours)}"  # 'what would a week cost?'
               if best and best.usd_per_hour is not None and hours is not None and hours != HOURS_PER_MONTH else "")
    return (plans_compared(plans) + "\n" if len(plans) > 1 else "") + plan_serving_answer(result, lead) + lasting


def plans_compared(plans: list[ServingPlan]) -> str:
    """Plans of the same traffic on different GPUs, the cheapest first, each with its monthly price or why it cannot."""
    ranked = sorted(plans, key=lambda p: (not p.options, p.options[0].usd_per_month or float("inf") if p.options else 0))
    parts = [f"{o.gpu_id}: {o.total_gpus} GPU{'s' if o.total_gpus > 1 else ''}, "
             + (f"{usd(o.usd_per_month)}/month" if o.usd_per_month is not None else "no cloud price in the catalog")
             for p in ranked for o in p.options[:1]]
    parts += [f"{g.gpu_id}: cannot serve it ({g.reason})" for p in ranked if not p.options for g in p.infeasible[:1]]
    best = ranked[0].options[0] if ranked[0].options else None
    verdict = f"Cheaper: {best.gpu_id}" if best and best.usd_per_month is not None and len(parts) > 1 else "Compared"
    return f"{verdict} ({'; '.join(parts)})."


def traffic(result: ServingPlan) -> str:
    """The load planned for: '100 requests in flight at once' or '5 requests/s'."""
    if result.concurrent_users is not None:
        return f"{number(result.concurrent_users)} requests in flight at once"
    return f"{number(result.requests_per_s)} requests/s"


def shape(option: ServingOption) -> str:
    """'3 replicas of 2 x h100-sxm (6 GPUs)'."""
    replicas = f"{option.replicas} replica{'s' if option.replicas != 1 else ''}"
    total = f"{option.total_gpus} GPU{'s' if option.total_gpus != 1 else ''}"
    return f"{replicas} of {option.gpus_per_replica} x {option.gpu_id} ({total})"


def speed(option: ServingOption) -> str:
    return f"{number(option.tokens_per_s_per_user)} tokens/s per user, TTFT {number(option.ttft_s)} s"


def price_class(option: ServingOption) -> str:
    """'datacenter on-demand', 'marketplace on-demand' or 'spot': the class the plan's price is quoted in."""
    assert option.offer is not None
    pricing = option.offer.pricing.replace("_", "-")
    klass = option.offer.offer_class
    return pricing if not klass or klass == option.offer.pricing else f"{klass} {pricing}"


def price(option: ServingOption, said: bool = False) -> str:
    """'$3,394.50/month on vast 1x-A100 (marketplace on-demand)'; where the figure leads the answer, the offer alone."""
    if option.usd_per_month is None:
        return "no cloud price in the catalog"
    where = f"on {option.offer.provider} {option.offer.instance_type} ({price_class(option)})" if option.offer else ""
    return where if said and where else f"{usd(option.usd_per_month)}/month {where}".strip()


def fastest_answer(result: ServingPlan, users: int) -> str:
    """'How fast is X?' with no GPU named: the plan's options fastest first, per user (and in all, for several)."""
    if not result.options:
        return plan_serving_answer(result)
    lines = [f"{o.total_gpus} × {o.gpu_id}: {number(o.tokens_per_s_per_user, 1)} tokens/s per user"
             + (f" ({number(o.aggregate_tokens_per_s, 0)} tokens/s in all)" if users > 1 else "")
             + f", first token after {number(o.ttft_s, 2)} s" for o in sorted(result.options, key=lambda o: -o.tokens_per_s_per_user)[:4]]
    warning = f" Note: {result.warnings[0]}" if result.warnings else ""
    return (f"With {result.engine} {result.engine_version} ({result.weights_dtype} weights), {number(users)} user(s): "
            + "; ".join(lines) + "." + warning)
