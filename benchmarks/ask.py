#!/usr/bin/env python3
"""How many corpus questions each Ask mode reads and answers right (tests/data/ask_corpus.jsonl, issues #15 and #35).

Parser mode (always): readings — a question is read right when its reading matches the expected one field for field
and it takes the expected journey; answers — a row that expects a verdict or a figure ('expect') is answered right
when the answer opens with that verdict and quotes that figure; also printed: answers with a placeholder, and
understood answers that ignored words without listing them (both must be zero). LLM mode (when GPUSIZER_LLM_MODEL is
set, or --llm): a question is right when the model calls the tool the expected reading implies, on the same model and
GPU (tests/ask_corpus.py: call_matches).

    python benchmarks/ask.py                  # parser: readings per journey, answers, held-out rounds
    python benchmarks/ask.py --write-misses   # and write the known misses the corpus test holds to
    python benchmarks/ask.py --llm            # and the configured model (costs one model conversation per question)

Held-out: the blind rounds kept out of the corpus (tests/data/ask_heldout*.jsonl), each printed beside its first-sight
score; docs/ask_rounds.md tells each round's story. tests/test_ask_corpus.py holds each set to at least 85% right,
every answer saying what it read.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from ask_corpus import (  # noqa: E402
    BY_QUESTION,
    CORPUS,
    MISSES_FILE,
    PLACEHOLDER,
    answer_case,
    answer_misses,
    call_matches,
    held_out_cases,
    held_out_misses,
    judge_corpus,
    miss_of,
    understand_case,
)

from gpusizer.catalog import load_catalog  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
HELD_OUT = [  # blind rounds kept out of the corpus, with their score the first time they were read
    (DATA / "ask_heldout.jsonl", "round 20, distractor-heavy: first scored 58/80 on 2026-11-25"),
    (DATA / "ask_heldout_round29.jsonl", "round 29, everyday mix then distractor-heavy: first scored 64/80 on 2026-11-25"),
    (DATA / "ask_heldout_round39.jsonl", "round 39, forum threads then training teams: first scored 73/80 on 2026-11-26"),
    (DATA / "ask_heldout_round50.jsonl", "round 50, a mix then workplace threads: first scored 74/80 on 2026-11-27"),
    (DATA / "ask_heldout_round56.jsonl", "round 56, a day's mix then infra threads: first scored 74/80 on 2026-11-27"),
    (DATA / "ask_heldout_round60.jsonl", "round 60, conversations then posts and work messages: first scored 72/80 on 2026-11-27"),
    (DATA / "ask_heldout_round64.jsonl", "round 64, newcomers and non-specialists: first scored 35/40 on 2026-11-27"),
]


def held_out_mode(catalog, verbose: bool) -> None:
    """The blind rounds kept out of the corpus, judged as when they were first scored (tests/ask_corpus.py)."""
    for path, first in HELD_OUT:
        held_out_file(catalog, verbose, path, first)


def held_out_file(catalog, verbose: bool, path: Path, first: str) -> None:
    cases = held_out_cases(path)
    right, by_question = 0, {case["question"]: case for case in cases}
    for case in cases:
        differences = held_out_misses(case, answer_case(case, catalog, by_question))  # answered: as first scored
        right += not differences
        if verbose and differences:
            print(f"  held-out miss: {case['question']!r}: {differences}")
    print(f"held-out {path.name}: {right}/{len(cases)} right ({right / len(cases):.0%}); {first}")


PART_TOOLS = {"cost": ("cloud_cost",), "time": ("training_time",), "buy": ("rent_vs_buy",)}  # a part's tool


def read_two_ways(understood) -> bool:
    """Whether the answer would add a second reading (tools/questions/second_readings.py), judged without tools: the
    parts the words ask stand for the tools they would call."""
    from gpusizer.tools.questions.asking import parts_asked
    from gpusizer.tools.questions.second_readings import second_reading

    journey, reading = understood.journey, understood.reading
    if journey is None or understood.follow is not None or reading.unknown_gpus:
        return False
    parts = parts_asked(reading.asked, journey.covers, training=reading.workload == "training", gpus=len(reading.gpus))
    called = frozenset(tool for part in parts for tool in PART_TOOLS.get(part, ()))
    return second_reading(reading, journey.name, called) is not None


def parser_mode(catalog, verbose: bool, write_misses: bool = False) -> int:
    """Readings of every row (no tool called), answers of the rows that expect one; the misses as the test holds them."""
    right, by_journey, two_ways = 0, Counter(), Counter()
    totals = Counter(case["journey"] for case in CORPUS)
    started, answered = time.process_time(), {}  # a conversation's earlier questions are answered once
    for case in CORPUS:
        understood = understand_case(case, catalog, BY_QUESTION, answered)
        ok = miss_of(case, understood.journey_name, understood.facts()) is None
        right += ok
        by_journey[case["journey"]] += ok
        two_ways[ok, read_two_ways(understood)] += 1
    reading_ms = (time.process_time() - started) * 1000 / len(CORPUS)
    print(f"readings: {right}/{len(CORPUS)} right ({right / len(CORPUS):.1%}); {reading_ms:.1f} ms of CPU per question")
    misread = two_ways[False, True] + two_ways[False, False]
    print(f"read two ways (a quantity given that the journey chosen does not use): {two_ways[False, True]} of {misread} "
          f"misreadings, {two_ways[True, True]} of {right} right readings")
    for journey, total in sorted(totals.items()):
        print(f"  {journey:16} {by_journey[journey]:4}/{total}")
    expecting = [case for case in CORPUS if case.get("expect")]
    answered_right, placeholders, silent = 0, 0, 0
    for case in expecting:
        answer = answer_case(case, catalog, BY_QUESTION)
        faults = answer_misses(case, answer)
        answered_right += not faults
        placeholders += bool(PLACEHOLDER.search(answer.answer))
        silent += bool(answer.understood and answer.ignored and "Ignored:" not in answer.interpretation)
        if verbose and faults:
            print(f"  answer miss: {case['question']!r}: {faults}")
    print(f"answers: {answered_right}/{len(expecting)} rows that expect a verdict or figure answered right; "
          f"{placeholders} placeholders; {silent} answers hiding ignored words")
    started = time.process_time()
    misses = judge_corpus(catalog)
    print(f"corpus test: {len(misses)} misses, judged in {time.process_time() - started:.1f} s of CPU")
    if verbose:
        for question, how in misses.items():
            print(f"  miss: {question!r}: {how}")
    if write_misses:
        MISSES_FILE.write_text(json.dumps(dict(sorted(misses.items())), indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {len(misses)} known misses to {MISSES_FILE}")
    return right


async def llm_mode(catalog, verbose: bool) -> None:
    from gpusizer.tui.ask.llm import ask_llm, llm_settings, server_toolset

    settings = llm_settings()
    if settings is None:
        print("llm: not configured (set GPUSIZER_LLM_MODEL, see README 'Ask')")
        return
    right = 0
    toolset = server_toolset()
    async with toolset:
        for case in CORPUS:
            question = case["question"] if not case.get("previous") else f"{case['previous']} Then: {case['question']}"
            answer = await ask_llm(question, toolset=toolset, settings=settings)
            ok = answer.understood and call_matches(case, answer.calls, catalog)
            right += ok
            if verbose and not ok:
                print(f"  miss: {case['question']!r}: {[(c.tool, c.arguments) for c in answer.calls]}")
    print(f"llm ({settings.model}): {right}/{len(CORPUS)} right ({right / len(CORPUS):.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llm", action="store_true", help="also run the configured LLM over the corpus")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every miss")
    parser.add_argument("--write-misses", action="store_true", help="write the corpus test's known misses (after a fix)")
    arguments = parser.parse_args()
    catalog = load_catalog(include_user=False)
    parser_mode(catalog, arguments.verbose, arguments.write_misses)
    held_out_mode(catalog, arguments.verbose)
    if arguments.llm:
        import anyio

        anyio.run(llm_mode, catalog, arguments.verbose)
    else:
        print("llm: skipped (pass --llm with GPUSIZER_LLM_MODEL set)")


if __name__ == "__main__":
    main()
