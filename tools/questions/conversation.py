"""A conversation: whether a question changes the last one (a follow-up) or starts afresh, and what a follow-up's
words change of the last reading: the new question's fields laid over the last reading, then MERGE_RULES in order."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from gpusizer.catalog import Catalog
from gpusizer.tools.memory.model.parameters import count_parameters

from . import journeys as j
from . import regex as rx
from . import vocabulary as v
from .answers import AskAnswer
from .reading import EPOCHS, Reading, epoch_count, sibling_of
from .slots import Span
from .turns import BARE_COUNT, asks_anything, choose

FOLLOW_UP_OPENING = (r"^(?:(?:ok(?:ay)?|fine|alright|cool|great|hmm|right|so|thanks|thank you|thx|ty|got it|perfect|nice|sweet|awesome"
                     r"|actually|damn|dang|yeah|yep|ugh|wow|oof|makes sense|figured|yeah figured|lol|haha|ehh?|ah|oh|welp|well|hmm+"
                     r") ?[,.!]? ?)?"
                     r"(?:and|what about|how about|same|now|then|follow[- ]?up|versus|vs\.?|(?:going |go )?back to"
                     r"|ok(?:ay)?|also|with|at|on|in|using|instead|what if|if|but|try|or|drop|raise|make it|switch|swap|stretch"
                     r"|how much (?:faster|slower|quicker|more|less|cheaper|longer)|how many of (?:those|these|them|the))\b")
POINTS_BACK = r"\binstead\b|\b(?:it|that|this one|the same|them|those)\b|\b(?:for|with|on) this\b|\b(?:in|on) there\b"
STRONG_POINTER = (r"\b(?:that|this|the same) (?:one )?(?:card|gpu|box|setup|node|machine|model|config)\b"  # 'on that one card'
                  r"|\bon (?:one|1|two|2|both|each|all|any) of (?:those|these|them)\b"
                  r"|\b(?:those|these|the) same (?:\d+ )?(?:gpus|cards|nodes|machines|boxes)\b"
                  r"|\bsame (?:model|load|traffic|users|setup|config|workload|math|question)\b"
                  r"|\b(?:those|these|the same) (?:\d+ )?(?:users|people|requests|sequences|seqs|sessions)\b"
                  r"|\bof (?:that|this|the same) data\b"
                  r"|\b(?:redo|re-do|recompute|rerun|re-run|recalculate|rework) (?:the|that|it|this)\b"
                  r"|\bdoes (?:that|this|it) change (?:the answer|anything|things|the math|the picture|your answer|the result)\b"
                  r"|\bthe \d+(?:\.\d+)?b\b(?! (?:model|dense|moe|params|parameters|tokens)\b)"  # 'does the 20b fit?' after the 120b
                  r"|\b(?:buy|rent|get) the \d+ [a-z]*\d+\w*s\b")  # 'should we just buy the four a100s?'
POINTS_AT_GPUS = r"\b(?:instead|then|that|those|these)\b"  # 'that mi300x'
MONEY_ASK = "|".join((j.BUY, j.RENT_OR_OWN, j.COST_ASK))
COUNT_WORDS = {"a pair": 2, "a couple": 2, "both": 2, "second": 2, "third": 3, "fourth": 4}
UNSET = Reading(text="")  # every field at its default: a field said by a question differs from it (0 and False are said)
SPEC_ASK = r"\b(?:specs?|bandwidth|tdp|tflops|flops)\b|\bwhat(?: is|'s|s) an? ·"  # 'what are the specs of the b200?' asks of the card
CARD_ASK = SPEC_ASK + r"|\bwhat(?: is|'s|s) (?:this |that |the )·|\bhow much (?:memory|vram|bandwidth)\b"  # of the card named
SHORT_CHANGES = ("gpus", "weights_dtype", "seq_len", "users", "engine", "tokens_per_s_per_user", "kv_cache_dtype", "hours", "years",
                 "utilization", "pricing", "batch_size")  # 'at 8k?', 'on spot?': a short question that changes one of these
KEPT_FROM_BEFORE = ("text", "asked", "asking", "aside", "reports_count", "spans", "ignored", "notes", "method", "method_said",
                    "workload", "params_billions")  # set by carried_over itself, not copied when the new question says them


def names_a_model(reading: Reading) -> bool:
    return bool(reading.models or reading.unknown_models or reading.params_billions is not None)


def prices_other_gpus(previous: Reading, new: Reading) -> bool:
    """GPUs the last question did not name, priced or bought, with nothing pointing back: a question of their own."""
    return (not {g for g, _ in new.gpus} & {g for g, _ in previous.gpus} and not rx.search(POINTS_AT_GPUS, new.text)
            and rx.search(MONEY_ASK, new.asked) is not None)


def asks_of_its_own_gpus(previous: Reading, new: Reading) -> bool:
    """'how much does it cost to rent 4 a100s for a day?' after a QLoRA question: a whole question."""
    journey = choose(new)
    return (journey is not None and journey.name in ("cloud_cost", "rent_or_buy") and bool(new.gpus)
            and prices_other_gpus(previous, new) and not rx.search(STRONG_POINTER, new.text))


def asks_of_a_card(new: Reading) -> bool:
    """'what is an mi300x and how much bandwidth does it have?' after a fit: a GPU's (or a model's) own card, named."""
    journey = choose(new)
    return (journey is not None and journey.name in ("gpu_card", "model_card")
            and (rx.search(CARD_ASK, new.asked) is not None or journey.name == "model_card" and j.said(new, j.CARD_FIRST)))


def follow_up_of(previous: Reading, new: Reading) -> Reading | None:
    """The previous reading with what the new question changes, when the new question reads as a follow-up: it opens
    with 'and', 'what about', 'same but'..., or it is short and points back ('will it fit on a 4090?')."""
    if not reads_as_follow_up(previous, new):
        return None
    merged = carried_over(previous, new)
    for rule in MERGE_RULES:
        rule(merged, previous, new)
    return merged


def reads_as_follow_up(previous: Reading, new: Reading) -> bool:
    """The cues that a question changes the last one, against those that it is a whole question of its own."""
    opens = rx.match(FOLLOW_UP_OPENING, new.text)
    length = 20 if rx.search(r"\b(?:instead|then|for this|for that)\b", new.text) else 14  # '... for this instead?'
    points_back = (rx.search(POINTS_BACK, new.text) and len(new.text.split()) <= length and not new.models
                   or rx.search(STRONG_POINTER, new.text) and not (new.models and new.gpus))
    short_change = (len(new.text.split()) <= 8 and not new.models and new.params_billions is None and bool(previous.models)
                    and any(getattr(new, name) for name in SHORT_CHANGES))
    same_talk = rx.search(r"\b(?:then|instead|still)\W*$|\b(?:how )?(?:does|do|would) (?:that|it|this|they|those) (?:compare|stack up)\b",
                          new.text)  # 'would gemma 3 27b fit on the 5090 at q5_k_m then', 'how does that compare to a 3090 ti?'
    returns = rx.match(r"(?:\W*(?:ok(?:ay)?|so|now|alright|right|cool)\W+)?(?:(?:going |go |switch(?:ing)? )?back to"
                       r"|same (?:but|thing|setup)"
                       r"|but with)\b", new.text)  # 'back to the h100 but with gpt oss 20b': the rest of the setup stays
    if new.models and new.gpus and not (same_talk or returns):
        return False  # a model and a GPU of its own: a whole question
    # a GPU and the ask of which models it holds starts afresh too ('whats the biggest model i can run on a 3090 with
    # ollama' after a QLoRA question is not about QLoRA)
    own_subject = ((new.gpus and j.biggest_model_asked(new) or asks_of_its_own_gpus(previous, new) or asks_of_a_card(new))
                   and not (same_talk or returns or opens))
    cues = opens or points_back or short_change or same_talk or subjectless(previous, new) or on_the_same_gpus(previous, new)
    return bool(cues) and not own_subject


def subjectless(previous: Reading, new: Reading) -> bool:
    """'nice. how many tok/s would i get': it asks, names no model, and the last question had one (not 'Rent vs buy
    for a single RTX 5090' after an H100 fit: a whole question of other GPUs' money)."""
    return (not names_a_model(new) and names_a_model(previous) and asks_anything(new.text) and not rx.search(SPEC_ASK, new.asked)
            and not ((new.gpus or new.unknown_gpus) and prices_other_gpus(previous, new)))


def on_the_same_gpus(previous: Reading, new: Reading) -> bool:
    """'would gemma 3 27b fit?' after the card was said: a model and a fit, speed or limit, no GPU of its own."""
    return bool(new.models and not new.gpus and not new.unknown_gpus and previous.gpus
                and rx.search(j.FIT_ASK + "|" + j.SPEED + "|" + j.LIMIT, new.asked) and not rx.search(j.ESTIMATE_ASK, new.asked))


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


# ---- what a follow-up's words change of the merged reading: one rule a case, walked in order (MERGE_RULES)
def same_count_on_other_gpus(merged: Reading, previous: Reading, new: Reading) -> None:
    if new.gpus and new.gpus[0][1] is None and previous.gpus and (previous.gpus[0][1] or 1) > 1 and (
            rx.search(r"\bsame\b", new.text) or rx.search(r"\b[a-z]*\d+[a-z]*s\b", new.text)):  # 'the same on h200s'
        merged.gpus = [(new.gpus[0][0], previous.gpus[0][1]), *new.gpus[1:]]


def compared_gpus_join(merged: Reading, previous: Reading, new: Reading) -> None:
    """'how's that compare to X', 'throw the B200 and the MI300X in too': the GPUs before and the new ones."""
    adds = r"\b(?:throw|add|include|put)\b.*\b(?:in|too|as well|also)\s*$"
    if previous.gpus and (len(new.gpus) == 1 and rx.search(j.COMPARING, new.text) or new.gpus and rx.search(adds, new.text)):
        merged.gpus = [*previous.gpus, *(g for g in new.gpus if g[0] not in {p for p, _ in previous.gpus})]


def how_many_gpus_asked(merged: Reading, previous: Reading, new: Reading) -> None:
    if rx.search(j.ABSOLUTE_SPEED + "|" + j.COMPARING, new.asked) and not new.how_many_gpus:
        merged.how_many_gpus = False  # 'what speed would each of those 200 people see?' after 'how many H100s?'
    if rx.search(r"\bhow many (?:of )?(?:those|these|them|the|such)(?: \w+)? (?:cards|gpus)\b"
                 r"|\bhow many of (?:those|these|them)\b", new.text):
        merged.how_many_gpus = True  # 'damn. how many of those cards would i need then?'


FORGETS_GPUS = (r"\b(?:forget|ignore|never ?mind|leave aside|set aside) (?:about )?(?:the|that|those|our|my) (?:box|card|cards|gpus?"
                r"|node|nodes|server|machine|rig|hardware|cluster)\b")  # 'ok forget the box for a sec'


def what_is_asked_again(merged: Reading, previous: Reading, new: Reading) -> None:
    """A field the follow-up asks for is no longer the one told before: the GPU, the model, the batch, the context."""
    if not new.gpus and (rx.search(FORGETS_GPUS, new.text) or rx.search(r"\bwhich (?:\w+ )?(?:gpus?|cards?)\b", new.asked)):
        merged.gpus, merged.gpu_at = [], []  # 'which gpu should i get instead?': the GPU is the question
    if rx.search(j.BIGGEST, new.asked) and not names_a_model(new):  # 'if i grab a second 3090, whats the biggest model?'
        merged.models, merged.model_at, merged.params_billions, merged.unknown_models = [], [], None, []
    limit = rx.search(j.LIMIT, new.asked)
    if limit is None or limit.group(0) == "how long" and (new.training_tokens or merged.workload == "training"):
        return  # 'over 20B tokens, how long does it take?': the run's time, not the longest context
    if j.limit_is_batch(limit.group(0), new.asked[limit.end():]):
        if new.batch_size is None:
            merged.batch_size = None  # 'how many concurrent users can it take?' after 'for a single sequence'
    elif new.seq_len is None:
        merged.seq_len = None  # 'what's the longest it will train at, then?'


def points_at_the_last_reading(merged: Reading, previous: Reading, new: Reading) -> None:
    pointer = rx.search(STRONG_POINTER + r"|\b(?:all )?(?:that|it|them|those)\b", new.text)
    if not new.spans:  # 'on that one card then?', 'the cheapest card that'd hold all that?': the reading before
        merged.spans = [Span(pointer.group(0) if pointer else new.text, "what the previous question asked about")]


def epochs_of_that_data(merged: Reading, previous: Reading, new: Reading) -> None:
    passes = rx.search(EPOCHS, new.text)
    if passes and new.training_tokens is None and previous.training_tokens is not None:  # 'what about 3 epochs of that data?'
        before = rx.search(EPOCHS, previous.text)  # the data once, then as many passes as now asked
        merged.training_tokens = previous.training_tokens / (epoch_count(before) if before else 1.0) * epoch_count(passes)
        read_again(merged, passes.group(0), f"{passes.group(1)} epochs of the data asked about before "
                                            f"({merged.training_tokens:.3g} tokens in all)")


SCALES = {"double": 2.0, "twice": 2.0, "triple": 3.0, "quadruple": 4.0, "halve": 0.5, "half": 0.5}


def rate_of_that_load(merged: Reading, previous: Reading, new: Reading) -> None:
    rate = rx.search(r"(?<![\w.$])(\d+(?:\.\d+)?) ?(?:an?|per|/) ?(?:(s|sec|second)|(min|minute)|(h|hr|hour))\b", new.text)
    if rate and new.requests_per_s is None and previous.requests_per_s is not None:  # 'what if its 600 a minute' after a rate
        merged.requests_per_s = round(float(rate.group(1)) / (60.0 if rate.group(3) else 3600.0 if rate.group(4) else 1.0), 4)
        read_again(merged, rate.group(0), f"{merged.requests_per_s:g} requests per second (the rate asked about before)")
    scaled = rx.search(r"\b(double|triple|halve|half|twice|quadruple) (?:the |our |those |that )?(users|people|traffic|load|requests"
                       r"|rate|qps|rps)\b", new.text)
    if scaled and new.users is None and new.requests_per_s is None:  # 'and if we double the users?': of the load asked about
        factor = SCALES[scaled.group(1)]
        if previous.requests_per_s is not None and scaled.group(2) not in ("users", "people"):
            merged.requests_per_s = round(previous.requests_per_s * factor, 4)
        elif previous.users:
            merged.users = max(1, round(previous.users * factor))
        read_again(merged, scaled.group(0), f"{scaled.group(1)} the load asked about before")


def one_of_the_gpus_named(merged: Reading, previous: Reading, new: Reading) -> None:
    """'on the ada card' after an RTX 6000 Ada and an A6000; 'how fast on the first one?' after comparing three cards."""
    if new.gpus or len(previous.gpus) < 2:
        return
    named_card = rx.search(r"\bthe ([a-z]{2,}) (?:card|one|gpu)\b", new.text)
    picked = [g for g in previous.gpus if named_card and named_card.group(1) in g[0].split("-")]
    if named_card and len(picked) == 1:
        merged.gpus, merged.gpu_at = picked, [0]
        merged.spans = [*merged.spans, Span(named_card.group(0), f"GPU {picked[0][0]} (named before)")]
    which = rx.search(r"\b(?:on |with |for )?the (first|second|third|last) (?:one|card|gpu|option)\b", new.text)
    if which is None:
        return
    index = {"first": 0, "second": 1, "third": 2, "last": -1}[which.group(1)]
    if index < len(previous.gpus):
        merged.gpus, merged.gpu_at = [previous.gpus[index]], [0]
        merged.spans = [*merged.spans, Span(which.group(0), f"GPU {previous.gpus[index][0]} (the {which.group(1)} named before)")]


def count_of(word: str) -> int:
    return int(word) if word.isdigit() else COUNT_WORDS[word.removesuffix(" of")]


def count_of_the_gpus(merged: Reading, previous: Reading, new: Reading) -> None:
    """'what if we grab two nodes instead' (eight GPUs each), '8 of each', 'ok and 2 of them?': of the GPU asked about."""
    if new.gpus or not merged.gpus:
        return
    nodes = rx.search(r"\b(\d+|a pair of|a couple of) (?:nodes|boxes|servers)\b", new.text)
    if nodes and rx.search(BARE_COUNT, new.text[nodes.end():]):
        nodes = None  # 'two nodes, so 8 of them': the count said
    each, count = rx.search(r"\b(\d+) of each\b", new.text), rx.search(BARE_COUNT, new.text)
    said = nodes or (count if not each else None)
    if said:
        gpus = (count_of(nodes.group(1)) * v.GPUS_PER_NODE if nodes
                else count_of(said.group(1) or said.group(2) or said.group(3)))
        merged.gpus = [(merged.gpus[0][0], gpus), *merged.gpus[1:]]
        read_again(merged, said.group(0), f"{gpus} of the GPU asked about before")
    if each and len(merged.gpus) >= 2:  # 'same comparison but for deepseek v3, 8 of each?'
        merged.gpus = [(gpu, int(each.group(1))) for gpu, _ in merged.gpus]
        read_again(merged, each.group(0), f"{merged.gpus[0][1]} of each GPU asked about before")


MERGE_RULES: tuple[Callable[[Reading, Reading, Reading], None], ...] = (
    same_count_on_other_gpus, compared_gpus_join, how_many_gpus_asked, what_is_asked_again,
    points_at_the_last_reading, epochs_of_that_data, rate_of_that_load, one_of_the_gpus_named, count_of_the_gpus)


def read_again(merged: Reading, words: str, meaning: str) -> None:
    """Words of a follow-up read against the question before ('600 a minute'): listed with what they meant, no longer
    among the ignored."""
    merged.ignored = [w for w in merged.ignored if w not in words.split()]
    merged.spans = [*merged.spans, Span(words, meaning)]


def sibling_follow_up(follow: Reading, new_text: str, model_id: str, catalog: Catalog) -> Reading:
    """'and the 235b one?' after a question about qwen3 30b a3b: the size names that family's sibling, when the catalog
    holds it, not a generic model of that size."""
    if follow.models or follow.params_billions is None or follow.unknown_models:
        return follow
    size = next((span for span in follow.spans if span.meaning == f"a {follow.params_billions:g}B-parameter model"), None)
    same = rx.search(rf"(?<![\d.]){follow.params_billions:g}b", model_id.split("/")[-1].lower())  # 'the 14b' after Qwen2.5-14B
    sibling = model_id if same else sibling_of(catalog, model_id, f"{follow.params_billions:g}")
    if sibling is None or size is None or rx.search(r"\b(?:models?|dense|moe|params?|parameters)\b", new_text):
        return follow  # 'what about a 13b model?': any model of that size
    size.meaning = (f"model {sibling} (the one asked about before)" if same
                    else f"model {sibling} (the {follow.params_billions:g}B sibling of {model_id})")
    return dataclasses.replace(follow, models=[sibling], model_at=[follow.params_at], params_billions=None)


EARLIER = "(asked about earlier in the conversation)"
RELATIVE_SIZE = r"\bthe (bigger|larger|smaller|big|small) (?:one|model|variant|version|sibling)\b"


def relative_size_follow_up(follow: Reading, new_text: str, named: list[str], catalog: Catalog) -> Reading:
    """'and the bigger one?' after 'either qwen2.5 32b or 72b ... starting with the 32b': the other model named that is
    bigger (or smaller), nearest first; with none named, the family's nearest bigger (smaller) model in the catalog."""
    said = rx.search(RELATIVE_SIZE, new_text)
    if said is None or not follow.models or follow.models != named:
        return follow
    bigger = said.group(1) in ("bigger", "larger", "big")
    size = {m: count_parameters(catalog.model_by_id[m]).total for m in catalog.model_by_id}
    now = follow.models[0]
    others = [m for m in named[1:] if m in size] or [m for m in size if catalog.model_by_id[m].family == catalog.model_by_id[now].family]
    candidates = sorted((m for m in others if (size[m] > size[now] if bigger else size[m] < size[now])), key=lambda m: size[m],
                        reverse=not bigger)
    if not candidates:
        return follow
    merged = dataclasses.replace(follow, models=[candidates[0]], model_at=[0])
    read_again(merged, said.group(0), f"model {candidates[0]} (the {said.group(1)} of the models asked about before)")
    return merged


def conversation_models(previous: AskAnswer | None) -> list[str]:
    """The models a conversation has asked about, oldest first, each once (where it was last asked about)."""
    if previous is None:
        return []
    named = [*previous._models_seen, *(previous._reading.models[:1] if previous._reading is not None else [])]
    return [m for n, m in enumerate(named) if m not in named[n + 1:]]


def back_to_an_earlier_model(reading: Reading, fresh: Reading, seen: list[str]) -> Reading:
    """'ok back to the 8b' after the 70b, 'ok back to mistral' after Mistral Small 24B then Qwen2.5 32B: a size or a bare
    family word names the model the conversation asked about last that has it, not a new one."""
    if fresh.models:
        return reading
    size = rx.search(r"\b(?:back to |again with |on )?the (\d+(?:\.\d+)?)b\b", fresh.text)
    earlier = size and next((m for m in reversed(seen) if m not in reading.models[:1]
                             and rx.search(rf"(?<![\d.]){re.escape(size.group(1))}b", m.split("/")[-1].lower())), None)
    if size and earlier:
        back = dataclasses.replace(reading, models=[earlier], model_at=[0], params_billions=None, unknown_models=[])
        back.spans = [*(s for s in reading.spans if not s.meaning.startswith(("a ", "model "))),
                      Span(size.group(0), f"model {earlier} {EARLIER}")]
        return back
    said = rx.search(r"\b(?:back to|go back to|return to|switch back to|revert to|again with|the) (?:the )?([a-z][a-z0-9.]{2,})"
                     r"(?: one| model| again)?\b", fresh.text) if reading.models else None  # 'the mistral one'
    earlier = said and next((m for m in reversed(seen) if m not in reading.models[:1]
                             and m.split("/")[-1].lower().split("-")[0].startswith(said.group(1))), None)
    if not said or not earlier:
        return reading
    back = dataclasses.replace(reading, models=[earlier], model_at=[0], params_billions=None, unknown_models=[])
    read_again(back, said.group(0), f"model {earlier} {EARLIER}")
    return back
