"""The speed a serving plan keeps for each user: the target asked for, or an interactive floor when none was."""
from __future__ import annotations

from gpusizer.tools.serving.plan_models import PlanServingRequest, ServingOption

READING_SPEED_TOKENS_PER_S = 8  # slower than this, a streamed answer falls behind a reader
# With no target given, a plan keeps every user at least this fast: a streamed chat answer stays ahead of a fast reader
# (about 8 tokens/s) with a margin. Without a floor the cheapest plan packs a replica until its KV cache is full, which
# for a 70B at 200 users is one GPU at about 5 tokens/s each.
INTERACTIVE_FLOOR_TOKENS_PER_S = 10.0


def with_speed_floor(request: PlanServingRequest) -> PlanServingRequest:
    """The request with the per-user speed floor as its target where none was given (min_tokens_per_s_per_user=0:
    none)."""
    floor = INTERACTIVE_FLOOR_TOKENS_PER_S if request.min_tokens_per_s_per_user is None else request.min_tokens_per_s_per_user
    if request.tokens_per_s_per_user is not None or not floor:
        return request
    return request.model_copy(update={"tokens_per_s_per_user": floor})


def speed_warnings(options: list[ServingOption], request: PlanServingRequest) -> list[str]:
    if not options:
        return ["no GPU in the catalog serves this: see infeasible for each GPU's reason"]
    best = options[0]
    if request.tokens_per_s_per_user is None and best.tokens_per_s_per_user < READING_SPEED_TOKENS_PER_S:
        return [f"at the planned load each request decodes at {best.tokens_per_s_per_user:.1f} tokens/s on {best.gpu_id}, "
                "slower than people read: set tokens_per_s_per_user (e.g. 20) for interactive serving"]
    return []
