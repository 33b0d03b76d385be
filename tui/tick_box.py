"""A checkbox whose off state is blank: Textual's draws an X in both states, only the colour differs, and in many
terminals (tmux, 16 colours, light themes) an unticked 'All GPUs in one machine' read as ticked."""
from __future__ import annotations

from textual.widgets import Checkbox

from .keys_at_once import KeysAtOnce

TICKED, CLEAR = "✓", " "


class TickBox(KeysAtOnce, Checkbox):
    def __init__(self, *args, **options):
        super().__init__(*args, **options)
        self.BUTTON_INNER = TICKED if self.value else CLEAR

    def watch_value(self) -> None:
        self.BUTTON_INNER = TICKED if self.value else CLEAR
        super().watch_value()  # the -on class and the Changed message
        self.refresh()
