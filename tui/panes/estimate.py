"""Estimate: peak memory for a model and workload, where it fits, and the largest batch / context on a GPU."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Checkbox, Label, Static

from gpusizer.tools import GpuCheck, GpuFit, VramEstimate, estimate_vram
from gpusizer.tools.figures import gib, number
from gpusizer.tools.memory import Alternative
from gpusizer.tools.memory.answer import cheapest_first
from gpusizer.tools.memory.request import QLORA_BASE_DTYPE, VramRequest
from gpusizer.tools.pricing import cheapest_fits

from ..charts import stacked_bar
from ..choice import Choice
from ..form_input import FormInput
from ..safe_text import esc
from ..suggest import CatalogSuggester
from ..text_table import dollars, text_table
from ..tick_box import TickBox
from .base import ToolPane, default_text, field, pair, tool_choice
from .form_parts import model_fields

FITS_SHOWN = 8  # rows of the fits list before it collapses (ctrl+l lists all)


class EstimatePane(ToolPane[VramEstimate]):
    TITLE = "gpusizer estimate"
    BINDINGS = [Binding("f8", "apply_hint", "Apply hint", show=False),  # the hint line names its key; f10 lists both
                Binding("ctrl+l", "all_fits", "All fits", show=False)]
    _weights_before_qlora: str | None = None
    all_fits = False
    hints: list[Alternative] = []
    checkpointing_chosen = False  # until the box is ticked or cleared by hand, the recipe decides (QLoRA: on)
    _showing_recipe_default = False

    def form(self) -> ComposeResult:
        yield from model_fields(self.catalog, "meta-llama/Llama-3.1-8B")
        yield pair(("Workload", tool_choice(VramRequest, "workload")),
                   ("Method", tool_choice(VramRequest, "method")))
        yield pair(("Weights", tool_choice(VramRequest, "weights_dtype")),
                   ("Precision", tool_choice(VramRequest, "training_precision")))
        yield pair(("Optimizer", tool_choice(VramRequest, "optimizer")),
                   ("Sharding", tool_choice(VramRequest, "sharding")))
        yield pair(("Recipe", tool_choice(VramRequest, "recipe")),
                   ("Engine", tool_choice(VramRequest, "engine")))
        yield pair(("Batch", FormInput(default_text(VramRequest, "batch_size"), id="batch_size")),
                   ("Seq len", FormInput(default_text(VramRequest, "seq_len"), id="seq_len")))
        yield pair(("GPUs", FormInput(default_text(VramRequest, "num_gpus"), id="num_gpus")),
                   ("Tensor par.", FormInput(default_text(VramRequest, "tensor_parallel"), id="tensor_parallel")))
        yield from field("LoRA rank", FormInput(default_text(VramRequest, "lora_rank"), id="lora_rank"))
        yield TickBox("Gradient checkpointing", id="gradient_checkpointing", compact=True)
        yield from field("Check on GPU", FormInput(placeholder="e.g. rtx 4090, h100", id="gpu",
                                          suggester=CatalogSuggester(self.catalog, "gpu")))

    def on_mount(self) -> None:
        self.watch(self.query_one("#method", Choice), "value", self.weights_follow_method, init=False)
        self.watch(self.query_one("#gradient_checkpointing", Checkbox), "value", self.checkpointing_changed, init=False)
        super().on_mount()

    def checkpointing_changed(self, value: bool) -> None:
        if not self._showing_recipe_default:  # a person ticked or cleared it: that choice is sent from now on
            self.checkpointing_chosen = True

    def show_recipe_checkpointing(self, result: VramEstimate) -> None:
        """The box shows what the recipe did while nobody chose (peft's QLoRA preparation turns it on)."""
        box = self.query_one("#gradient_checkpointing", Checkbox)
        used = bool(result.training and result.training.gradient_checkpointing)
        if not self.checkpointing_chosen and box.value != used:
            self._showing_recipe_default = True
            box.value = used
            self.call_after_refresh(setattr, self, "_showing_recipe_default", False)

    def weights_follow_method(self, method: str) -> None:
        """QLoRA stores the frozen base in NF4 whatever else is chosen: the Weights choice shows it and waits."""
        weights = self.query_one("#weights_dtype", Choice)
        if method == "qlora" and not weights.disabled:
            self._weights_before_qlora = weights.value
            weights.value, weights.disabled = QLORA_BASE_DTYPE, True
        elif method != "qlora" and weights.disabled:
            weights.disabled = False
            weights.value = self._weights_before_qlora or weights.value

    def results(self) -> ComposeResult:
        """The verdict, hints and warnings first; then the breakdown; the long lists last, the fits collapsed."""
        yield Static("", id="total", classes="headline")
        yield Static("", id="gpu-check")
        yield Static("", id="hints", classes="hints")
        yield Static("", id="warnings", classes="warnings")
        yield Static("", id="breakdown-bar")
        yield Static("", id="breakdown")
        yield Label("Fits on (cheapest first)", classes="section")
        yield Static("", id="fits")
        yield Label("Assumptions", classes="section")
        yield Static("", id="assumptions", classes="notes")

    def arguments(self) -> dict[str, Any]:
        subject = self.model_or_size()
        return self.given(**subject, workload=self.selected("workload"), method=self.selected("method"),
                          weights_dtype=self.selected("weights_dtype"), training_precision=self.selected("training_precision"),
                          optimizer=self.selected("optimizer"), sharding=self.selected("sharding"),
                          recipe=self.selected("recipe"), engine=self.selected("engine"),
                          batch_size=self.whole("batch_size"), seq_len=self.whole("seq_len"), num_gpus=self.whole("num_gpus"),
                          tensor_parallel=self.whole("tensor_parallel"), lora_rank=self.whole("lora_rank"),
                          gradient_checkpointing=self.ticked("gradient_checkpointing") if self.checkpointing_chosen else None,
                          gpu=self.text("gpu"))

    def compute(self, arguments: dict[str, Any]) -> VramEstimate:
        return estimate_vram(catalog=self.catalog, **arguments)

    def show(self, result: VramEstimate) -> None:
        parts = result.breakdown.model_dump()
        self.set_text("#total",
            f"[b]{gib(result.total_bytes)}[/b] per GPU  ·  {esc(result.model)}  ·  {result.workload}"
            f"{'' if result.workload == 'inference' else ' (' + result.method + ')'}  ·  peak: {esc(result.peak_phase)}")
        self.set_text("#breakdown-bar", stacked_bar(parts))
        self.set_text("#breakdown",
            "  ".join(f"{name.replace('_', ' ')} {gib(value)}" for name, value in parts.items() if value)
            + f"\nparams {number(result.params)} · trainable {number(result.trainable_params)}")
        self.set_text("#gpu-check", self.check_text(result.gpu_check))
        self.show_recipe_checkpointing(result)
        self.hints = result.alternatives
        self.set_text("#hints", "\n".join(
            f"[b]{'f8' if n == 0 and self.applicable(h) else '  '}[/b] {esc(h.text)}" for n, h in enumerate(self.hints)))
        self.query_one("#hints").display = bool(self.hints)  # no blank lines between the verdict and the rest
        self.query_one("#warnings").display = bool(result.warnings)
        self.show_fits(result.fits)
        self.set_text("#assumptions", "\n".join(f"• {esc(a)}" for a in result.assumptions))
        self.set_text("#warnings", "\n".join(f"⚠ {esc(w)}" for w in result.warnings))

    @staticmethod
    def check_text(check: GpuCheck | None) -> str:
        if check is None:
            return "[dim]Name a GPU to see the largest batch and longest sequence that fit.[/dim]"
        verdict = "[green]fits[/green]" if check.fits else "[red]does not fit[/red]"
        if not check.fits:
            verdict += f": needs {check.gpus_needed} ({esc(check.split or '')})" if check.gpus_needed else ": not even on 64"
        return (f"On {esc(check.name)}: {verdict} ({gib(check.per_gpu_bytes)} of {gib(check.usable_bytes)} usable)\n"
                f"largest batch at this length: {number(check.max_batch_size)} · "
                f"longest sequence at this batch: {number(check.max_seq_len)} tokens")

    def applicable(self, hint: Alternative) -> bool:
        """Whether the form has a field for every argument the change sets (f8 can make it)."""
        return all(value is None or self.query(f"#{name}") for name, value in hint.arguments.items())

    def action_apply_hint(self) -> None:
        """f8: the first alternative's changes, made in the form (the estimate follows as for any edit)."""
        if not self.hints or not self.applicable(self.hints[0]):
            return
        for name, value in self.hints[0].arguments.items():
            if value is None:
                continue
            widget = self.query(f"#{name}").first() if self.query(f"#{name}") else None
            if isinstance(widget, Checkbox):
                widget.value = bool(value)
            elif isinstance(widget, Choice):
                widget.value = str(value)
            elif widget is not None:
                widget.value = str(value)  # type: ignore[attr-defined]

    def action_all_fits(self) -> None:
        self.all_fits = not self.all_fits
        if self.result is not None:
            self.show_fits(self.result.fits)

    def show_fits(self, fits: list[GpuFit]) -> None:
        """GPU, how many, and what they cost per hour, ranked as the tool's answer ranks them (where the job's software
        runs, then priced, cheapest first); the first rows, and the rest one key away."""
        fits = cheapest_first(fits)
        costs = {cost.gpu_id: cost for cost in cheapest_fits(self.catalog, fits)}
        shown = fits if self.all_fits else fits[:FITS_SHOWN]
        # one column, the same decimals, whether collapsed or not
        per_gpu_hour = dollars([costs[fit.gpu_id].usd_per_gpu_hour for fit in fits])
        per_hour = dollars([costs[fit.gpu_id].usd_per_hour for fit in fits])
        rows = [[fit.gpu_id, str(fit.gpus_needed), gpu_hour, hour]
                for fit, gpu_hour, hour in zip(shown, per_gpu_hour, per_hour, strict=False)]
        table = text_table(["GPU", "GPUs", "$/GPU-h", "$/h"], rows, right=frozenset({1, 2, 3}), widest={0: 16})
        hidden = len(fits) - len(shown)
        more = Content.from_markup(f"\n[dim]… {hidden} more: ctrl+l lists them[/dim]") if hidden else Content("")
        self.set_text("#fits", table + more)
