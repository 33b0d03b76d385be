"""The catalog's names in a question's spans, found fast. Every span of up to six words is tried against the catalog,
nearly all of them no name. A name's compact form (lower-case letters and digits) is a prefix of its span's compact
form, so a span none of whose prefixes is a name key is refused before the lookup (tests/test_ask_corpus.py checks
that the catalog refuses it too)."""
from __future__ import annotations

import weakref

from gpusizer.catalog import Catalog, NameMatch
from gpusizer.catalog.lookup import VENDOR_WORDS, compact

from . import regex as rx

LETTERS_AND_DIGITS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
SEEN: weakref.WeakKeyDictionary[Catalog, dict[str, NameMatch | None]] = weakref.WeakKeyDictionary()
KEYS: weakref.WeakKeyDictionary[Catalog, tuple[frozenset[str], int]] = weakref.WeakKeyDictionary()


def name_keys(catalog: Catalog) -> tuple[frozenset[str], int] | None:
    """Every compact key the catalog's name lookups use, and the longest; None when the catalog's indexes are not
    the ones this shortcut knows (then every span goes to the catalog)."""
    if catalog not in KEYS:
        try:
            indexes = (catalog._model_names._by_key, catalog._gpu_names._by_key, catalog._short_names,
                       catalog._family_default)
        except AttributeError:
            return None
        keys = frozenset(k for index in indexes for key in index for k in (key, compact(key)) if k)
        KEYS[catalog] = keys, max(map(len, keys), default=0)
    return KEYS[catalog]


def may_name(catalog: Catalog, words: str) -> bool:
    """False only when no name can match `words` (see the module's docstring); True when it may, or cannot tell."""
    found = name_keys(catalog)
    if found is None or "/" in words or any(w in VENDOR_WORDS for w in rx.split(r"[^a-z0-9.]+", words.lower())):
        return True
    keys, longest = found
    squeezed = "".join(c for c in words.lower() if c in LETTERS_AND_DIGITS)
    candidates = (squeezed, "rtx" + squeezed) if words[:1].isdigit() else (squeezed,)  # '3090' is the RTX 3090
    return any(c[:n] in keys for c in candidates for n in range(1, min(len(c), longest) + 1))


def name_in_text(catalog: Catalog, words: str) -> NameMatch | None:
    """The catalog's reading of a span, remembered per catalog."""
    seen = SEEN.setdefault(catalog, {})
    if words not in seen:
        seen[words] = catalog.name_in_text(words) if may_name(catalog, words) else None
    return seen[words]
