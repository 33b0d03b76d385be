"""Biggest: the largest catalog models that fit a GPU (or several of one type) for a workload, per format."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Label, Static

from gpusizer.tools import BiggestModels, biggest_model
from gpusizer.tools.figures import gib, number
from gpusizer.tools.memory.biggest import BiggestModelRequest

from ..form_input import FormInput
from ..safe_text import esc
from ..suggest import CatalogSuggester
from ..text_table import text_table
from .base import ToolPane, default_text, field, pair, tool_choice


def billions(params: int) -> str:
    """A model's size as the tool's answer writes it (20.9B)."""
    return f"{params / 1e9:.1f}B"


class BiggestPane(ToolPane[BiggestModels]):
    TITLE = "gpusizer biggest model"
    COMPUTE_IN_THREAD = True

    def form(self) -> ComposeResult:
        yield from field("GPU (or a size: 24GB)", FormInput("rtx-3090", id="gpu", suggester=CatalogSuggester(self.catalog, "gpu")))
        yield pair(("GPUs", FormInput(default_text(BiggestModelRequest, "gpu_count"), id="gpu_count")),
                   ("Per format", FormInput(default_text(BiggestModelRequest, "limit"), id="limit")))
        yield pair(("Workload", tool_choice(BiggestModelRequest, "workload")),
                   ("Method", tool_choice(BiggestModelRequest, "method")))
        yield from field("Formats (comma-separated)", FormInput(placeholder="as released, q4_k_m", id="weights_dtypes"))
        yield pair(("Seq len", FormInput(default_text(BiggestModelRequest, "seq_len"), id="seq_len")),
                   ("Batch", FormInput(default_text(BiggestModelRequest, "batch_size"), id="batch_size")))

    def results(self) -> ComposeResult:
        yield Static("", id="biggest-summary", classes="headline")
        yield Static("", id="biggest-hint", classes="hints")
        yield Static("", id="biggest-models")
        yield Label("Assumptions", classes="section")
        yield Static("", id="biggest-assumptions", classes="notes")

    def arguments(self) -> dict[str, Any]:
        formats = [name.strip() for name in (self.text("weights_dtypes") or "").split(",") if name.strip()] or None
        return self.given(gpu=self.text("gpu") or "", gpu_count=self.whole("gpu_count"), limit=self.whole("limit"),
                          workload=self.selected("workload"),
                          method=self.selected("method") if self.selected("workload") == "training" else None,
                          weights_dtypes=formats, seq_len=self.whole("seq_len"), batch_size=self.whole("batch_size"))

    def compute(self, arguments: dict[str, Any]) -> BiggestModels:
        return biggest_model(catalog=self.catalog, **arguments)

    def show(self, result: BiggestModels) -> None:
        largest = [fits.models[0] for fits in result.formats if fits.models]
        workload = f"{esc(result.workload)}, {number(result.seq_len)} tokens of context"
        if largest:
            best = max(largest, key=lambda m: m.params)
            dtype = next(f.weights_dtype for f in result.formats if f.models and f.models[0] is best)
            self.set_text("#biggest-summary",
                          f"[b]{esc(best.model)}[/b] ({billions(best.params)}, {esc(dtype)}) is the largest that fits "
                          f"{number(result.gpu_count)} × {esc(result.gpu_id)}: {gib(best.per_gpu_bytes)} of "
                          f"{gib(best.usable_bytes)} per GPU ({workload})")
        else:
            self.set_text("#biggest-summary", f"None of the catalog models fits {number(result.gpu_count)} × "
                                              f"{esc(result.gpu_id)} ({workload}).")
        hint = "; ".join(esc(a.text) for a in result.alternatives)  # where a format fits none: the changes that do
        self.set_text("#biggest-hint", f"Where none fits, with {hint}" if hint else "")
        self.query_one("#biggest-hint").display = bool(hint)
        tables = []
        for fits in result.formats:  # one table per format, largest first; the figures first, so a long id is what is cut
            rows = [[billions(m.params), gib(m.per_gpu_bytes).removesuffix(" GiB"), m.model] for m in fits.models]
            rows = rows or [["", "", "none of the catalog models"]]
            tables.append(Content.assemble((fits.weights_dtype, "bold underline"), "\n",
                                           text_table(["params", "GiB/GPU", "model"], rows, right=frozenset({0, 1}))))
        self.set_text("#biggest-models", Content("\n\n").join(tables))
        self.set_text("#biggest-assumptions", "\n".join(f"• {esc(a)}" for a in result.assumptions))
