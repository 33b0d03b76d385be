"""plan_serving's alternatives: the plan again with what operators change before they add hardware.

A larger memory share for the engine (--gpu-memory-utilization 0.95), then the ladder's format rungs (FP8 weights, a
4-bit AWQ/GPTQ checkpoint, a smaller GGUF, an FP8 or q8_0 KV cache), are planned through plan_serving itself, and
kept where they make a plan possible or cut the cheapest plan's price by at least 15%. Where the default per-user
speed floor is what sets the price, the plan without it is named too: the floor is a default, not the user's target.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gpusizer.tools.alternatives import retried, worth_it
from gpusizer.tools.figures import number, usd
from gpusizer.tools.memory.ladder import LARGER_SHARE, LARGER_SHARE_SAYS, Situation, format_changes, share_can_grow
from gpusizer.tools.memory.model.formats import FORMATS
from gpusizer.tools.serving.plan_models import ServingAlternative, ServingPlan
from gpusizer.tools.serving.targets import INTERACTIVE_FLOOR_TOKENS_PER_S

SHOWN = 3
Plan = Callable[..., ServingPlan]


def serving_alternatives(arguments: Mapping[str, Any], result: ServingPlan, plan: Plan) -> list[ServingAlternative]:
    """The changes that make the plan possible or cheaper, cheapest first (at most SHOWN)."""
    before = cheapest_price(result)
    situation = Situation("inference", "full", bits(result.weights_dtype), result.kv_cache_dtype, 1.0, False, False)
    changes = format_changes(arguments, situation)
    if share_can_grow({**arguments, "engine": result.engine}):
        changes.insert(0, (LARGER_SHARE_SAYS, {"gpu_memory_utilization": LARGER_SHARE}))
    limited_by_floor = bool(result.options) and result.options[0].limited_by == "tokens_per_s_per_user"
    if limited_by_floor and arguments.get("min_tokens_per_s_per_user") is None and not arguments.get("tokens_per_s_per_user"):
        changes.append((f"no per-user speed floor (the default is {INTERACTIVE_FLOOR_TOKENS_PER_S:g} tokens/s)",
                        {"min_tokens_per_s_per_user": 0}))
    found = []
    for says, change in changes:
        again = retried(plan, arguments, change)
        if again is not None and again.options and worth_it(before, cheapest_price(again)):
            found.append(alternative(says, change, again))
    unique: dict[tuple[str, int, float | None], ServingAlternative] = {}
    for option in found:  # the ladder's order: a lighter change first ('FP8' before '4-bit' for the same plan)
        unique.setdefault((option.gpu_id, option.total_gpus, option.usd_per_month), option)
    ranked = sorted(unique.values(), key=lambda a: (a.arguments.get("min_tokens_per_s_per_user") == 0, a.usd_per_month is None,
                                          a.usd_per_month or 0))  # a slower plan than asked for is named last
    return ranked[:SHOWN]


def bits(weights_dtype: str) -> float:
    fmt = FORMATS.get(weights_dtype)
    return fmt.bits_per_weight if fmt else 16.0


def cheapest_price(result: ServingPlan) -> float | None:
    """The cheapest priced plan's $/month; infinite where plans exist but none is priced (any priced plan is better)."""
    if not result.options:
        return None
    return result.options[0].usd_per_month if result.options[0].usd_per_month is not None else float("inf")


def alternative(says: str, change: dict[str, Any], plan: ServingPlan) -> ServingAlternative:
    best = plan.options[0]
    figure = f"{best.total_gpus} x {best.gpu_id}" + (f", {usd(best.usd_per_month)}/month" if best.usd_per_month else "")
    text = f"{says}: {figure} at {number(best.tokens_per_s_per_user)} tokens/s per user"
    return ServingAlternative(change=says, arguments=change, text=text, gpu_id=best.gpu_id, total_gpus=best.total_gpus,
                              usd_per_month=best.usd_per_month, tokens_per_s_per_user=best.tokens_per_s_per_user)
