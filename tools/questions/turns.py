"""What a follow-up changes of the journey (FOLLOW_UP_JOURNEY_RULES), and what a chosen journey makes of values the
question only told of (SETTLE_RULES): small rules, one case each, that asking.py walks in order."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from gpusizer.tools.figures import number
from gpusizer.tools.pricing import HOURS_PER_YEAR

from . import journeys as j
from . import regex as rx
from .answers import AskAnswer
from .reading import Reading
from .slots import Span

TRAINING_TIME_ASK = j.TRAINING_TIME_ASK
SPAN_OF_TIME = r"\b(?:\d+|an?|one|two|three|per) ?(?:hours?|hrs?|h|days?|weeks?|months?)\b"  # 'for 5 days', 'per month'
BARE_COUNT = (r"\b(\d+|a pair|a couple) (?:of (?:them|those|these)|of the(?: [\w-]+)? (?:cards|gpus)|cards|gpus)\b"
              r"|\b(both)\b(?: of them| cards| gpus)?|\ba (second|third|fourth) (?:one|card|gpu)\b")


@dataclass
class Turn:
    """A follow-up: the words typed, the merged reading, the new question's own, the follow-up reading, the last answer."""
    question: str
    lower: str
    reading: Reading
    fresh: Reading
    follow: Reading
    previous: AskAnswer


Journey = j.Journey | None


ASK_WORDS = (j.COMPARING + r"|\b(how long|what is|what's an?|specs?|keep up with|cope with|will (?:it|this|that) (?:start|load|come up)"
             r"|how many (?:of (?:those|these|them) )?[\w-]+ (?:[\w-]+ )?(?:cards|gpus|nodes) (?:would|will|do|should) (?:we|i) need)\b")


def asks_anything(question: str) -> bool:
    """Whether a question says what it asks (fit, speed, a limit, memory, a GPU, cost, buying, a comparison, a card)."""
    text = question.lower()
    return any(rx.search(p, text) for p in (j.FIT_ASK, j.SPEED, j.LIMIT, j.ESTIMATE_ASK, j.WHICH_GPU, j.COST_ASK, j.BUY,
                                            j.CHEAPEST_WAY, ASK_WORDS))


def keep_the_journey(turn: Turn, journey: Journey) -> Journey:
    """'and a 4090?' after a price question asks the price again."""
    if turn.previous.journey not in j.JOURNEY_BY_NAME or asks_anything(turn.question) or turn.fresh.how_many_gpus:
        return journey  # 'ok so how many A100s is that' asks the count
    kept = j.JOURNEY_BY_NAME[turn.previous.journey]
    keeps = kept.applies(turn.reading) or kept.name in ("cloud_cost", "rent_or_buy", "gpu_card", "limits") and turn.reading.gpus
    return kept if keeps else journey


def traffic_makes_a_plan(turn: Turn, journey: Journey) -> Journey:
    """'how many MI300X to host X?' then 'ok and for 100 concurrent users?': a serving plan."""
    if turn.previous.journey in ("which_gpu", "estimate") and not asks_anything(turn.question) \
            and ((turn.fresh.users or 0) > 1 or turn.fresh.requests_per_s is not None) \
            and j.JOURNEY_BY_NAME["serving"].applies(turn.reading):
        return j.JOURNEY_BY_NAME["serving"]
    return journey


def asks_the_count(turn: Turn, journey: Journey) -> Journey:
    """'ok so how many A100s is that' after a memory estimate or a fit."""
    if turn.fresh.how_many_gpus and journey is not None and journey.name in ("estimate", "fit") \
            and not rx.search(j.ESTIMATE_ASK + "|" + j.FIT_ASK, turn.lower):
        return j.JOURNEY_BY_NAME["which_gpu"]
    return journey


def renting_for_a_time(turn: Turn, journey: Journey) -> Journey:
    """'say it takes 5 days: what would renting those 16 GPUs cost?'; after a serving plan, the GPUs the plan needs (not
    when the follow-up names other GPUs or a count: 'say we go with 4 of them')."""
    reading, fresh = turn.reading, turn.fresh
    if reading.hours is None or not j.named_gpus(reading) \
            or not rx.search(SPAN_OF_TIME + r"|\bmonthly\b", turn.lower) \
            or not (rx.search(j.COST_ASK, turn.lower) or fresh.pricing is not None):
        return journey
    planned = next((c.result["options"][0] for c in turn.previous.calls
                    if c.tool == "plan_serving" and c.result and c.result.get("options")), None)
    if planned is not None and (not fresh.gpus or fresh.gpus == [(planned["gpu_id"], None)]) \
            and not rx.search(BARE_COUNT, fresh.text):
        reading.gpus = [(planned["gpu_id"], planned["total_gpus"])]
    return j.JOURNEY_BY_NAME["cloud_cost"]


def comparing_named_gpus(turn: Turn, journey: Journey) -> Journey:
    """'would h100s be a better fit than l40s for this workload?'"""
    if len(j.named_gpus(turn.reading)) >= 2 and rx.search(
            j.COMPARING + r"|\b(?:better|worse|faster|slower|cheaper) (?:\w+ )?than\b|\bwhich (?:one'?s|one is|is) (?:better|faster)\b"
            r"|\bworth (?:it |the (?:\w+ )?)?over\b", turn.lower):
        return j.JOURNEY_BY_NAME["compare"]
    return journey


def buying_instead(turn: Turn, journey: Journey) -> Journey:
    """'if we just bought the h200s at ~$32k a card, when does that beat renting?'"""
    fresh = turn.fresh
    if j.named_gpus(turn.reading) and rx.search(j.BUY + r"|\bbought\b", turn.lower) and (
            fresh.purchase_usd_per_gpu is not None or fresh.years is not None
            or rx.search(r"\b(?:vs\.?|versus|or|than|beats?) (?:just )?rent\w*|break[ -]?even", turn.lower)):
        return j.JOURNEY_BY_NAME["rent_or_buy"]
    return journey


def traffic_asks_how_many(turn: Turn, journey: Journey) -> Journey:
    """'and if traffic peaks at 10 req/s, how many cards then?': a plan, the count asked again."""
    reading, fresh = turn.reading, turn.fresh
    traffic = fresh.users or fresh.requests_per_s is not None or fresh.tokens_per_s_per_user is not None or (
        (reading.users or reading.requests_per_s is not None) and turn.previous.journey in ("serving", "cloud_cost", "rent_or_buy"))
    if not (traffic and reading.model and rx.search(r"\bhow many\b", turn.lower)):
        return journey
    if reading.gpus:
        reading.gpus = [(reading.gpus[0][0], None), *reading.gpus[1:]]
    return j.JOURNEY_BY_NAME["serving"]


def the_cost_of_that_run(turn: Turn, journey: Journey) -> Journey:
    """'and what would that run cost on spot?' after a training time: the run's time and its bill."""
    run_cost = rx.sub(r"\b(?:that|the|this) run\b", "", turn.lower)  # 'would that run cost' asks no fit
    if turn.previous.journey == "training_time" and rx.search(j.COST_ASK, run_cost) and not rx.search(
            "|".join((j.FIT_ASK, j.LIMIT, j.ESTIMATE_ASK, SPAN_OF_TIME)), run_cost):
        return j.JOURNEY_BY_NAME["training_time"]
    return journey


FOLLOW_UP_JOURNEY_RULES: tuple[Callable[[Turn, Journey], Journey], ...] = (
    keep_the_journey, traffic_makes_a_plan, asks_the_count, renting_for_a_time, comparing_named_gpus,
    buying_instead, traffic_asks_how_many, the_cost_of_that_run)


def choose(reading: Reading) -> j.Journey | None:
    """The first journey that applies; a model or GPU outside the catalog stands in as known (the answer says not)."""
    stand_in = reading
    if reading.unknown_models and not j.has_subject(reading):  # pick the journey as if the model were known
        stand_in = dataclasses.replace(stand_in, params_billions=1.0)
    if reading.unknown_gpus and not reading.gpus:  # as if the GPU were known; the answer says it is not
        stand_in = dataclasses.replace(stand_in, gpus=[("unknown", None)])
    found = next((journey for journey in j.JOURNEYS if journey.applies(stand_in)), None)
    if found is None and reading.unknown_gpus and not j.named_gpus(reading):  # 'RTX 4000 Ada, the 20GB one: specs?'
        stand_in = dataclasses.replace(stand_in, gpus=[("unknown", None)])
        found = next((journey for journey in j.JOURNEYS if journey.applies(stand_in)), None)
    return found


# ---- values a chosen journey reads as told of, not asked for
def retell(reading: Reading, test: Callable[[Span], bool], meaning: Callable[[str], str], every: bool = False) -> None:
    """Say of a span (the first that passes `test`, or `every` one) what the chosen journey made of it."""
    for span in reading.spans:
        if test(span):
            span.meaning = meaning(span.meaning)
            if not every:
                return


def the_limit_is_asked(reading: Reading, journey: str, asking: str) -> None:
    """A length, a user or a batch the question tells of while it asks for the most: 'OOMs at 128k. max?', 'single user
    does ~150 tok/s ... how many concurrent users can it handle?', 'right now I'm at bs 2'."""
    if journey != "limits":
        return
    if j.asks_past_told_context(reading):
        retell(reading, lambda span: span.kind == "seq_len",
               lambda _: "a length the question tells of, not asks for (the longest is asked)")
        reading.seq_len = None
    if reading.users == 1 and rx.search(r"\bhow many (?:\w+ )?(?:users|people|sessions|requests|chats|streams)\b", asking):
        retell(reading, lambda span: span.meaning == "1 concurrent users", lambda _: "one user, told of (how many is what is asked)")
        reading.users = None
    if j.asks_past_told_batch(reading):
        retell(reading, lambda span: span.kind == "batch_size",
               lambda _: "a batch the question tells of, not asks for (the largest is asked)")
        reading.batch_size = None


def utilization_only_for_owning(reading: Reading, journey: str, asking: str) -> None:
    if journey != "rent_or_buy" and reading.utilization is not None \
            and not rx.search(j.BUY + r"|\bbought\b", reading.asked):  # 'up 24/7' of a GPU pick: nothing weighs a share of the time
        retell(reading, lambda span: span.meaning.startswith("utilization"),
               lambda m: f"{m} (not used: nothing here weighs owning against renting)", every=True)
        reading.utilization = None


def run_length_is_asked(reading: Reading, journey: str, asking: str) -> None:
    if journey == "training_time" and reading.hours is not None and rx.search(TRAINING_TIME_ASK, asking):
        retell(reading, lambda span: rx.fullmatch(r"[\d,.]+ hours", span.meaning) is not None,  # 'a box reserved for two
               lambda m: f"{m}, a time told of (how long the run takes is what is asked)", every=True)  # weeks ... how long?'
        reading.hours = None


def tokens_train(reading: Reading, journey: str, asking: str) -> None:
    if journey == "cheapest_method" and reading.workload is None and reading.training_tokens:
        reading.workload = "training"  # 'adapt X to our docs, 40M tokens, one epoch: the cheapest way?' trains


def a_rental_of_years(reading: Reading, journey: str, asking: str) -> None:
    if journey == "cloud_cost" and reading.hours is None and reading.years is not None:
        reading.hours, reading.years = reading.years * HOURS_PER_YEAR, None  # 'rent 8 h100s for a year': the rental's length
        retell(reading, lambda span: rx.fullmatch(r"[\d.]+ years?", span.meaning) is not None, lambda _: f"{number(reading.hours)} hours")


def precision_without_a_model(reading: Reading, journey: str, asking: str) -> None:
    if journey in ("gpu_card", "cloud_cost", "rent_or_buy", "compare") and not j.has_subject(reading) \
            and reading.weights_dtype:  # 'trainium2: memory and bf16 TFLOPS?': a precision with no model to apply it to
        reading.notes.append(f"'{reading.weights_dtype}' names a precision, but there is no model to apply it to")
        reading.weights_dtype, reading.other_weights = None, []


SETTLE_RULES: tuple[Callable[[Reading, str, str], None], ...] = (
    the_limit_is_asked, utilization_only_for_owning, run_length_is_asked, tokens_train, a_rental_of_years,
    precision_without_a_model)
