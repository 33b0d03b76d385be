"""An Input for forms whose width is set by the stylesheet: typing into it never re-lays-out the whole screen.

Textual's Input records its text width in `virtual_size`, a reactive that asks for a layout of the whole screen on
every change. That is what a width:auto input needs; ours are sized by CSS, and on a screen of a hundred widgets that
layout was most of the time between a keystroke and the new estimate. The size is still recorded (horizontal
scrolling inside the input reads it), only without the layout. Empty is valid: an empty field means "the tool's
default", so clearing one must not flash the invalid style either.
"""
from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Input


class FormInput(Input):
    def __init__(self, *args, **options):
        options.setdefault("valid_empty", True)
        super().__init__(*args, **options)

    def _watch_value(self, value: str) -> None:
        if not self.styles.auto_dimensions:  # the size first, so Input's own assignment finds nothing to change
            # Textual leaves virtual_size unannotated: pyright reads it as Reactive[Size] | Size, mypy as the Reactive
            self.set_reactive(Input.virtual_size, Size(self.content_width, 1))  # pyright: ignore[reportArgumentType]
        inherited = getattr(super(), "_watch_value", None)  # Textual's private watcher (8.x); absent, it is renamed
        if inherited is not None:
            inherited(value)
