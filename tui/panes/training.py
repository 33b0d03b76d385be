"""Training: how long a training run takes, in GPU-hours and dollars, on each GPU type, cheapest first."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import DataTable, Label, Static

from gpusizer.tools import PlanTraining, plan_training
from gpusizer.tools.figures import gib, number, percent, token_count, usd
from gpusizer.tools.speed.plan_training import PlanTrainingRequest, duration

from ..form_input import FormInput
from ..safe_text import cell, esc
from ..suggest import CatalogSuggester
from ..text_table import dollars
from .base import FormError, ToolPane, default_text, field, pair, tool_choice
from .form_parts import model_fields
from .sortable import SortableTable

HEADERS = ("GPU", "total", "time", "GPUs", "$/GPU-h", "GPU-hours", "tok/s/GPU", "MFU", "per GPU", "offer")  # what decides first


class TrainingPane(ToolPane[PlanTraining]):
    TITLE = "gpusizer training plan"
    COMPUTE_IN_THREAD = True

    def form(self) -> ComposeResult:
        yield from model_fields(self.catalog, "meta-llama/Llama-3.1-8B")
        yield from field("Training tokens (all epochs)", FormInput("1B", id="training_tokens"))
        yield pair(("…or examples", FormInput(placeholder="e.g. 50k", id="examples")),
                   ("Tokens each", FormInput(placeholder="e.g. 512", id="tokens_per_example")))
        yield pair(("Epochs", FormInput(default_text(PlanTrainingRequest, "epochs"), id="epochs")),
                   ("Method", tool_choice(PlanTrainingRequest, "method")))
        yield pair(("Recipe", tool_choice(PlanTrainingRequest, "recipe")),
                   ("Pricing", tool_choice(PlanTrainingRequest, "pricing")))
        yield from field("Only this GPU", FormInput(placeholder="every type, or e.g. h100", id="gpu",
                                                    suggester=CatalogSuggester(self.catalog, "gpu")))
        yield pair(("GPUs", FormInput(placeholder="fewest that hold it", id="gpu_count")),
                   ("Seq len", FormInput(placeholder="tokens each or 2,048", id="seq_len")))
        yield pair(("Batch", FormInput(default_text(PlanTrainingRequest, "batch_size"), id="batch_size")),
                   ("MFU", FormInput(placeholder="published runs", id="mfu")))  # the tool's default differs per GPU

    def results(self) -> ComposeResult:
        yield Static("", id="training-summary", classes="headline")
        yield Static("", id="training-hint", classes="hints")
        yield Static("", id="training-warnings", classes="warnings")
        yield Label("Each GPU type (cheapest first)", classes="section")
        yield SortableTable(id="training-options")
        yield Label("Assumptions", classes="section")
        yield Static("", id="training-assumptions", classes="notes")

    def on_mount(self) -> None:
        self.query_one("#training-options", DataTable).add_columns(*HEADERS)
        super().on_mount()

    def arguments(self) -> dict[str, Any]:
        subject = self.model_or_size()
        tokens, examples, each = self.decimal("training_tokens"), self.whole("examples"), self.whole("tokens_per_example")
        if tokens is not None and (examples is not None or each is not None):
            raise FormError("training_tokens", "give training tokens or examples × tokens each, not both: clear one",
                            also=tuple(name for name, value in (("examples", examples), ("tokens_per_example", each)) if value))
        if tokens is None and (examples is None or each is None):
            raise FormError("training_tokens", "enter training tokens (e.g. 1B), or examples and tokens each")
        return self.given(**subject, training_tokens=tokens, examples=examples,
                          tokens_per_example=each, epochs=self.decimal("epochs"), method=self.selected("method"),
                          recipe=self.selected("recipe"), pricing=self.selected("pricing"), gpu=self.text("gpu"),
                          gpu_count=self.whole("gpu_count"), seq_len=self.whole("seq_len"),
                          batch_size=self.whole("batch_size"), mfu=self.decimal("mfu"))

    def compute(self, arguments: dict[str, Any]) -> PlanTraining:
        return plan_training(catalog=self.catalog, **arguments)

    def show(self, result: PlanTraining) -> None:
        self.set_text("#training-warnings", "\n".join(f"⚠ {esc(w)}" for w in result.warnings))
        self.query_one("#training-warnings").display = bool(result.warnings)
        change = "Fits with" if not result.options else "Cheaper with"  # the tool's first alternative, as its answer says it
        self.set_text("#training-hint", f"{change} {esc(result.alternatives[0].text)}" if result.alternatives else "")
        self.query_one("#training-hint").display = bool(result.alternatives)
        self.set_text("#training-assumptions", "\n".join(f"• {esc(a)}" for a in result.assumptions))
        self.show_options(result)
        run = f"{esc(result.model)} {esc(result.method)} training ({esc(result.recipe)}) on {token_count(result.training_tokens)} tokens"
        if not result.options:
            self.set_text("#training-summary", f"No GPU in the catalog holds {run} as asked (see below).")
            return
        first = result.options[0]
        cost = (f"[b]{usd(first.usd_total)}[/b] at {usd(first.usd_per_gpu_hour)}/GPU-hour ({esc(first.provider or '')})"
                if first.usd_total is not None else "no cloud price for this GPU")
        self.set_text("#training-summary",
                      f"[b]{duration(first.wall_clock_hours)}[/b] on {number(first.gpus)} × {esc(first.gpu_id)}: "
                      f"{number(first.gpu_hours, 0)} GPU-hours, {cost}\n{run}; {number(first.tokens_per_s_per_gpu, 0)} "
                      f"tokens/s per GPU at {percent(first.mfu)} MFU")

    def show_options(self, result: PlanTraining) -> None:
        table = self.query_one("#training-options", SortableTable)
        table.clear()
        totals = dollars([o.usd_total for o in result.options])  # each column with the same decimals
        rates = dollars([o.usd_per_gpu_hour for o in result.options])
        for o, total, rate in zip(result.options, totals, rates, strict=True):
            table.add_row(cell(o.gpu_id), total, duration(o.wall_clock_hours), number(o.gpus), rate, number(o.gpu_hours, 0),
                          number(o.tokens_per_s_per_gpu, 0), percent(o.mfu), gib(o.per_gpu_bytes),
                          cell(o.provider or "no cloud offer"))
