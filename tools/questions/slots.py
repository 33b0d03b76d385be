"""Slot extractors as a table (issue #35): one row per way of saying a value, read by one loop (docs/ask_design.md).

A row names the Reading field it fills (its kind), its patterns, how the words become a value, the sentences it
reads (the one that asks, one that tells, an aside) and its priority: rows run from the highest down and do not read
words a higher row claimed. Each value is kept as a typed span, `Span(kind, value, status)`: code asks a span for its
kind and value, never parses its wording back. A new phrasing is a new pattern; a new kind, a new row.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from . import money_words as phrases
from . import regex as rx
from . import vocabulary as v
from .number_words import FIGURE as FIGURE  # re-exported for reading.py
from .number_words import FIGURE_K as FIGURE_K
from .number_words import NUMBER_K as NUMBER_K

SCOPES = ("asks", "tells", "aside")  # the sentence that asks, one that tells (a setup), one that reports others or the past
EVERYWHERE = frozenset(SCOPES)


@dataclass
class Span:
    words: str    # as the question wrote them (normalised)
    meaning: str  # what they were read as, for people
    at: int = -1  # the index of its first word
    set_aside: bool = False  # a GPU or model named but not taken as what is asked about (told of, left, dismissed)
    kind: str = ""  # the Reading field a slot row filled from these words, and the value it read
    value: object = None
    status: str = ""  # where it was read: 'asks', 'tells' or 'aside' (SCOPES)


class Words(Protocol):
    """The question's words as a slot row reads them (reading.Words)."""
    text: str
    used: list[bool]
    asking: list[tuple[int, int]]
    spans: list[Span]

    def index_at(self, position: int) -> int: ...

    def tier(self, position: int) -> int: ...

    def search(self, *patterns: str) -> re.Match[str] | None: ...

    def take_range(self, start: int, end: int, meaning: str, kind: str = "", value: object = None, status: str = "") -> None: ...


class Reading(Protocol):
    """The reading a slot row fills (reading.Reading): any field by its kind; the models named, for a guard."""
    models: list[str]


@dataclass(frozen=True)
class Pattern:
    regex: str
    when: Callable[[Words, Reading], bool] | None = None  # the pattern applies only when this holds


@dataclass(frozen=True)
class Slot:
    kind: str  # the Reading field the row fills
    patterns: tuple[Pattern, ...]  # searched together: the asking sentence first, then pattern order, then position
    parse: Callable[[re.Match[str]], Any]  # the matched words to the value
    describe: Callable[[Any], str]  # the value as the answer's 'read' list says it
    priority: int
    example: str  # a question the row reads, for people (and its test)
    scope: frozenset[str] = EVERYWHERE
    claims: Callable[[re.Match[str], str], tuple[int, int]] | None = None  # the words claimed, when not the whole match
    told_flag: str | None = None  # a Reading flag set when the value was read outside the sentence that asks
    find: Callable[[Words], re.Match[str] | None] | None = None  # a search the patterns cannot say (runs when they miss)

    def read(self, words: Words, reading: Reading) -> None:
        """Read this row's value, unless a row of higher priority already read its kind (a row of lower priority,
        or the row's `find`, is the fallback: 'how many full-length 20k requests fit?' when no context is set)."""
        if any(span.kind == self.kind for span in words.spans):
            return
        patterns = [p.regex for p in self.patterns if p.when is None or p.when(words, reading)]
        found = words.search(*patterns) if patterns else None
        found = found if found is None or status_at(words, found.start()) in self.scope else None
        found = found or (self.find(words) if self.find is not None else None)
        if found is None:
            return
        value = self.parse(found)
        setattr(reading, self.kind, value)
        status = status_at(words, found.start())
        if self.told_flag is not None:
            setattr(reading, self.told_flag, status != "asks")
        start, end = self.claims(found, words.text) if self.claims is not None else found.span()
        words.take_range(start, end, self.describe(value), kind=self.kind, value=value, status=status)


def kilo(value: str, k: str | None) -> int:
    """'8k' is 8,192 tokens (8 x 1,024, as context sizes are quoted: powers of two); '20k' and '1.5k' are 20,000 and 1,500
    (a round figure, not a window size); '8000' is 8,000."""
    number = float(value)
    if not k:
        return int(number)
    window = number.is_integer() and int(number) & (int(number) - 1) == 0
    return int(number * (1024 if window else 1000))


def context_claims(found: re.Match[str], text: str) -> tuple[int, int]:
    """'8 sequences of 8k each', 'batch 8 at 4096': the count before the length stays for the batch."""
    leading_noun = (rx.match(r"(?:sequences|requests|chats|prompts|sessions)\b", found.group(0))
                    or rx.search(r"\bbatch (?:size )?$", text[:found.start()]))
    number_at = next(n for n in range(1, len(found.groups()) + 1) if found.group(n))
    return (found.start(number_at) if leading_noun else found.start()), found.end()


# money talked of: a bare '100k' is dollars, 'keep it under 5k' a budget
MONEY_TALK = r"\$|\b(?:cost\w*|price\w*|bill|budget\w*|spend\w*|pay|usd|dollars?|bucks|looking at|buy\w*|purchas\w*|afford)\b"


def money_without_model(words: Words, reading: Reading) -> bool:
    """No model, and money talk: a bare '100k' is dollars then ('100k or more like 300k?' of a bill), not a context."""
    return not reading.models and rx.search(MONEY_TALK, words.text) is not None


def batch_value(found: re.Match[str]) -> int:
    value = next(g for g in found.groups() if g)
    return int(value) if value.isdigit() else v.NUMBER_WORDS.get(value, 1)  # 'a single'


def sequences_in_flight(words: Words) -> re.Match[str] | None:
    """'16 concurrent seqs (at 8k each)': sequences in flight are a batch, whatever read the words after."""
    return next((m for m in rx.finditer(r"\b(\d+) (?:concurrent|parallel|simultaneous)(?= (?:seqs|sequences)\b)", words.text)
                 if not any(words.used[words.index_at(m.start()):words.index_at(m.end() - 1) + 1])), None)


def pair_tokens(found: re.Match[str]) -> int:
    """Patterns of (number, k) pairs, an alternative each: the first pair that matched."""
    first = next(n for n in range(1, len(found.groups()) + 1, 2) if found.group(n))
    return kilo(found.group(first), found.group(first + 1))


def rows(kind: str, regexes: tuple[str, ...], parse: Callable[[re.Match[str]], Any], describe: Callable[[Any], str],
         priority: int, example: str) -> tuple[Slot, ...]:
    """One row per pattern, each the fallback of the one before: the first pattern found anywhere wins, where one row
    of several patterns would prefer the sentence that asks."""
    return tuple(Slot(kind, (Pattern(regex),), parse, describe, priority - n, example) for n, regex in enumerate(regexes))


RATE = r"(?<![\d.])(\d+(?:\.\d+)?)\+? ?(?:tok(?:en)?s? ?(?:/|per|a) ?s(?:ec\w*)?|t/s|tps)\b"  # '30 tok/s', '25+ t/s'
OBSERVED = (r"(?<!seeing )(?<!getting )(?<!get )(?<!got )(?<!only )(?<!currently )(?<!see )(?<!gives )(?<!give )"
            r"(?<!shows )(?<!showing )(?<!measured )(?<!reports )(?<!clocking )")  # 'grafana shows ~35 tok/s per stream'
PER_SEQUENCE = r"(?:sequences?|seqs?|sessions?|requests?|chats?|conversations?|prompts?)"
REPLIES = r"repl(?:y|ies)|responses?|answers?|completions?|outputs?"  # what a model's output is called
AT_THE_SAME_TIME = r"(?:at once|at the same (?:time|moment)|concurrently|simultaneously)"
SLOTS: tuple[Slot, ...] = (
    Slot("seq_len", (
        Pattern(r"(?<![\w.$])(1|2|4|8|16|32|64|128|256|(?<=concurrent )\d+|(?<=parallel )\d+) ?(k)[ -]?(?:tokens? )?"
                + PER_SEQUENCE + r"\b"),  # 'how many concurrent 8k-token requests', 'how many 32k sessions'
        Pattern(FIGURE_K + r"(?: total)? tokens? (?:per|each|a|for each) (?:sequence|seq|request|conversation)\b"),
        Pattern(r"(?<=\bbatch )(?:size )?\d+ (?:at|of|x) (\d{3,6})()\b(?! ?(?:tok|users|requests|\$|ms\b|s\b))"),  # 'batch 8 at 4096'
        Pattern(r"\bcontext per (?:conversation|chat|request|user|session|npc) ,? ?(\d+) ?(k)?\b"),
        Pattern(r"\b(?:sequences|requests|chats|prompts|sessions) (?:\S+ ){0,8}?(?:at|of|with) (\d+) ?(k)(?: tokens?)? each\b"),
        Pattern(r"(?<!batch )(?<!batch size )(?<!bs )" + FIGURE_K + r"(?: tokens?)? (?:context|ctx|context window"
                r"|sequence\b|seq\b(?: len)?|prompts?\b|input\b)(?: lengths?| window| size)?"
                r"|" + FIGURE + r" ?(k)(?: tokens?)? in\b"),
        Pattern(r"(?:(?:engine )?context|ctx|sequence|seq|prompt|input|max(?:imum)?[ _-]?(?=len))s?(?:[ _-]?(?:length|len|window|size))?"
                r"(?: of| =| at| is| to| set to| is set to)? " + NUMBER_K + r"\b(?: tokens?)?"),
        Pattern(r"(?<!averaging )(?<!average )(?<!avg )(?<!averages )(?<!averaged )"
                + FIGURE_K + r"[ -]tokens?\b(?! ?(?:/|per|a|each) ?(?:s\b|sec|second))"
                r"(?! (?:each|per user|out|of output))"),
        Pattern(r"(?<!wants )(?<!asking )(?<!asks )(?<!costs )(?<!cost )(?<!paid )(?<!selling for )(?<!sells for )"
                r"(?<![\w.$])(\d{1,4}(?:\.\d+)?) ?(k)\b" + v.NOT_CONTEXT_NOUNS,  # 'someone wants 9k for it': a price
                when=lambda words, reading: not money_without_model(words, reading)),  # ('13900k' a CPU: no 10M context)
    ), pair_tokens, lambda tokens: f"{tokens:,} tokens of context", priority=60,
        example="how much vram for llama 3.1 70b at 8k context?", claims=context_claims, told_flag="seq_len_told",
        find=lambda words: words.search(  # 'how many full-length 20k requests fit?', when nothing else says a context
            r"(?<=full[- ]length )(\d+) ?(k)[ -]?(?:tokens? )?" + PER_SEQUENCE + r"\b")),
    Slot("batch_size", (
        Pattern(r"(?:micro[ _-]?|per[ _-]device[ _-]?(?:train[ _-])?)?(?:batch(?:[ _-]?size)?|bs)(?: of| =| is| at)? "
                r"(\d+|one)\b"
                r"|(\d+) (?:seqs|sequences|prompts)(?: \S+){0,6}? (?:at once|together|in parallel|concurrently|in a batch|in flight)"
                r"|\b(one|1|a single) (?:sequence|request|prompt) at a time\b|\bfor (a single|one) sequence\b"),
    ), batch_value, lambda size: f"batch {size}", priority=50,
        example="full fine-tune of llama 3.2 3b at batch size 8 on a 4090?", told_flag="batch_told", find=sequences_in_flight),
    *rows("users", (  # people at once ('of 200 devs, 60 of them hitting it at once': the 60; read_traffic reads the plain
        # counts): 'if all 40 of us used it at the same time', '150 clinicians at the morning peak', 'IT expects 100 at once'
        r"\b(\d+)() of (?:them|those|these|us) (?:\S+ ){0,8}?" + v.AT_ONCE,
        r"(?<!how many )(?<!than )(?<!over )(?<!above )" + FIGURE_K
        + rf" (?:(?!tokens|gpus|cards|models|layers|experts|requests)[a-z]+ (?:\w+ ){{0,5}}?)?"
        rf"(?:{AT_THE_SAME_TIME}|at (?:the )?(?:\w+ )?peak)\b",
        r"\bconcurrency (?:estimate |target |is |of |at |around |about |roughly |~ ?)*(\d+)()\b",
    ), lambda found: int(float(found[1]) * (1000 if found[2] else 1)),
        lambda users: f"{users:,} concurrent users (of the people named, those at once)",
        priority=46, example="we're 200 devs, maybe 60 of them hitting it at once: how many h100s for qwen3 32b?"),
    *rows("tokens_per_s_per_user", (
        # a wish for each user: 'each should get about 20 tok/s', 'every one of them should see at least 30 tok/s', 'keep
        # each user above 25 t/s', 'nobody should see less than 20 tokens/sec'; not what each gets now ('each gets ~35 tok/s')
        r"(?:\b(?:each|every|keep(?:ing)?|nobody|no one|no user|none)(?: [a-z']+){0,4}?"
        r" (?:want\w*|need\w*|expect\w*|getting|should|must|ought|to|at|above|than)\b(?: [a-z'>=≥]+){0,3}?"
        r"|at least|min(?:imum)?|target(?:ing)?(?: to| of)?|>=?|≥|no less than|above|over)"
        r" (?:maybe |about |around |roughly |like )?" + RATE,
        RATE + r" or (?:better|more|faster|above|higher)\b",
        OBSERVED + RATE + r"(?: per user| each| for each user| per stream| per person| for every user"  # '~12 tok/s per stream,
        r"| per reply| per response| per request)",  # we're seeing' is no target
    ), lambda found: float(found.group(1)), lambda rate: f"{rate:g} tokens/s per user", priority=39,
        example="how many h100s to serve llama 3.1 70b to 100 users at 20 tok/s each?"),
    *rows("output_tokens", (
        FIGURE_K + r"(?: (?:output|generated|new|completion|response) tokens?\b| tokens? generated\b"
        r"|[ -]tokens? (?:" + REPLIES + r")\b)",
        r"\b(?:generat\w*|output\w*|respon\w*|answers? of)(?: len(?:gth)?s?| size)?"  # 'output len ~200 tokens'
        r" (?:about |around |up to |is |of |= )?" + NUMBER_K + r" tokens?\b",
        FIGURE_K + r"(?: tokens?)? (?:out|of output|output)\b",
        r"\b(?:" + REPLIES + r")(?: of| about| around| are| is| ~"
        r"| roughly| usually| typically| average| averaging| avg| run| short| brief| maybe| probably| like"
        r"| generally| on average| approximately| tend to be| tends to be| come out at| ,)* " + NUMBER_K + r"\b",
        r"\b(?:gets?|getting|receives?|returns?|sends?) (?:about |around |roughly )?" + NUMBER_K
        + r"(?: tokens?)? back\b",  # 'sends 8k of prompt and gets 2k back'
    ), pair_tokens, lambda tokens: f"{tokens} output tokens", priority=119,
        example="serve qwen3 8b with 2k prompts and 500 output tokens to 40 users on an l4?"),
    *rows("training_precision", (  # AMP keeps fp32 master weights and Adam states; pure bf16 keeps all in bf16
        r"\b(?:pure|straight|all)(?= bf16\b(?! mixed))|(?<=\bbf16 )(?:only|throughout|everywhere)\b",  # not the dtype
        r"\bmixed[ -]precision\b|(?<=\bbf16 )mixed\b|(?<=\bfp16 )mixed\b|\bamp\b(?= (?:bf16|fp16|training|on)\b)|\bautocast\b",
    ), lambda found: "mixed" if rx.search(r"mixed|amp|autocast", found.group(0)) else "bf16",
        lambda precision: "mixed precision (fp32 master weights and states)" if precision == "mixed" else "pure bf16 training",
        priority=185, example="full fine-tune of llama 3.1 8b on one h100 with bf16 mixed precision?"),  # before formats
    *rows("gpu_memory_utilization", (  # vLLM's flag, before a '%' is read as a share of time
        r"\bgpu[_ -]memory[_ -]utili[sz]ation(?: of| =| at| is)? (0?\.\d+|1(?:\.0)?)\b",
    ), lambda found: float(found.group(1)), lambda share: f"vLLM gpu_memory_utilization {share:g}", priority=103,
        example="vllm at gpu_memory_utilization 0.85: how many 8k requests for qwen3 32b on an h100?"),
    *rows("users", (  # '2,000 employees, about 5% chatting at the same time': that share of them, before utilization
        rf"(?<![\w.$])(\d+) (?:[\w-]+ ){{0,3}}?(?:users|{v.STAFF})\b[^.?!]{{0,40}}?\b(\d+(?:\.\d+)?) ?% (?:of \w+ )?(?:\w+ ){{0,2}}?"
        + v.AT_ONCE,
    ), lambda found: max(1, round(int(found[1]) * float(found[2]) / 100)), lambda users: f"{users:,} concurrent users", priority=105,
        example="2,000 employees, about 5% of them chatting at the same time: how many h100s for mistral small 24b?"),
    *rows("jurisdiction", (  # cloud_cost's filter ('EU-only provider because of GDPR')
        r"\b(eu|eea|uk)[- ](?:only|based|hosted|resident|region)\b|\b(?:in|inside|within|stays? in) the (eu|eea|uk)\b|\b(gdpr)\b",
    ), lambda found: {"gdpr": "EU"}.get(g := next(x for x in found.groups() if x), g.upper()),
        lambda law: f"offers under {law} data law only", priority=120, example="2x h100 for 200 hours, eu-only provider: cheapest?"),
    *rows("years", (
        r"(\d+(?:\.\d+)?) ?(month|year)s? (?:horizon|term|depreciation|lifetime|amorti[sz]ation)\b",
    ), lambda found: float(found.group(1)) / (12 if found.group(2) == "month" else 1), lambda years: f"a {years:g}-year horizon",
        priority=32, example="buy or rent 8 h100s, 36 month horizon?"),
    *rows("rent_usd_per_gpu_hour", (  # after the price to buy one: '$2.10/hr', '$2 per gpu per hour', '3 bucks an hour'
        phrases.RATE_WORDS, FIGURE + r" ?(?:bucks? |dollars? |usd )?" + phrases.PER_GPU_HOUR,
    ), lambda found: float(found.group(1)), lambda usd: f"rent ${usd:g} per GPU-hour", priority=100,
        example="rent 8 h100s at $2.10/hr or buy at $25k each?"),
    Slot("one_gpu", (Pattern(r"\b(?:hold|fit|run|load|serve)s?\b(?: \S+){0,6}? (?P<alone>by itself|on its own)\b"
                             r"|\bsingle (?:cloud )?(?:gpu|card)\b"),), lambda found: True, lambda _: "one GPU alone", priority=25,
         example="cheapest gpu that holds mixtral 8x22b by itself?", scope=frozenset({"asks"}),
         claims=lambda found, text: found.span(found.lastgroup or 0)),
    Slot("requests_per_s", tuple(Pattern(prefix + (  # '20 requests per second', '50 rps', 'QPS target 25'
        r"(?P<rate>(?<![\d.])(?P<count>\d+(?:\.\d+)?) ?(?:rps|qps|req/s|(?:requests?|reqs?) ?(?:per|/|an?|each|every) ?"
        r"(?:(?:s\b|sec\w*|second)|(?P<minute>min\w*)|(?P<hour>h\b|hr|hour)|(?P<day>day))|queries (?:per|a) second)"
        r"|\b(?:qps|rps)(?: target| peak| of| is| at| around| about| =)* (?P<target>\d+(?:\.\d+)?)\b(?! ?(?:%|tok|users)))"))
        for prefix in (r"\b(?:spikes?|peaks?|peaking|max\w*|up to|bursts?)(?: \w+)?(?: to| at| of| is)? ?", "")),  # the peak first
        lambda found: round(float(found["count"] or found["target"]) / (
            60.0 if found["minute"] else 3600.0 if found["hour"] else 86400.0 if found["day"] else 1.0), 4),
        lambda rate: f"{rate:g} requests per second", priority=41, claims=lambda found, text: found.span("rate"),
        example="how many l40s to serve llama 3.1 8b at 20 requests per second?"),
)


def status_at(words: Words, position: int) -> str:
    """'asks' in the sentence that asks (or when no sentence stands out as asking), 'tells' in one that tells, 'aside'
    in one that reports others or the past."""
    if not words.asking:
        return "asks"
    return SCOPES[2 - words.tier(position)]
