"""What a question names: models, GPUs and counts, workload, formats, engine, batch, context, traffic, durations, money.

A parser, not a guesser: every value comes from a span of the question, each span is kept with what it was read as,
and every content word no reader used is listed as ignored, so an answer never rests silently on a dropped word.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from gpusizer.catalog import Catalog
from gpusizer.catalog.clouds import cloud_names

from . import money_words as phrases
from . import regex as rx
from . import vocabulary as v
from .sentences import sentence_tiers
from .shorthands import normalize
from .slots import AT_THE_SAME_TIME, FIGURE, FIGURE_K, MONEY_TALK, NUMBER_K, PER_SEQUENCE, SLOTS, Slot, Span, kilo, pair_tokens

MAX_SPAN_WORDS = 6
USED = "·"  # a used word's characters are masked with this, so later patterns cannot read it twice
Found = re.Match[str] | None


@dataclass
class Reading:
    text: str
    asked: str = ""  # the text with model and GPU names blanked ('M4 Max' asks no max)
    asking: list[tuple[int, int]] = field(default_factory=list)  # spans of `text` that ask, when others only tell
    aside: list[tuple[int, int]] = field(default_factory=list)  # spans that report others or the past ('a friend ran ...')
    reports_count: bool = True  # what `aside` says counts (no sentence asks, or the asking one refers back)
    models: list[str] = field(default_factory=list)
    params_billions: float | None = None
    gpus: list[tuple[str, int | None]] = field(default_factory=list)  # (gpu_id or 'NNGB', count or None), question order
    unknown_gpus: list[str] = field(default_factory=list)  # accelerators named that the catalog does not hold
    unknown_models: list[str] = field(default_factory=list)
    workload: str | None = None
    method: str | None = None
    method_said: bool = False  # 'lora', 'qlora', 'full fine-tune' or 'fine-tune' named; training alone leaves it open
    weights_dtype: str | None = None
    other_weights: list[str] = field(default_factory=list)  # 'q8_0 or q4_k_m': the second, answered too
    other_methods: list[str] = field(default_factory=list)  # 'lora or qlora': likewise
    kv_cache_dtype: str | None = None
    batch_size: int | None = None
    seq_len: int | None = None
    seq_len_told: bool = False  # read where a sentence tells ('it OOMs at 128k.'), not where one asks
    batch_told: bool = False  # likewise ('right now I'm at bs 2')
    output_tokens: int | None = None
    hours: float | None = None
    utilization: float | None = None
    years: float | None = None
    gradient_checkpointing: bool | None = None
    sharding: str | None = None
    optimizer: str | None = None
    training_precision: str | None = None  # 'bf16 mixed precision' (fp32 master weights and states), 'pure bf16'
    recipe: str | None = None
    pricing: str | None = None
    purchase_usd_per_gpu: float | None = None
    rent_usd_per_gpu_hour: float | None = None
    users: int | None = None  # concurrent users or requests in flight
    requests_per_s: float | None = None
    tokens_per_s_per_user: float | None = None
    gpu_memory_utilization: float | None = None
    training_tokens: float | None = None
    engine: str | None = None
    providers: list[str] = field(default_factory=list)
    one_gpu: bool = False  # 'a GPU that holds it by itself': one card, no split
    jurisdiction: str | None = None  # 'EU-only', 'because of GDPR': the data law the offers must fall under
    instances: list[str] = field(default_factory=list)  # cloud instance types named ('p4d.24xlarge'), read as their GPUs
    serving_words: bool = False  # 'serve', 'host', 'deploy': a server, not one generate() call
    size_range: bool = False  # '14b-32b models': models are the subject, no one size
    how_many_gpus: bool = False  # 'how many h100s ...': a GPU count is the question
    gpu_at: list[int] = field(default_factory=list)  # word index of each GPU, model, size and unknown GPU read
    model_at: list[int] = field(default_factory=list)
    params_at: int = -1
    unknown_gpu_at: list[int] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def model(self) -> str | None:
        return self.models[0] if self.models else None

    @property
    def gpu(self) -> str | None:
        return self.gpus[0][0] if self.gpus else None


def word_starts(text: str) -> list[int]:
    """Where each space-separated word of `text` starts: a span's word index to a position in the text."""
    starts, position = [], 0
    for word in text.split(" ") if text else []:
        starts.append(position)
        position += len(word) + 1
    return starts


class Words:
    """The question's words, which of them a reader has used, and what each used span meant."""

    def __init__(self, text: str):
        self.text = text
        self.words = text.split(" ") if text else []
        self.used = [False] * len(self.words)
        self.starts = word_starts(text)
        self.spans: list[Span] = []
        self.asking: list[tuple[int, int]] = []  # as in Reading
        self.aside: list[tuple[int, int]] = []
        self.left: list[tuple[int, int]] = []  # of `aside`, what the asker had, left or leaves out: never read
        self.reports_count = True
        self.named_again: dict[int, int] = {}  # a name's first word -> the tier of a later mention of the same thing
        self.gpu_words: set[int] = set()  # where GPU names were read (a memory size next to one is that GPU's)
        self.unknown_gpu_words: set[int] = set()  # the same, of GPUs outside the catalog
        self.unknown_count: int | None = None  # '4x A40': how many of the GPU outside the catalog
        self._masked_for: tuple[bool, ...] | None = None
        self._masked = ""

    def index_at(self, position: int) -> int:
        return next(i for i, s in enumerate(self.starts) if s + len(self.words[i]) > position)

    def masked(self) -> str:
        key = tuple(self.used)
        if key != self._masked_for:
            self._masked_for = key
            self._masked = " ".join(USED * len(w) if u else w for w, u in zip(self.words, self.used, strict=True))
        return self._masked

    def tier(self, position: int) -> int:
        """2 in a sentence that asks, 0 in one that reports others or the past, 1 elsewhere."""
        if any(a <= position < b for a, b in self.asking):
            return 2
        return 0 if any(a <= position < b for a, b in self.aside) else 1

    def search(self, *patterns: str) -> Found:
        """Of patterns in order of preference, the first to match where the question asks, then where it tells, then
        in what others report ('a friend ran it at 52k')."""
        masked = self.masked()
        found = [(n, m) for n, p in enumerate(patterns) for m in rx.compiled(p).finditer(masked)
                 if self.reports_count and not any(a <= m.start() < b for a, b in self.left) or self.tier(m.start()) > 0]
        best = min(found, key=lambda nm: (-self.tier(nm[1].start()), nm[0], nm[1].start()), default=None)
        return best[1] if best else None

    def search_all_tiers(self, pattern: str) -> Found:
        """As search, but what others reported always counts ('the ollama PR says ...': the stack is still ollama)."""
        return min(self.finditer(pattern), key=lambda m: (-self.tier(m.start()), m.start()), default=None)

    def finditer(self, pattern: str) -> list[re.Match[str]]:
        return rx.finditer(pattern, self.masked())

    def take(self, match: re.Match[str], meaning: str, group: int = 0) -> str:
        self.take_range(*match.span(group), meaning)
        return match.group(group)

    def take_range(self, start: int, end: int, meaning: str, kind: str = "", value: object = None, status: str = "") -> None:
        covered = [i for i, s in enumerate(self.starts) if s < end and s + len(self.words[i]) > start]
        for index in covered:
            self.used[index] = True
        self.spans.append(Span(" ".join(self.words[i] for i in covered), meaning, covered[0] if covered else -1, kind=kind,
                               value=value, status=status))

    def take_words(self, first: int, last: int, meaning: str) -> None:
        self.take_range(self.starts[first], self.starts[last] + len(self.words[last]), meaning)

    def tier_at(self, index: int) -> int:
        return max(self.tier(self.starts[index]), self.named_again.get(index, 0))

    def asked_again(self, first: int, again: int) -> bool:
        """Whether a thing named at word `first` is named again at `again` where the question asks more; if so, the
        first mention is asked of ('Dmitri ran llama 70b ... will llama 70b fit?')."""
        higher = self.tier_at(again) > self.tier_at(first)
        if higher:
            self.named_again[first] = self.tier_at(again)
        return higher

    def unused_content(self) -> list[str]:
        return [w for w, u in zip(self.words, self.used, strict=True)
                if not u and w not in v.STOP_WORDS and rx.search(r"[a-z0-9]", w)]


def read_question(question: str, catalog: Catalog) -> Reading:
    reading = Reading(text=normalize(question))
    reading.asking, reading.aside, left = sentence_tiers(question, reading.text)
    words = Words(reading.text)
    words.asking, words.aside, words.left = reading.asking, reading.aside, left
    find_names(words, catalog, reading)
    read_sibling_sizes(words, reading, catalog)
    reading.asked = words.masked()
    asking = " ".join(reading.asked[a:b] for a, b in reading.asking)
    own = "".join(c for i, c in enumerate(reading.asked) if words.tier(i) > 0)  # without the reports
    # 'a buddy's 3090 does 35 t/s ... what should I expect?': the asker names nothing, so the report counts
    names_own = USED in own or rx.search(r"(?<![\w.$])\d+(?:\.\d+)? ?b\b", own)
    mine = rx.search(r"\b(?:i|me|my|we|us|our)\b", asking)
    words.reports_count = not reading.asking or bool(not names_own and mine) or rx.search(v.REFERS_BACK, asking) is not None
    reading.reports_count = words.reports_count
    read_all(words, reading, (*READERS, *SLOTS))
    in_order = sorted(zip(reading.gpu_at, reading.gpus, strict=True), key=lambda pair: pair[0])
    reading.gpu_at, reading.gpus = [a for a, _ in in_order], [g for _, g in in_order]
    drop_restated_memory(words, reading, catalog)
    set_aside_what_is_only_told(words, reading)
    reading.spans, reading.ignored = words.spans, list(dict.fromkeys(words.unused_content()))
    return reading


# ---- names: models and GPUs in the catalog
def find_names(words: Words, catalog: Catalog, reading: Reading) -> None:
    """Longest spans first: 'llama 3.1 70b' before '70b', 'rtx 4090' before '4090'; then back in question order, each
    thing once (first_mentions)."""
    models: list[Mention] = []
    gpus: list[Mention] = []
    how_many_at: set[int] = set()
    again_at: set[int] = set()  # a bare family name standing for a part named (kept after the parts: part_named_before)
    tokens = words.words
    for size in range(min(MAX_SPAN_WORDS, len(tokens)), 0, -1):
        for start in range(len(tokens) - size + 1):
            if any(words.used[start:start + size]) or tokens[start] in v.STOP_WORDS:
                continue
            found = catalog.name_in_span(" ".join(tokens[start:start + size]))
            if found is None and size in (2, 3) and size_then_family(tokens[start:start + size]):
                found = catalog.name_in_span(" ".join([*tokens[start + 1:start + size], tokens[start]]))  # '7b mistral'
                found = found if found is not None and found.kind == "model" else None
            if found is None:
                continue
            before = " ".join(tokens[max(0, start - 5):start])  # 'not the 2xT4 option'
            if rx.search(NEGATION.rstrip() + r"(?: \d+(?: x)?)?$", before):
                words.take_words(start, start + size - 1, f"ruled out: {found.item_id}")
                continue
            if found.kind == "gpu" and rx.match(r"(?:gpu )?(?:laptop|mobile|max-q)\b", " ".join(tokens[start + size:start + size + 2])):
                continue  # 'an rtx 4070 laptop gpu' is another chip: read as a GPU outside the catalog
            if found.kind == "model":
                words.take_words(start, start + size - 1, f"model {found.item_id}")
                models.append((start, (found.item_id, None)))
            else:
                part = part_named_before(words, catalog, gpus, (start, size, found.item_id))
                again_at.update([start] if part else [])
                gpu_id = part or found.item_id
                gpus.append((start, (gpu_id, read_gpu_count(words, catalog, reading, (start, size, gpu_id), how_many_at, again_at))))
    named = first_mentions(words, models, how_many_at, again_at)
    reading.models, reading.model_at = [model for model, _ in named.values()], list(named)
    named = first_mentions(words, gpus, how_many_at, again_at)
    reading.gpus, reading.gpu_at = list(named.values()), list(named)
    read_tensor_parallel(words, reading)
    read_providers(words, catalog, reading)


Mention = tuple[int, tuple[str, int | None]]  # where a GPU or model was named, its id and the count said with it


def first_mentions(words: Words, mentions: list[Mention], how_many_at: set[int], again_at: set[int]
                   ) -> dict[int, tuple[str, int | None]]:
    """Each thing named once, at its first mention, in question order; named again where the question asks, it is asked
    of; a GPU's count is the one given ('a p4d.24xlarge (8x A100 40GB)'), the later where the question asks more."""
    kept: dict[int, tuple[str, int | None]] = {}
    for at, item in sorted(mentions, key=lambda mention: (mention[0] in again_at, mention)):
        first = next((a for a, other in kept.items() if other[0] == item[0]), None)
        if first is None:
            kept[at] = item
            continue
        reported = words.tier_at(first) == 0 < words.tier_at(at)  # 'someone said 2 H100s are enough. how many H100s?'
        higher = words.asked_again(first, at)
        if reported or item[1] is not None and words.tier_at(at) > 0 and (kept[first][1] is None or higher):  # not theirs
            kept[first] = item
        if at in how_many_at:
            kept[first] = (item[0], None)
    return kept


def read_tensor_parallel(words: Words, reading: Reading) -> None:
    """'TP=4': the GPU count, unless one is asked."""
    parallel = words.search(r"\btensor[ -]parallel(?:ism)?(?: of| =| size)? (\d)\b|\btp ?=? ?(\d)\b")
    if parallel:
        degree = count_of(*parallel.groups())
        words.take_range(*parallel.span(), f"tensor parallel {degree}", kind="tensor_parallel", value=degree)
        if reading.gpus and reading.gpus[0][1] is None and degree > 1 and not reading.how_many_gpus:  # 'at TP4 ... how many?'
            reading.gpus[0] = (reading.gpus[0][0], degree)


def read_providers(words: Words, catalog: Catalog, reading: Reading) -> None:
    """Providers named, in order, unless only told of ('a friend on runpod ...'); machines the offers sell, priced first;
    clouds outside the catalog; 'spot vs on-demand'."""
    named_at: list[tuple[int, str]] = []
    back = rx.search(r"\b(?:there|them|that provider|that one)\b", " ".join(words.text[a:b] for a, b in words.asking))
    for name, cloud in cloud_names(catalog, words.words).items():
        named = words.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
        if named is None:
            continue
        if not cloud.priced:  # 'what does CoreWeave charge?'
            words.take_range(*named.span(), f"{cloud.provider}, not in the catalog", kind="unpriced_cloud", value=cloud.provider)
        elif not cloud.sold:  # 'a g6e.xlarge': its GPUs priced wherever they are, the machine said to be unpriced
            words.take(named, f"machine {cloud.machine} ({cloud.provider}), not priced in the catalog")
            reading.instances.append(cloud.machine)
        elif words.asking and words.tier(named.start()) == 0 and not back:
            words.take(named, f"provider {cloud.provider}, only told of (not a limit on where to look)")
        else:
            words.take(named, f"provider {cloud.provider} {cloud.machine}".rstrip())
            named_at.append((named.start(), cloud.provider))
            reading.instances += [cloud.machine] if cloud.machine else []
    reading.providers.extend(dict.fromkeys(provider for _, provider in sorted(named_at)))
    both = words.search(r"\b(spot|on[ -]?demand)\b(?: \S+){0,2}? (?:vs\.?|versus|or|and|than|to|against) (?!\1)(spot|on[ -]?demand)\b")
    if both:  # both bills (on-demand the pricing other tools take)
        words.take_range(*both.span(), "spot and on-demand prices", kind="pricing", value="both")
        reading.pricing = "on_demand"


def read_gpu_count(words: Words, catalog: Catalog, reading: Reading, found: tuple[int, int, str], how_many_at: set[int],
                   again_at: set[int]) -> int | None:
    """A GPU named: take its words, and read the count said with it ('2x H100', 'an H100 node', 'two of the university's
    H100 nodes'; named again, only a count before it), or that a count is what is asked ('how many H100s')."""
    start, size, gpu_id = found
    words.take_words(start, start + size - 1, f"GPU {gpu_id}")
    words.spans[-1].kind, words.spans[-1].value = "gpu", gpu_id  # for cloud_cost's aliases
    words.gpu_words.update(range(start, start + size))
    if asks_how_many(words, reading, start):
        how_many_at.add(start)  # 'today 2x 4 A100s ... how many A100s in total?': the count is asked, not told
    count = count_before(words, start)
    if start in again_at:
        return count
    count = count or count_after(words, start + size, TIMES_AFTER)
    form = catalog.gpu_by_id[gpu_id].form_factor  # 'a GH200 node' is one superchip; a PCIe card's box is a PC
    node = None if form.startswith(("PCIe", "Superchip module")) else count_after(words, start + size, NODE_AFTER)
    pool = node and words.words[start + size] in ("nodes", "servers")  # how many not said
    several = count_before(words, start, SEVERAL_NODES) if node and not count else None
    return node * several if node and several else count or (None if pool else node)  # 'quotes for MI300X and H200 nodes'


FAMILY = re.compile(rf"(?:{'|'.join(re.escape(f) for f in v.MODEL_FAMILIES)})[\d.]*")


def size_then_family(tokens: list[str]) -> bool:
    """'7b mistral', '8b qwen3', '13b llama 2': a size, a model family and perhaps its version."""
    return rx.fullmatch(rf"\d+(?:\.\d+)?b {FAMILY.pattern}(?: \d+(?:\.\d+)?)*", " ".join(tokens)) is not None


def sibling_of(catalog: Catalog, model_id: str, size: str) -> str | None:
    """The catalog's model of the same family as `model_id` at `size` billions ('qwen3-30b-a3b' at 235 is
    Qwen3-235B-A22B: the name up to the size, when the whole name with the size changed is not held), or None."""
    name = model_id.split("/")[-1].lower()
    at = rx.search(r"\d+(?:\.\d+)?b", name)
    if at is None or at.group(0) == f"{size}b":
        return None
    for sibling in (name[:at.start()] + f"{size}b" + name[at.end():], name[:at.start()] + f"{size}b"):
        found = catalog.name_in_span(sibling)
        if found is not None and found.kind == "model":
            return found.item_id
    return None


def read_sibling_sizes(words: Words, reading: Reading, catalog: Catalog) -> None:
    """'80+ tok/s for gpt-oss 20b ... what would the 120b give?': a bare size after a model is that model's sibling of
    that size, when the catalog holds one; where the question asks of it, it is the subject."""
    if not reading.models:
        return
    size = words.search(r"(?<![\w.$])(?:the |a |an )?(\d+(?:\.\d+)?)b\b(?! ?(?:tokens?|params?|parameters|dense|moe|model))")
    at = words.index_at(size.start(1)) if size else -1
    if size is None or at < reading.model_at[0]:  # 'the 120b' after 'gpt-oss 20b', not before
        return
    found = sibling_of(catalog, reading.models[0], size.group(1))
    if found is None or found in reading.models:
        return
    words.take(size, f"model {found} (the {size.group(1)}B sibling of {reading.models[0]})")
    first = 0 if words.tier_at(at) > words.tier_at(reading.model_at[0]) else len(reading.models)
    reading.models.insert(first, found)
    reading.model_at.insert(first, at)


# ---- GPU counts: said before a GPU's name, after it, or apart from it
def count_of(*written: str | None) -> int:
    """The count the words say, multiplied: '8', 'two', 'a pair', 'both', 'a third'; '2' VMs of '8' GPUs each are 16."""
    count = 1
    for word in filter(None, written):
        count *= int(word) if word.isdigit() else NUMBERS[word]
    return count


COUNT = "|".join(map(re.escape, v.NUMBER_WORDS))
MACHINES = r"(?:nodes?|servers?|machines?|boxes|box)"
# the words between a count and its GPU: '8 pieces of h100', '2x the 5090', 'two used 3090s', '4x AMD MI50', and the card's
# memory ('two 16GB 4060 Ti's')
FILLERS = (r"(?: of)?(?: (?:cards?|pieces?|pcs|units?|gpus?))?(?:(?: x)? (?:used|new|old|second[ -]?hand|refurb\w*|spare"
           r"|identical|matching|more|extra|nvidia|geforce|rtx|amd|intel|rented|owned|local))?(?: x(?: the)?| of)?"
           r"(?: \d+[ -]?(?:gb|gigs?|gib|g))?")
ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8}
NUMBERS = {**v.NUMBER_WORDS, **ORDINALS, "both": 2}
# A row: a pattern, what its count means ({count}; {0}, {1}: each number it captures; {said}: the words captured) and the
# GPUs per thing counted. The count is the numbers captured multiplied, each from 1 to 4,096 (no count of GPUs is larger)
CountRows = tuple[tuple[str, str, int], ...]

# The count written before a GPU's name, first row that reads one wins; each pattern ends where the name begins
COUNTS_BEFORE: CountRows = tuple((rf"(?<!\S){pattern}(?= \S+$)", meaning, per) for pattern, meaning, per in (
    (r"(\d+) (\d+) gpus?", "{0} servers of {1} GPUs", 1),  # 'two 8-GPU H100 servers' (normalised '2 8 gpus h100')
    (rf"(?:({COUNT}|\d+) )?{MACHINES} of", f"{{0}} node(s) of {v.GPUS_PER_NODE} GPUs", v.GPUS_PER_NODE),  # 'a node of h100s'
    (rf"(?!an? )({COUNT}|\d+) of (?:the|those|these)", "{count} GPU(s)", 1),  # 'two of the 24GB cards'
    (rf"(\d+) {MACHINES} (?:x|of|with) (\d+){FILLERS}", "{0} nodes of {1} GPUs", 1),  # '2 nodes of 8 x h100'
    (rf"(\d+){FILLERS}", "{count} GPUs", 1),  # '8 x h100', 'two used 3090s'
    (rf"(?:a|the) ({'|'.join(ORDINALS)}){FILLERS}", "{count} GPU(s) (the {said[0]})", 1),  # 'squeeze a third 3060 in': three
    (rf"(both){FILLERS}(?= \S*\ds$)", "{count} GPU(s) (both)", 1),  # 'across both 3090s' (not 'both H100 and A100')
    (rf"(?:an? )?(?!an? )({COUNT}){FILLERS}", "{count} GPU(s)", 1),  # 'a pair of 4090s'
))
TIMES_AFTER: CountRows = ((r"^x ?(\d{1,4})\b", "{count} GPUs", 1),)  # 'H100 SXM5 80GB x8 node': a multiplier after the name
SEVERAL_NODES: CountRows = (  # 'two of the university's H100 nodes' (number words are digits by now)
    (r"(?<!\S)(\d+) of (?:the|our|my|their)(?: [\w'-]+)?(?= \S+$)", "{count} nodes", 1),)
NODE_AFTER: CountRows = ((r"^(?:nodes?|servers?|box)(?!\S)", f"a node of {v.GPUS_PER_NODE} GPUs", v.GPUS_PER_NODE),)  # 'an h100 node'


def take_count(words: Words, rows: CountRows, text: str, first_word: int) -> int | None:
    """The count of the first row that reads one in `text` (the masked question from word `first_word` on), its words taken."""
    for pattern, meaning, per in rows:
        found = rx.search(pattern, text)
        numbers = [count_of(said) for said in found.groups()] if found else []
        if found and all(0 < number <= 4096 for number in numbers):
            count = per * math.prod(numbers)
            first = first_word + text[:found.start()].count(" ")
            words.take_words(first, first + found.group(0).count(" "), meaning.format(*numbers, count=count, said=found.groups()))
            return count
    return None


def count_before(words: Words, start: int, rows: CountRows = COUNTS_BEFORE) -> int | None:
    return take_count(words, rows, words.masked()[:words.starts[start]] + words.words[start], 0)


HOW_MANY: CountRows = ((r"(?<!\S)(?:how many|number of)(?: (?:of )?(?:those|these|the|them))?(?= \S+$)", "how many GPUs", 1),)


def asks_how_many(words: Words, reading: Reading, start: int) -> bool:
    """'how many H100s', 'the number of those A100s': the count of the GPU named at `start` is asked, not told."""
    asked = count_before(words, start, HOW_MANY) is not None
    reading.how_many_gpus = reading.how_many_gpus or asked
    return asked


def count_after(words: Words, after: int, rows: CountRows) -> int | None:
    return take_count(words, rows, words.masked()[words.starts[after]:], after) if after < len(words.words) else None


# Counts said apart from the GPU's name, in order: (pattern, which GPUs it counts, whether it replaces a count read before)
COUNTS_APART = (
    # 'could eight of them' (not '60 of them hitting it at once': those are users)
    (r"\b(\d+) of (?:them|those|these)\b(?! (?:\w+ ){0,2}?" + v.AT_ONCE + ")", "asked", True),
    (r"\bon (\d)$", "first", False),  # 'would the 70b fit on two?'
    (r"\bonly (\d+|one) (?:gpus?|cards?)\b(?! each)|\bon (?:that|this|the) (one|single) (?:gpu|card)\b"  # 'on that one GPU'
     r"|\b(?:split |spread |sharded )?(?:across|over|between|on) (?:(both)|the (2))(?: of them| cards| gpus)?\b", "own", True),
    (r"\b(?:we|i|we'd|i'd|we'll|i'll) (?:(?:would |'d |will )?need|(?:plan to |'d |would )?buy|(?:would )?take"
     r"|(?:would |will |(?<='d )|(?<='ll ))get) (\d+)(?: of "
     r"(?:them|those|these))?\b(?! ?(?:k\b|gb|gigs?|b\b|x\b|tokens?|users|people|hours|days|weeks|months|years"
     r"|gpus? (?:of|for)|%|\.\d|tok\w*|t/s|tps|req\w*|rps|concurrent|per\b|each|more|ms\b|s\b|sec\w*))", "own", False),
    # 'H200 vs MI300X ... which gets more per node (8 gpus each)?'
    (r"\b(\d+) (?:(?:gpus|cards) (?:each|apiece|either way|on each side|per side)|of (?:each|either|both))\b", "each", False),
    (rf"\b(\d+) (?:vms?|instances?|{MACHINES}) ,? ?(\d+) gpus? each\b", "one", True),  # 'two VMs, 8 GPUs each'
    (r"(?<![\w.$])(\d+) (?:gpus|cards|chips)\b", "one", False),  # 'H100s ... 32 GPUs for 30 days'
)


def counted_gpus(words: Words, reading: Reading, which: str) -> list[int]:
    """The GPUs named that a count said apart from them counts: the first of the asker's ('prototyped on a 4090 ... we'd
    need 8 of them' counts no 4090), the first named, the asker's one (not a friend's A100), each, or the only one."""
    asked = [n for n in range(len(reading.gpus)) if words.tier_at(reading.gpu_at[n]) > 0]
    if which == "own":
        asked = [n for n in asked if not reading.gpus[n][0].endswith("GB")]
        return asked if len(asked) == 1 else []
    if which == "each":
        return list(range(len(reading.gpus))) if len(reading.gpus) >= 2 else []
    return [] if not reading.gpus or which == "one" and len(reading.gpus) > 1 else [asked[0] if asked and which == "asked" else 0]


def read_counts_after(words: Words, reading: Reading) -> None:
    """Counts written apart from the GPU: 'could eight of them', '32 GPUs for 30 days', 'two VMs, 8 GPUs each'."""
    count_asked = words.search(r"\bhow many (?:of (?:them|those|these) )?(?:would|do|will|should|must|'d) (?:i|we) (?:need|have to"
                               r" (?:buy|get|rent))\b")  # 'with RTX PRO 6000s, and how many would I need?'
    if count_asked and len(reading.gpus) == 1 and reading.gpus[0][1] is None and not reading.gpus[0][0].endswith("GB"):
        reading.how_many_gpus = True
        words.take(count_asked, "how many GPUs")
    another = words.search(r"(?<!before i go )(?<!before i )(?<!before we )\b(?:add\w*|grab\w*|get|getting|buy\w*|pick\w* up"
                           r"|throw\w* in) (?:a|one more|another) ?(second|third|fourth)?(?: one|card|gpu)\b")
    if another and len(reading.gpus) == 1 and (reading.gpus[0][1] or 1) == 1 and (another.group(1) or "second") == "second":
        reading.gpus = [(reading.gpus[0][0], 2)]  # 'i have one 3090. worth grabbing a second one for X?': the pair is asked of
        words.take(another, "a second GPU (two in all)")
    take_told(words, ((r"\b(?:quoted|pitched|proposed|recommended|suggested|sold) (?:us |me )?(?:an? )?(\d+)[ -]?(?:x )?(?:gpus?|cards?)\b",
                       "a count someone else quoted (not what is asked)"),))  # 'vendor quoted us 4 GPUs. how many do we need?': theirs
    for pattern, which, replaces in COUNTS_APART:
        found = words.search(pattern)
        counted = counted_gpus(words, reading, which) if found else []
        if found and counted and (replaces or all(reading.gpus[n][1] is None for n in counted)):
            count = count_of(*found.groups())
            for n in counted:
                reading.gpus[n] = (reading.gpus[n][0], count)
            words.take(found, f"{count} of {'each' if which == 'each' else 'the'} GPU named")


def part_named_before(words: Words, catalog: Catalog, gpus: list[Mention], found: tuple[int, int, str]) -> str | None:
    """'2 x H100 NVL ... Meta says it fits one H100': a bare family name after a part of that family is that part, unless
    asked of here and told before ('on the H100' points back either way)."""
    start, size, gpu_id = found
    family = catalog.gpu_by_id[gpu_id].family
    kin = [(a, g) for a, (g, _) in gpus if catalog.gpu_by_id[g].family == family]
    bare = rx.sub(r"[^a-z0-9]", "", " ".join(words.words[start:start + size]).removesuffix("s")) == rx.sub(r"[^a-z0-9]", "", family.lower())
    points_back = start > 0 and words.words[start - 1] in ("the", "that", "this", "those", "these", "own")
    if bare and kin and (words.tier_at(start) <= max(words.tier_at(a) for a, _ in kin) or points_back):
        return kin[0][1]
    return None


# ---- formats, workload, engine and recipe
DONT = r"(?:don't|dont|do not)"
NEGATION = (rf"\b(?:not|no|without|instead of|rather than|except|swap(?:ped|ping)?(?: out)?|replac(?:e|ed|ing)|ditch(?:ed|ing)?"
            rf"|(?:{DONT}|doesn't) have(?: any)?|{DONT} (?:count(?: the old)?|want|use|need|(?:quote|give|show) (?:me|us))"
            r"|sell(?:ing)?|sold|upgrad(?:e|ed|ing) from|switch(?:ed|ing)? from|moving from|coming from"
            r"|(?:can't|cannot|can not|won't) (?:risk|use|do|afford|tolerate))"
            r"(?: a| an| the| my| our| using| use| with)? ")
CHECKPOINTING = r"(?:gradient|activation|grad|act)[ _-]?(?:checkpoint\w*|ckpt)"
ENGINE_NAMES = "|".join(re.escape(name) for name in sorted(v.ENGINES, key=len, reverse=True))  # 'llama.cpp' before 'llama cpp'
# what can be ruled out: the formats, engines and sharding of the vocabulary, the methods, checkpointing and spot prices
NEGATABLE = "|".join((*(pattern for pattern, _ in v.WEIGHT_FORMATS), ENGINE_NAMES, CHECKPOINTING,
                      r"lora|gguf|quantization|training|fine[ -]?tuning|deepspeed|zero[ -]?\d|fsdp|checkpointing|ckpt",
                      rf"(?:\$ ?[\d.]+ ?(?:/ ?hr? )?)?{v.SPOT}|on[ -]demand"))  # 'ignore the $1.85 spot price'
SET_ASIDE = r"\b(?:ignore|disregard|forget|never) (?:about )?(?:the |that |any )?"  # 'forget about spot', 'ignore the fp16 numbers'


def read_negations(words: Words, reading: Reading) -> None:
    """'plain LoRA (not qlora)', 'without vllm', 'no gradient checkpointing', 'checkpointing turned off': what is ruled
    out is read, not used."""
    take_told(words, ((rf"\b(?:{DONT}|doesn't|didn't|not sure i) buy (?:it|that|this|the claim|them)\b", "disbelief (not a purchase)"),))
    turned_off = rf"{CHECKPOINTING}(?: (?:turned|switched|set))? (?:off|disabled)\b|\b(?:turn\w*|switch\w*) off {CHECKPOINTING}\b"
    for found in words.finditer(rf"(?:{NEGATION}|{SET_ASIDE})({NEGATABLE})\b|{turned_off}"):
        ruled_out = found.group(1) or "gradient checkpointing"
        words.take(found, f"ruled out: {ruled_out}")
        if rx.search(v.SPOT, ruled_out):  # "don't quote me spot": on-demand it is
            reading.pricing = "on_demand"
        if rx.search(r"checkpoint|ckpt", ruled_out):
            reading.gradient_checkpointing = False


def take_first(words: Words, table: list[tuple[str, str]], what: str) -> str | None:
    """The value of a vocabulary table's first row (pattern, value; the most specific first) the question says; what
    the pattern captures completes it ('zero stage 3': zero3)."""
    for pattern, value in table:
        if found := words.search(pattern):
            value += next((g for g in found.groups() if g), "")
            words.take(found, f"{what} {value}")
            return value
    return None


def read_optimizer(words: Words, reading: Reading) -> None:
    """Before the formats: '8-bit adam' is an optimizer, not 8-bit weights."""
    reading.optimizer = take_first(words, v.OPTIMIZERS, "optimizer")


def read_formats(words: Words, reading: Reading) -> None:
    kv_words = "|".join(re.escape(k) for k in sorted(v.KV_FORMATS, key=len, reverse=True))
    cache = r"(?:kv(?:[ -]?cache)?|cache)"  # 'q8 kv cache', 'go q4_0 on the kv', 'kv cache set to fp8', 'cache at q8'
    kv = (words.search(rf"\b({kv_words}) (?:quantized |quantised |(?:on|for) (?:the )?)?{cache}\b")
          or words.search(rf"\b{cache}(?: quantized| quantised| type| dtype| quant\w*)?(?: (?:is |was )?set| is| was| being)?"
                          rf"(?: also| too)?(?: in| at| of| as| to| =)? ({kv_words})\b"))
    if kv:
        reading.kv_cache_dtype = v.KV_FORMATS[kv.group(1)]
        words.take(kv, f"KV cache in {reading.kv_cache_dtype}")
    for rate in words.finditer(v.COMPUTE_PRECISION):  # 'bandwidth and bf16 compute': a card's figure, not the weights
        words.take(rate, f"the card's {rate.group(1)} compute figure (not a weights format)")
    for made in words.finditer(r"\b(?:was|were|been|is|are|got) (?:natively |originally )?(?:pre-?)?trained (?:natively )?"
                               r"(?:in|with|using|at) (fp8|fp4|mxfp4|nvfp4|bf16|fp16|fp32)\b"):
        words.take(made, f"trained in {made.group(1)} (how the model was made, not the weights asked about)")
    any_format = "|".join(f"(?:{pattern})" for pattern, _ in FORMATS)
    found = words.search(any_format) or format_of_a_name(words, any_format)  # the first named where the question asks
    # 'will X in bf16 fit, or do we need the fp8 checkpoint?': bf16, and fp8 answered too
    same_bits = SAME_BITS.get(format_named(found), ()) if found else ()
    if found and same_bits:  # '4-bit AWQ': the format that names the bits
        specific = words.search(*(p for p, d in FORMATS if d in same_bits or d == "gguf"))
        if specific and words.tier(specific.start()) == words.tier(found.start()) and format_named(specific) in same_bits:
            found = specific
    if found:  # vLLM and SGLang load no GGUF: 'q4' there is a 4-bit checkpoint
        served = rx.search(r"^(?!.*(?:gguf|llama\.cpp|ollama)).*\b(?:vllm|sglang)\b", words.text)
        named = format_named(found)
        reading.weights_dtype = {"q4_k_m": "int4", "q8_0": "int8"}.get(named, named) if served else named
        words.take(found, f"weights in {reading.weights_dtype}")
    gguf = words.search(r"\bggufs?\b")
    if gguf:
        words.take(gguf, "a GGUF file" if found else "a GGUF release (its quantization not given)")
    if found:
        read_other_formats(words, reading)
    elif gguf:
        reading.notes.append("GGUF named without a quantization type: name one (e.g. Q4_K_M) to size it")


def format_of_a_name(words: Words, pattern: str) -> Found:
    """A format written onto the model's name ('LM Studio flags gemma 3 27b Q6_K as too large'): the release the
    question is about, wherever the name was read."""
    for span in words.spans:
        if span.meaning.startswith("model ") and span.at >= 0:
            last = span.at + len(span.words.split(" ")) - 1
            end = words.starts[last] + len(words.words[last]) if last < len(words.words) else len(words.text)
            attached = re.compile(rf" (?:{pattern})").match(words.masked(), end)
            if attached:
                return attached
    return None


FORMATS = [(pattern, dtype) for pattern, dtype in v.WEIGHT_FORMATS if dtype]  # the storage formats (QLoRA is a method)


def format_named(found: re.Match[str]) -> str:
    """The format a match names: its dtype, or the GGUF quantization type written ('q4_k_m')."""
    dtype = next(d for p, d in FORMATS if rx.search(p, found.group(0)))
    return found.group(found.lastindex or 0) if dtype == "gguf" else dtype


SAME_BITS = {"int4": ("awq", "gptq", "nf4", "mxfp4", "nvfp4", "q4_k_m", "q4_k_s", "q4_0", "q4_1", "iq4_xs", "iq4_nl"),
             "int8": ("q8_0", "fp8")}  # 'gptq int4' names one format, not two


def read_other_formats(words: Words, reading: Reading) -> None:
    """'q8_0 or q4_k_m', 'fp8 vs int4': each further format named is answered too."""
    for pattern, _ in FORMATS:
        while found := words.search(pattern):
            other = format_named(found)
            words.take(found, f"also weights in {other}")
            named_already = other == reading.weights_dtype or reading.weights_dtype in SAME_BITS.get(other, ())
            if not named_already and other not in reading.other_weights:
                reading.other_weights.append(other)


SERVES = (r"\b(?:serv\w*|host\w*|deploy\w*|inference|req(?:uest)?s?/s|concurrent|(?:requests?|req|queries) (?:per|a|/) ?"
          r"(?:second|sec|s|minute|min)|rps|qps)\b")


def read_workload(words: Words, reading: Reading) -> None:
    qlora = words.search(r"\bq[ -]?lora\b")
    lora = words.search(r"\blora\b|\badapters?\b|\bpeft\b")
    full = words.search(r"\bfully?(?: parameters?| params?| bf16| fp16| precision)?[ -]?(?:fine[ -]?tun\w*|ft|sft)\b"
                        r"|\bfull[ -]param\w*|\b(?:fine[ -]?tun\w*|train) \S+(?: \S+){0,3} fully\b")
    tune = words.search(r"\b(?:fine[ -]?tun\w*|sft|dpo|grpo|rlhf|ft)\b")
    if tune and not full:  # 'ft time qwen2.5 32b full, 8x h100': 'full' alone after a fine-tune names the method
        full = words.search(r"\bfull\b(?= ,| ?$| (?:run|training|ft)\b)")
    tune = asked_of(words, tune)
    train = asked_of(words, words.search(r"\b(?:pre[ -]?train\w*|from[ -]scratch|train(?!ers?\b)\w*)\b"))  # 'the HF Trainer': a recipe
    if not full and (tune or train):  # 'continue pretraining ..., all parameters': every weight trained
        full = words.search(r"\b(?:all|every)(?: the| of the| its)? (?:parameters|params|weights)\b")
    if qlora and lora and not rx.fullmatch(r"lora", lora.group(0)):
        lora = None  # 'adapter qlora': an adapter is what QLoRA trains
    qlora, lora, full = methods_asked(words, reading, qlora, lora, full)
    read_method(words, reading, (qlora, lora, full, tune, train))


REBUILT = r"\b(?:rebuild\w*|build\w*|start\w*|rewrit\w*|redo\w*|set(?:ting)? up)(?: [\w'-]+){0,3} $"
OWNED = r"\b(?:a|an|our|my|the|your|their|this|that|own|\w+'s)(?: \w+)? $"
# Training words that say how the model was made, not a training asked of: (the words, how the text before them ends,
# what the question says anywhere); '' is anything
MADE = (
    (r"fine[ -]?tuned\b", OWNED, ""),  # 'serving our fine-tuned X'
    # 'We fine-tuned Yi 34B ... and serve it with vllm': the tuning is done; the question serves it
    (r"fine[ -]?tuned\b", r"\b(?:we|i|they)(?:'ve| have)?(?: already)? $", SERVES),
    (r"fine[ -]?tunes?\b", OWNED, SERVES),  # 'we're serving our own fine-tune called acme-support-8b': a model, served
    (r"(?:dpo|sft|grpo) (?:v\d|\d+(?:\.\d+)?b\b)", "", ""),  # 'kunoichi dpo v2 7b', 'tulu sft 8b': how the model was made
    (r"from[ -]scratch", REBUILT, ""),  # 'rebuilding the deployment from scratch' trains nothing
    (r"(?:pre[ -]?)?trained\b", "", SERVES),  # 'a model we pretrained in house ... for inference': the question serves it
)


def asked_of(words: Words, found: Found) -> Found:
    """A fine-tune or training, unless the words say how the model was made."""
    made = found and any(rx.match(said, words.text[found.start():]) and rx.search(before, words.text[:found.start()])
                         and rx.search(anywhere, words.text) for said, before, anywhere in MADE)
    return None if made else found


def methods_asked(words: Words, reading: Reading, qlora: Found, lora: Found, full: Found) -> tuple[Found, Found, Found]:
    """The methods where the question asks; of 'lora or qlora' the first, the other answered too."""
    named = [m for m in (qlora, lora, full) if m]
    top = max((words.tier(m.start()) for m in named), default=1)
    asked = [m for m in named if words.tier(m.start()) == top]
    if asked and len(asked) < len(named):  # 'a friend did LoRA ... which GPU to QLoRA it?': the method asked about
        qlora, lora, full = (m if m in asked else None for m in (qlora, lora, full))
    elif full and (qlora or lora) and full.start() < min(m.start() for m in (qlora, lora) if m):
        qlora = lora = None  # 'full fine-tuning (not lora), ... lora is not enough': the first named
    if qlora and lora:  # 'lora or qlora?': the first named is read, the other answered beside it
        other = "lora" if qlora.start() < lora.start() else "qlora"
        reading.other_methods.append(other)
        words.take(lora if other == "lora" else qlora, f"also {other}")
        qlora, lora = (qlora, None) if other == "lora" else (None, lora)
    return qlora, lora, full


def read_method(words: Words, reading: Reading, found: tuple[Found, Found, Found, Found, Found]) -> None:
    """The method (full when only 'fine-tune' is said), 'from scratch', gradient checkpointing."""
    qlora, lora, full, tune, train = found
    said = qlora or lora or full or tune
    if said:
        reading.method = "qlora" if qlora else "lora" if lora else "full"
        named = "QLoRA" if qlora else "LoRA" if lora else "full" if full else None
        words.take(said, f"{named} fine-tuning" if named else "fine-tuning (no LoRA or QLoRA named)")
    scratch = next((m for m in words.finditer(r"\bfrom[ -]scratch\b") if not rx.search(REBUILT, words.text[:m.start()])), None)
    if scratch:
        words.take(scratch, "training from scratch")
    if reading.method or train:  # 'fine-tune' alone names no method: full is assumed, and said to be
        reading.workload, reading.method_said = "training", bool(qlora or lora or full)
        reading.method = reading.method or "full"
    if reading.workload == "training" and reading.weights_dtype in ("int4", "nf4") and not full \
            and reading.method in ("lora", "full"):  # 'LoRA in 4-bit', 'load_in_4bit=True' in a trainer: QLoRA's 4-bit base
        reading.method, reading.method_said, reading.weights_dtype = "qlora", True, None
    for extra in (tune if full or qlora or lora else None, train):
        if extra and not words.used[words.index_at(extra.start())]:
            words.take(extra, "training")
    checkpointing = words.search(rf"{CHECKPOINTING}\b|\bcheckpointing\b")
    if checkpointing:
        words.take(checkpointing, "gradient checkpointing")
        reading.gradient_checkpointing = True


def read_stack(words: Words, reading: Reading) -> None:
    """Engine, recipe, sharding and pricing, each by its own name."""
    found_at: list[tuple[str, int]] = []
    chosen = words.search_all_tiers(rf"\b(?:mov|switch|migrat|go)(?:e|es|ed|ing)? to ({ENGINE_NAMES})(?![\w])")
    for name in sorted(v.ENGINES, key=len, reverse=True):
        # in a report, an engine counts where the report is its own ('the ollama PR says ...')
        found = (words.search(rf"(?<![\w.]){re.escape(name)}(?![\w])")
                 or words.search_all_tiers(rf"(?<![\w.]){re.escape(name)}(?= (?:[\w-]+ )?" + v.ENGINE_SOURCES + ")"))
        if found:
            moved = rx.search(v.MOVING_TO, words.text[:found.start()]) is not None  # 'runs ollama now; moving to X via vllm'
            found_at.append((v.ENGINES[name], words.tier(found.start()) + moved))
            words.take(found, f"engine {v.ENGINES[name]}")
    if chosen:  # 'tried ollama ... moving to sglang': the engine moved to
        found_at = [(v.ENGINES[chosen.group(1)], 3)]
    top = max((t for _, t in found_at), default=1)
    named = [e for e, t in found_at if t == top]  # 'we prototyped with ollama ... which GPU to serve it with vllm?'
    either = rx.search(rf"\b({ENGINE_NAMES}) (?:or|vs\.?|versus) ", words.text)
    if len(set(named)) == 1:
        reading.engine = named[0]
    elif named and either:  # 'vllm or llama.cpp for ...': the first is read (and the answer says so)
        reading.engine = v.ENGINES[either.group(1)]
    elif named:
        reading.notes.append(f"several engines named ({', '.join(dict.fromkeys(named))}): say which one to size")
    reading.recipe = take_first(words, v.RECIPES, "recipe")
    reading.sharding = take_first(words, v.SHARDING, "sharding")
    deepspeed = words.search(r"\bdeepspeed\b") if reading.sharding else None
    if deepspeed:
        words.take(deepspeed, "DeepSpeed")
    spot = words.search(rf"\b{v.SPOT}\b")
    on_demand = words.search(r"\bon[ -]?demand\b")
    if spot:
        reading.pricing = "spot"
        words.take(spot, "spot prices")
    elif on_demand:
        reading.pricing = "on_demand"
        words.take(on_demand, "on-demand prices")


# ---- GPUs the catalog does not name
MEMORY = r"(\d{1,3}(?:\.\d+)?) ?(?:gb|gigs?|gib|g)\b(?! ?/ ?s\b|ps\b| ?per sec)"  # 'gigabytes' is made 'gb' first; GB/s no memory
NOT_GPU_MEMORY = (r"(?! ?(?:of |on )?(?:system |cpu |ddr\d? |unified )?(?:ram|ddr\d?|system|disk|ssd|storage|download|file|model"
                  r"|(?:kv )?cache|kv|context|weights|activations?)\b)")


def read_gpu_memory(words: Words, reading: Reading) -> None:
    """'a 24GB card', '48 gigs of vram', '80G', 'two 16 gb gpus': a GPU known by its memory. Next to a named GPU the
    size is that GPU's own ('4090 24gb'); before 'ram' it is system memory, not a GPU."""
    for found in words.finditer(MEMORY + NOT_GPU_MEMORY + r"(?: of)?(?: v?ram| memory)?"):
        first = words.index_at(found.start())
        size = float(found.group(1))
        before, after = words_near(words, first, -4, 0), words_near(words, first, 1, 5)
        if rx.search(r"\b(?:eat\w*|us(?:e|es|ing)|tak(?:e|es|ing)|took|consum\w*|allocat\w*|at least|needs?|wants?|requires?|shows?)"
                     r"(?: \w+)?$|\b(?:files?|weights?|checkpoints?|downloads?|disk|gguf|model|quant)s?(?: alone| itself)? "
                     r"(?:is|are|weighs?)(?: only| about| around| near| nearly| roughly| like)?$"
                     r"|\b(?:so|=|which is|that's|thats|that is|thus|hence|i\.?e\.?|comes to|works out to)(?: about| around| roughly)?$"
                     r"|\b(?:says?|said|claims?|claimed|reckons?)(?: only| about| around| that)?$",
                     before):  # what something uses or needs, or what its files weigh, is no GPU
            words.take(found, "memory used or needed (not a GPU)")
            continue
        unknown = words.unknown_gpu_words & set(range(first - 3, first))
        own_card = rx.search(r"\b(?:a|an|my|one|\d)$", before) and rx.match(r"(?:gb |g |gib |gigs? )?(?:cards?|gpus?|graphics)", after)
        describes = bool(words.gpu_words) and not own_card
        # '14.99 GB' in a log is a measurement, not a card's size
        if describes and not unknown or not 4 <= size <= 1536 or rx.search(r"\.\d\d", found.group(1)):
            words.take(found, "memory of the GPU named")
            continue
        words.take_range(*found.span(), f"a GPU with {size:g} GB" + (" (the memory of the GPU named)" if unknown else ""),
                         kind="gpu_memory", value=f"{size:g}GB")
        count = words.unknown_count if unknown else count_before(words, first)
        if count is None:
            asks_how_many(words, reading, first)  # 'how many 16gb cards would it take?'
        reading.gpus.append((f"{size:g}GB", count))
        reading.gpu_at.append(first)


def drop_restated_memory(words: Words, reading: Reading, catalog: Catalog) -> None:
    """A memory size that restates GPUs already read is not one more GPU: 'a 24GB card' beside 'my 4090', or '192GB'
    after '4x A40 (48GB each)' (their total); '2x 24gb vs one 48gb' sets them side by side and keeps both."""
    def memory_gb(gpu_id: str) -> float:
        return float(gpu_id[:-2]) if gpu_id.endswith("GB") else catalog.find_gpu(gpu_id).memory_gb

    def set_apart(a: int, b: int) -> bool:  # 'vs' anywhere between; 'and'/'or' only close by ('a 4090 and a 24gb 3090')
        between = words.words[min(a, b):max(a, b)]
        near = len(between) <= 6 and any(w in ("and", "or", "plus", "+") for w in between)
        return near or bool(rx.search(r"\b(?:vs|versus|compar\w*|than|instead)\b", " ".join(between)))

    at = list(reading.gpu_at)
    dropped: set[int] = set()
    for n, (gpu_id, count) in enumerate(reading.gpus):
        restated = next((m for m, (g, c) in enumerate(reading.gpus)
                         if m != n and m not in dropped and (m < n or not g.endswith("GB")) and not set_apart(at[n], at[m])
                         and any(abs(memory_gb(gpu_id) - memory_gb(g) * k) < 1 for k in {1, c or 1})), None)
        if gpu_id.endswith("GB") and (count or 1) == 1 and restated is not None:
            span = next(s for s in words.spans if s.kind == "gpu_memory" and s.value == gpu_id)
            span.meaning = "the memory of the GPUs named (again, or in total)"
            if words.tier_at(at[n]) > words.tier_at(at[restated]):  # restated where the question asks: asked of, then
                at[restated] = at[n]
            dropped.add(n)
    reading.gpus = [g for n, g in enumerate(reading.gpus) if n not in dropped]
    reading.gpu_at = [a for n, a in enumerate(at) if n not in dropped]


TOLD = "told about, not asked about"


def set_aside_told(reading: Reading, gpus: bool = False, subject: bool = False) -> None:
    """The question asks for a GPU ('which gpu should I buy?') or a model ('the biggest I can run?') and its asking
    sentence names none: the GPUs (or the model) only told about are background, not what is asked about."""
    starts = word_starts(reading.text)

    def asks(index: int) -> bool:
        return any(a <= starts[index] < b for a, b in reading.asking)
    if gpus and not any(asks(s.at) for s in reading.spans if s.kind in ("gpu", "unknown_gpu")):
        for kind in ("gpus", "unknown_gpus"):
            keep_named(reading.spans, reading, kind, [], TOLD)
    told = (not any(asks(a) for a in reading.model_at) if reading.models  # the models named, else the size said
            else reading.params_billions is not None and reading.params_at >= 0 and not asks(reading.params_at))
    if subject and told:
        keep_named(reading.spans, reading, "models", [], TOLD)
        if reading.params_at >= 0:
            set_aside(reading.spans, reading.params_at, "a model size told about, not asked about")
        reading.params_billions, reading.unknown_models = None, []


def words_near(words: Words, at: int, first: int, last: int) -> str:
    """The words from `at + first` up to `at + last`: words_near(words, at, -4, 0) are the four before word `at`."""
    return " ".join(words.words[max(0, at + first):max(0, at + last)])


Cues = tuple[tuple[str, int, int], ...]  # (a cue, and the words around a name it is read in, as words_near's window)


def cue_near(words: Words, at: int, cues: Cues) -> Found:
    """The first of `cues` said around the name at word `at`."""
    return next((found for cue, first, last in cues if (found := rx.search(cue, words_near(words, at, first, last)))), None)


# Where a GPU is ('at home I have a 3090', 'a 4x A100 box at work', 'the new 256x H200 cluster'): a place said in its
# clause, before it first, else an age just before it ('new' and 'old' stand for the setups coming and going)
PLACE_CUES: Cues = ((rf".*{v.PLACES}(?!.* , )", -8, 0), (rf"^(?:(?! , ).)*?{v.PLACES}", 0, 5), (rf".*{v.AGE}", -4, 0))
# The asker's own move to a GPU: to it (not someone else's move), getting it, it 'instead'
MOVE_CUES: Cues = (
    (r"^(?!.*\b(?:who's|who is|who was|that was|which was|that's|he's|she's|they're|he|she|they|their|his|her)\b).*?"
     rf"(?:{v.MOVING_TO.pattern}(?: \w+){{0,2}}$)", -4, 0),  # 'if we move to H200s'
    (r"\b(?:picking up|pick up|buying|getting|grabbing|ordering|ordered|receiving)(?: (?:a|an|the|two|\d+|another))?$", -3, 0),
    (r"^(?:\S+ ){0,2}instead\b", 1, 4))


def place_of(words: Words, at: int) -> str | None:
    found = cue_near(words, at, PLACE_CUES)
    return age_or_place(found.group(1)) if found else None


def age_or_place(words: str) -> str:
    first = words.split()[0]
    return "new" if first == "new" else "old" if first in ("old", "current", "existing", "today's") else words


# What a question names, where each name was said, and how a name set aside is shown ('GPU H100', 'model qwen-7b')
NAMED = {"gpus": ("gpu_at", "GPU {0[0]}"), "unknown_gpus": ("unknown_gpu_at", "GPU '{0}'"), "models": ("model_at", "model {0}")}


def keep_named(spans: list[Span], reading: Reading, kind: str, keep: list[bool], why: str) -> None:
    """Keep the names of a kind (a key of NAMED) marked so, none when `keep` is empty; each other one is set aside,
    its span saying why."""
    at_field, shown = NAMED[kind]
    named, named_at = getattr(reading, kind), getattr(reading, at_field)
    keep = keep or [False] * len(named)
    for at, name, kept in zip(named_at, named, keep, strict=True):
        if not kept:
            set_aside(spans, at, f"{shown.format(name)}, {why}")
    setattr(reading, kind, [n for n, k in zip(named, keep, strict=True) if k])
    setattr(reading, at_field, [a for a, k in zip(named_at, keep, strict=True) if k])


def set_aside(spans: list[Span], at: int, meaning: str) -> None:
    """The spans read at word `at` are named but not what is asked about; `meaning` says why."""
    for span in spans:
        if span.at == at:
            span.meaning, span.set_aside = meaning, True


def moved_to(words: Words, named_at: list[int], at: int) -> bool:
    """The GPU or model at word `at` is the one the asker moves to or gets (MOVE_CUES), plans to buy ('a 5070 Ti on sale
    for $749 and am thinking of pulling the trigger': nothing else of its kind named up to a few words past the plan:
    'buying H200s'), or changes to from another ('from a single RTX A6000 (...) to 2x RTX 6000 Ada')."""
    after = words_near(words, at, 1, 15)
    plan = rx.search(v.BUYING_PLAN, after)
    past_plan = at + 6 + after[:plan.end()].count(" ") if plan else at
    return words.tier_at(at) > 0 and bool(
        cue_near(words, at, MOVE_CUES) or plan and not any(at < other <= past_plan for other in named_at)
        or rx.search(r"\bto\b", words_near(words, at, -3, 0)) is not None and any(
            rx.search(r"\bfrom(?: \S+){0,3}$", words_near(words, other, -4, 0)) for other in named_at if other < at))


Asides = list[tuple[str, list[bool], str]]  # (a key of NAMED, which of its names stay asked about, why the others do not)


def split(keep: list[bool]) -> bool:
    return any(keep) and not all(keep)


def the_setup_left(words: Words, reading: Reading, asking: str) -> Asides:
    """'two replicas on 4x A100 ... if we move to H200s': the H200s; 'runs mixtral today; the plan is to move it to llama
    3.3 70b': the llama; none when they are weighed ('torn between moving to H100 or B200')."""
    torn = rx.search(r"\b(?:between|torn|either|vs\.?|versus)\b", words.text)
    asides = [(kind, [not torn and moved_to(words, named_at, a) for a in named_at], why) for kind, named_at, why
              in (("gpus", reading.gpu_at, "the setup being left"), ("models", reading.model_at, "the one being left"))]
    return [aside for aside in asides if split(aside[1])]


def at_other_places(words: Words, reading: Reading, asking: str) -> Asides:
    """'At work we have 4x A100, at home a 3090. At home, how fast...?': the GPUs at the place asked about ('onto those
    4 cards': of the count asked about); a GPU outside the catalog is then not the one asked about."""
    asked, counted = rx.search(v.PLACES, asking), rx.search(v.COUNTED_BACK, asking)
    if asked is not None:
        keep = [place_of(words, a) == age_or_place(asked.group(1)) for a in reading.gpu_at]
    else:
        keep = [counted is not None and c == count_of(counted.group(1)) for _, c in reading.gpus]
    if not split(keep):
        return []
    for place in words.finditer(v.PLACES) if asked else []:  # 'at home' is read: where each GPU is, and which is asked about
        words.take(place, f"a place ({age_or_place(place.group(1))})")
    return [("gpus", keep, "at another place than the one asked about"), ("unknown_gpus", [], "not the one asked about")]


def left_out(words: Words, reading: Reading, asking: str) -> Asides:
    """'Forget the Mac for now: on the 3090 box...': a GPU or model the question says to leave out, by its first words
    ('ignore it' names none)."""
    said = [found.group(1) for found in rx.finditer(v.LEAVE_OUT, words.text)]
    left = [word for word in said if len(word) > 1 and word not in v.STOP_WORDS]
    return [(kind, [not any(w.startswith(word) for word in left for w in words.words[a:a + 3]) for a in getattr(reading, at_field)],
             "left out as the question says") for kind, (at_field, _) in NAMED.items()]


def only_told(words: Words, reading: Reading, asking: str) -> Asides:
    """'My old box had a 5080 ... does gpt-oss fit across the two 3090s?': when the sentence that asks names GPUs, those
    named only in sentences that tell are background; a model named where the question asks comes first."""
    tiers = [words.tier_at(a) for a in reading.gpu_at]
    # 'a friend runs it on a 5090 ... is that possible on his card?', 'the rep claims X: is that true?': theirs is asked of
    if rx.search(r"\b(?:his|her|their) (?:card|gpu|rig|setup|box|machine|build)s?\b", asking) or v.CHECKS_A_CLAIM.search(asking):
        tiers = [2 if t == 0 and not any(a <= words.starts[i] < b for a, b in words.left) else t
                 for t, i in zip(tiers, reading.gpu_at, strict=True)]
    unknown_tiers = [words.tier_at(a) for a in reading.unknown_gpu_at]
    catalog_top = max((t for t, (gpu, _) in zip(tiers, reading.gpus, strict=True) if not gpu.endswith("GB")), default=0)
    theirs = not words.reports_count  # 'a friend's 2 A100s ... how much VRAM for mine?'
    if tiers and max(tiers) == 0 and not (reading.models or reading.params_billions is not None or reading.unknown_models):
        theirs = False  # 'our rep keeps bringing up the MI325X. what are its specs?': the only thing named is asked about
    top = max(tiers + unknown_tiers, default=1)
    not_gpus = r"(?:the )?(?:cloud|rent\w*|buy\w*|on-?prem\w*|own\w*)\b"  # 'buying compared to renting' sets no GPUs side by side
    comparing = rx.search(rf"\b(?:(?:vs\.?|versus)(?! {not_gpus})|compar\w*(?! (?:to|with|against) {not_gpus})|stack up"
                          r"|against|(?:faster|slower|better|worse|cheaper) than|worth it|between (?:them|the two|both))\b",
                          words.text) is not None  # 'h200 vs h100 for X. is the h200 worth it?': both are candidates,
    most = max(tiers, default=1)
    comparing = comparing and tiers.count(most) < 2  # unless two are asked of already
    open_hardware = v.HARDWARE_OPEN.search(words.text) is not None  # 'no hardware picked yet': the GPUs told are not asked
    asked = [(t == most or comparing and t > 0) and (t > 0 or not theirs) and (t > 1 or not open_hardware)
             for t in tiers]
    # a GPU outside the catalog yields to others' stories, to 'no hardware picked yet' and to a catalog GPU asked about
    # ('been renting a40s ... does buying the 4090 beat renting?': the 4090)
    unknown_asked = [(t > 0 or not (theirs or top > 0)) and (t > 1 or not open_hardware)
                     and not (t < catalog_top and name not in asking and not comparing)
                     for t, name in zip(unknown_tiers, reading.unknown_gpus, strict=True)]
    in_order = sorted(zip(reading.model_at, reading.models, strict=True), key=lambda pair: (-words.tier_at(pair[0]), pair[0]))
    reading.model_at, reading.models = [a for a, _ in in_order], [m for _, m in in_order]
    return [("unknown_gpus", unknown_asked, TOLD), ("gpus", asked, TOLD)]


def set_aside_what_is_only_told(words: Words, reading: Reading) -> None:
    """Each GPU and model named stays asked about unless a rule sets it aside, in this order, each rule reading the names
    those before it kept: the setup being left, and where a sentence asks or reports: another place than the one asked
    about, a name the question leaves out, a name only told about."""
    asking = " ".join(words.text[a:b] for a, b in words.asking)
    rules = (the_setup_left, at_other_places, left_out, only_told) if words.asking or words.aside else (the_setup_left,)
    for rule in rules:
        for kind, keep, why in rule(words, reading, asking):
            keep_named(words.spans, reading, kind, keep, why)


def read_unknown_gpus(words: Words, reading: Reading) -> None:
    """Accelerators the catalog does not hold ('3080', 'M2 Ultra Mac Studio'), adjacent pieces read as one name."""
    masked_before = words.masked()
    covered = {i for pattern in v.UNKNOWN_GPU_PATTERNS for m in words.finditer(pattern) if m.group(0).strip() for i in range(*m.span())}
    pieces = "".join("x" if i in covered else " " for i in range(len(masked_before)))
    for start, end in (run.span() for run in rx.finditer(r"x+(?: x+)*", pieces)):  # pieces a space apart are one name
        name = rx.sub(r"(\d)s$", r"\1", masked_before[start:end].strip())  # 'two Tesla P40s': a P40
        first = words.index_at(start)
        if rx.search(NEGATION.rstrip() + "$", words_near(words, first, -4, 0)):  # 'swapped my 3070 for a 7900 xtx': the 3070 is gone
            words.take_range(start, end, f"ruled out: '{name}'")
            continue
        words.take_range(start, end, f"GPU '{name}' (not in the catalog)", kind="unknown_gpu", value=name)
        words.unknown_gpu_words.update(range(first, words.index_at(end - 1) + 1))
        words.unknown_count = words.unknown_count or count_before(words, first)
        if any(name == n or n.endswith(" " + name) for n in reading.unknown_gpus):  # the same GPU named again ('both P40s')
            continue
        reading.unknown_gpus.append(name)
        reading.unknown_gpu_at.append(first)
    after = words.masked()  # the names just read are blanked in what the question asks too
    reading.asked = "".join(a if b != a and a == USED else r for r, a, b in zip(reading.asked, after, masked_before, strict=True))


# ---- numbers
def read_percentile_outputs(words: Words) -> None:
    """'p50 output 180 tokens, p99 output 650 tokens (size for the p99)': one percentile is sized for, the one the
    question says to size for, else the median; the others are set aside, so the output read next is that one."""
    said = words.finditer(r"\bp(\d{2,3}) (?:output|completion|generation|response)s?(?: length| len)?(?: of| is| at| ~| =| :)* ?"
                          r"\d+(?:\.\d+)? ?k?(?: tokens?)?\b")
    if len(said) < 2:
        return
    chosen = rx.search(r"\b(?:siz|plan|provision)\w* (?:for|to|on|at|against) (?:the )?p(\d{2,3})\b", words.text)
    keep = chosen.group(1) if chosen else "50"
    if not any(m.group(1) == keep for m in said):
        keep = said[0].group(1)
    for found in said:
        if found.group(1) != keep:
            words.take(found, f"the p{found.group(1)} output (not the percentile sized for)")
    if chosen:
        words.take(chosen, f"sized for the p{keep} output")


TOKEN_WORD = r"(?:tokens?|toks?)"
ABOUT = r"(?:about |around |roughly |maybe )"  # a figure given roughly: 'of about 1k tokens', 'averaging maybe 800 tokens'
ROW_COUNT = FIGURE + r" ?(k|m|million|thousand)? (?:[a-z-]+ )?"  # '20k samples', '1.5 million support rows'
ROW_NOUNS = r"samples|examples|rows|conversations|documents|docs|pairs|chats|tickets|instructions|dialogues|records"
ROWS = ROW_COUNT + rf"(?:{ROW_NOUNS})\b"
ROWS_OF_LENGTH = (ROW_COUNT + rf"(?:{ROW_NOUNS}|sequences) ,? ?(?:(?:of|at|with|averaging|avg|each of|packed (?:to|into)|truncated to"
                  rf"|padded to|each|x|times) {ABOUT}?|{ABOUT}){NUMBER_K} " + TOKEN_WORD
                  + r"(?: each)?\b(?! ?/ ?s|/sec| per s| a s)")  # not '20 tok/s each'
AVERAGE_LENGTH = (FIGURE_K + " " + TOKEN_WORD + r" (?:avg|average|each|on average|apiece|mean"
                  r"|per (?:example|sample|row|conversation|doc|document|record))\b"
                  r"|\b(?:avg|average|averaging|mean)(?: length| len| of| is| about| around| roughly)* " + NUMBER_K + " "
                  + TOKEN_WORD + r"\b")
ROW_SCALE = {"k": 1e3, "m": 1e6, "million": 1e6, "thousand": 1e3}


def read_token_counts(words: Words, reading: Reading) -> None:
    """'on 1T tokens', '20B tokens of data', '20k samples of ~1k tokens each'; not a price's unit or a load per day."""
    scale = "|".join(sorted(v.TOKEN_SCALE, key=len, reverse=True))
    tokens = r"(?:output |input |generated )?" + TOKEN_WORD + r"\b"
    for pattern, kind, value in phrases.TOKENS_TOLD if rx.search(r"train|tun|optimal|scratch", words.text) else ():  # 'advisor thinks 100B'
        found = words.search_all_tiers(pattern)
        if found:
            words.take_range(*found.span(), kind, kind=kind, value=float(found[1]) * v.TOKEN_SCALE[found[2]] if found.lastindex else value)
    take_told(words, ((rf"\bper (?:\d+(?:\.\d+)? ?)?(?:{scale}) {tokens}|\b1 ?(?:{scale}) {tokens} (?:would |will |does |do )?cost",
                       "tokens a price is quoted per (not training data)"),))  # 'cost per million output tokens'
    corpus = words.search(rf"(\d+(?:\.\d+)?) ?({scale}) {TOKEN_WORD}\b(?! ?(?:/|per) ?s)(?! context)")
    volume = corpus and rx.match(r" ?(?:/ ?|per |a |each |every )(?:day|month|week)\b|/d\b| daily\b", words.text[corpus.end():])
    trains = rx.search(r"\b(?:train\w*|fine[ -]?tun\w*|sft|epochs?|dataset|corpus|lora|qlora)\b", words.text)
    if corpus and volume and not trains:  # 'we pay OpenAI for ~5M tokens/day of summarization': a load, not a dataset
        words.take_range(corpus.start(), corpus.end() + volume.end(), "tokens served per period (not training data)")
        corpus = None
    short = corpus is not None and v.TOKEN_SCALE[corpus.group(2)] < 1e6  # '2k examples of 1k tokens each': a length, not a dataset
    corpus = None if short else corpus
    if corpus:
        reading.training_tokens = float(corpus.group(1)) * v.TOKEN_SCALE[corpus.group(2)]
        words.take(corpus, f"{reading.training_tokens:.3g} training tokens")
        if not rx.match(r" ?(?:in )?(?:total|in all|overall|all told|after)\b", words.text[corpus.end():]):
            read_epochs(words, reading)
    rows = None if corpus or short and not trains else words.search(ROWS_OF_LENGTH)
    if rows:  # the data is their product; each is a sequence of that length, unless it is an average
        count = row_count(rows)
        length = kilo(rows.group(3), rows.group(4))
        reading.training_tokens = count * length
        if not rx.search(rf"\bav(?:era)?g|\b{ABOUT}", rows.group(0)):
            reading.seq_len = length
        words.take(rows, f"{reading.training_tokens:.3g} training tokens ({count:g} sequences of {length:,} tokens)")
        read_epochs(words, reading)
    elif not corpus:
        read_rows_and_average(words, reading)
    read_percentile_outputs(words)


def row_count(rows: re.Match[str]) -> float:
    return float(rows.group(1)) * ROW_SCALE.get(rows.group(2) or "", 1)


def read_rows_and_average(words: Words, reading: Reading) -> None:
    """'30k examples, max_seq_len 4096 but ~1500 tokens avg': a count of examples and their average length, said apart,
    are the data together (a length told as an average is no sequence length)."""
    rows, average = words.search(ROWS), words.search(AVERAGE_LENGTH)
    if not rows or not average:
        return
    count = row_count(rows)
    length = pair_tokens(average)
    reading.training_tokens = count * length
    words.take(rows, f"{count:g} examples")
    words.take(average, f"{length:,} tokens each on average ({reading.training_tokens:.3g} training tokens)")
    read_epochs(words, reading)


# "3 epochs", "a 2-epoch lora", "x3 epochs", "two passes over the data"
EPOCHS = r"(?<![\w.])(?:x ?)?(\d+(?:\.\d+)?|one)[ -](?:full )?(?:epochs?|passes(?= over| through))\b"


def count_value(said: str) -> float:
    """A count as written: '3', '2.5', 'one' or 'a' (normalize wrote the other number words as digits: 'two' is '2')."""
    return float(said) if said[0].isdigit() else float(v.NUMBER_WORDS[said])


def epoch_count(found: re.Match[str]) -> float:
    """How many passes an EPOCHS match names ('3 epochs', 'two epochs')."""
    return count_value(found.group(1))


def take_told(words: Words, told: tuple[tuple[str, str], ...]) -> None:
    """Words that say a number but no value to read ('a 3-year commitment', 'paid $800 for it'), as (pattern, what
    they are) rows: every match is taken, so no later reader reads it as a value."""
    for pattern, meaning in told:
        for found in words.finditer(pattern):
            words.take(found, meaning)


def read_epochs(words: Words, reading: Reading) -> None:
    """'3 epochs over 60M tokens', '~50M tokens, 2 epochs', '40M tokens ... for 2 epochs': the data times the passes."""
    epochs = words.search(EPOCHS)
    if epochs and reading.training_tokens is not None:
        passes = epoch_count(epochs)
        reading.training_tokens *= passes
        words.take(epochs, f"{epochs.group(1)} epoch{'s' if passes != 1 else ''} ({reading.training_tokens:.3g} tokens in all)")


# Who a count of people names, and the words that make it a count at once; users and people are said in one vocabulary
USERS = rf"users?|requests|sessions|streams|ppl|persons?|customers|clients|seqs|sequences|agents|seats?|{v.STAFF}"
IN_PARALLEL = r"(?:concurrent|parallel|simultaneous|active)"


def read_traffic(words: Words, reading: Reading) -> None:
    """Who asks (its size) and the users the slot rows left ('1000 concurrent users'), weighed against a request rate;
    '16k sequences', 'full-length 40k requests' are a length, not a count of users."""
    take_told(words, ((r"(?<![\w.$])(?:1|2|4|8|16|32|64|128|256|(?<=full-length )\d+) ?k[ -]?(?:token )?" + PER_SEQUENCE + r"\b",
                       "a sequence length"),))
    served = rx.search(r"\b(?:serv\w*|host\w*|deploy\w*|chat ?bots?|chat tool|assistant|for (?:a|our|the|my) [\w-]+ (?:[\w-]+ )?"
                       rf"(?:{v.ORGANISATIONS}))\b", words.text) is not None
    apart = "(?:, )?" if served else "(?:, )?(?:of )?"  # 'legal-tech startup, 6 people': who asks; 'serve it to a team of 15': users
    team = words.search(rf"\b(?:{v.ORGANISATIONS}) {apart}(?:has |have |had |is |are )?(?:about |around |~ ?)?(\d+) "
                        rf"(?:people|persons|staff|employees|devs|engineers|researchers)\b(?! (?:at peak|{AT_THE_SAME_TIME}))")
    team = team or words.search(r"\b(?:we're|we are|i'm at|i work at|i'm with) an? (\d[\d,]*)[ -]?(?:person|people|employee|staff)\b")
    if team:  # 'We're a 300-person law firm'
        words.take(team, f"an organisation of {team.group(1)} (its size, not concurrent users)")
    peak = any(span.kind == "users" for span in words.spans)  # read at once by the slot rows
    headcount = peak and words.search(rf"(?<!than )(?<![\w.$])\d+ (?:users?|{v.STAFF})\b")
    if headcount:  # of '200 devs, 60 of them hitting it at once', the 200 once the 60 are read
        words.take(headcount, "the people in all (the concurrent ones are counted)")
    read_users(words, reading, served, peak, any(span.kind == "requests_per_s" for span in words.spans))


def read_users(words: Words, reading: Reading, served: bool, peak: bool, rate: bool) -> None:
    """'1000 concurrent users', '60 concurrent sessions', 'team of 5' (a count said as at once is read first); the load
    planned for over today's."""
    staff = (r"(?:" + v.ORGANISATIONS + r")\b" if served  # 'serve it to our 10-person QA team': the team are the users
             else r"(?:[\w-]+ ){0,2}(?:" + v.ORGANISATIONS + r")\b")  # 'our 3-person ML team runs ...': who asks
    users = words.search(
        rf"{FIGURE_K} (?:{IN_PARALLEL} (?:[a-z]+ )?(?:{USERS}|chats|connections)\b|(?:concurrent|parallel|simultaneous)\b)",
        rf"{FIGURE_K} (?:{IN_PARALLEL} |internal |daily |paying |beta |external |total )?"
        rf"(?!person {staff})(?:{USERS})\b(?: {AT_THE_SAME_TIME})?|\b(a single|single|one|1) (?:user|person|stream|request)\b"
        r"|\b(?:just|only) (?:for )?(me|myself)\b"
        r"|(?<!we're a )(?<!we are a )(?<!i'm on a )(?<!i am on a )\bteam of (\d+)\b(?! here\b)")  # 'team of 5 here': who asks
    today = users and rx.search(r"\b(?:today|currently|right now|at the moment|these days)\b",
                                words.text[max(0, users.start() - 40):users.end() + 20])
    said_at = users.start() if users else -1
    goal = today and next((m for m in words.finditer(rf"(?<![\w.$])(\d+)() (?:{IN_PARALLEL} )?(?:{USERS}|chats)\b")
                           if m.start() != said_at), None)
    if goal and users:  # 'about 40 concurrent users today ... roll it out to 300 concurrent users': the other count is the load planned for
        words.take(users, "today's load (not the one planned for)")
        users = goal
    headcount_only = users and rate and not rx.search(f"{IN_PARALLEL}|{AT_THE_SAME_TIME}", users.group(0))
    if users and headcount_only:  # '~600 staff ... 5 requests per second': the rate is the load, the staff its source
        words.take(users, "people in all (the load is the request rate)")
    elif users and not peak:
        value = next((g for g in users.groups() if g and g[0].isdigit()), "1")  # 'a single user', 'just for me'
        reading.users = int(float(value) * (1000 if users.group(2) else 1))
        words.take(users, f"{reading.users:,} concurrent users")


BUYING = r"\b(?:buy\w*|bought|purchas\w*|own\w*)\b"
MONEY = r"\$ ?\d[\d.]*+ ?k?\b"  # possessive: '$2.10/hr' is no '$2' budget
PAID_FOR = (rf"\b(?:paid|(?:got|bought|grabbed|picked up|snagged)(?: \S+){{0,5}}? for) (?:{ABOUT}|only |like )?"
            rf"{phrases.PRICE}(?: {phrases.EACH})?")  # 'got them for $180 a pop'


def read_budgets(words: Words, reading: Reading) -> None:
    """A budget, a cap, a price paid: no price to weigh."""
    budget = words.search(rf"{MONEY} (?:(?:of |in )?(?:an? |our |my |the )?(?:grant money|grant|budget|funding)|to (?:spend|work with))\b"
                          rf"|\b(?:can|could) (?:spend|afford)(?: up to| at most)? {MONEY}|\b(?:budget|grant|funding)\w*:? "
                          r"(?:(?:of|is|around|about|roughly|under|below|up to|max|at most|~) ?){0,2}" + MONEY)
    spend = rx.search(r"\bhow (?:many (?:[\w-]+ ){0,3}?(?:hours|tokens)|long)\b", words.text) and words.search(
        f"{MONEY}(?!{phrases.PER_GPU_HOUR})")
    if not budget and spend and not rx.search(BUYING, words.text[:spend.start()]):
        budget = spend  # 'i have $1000: how many hours of an a100?'
    if not budget and rx.search(r"\bafford|\benough\b|\bcover\b|\bstretch\b", words.text):  # 'we have $20k, can we afford it?'
        budget = words.search(rf"\b(?:we|i)(?: only| just)? (?:have|'ve got|got|raised) (?:{ABOUT}|up to )?{MONEY}")
    if budget and not rx.match(phrases.PER_GPU_HOUR, words.text[budget.end():]):  # '$15k of grant money' (not 'budget $2/hr', a rate)
        amount = rx.search(r"(\d[\d.]*) ?(k?)", budget[0])
        value = float(amount[1]) * 1000 ** bool(amount[2]) if amount else 0.0
        words.take_range(*budget.span(), f"a budget of ${value:,.0f} (not a price per GPU)", kind="budget_usd", value=value)
    spending = rx.search(MONEY_TALK, words.text)
    cap = spending and words.search(r"\b(?:keep (?:it|this|things|the (?:cost|spend|price|bill))|stay(?:ing)?|come in)"
                                    r" (?:under|below|within) \$? ?\d+(?:\.\d+)? ?k\b")
    if cap:  # 'which gpu should i buy? trying to keep it under 5k': money, not a context
        words.take(cap, "a budget (not a context)")
    for found, zero in [(words.search(p), zero) for p, zero in phrases.NOT_PAID]:  # 'no extra staff or colo': both
        if found:
            words.take_range(*found.span(), f"not paid: {', '.join(zero)}", kind="rent_vs_buy", value=zero)
    take_told(words, ((PAID_FOR, "what was paid for hardware already owned (not a price to weigh)"),))


def read_utilization(words: Words, reading: Reading) -> None:
    """'60% utilization', '8 hours a day', '24/7'."""
    layers = words.search(r"\bn_gpu_layers (\d+)\b")
    if layers:
        words.take(layers, f"llama.cpp -ngl {layers.group(1)}")
    utilization = words.search(phrases.BUSY_PERCENT) or words.search(phrases.BUSY_SHARE)
    if utilization:
        value = float(utilization.group(1))
        reading.utilization = value / 100 if "%" in utilization.group(0) else value
        words.take(utilization, f"utilization {reading.utilization:.0%}")
        return
    daily = words.search(phrases.HOURS_A_PERIOD)
    period = v.DURATION_HOURS[daily.group(2)] if daily else 0.0
    if daily and 0 < float(daily.group(1)) <= period:  # '8 hours a day', '500 hours a year': a share of the time
        reading.utilization = float(daily.group(1)) / period
        words.take(daily, f"utilization {reading.utilization:.0%} ({daily.group(1)} hours a {daily.group(2)})")
        return
    steady = words.search(phrases.STEADY)
    if steady:
        reading.utilization = next((value for k, value in phrases.SHARES.items() if steady.group(0).startswith(k)), 1.0)
        words.take(steady, f"utilization {reading.utilization:.0%}")


def read_prices(words: Words, reading: Reading) -> None:
    """The price to buy one GPU; the asker's rent in cents; prices doubted, left out, set aside or paid already."""
    for dismissed in words.finditer(r"\b(?:ignore|disregard|forget|(?:don't|do not) use) (?:the |that |those |our )?"
                                    rf"({phrases.PRICE}(?:{phrases.PER_GPU_HOUR}| {phrases.EACH})?)"):
        words.take(dismissed, "a price the question says to leave out", group=1)  # 'ignore the $3.80/hr in the old contract'
    heard = words.search_all_tiers(phrases.HEARSAY_RATE)
    if heard:  # '$10/hr last year, no idea if still true': not the asker's rent
        words.take_range(*heard.span(), "a rate doubted", kind="quoted_rent", value=float(heard[1]))
    cents = words.search(FIGURE + r" ?[c¢]" + phrases.PER_GPU_HOUR)
    if cents and (words.tier(cents.start()) == 2 or not words.asking):  # 'or rent one at 40c/hr?': the asker's rate
        reading.rent_usd_per_gpu_hour = float(cents.group(1)) / 100
        words.take(cents, f"rent ${reading.rent_usd_per_gpu_hour:g} per GPU-hour")
    if rx.search(v.PRICE_SET_ASIDE, words.text):  # 'leaving price aside (the quotes expire)': no price is an input
        take_told(words, ((rf"{phrases.PRICE}(?: {phrases.EACH})?", "a price the question sets aside"),))
    purchase = words.search(phrases.PURCHASE_PRICE)
    buying = rx.search(phrases.PRICE_TALK, words.text)
    each = buying and words.search(phrases.THOUSANDS_EACH)
    of_requests = each and rx.search(phrases.NOT_CARDS, words.text[max(0, each.start() - 80):each.start()])
    purchase = purchase or (None if of_requests else each)  # 'buy 4 at ~8.5k each'; 'sequences ... at 4k each' are contexts
    purchase = purchase or words.search(phrases.BUY_FOR)  # 'buy an h100 for 25k'
    purchase = purchase or (buying and words.search(phrases.QUOTED_PRICE))  # 'the quote to buy one was ~18k'
    paid_before = purchase and rx.search(phrases.PAID, words.text[max(0, purchase.start() - 80):purchase.start()])
    if purchase and paid_before and not rx.search(phrases.WEIGHING, words.text):  # 'bought two p40s (like $180 a pop)'
        words.take(purchase, "the price paid (told of, not a price to weigh)")
    elif purchase:
        take_purchase(words, reading, purchase)


def take_purchase(words: Words, reading: Reading, price: re.Match[str]) -> None:
    reading.purchase_usd_per_gpu = float(price.group(1)) * (1000 if price.group(2) else 1)
    words.take(price, f"purchase ${reading.purchase_usd_per_gpu:,.0f} per GPU")


def read_bare_price(words: Words, reading: Reading) -> None:
    """Buying talked of, no price read: a bare '$25k' is one GPU's."""
    if reading.purchase_usd_per_gpu is None and rx.search(r"\b(?:buy\w*|purchas\w*|(?<!'s )(?<!our )(?<!my )(?<!their )(?<!its )own\w*)\b"
                                                          r"|\bvs\.? (?:the )?(?:cloud|rent\w*)|\bor rent", words.masked()):
        price = words.search(r"\$ ?(\d+(?:\.\d+)?)(?![\d.]) ?(k)?\b(?! ?(?:/|per|an|a) ?(?:gpu ?)?(?:h\b|hr|hour|month|mo\b|year|yr"
                             r"|million|m tok|1m|token))")
        if price:
            take_purchase(words, reading, price)


YEARS_TOLD = (  # years and months that are no horizon
    (r"(\d+) ?(?:month|year)s? (?:reservation|commitment|contract|commit|reserved)\b", "a commitment term (not the length of a job)"),
    (v.SPEND_RATE, "a spend per period (not a length of time)"),  # 'we pay about $4k a month for the API'
    (r"\b(?:for |over |in |during )?the (?:last|past|previous) (?:\d+|few|couple of) (?:years?|yrs?)\b",
     "a time told of (not a horizon)"),  # 'for the last two years we got by with two 3090s'
)


def read_years(words: Words, reading: Reading) -> None:
    """'over 3 years', 'for a 6-month project': the horizon; not a commitment term, a spend per period or the past."""
    take_told(words, YEARS_TOLD)
    project = rx.search(BUYING, words.text) and words.search(*phrases.PROJECT)
    if project:  # 'buy one for a 6-month project?' (its hours are still read as the job's)
        reading.years = float(project[1]) * v.DURATION_HOURS[project[2]] / v.DURATION_HOURS["year"]
        return words.spans.append(Span(project[0], "the horizon", kind="years", value=reading.years))
    years = words.search(r"(?<!n't )(?<!not )(\d+(?:\.\d+)?|one|(?:(?<=for )|(?<=over )|(?<=within )|(?<=across )"
                         r"|(?<=next ))an?|(?<=the next )(?=year)) ?(?:years?|yrs?)\b"
                         r"(?! (?:\w+ )?(?:support|prosupport|warranty|service|maintenance|care)\b)")  # '3yr ProSupport'
    if years and rx.search(r"(?:n't|\bnot)(?: \S+){0,2} ?$", words.text[:years.start()]):  # 'won't have them for a year'
        words.take(years, "a time it will not be (not a horizon)")
    elif years and rx.search(r"\b(?:have|has|'ve|had) been(?: \S+){0,6} for (?:about |almost |over |nearly )?$",
                             words.text[:years.start()]):  # 'we've been on Llama 2 70B for a year': the past
        words.take(years, "a time told of (not a horizon)")
    elif years:
        reading.years = count_value(years.group(1) or "1")  # 'the next year'
        half = rx.match(r" and a half\b", words.masked()[years.end():])  # 'over the next year and a half'
        if half:
            reading.years += 0.5
            words.take_range(years.end(), years.end() + half.end(), "half a year more")
        words.take(years, f"{reading.years:g} year{'s' if reading.years != 1 else ''}")


TIMES_A_WEEK = {"once": 1, "twice": 2, "thrice": 3}
# no rental after a limit ('under 3 days'), how often ('once a month'), a time told ('took about 3 days')
NOT_A_RENTAL = "".join(f"(?<!{said} )" for said in (  # one look-behind each: Python's are of one width
    "under", "within", "than", "inside", "after", "past", "last", "once", "twice", "times", "days", "nights", "evenings", "sessions",
    "running", "estimated", "estimated like", "takes", "eta", "already",
    *(f"took{about}" for about in ("", " about", " almost", " nearly", " over", " around", " roughly"))))


def read_counted_span(words: Words, reading: Reading) -> None:
    """How long the GPUs are used: '3 days', '10 hours a day for 30 days' (300 hours), '3 hours a night, twice a week,
    for a ten week semester' (60)."""
    units = "|".join(sorted((u for u in v.DURATION_HOURS if u != "year"), key=len, reverse=True))
    found = words.search(NOT_A_RENTAL + rf"\b(\d+(?:\.\d+)?|an?|one) ?(?:whole |full |entire |gpu[ -]?|node[ -]?|business |working "
                         rf"|(?:work|week)(?=day))?({units})s?\b(?![/-]| ago\b| (?:an?|per|each|every) )")  # '2 hours a day': a rate
    if not found:
        return
    if rx.search(rf"\b(?:launch\w*|ship\w*|go(?:ing)? live|releas\w*|due|deadline|demo)\b(?: \S+){{0,5}} in {ABOUT}?$",
                 words.text[:found.start()]):
        return words.take_range(*found.span(), "when (not how long)")  # 'launching a copilot in about five weeks'
    reading.hours = count_value(found.group(1)) * v.DURATION_HOURS[found.group(2)]
    schedule = rx.search(phrases.HOURS_EACH + r"(day|night|evening|session|class|week)\b", words.text)
    ends = sorted((*found.span(), *schedule.span())) if schedule else [0] * 4
    period = v.DURATION_HOURS.get(schedule[2], 24.0) if schedule else 0.0
    if schedule and 0 < float(schedule[1]) <= period < reading.hours and not rx.search(
            r"\b(?:also|if)\b|" + BUYING, words.text[ends[1]:ends[2]]):  # 'a month, 8 hours a day' (not 'or if we buy ...')
        days = found[2] in ("week", "month") and period == 24 and words.search(
            r"\b(?:weekdays|workdays|business days|working days|mon(?:day)? ?(?:-|to) ?fri(?:day)?"
            r"|(once|twice|thrice|\d (?:times|days|nights|evenings|sessions)) ?(?:a|per|each|every|/) ?week)\b")
        per_week = (TIMES_A_WEEK.get(days[1]) or int(days[1][0]) if days[1] else 5) if days else 7
        periods = round(reading.hours / period * per_week / 7, 1)  # a month: 30.4 days, 21.7 weekdays
        reading.hours = round(periods * float(schedule[1]), 2)
        how = f"{schedule[1]} hours a {schedule[2]} × {periods:g} {'weekdays' if per_week == 5 else schedule[2] + 's'} in {found[0]}"
        words.take_range(*found.span(), f"{reading.hours:g} hours of use ({how})", kind="hours_of_use", value=how)
        if days:
            words.take(days, f"{per_week} days a week")
        if USED not in words.masked()[schedule.start():schedule.end()]:  # '2 hours a session' (a day's were read already)
            words.take(schedule, "the hours each time")
        return
    words.take(found, f"{reading.hours:g} hours")


NAMED_SPANS = (  # a span named, all of it, and how its hours are said
    (r"\b(?:a|one) (?:whole |full |entire )?quarter\b(?! of the time)", "a quarter ({:g} hours)"),  # not 'next quarter', a date
    (r"\b(?:the|a|all the) (?:whole|full|entire) (day|week|month|year)\b", "{:g} hours"),  # 'running the whole month'
    (r"\b(day|week|month)(?= of\b)", "{:g} hours"),  # 'week of 8x b200, price?'
)


def read_named_span(words: Words, reading: Reading) -> None:
    """'a whole quarter', 'the whole month', 'every month', when no span was counted."""
    if reading.hours is not None:
        return
    for pattern, said in NAMED_SPANS:
        found = words.search(pattern)
        if found:
            reading.hours = v.DURATION_HOURS[found[1]] if found.lastindex else v.HOURS_PER_QUARTER
            words.take(found, said.format(reading.hours))
            return
    monthly = words.search(r"\b(?:per|each|every) month\b|\bmonthly\b|/ ?month\b")
    if monthly and rx.search(r"\b(?:pay|paying|paid|pays|spend\w*|spent|billed|charged)\b(?: \S+){0,3} $", words.text[:monthly.start()]):
        words.take(monthly, "how often something is paid (not a length of time)")  # 'instead of paying openai every month'
    elif monthly:
        reading.hours = v.DURATION_HOURS["month"]
        words.take(monthly, f"a month ({reading.hours:g} hours)")


FAMILIES = "|".join(re.escape(f) for f in v.MODEL_FAMILIES)
UNSIZED = (rf"\b(?:{FAMILIES})(?:(?:[-. ](?:{v.MODEL_LINES}))*[-. ]?(?:\d[\w.]*|plus|\+)(?:-[a-z0-9.]+)*"
           rf"|(?:[- ](?:{v.MODEL_LINES}))+(?: \d+(?:\.\d+)?b)?)(?![\w+-])")  # 'command-r', 'devstral small'
UNSIZED_MEANING = "a model not in the catalog (no size given)"


def read_model_size(words: Words, reading: Reading) -> None:
    """'a 13B model' is a generic dense model of that size; 'codellama 34b' (not in the catalog) is too, named as unknown.
    A size where the question asks outranks a model only told of ('running nemo for months ... want 32b models now')."""
    if not size_asked(words, reading):
        return
    size_range = words.search(r"\b\d+(?:\.\d+)?b-to-\d+(?:\.\d+)?b\b")
    if size_range:
        words.take(size_range, "a range of model sizes (name one size or model to size it)")
        reading.size_range = True
        reading.notes.append("a range of model sizes was given: name one size or model to size it")
    read_size(words, reading)
    if not reading.params_billions and not reading.unknown_models:  # 'phi-3.5-moe': not in the catalog, no size to go on
        named = words.search(UNSIZED) or (None if reading.models else words.search(  # 'self-host codestral': a product alone
            r"\b(?:devstral|codestral|magistral|ministral)\b"))
        if named:
            reading.unknown_models.append(words.take(named, UNSIZED_MEANING))


def size_asked(words: Words, reading: Reading) -> bool:
    """Whether a size is to read; one where the question asks sets aside models only told of."""
    named = words.search(UNSIZED)  # 'Mistral Large 2', 'command-r-plus': a model the catalog does not hold
    told = max((words.tier_at(a) for a in reading.model_at), default=0)  # where the models named are said
    if named and reading.models and words.tier(named.start()) > told:
        keep_named(words.spans, reading, "models", [], "told about, not asked about")
        if not rx.search(FIGURE + r" ?b\b", named.group(0)):  # 'command-r 35b' is sized below
            reading.unknown_models.append(words.take(named, UNSIZED_MEANING))
            return False
    if reading.models:
        asked = words.search(FIGURE + r" ?b (?:models?|llms?)\b")
        wanted = asked is not None and rx.search(r"\b(?:want|wanting|need|needing|plan|planning|looking|hoping|like) to "
                                                 r"(?:\w+ ){1,3}$", words.text[:asked.start()])  # 'want to run 32b models now'
        if asked is None or not wanted and words.tier(asked.start()) <= told:
            return False
        keep_named(words.spans, reading, "models", [], "told about, not asked about")
    return True


def read_size(words: Words, reading: Reading) -> None:
    """'a 13B model', 'codellama 34b' (not in the catalog: a generic dense model)."""
    size = words.search(r"(?:\b([a-z][a-z0-9.+-]*[a-z0-9+](?: [a-z0-9][a-z0-9.+-]*){0,2})(?:[ -]| is | at ))?"
                        + FIGURE + r" ?(b|bn|billion|m)\b(?: param\w*| model)?")
    if not size:
        return
    reading.params_billions = float(size.group(2)) * (1e-3 if size.group(3) == "m" else 1.0)
    name = [w for w in (size.group(1) or "").split(" ") if w]
    start = size.start(2)
    if size.group(1):
        start = size.start(1)
        name = [w for w in name if w not in ("is", "at")] if len(name) > 1 else name
        while name and name[0] in v.STOP_WORDS:
            start += len(name.pop(0)) + 1
    reading.params_at = words.index_at(start)  # where its span begins
    while name and name[-1] in v.STOP_WORDS:  # 'command r+ (the 104b one)': 'the' is no part of the name
        name.pop()
    family_at = next((n for n, w in enumerate(name) if FAMILY.match(w)), 0)
    start += sum(len(w) + 1 for w in name[:family_at])  # 'keeps pushing falcon 180b': the name starts at its family
    name = name[family_at:]
    called = next((n for n, w in enumerate(name) if w in ("called", "named", "dubbed")), None)
    if called is not None:  # 'our own fine-tune called acme-support-8b': the name follows 'called'
        start += sum(len(w) + 1 for w in name[:called + 1])
        name = name[called + 1:]
    looks_named = any(FAMILY.match(w) or rx.search(r"[\d+]", w) for w in name)  # 'pretrain a tiny 0.5b' names none
    joined = "-" if words.text[size.start(2) - 1:size.start(2)] == "-" else " "  # as typed: 'seed-oss-36b'
    if not looks_named and name and called is None and joined == "-":
        start += sum(len(w) + 1 for w in name[:-1])  # 'just saw seed-oss-36b dropped': the word the size is joined to
        name, looks_named = name[-1:], True
    looks_named = looks_named or bool(name) and called is not None
    if not looks_named or all(w in v.MODEL_WORDS or w in v.STOP_WORDS for w in name):
        return words.take_range(start, size.end(), f"a {reading.params_billions:g}B-parameter model")
    version = rx.match(r"[ -](v\d(?:\.\d)?|a\d+(?:\.\d+)?b)\b", words.text[size.end():])  # '9b v2', '80b-a3b'
    suffix = version.group(0) if version else ""
    unknown = " ".join(name) + f"{joined}{size.group(2)}{size.group(3)}{suffix}"
    reading.unknown_models.append(unknown)
    words.take_range(start, size.end() + len(suffix), f"model '{unknown}' (not in the catalog): sized as a generic "
                     f"{reading.params_billions:g}B dense model")


def read_inference(words: Words, reading: Reading) -> None:
    """Serving verbs make a model's workload inference ('run them at 60%' of GPUs alone says nothing of one)."""
    subject = bool(reading.models or reading.params_billions is not None or reading.unknown_models or reading.size_range
                   or rx.search(r"\b(?:models?|llms?)\b", words.text))
    if reading.workload is None and (words.search(r"\b(?:inference|serving)\b") or subject and words.search(
            r"\b(?:serv(?:e|es|ed|ing)|infer|generat\w*|deploy\w*|host\w*|chat|chatting|run\w*)\b")):
        reading.workload = "inference"
    reading.serving_words = reading.workload == "inference" and bool(
        words.search(r"\b(?:serv(?:e|es|ed|ing)|host\w*|deploy\w*|production|endpoint|api)\b"))


@dataclass(frozen=True)
class Reader:
    """A reader not yet written as slots (it reads several kinds at once, or weighs one against another): a row of
    the same table, so its priority places it among the slots."""
    priority: int
    read: Callable[[Words, Reading], None]


def read_all(words: Words, reading: Reading, rows: tuple[Slot | Reader, ...]) -> None:
    """Every row, highest priority first: a row claims the words it reads, and a later row does not read them again."""
    for row in sorted(rows, key=lambda r: -r.priority):
        row.read(words, reading)


# The readers not yet written as slot rows (slots.py), with their place in the one table: a slot row's priority puts
# it between them (context 60 and batch 50 read after money, before traffic).
READERS = (Reader(200, read_negations), Reader(190, read_optimizer), Reader(180, read_formats), Reader(170, read_workload),
           Reader(160, read_stack), Reader(150, read_unknown_gpus), Reader(140, read_gpu_memory), Reader(130, read_counts_after),
           Reader(120, read_token_counts), Reader(104, read_budgets), Reader(102, read_utilization), Reader(101, read_prices),
           Reader(98, read_bare_price), Reader(40, read_traffic), Reader(31, read_years),
           Reader(30, read_counted_span), Reader(29, read_named_span), Reader(20, read_model_size), Reader(10, read_inference))


def facts(reading: Reading) -> dict[str, object]:
    """The reading as the fields a test or a client compares: only what the question said."""
    out: dict[str, object] = {}
    if reading.models:
        out["model"] = reading.model
    if reading.unknown_models:
        out["unknown_model"] = reading.unknown_models[0]
    if reading.unknown_gpus:
        out["unknown_gpu"] = reading.unknown_gpus[0]
    if reading.gpus:
        out["gpus"] = [[g, c or 1] for g, c in reading.gpus]
    if reading.method_said:
        out["method"] = reading.method
    for name in ("other_weights", "providers", "params_billions", "workload", "weights_dtype", "gpu_memory_utilization",
                 "kv_cache_dtype", "seq_len", "output_tokens", "batch_size", "users", "requests_per_s", "tokens_per_s_per_user",
                 "engine", "sharding", "gradient_checkpointing", "hours", "pricing", "utilization", "years", "purchase_usd_per_gpu",
                 "rent_usd_per_gpu_hour", "training_tokens", "recipe", "optimizer", "training_precision"):
        value = getattr(reading, name)
        if value is not None and value != []:  # a list read is one named
            out[name] = value
    return out
