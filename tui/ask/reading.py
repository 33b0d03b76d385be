"""What a question names: models, GPUs and counts, workload, precision, batch, context, hours, money words.

A parser, not a guesser: every value comes from a span of the question, and what it could not read stays unset
so the tools' stated defaults apply (and the interpretation says so).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from gpusizer.catalog import Catalog
from gpusizer.tools.pricing import HOURS_PER_YEAR

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "sixteen": 16,
                "a single": 1, "single": 1, "a pair of": 2, "a couple of": 2}
PRECISIONS = [  # (pattern, weights_dtype), most specific first
    (r"\bq[ -]?lora\b", None), (r"\b(q[2-8]_(?:k_[msl]|k|0|1)|iq[1-4]_\w+)\b", "gguf"), (r"\bmxfp4\b", "mxfp4"),
    (r"\bnvfp4\b", "nvfp4"), (r"\bnf4\b", "nf4"), (r"\b(int4|4[ -]?bit|awq|gptq|q4)\b", "int4"), (r"\b(int8|8[ -]?bit)\b", "int8"),
    (r"\bfp8\b", "fp8"), (r"\bfp16\b|\bhalf precision\b", "fp16"), (r"\bbf16\b", "bf16"), (r"\bfp32\b|\bfull precision\b", "fp32"),
]
MAX_SPAN_WORDS = 6


@dataclass
class Reading:
    text: str
    models: list[str] = field(default_factory=list)
    params_billions: float | None = None
    gpus: list[tuple[str, int | None]] = field(default_factory=list)  # (gpu_id, count or None), in the question's order
    workload: str | None = None
    method: str | None = None
    weights_dtype: str | None = None
    batch_size: int | None = None
    seq_len: int | None = None
    hours: float | None = None
    utilization: float | None = None
    years: float | None = None
    gradient_checkpointing: bool | None = None
    pricing: str | None = None
    purchase_usd_per_gpu: float | None = None
    rent_usd_per_gpu_hour: float | None = None
    users: int | None = None                    # concurrent users or requests in flight
    requests_per_s: float | None = None
    tokens_per_s_per_user: float | None = None
    engine: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def model(self) -> str | None:
        return self.models[0] if self.models else None

    @property
    def gpu(self) -> str | None:
        return self.gpus[0][0] if self.gpus else None

    @property
    def gpu_count(self) -> int | None:
        return self.gpus[0][1] if self.gpus else None


def normalize(question: str) -> str:
    text = question.lower().replace("×", "x")
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)  # 30,000 -> 30000
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)  # 1,000,000 needs a second pass
    text = re.sub(r"(\d)\s*x\s*(?=[a-z])", r"\1 x ", text)  # 2xH100 -> 2 x h100
    text = re.sub(r"[,;:!?()\[\]\"']", " ", text)
    text = re.sub(r"(?<![\d])\.|\.(?!\d)", " ", text)  # full stops, not decimal points
    return re.sub(r"\s+", " ", text).strip()


def read_question(question: str, catalog: Catalog) -> Reading:
    text = normalize(question)
    reading = Reading(text=text)
    words = text.split(" ")
    used = [False] * len(words)
    find_names(words, used, catalog, reading)
    rest = " ".join(w if not u else "·" for w, u in zip(words, used, strict=True))
    read_workload(rest, reading)
    read_numbers(rest, reading)
    return reading


def find_names(words: list[str], used: list[bool], catalog: Catalog, reading: Reading) -> None:
    """Longest spans first: 'llama 3.1 70b' before '70b', 'rtx 4090' before '4090'; then back in question order."""
    models, gpus = [], []
    for size in range(min(MAX_SPAN_WORDS, len(words)), 0, -1):
        for start in range(len(words) - size + 1):
            if any(used[start:start + size]):
                continue
            span = " ".join(words[start:start + size])
            found = lookup(span, catalog)
            if found is None:
                continue
            kind, item = found
            for index in range(start, start + size):
                used[index] = True
            if kind == "model":
                models.append((start, item))
            else:
                gpus.append((start, (item, count_before(words, used, start))))
    reading.models = list(dict.fromkeys(item for _, item in sorted(models)))
    reading.gpus = [item for _, item in sorted(gpus)]


def lookup(span: str, catalog: Catalog) -> tuple[str, str] | None:
    if len(span) < 2 or span.isdigit() and len(span) < 4:
        return None
    for candidate in (span, span[:-1] if span.endswith("s") else None):
        if not candidate:
            continue
        model_id = catalog._model_names.get(candidate)
        if model_id:
            return "model", model_id
        gpu_id = catalog._gpu_names.get(candidate)
        if gpu_id:
            return "gpu", gpu_id
        family = catalog._family_default.get(candidate.replace(" ", "").replace("-", ""))
        if family:
            return "gpu", family.gpu_id
    return None


def count_before(words: list[str], used: list[bool], start: int) -> int | None:
    """'8 x h100', '2 h100s', 'two a100s', 'a single 4090': the count right before a GPU name."""
    index = start - 1
    if index >= 0 and words[index] in ("x", "of"):
        index -= 1
    if index >= 0 and not used[index]:
        word = words[index]
        if word.isdigit():
            used[index] = True
            return int(word)
        for phrase, value in NUMBER_WORDS.items():
            if " ".join(words[max(0, index - phrase.count(" ")):index + 1]) == phrase:
                used[index] = True
                return value
    return None


def read_workload(text: str, reading: Reading) -> None:
    if re.search(r"\bq[ -]?lora\b", text):
        reading.workload, reading.method = "training", "qlora"
    elif re.search(r"\blora\b|\badapters?\b", text):
        reading.workload, reading.method = "training", "lora"
    elif re.search(r"\b(pre[ -]?train\w*|fine[ -]?tun\w*|finetun\w*|train\w*|full fine)", text):
        reading.workload, reading.method = "training", "full"
    elif re.search(r"\b(serv\w*|inference|infer|generat\w*|deploy\w*|host\w*|chat)\b", text):
        reading.workload = "inference"
    for pattern, dtype in PRECISIONS:
        found = re.search(pattern, text) if dtype else None
        if found:
            reading.weights_dtype = found.group(1) if dtype == "gguf" else dtype  # a GGUF type names itself
            break
    if re.search(r"gradient checkpoint|activation checkpoint|\bcheckpointing\b", text):
        reading.gradient_checkpointing = True
    engine = re.search(r"\b(vllm|sglang|llama[ .]?cpp|ollama)\b", text)
    if engine:
        reading.engine = {"vllm": "vllm", "sglang": "sglang"}.get(engine.group(1), "llama_cpp")
    if re.search(r"\bspot\b|preemptible", text):
        reading.pricing = "spot"
    elif re.search(r"on[ -]?demand", text):
        reading.pricing = "on_demand"


def read_numbers(text: str, reading: Reading) -> None:
    context = (re.search(r"(\d+(?:\.\d+)?) ?k\b(?! ?(?:usd|\$|dollars|(?:concurrent |active )?(?:users|requests|sessions)))", text)
               or re.search(r"(\d[\d_]*) ?(?:tokens?|token context|ctx)\b(?! ?(?:/|per) ?s)", text)
               or re.search(r"(?:context|sequence(?: length)?|seq(?: len)?|prompt)s?(?: length)?(?: of)? (\d[\d_]*k?)\b", text))
    if context:
        value = context.group(1)
        kilo = value.endswith("k") or "k" in context.group(0).split(value)[-1][:2]
        number = float(value.rstrip("k"))
        reading.seq_len = int(number * 1024) if kilo or number < 1000 and re.search(r"\d ?k\b", context.group(0)) else int(number)
    batch = (re.search(r"batch(?: size)?(?: of)? (\d+)", text)
             or re.search(r"(\d+) (?:concurrent |parallel |simultaneous )?(?:users|requests|sequences|streams|prompts)\b", text))
    if batch:
        reading.batch_size = int(batch.group(1))
    read_traffic(text, reading)
    hours = re.search(r"(\d+(?:\.\d+)?) ?(hours?|hrs?|h|days?|weeks?|months?)\b", text)
    if hours:
        scale = {"d": 24, "w": 24 * 7, "m": HOURS_PER_YEAR / 12}.get(hours.group(2)[0], 1)
        reading.hours = float(hours.group(1)) * scale
    utilization = re.search(r"(\d+(?:\.\d+)?) ?%", text) or re.search(r"utili[sz]ation(?: of)? (0?\.\d+|1(?:\.0)?)\b", text)
    if utilization:
        value = float(utilization.group(1))
        reading.utilization = value / 100 if "%" in utilization.group(0) else value
    purchase = re.search(r"\$ ?(\d+(?:\.\d+)?) ?(k)?\b ?(?:each|per gpu|a gpu|apiece|to buy|purchase)", text)
    if purchase:
        reading.purchase_usd_per_gpu = float(purchase.group(1)) * (1000 if purchase.group(2) else 1)
    rent = re.search(r"\$ ?(\d+(?:\.\d+)?) ?(?:/ ?h(?:ou)?r?|per (?:gpu )?hour|an hour|/ ?gpu ?h)", text)
    if rent:
        reading.rent_usd_per_gpu_hour = float(rent.group(1))
    years = re.search(r"(\d+(?:\.\d+)?) ?(?:years?|yrs?)\b", text)
    if years:
        reading.years = float(years.group(1))
    if not reading.models:
        size = re.search(r"(\d+(?:\.\d+)?) ?(?:b|bn|billion)\b(?: param\w*| model)?", text)
        if size:
            reading.params_billions = float(size.group(1))


def read_traffic(text: str, reading: Reading) -> None:
    """Serving traffic: '1000 concurrent users', '20 requests per second', '50 rps', '30 tokens/s per user'."""
    users = re.search(r"(\d+(?:\.\d+)?) ?(k)? (?:concurrent |parallel |simultaneous |active )?(?:users|requests|sessions|streams)\b"
                      r"(?! ?(?:per|/|a) ?(?:s\b|sec|second))", text)
    if users:
        reading.users = int(float(users.group(1)) * (1000 if users.group(2) else 1))
    rate = re.search(r"(\d+(?:\.\d+)?) ?(?:rps|qps|req/s|requests? ?(?:per|/|a) ?(?:s\b|sec\w*|second)|queries per second)", text)
    if rate:
        reading.requests_per_s, reading.users = float(rate.group(1)), None
    speed = re.search(r"(\d+(?:\.\d+)?) ?(?:tok(?:en)?s? ?(?:/|per) ?s(?:ec\w*)?|tps)\b(?: per| each| for each)?", text)
    if speed:
        reading.tokens_per_s_per_user = float(speed.group(1))
