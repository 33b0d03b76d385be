"""ask(): read a question (or a follow-up to the last one), pick its journey, answer every part it asks or say which
part it did not, and list what was read, assumed and ignored."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.figures import gib
from gpusizer.tools.memory.answer import UNIFIED_MEMORY_NOTE
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.pricing import cheapest_fits

from . import journeys as j
from . import regex as rx
from . import vocabulary as v
from .answers import AskAnswer, ToolCall, call
from .conversation import conversation_models, follow_up_of, model_of_the_follow_up
from .reading import Reading, facts, read_question, set_aside_told, word_starts
from .second_readings import LABELS, PARTS, hesitation, second_reading
from .turns import FOLLOW_UP_JOURNEY_RULES, SETTLE_RULES, TRAINING_TIME_ASK, Turn, asks_anything, choose
from .wording import defaults_used, interpretation, not_understood_text

EXAMPLES = [
    "how much VRAM for llama 3.1 70b at 8k context?",
    "will mixtral fit on 2x H100?",
    "can a 24GB card run qwen2.5 32b awq with vllm?",
    "which GPU should I use to QLoRA qwen2.5-14b?",
    "longest context for llama 3.1 8b on a 4090",
    "how fast is llama 3.1 8b q4_k_m on a 3090 with ollama?",
    "compare h100, mi300x and l40s for llama 3.1 70b",
    "cheapest way to rent 8 H100s for 100 hours",
    "rent or buy 8 h100 at 60% utilization over 4 years",
    "how long to train a 7b model on 1T tokens with 64 h100s?",
    "how many GPUs to serve llama 3.1 70b to 500 concurrent users with vllm?",
]
NEEDS_A_NAMED_GPU = ("gpu_card", "cloud_cost", "rent_or_buy", "compare")  # a memory size alone cannot answer these


def answer_unknown_gpu(reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str:
    name = reading.unknown_gpus[0]
    close = ", ".join(catalog.similar_gpus(name))
    text = (f"The {name} is not in the catalog (closest names: {close}); give its memory (e.g. 'a 10GB card') and I "
            "will check the fit.")
    if j.has_subject(reading):
        result = call(calls, catalog, estimate_vram, **j.workload_arguments(reading))
        text = f"It needs {gib(result.total_bytes)} of GPU memory. " + text
    return text


APPLE = r"\bm[1-4]\b|\bmac|\bapple"


ASKS_FOR_A_MODEL = (r"\b(?:biggest|largest|best|most big)(?: \w+){0,2} (?:models?|llms?)\b"
                    r"|\bwhat (?:models?|llms?) (?:can|could|will|would)\b")
MODEL_CARD_ASK = (r"\b(?:architecture|how many (?:experts|layers|heads|params|parameters)|active param\w*|is it (?:an? )?moe"
                  r"|what (?:even |exactly )?is it)\b")


INPUT_MEANINGS = re.compile(r"(?:batch \d|[\d,]+ tokens of context|engine |weights in |KV cache in |[\d,.]+ hours"
                            r"|[\d,]+ concurrent users|[\d.]+ requests per second|[\d.]+ tokens/s per user|[\d,]+ output tokens"
                            r"|purchase \$|rent \$|utilization|[\d.]+ years?|[\d.e+]+ training tokens|a [\d.]+B-parameter model"
                            r"|a GPU with \d+ GB|sharding |tensor parallel)")


def read_from_backstory(reading: Reading) -> list[str]:
    """Inputs read outside the sentences that ask ('we have 4x A100. will X fit?': the A100s), so they are not silent:
    each GPU with its count, the model asked about, and what INPUT_MEANINGS reads."""
    starts, counted = word_starts(reading.text), dict(zip(reading.gpu_at, reading.gpus, strict=True))
    told = [s for s in reading.spans if 0 <= s.at < len(starts) and not any(a <= starts[s.at] < b for a, b in reading.asking)]
    def quoted(words: str) -> str:  # 'h100 pcie —': the words, not the dash beside them
        return "'" + " ".join(w for w in words.split() if rx.search(r"\w", w)) + "'"
    found = [f"{quoted(s.words)} ({counted[s.at][1] or 1} × {counted[s.at][0]})" for s in told if s.kind == "gpu" and s.at in counted]
    found += [f"{quoted(s.words)} ({s.meaning})" for s in told if reading.model_at[:1] == [s.at] and s.meaning.startswith("model ")
              or not s.set_aside and INPUT_MEANINGS.match(s.meaning)]  # the model's spans come first: find_names reads it
    return list(dict.fromkeys(found)) if reading.asking else []


def parts_asked(text: str, covered: tuple[str, ...], training: bool = False, gpus: int = 0, how_many_gpus: bool = False) -> list[str]:
    """The asks a question makes beyond what its main journey covers: 'fit ... and how fast', '... and what would it cost'."""
    asks = {"speed": j.SPEED,
            "cost": j.CHEAPEST_WAY + r"|\b(cost\w*|price\w*|pay|spend|bill|how much would (?:it|that) (?:be|run)|go(?:es)? for"
                                     r"|per hour|to rent)\b|\$",
            "which_gpu": j.WHICH_GPU + r"|\bhow many (?:gpus?|cards?) (?:would|will|do|does|is)\b", "limits": j.LIMIT}
    found = ["time"] if "time" not in covered and training and rx.search(TRAINING_TIME_ASK, text) else []
    if "time" in covered or found:  # 'how long' asks the run's duration, which the journey answers, not the longest context
        text = rx.sub(r"\bhow long\b", "", text)
    found += [name for name, pattern in asks.items() if name not in covered and rx.search(pattern, text)]
    if how_many_gpus and "which_gpu" not in covered and "which_gpu" not in found:
        found.append("which_gpu")  # 'how much memory ..., and how many A100 40GB's does that come out to?'
    memory = j.ESTIMATE_ASK + r"|\b(?:also|and|plus),? (?:the |its |total )?(?:vram|memory|gpu memory)\b"  # '... also vram in fp8?'
    if "fit" not in covered and (gpus and rx.search(j.FIT_ASK, text) or rx.search(memory, text)):
        found.append("fit")  # '... also, is one of them enough to run it?'
    if "compare" not in covered and gpus > 1 and rx.search(j.COMPARING + r"|\b(?:faster|slower|better|worse|cheaper) than\b", text):
        found = [f for f in found if f != "speed"] + ["compare"]  # '... and is it faster than an h100?': the comparison
    if "card" not in covered and rx.search(r"\b(specs?|memory bandwidth|bus width|tdp)\b|" + MODEL_CARD_ASK, text):
        found.append("card")  # '... and what is the 7900 xtx's memory bandwidth on paper?'
    renting = "cost" in covered or rx.search(j.RENT_OR_OWN, text)  # a rental bill asked: 'or just buy them?' is rent-or-own
    if "buy" not in covered and rx.search(j.BUY, text) and renting:  # 'the better buy' of two cards is no rent-or-own
        found.append("buy")
    return found


def estimated_fits(calls: list[ToolCall]) -> list[dict[str, Any]]:
    return [fit for made in calls if made.tool == "estimate_vram" for fit in (made.result or {}).get("fits", [])]


def asks_model_card(reading: Reading) -> bool:  # '... also, Scout's architecture?'
    return bool(reading.models) and j.said(reading, MODEL_CARD_ASK)


def answer_part(part: str, reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str | None:
    """A second part answered by its own journey, or None where the reading lacks what it needs."""
    gpus, subject = j.named_gpus(reading), j.has_subject(reading)
    if part == "compare" and len(gpus) > 1:
        return "Compared: " + j.answer_compare(reading, catalog, calls)
    if part == "card" and asks_model_card(reading):
        return "Model: " + j.answer_model_card(reading, catalog, calls)
    if part == "card" and gpus and not reading.unknown_gpus:
        return "Card: " + j.answer_gpu_card(reading, catalog, calls)
    if part == "fit" and subject:  # '... and would it fit on 2x H100?' or '... how much vram?' after a card
        return "Fit: " + (j.answer_fit if reading.gpus else j.answer_estimate)(reading, catalog, calls)
    if part == "time" and subject:
        fits = [SimpleNamespace(**f) for f in estimated_fits(calls)]
        ranked = [c for c in cheapest_fits(catalog, fits) if c.usd_per_hour] if not reading.gpus else []
        if ranked:  # 'best card for X? also how long for 20M tokens': on the card just recommended
            reading = dataclasses.replace(reading, gpus=[(ranked[0].gpu_id, ranked[0].gpus_needed)])
        return "Time: " + j.answer_training_time(reading, catalog, calls)
    if part == "speed" and subject:
        return "Speed: " + j.answer_speed(reading, catalog, calls)
    if part == "which_gpu" and subject:
        return "Which GPU: " + j.answer_which_gpu(reading, catalog, calls)
    if part == "buy" and gpus:
        return "Rent or buy: " + j.answer_rent_or_buy(reading, catalog, calls)
    if part == "limits" and subject and reading.gpus:  # '... and how much context can each hold?'
        return "Limits: " + " ".join(j.answer_limits(dataclasses.replace(reading, gpus=[gpu]), catalog, calls)
                                     for gpu in reading.gpus[:4])
    if part == "cost" and subject and j.said(reading, j.CHEAPEST_WAY):  # '..., and the cheapest way?'
        return "Cheapest way: " + j.answer_cheapest_method(reading, catalog, calls)
    if part == "cost" and gpus:  # the GPUs the fit needs, at least as many as asked
        gpu_id, count = gpus[0]
        needed = [fit["gpus_needed"] for fit in estimated_fits(calls) if fit["gpu_id"] == gpu_id]
        count = max(count or 1, *needed) if needed else count
        return "Cost: " + j.answer_cloud(dataclasses.replace(reading, gpus=[(gpu_id, count)]), catalog, calls)
    if part == "cost" and subject:
        return "Cost: " + j.answer_which_gpu(reading, catalog, calls)
    return None


@dataclasses.dataclass
class Understood:
    """A question read in its conversation, its journey chosen, before any tool is called (the corpus judges this)."""
    question: str
    reading: Reading
    fresh: Reading  # what the new question says on its own
    follow: Reading | None  # the previous reading with the new question's changes, when it reads as a follow-up
    journey: j.Journey | None
    troubleshooting: bool
    seen: list[str]  # the models named so far in the conversation

    @property
    def journey_name(self) -> str:
        return self.journey.name if self.journey is not None else "not_understood"

    def facts(self) -> dict[str, object]:
        """The reading as `AskAnswer.reading` holds it: empty when nothing was understood."""
        return facts(self.reading) if self.journey is not None else {}


def understand(question: str, catalog: Catalog, previous: AskAnswer | None = None) -> Understood:
    """Read a question (or a follow-up to `previous`) and choose its journey; no tool is called."""
    reading = read_question(question[:2000], catalog)
    earlier = previous._reading if previous is not None else None
    follow = follow_up_of(earlier, reading) if earlier is not None else None
    fresh, seen = reading, conversation_models(previous)
    if follow is not None and earlier is not None:
        reading = model_of_the_follow_up(follow, fresh, earlier, seen, catalog)
    elif reading.asking:
        set_aside_the_story(reading)
    journey = choose(reading)
    asking_text = " ".join(reading.text[a:b] for a, b in reading.asking) or reading.text
    troubleshooting = follow is None and bool(rx.search(v.TROUBLESHOOTING, reading.text) and not asks_anything(asking_text)
                                              or rx.search(v.OFF_TOPIC, asking_text))  # 'which one has the nicest RGB?'
    if troubleshooting:  # 'Open WebUI can't talk to ollama since the update: set OLLAMA_HOST?': no sizing asked
        journey = None
    if follow is not None and previous is not None:
        turn = Turn(question, question.lower(), reading, fresh, follow, previous)
        for rule in FOLLOW_UP_JOURNEY_RULES:
            journey = rule(turn, journey)
    if journey is not None:
        for settle in SETTLE_RULES:
            settle(reading, journey.name, asking_text.lower())
    return Understood(question, reading, fresh, follow, journey, troubleshooting, seen)


def set_aside_the_story(reading: Reading) -> None:
    """'which gpu should I buy?' after a story of the cards one had: those are not the candidates."""
    asking = " ".join(reading.asked[a:b] for a, b in reading.asking)
    own = "".join(" " if any(a <= i < b for a, b in reading.aside) else c for i, c in enumerate(reading.text))
    alternatives = r"\b(vs\.?|versus|between|or(?! how| so\b| not\b| more\b| less\b| rent| buy| cloud| something))\b"
    candidates = (rx.search(alternatives, own) or rx.search(r"\bwhich one\b|\bwhich of\b|\bbetter\b", asking)) \
        and len(reading.gpus) > 1  # 'A or B: which one is better?'
    asks_for_hardware = rx.search(j.WHICH_GPU + "|" + j.CHEAPEST_WAY, asking) is not None  # 'the cheapest way to fine-tune it?'
    needed = any(rx.search(r"(?:^|\b(?:i|we) )(?:need|want) (?:\S+ ){0,2}$", " ".join(reading.text.split()[:at]) + " ")
                 for at in reading.gpu_at) or reading.hours is not None and not rx.search(j.WHICH_GPU, asking)  # 'need an A100
    # for a month. cheapest option?', '2x H100 for 200 hours. cheapest option?': the job's GPUs, its providers asked
    set_aside_told(reading, gpus=asks_for_hardware and not candidates and not needed,  # 'torn between A and B
                   subject=rx.search(ASKS_FOR_A_MODEL, asking) is not None)


def ask(question: str, catalog: Catalog, previous: AskAnswer | None = None) -> AskAnswer:
    """Answer a plain-words question with the tools, or explain what was understood. With `previous` (the last
    answer), a follow-up such as 'and on an A100?' or 'what about 4-bit?' changes that question's reading."""
    return answer_understood(understand(question, catalog, previous), catalog, previous)


def answer_understood(understood: Understood, catalog: Catalog, previous: AskAnswer | None = None) -> AskAnswer:
    """Call the tools the chosen journey needs and word the answer, with what was read, assumed and ignored."""
    reading, journey, follow = understood.reading, understood.journey, understood.follow
    set_aside = list(dict.fromkeys(s.meaning if s.set_aside else f"'{s.words}' ({s.meaning})" for s in reading.spans
                                   if s.set_aside or s.meaning.startswith("ruled out")))
    backstory = read_from_backstory(reading) if follow is None else []
    base: dict[str, Any] = {"question": understood.question, "reading": understood.facts(), "ignored": reading.ignored,
                            "follow_up": follow is not None, "read": [f"'{s.words}': {s.meaning}" for s in reading.spans],
                            "set_aside": set_aside, "from_backstory": backstory}
    if journey is None:
        text = not_understood_text(reading, EXAMPLES, understood.troubleshooting)
        answer = AskAnswer(understood=False, interpretation="not understood", answer=text, **base)
    else:
        calls: list[ToolCall] = []
        asked_now = (reading.asked.split(previous._reading.asked)[0]
                     if follow is not None and previous is not None and previous._reading is not None else reading.asked)
        lines, answered, not_answered, second = answer_lines(reading, journey, asked_now, catalog, calls, follow is None)
        defaults = defaults_used(reading, journey.name, catalog, calls)
        text = "I read this as: " + interpretation(reading, journey.name, catalog, calls)
        if follow is not None:
            text = "Follow-up of the previous question. " + text
        if second is not None:
            text += "\n" + hesitation(journey.name, *second)
        for heading, items in (("From the sentences that tell (not the one that asks): ", backstory),  # a misread setup shows
                               ("Set aside (named, but not what I read you as asking about): ", set_aside),
                               ("Assumed (not in your question): ", defaults)):
            if items:
                text += "\n" + heading + "; ".join(items) + "."
        if reading.ignored:
            text += "\nIgnored: " + ", ".join(f"'{w}'" for w in reading.ignored) + "."
        answer = AskAnswer(understood=True, journey=journey.name, interpretation=text, answer="\n".join(lines), calls=calls,
                           defaults_used=defaults, not_answered=not_answered, answered=answered,
                           readings=[journey.name, second[0]] if second else [journey.name], **base)
    answer._reading, answer._models_seen = reading, understood.seen
    return answer


def answer_lines(reading: Reading, journey: j.Journey, asked_now: str, catalog: Catalog,
                 calls: list[ToolCall], fresh: bool = True) -> tuple[list[str], list[str], list[str], tuple[str, list[str]] | None]:
    """The answer's lines: the journey's own, then each variant (another method or format, another GPU named) and each
    further part asked; with the parts answered and those named as not answered."""
    lines: list[str] = []
    answered, not_answered = list(journey.covers), []

    def answer_main(variant: Reading) -> str:
        if variant.unknown_models and not j.has_subject(variant):
            return (f"{variant.unknown_models[0]} is not in the catalog and the question gives no size: name its Hugging "
                    "Face id (org/name, read from the Hub) or its size in billions (e.g. '42B') to size it.")
        if variant.unknown_gpus and not j.named_gpus(variant) and (not variant.gpus or journey.name in NEEDS_A_NAMED_GPU):
            return answer_unknown_gpu(variant, catalog, calls)
        return journey.answer(variant, catalog, calls)

    def attempt(prefix: str, variant: Reading, answer: Callable[[Reading], str] = answer_main) -> None:
        try:
            lines.append(prefix + answer(variant))
        except SizingError as error:
            lines.append(f"{prefix}the tool could not answer: {error}" if prefix else f"The tool could not answer: {error}")

    attempt("", reading)
    if journey.name == "gpu_card" and asks_model_card(reading):  # '... and phi-3's params?'
        lines.append("Model: " + j.answer_model_card(reading, catalog, calls))
        answered.append("card")
    for method in reading.other_methods[:1] if journey.name in ("fit", "estimate", "limits", "which_gpu") else []:
        attempt(f"With {method}: ", dataclasses.replace(reading, method=method))
    for other in reading.other_weights[:3] if journey.name in ("fit", "estimate", "limits", "speed", "which_gpu") else []:
        attempt(f"With {other}: ", dataclasses.replace(reading, weights_dtype=other))
    buying = ("buy",) if journey.name == "which_gpu" and any(s.kind == "budget_usd" for s in reading.spans) else ()  # cards to buy
    if "speed" not in answered and j.lead_of(reading) == "throughput" and j.capacity_asked(reading, journey.name):
        answered.append("speed")
    for part in parts_asked(asked_now, (*answered, *buying), training=reading.workload == "training",
                            gpus=len(reading.gpus) + len(reading.unknown_gpus), how_many_gpus=reading.how_many_gpus):
        try:
            line = answer_part(part, reading, catalog, calls) if not reading.unknown_gpus else None
        except SizingError as error:
            line = f"The {part.replace('_', ' ')} part: the tool could not answer: {error}"
        if line is None:
            not_answered.append(f"the {part.replace('_', ' ')} part (ask it on its own, naming a GPU)")
        else:
            lines.append(line)
            answered.append(part)
    if journey.name in ("fit", "limits") and len(reading.gpus) > 1 and "limits" not in answered[len(journey.covers):]:
        for gpu in reading.gpus[1:3]:  # 'fit on a 4090 or a 3090?': each GPU named gets its answer
            attempt(f"On {gpu[0]}: ", dataclasses.replace(reading, gpus=[gpu]), lambda r: journey.answer(r, catalog, calls))
    second = second_reading(reading, journey.name, frozenset(c.tool for c in calls)) if fresh and not reading.unknown_gpus else None
    if second is not None:  # a quantity no answer so far used (second_readings.py)
        attempt(f"{LABELS[second[0]]}: ", reading, lambda r: j.JOURNEY_BY_NAME[second[0]].answer(r, catalog, calls))
        answered.append(PARTS[second[0]])
    return lines + closing_lines(reading, calls, not_answered), answered, not_answered, second


def closing_lines(reading: Reading, calls: list[ToolCall], not_answered: list[str]) -> list[str]:
    """What was named but no tool was called for (never silently), the reading's notes, the parts not answered."""
    called = {value for c in calls for value in [*c.arguments.values(), *(c.result or {}).values()] for value in
              (value if isinstance(value, list) else [value]) if isinstance(value, str)}
    unused = [f"model {m}" for m in reading.models[1:] if m not in called]
    unused += [f"GPU {g}" for g, _ in reading.gpus[1:] if g not in called and not g.endswith("GB")]
    lines = [f"Also named, not answered for here: {', '.join(dict.fromkeys(unused))} (ask about it on its own)."] if unused else []
    if reading.unknown_gpus and rx.search(APPLE, " ".join(reading.unknown_gpus)):
        lines.append(UNIFIED_MEMORY_NOTE)
    return lines + reading.notes + (["Not answered: " + "; ".join(not_answered) + "."] if not_answered else [])
