#!/usr/bin/env python3
"""Which of Ask's rules carry answers (issue #35): each regular expression of tools/questions, how many known questions
it matches, and how many answers change when it is made to never match.

Every pattern Ask uses is compiled through tools/questions/regex.py, so one run with a recording `compiled` lists the
questions each pattern matched (the corpus, its follow-ups' openings and the held-out rounds). A pattern is then
removed alone — made never to match — and only the questions it matched are answered again (elsewhere it changed
nothing), comparing every field of the answer (reading, interpretation, ignored words, answer text) with the first
run. A pattern that changes no answer is dead weight for every question we know; one that changes a single answer is a
rule written for one question.

    python benchmarks/ask_rules.py            # matches only (about a minute)
    python benchmarks/ask_rules.py --ablate   # and each pattern removed alone (several minutes on 2 cores)
    python benchmarks/ask_rules.py --ablate --list 0   # and list the patterns that change no answer
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from ask_corpus import BY_QUESTION, CORPUS, HELD_OUT_FILES, answer_case, held_out_cases  # noqa: E402

from gpusizer.catalog import load_catalog  # noqa: E402
from gpusizer.tools.questions import AskAnswer, ask  # noqa: E402
from gpusizer.tools.questions import regex as rx  # noqa: E402

PACKAGE = Path(__file__).resolve().parent.parent / "tools" / "questions"
Question = tuple[str, str | None]  # (question, the question before it in its conversation)


class Recording:
    """A compiled pattern that notes each question it matches (the question being answered is `Recording.now`)."""
    now: Question | None = None
    matched: dict[str, set[Question]] = defaultdict(set)

    def __init__(self, pattern: re.Pattern[str]):
        self.pattern = pattern

    def _saw(self, found: bool) -> None:
        if found and Recording.now is not None:
            Recording.matched[self.pattern.pattern].add(Recording.now)

    def search(self, text: str, *at: int) -> re.Match[str] | None:
        found = self.pattern.search(text, *at)
        self._saw(found is not None)
        return found

    def match(self, text: str, *at: int) -> re.Match[str] | None:
        found = self.pattern.match(text, *at)
        self._saw(found is not None)
        return found

    def fullmatch(self, text: str, *at: int) -> re.Match[str] | None:
        found = self.pattern.fullmatch(text, *at)
        self._saw(found is not None)
        return found

    def finditer(self, text: str, *at: int) -> Iterator[re.Match[str]]:
        found = list(self.pattern.finditer(text, *at))
        self._saw(bool(found))
        return iter(found)

    def findall(self, text: str, *at: int) -> list[Any]:
        found = self.pattern.findall(text, *at)
        self._saw(bool(found))
        return found

    def split(self, text: str, maxsplit: int = 0) -> list[str]:
        parts = self.pattern.split(text, maxsplit)
        self._saw(len(parts) > 1)
        return parts

    def sub(self, replacement: Any, text: str, count: int = 0) -> str:
        out, made = self.pattern.subn(replacement, text, count=count)
        self._saw(made > 0)
        return out


class Removed(Recording):
    """The pattern taken out: it never matches."""

    def search(self, text: str, *at: int) -> None:
        return None

    match = fullmatch = search

    def finditer(self, text: str, *at: int) -> Iterator[re.Match[str]]:
        return iter(())

    def findall(self, text: str, *at: int) -> list[Any]:
        return []

    def split(self, text: str, maxsplit: int = 0) -> list[str]:
        return [text]

    def sub(self, replacement: Any, text: str, count: int = 0) -> str:
        return text


REMOVED: list[str] = []  # the pattern taken out in this process, if any
plain = rx.compiled.__wrapped__  # type: ignore[attr-defined]


@cache
def compiled(pattern: str | re.Pattern[str], flags: int = 0) -> Recording:
    built = plain(pattern, flags)
    return (Removed if built.pattern in REMOVED else Recording)(built)


def questions() -> list[Question]:
    rows = CORPUS + [case for path in HELD_OUT_FILES for case in held_out_cases(path)]
    return list(dict.fromkeys((case["question"], case.get("previous")) for case in rows))


def openings(catalog: Any, asked: list[Question]) -> dict[str, AskAnswer]:
    """Each follow-up's previous question answered once, as the corpus test answers it."""
    answered: dict[str, AskAnswer] = {}
    out = {}
    for _, previous in asked:
        if previous and previous not in out:
            earlier = BY_QUESTION.get(previous)
            out[previous] = answer_case(earlier, catalog, BY_QUESTION, 0, answered) if earlier else ask(previous, catalog)
    return out


def answered(catalog: Any, before: dict[str, AskAnswer], asked: list[Question]) -> dict[Question, str]:
    out = {}
    for question, previous in asked:
        Recording.now = (question, previous)
        answer = ask(question, catalog, before.get(previous) if previous else None)
        out[(question, previous)] = json.dumps(answer.model_dump(), sort_keys=True, default=str)  # every field, not only the figure
    Recording.now = None
    return out


STATE: dict[str, Any] = {}


def start_worker(first: dict[Question, str]) -> None:
    rx.compiled = compiled  # type: ignore[assignment]
    STATE["catalog"] = catalog = load_catalog(include_user=False)
    STATE["before"], STATE["first"] = openings(catalog, list(first)), first


def without(pattern_and_questions: tuple[str, list[Question]]) -> tuple[str, list[Question]]:
    """The questions whose answer changes when this pattern never matches."""
    pattern, matched = pattern_and_questions
    REMOVED[:] = [pattern]
    compiled.cache_clear()
    again = answered(STATE["catalog"], STATE["before"], matched)
    REMOVED.clear()
    compiled.cache_clear()
    return pattern, [q for q in matched if again[q] != STATE["first"][q]]


def home_of(pattern: str, sources: dict[str, str]) -> str:
    """The file holding the longest piece of the pattern's text (patterns are often built from named pieces)."""
    for size in (40, 20, 10):
        pieces = [pattern[i:i + size] for i in range(0, max(1, len(pattern) - size + 1), 4)]
        counts = Counter(name for piece in pieces for name, text in sources.items() if piece in text)
        if counts:
            return counts.most_common(1)[0][0]
    return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ablate", action="store_true", help="remove each pattern alone and count changed answers")
    parser.add_argument("--list", type=int, metavar="N", help="list the patterns that change at most N answers")
    args = parser.parse_args()
    rx.compiled = compiled  # type: ignore[assignment]
    catalog, asked, started = load_catalog(include_user=False), questions(), time.perf_counter()
    first = answered(catalog, openings(catalog, asked), asked)
    matched = dict(Recording.matched)
    print(f"{len(asked)} questions (corpus and held-out) answered in {time.perf_counter() - started:.0f} s; "
          f"of {compiled.cache_info().currsize} patterns used, {len(matched)} matched at least one")
    sizes = Counter("1" if len(q) == 1 else "2-5" if len(q) <= 5 else "6+" for q in matched.values())
    print(f"patterns matching 1 question: {sizes['1']}, 2-5: {sizes['2-5']}, 6 or more: {sizes['6+']}")
    if not args.ablate:
        return
    started, changed = time.perf_counter(), {}
    work = sorted(((p, sorted(q, key=str)) for p, q in matched.items()), key=lambda pq: len(pq[1]))
    with multiprocessing.Pool(min(4, os.cpu_count() or 1), start_worker, (first,)) as pool:
        for pattern, moved in pool.imap_unordered(without, work, chunksize=4):
            changed[pattern] = moved
    counts = Counter(min(len(m), 3) for m in changed.values())
    print(f"removed one at a time ({time.perf_counter() - started:.0f} s): {counts[0]} change no answer, "
          f"{counts[1]} change one, {counts[2]} change two, {counts[3]} change three or more")
    if args.list is not None:
        sources = {path.name: path.read_text() for path in PACKAGE.glob("*.py")}
        for pattern, moved in sorted(changed.items(), key=lambda pm: (len(pm[1]), home_of(pm[0], sources))):
            if len(moved) <= args.list:
                print(f"  {home_of(pattern, sources)}: changes {len(moved)} of {len(matched[pattern])} matched: {pattern[:100]!r}")


if __name__ == "__main__":
    main()
