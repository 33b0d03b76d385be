"""A conversation: whether a question changes the last one (a follow-up) or starts afresh, and what a follow-up's
words change of the last reading: the new question's fields laid over the last reading, then MERGE_RULES in order."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpusizer.catalog import Catalog
from gpusizer.tools.memory.model.parameters import count_parameters

from . import journeys as j
from . import regex as rx
from . import vocabulary as v
from .answers import AskAnswer
from .reading import EPOCHS, Reading, epoch_count, sibling_of
from .slots import Span
from .turns import BARE_COUNT, choose

UNSET = Reading(text="")  # every field at its default: a field said by a question differs from it (0 and False are said)
KEPT_FROM_BEFORE = ("text", "asked", "asking", "aside", "reports_count", "spans", "ignored", "notes", "method", "method_said",
                    "workload", "params_billions")  # set by carried_over itself, not copied when the new question says them


def follow_up_of(previous: Reading, new: Reading) -> Reading | None:
    """The previous reading with what the new question changes, when the new question reads as a follow-up."""
    if not reads_as_follow_up(previous, new):
        return None
    merged = carried_over(previous, new)
    for rule in MERGE_RULES:
        rule(merged, previous, new)
    return merged


# A question names its own subject when it names what its journey is about: a GPU whose card it asks; GPUs the last
# question did not name for a price, a comparison or the biggest model they hold; otherwise a model, and a GPU where
# it asks a fit, a speed or a limit.
GPU_SUBJECT = ("gpu_card", "biggest_model", "cloud_cost", "rent_or_buy", "compare")
CARD_ASK = r"\b(?:specs?|bandwidth|tdp|t?flops)\b|\bwhat(?: is|'s|s) (?:an?|this|that|the) ·|\bhow much (?:memory|vram)\b"
# ... and even then it carries on when it opens as a follow-up or points back at the last one
FOLLOW_UP_CUES = (r"^(?:(?:ok(?:ay)?|so|actually|lol|yeah|figured|alright|well|oh|hmm)\W+){0,3}(?:and|what about|how about|what if"
                  r"|same|back to|(?:let's )?say|forget)\b|\binstead\b|\bthen\W*$|\b(?:for|with|on|into) (?:this|that)\b|\bthe same\b"
                  r"|\b(?:does|do|would) (?:that|it|this) (?:compare|stack up)\b")


def names_a_model(reading: Reading) -> bool:
    return bool(reading.models or reading.unknown_models or reading.params_billions is not None)


def reads_as_follow_up(previous: Reading, new: Reading) -> bool:
    """Issue #35's rule: a question that names its own subject and journey starts afresh ('how much does it cost to
    rent 4 a100s for a day?' after a QLoRA fit), unless it opens as a follow-up or points back ('what if i rent an
    h100 instead'); any other question changes the last one ('would gemma 3 27b fit?' after a card was said)."""
    return not names_its_own_subject(previous, new) or rx.search(FOLLOW_UP_CUES, new.text) is not None


def names_its_own_subject(previous: Reading, new: Reading) -> bool:
    journey = choose(new)
    gpus = bool(new.gpus or new.unknown_gpus)
    if journey is None or journey.name == "gpu_card":  # a card's own question: 'what is an mi300x?', whatever came before
        return journey is not None and rx.search(CARD_ASK, new.asked) is not None
    if journey.name in GPU_SUBJECT:
        return gpus and not {g for g, _ in new.gpus} & {g for g, _ in previous.gpus}
    # a bare size after a model is its sibling ('does the 20b fit?' after gpt-oss-120b), not a model of its own
    model = new.models or new.unknown_models or new.params_billions is not None and not previous.models
    needs_gpu = rx.search(j.FIT_ASK + "|" + j.SPEED + "|" + j.LIMIT, new.asked) and not rx.search(j.ESTIMATE_ASK, new.asked)
    return bool(model) and (gpus or not needs_gpu)


def carried_over(previous: Reading, new: Reading) -> Reading:
    """The last reading, with every field the new question set; its own text, spans and ignored words."""
    merged = dataclasses.replace(previous, text=f"{new.text} {previous.text}", asked=f"{new.asked} {previous.asked}",
                                 asking=new.asking or [(0, len(new.asked))], aside=new.aside, reports_count=new.reports_count,
                                 spans=new.spans, ignored=new.ignored, notes=list(new.notes))
    for field in dataclasses.fields(Reading):
        value = getattr(new, field.name)
        if field.name not in KEPT_FROM_BEFORE and value != getattr(UNSET, field.name):
            setattr(merged, field.name, value)
    if new.models or new.params_billions is not None:
        merged.models, merged.params_billions, merged.unknown_models = new.models, new.params_billions, new.unknown_models
    if new.workload and (new.method_said or previous.workload != "training"):  # 'train on that card' keeps the LoRA
        merged.workload, merged.method, merged.method_said = new.workload, new.method, new.method_said
    return merged


# ---- what a follow-up's words change of the merged reading: the GPUs, the fields asked again, then READ_AGAINST
def gpus_of_the_follow_up(merged: Reading, previous: Reading, new: Reading) -> None:
    """'the same on h200s': the count before on the new GPU; 'how's that compare to X', 'throw the B200 and the MI300X
    in too': the GPUs before and the new ones."""
    if new.gpus and new.gpus[0][1] is None and previous.gpus and (previous.gpus[0][1] or 1) > 1 and (
            rx.search(r"\bsame\b", new.text) or rx.search(r"\b[a-z]*\d+[a-z]*s\b", new.text)):
        merged.gpus = [(new.gpus[0][0], previous.gpus[0][1]), *new.gpus[1:]]
    adds = r"\b(?:throw|add|include|put)\b.*\b(?:in|too|as well|also)\s*$"
    if previous.gpus and (len(new.gpus) == 1 and rx.search(j.COMPARING, new.text) or new.gpus and rx.search(adds, new.text)):
        merged.gpus = [*previous.gpus, *(g for g in new.gpus if g[0] not in {p for p, _ in previous.gpus})]


FORGETS_GPUS = (r"\b(?:forget|ignore|never ?mind|leave aside|set aside) (?:about )?(?:the|that|those|our|my) (?:box|card|cards|gpus?"
                r"|node|nodes|server|machine|rig|hardware|cluster)\b")  # 'ok forget the box for a sec'


POINTER = (r"\bon (?:one|1|two|2|both|each|all|any) of (?:those|these|them)\b"  # the words a follow-up points back with
           r"|\b(?:of )?(?:that|this|the same)(?: one)? (?:card|gpu|box|setup|node|machine|model|config|data)\b"
           r"|\b(?:all )?(?:that|it|them|those)\b")


def what_is_asked_again(merged: Reading, previous: Reading, new: Reading) -> None:
    """A field the follow-up asks for is no longer the one told before: the GPU, the model, the batch, the context, and
    whether the GPU count is the question."""
    if rx.search(j.ABSOLUTE_SPEED + "|" + j.COMPARING, new.asked) and not new.how_many_gpus:
        merged.how_many_gpus = False  # 'what speed would each of those 200 people see?' after 'how many H100s?'
    if rx.search(r"\bhow many (?:of )?(?:those|these|them|the|such)(?: \w+)? (?:cards|gpus)\b|\bhow many of (?:those|these|them)\b",
                 new.text):
        merged.how_many_gpus = True  # 'damn. how many of those cards would i need then?'
    if not new.gpus and (rx.search(FORGETS_GPUS, new.text) or rx.search(r"\bwhich (?:\w+ )?(?:gpus?|cards?)\b", new.asked)):
        merged.gpus, merged.gpu_at = [], []  # 'which gpu should i get instead?': the GPU is the question
    if rx.search(j.BIGGEST, new.asked) and not names_a_model(new):  # 'if i grab a second 3090, whats the biggest model?'
        merged.models, merged.model_at, merged.params_billions, merged.unknown_models = [], [], None, []
    if not new.spans:  # 'on that one card then?', 'the cheapest card that'd hold all that?': the reading before
        pointer = rx.search(POINTER, new.text)
        merged.spans = [Span(pointer.group(0) if pointer else new.text, "what the previous question asked about")]
    limit = rx.search(j.LIMIT, new.asked)
    if limit is None or limit.group(0) == "how long" and (new.training_tokens or merged.workload == "training"):
        return  # 'over 20B tokens, how long does it take?': the run's time, not the longest context
    if j.limit_is_batch(limit.group(0), new.asked[limit.end():]):
        if new.batch_size is None:
            merged.batch_size = None  # 'how many concurrent users can it take?' after 'for a single sequence'
    elif new.seq_len is None:
        merged.seq_len = None  # 'what's the longest it will train at, then?'


@dataclass(frozen=True)
class ReadAgainst:
    """Words of a follow-up read against the reading before ('600 a minute' after a rate): the field's new value from
    the match, the last reading and the merged one (None: the row does not apply), and what the words meant."""
    field: str
    pattern: str
    value: Callable[[re.Match[str], Reading, Reading], Any]
    meaning: str


def epochs_of_the_data(passes: re.Match[str], previous: Reading, merged: Reading) -> float | None:
    before = rx.search(EPOCHS, previous.text)  # the data once, then as many passes as now asked
    tokens = previous.training_tokens
    return None if tokens is None else tokens / (epoch_count(before) if before else 1.0) * epoch_count(passes)


def rate_of_that_load(found: re.Match[str], previous: Reading, merged: Reading) -> float | None:
    """'what if its 600 a minute' after a rate; 'and if we double the traffic?'."""
    if previous.requests_per_s is None or found[2] in ("users", "people"):
        return None
    per_second = previous.requests_per_s * SCALES[found[1]] if found[1] else float(found[3]) / (
        60.0 if found[5] else 3600.0 if found[6] else 1.0)
    return round(per_second, 4)


def users_of_that_load(found: re.Match[str], previous: Reading, merged: Reading) -> int | None:
    """'and if we double the users?', unless the load before was a rate."""
    if not previous.users or not found[1] or previous.requests_per_s is not None and found[2] not in ("users", "people"):
        return None
    return max(1, round(previous.users * SCALES[found[1]]))


def count_of(word: str) -> int:
    return int(word) if word.isdigit() else COUNT_WORDS[word.removesuffix(" of")]


def counted(found: re.Match[str], previous: Reading, merged: Reading) -> list[tuple[str, int | None]] | None:
    """'what if we grab two nodes instead' (eight GPUs each), 'ok and 2 of them?': of the GPU asked about."""
    if not merged.gpus or rx.search(EACH, found.string):
        return None
    gpus = count_of(next(word for word in found.groups() if word)) * (v.GPUS_PER_NODE if found[1] else 1)
    return [(merged.gpus[0][0], gpus), *merged.gpus[1:]]


def one_named(found: re.Match[str], previous: Reading, merged: Reading) -> list[tuple[str, int | None]] | None:
    """'on the ada card' after an RTX 6000 Ada and an A6000, 'how fast on the first one?': one of the GPUs before."""
    word = found[1] or found[2]
    picked = ([previous.gpus[ORDINALS[word]]] if word in ORDINALS and ORDINALS[word] < len(previous.gpus)
              else [g for g in previous.gpus if word in g[0].split("-")])
    return picked if len(previous.gpus) >= 2 and len(picked) == 1 else None


SCALES = {"double": 2.0, "twice": 2.0, "triple": 3.0, "quadruple": 4.0, "halve": 0.5, "half": 0.5}
SCALED = (rf"\b({'|'.join(SCALES)}) (?:the |our |those |that )?(users|people|traffic|load|requests|rate|qps|rps)\b"
          r"|(?<![\w.$])(\d+(?:\.\d+)?) ?(?:an?|per|/) ?(?:(s|sec|second)|(min|minute)|(h|hr|hour))\b")
ORDINALS = {"first": 0, "second": 1, "third": 2, "last": -1}
EACH = r"\b(\d+) of each\b"
COUNT_WORDS = {"a pair": 2, "a couple": 2, "both": 2, "second": 2, "third": 3, "fourth": 4}
READ_AGAINST = (  # walked in order: a later row reads the merged reading an earlier one changed
    ReadAgainst("training_tokens", EPOCHS, epochs_of_the_data,  # 'what about 3 epochs of that data?'
                "{found[1]} epochs of the data asked about before ({value:.3g} tokens in all)"),
    ReadAgainst("requests_per_s", SCALED, rate_of_that_load, "{value:g} requests per second (the rate asked about before)"),
    ReadAgainst("users", SCALED, users_of_that_load, "{found[1]} the load asked about before"),
    ReadAgainst("gpus", rf"\bthe ([a-z]{{2,}}) (?:card|one|gpu)\b|\b(?:on |with |for )?the ({'|'.join(ORDINALS)}) (?:one|card|gpu"
                r"|option)\b", one_named, "GPU {value[0][0]} (named before)"),
    ReadAgainst("gpus", rf"\b(\d+|a pair of|a couple of) (?:nodes|boxes|servers)\b(?!.*?(?:{BARE_COUNT}))|{BARE_COUNT}", counted,
                "{value[0][1]} of the GPU asked about before"),
    ReadAgainst("gpus", EACH, lambda found, _, merged: [(gpu, int(found[1])) for gpu, _ in merged.gpus] if len(merged.gpus) >= 2
                else None, "{value[0][1]} of each GPU asked about before"),  # 'same comparison but for deepseek v3, 8 of each?'
)


def read_against_the_last(merged: Reading, previous: Reading, new: Reading) -> None:
    for row in READ_AGAINST:
        found = rx.search(row.pattern, new.text)
        value = row.value(found, previous, merged) if found and getattr(new, row.field) == getattr(UNSET, row.field) else None
        if found is None or value is None:
            continue
        if row.field == "gpus" and len(value) != len(merged.gpus):
            merged.gpu_at = [0]  # one of the GPUs before, picked
        setattr(merged, row.field, value)
        read_again(merged, found.group(0), row.meaning.format(found=found, value=value))


MERGE_RULES: tuple[Callable[[Reading, Reading, Reading], None], ...] = (gpus_of_the_follow_up, what_is_asked_again,
                                                                       read_against_the_last)


def read_again(merged: Reading, words: str, meaning: str) -> None:
    """Words of a follow-up read against the question before ('600 a minute'): listed with what they meant, no longer
    among the ignored."""
    merged.ignored = [w for w in merged.ignored if w not in words.split()]
    merged.spans = [*merged.spans, Span(words, meaning)]


EARLIER = "(asked about earlier in the conversation)"
RELATIVE_SIZE = r"\bthe (bigger|larger|smaller|big|small) (?:one|model|variant|version|sibling)\b"
FAMILY_WORD = (r"\b(?:back to|go back to|return to|switch back to|revert to|again with|the) (?:the )?([a-z][a-z0-9.]{2,})"
               r"(?: one| model| again)?\b")  # 'ok back to mistral', 'the mistral one'


def of_size(model_id: str, size: str) -> bool:
    return rx.search(rf"(?<![\d.]){re.escape(size)}b", model_id.split("/")[-1].lower()) is not None


def model_of_the_follow_up(follow: Reading, fresh: Reading, earlier: Reading, seen: list[str], catalog: Catalog) -> Reading:
    """A model a follow-up names by a size or a word, not in full, read in turn (a later way reads the model an earlier
    one picked): a size is the last model's sibling ('and the 235b one?' after qwen3 30b a3b, when the catalog holds
    it); 'the bigger one' is the nearest bigger model named before ('either qwen2.5 32b or 72b ... starting with the
    32b'), else of its family; a size or a family word is the model the conversation asked about last that has it
    ('ok back to the 8b' after the 70b, 'ok back to mistral' after Mistral Small 24B then Qwen2.5 32B)."""
    reading, text, last = follow, fresh.text, earlier.models[:1]
    size = f"{follow.params_billions:g}" if follow.params_billions is not None else ""
    said = next((span for span in follow.spans if span.meaning == f"a {size}B-parameter model"), None)
    if last and said and not (follow.models or follow.unknown_models or rx.search(r"\b(?:models?|dense|moe|params?|parameters)\b",
                                                                                  text)):  # 'a 13b model': any of that size
        sibling = last[0] if of_size(last[0], size) else sibling_of(catalog, last[0], size)  # 'the 14b' after Qwen2.5-14B
        if sibling is not None:
            reading = with_model(follow, sibling, said.words, f"model {sibling} (the one asked about before)" if sibling == last[0]
                                 else f"model {sibling} (the {size}B sibling of {last[0]})")
    relative = rx.search(RELATIVE_SIZE, text)
    if relative and last and reading.models == earlier.models:
        bigger = relative[1] in ("bigger", "larger", "big")
        sizes = {m: count_parameters(catalog.model_by_id[m]).total for m in catalog.model_by_id}
        now = reading.models[0]
        others = [m for m in earlier.models[1:] if m in sizes] or [
            m for m in sizes if catalog.model_by_id[m].family == catalog.model_by_id[now].family]
        nearest = sorted((m for m in others if (sizes[m] > sizes[now] if bigger else sizes[m] < sizes[now])), key=lambda m: sizes[m],
                         reverse=not bigger)
        if nearest:
            reading = with_model(reading, nearest[0], relative[0],
                                 f"model {nearest[0]} (the {relative[1]} of the models asked about before)")
    if fresh.models:
        return reading
    names = {m: m.split("/")[-1].lower() for m in reversed(seen) if m not in reading.models[:1]}  # the latest first
    back = rx.search(r"\b(?:back to |again with |on )?the (\d+(?:\.\d+)?)b\b", text)
    picked = back and next((m for m in names if of_size(m, back[1])), None)
    if not picked and reading.models:  # 'the mistral one'
        back = rx.search(FAMILY_WORD, text)
        picked = back and next((m for m, name in names.items() if name.split("-")[0].startswith(back[1])), None)
    return with_model(reading, picked, back[0], f"model {picked} {EARLIER}") if back and picked else reading


def with_model(reading: Reading, model: str, words: str, meaning: str) -> Reading:
    """The reading with the model a follow-up's words name ('and the bigger one?', 'ok back to the 8b') in place of
    the model or size read before."""
    changed = dataclasses.replace(reading, models=[model], model_at=[0], params_billions=None, unknown_models=[], spans=[
        s for s in reading.spans if not s.meaning.startswith("model ") and not s.meaning.endswith("B-parameter model")])
    read_again(changed, words, meaning)
    return changed


def conversation_models(previous: AskAnswer | None) -> list[str]:
    """The models a conversation has asked about, oldest first, each once (where it was last asked about)."""
    if previous is None:
        return []
    named = [*previous._models_seen, *(previous._reading.models[:1] if previous._reading is not None else [])]
    return [m for n, m in enumerate(named) if m not in named[n + 1:]]
