"""A choice among a few fixed values, on one line: the forms' replacement for Select.

←/→ or space step through the values, a letter jumps to the next value starting with it, a click steps forward.
It is one widget where a compact Select is five (current value, arrow, overlay list...): a form with six of them
painted its first frame about 130 ms later on the 2-core reference machine.
"""
from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .keys_at_once import KeysAtOnce


class Choice(KeysAtOnce, Widget, can_focus=True):
    DEFAULT_CSS = """
    Choice {
        height: 1;
        width: 100%;
        background: $surface;
        &:focus { background-tint: $foreground 5%; text-style: bold; }
        &.invalid { background-tint: $error 20%; }
        &:disabled { color: $text-disabled; }
    }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "Previous", show=False),  # the f10 screen lists them: the footer has 80 columns
        Binding("right,space", "step(1)", "Next", show=False),
    ]

    value: reactive[str] = reactive("")

    class Changed(Message):
        """The value changed (also readable from the `value` watcher)."""

        def __init__(self, choice: Choice, value: str):
            super().__init__()
            self.choice, self.value = choice, value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(self, options: list[str], value: str, *, id: str | None = None, classes: str | None = None):
        if value not in options:
            raise ValueError(f"{value!r} is not one of {options}")
        super().__init__(id=id, classes=classes)
        self.options = list(options)
        self.set_reactive(Choice.value, value)
        self.tooltip = f"{' · '.join(self.options)}\n←/→, space or a first letter to change"

    def validate_value(self, value: str) -> str:
        if value not in self.options:
            raise ValueError(f"{self.id or 'choice'}: {value!r} is not one of {', '.join(self.options)}")
        return value

    def watch_value(self, value: str) -> None:
        self.post_message(self.Changed(self, value))

    def render(self) -> Content:
        position = f"{self.options.index(self.value) + 1}/{len(self.options)}"
        return Content.assemble("‹ ", self.value, " ›  ", (position, "dim"))

    def action_step(self, delta: int) -> None:
        self.value = self.options[(self.options.index(self.value) + delta) % len(self.options)]

    def on_key(self, event: events.Key) -> None:
        letter = (event.character or "").lower()
        if len(letter) != 1 or not letter.isalnum():
            return
        start = self.options.index(self.value)
        ordered = self.options[start + 1:] + self.options[:start + 1]
        found = next((option for option in ordered if option.lower().startswith(letter)), None)
        if found is not None:
            event.stop()
            self.value = found

    def on_click(self) -> None:
        self.action_step(1)
