"""Type-ahead for catalog names in inputs (Textual suggesters extend what was typed)."""
from __future__ import annotations

from textual.suggester import Suggester

from gpusizer.catalog import Catalog


class CatalogSuggester(Suggester):
    """Completes a GPU or model name from the catalog; with `many`, completes the last of a comma-separated list."""

    def __init__(self, catalog: Catalog, kind: str, many: bool = False):
        super().__init__(use_cache=True, case_sensitive=True)
        self.complete = catalog.complete_gpu if kind == "gpu" else catalog.complete_model
        self.many = many
        # a completion extends what was typed, so nothing longer than the longest name has one: a 10 KB paste is not
        # fuzzy-matched against every name at each keystroke (that froze the form for 0.4 s a key)
        self.longest = max((len(name) for name in self.complete("", limit=1_000_000)), default=0)

    async def get_suggestion(self, value: str) -> str | None:
        head, _, last = value.rpartition(",") if self.many else ("", "", value)
        typed = last.lstrip()
        if not typed or len(typed) > self.longest:
            return None
        for candidate in self.complete(typed, limit=10):
            if candidate.lower().startswith(typed.lower()):
                return value + candidate[len(typed):]
            short = candidate.split("/")[-1]
            if short.lower().startswith(typed.lower()):
                return value + short[len(typed):]
        return None
