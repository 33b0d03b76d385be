"""The keys screen (f10, or ? outside a text field): every key of the app and of the tab in front, with what it does."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .safe_text import esc

MORE_KEYS = [  # keys that belong to widgets rather than to a binding list
    ("tab / shift+tab", "next / previous field"),
    ("← / → / space", "change a choice such as Workload"),
    ("enter", "Catalog: show the row in full; Ask: ask"),
    ("s", "in a table: sort by the column under the cursor (again: reversed)"),
    ("ctrl+p", "command palette"),
]


class KeysScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f10,q,question_mark", "dismiss", "Close")]
    DEFAULT_CSS = """
    KeysScreen { align: center middle; }
    KeysScreen > VerticalScroll { width: 76; max-height: 22; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, rows: list[tuple[str, str]], tab: str):
        super().__init__()
        self.rows, self.tab = rows, tab

    def compose(self) -> ComposeResult:
        width = max(len(key) for key, _ in self.rows + MORE_KEYS)
        lines = [f"[b]Keys[/b] (on the {esc(self.tab)} tab; esc closes)", ""]
        lines += [f"[b]{esc(key).ljust(width)}[/b]  {esc(what)}" for key, what in self.rows + MORE_KEYS]
        with VerticalScroll():
            yield Static("\n".join(lines), id="keys-text")


def key_rows(bindings) -> list[tuple[str, str]]:
    """(key, what it does) for the app's and the tab's bindings (not a text field's editing keys), the tooltip where it
    says more than the footer's word."""
    rows, seen = [], set()
    for key, active in bindings.items():
        binding, node = active.binding, active.node
        ours = node is node.app or str(getattr(node, "id", "") or "").endswith(("-pane", "-table"))
        if binding.action in seen or not binding.description or not ours:
            continue
        seen.add(binding.action)
        shown = key.replace("ctrl+", "^")
        rows.append((shown, binding.tooltip or binding.description))
    return rows
