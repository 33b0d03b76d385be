"""Names to ids: exact ids, aliases and loose spellings, with suggestions when nothing matches."""
from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

from rapidfuzz import fuzz, process

VENDOR_WORDS = ("nvidia", "geforce", "tesla", "amd", "instinct", "intel", "habana", "google", "cloud", "aws")
SUFFIX_WORDS = ("instruct", "chat", "hf", "base", "it", "pt")


def compact(name: str) -> str:
    """Lower-case letters and digits only, vendor words dropped: 'NVIDIA H100-SXM5' -> 'h100sxm5'."""
    words = re.split(r"[^a-z0-9.]+", name.lower())
    words = [w for w in words if w and w not in VENDOR_WORDS]
    return re.sub(r"[^a-z0-9]", "", "".join(words))


NUMBER_WEIGHT = 10  # score points per digit a name shares with the query in a row: '2070' is nearer 'rtx-3070' than 'b200'
SUGGESTION_QUERY_LIMIT = 120  # characters: past the longest catalog name a longer query matches nothing better
DIGIT_GROUPS, DIGITS = 4, 8  # what shared_digits compares of a name


def shared_digits(query: str, key: str) -> int:
    """The longest run of digits the two have in common: the model number is what people mean most ('3060 ti').
    Bounded: a few groups of a few digits each, whatever a client sends."""
    ours, theirs = re.findall(r"\d+", query)[:DIGIT_GROUPS], re.findall(r"\d+", key)[:DIGIT_GROUPS]
    return max((SequenceMatcher(None, a[:DIGITS], b[:DIGITS]).find_longest_match().size for a in ours for b in theirs),
               default=0)


class NameIndex:
    """Maps every spelling we know of a thing to its id."""

    def __init__(self, kind: str, entries: Iterable[tuple[str, Iterable[str]]]):
        self.kind = kind
        self.ids: list[str] = []
        self._by_key: dict[str, str] = {}
        self._spelled: dict[str, str] = {}  # as written in the catalog, lower-cased, for type-ahead
        for item_id, spellings in entries:
            self.ids.append(item_id)
            for spelling in (item_id, *spellings):
                if "/" in spelling and " " not in spelling:  # a Hub id 'meta-llama/Meta-Llama-3.1-8B' is also 'Meta-Llama-3.1-8B'
                    self._by_key.setdefault(compact(spelling.split("/")[-1]), item_id)
                self._by_key.setdefault(compact(spelling), item_id)
                self._by_key.setdefault(spelling.lower(), item_id)
                self._spelled.setdefault(spelling.lower(), item_id)

    def get(self, name: str) -> str | None:
        for key in (name.lower().strip(), compact(name), self._without_suffix(name)):
            if key and key in self._by_key:
                return self._by_key[key]
        return None

    @staticmethod
    def _without_suffix(name: str) -> str:
        """'meta-llama/Meta-Llama-3.1-70B-Instruct' -> 'llama3.1 70b': the name after the org, without the org's words
        repeated in front or a chat/instruct suffix behind."""
        org, _, last = name.lower().rpartition("/")
        words = [w for w in re.split(r"[^a-z0-9.]+", last) if w]
        org_words = set(re.split(r"[^a-z0-9]+", org)) - {""}
        while len(words) > 2 and words[0] in org_words and words[1] in org_words:  # 'meta-llama/Meta-Llama-3.1' -> 'Llama-3.1'
            words.pop(0)
        while words and words[-1] in SUFFIX_WORDS:
            words.pop()
        return compact(" ".join(words))

    def suggestions(self, name: str, limit: int = 3) -> list[str]:
        """The closest known names; a query far longer than any name is cut to a name's length first (fuzzy matching
        a 10 KB paste against every name took ~0.4 s, and no name is close to it anyway)."""
        query = (compact(name) or name.lower())[:SUGGESTION_QUERY_LIMIT]
        matches = process.extract(query, list(self._by_key), scorer=fuzz.WRatio, limit=limit * 8)
        found: list[str] = []
        ranked = sorted(matches, key=lambda m: (-m[1] - NUMBER_WEIGHT * shared_digits(query, m[0]), len(m[0])))
        for key, _score, _ in ranked:
            item_id = self._by_key[key]
            if item_id not in found:
                found.append(item_id)
            if len(found) == limit:
                break
        return found

    def complete(self, partial: str, limit: int = 20) -> list[str]:
        """Ids for a half-typed name: spellings that start with it, then ones that contain it, then close ones."""
        query = compact(partial)
        if not query:
            return self.ids[:limit]
        typed = partial.lower().strip()
        # As typed first ('qwen3' is not 'qwen-32b'), then spelling-blind ('h100sxm' finds 'H100 SXM5').
        found = [i for k, i in self._spelled.items() if k.startswith(typed)]
        found += [i for k, i in self._spelled.items() if typed in k]
        if not found:
            found = [i for k, i in self._by_key.items() if query in k]
        found = list(dict.fromkeys(found)) or self.suggestions(partial, limit=min(limit, 5))
        return found[:limit]

    def unknown_message(self, name: str, hint: str) -> str:
        close = ", ".join(f"'{s}'" for s in self.suggestions(name))
        shown = name if len(name) <= 60 else name[:56] + "..."
        return f"unknown {self.kind} '{shown}'; did you mean {close}? ({hint})"
