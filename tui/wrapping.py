"""Messages wrapped for a narrow column without stranding punctuation.

Textual wraps at spaces and folds a word longer than the line by characters. Error messages list model ids in quotes
('mistralai/Mixtral-8x7B-v0.1',): a quoted id one character wider than the form column left its comma alone on a
line, and the next id, too long to follow it, went below. Here a long word breaks after a '/' or '-' inside it, and
the punctuation that ends a word always stays on the line of the word's last letters.
"""
from __future__ import annotations

import re

from textual.content import Content
from textual.geometry import Size
from textual.widgets import Static

BREAK_AFTER = re.compile(r"(?<=[/-])(?=\w)")  # inside a word, a line may end after '/' or '-'
PUNCTUATION = re.compile(r"^\W+$")


def wrap_message(text: str, width: int) -> str:
    """`text` in lines of at most `width` characters, joined by newlines; the breaks of the text are kept."""
    if width < 8:
        return text
    return "\n".join(line for paragraph in text.split("\n") for line in wrap_paragraph(paragraph, width))


def wrap_paragraph(paragraph: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in paragraph.split():
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= width:
            line = candidate
            continue
        if len(word) <= width:  # on a line of its own
            lines.append(line)
            line = word
            continue
        for number, segment in enumerate(segments(word, width)):  # wider than a line: filled in, broken inside
            joined = (f"{line} {segment}" if number == 0 else line + segment) if line else segment
            if len(joined) <= width:
                line = joined
            else:
                lines.append(line)
                line = segment
    return [*lines, line] if line or not lines else lines


def segments(word: str, width: int) -> list[str]:
    """The word's pieces between allowed breaks, each at most `width` long (cut by characters where it has to be,
    never leaving punctuation alone)."""
    pieces: list[str] = []
    for piece in BREAK_AFTER.split(word):
        while len(piece) > width:
            cut = width
            while cut > 1 and PUNCTUATION.match(piece[cut:]):  # the rest would be only punctuation: cut earlier
                cut -= 1
            pieces.append(piece[:cut])
            piece = piece[cut:]
        pieces.append(piece)
    return pieces


class MessageLine(Static):
    """A message under a form field, wrapped by wrap_message at the width it is given (not by Textual's folding)."""

    def __init__(self, message: str, **options):
        super().__init__(markup=False, **options)
        self.message = message

    def show_message(self, message: str) -> None:
        if message != self.message:
            self.message = message
            self.refresh(layout=True)

    def render(self) -> Content:
        width = self.content_size.width
        return Content(wrap_message(self.message, width) if width else self.message)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(wrap_message(self.message, width).split("\n"))
