"""Text that gpusizer did not write (what a user typed, catalog rows, model names, LLM answers) never reaches Textual
as markup: typing 'h100 [/i]' used to close the app with a MarkupError."""
from __future__ import annotations

from rich.text import Text


def esc(value: object) -> str:
    """A value to place inside our own markup string: every '[' escaped, not only those that look like tags (Textual's
    own escape leaves "[/'" alone, which its parser then reads as a closing tag)."""
    return str(value).replace("[", "\\[")


def cell(value: object) -> Text:
    """A DataTable cell that is shown as written (DataTable parses plain strings as markup)."""
    return Text(str(value))
