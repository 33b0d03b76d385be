"""What a follow-up changes of the journey (FOLLOW_UP_JOURNEY_RULES: the last journey kept, or one of TURNS_TO), and
what a chosen journey makes of values the question only told of (SETTLE_RULES, TOLD), walked in order by asking.py."""
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


def renting_for_a_time(turn: Turn, journey: Journey) -> bool:
    """'say it takes 5 days: what would renting those 16 GPUs cost?'; after a serving plan, the GPUs the plan needs (not
    when the follow-up names other GPUs or a count: 'say we go with 4 of them')."""
    reading, fresh = turn.reading, turn.fresh
    if reading.hours is None or not j.named_gpus(reading) \
            or not rx.search(SPAN_OF_TIME + r"|\bmonthly\b", turn.lower) \
            or not (rx.search(j.COST_ASK, turn.lower) or fresh.pricing is not None):
        return False
    planned = next((c.result["options"][0] for c in turn.previous.calls
                    if c.tool == "plan_serving" and c.result and c.result.get("options")), None)
    if planned is not None and (not fresh.gpus or fresh.gpus == [(planned["gpu_id"], None)]) \
            and not rx.search(BARE_COUNT, fresh.text):
        reading.gpus = [(planned["gpu_id"], planned["total_gpus"])]
    return True


def traffic_asks_how_many(turn: Turn, journey: Journey) -> bool:
    """'and if traffic peaks at 10 req/s, how many cards then?': a plan, the count asked again."""
    reading, fresh = turn.reading, turn.fresh
    traffic = fresh.users or fresh.requests_per_s is not None or fresh.tokens_per_s_per_user is not None or (
        (reading.users or reading.requests_per_s is not None) and turn.previous.journey in ("serving", "cloud_cost", "rent_or_buy"))
    if not (traffic and reading.model and rx.search(r"\bhow many\b", turn.lower)):
        return False
    if reading.gpus:
        reading.gpus = [(reading.gpus[0][0], None), *reading.gpus[1:]]
    return True


def the_cost_of_that_run(turn: Turn, journey: Journey) -> bool:
    """'and what would that run cost on spot?' after a training time: the run's time and its bill."""
    run_cost = rx.sub(r"\b(?:that|the|this) run\b", "", turn.lower)  # 'would that run cost' asks no fit
    return turn.previous.journey == "training_time" and rx.search(j.COST_ASK, run_cost) is not None and not rx.search(
        "|".join((j.FIT_ASK, j.LIMIT, j.ESTIMATE_ASK, SPAN_OF_TIME)), run_cost)


# the journey a follow-up turns to, and when, walked in order (renting_for_a_time and traffic_asks_how_many also set the GPUs)
TURNS_TO: tuple[tuple[str, Callable[[Turn, Journey], object]], ...] = (
    # 'how many MI300X to host X?' then 'ok and for 100 concurrent users?': a serving plan
    ("serving", lambda turn, _: turn.previous.journey in ("which_gpu", "estimate") and not asks_anything(turn.question)
     and ((turn.fresh.users or 0) > 1 or turn.fresh.requests_per_s is not None) and j.JOURNEY_BY_NAME["serving"].applies(turn.reading)),
    # 'ok so how many A100s is that' after a memory estimate or a fit
    ("which_gpu", lambda turn, journey: turn.fresh.how_many_gpus and journey is not None and journey.name in ("estimate", "fit")
     and not rx.search(j.ESTIMATE_ASK + "|" + j.FIT_ASK, turn.lower)),
    ("cloud_cost", renting_for_a_time),
    # 'would h100s be a better fit than l40s for this workload?'
    ("compare", lambda turn, _: len(j.named_gpus(turn.reading)) >= 2 and rx.search(
        j.COMPARING + r"|\b(?:better|worse|faster|slower|cheaper) (?:\w+ )?than\b|\bwhich (?:one'?s|one is|is) (?:better|faster)\b"
        r"|\bworth (?:it |the (?:\w+ )?)?over\b", turn.lower)),
    # 'if we just bought the h200s at ~$32k a card, when does that beat renting?'
    ("rent_or_buy", lambda turn, _: j.named_gpus(turn.reading) and rx.search(j.BUY + r"|\bbought\b", turn.lower) and (
        turn.fresh.purchase_usd_per_gpu is not None or turn.fresh.years is not None
        or rx.search(r"\b(?:vs\.?|versus|or|than|beats?) (?:just )?rent\w*|break[ -]?even", turn.lower))),
    ("serving", traffic_asks_how_many),
    ("training_time", the_cost_of_that_run),
)


def turned_to(turn: Turn, journey: Journey) -> Journey:
    for name, when in TURNS_TO:
        journey = j.JOURNEY_BY_NAME[name] if when(turn, journey) else journey
    return journey


FOLLOW_UP_JOURNEY_RULES: tuple[Callable[[Turn, Journey], Journey], ...] = (keep_the_journey, turned_to)


def choose(reading: Reading) -> j.Journey | None:
    """The first journey that applies; a model or GPU outside the catalog stands in as known (the answer says not)."""
    stand_in = reading
    if reading.unknown_models and not j.has_subject(reading):  # pick the journey as if the model were known
        stand_in = dataclasses.replace(stand_in, params_billions=1.0)
    unknown_gpu = dataclasses.replace(stand_in, gpus=[("unknown", None)])  # as if the GPU were known; the answer says not
    tries = [unknown_gpu if reading.unknown_gpus and not reading.gpus else stand_in]
    if reading.unknown_gpus and not j.named_gpus(reading):  # 'RTX 4000 Ada, the 20GB one: specs?'
        tries.append(unknown_gpu)
    return next((journey for stand_in in tries for journey in j.JOURNEYS if journey.applies(stand_in)), None)


# ---- values a chosen journey reads as told of, not asked for
@dataclass(frozen=True)
class Told:
    """A value the question tells of while the chosen journey asks for it (or has no use for it): `when` it is so, of
    the reading, the journey's name and the asking words; the spans that said it say so (`meaning`, formatted with
    what they said before), and the field is set aside."""
    field: str
    when: Callable[[Reading, str, str], object]
    said: Callable[[Span], object]
    meaning: str


TOLD = (  # 'OOMs at 128k. max?', 'single user does ~150 tok/s ... how many concurrent users can it handle?', 'right now I'm at bs 2'
    Told("seq_len", lambda reading, journey, _: journey == "limits" and j.asks_past_told_context(reading),
         lambda span: span.kind == "seq_len", "a length the question tells of, not asks for (the longest is asked)"),
    Told("users", lambda reading, journey, asking: journey == "limits" and reading.users == 1 and rx.search(
        r"\bhow many (?:\w+ )?(?:users|people|sessions|requests|chats|streams)\b", asking),
         lambda span: span.meaning == "1 concurrent users", "one user, told of (how many is what is asked)"),
    Told("batch_size", lambda reading, journey, _: journey == "limits" and j.asks_past_told_batch(reading),
         lambda span: span.kind == "batch_size", "a batch the question tells of, not asks for (the largest is asked)"),
    Told("utilization", lambda reading, journey, _: journey != "rent_or_buy" and reading.utilization is not None
         and not rx.search(j.BUY + r"|\bbought\b", reading.asked),  # 'up 24/7' of a GPU pick: nothing weighs a share of the time
         lambda span: span.meaning.startswith("utilization"), "{} (not used: nothing here weighs owning against renting)"),
    Told("hours", lambda reading, journey, asking: journey == "training_time" and reading.hours is not None
         and rx.search(TRAINING_TIME_ASK, asking),  # 'a box reserved for two weeks ... how long?'
         lambda span: rx.fullmatch(r"[\d,.]+ hours", span.meaning), "{}, a time told of (how long the run takes is what is asked)"),
)


def told_not_asked(reading: Reading, journey: str, asking: str) -> None:
    for row in TOLD:
        if row.when(reading, journey, asking):
            for span in reading.spans:
                if row.said(span):
                    span.meaning = row.meaning.format(span.meaning)
            setattr(reading, row.field, None)


def tokens_train(reading: Reading, journey: str, asking: str) -> None:
    if journey == "cheapest_method" and reading.workload is None and reading.training_tokens:
        reading.workload = "training"  # 'adapt X to our docs, 40M tokens, one epoch: the cheapest way?' trains


def a_rental_of_years(reading: Reading, journey: str, asking: str) -> None:
    if journey == "cloud_cost" and reading.hours is None and reading.years is not None:
        reading.hours, reading.years = reading.years * HOURS_PER_YEAR, None  # 'rent 8 h100s for a year': the rental's length
        span = next((span for span in reading.spans if rx.fullmatch(r"[\d.]+ years?", span.meaning)), None)
        if span is not None:
            span.meaning = f"{number(reading.hours)} hours"


def precision_without_a_model(reading: Reading, journey: str, asking: str) -> None:
    if journey in ("gpu_card", "cloud_cost", "rent_or_buy", "compare") and not j.has_subject(reading) \
            and reading.weights_dtype:  # 'trainium2: memory and bf16 TFLOPS?': a precision with no model to apply it to
        reading.notes.append(f"'{reading.weights_dtype}' names a precision, but there is no model to apply it to")
        reading.weights_dtype, reading.other_weights = None, []


SETTLE_RULES: tuple[Callable[[Reading, str, str], None], ...] = (
    told_not_asked, tokens_train, a_rental_of_years, precision_without_a_model)
