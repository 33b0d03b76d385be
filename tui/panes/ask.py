"""Ask: a question in plain words, answered from the same tools (the engine lives in gpusizer.tui.asking)."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

from gpusizer.catalog import Catalog


class AskPane(Vertical):
    TITLE = "gpusizer ask"

    def __init__(self, catalog: Catalog, **options):
        super().__init__(**options)
        self.catalog = catalog

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="transcript"):
            yield Static("Ask a sizing question in plain words, e.g. [i]how much VRAM to QLoRA llama 3.1 70b?[/i]",
                         classes="notes")
        yield Input(placeholder="Ask about memory, GPUs, cloud cost or rent vs buy", id="question")

    def markdown(self) -> str | None:
        return None

    def json(self) -> str | None:
        return None
