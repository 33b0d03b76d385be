"""ask(): read a question (or a follow-up to the last one), pick its journey, answer every part it asks or say which
part it did not, and list what was read, assumed and ignored."""
from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace
from typing import Any

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.figures import gib, number
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.model.parameters import count_parameters
from gpusizer.tools.pricing import HOURS_PER_MONTH, HOURS_PER_YEAR, cheapest_fits

from . import journeys as j
from . import vocabulary as v
from .answers import AskAnswer, ToolCall, call
from .reading import EPOCHS, Reading, Span, epoch_count, facts, read_question, set_aside_told, sibling_of, word_starts
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
FOLLOW_UP_OPENING = (r"^(?:(?:ok(?:ay)?|fine|alright|cool|great|hmm|right|so|thanks|thank you|thx|ty|got it|perfect|nice|sweet|awesome"
                     r"|actually"
                     r"|damn|dang|yeah|yep|ugh|wow|oof|makes sense|figured|yeah figured|lol|haha|ehh?|ah|oh|welp|well|hmm+"
                     r"|(?:lol|haha|ah|oh) ok(?:ay)?) ?[,.!]? ?)?"
                     r"(?:and|what about|how about|same|now|then|follow[- ]?up|versus|vs\.?|(?:going |go )?back to"
                     r"|ok(?:ay)?|also|with|at|on|in|using|instead|what if|if|but|try|or|drop|raise|make it|switch|swap|stretch"
                     r"|how much (?:faster|slower|quicker|more|less|cheaper|longer)|how many of (?:those|these|them|the))\b")
POINTS_BACK = r"\binstead\b|\b(?:it|that|this one|the same|them|those)\b|\b(?:for|with|on) this\b|\b(?:in|on) there\b"
STRONG_POINTER = (r"\b(?:that|this|the same) (?:one )?(?:card|gpu|box|setup|node|machine|model|config)\b"  # 'on that one card'
                  r"|\bon (?:one|1|two|2|both|each|all|any) of (?:those|these|them)\b"  # 'could i run X on one of those?'
                  r"|\b(?:those|these|the) same (?:\d+ )?(?:gpus|cards|nodes|machines|boxes)\b"  # 'renting those same 16 GPUs'
                  r"|\bsame (?:model|load|traffic|users|setup|config|workload|math|question)\b"  # 'same model, same 50 users'
                  r"|\b(?:everything|all) else (?:is |stays )?(?:the )?same\b"  # 'peak is 120 now, everything else the same'
                  r"|\b(?:those|these|the same) (?:\d+ )?(?:users|people|requests|sequences|seqs|sessions)\b"  # 'for those 100 users'
                  r"|\bof (?:that|this|the same) data\b"
                  r"|\b(?:redo|re-do|recompute|rerun|re-run|recalculate|rework) (?:the|that|it|this)\b|\bat that rate\b"
                  r"|\bdoes (?:that|this|it) change (?:the answer|anything|things|the math|the picture|your answer|the result)\b"
                  # 'does the 20b fit on a 4090?' after the 120b
                  r"|\bthe \d+(?:\.\d+)?b\b(?! (?:model|dense|moe|params|parameters|tokens)\b)"
                  r"|\b(?:buy|rent|get) the (?:two|three|four|eight|\d+) [a-z]*\d+\w*s\b")  # 'should we just buy the four a100s?'
BARE_COUNT = (r"\b(\d+|two|three|four|eight|a pair|a couple) (?:of (?:them|those|these)|of the(?: [\w-]+)? (?:cards|gpus)|cards|gpus)\b"
              r"|\b(both)\b(?: of them| cards| gpus)?|\ba (second|third|fourth) (?:one|card|gpu)\b")
COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "eight": 8, "a pair": 2, "a couple": 2, "both": 2, "second": 2, "third": 3,
               "fourth": 4}
UNSET: tuple[object, ...] = (None, [], False)
# 'what's the bandwidth of an mi300x?' asks of the card alone
SPEC_ASK = r"\b(?:specs?|bandwidth|tdp|tflops|flops)\b|\bwhat(?: is|'s|s) an? ·"


def follow_up_of(previous: Reading, new: Reading) -> Reading | None:
    """The previous reading with what the new question changes, when the new question reads as a follow-up: it opens
    with 'and', 'what about', 'same but'..., or it is short and points back ('will it fit on a 4090?')."""
    opens = re.match(FOLLOW_UP_OPENING, new.text)
    length = 20 if re.search(r"\b(?:instead|then|for this|for that)\b", new.text) else 14  # '... for this instead?'
    points_back = (re.search(POINTS_BACK, new.text) and len(new.text.split()) <= length and not new.models
                   or re.search(STRONG_POINTER, new.text) and not (new.models and new.gpus))
    short_change = (len(new.text.split()) <= 8 and not new.models and new.params_billions is None and bool(previous.models)
                    and (new.gpus or new.weights_dtype or new.seq_len or new.users or new.engine or new.tokens_per_s_per_user
                         or new.kv_cache_dtype or new.hours or new.years or new.utilization or new.pricing or new.batch_size))
    same_talk = re.search(r"\b(?:then|instead|still)\W*$|\b(?:how )?(?:does|do|would) (?:that|it|this|they|those) (?:compare|stack up)\b",
                          new.text)  # 'would gemma 3 27b fit on the 5090 at q5_k_m then', 'how does that compare to a 3090 ti for X?'
    said_model = bool(new.models or new.unknown_models or new.params_billions is not None)
    subjectless = (not said_model and bool(previous.models or previous.unknown_models or previous.params_billions is not None)
                   and asks_anything(new.text) and not re.search(SPEC_ASK, new.asked)  # 'nice. how many tok/s would i get'
                   and not ((new.gpus or new.unknown_gpus)  # 'Rent vs buy for a single RTX 5090, 8 hours a day' after
                            and not {g for g, _ in new.gpus} & {g for g, _ in previous.gpus}  # an H100 fit: whole
                            and not re.search(r"\b(?:instead|then|that|those|these)\b", new.text)  # 'that mi300x'
                            and re.search("|".join((j.BUY, j.RENT_OR_OWN, j.COST_ASK)), new.asked)))
    on_the_same_gpus = (new.models and not new.gpus and not new.unknown_gpus and bool(previous.gpus)
                        and re.search(j.FIT_ASK + "|" + j.SPEED + "|" + j.LIMIT, new.asked)
                        and not re.search(j.ESTIMATE_ASK, new.asked))  # 'would gemma 3 27b fit?' after the card was said
    returns = re.match(r"(?:\W*(?:ok(?:ay)?|so|now|alright|right|cool)\W+)?(?:(?:going |go |switch(?:ing)? )?back to"
                       r"|same (?:but|thing|setup)"
                       r"|but with)\b", new.text)  # 'back to the h100 but with gpt oss 20b': the rest of the setup stays
    # A question that names its own subject starts afresh: a model and a GPU, or a GPU and the ask of which models it
    # holds ('whats the biggest model i can run on a 3090 with ollama' after a QLoRA question is not about QLoRA)
    own_subject = (new.models and new.gpus or new.gpus and j.biggest_model_asked(new)) and not (same_talk or returns or opens)
    if not (opens or points_back or short_change or same_talk or subjectless or on_the_same_gpus) \
            or new.models and new.gpus and not (same_talk or returns) or own_subject:  # a new question
        return None
    merged = dataclasses.replace(previous, text=f"{new.text} {previous.text}", asked=f"{new.asked} {previous.asked}",
                                 asking=new.asking or [(0, len(new.asked))], aside=new.aside, reports_count=new.reports_count,
                                 spans=new.spans,
                                 ignored=new.ignored, notes=list(new.notes))
    for field in dataclasses.fields(Reading):
        if field.name in ("text", "asked", "asking", "aside", "reports_count", "spans", "ignored", "notes", "method",
                          "method_said", "workload", "params_billions"):
            continue
        value = getattr(new, field.name)
        if value not in UNSET:
            setattr(merged, field.name, value)
    if new.gradient_checkpointing is False:  # 'with gradient checkpointing turned off': False is said, not unset
        merged.gradient_checkpointing = False
    if new.models or new.params_billions is not None:
        merged.models, merged.params_billions, merged.unknown_models = new.models, new.params_billions, new.unknown_models
    if new.workload and (new.method_said or previous.workload != "training"):  # 'train on that card' keeps the LoRA
        merged.workload, merged.method, merged.method_said = new.workload, new.method, new.method_said
    if new.gpus and new.gpus[0][1] is None and previous.gpus and (previous.gpus[0][1] or 1) > 1 and (
            re.search(r"\bsame\b", new.text) or re.search(r"\b[a-z]*\d+[a-z]*s\b", new.text)) \
            and not re.search(r"\b(?:one|1|a single) of (?:those|these|them)\b", new.text):  # 'the same on h200s'
        merged.gpus = [(new.gpus[0][0], previous.gpus[0][1]), *new.gpus[1:]]
    adds = re.search(r"\b(?:throw|add|include|put)\b.*\b(?:in|too|as well|also)\s*$", new.text)  # 'throw the B200 and the MI300X in too'
    if new.gpus and not new.unknown_gpus and previous.unknown_gpus and not adds and not re.search(j.COMPARING, new.text):
        merged.unknown_gpus, merged.unknown_gpu_at = [], []  # 'what if I ran it on two 3090s instead' after the M3 Max
    if previous.gpus and (len(new.gpus) == 1 and re.search(j.COMPARING, new.text)
                          or new.gpus and adds):
        merged.gpus = [*previous.gpus, *(g for g in new.gpus if g[0] not in {p for p, _ in previous.gpus})]  # 'how's that compare to X'
    if re.search(j.ABSOLUTE_SPEED + "|" + j.COMPARING, new.asked) and not new.how_many_gpus:
        merged.how_many_gpus = False  # 'what speed would each of those 200 people see?' after 'how many H100s?'
    if re.search(r"\bhow many (?:of )?(?:those|these|them|the|such)(?: \w+)? (?:cards|gpus)\b|\bhow many (?:cards|gpus) (?:would|do|will)\b"
                 r"|\bhow many of (?:those|these|them)\b", new.text):
        merged.how_many_gpus = True  # 'damn. how many of those cards would i need then?'
    if re.search(r"\b(?:forget|ignore|never ?mind|leave aside|set aside) (?:about )?(?:the|that|those|our|my) (?:box|card|cards|gpus?"
                 r"|node|nodes|server|machine|rig|hardware|cluster)\b", new.text) and not new.gpus:
        merged.gpus, merged.gpu_at = [], []  # 'ok forget the box for a sec, how much total vram does kimi k2 need?'
    if re.search(j.BIGGEST, new.asked) and not (new.models or new.unknown_models or new.params_billions is not None):
        merged.models, merged.model_at, merged.params_billions, merged.unknown_models = [], [], None, []  # 'if i grab a second
        # 3090, whats the biggest model i could run?': the model is now the question
    picks = r"\bwhich (?:\w+ )?(?:gpus?|cards?)\b|\bwhat (?:gpus?|cards?|hardware) (?:should|would|do|to)\b"
    if re.search(picks, new.asked) and not new.gpus:  # 'which gpu should i get instead?': the GPU is the question
        merged.gpus, merged.gpu_at = [], []
    limit = re.search(j.LIMIT, new.asked)
    if limit and limit.group(0) == "how long" and (new.training_tokens or merged.workload == "training"):
        limit = None  # 'over 20B tokens, how long does it take?': the run's time, not the longest context
    if limit and new.batch_size is None and j.limit_is_batch(limit.group(0), new.asked[limit.end():]):
        merged.batch_size = None  # 'how many concurrent users can it take?' after 'for a single sequence'
    if limit and new.seq_len is None and not j.limit_is_batch(limit.group(0), new.asked[limit.end():]):
        merged.seq_len = None  # 'what's the longest it will train at, then?': the length is now the question
    pointer = re.search(STRONG_POINTER + r"|\b(?:all )?(?:that|it|them|those)\b", new.text)
    if not new.spans:  # 'on that one card then?', 'the cheapest card that'd hold all that?': the reading before
        merged.spans = [Span(pointer.group(0) if pointer else new.text, "what the previous question asked about")]
    passes = re.search(EPOCHS, new.text)
    if passes and new.training_tokens is None and previous.training_tokens is not None:  # 'what about 3 epochs of that data?'
        before = re.search(EPOCHS, previous.text)  # the data once, then as many passes as now asked
        merged.training_tokens = previous.training_tokens / (epoch_count(before) if before else 1.0) * epoch_count(passes)
        read_again(merged, passes.group(0), f"{passes.group(1)} epochs of the data asked about before "
                                            f"({merged.training_tokens:.3g} tokens in all)")
    rate = re.search(r"(?<![\w.$])(\d+(?:\.\d+)?) ?(?:an?|per|/) ?(?:(s|sec|second)|(min|minute)|(h|hr|hour))\b", new.text)
    if rate and new.requests_per_s is None and previous.requests_per_s is not None:  # 'what if its 600 a minute' after a rate
        merged.requests_per_s = round(float(rate.group(1)) / (60.0 if rate.group(3) else 3600.0 if rate.group(4) else 1.0), 4)
        read_again(merged, rate.group(0), f"{merged.requests_per_s:g} requests per second (the rate asked about before)")
    scaled = re.search(r"\b(double|triple|halve|half|twice|quadruple) (?:the |our |those |that )?(users|people|traffic|load|requests"
                       r"|rate|qps|rps)\b", new.text)
    if scaled and new.users is None and new.requests_per_s is None:  # 'and if we double the users?': of the load asked about
        factor = {"double": 2.0, "twice": 2.0, "triple": 3.0, "quadruple": 4.0, "halve": 0.5, "half": 0.5}[scaled.group(1)]
        if previous.requests_per_s is not None and scaled.group(2) not in ("users", "people"):
            merged.requests_per_s = round(previous.requests_per_s * factor, 4)
        elif previous.users:
            merged.users = max(1, round(previous.users * factor))
        read_again(merged, scaled.group(0), f"{scaled.group(1)} the load asked about before")
    named_card = re.search(r"\bthe ([a-z]{2,}) (?:card|one|gpu)\b", new.text)  # 'on the ada card' after an RTX 6000 Ada and an A6000
    picked = [g for g in previous.gpus if named_card and named_card.group(1) in g[0].split("-")]
    if len(picked) == 1 and not new.gpus and len(previous.gpus) >= 2:
        merged.gpus, merged.gpu_at = picked, [0]
        merged.spans = [*merged.spans, Span(named_card.group(0) if named_card else "", f"GPU {picked[0][0]} (named before)")]
    which = re.search(r"\b(?:on |with |for )?the (first|second|third|last) (?:one|card|gpu|option)\b", new.text)
    if which and not new.gpus and len(previous.gpus) >= 2:  # 'how fast on the first one?' after comparing three cards
        index = {"first": 0, "second": 1, "third": 2, "last": -1}[which.group(1)]
        if index < len(previous.gpus):
            merged.gpus = [previous.gpus[index]]
            merged.gpu_at = [0]
            merged.spans = [*merged.spans, Span(which.group(0), f"GPU {previous.gpus[index][0]} (the {which.group(1)} named before)")]
    nodes = re.search(r"\b(\d+|two|three|four|eight|a pair of|a couple of) (?:nodes|boxes|servers)\b", new.text)
    if nodes and re.search(BARE_COUNT, new.text[nodes.end():]):
        nodes = None  # 'two nodes, so 8 of them': the count said
    if nodes and not new.gpus and merged.gpus:  # 'what if we grab two nodes instead': eight GPUs each
        value = nodes.group(1)
        merged.gpus = [(merged.gpus[0][0], (int(value) if value.isdigit() else COUNT_WORDS[value.removesuffix(" of")])
                        * v.GPUS_PER_NODE), *merged.gpus[1:]]
        read_again(merged, nodes.group(0), f"{merged.gpus[0][1]} of the GPU asked about before")
    each = re.search(r"\b(\d+|two|three|four|eight) of each\b", new.text)
    if each and not new.gpus and len(merged.gpus) >= 2:  # 'same comparison but for deepseek v3, 8 of each?'
        value = each.group(1)
        merged.gpus = [(gpu, int(value) if value.isdigit() else COUNT_WORDS[value]) for gpu, _ in merged.gpus]
        read_again(merged, each.group(0), f"{merged.gpus[0][1]} of each GPU asked about before")
    count = re.search(BARE_COUNT, new.text)
    if count and not new.gpus and merged.gpus and not nodes and not each:
        value = count.group(1) or count.group(2) or count.group(3)
        merged.gpus = [(merged.gpus[0][0], int(value) if value.isdigit() else COUNT_WORDS[value]), *merged.gpus[1:]]
        read_again(merged, count.group(0), f"{merged.gpus[0][1]} of the GPU asked about before")
    return merged


def read_again(merged: Reading, words: str, meaning: str) -> None:
    """Words of a follow-up read against the question before ('600 a minute', 'two nodes'): listed with what they meant,
    no longer among the ignored."""
    merged.ignored = [w for w in merged.ignored if w not in words.split()]
    merged.spans = [*merged.spans, Span(words, meaning)]


def sibling_follow_up(follow: Reading, new_text: str, model_id: str, catalog: Catalog) -> Reading:
    """'and the 235b one?' after a question about qwen3 30b a3b: the size names that family's sibling, when the catalog
    holds it, not a generic model of that size."""
    if follow.models or follow.params_billions is None or follow.unknown_models:
        return follow
    size = next((span for span in follow.spans if span.meaning == f"a {follow.params_billions:g}B-parameter model"), None)
    same = re.search(rf"(?<![\d.]){follow.params_billions:g}b", model_id.split("/")[-1].lower())  # 'the 14b' after Qwen2.5-14B
    sibling = model_id if same else sibling_of(catalog, model_id, f"{follow.params_billions:g}")
    if sibling is None or size is None or re.search(r"\b(?:models?|dense|moe|params?|parameters)\b", new_text):
        return follow  # 'what about a 13b model?': any model of that size
    size.meaning = (f"model {sibling} (the one asked about before)" if same
                    else f"model {sibling} (the {follow.params_billions:g}B sibling of {model_id})")
    return dataclasses.replace(follow, models=[sibling], model_at=[follow.params_at], params_billions=None)


RELATIVE_SIZE = r"\bthe (bigger|larger|smaller|big|small) (?:one|model|variant|version|sibling)\b"


def relative_size_follow_up(follow: Reading, new_text: str, named: list[str], catalog: Catalog) -> Reading:
    """'and the bigger one?' after 'either qwen2.5 32b or 72b ... starting with the 32b': the other model named that is
    bigger (or smaller), nearest first; with none named, the family's nearest bigger (smaller) model in the catalog."""
    said = re.search(RELATIVE_SIZE, new_text)
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
    merged.spans = [*merged.spans, Span(said.group(0), f"model {candidates[0]} (the {said.group(1)} of the models asked about before)")]
    merged.ignored = [w for w in merged.ignored if w not in said.group(0).split()]
    return merged


def conversation_models(previous: AskAnswer | None) -> list[str]:
    """The models a conversation has asked about, oldest first, each once (where it was last asked about)."""
    if previous is None:
        return []
    named = [*previous._models_seen, *(previous._reading.models[:1] if previous._reading is not None else [])]
    return [m for n, m in enumerate(named) if m not in named[n + 1:]]


def back_to_an_earlier_model(reading: Reading, fresh: Reading, seen: list[str]) -> Reading:
    """'ok back to mistral, how fast?' after Mistral Small 24B then Qwen2.5 32B: a bare family word after 'back to' (or
    'the mistral one') names the model of that family the conversation asked about last, not a new one."""
    if fresh.models:
        return reading
    size = re.search(r"\b(?:back to |again with |on )?the (\d+(?:\.\d+)?)b\b", fresh.text)  # 'ok back to the 8b' after the 70b
    earlier_size = size and next((m for m in reversed(seen) if m not in reading.models[:1]
                                  and re.search(rf"(?<![\d.]){re.escape(size.group(1))}b", m.split("/")[-1].lower())), None)
    if size and earlier_size:
        back = dataclasses.replace(reading, models=[earlier_size], model_at=[0], params_billions=None, unknown_models=[])
        back.spans = [*(s for s in reading.spans if not s.meaning.startswith(("a ", "model "))),
                      Span(size.group(0), f"model {earlier_size} (asked about earlier in the conversation)")]
        return back
    if not reading.models:
        return reading
    said = re.search(r"\b(?:back to|go back to|return to|switch back to|revert to|again with|the) (?:the )?([a-z][a-z0-9.]{2,})"
                     r"(?: one| model| again)?\b", fresh.text)
    if said is None:
        return reading
    word = said.group(1)
    earlier = next((m for m in reversed(seen) if m not in reading.models[:1]
                    and m.split("/")[-1].lower().split("-")[0].startswith(word)), None)
    if earlier is None:
        return reading
    back = dataclasses.replace(reading, models=[earlier], model_at=[0], params_billions=None, unknown_models=[])
    back.spans = [*reading.spans, Span(said.group(0), f"model {earlier} (asked about earlier in the conversation)")]
    back.ignored = [w for w in reading.ignored if w not in said.group(0).split()]
    return back


def choose(reading: Reading) -> j.Journey | None:
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
APPLE_NOTE = ("On Apple silicon the GPU may use about 2/3 to 3/4 of unified memory by default (macOS's wired limit, "
              "raised with iogpu.wired_limit_mb): compare the figure with that share, not the whole.")


ASKS_FOR_A_MODEL = (r"\b(?:biggest|largest|best|most big)(?: \w+){0,2} (?:models?|llms?)\b"
                    r"|\bwhat (?:models?|llms?) (?:can|could|will|would)\b")
MODEL_CARD_ASK = (r"\b(?:architecture|how many (?:experts|layers|heads|params|parameters)|active param\w*|is it (?:an? )?moe"
                  r"|what (?:even |exactly )?is it)\b")
TRAINING_TIME_ASK = r"\bhow long (?:will|would|does|did|to|is|for)\b|\bhow many (?:gpu[- ]?)?hours\b|\bwall[- ]?clock\b"


INPUT_MEANINGS = re.compile(r"(?:batch \d|[\d,]+ tokens of context|engine "
                            r"|weights in |KV cache in |[\d,.]+ hours|[\d,]+ concurrent users|[\d.]+ requests per second"
                            r"|[\d.]+ tokens/s per user|[\d,]+ output tokens|purchase \$|rent \$|utilization|[\d.]+ years?"
                            r"|[\d.e+]+ training tokens|a [\d.]+B-parameter model|a GPU with \d+ GB|sharding |tensor parallel)")


def read_from_backstory(reading: Reading) -> list[str]:
    """Inputs read outside the sentences that ask ('we have 4x A100. will X fit?': the A100s): listed beside the reading,
    so an input taken from a story that was not the question's is visible, not silent."""
    if not reading.asking:
        return []
    starts = word_starts(reading.text)
    def told(index: int) -> bool:
        return 0 <= index < len(starts) and not any(a <= starts[index] < b for a, b in reading.asking)
    def quoted(words: str) -> str:  # 'h100 pcie —': the words, not the dash beside them
        return "'" + " ".join(w for w in words.split() if re.search(r"\w", w)) + "'"
    found = [f"{quoted(s.words)} ({count or 1} × {gpu})" for s in reading.spans if s.meaning.startswith("GPU ") and told(s.at)
             for at, (gpu, count) in zip(reading.gpu_at, reading.gpus, strict=True) if at == s.at]
    found += [f"{quoted(s.words)} ({s.meaning})" for s in reading.spans if reading.model_at and s.at == reading.model_at[0]
              and s.meaning.startswith("model ") and told(s.at)]
    found += [f"{quoted(s.words)} ({s.meaning})" for s in reading.spans
              if not s.set_aside and INPUT_MEANINGS.match(s.meaning) and told(s.at)]
    return list(dict.fromkeys(found))


def asks_anything(question: str) -> bool:
    """Whether a question says what it asks (fit, speed, a limit, memory, a GPU, cost, buying, a comparison, a card)."""
    text = question.lower()
    return any(re.search(p, text) for p in (j.FIT_ASK, j.SPEED, j.LIMIT, j.ESTIMATE_ASK, j.WHICH_GPU, j.COST_ASK, j.BUY,
                                            j.CHEAPEST_WAY, r"\b(vs\.?|versus|compar\w*|stack up|against|how long|what is|what's an?|specs?"
                                                            r"|keep up with|cope with"
                                                            r"|how many (?:of (?:those|these|them) )?[\w-]+ (?:[\w-]+ )?"
                                                            r"(?:cards|gpus|nodes) (?:would|will|do|should) (?:we|i) need)\b"))


def parts_asked(text: str, covered: tuple[str, ...], training: bool = False, gpus: int = 0, how_many_gpus: bool = False) -> list[str]:
    """The asks a question makes beyond what its main journey covers: 'fit ... and how fast', '... and what would it cost'."""
    asks = {"speed": j.SPEED, "cost": j.CHEAPEST_WAY + r"|\b(cost\w*|price\w*|pay|spend|bill|how much would (?:it|that) (?:be|run)"
                                                      r"|go(?:es)? for"
                                      r"|per hour|to rent)\b|\$",
            "which_gpu": j.WHICH_GPU + r"|\bhow many (?:gpus?|cards?) (?:would|will|do|does|is)\b", "limits": j.LIMIT}
    found = ["time"] if "time" not in covered and training and re.search(TRAINING_TIME_ASK, text) else []
    if "time" in covered or found:  # 'how long' asks the run's duration, which the journey answers, not the longest context
        text = re.sub(r"\bhow long\b", "", text)
    found += [name for name, pattern in asks.items() if name not in covered and re.search(pattern, text)]
    if how_many_gpus and "which_gpu" not in covered and "which_gpu" not in found:
        found.append("which_gpu")  # 'how much memory ..., and how many A100 40GB's does that come out to?'
    memory = j.ESTIMATE_ASK + r"|\b(?:also|and|plus),? (?:the |its |total )?(?:vram|memory|gpu memory)\b"  # '... also vram in fp8?'
    if "fit" not in covered and (gpus and re.search(j.FIT_ASK, text) or re.search(memory, text)):
        found.append("fit")  # '... also, is one of them enough to run it?', '... how long? also, how much memory per GPU?'
    if "compare" not in covered and gpus > 1 and re.search(r"\b(compare\w*|vs\.?|versus|against|stack up|(?:faster|slower|better"
                                                        r"|worse|cheaper) than)\b", text):
        found = [f for f in found if f != "speed"] + ["compare"]  # '... and is it faster than an h100?': the comparison
    if "card" not in covered and re.search(r"\b(specs?|memory bandwidth|bus width|tdp)\b|" + MODEL_CARD_ASK, text):
        found.append("card")  # '... and what is the 7900 xtx's memory bandwidth on paper?', '... also, its architecture?'
    renting = "cost" in covered or re.search(j.RENT_OR_OWN, text)  # a rental bill asked: 'or just buy them?' is rent-or-own
    if "buy" not in covered and re.search(j.BUY, text) and renting:  # 'the better buy' of two cards is no rent-or-own
        found.append("buy")
    return found


def answer_part(part: str, reading: Reading, catalog: Catalog, calls: list[ToolCall]) -> str | None:
    """A second part answered by its own journey, or None where the reading lacks what it needs."""
    gpus = j.named_gpus(reading)
    if part == "compare" and len(j.named_gpus(reading)) > 1:
        return "Compared: " + j.answer_compare(reading, catalog, calls)
    if part == "card" and reading.models and re.search(MODEL_CARD_ASK, reading.asked):  # '... also, Scout's architecture?'
        return "Model: " + j.answer_model_card(reading, catalog, calls)
    if part == "card" and j.named_gpus(reading) and not reading.unknown_gpus:
        return "Card: " + j.answer_gpu_card(reading, catalog, calls)
    if part == "fit" and j.has_subject(reading):  # '... and would it fit on 2x H100?' or '... how much vram?' after a card
        return "Fit: " + (j.answer_fit if reading.gpus else j.answer_estimate)(reading, catalog, calls)
    if part == "time" and j.has_subject(reading):  # '... and how long will it take?' of a training run
        fits = [SimpleNamespace(**f) for made in calls if made.tool == "estimate_vram" for f in (made.result or {}).get("fits", [])]
        ranked = [c for c in cheapest_fits(catalog, fits) if c.usd_per_hour] if not reading.gpus else []
        if ranked:  # 'best card for X? also how long for 20M tokens': on the card just recommended
            reading = dataclasses.replace(reading, gpus=[(ranked[0].gpu_id, ranked[0].gpus_needed)])
        return "Time: " + j.answer_training_time(reading, catalog, calls)
    if part == "speed" and j.has_subject(reading):
        return "Speed: " + j.answer_speed(reading, catalog, calls)
    if part == "which_gpu" and j.has_subject(reading):
        return "Which GPU: " + j.answer_which_gpu(reading, catalog, calls)
    if part == "buy" and gpus:
        return "Rent or buy: " + j.answer_rent_or_buy(reading, catalog, calls)
    if part == "limits" and j.has_subject(reading) and reading.gpus:  # '... and how much context can each hold?'
        return "Limits: " + " ".join(j.answer_limits(dataclasses.replace(reading, gpus=[gpu]), catalog, calls)
                                     for gpu in reading.gpus[:4])
    if part == "cost" and j.has_subject(reading) and re.search(j.CHEAPEST_WAY, reading.asked):  # '..., and the cheapest way?'
        return "Cheapest way: " + j.answer_cheapest_method(reading, catalog, calls)
    if part == "cost" and gpus:  # the GPUs the fit needs, at least as many as asked
        gpu_id, count = gpus[0]
        for made in calls:
            for fit in (made.result or {}).get("fits", []) if made.tool == "estimate_vram" else []:
                if fit["gpu_id"] == gpu_id:
                    count = max(count or 1, fit["gpus_needed"])
        return "Cost: " + j.answer_cloud(dataclasses.replace(reading, gpus=[(gpu_id, count)]), catalog, calls)
    if part == "cost" and j.has_subject(reading):
        return "Cost: " + j.answer_which_gpu(reading, catalog, calls)
    return None


def ask(question: str, catalog: Catalog, previous: AskAnswer | None = None) -> AskAnswer:
    """Answer a plain-words question with the tools, or explain what was understood. With `previous` (the last
    answer), a follow-up such as 'and on an A100?' or 'what about 4-bit?' changes that question's reading."""
    reading = read_question(question[:2000], catalog)
    follow = follow_up_of(previous._reading, reading) if previous is not None and previous._reading is not None else None
    fresh = reading  # what the new question says on its own
    seen = conversation_models(previous)
    if follow is not None:
        sized = previous._reading.models if previous is not None and previous._reading is not None else []
        reading = follow if not sized else relative_size_follow_up(sibling_follow_up(follow, reading.text, sized[0], catalog),
                                                                    reading.text, sized, catalog)
        reading = back_to_an_earlier_model(reading, fresh, seen)
    elif reading.asking:  # 'which gpu should I buy?' after a story of the cards one had: those are not the candidates
        asking = " ".join(reading.asked[a:b] for a, b in reading.asking)
        own = "".join(" " if any(a <= i < b for a, b in reading.aside) else c for i, c in enumerate(reading.text))
        candidates = (re.search(r"\b(vs\.?|versus|between|or(?! how| so\b| not\b| more\b| less\b| rent| buy| cloud| something))\b",
                                own) or re.search(
            r"\bwhich one\b|\bwhich of\b|\bbetter\b", asking)) and len(reading.gpus) > 1  # 'A or B: which one is better?'
        asks_for_hardware = re.search(j.WHICH_GPU + "|" + j.CHEAPEST_WAY, asking) is not None  # 'the cheapest way to fine-tune it?'
        set_aside_told(reading, gpus=asks_for_hardware and not candidates,  # 'torn between A and B
                       subject=re.search(ASKS_FOR_A_MODEL, asking) is not None)
    journey = choose(reading)
    asking_text = " ".join(reading.text[a:b] for a, b in reading.asking) or reading.text
    troubleshooting = follow is None and (re.search(v.TROUBLESHOOTING, reading.text) and not asks_anything(asking_text)
                                          or re.search(v.OFF_TOPIC, asking_text))  # 'which one has the nicest RGB?'

    if troubleshooting:  # 'Open WebUI can't talk to ollama since the update: set OLLAMA_HOST?': no sizing asked
        journey = None
    if follow is not None and previous is not None and previous.journey in j.JOURNEY_BY_NAME and not asks_anything(question) \
            and not fresh.how_many_gpus:  # 'ok so how many A100s is that' asks the count
        kept = j.JOURNEY_BY_NAME[previous.journey]  # 'and a 4090?' after a price question asks the price again
        journey = kept if kept.applies(reading) or kept.name in ("cloud_cost", "rent_or_buy", "gpu_card", "limits") and reading.gpus \
            else journey
    if follow is not None and previous is not None and previous.journey in ("which_gpu", "estimate") and not asks_anything(question) \
            and ((fresh.users or 0) > 1 or fresh.requests_per_s is not None) and j.JOURNEY_BY_NAME["serving"].applies(reading):
        journey = j.JOURNEY_BY_NAME["serving"]  # 'how many MI300X to host X?' then 'ok and for 100 concurrent users?': a plan
    if follow is not None and fresh.how_many_gpus and journey is not None and journey.name in ("estimate", "fit") \
            and not re.search(j.ESTIMATE_ASK + "|" + j.FIT_ASK, question.lower()):
        journey = j.JOURNEY_BY_NAME["which_gpu"]  # 'ok so how many A100s is that' after a memory estimate or a fit
    monthly = re.search(r"\b(?:per|a|/) ?month\b|\bmonthly\b", question.lower())  # 'what would that run us per month?'
    if follow is not None and follow.hours is None and monthly and previous is not None and previous.journey == "serving":
        reading.hours = HOURS_PER_MONTH
    if follow is not None and reading.hours is not None \
            and re.search(r"\b(?:\d+|an?|one|two|three|per) ?(?:hours?|hrs?|days?|weeks?|months?)\b|\bmonthly\b", question.lower()) \
            and (re.search(j.COST_ASK, question.lower()) or fresh.pricing is not None) and j.named_gpus(reading):
        journey = j.JOURNEY_BY_NAME["cloud_cost"]  # 'say it takes 5 days: what would renting those 16 GPUs cost?'
        planned = next((c.result["options"][0] for c in (previous.calls if previous is not None else [])
                        if c.tool == "plan_serving" and c.result and c.result.get("options")), None)
        if planned is not None and (not fresh.gpus or fresh.gpus == [(planned["gpu_id"], None)]) \
                and not re.search(BARE_COUNT, fresh.text):  # 'what would a month of that cost?' after a serving plan: the
            # GPUs the plan needs (not when the follow-up names other GPUs or a count: 'say we go with 4 of them')
            reading.gpus = [(planned["gpu_id"], planned["total_gpus"])]
    if follow is not None and len(j.named_gpus(reading)) >= 2 and re.search(
            j.COMPARING + r"|\b(?:better|worse|faster|slower|cheaper) (?:\w+ )?than\b|\bwhich (?:one'?s|one is|is) (?:better|faster)\b"
            r"|\bworth (?:it |the (?:\w+ )?)?over\b",
            question.lower()):
        journey = j.JOURNEY_BY_NAME["compare"]  # 'would h100s be a better fit than l40s for this workload?'
    lower = question.lower()
    if follow is not None and j.named_gpus(reading) and re.search(j.BUY + r"|\bbought\b", lower) and (
            fresh.purchase_usd_per_gpu is not None or fresh.years is not None
            or re.search(r"\b(?:vs\.?|versus|or|than|beats?) (?:just )?rent\w*|break[ -]?even",
                                                                lower)):
        journey = j.JOURNEY_BY_NAME["rent_or_buy"]  # 'if we just bought the h200s at ~$32k a card, when does that beat renting?'
    traffic = fresh.users or fresh.requests_per_s is not None or fresh.tokens_per_s_per_user is not None or (
        (reading.users or reading.requests_per_s is not None) and previous is not None
        and previous.journey in ("serving", "cloud_cost", "rent_or_buy"))
    if follow is not None and traffic and reading.model and re.search(r"\bhow many\b", lower):
        journey = j.JOURNEY_BY_NAME["serving"]  # 'and if traffic peaks at 10 req/s, how many cards then?'
        if reading.gpus:
            reading.gpus = [(reading.gpus[0][0], None), *reading.gpus[1:]]  # the count is what is asked again
    run_cost = re.sub(r"\b(?:that|the|this) run\b", "", question.lower())  # 'would that run cost' asks no fit
    if follow is not None and previous is not None and previous.journey == "training_time" and re.search(j.COST_ASK, run_cost) \
            and not re.search("|".join((j.FIT_ASK, j.LIMIT, j.ESTIMATE_ASK, r"\b(?:\d+|an?|one|two) ?(?:hours?|hrs?|h|days?|weeks?)\b")),
                              run_cost):
        journey = j.JOURNEY_BY_NAME["training_time"]  # 'and what would that run cost on spot?': the run's time and its bill
    if journey is not None and journey.name == "limits" and j.asks_past_told_context(reading):
        told = next((s for s in reading.spans if s.meaning.endswith("tokens of context")), None)  # 'OOMs at 128k. max?'
        if told is not None:
            told.meaning = "a length the question tells of, not asks for (the longest is asked)"
        reading.seq_len = None
    if journey is not None and journey.name == "limits" and reading.users == 1 and re.search(
            r"\bhow many (?:\w+ )?(?:users|people|sessions|requests|chats|streams)\b", asking_text.lower()):
        told = next((s for s in reading.spans if s.meaning == "1 concurrent users"), None)  # 'single user does ~150 tok/s ...
        if told is not None:  # how many concurrent users can it handle?': the count is what is asked
            told.meaning = "one user, told of (how many is what is asked)"
        reading.users = None
    if journey is not None and journey.name == "limits" and j.asks_past_told_batch(reading):
        told = next((s for s in reading.spans if s.meaning.startswith("batch ")), None)  # 'right now I'm at bs 2'
        if told is not None:
            told.meaning = "a batch the question tells of, not asks for (the largest is asked)"
        reading.batch_size = None
    if journey is not None and journey.name != "rent_or_buy" and reading.utilization is not None \
            and not re.search(j.BUY + r"|\bbought\b", reading.asked):  # 'up 24/7' of a GPU pick: no rent-or-buy weighs a share of the time
        for span in reading.spans:
            if span.meaning.startswith("utilization"):
                span.meaning = f"{span.meaning} (not used: nothing here weighs owning against renting)"
        reading.utilization = None
    if journey is not None and journey.name == "training_time" and reading.hours is not None \
            and re.search(TRAINING_TIME_ASK, asking_text.lower()):  # 'an 8x H100 box reserved for two weeks ... how long will
        for span in reading.spans:  # the run take?': the run's length is what is asked; the reservation is told
            if re.fullmatch(r"[\d,.]+ hours|a month \(.*\)", span.meaning):
                span.meaning = f"{span.meaning}, a time told of (how long the run takes is what is asked)"
        reading.hours = None
    if journey is not None and journey.name == "cheapest_method" and reading.workload is None and reading.training_tokens:
        reading.workload = "training"  # 'adapt X to our docs, 40M tokens, one epoch: the cheapest way?' trains
    if journey is not None and journey.name == "cloud_cost" and reading.hours is None and reading.years is not None:
        reading.hours, reading.years = reading.years * HOURS_PER_YEAR, None  # 'rent 8 h100s for a year': the rental's length
        told = next((s for s in reading.spans if re.fullmatch(r"[\d.]+ years?", s.meaning)), None)
        if told is not None:
            told.meaning = f"{number(reading.hours)} hours"
    if journey is not None and journey.name in ("gpu_card", "cloud_cost", "rent_or_buy", "compare") and not j.has_subject(reading) \
            and reading.weights_dtype:  # 'trainium2: memory and bf16 TFLOPS?': a precision with no model to apply it to
        reading.notes.append(f"'{reading.weights_dtype}' names a precision, but there is no model to apply it to")
        reading.weights_dtype, reading.other_weights = None, []
    set_aside = list(dict.fromkeys(s.meaning if s.set_aside else f"'{s.words}' ({s.meaning})" for s in reading.spans
                                   if s.set_aside or s.meaning.startswith("ruled out")))
    backstory = read_from_backstory(reading) if follow is None else []
    base: dict[str, Any] = {"question": question, "reading": facts(reading), "ignored": reading.ignored, "follow_up": follow is not None,
            "read": [f"'{s.words}': {s.meaning}" for s in reading.spans], "set_aside": set_aside,
            "from_backstory": backstory}
    if journey is None:
        text = not_understood_text(reading, EXAMPLES)
        if troubleshooting:
            text = ("This reads as a setup or troubleshooting question (an error, a crash, a service that stopped); "
                    "gpusizer answers sizing ones: memory, fit, speed, GPUs, cost. Examples:\n"
                    + "\n".join(f"  • {e}" for e in EXAMPLES))
        base["reading"] = {}  # nothing was answered: no field of it is a reading of what was asked
        answer = AskAnswer(understood=False, interpretation="not understood", answer=text, **base)
        answer._reading, answer._models_seen = reading, seen
        return answer
    calls: list[ToolCall] = []
    defaults = defaults_used(reading, journey.name, catalog)
    lines, not_answered, answered = [], [], list(journey.covers)
    def answer_main(variant: Reading) -> str:
        if variant.unknown_models and not j.has_subject(variant):
            return (f"{variant.unknown_models[0]} is not in the catalog and the question gives no size: name its Hugging "
                    "Face id (org/name, read from the Hub) or its size in billions (e.g. '42B') to size it.")
        if variant.unknown_gpus and not j.named_gpus(variant) and (not variant.gpus or journey.name in NEEDS_A_NAMED_GPU):
            return answer_unknown_gpu(variant, catalog, calls)
        return journey.answer(variant, catalog, calls)

    try:
        lines.append(answer_main(reading))
    except SizingError as error:
        lines.append(f"The tool could not answer: {error}")
    if journey.name == "gpu_card" and reading.models and re.search(MODEL_CARD_ASK, reading.asked):  # '... and phi-3's params?'
        lines.append("Model: " + j.answer_model_card(reading, catalog, calls))
        answered.append("card")
    for other_method in reading.other_methods[:1] if journey.name in ("fit", "estimate", "limits", "which_gpu") else []:
        try:
            lines.append(f"With {other_method}: " + answer_main(dataclasses.replace(reading, method=other_method)))
        except SizingError as error:
            lines.append(f"With {other_method}: the tool could not answer: {error}")
    if reading.other_weights and journey.name in ("fit", "estimate", "limits", "speed", "which_gpu"):
        for other in reading.other_weights[:3]:
            try:
                lines.append(f"With {other}: " + answer_main(dataclasses.replace(reading, weights_dtype=other)))
            except SizingError as error:
                lines.append(f"With {other}: the tool could not answer: {error}")
    asked_now = (reading.asked.split(previous._reading.asked)[0] if follow is not None and previous is not None
                 else reading.asked)
    for part in parts_asked(asked_now, journey.covers, training=reading.workload == "training",
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
            try:
                lines.append(f"On {gpu[0]}: " + journey.answer(dataclasses.replace(reading, gpus=[gpu]), catalog, calls))
            except SizingError as error:
                lines.append(f"On {gpu[0]}: the tool could not answer: {error}")
    unused = [f"model {m}" for m in reading.models[1:]]  # never silently: what was named but not answered for
    if journey.name not in ("compare", "speed", "biggest_model", "fit", "limits"):
        unused += [f"GPU {g}" for g, _ in reading.gpus[1:]]
    elif journey.name in ("fit", "limits"):
        unused += [f"GPU {g}" for g, _ in reading.gpus[3:]]
    if unused:
        lines.append(f"Also named, not answered for here: {', '.join(dict.fromkeys(unused))} (ask about it on its own).")
    if reading.unknown_gpus and re.search(APPLE, " ".join(reading.unknown_gpus)):
        lines.append(APPLE_NOTE)
    lines += reading.notes
    if not_answered:
        lines.append("Not answered: " + "; ".join(not_answered) + ".")
    text = interpretation(reading, journey.name, catalog)
    if follow is not None:
        text = "Follow-up of the previous question. " + text
    if backstory:  # an input taken from the story around the question shows as such: a misread setup is visible
        text += "\nFrom the sentences that tell (not the one that asks): " + "; ".join(backstory) + "."
    if set_aside:  # a misplaced subject shows here, beside the reading, not only in the words it ignored
        text += "\nSet aside (named, but not what I read you as asking about): " + "; ".join(set_aside) + "."
    if defaults:
        text += "\nAssumed (not in your question): " + "; ".join(defaults) + "."
    if reading.ignored:
        text += "\nIgnored: " + ", ".join(f"'{w}'" for w in reading.ignored) + "."
    answer = AskAnswer(understood=True, journey=journey.name, interpretation=text, answer="\n".join(lines), calls=calls,
                       defaults_used=defaults, not_answered=not_answered, answered=answered, **base)
    answer._reading, answer._models_seen = reading, seen
    return answer
