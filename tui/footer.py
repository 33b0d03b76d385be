"""The footer, rebuilt only when the keys it shows change."""
from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class SteadyFooter(Footer):
    """Textual's footer rebuilds all its keys whenever the focus moves. Between the fields of one form the keys it
    shows stay the same, and the rebuild (a dozen widgets laid out again) cost more than the keystroke that moved the
    focus, so it happens only when what it would show changes."""

    _showing: tuple | None = None

    def bindings_changed(self, screen: Screen) -> None:
        showing = tuple((binding.key, binding.action, binding.description, binding.group, enabled, tooltip)
                        for _, binding, enabled, tooltip in screen.active_bindings.values() if binding.show)
        if showing == self._showing and self._bindings_ready:
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:  # when Footer rebuilds itself
            self._showing = showing
        super().bindings_changed(screen)
