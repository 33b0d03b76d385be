"""A field's own keys (backspace, ctrl+u, ← → in a choice, space on a box) acted on the moment the field reads them.

Textual types a printable key as soon as the focused widget reads it, but finds a bound key's action only after the
key has bubbled up to the app, and then for whatever has the focus by that time. Keys that arrive together (a fast
typist, a paste, a slow machine) were acted on out of order: Tab, backspace, 2 in GPUs typed the 2 over the selected
1 and then let backspace delete it, a blank field whose export had no value (issue #37).
"""
from __future__ import annotations

from typing import cast

from textual import events
from textual.widget import Widget


class KeysAtOnce:
    """Mix in before the widget class (a plain class: a second Widget base would reorder its styles): its own
    (non-priority) bindings run in key order."""

    async def _on_key(self, event: events.Key) -> None:
        widget = cast(Widget, self)
        for binding in widget._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await widget.app.run_action(binding.action, widget):
                event.stop()
                event.prevent_default()
                return
        await super()._on_key(event)  # type: ignore[misc]  # the widget class mixed in after this one
