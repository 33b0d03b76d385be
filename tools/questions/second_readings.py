"""A quantity the question gives that its answer would not use ('... for 100 concurrent users' answered as a fit) is a
second reading: the journey that uses it answers too, and both readings are named (and given to an LLM, if any)."""
from __future__ import annotations

from . import journeys as j
from .reading import Reading

MEMORY = ("seq_len", "batch_size")
USES: dict[str, tuple[str, ...]] = {  # the quantities each journey's answer is computed from
    "fit": MEMORY, "estimate": MEMORY, "limits": (*MEMORY, "users", "tokens_per_s_per_user", "requests_per_s"), "biggest_model": MEMORY,
    "which_gpu": (*MEMORY, "hours", "rent_usd_per_gpu_hour"), "cheapest_method": (*MEMORY, "training_tokens"),
    "speed": (*MEMORY, "users"), "compare": (*MEMORY, "users"),
    "serving": (*MEMORY, "users", "requests_per_s", "tokens_per_s_per_user", "hours"),
    "cloud_cost": ("hours", "rent_usd_per_gpu_hour"), "training_time": ("training_tokens", "hours"),
    "rent_or_buy": ("hours", "years", "utilization", "purchase_usd_per_gpu", "rent_usd_per_gpu_hour")}
PARTS = {"serving": "serving", "cloud_cost": "cost", "training_time": "time", "rent_or_buy": "buy"}  # as AskAnswer.answered says
LABELS = {"serving": "Serving plan", "cloud_cost": "Rental bill", "training_time": "Training run", "rent_or_buy": "Rent or buy"}
WHO_USES = {"users": "serving", "requests_per_s": "serving", "tokens_per_s_per_user": "serving",
            "training_tokens": "training_time", "purchase_usd_per_gpu": "rent_or_buy", "years": "rent_or_buy",
            "utilization": "rent_or_buy", "hours": "cloud_cost", "rent_usd_per_gpu_hour": "cloud_cost"}
SAYS = {"fit": "whether it fits", "estimate": "the memory it needs", "limits": "the longest context or largest batch",
        "biggest_model": "the biggest model that fits", "which_gpu": "which GPU to use", "cheapest_method": "the cheapest way",
        "speed": "its speed", "compare": "a comparison of the GPUs", "serving": "a serving plan for the traffic",
        "cloud_cost": "the rental bill", "training_time": "the training run's time and cost",
        "rent_or_buy": "renting against buying"}


def given(reading: Reading, quantity: str) -> bool:
    value = getattr(reading, quantity)
    return value is not None and not (quantity == "users" and value <= 1)  # one user is the default, not traffic


def can_answer(journey: str, reading: Reading) -> bool:
    """A subject for a plan or a run; catalog GPUs for a bill or a purchase."""
    if journey in ("serving", "training_time"):
        return j.has_subject(reading) and (journey == "serving" or reading.workload == "training" or reading.training_tokens is not None)
    return bool(j.named_gpus(reading))


TOOLS = {"serving": ("plan_serving", "serving_capacity"), "training_time": ("training_time",), "cloud_cost": ("cloud_cost",),
         "rent_or_buy": ("rent_vs_buy",)}  # a journey's answer is there when its tool was called


def second_reading(reading: Reading, journey: str, called: frozenset[str] = frozenset()) -> tuple[str, list[str]] | None:
    """(journey, quantities): the journey for quantities given that no tool `called` so far used."""
    done = [journey, *(k for k, t in TOOLS.items() if called & set(t))]
    used = {q for name in done for q in USES.get(name, ())}
    unused = [q for q in WHO_USES if given(reading, q) and q not in used]
    for quantity in unused:
        other = WHO_USES[quantity]
        if other not in done and can_answer(other, reading):
            return other, [q for q in unused if WHO_USES[q] == other]
    return None


def hesitation(journey: str, other: str, quantities: list[str]) -> str:
    gave = ", ".join(q.replace("_", " ") for q in quantities)
    return (f"Two readings: {SAYS.get(journey, journey)} (answered first) or {SAYS[other]}, since the question gives "
            f"{gave}; both are answered.")


def llm_hint(facts: dict[str, object], journey: str | None, other: str | None) -> str:
    """The parser's reading, for an LLM to check against the words."""
    readings = " or ".join(SAYS.get(name, name) for name in (journey, other) if name) or "nothing it could answer"
    read = "; ".join(f"{k}: {v}" for k, v in facts.items()) or "no model, GPU or figure"
    return (f"A rule-based parser read this question as asking {readings} (read: {read}). Use what matches the user's "
            "words, correct what does not, and answer what is asked.")
