"""The Ask corpus (tests/data/ask_corpus.jsonl): questions as people type them, each with the reading and journey
expected, and how a reading is compared with it."""
from __future__ import annotations

import json
import math
import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gpusizer.tools.questions import AskAnswer, Understood, ask, understand

CORPUS_FILE = Path(__file__).parent / "data" / "ask_corpus.jsonl"
CORPUS = [json.loads(line) for line in CORPUS_FILE.read_text().splitlines() if line.strip()]
BY_QUESTION = {case["question"]: case for case in CORPUS}  # questions are unique: a follow-up's previous is found here
UNNAMED = {"instruct", "chat", "hf", "base", "it"}  # suffixes that do not change which model a name means
NOT_COMPARED = {"recipe", "optimizer", "other_weights", "other_methods", "providers", "gpu_memory_utilization"}  # the corpus does not record these


def answer_case(case: dict, catalog, cases: dict[str, dict] | None = None, depth: int = 0,
                answered: dict[str, AskAnswer] | None = None) -> AskAnswer:
    """The answer in its conversation: a follow-up's previous question is answered first, and that one's previous too
    when `cases` (question -> case) holds it ('and on a 4090?' after 'at q8 instead?' after the opening). With
    `answered` (question -> answer), each question of a conversation is answered once for the whole corpus."""
    if answered is not None and case["question"] in answered:
        return answered[case["question"]]
    previous = None
    if case.get("previous"):
        earlier = (cases or {}).get(case["previous"])
        previous = (answer_case(earlier, catalog, cases, depth + 1, answered) if earlier is not None and depth < 5
                    else ask(case["previous"], catalog))
    answer = ask(case["question"], catalog, previous)
    if answered is not None and depth == 0:  # an answer in a truncated conversation (depth) is not the row's own
        answered[case["question"]] = answer
    return answer


def understand_case(case: dict, catalog, cases: dict[str, dict] | None = None,
                    answered: dict[str, AskAnswer] | None = None) -> Understood:
    """The reading and journey alone, no tool called (a follow-up's previous questions are answered: it reads them)."""
    previous = None
    if case.get("previous"):
        earlier = (cases or {}).get(case["previous"])
        previous = (answer_case(earlier, catalog, cases, 0 if answered is not None else 1, answered) if earlier is not None
                    else ask(case["previous"], catalog))
    return understand(case["question"], catalog, previous)


def needs_answer(case: dict) -> bool:
    """Whether the corpus judges this row's answer too: it expects a verdict or a figure, or a second part answered."""
    return bool(case.get("expect") or case.get("also"))


def miss_of(case: dict, journey: str, reading: dict) -> str | None:
    """What a reading got wrong, in one line ('journey fit, not estimate; seq_len 8192, not None'), or None."""
    differences = [f"{k} {got!r}, not {want!r}" for k, (want, got) in sorted(reading_differences(case, reading).items())]
    if journey != case["journey"]:
        differences.insert(0, f"journey {journey}, not {case['journey']}")
    return "; ".join(differences) or None


def answer_misses(case: dict, answer: AskAnswer) -> list[str]:
    """Where an answer falls short of the row's expectations: the verdict it opens with, a figure it must quote."""
    expect, found = case.get("expect") or {}, []
    if "verdict" in expect and not answer.answer.startswith(expect["verdict"]):
        found.append(f"verdict: expected {expect['verdict']!r}, answer opens {answer.answer[:40]!r}")
    if "figure" in expect and expect["figure"] not in answer.answer:
        found.append(f"figure: {expect['figure']!r} not in the answer")
    return found


def comparable(reading: dict, journey: str) -> dict:
    out = {k: v for k, v in reading.items() if k not in NOT_COMPARED}
    if journey in ("serving", "speed") and out.get("workload") == "inference" or journey == "training_time" and \
            out.get("workload") == "training":
        out.pop("workload")  # serving is inference, a training run training: whether a word said so too changes nothing
    if out.get("method") == "qlora" and out.get("weights_dtype") in ("nf4", "int4"):
        out.pop("weights_dtype")  # QLoRA's base is NF4 ('4-bit' says so): naming it adds nothing
    if journey == "cheapest_method":
        out.pop("method", None)  # the journey compares the methods: whichever was read is not used
    if "unknown_gpu" in out:
        out["unknown_gpu"] = re.sub(r"\s*\d+ ?gb\b", "", str(out["unknown_gpu"]).lower()).strip()
        chip = re.search(r"\bm[1-4](?: ?(?:pro|max|ultra))?\b", out["unknown_gpu"])  # 'M3 Max MacBook Pro', 'Apple M3 Max' and
        out["unknown_gpu"] = chip.group(0) if chip else out["unknown_gpu"]  # 'M3 Max' name one GPU: the chip
    if "unknown_model" in out:  # a name as typed: the same words, whatever the separators, suffixes and size
        words = re.split(r"[-_ /]+", str(out["unknown_model"]).lower())
        out["unknown_model"] = " ".join(w for w in words if w and w not in UNNAMED and not re.fullmatch(r"\d+(\.\d+)?[bm]", w))
    return out


def same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=1e-6)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def reading_differences(case: dict, answer: AskAnswer | dict) -> dict:
    """The fields read otherwise than the row expects: field -> (expected, read)."""
    read = answer.reading if isinstance(answer, AskAnswer) else answer
    expected, got = comparable(case["reading"], case["journey"]), comparable(read, case["journey"])
    return {k: (expected.get(k), got.get(k)) for k in set(expected) | set(got) if not same(expected.get(k), got.get(k))}


# ---- the corpus judged: its misses, each with how it missed
PLACEHOLDER = re.compile(r"—|\bNone\b|\bnan\b|\bnull\b")
PART_NAMES = {"speed": "speed", "which_gpu": "which_gpu", "cloud_cost": "cost", "rent_or_buy": "buy", "limits": "limits",
              "fit": "fit", "estimate": "fit", "serving": "serving", "compare": "compare", "training_time": "time",
              "cheapest_method": "cost", "gpu_card": "card", "model_card": "card", "biggest_model": "limits"}


def answer_faults(case: dict, answer: AskAnswer) -> list[str]:
    """What an answer must never do: hold a placeholder, hide what it ignored, drop a part it was asked."""
    faults = [f"placeholder in {name}" for name, text in (("answer", answer.answer), ("interpretation", answer.interpretation))
              if PLACEHOLDER.search(text)]
    if answer.understood and answer.ignored \
            and "Ignored: " + ", ".join(f"'{w}'" for w in answer.ignored) not in answer.interpretation:
        faults.append("ignored words not listed")
    if answer.understood and not (answer.interpretation.startswith(("I read this as:", "Follow-up of the previous question."))
                                  and answer.read):
        faults.append("does not say what it read")
    for part in case.get("also", []):  # a second part is answered, or named as not answered
        name = PART_NAMES[part]
        if name not in answer.answered and not any(name.replace("_", " ") in n for n in answer.not_answered):
            faults.append(f"the {part} part neither answered nor named")
    return faults + answer_misses(case, answer)


def judge_corpus(catalog, cases: list[dict] | None = None, workers: int = 1) -> dict[str, str]:
    """Each corpus question that misses, with how. A row is read, not answered, unless it expects an answer or a later
    row follows it up (then its answer is the conversation's, made once). With workers > 1, conversations are judged
    in that many processes, each on the built-in catalog."""
    rows = CORPUS if cases is None else cases
    if workers <= 1:
        return judge_rows(catalog, rows)
    shares: list[list[dict]] = [[] for _ in range(workers)]
    for conversation in sorted(conversations(rows).values(), key=len, reverse=True):  # the longest first, to the lightest
        min(shares, key=len).extend(conversation)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        found = {question: how for share in pool.map(judge_share, shares) for question, how in share.items()}
    return {case["question"]: found[case["question"]] for case in rows if case["question"] in found}


def conversations(rows: list[dict]) -> dict[str, list[dict]]:
    """The rows grouped by the question each conversation opened with."""
    grouped: dict[str, list[dict]] = {}
    for case in rows:
        opening, seen = case, 0
        while opening.get("previous") in BY_QUESTION and seen < 10:
            opening, seen = BY_QUESTION[opening["previous"]], seen + 1
        grouped.setdefault(opening["question"], []).append(case)
    return grouped


def judge_share(rows: list[dict]) -> dict[str, str]:
    from gpusizer.catalog import load_catalog

    return judge_rows(load_catalog(include_user=False), rows)


def judge_rows(catalog, rows: list[dict]) -> dict[str, str]:
    followed = {case["previous"] for case in rows if case.get("previous")}
    answered: dict[str, AskAnswer] = {}
    misses: dict[str, str] = {}
    for case in rows:
        if needs_answer(case) or case["question"] in followed:
            answer = answer_case(case, catalog, BY_QUESTION, answered=answered)
            journey = answer.journey if answer.understood else "not_understood"
            found = [m for m in (miss_of(case, journey, answer.reading),) if m]
            found += answer_faults(case, answer) if needs_answer(case) else []
        else:
            understood = understand_case(case, catalog, BY_QUESTION, answered)
            found = [m for m in (miss_of(case, understood.journey_name, understood.facts()),) if m]
        if found:
            misses[case["question"]] = "; ".join(found)
    return misses


# ---- held-out blind rounds, kept out of the corpus
HELD_OUT_FILES = sorted((Path(__file__).parent / "data").glob("ask_heldout*.jsonl"))
MISSES_FILE = Path(__file__).parent / "data" / "ask_corpus_misses.json"  # the known misses: question -> what was read wrong


def held_out_cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def held_out_misses(case: dict, answer: AskAnswer | Understood) -> dict:
    """A held-out question is judged as when it was first scored: the reading may leave a workload of inference unsaid
    (it changes no tool argument) and round a third; everything else must match, the journey included."""
    if isinstance(answer, Understood):
        journey, read = answer.journey_name, answer.facts()
    else:
        journey, read = (answer.journey if answer.understood else "not_understood"), answer.reading
    differences = {k: v for k, v in reading_differences(case, read).items()
                   if not (k == "workload" and set(v) <= {None, "inference"} and "method" not in case["reading"])
                   and not (all(isinstance(x, float) for x in v) and abs(v[0] - v[1]) < 0.001)}
    if journey != case["journey"]:
        differences["journey"] = (case["journey"], journey)
    return differences


# ---- the tool call an assistant should make for each corpus question (LLM mode is judged on it)
MEMORY_JOURNEYS = ("estimate", "fit", "limits", "which_gpu", "cheapest_method")


def expected_call(case: dict) -> tuple[str, dict] | None:
    """The MCP tool and arguments that answer the case's first part, from its expected reading; None for
    questions the catalog resources answer (what is a GPU or model) or that name nothing to size."""
    r, journey = case["reading"], case["journey"]
    subject = {"model": r["model"]} if "model" in r else ({"params_billions": r["params_billions"]} if "params_billions" in r
                                                          else {})
    gpus = [g for g, _ in r.get("gpus", [])]
    first_gpu = {"gpu": gpus[0]} if gpus else {}
    count = r["gpus"][0][1] if r.get("gpus") else 1
    if journey in MEMORY_JOURNEYS and subject:
        keys = ("workload", "method", "weights_dtype", "kv_cache_dtype", "batch_size", "seq_len", "sharding")
        arguments = {**subject, **{k: r[k] for k in keys if k in r}, **first_gpu}
        if arguments.get("method") == "qlora" and arguments.get("weights_dtype") in ("nf4", "int4"):
            arguments.pop("weights_dtype")  # QLoRA's 4-bit base is NF4, the tool's own
        if "method" in arguments and arguments.get("workload") != "training":
            arguments["workload"] = "training"
        if count > 1:
            arguments["num_gpus"] = count
        return "estimate_vram", arguments
    if journey in ("serving", "speed") and "model" in r:
        traffic = ({"requests_per_s": r["requests_per_s"]} if "requests_per_s" in r
                   else {"concurrent_users": r.get("users", 1)})
        gguf = re.fullmatch(r"i?q\d\w*", r.get("weights_dtype", ""))
        engine = ({"engine": r["engine"]} if r.get("engine") in ("vllm", "sglang", "llama_cpp")
                  else {"engine": "llama_cpp"} if gguf else {})
        dtype = {"weights_dtype": r["weights_dtype"]} if "weights_dtype" in r else {}
        named_gpu = {} if first_gpu.get("gpu", "").endswith("GB") else first_gpu  # speed needs a GPU's bandwidth
        return "plan_serving", {"model": r["model"], **traffic, **engine, **dtype, **named_gpu}
    if journey == "compare" and len(gpus) >= 2:
        return "compare_gpus", {"gpus": gpus, **subject}
    if journey == "cloud_cost" and gpus:
        return "cloud_cost", {"gpu": gpus[0], "gpu_count": count, "hours": r.get("hours", 1.0)}
    if journey == "rent_or_buy" and gpus:
        money = ("utilization", "years", "purchase_usd_per_gpu", "rent_usd_per_gpu_hour")
        return "rent_vs_buy", {"gpu": gpus[0], "gpu_count": count, **{k: r[k] for k in money if k in r}}
    if journey == "training_time" and subject:
        return "compare_gpus", {"gpus": [gpus[0] if gpus else "h100-sxm", "a100-80gb-sxm"], **subject,
                                "workload": "training", "training_tokens": r.get("training_tokens", 1e9)}
    return None


def call_matches(case: dict, calls: list, catalog) -> bool:
    """An assistant's answer is right when it calls the expected tool on the same model and GPU (a tool's refusal,
    such as a GPU with no purchase price, is the tool's answer to the right call)."""
    expected = expected_call(case)
    if expected is None:
        return True
    tool, arguments = expected
    made = next((c for c in calls if c.tool == tool), None)
    if made is None:
        return False
    for key in ("model", "gpu"):
        if key in arguments:
            want, got = arguments[key], made.arguments.get(key)
            resolve = catalog.find_model if key == "model" else catalog.find_gpu
            try:
                same_item = got is not None and resolve(str(got)) == resolve(want)
            except Exception:  # noqa: BLE001 - a name the catalog refuses is not the expected one
                same_item = False
            if not same_item:
                return False
    return True
