"""The one exception every domain failure raises: its message is what an MCP client reads."""
from __future__ import annotations

from collections.abc import Iterable


class SizingError(ValueError):
    """Bad input or an impossible request, with a message that says how to fix it.

    `arguments` names the request argument(s) at fault and `allowed` their allowed values or range, where known, so a
    face can put the message under the right input without reading the prose; the message stays the one sentence
    an MCP client reads."""

    def __init__(self, message: str, *, arguments: Iterable[str] = (), allowed: str | None = None):
        super().__init__(message)
        self.arguments: tuple[str, ...] = tuple(arguments)
        self.allowed = allowed


class CatalogError(SizingError):
    """A catalog file (built-in or the user's own) has a row that does not validate."""
