"""An Input for forms whose width is set by the stylesheet: typing into it never re-lays-out the whole screen.

Textual's Input records its text width in `virtual_size`, a reactive that asks for a layout of the whole screen on
every change. That is what a width:auto input needs; ours are sized by CSS, and on a screen of a hundred widgets that
layout was most of the time between a keystroke and the new estimate. The size is still recorded (horizontal
scrolling inside the input reads it), only without the layout. Empty is valid: an empty field means "the tool's
default", so clearing one must not flash the invalid style either.

A number field says what it read ('8k' = 8,192) in `echo`, drawn dim at the right end of its own line where the text
leaves room: the forms are one row per input, so a line under each would push them past 24 rows. While the field is
not focused, a text longer than the field shows its start (a model id is read from the left).
"""
from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widgets import Input

from .keys_at_once import KeysAtOnce


class FormInput(KeysAtOnce, Input):
    echo_text = ""

    def __init__(self, *args, **options):
        options.setdefault("valid_empty", True)
        super().__init__(*args, **options)

    @property
    def echo(self) -> str:
        return self.echo_text

    @echo.setter
    def echo(self, text: str) -> None:
        if text != self.echo_text:
            self.echo_text = text
            self.refresh()

    def _watch_value(self, value: str) -> None:
        if not self.styles.auto_dimensions:  # the size first, so Input's own assignment finds nothing to change
            # Textual leaves virtual_size unannotated: pyright reads it as Reactive[Size] | Size, mypy as the Reactive
            self.set_reactive(Input.virtual_size, Size(self.content_width, 1))  # pyright: ignore[reportArgumentType]
        inherited = getattr(super(), "_watch_value", None)  # Textual's private watcher (8.x); absent, it is renamed
        if inherited is not None:
            inherited(value)

    def on_blur(self) -> None:
        self.scroll_to(x=0, animate=False, immediate=True)  # the start of a long text, not the end the cursor left

    def on_focus(self) -> None:
        self.show_cursor_or_start()

    def on_resize(self) -> None:
        self.show_cursor_or_start()  # a scrollbar appearing beside the form narrows it after the first scroll

    def show_cursor_or_start(self) -> None:
        """Focused, the cursor in view (Input scrolls to it only when it moves); not, the start of the text."""
        if not self.has_focus:
            self.scroll_to(x=0, animate=False, immediate=True)
            return
        cursor = self.cursor_screen_offset.x - self.content_region.x + self.scroll_offset.x
        self.scroll_to_region(Region(cursor, 0, 1, 1), force=True, animate=False, immediate=True)

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        echo = self.echo_text
        width = strip.cell_length
        if y != 0 or not echo or self.scroll_offset.x:
            return strip
        room = width - (self._value.cell_len + 1) - 1  # after the text and the cursor, one space apart
        if len(echo) > room:
            return strip
        dim = Style(dim=True) + self.get_component_rich_style("input--placeholder")
        return Strip.join([strip.crop(0, width - len(echo) - 1), Strip([Segment(echo + " ", dim)])]).apply_style(self.rich_style)
