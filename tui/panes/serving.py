"""Serving: how many GPUs of which type serve a model to N users or R requests/s, at what speed and cost."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from gpusizer.tools.figures import number, usd
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.serving import ServingPlan, plan_serving
from gpusizer.tools.serving.plan_models import PlanServingRequest

from ..form_input import FormInput
from ..safe_text import cell, esc
from ..suggest import CatalogSuggester
from ..text_table import dollars
from .base import FormError, ToolPane, default_text, field, pair, tool_choice
from .sortable import SortableTable

HEADERS = ("GPU", "$/month", "GPUs", "replicas x TP", "users/replica", "tok/s/user", "TTFT s", "$/M tokens", "limited by",
           "KV max", "offer")  # what decides first, so it reads at 80 columns


class ServingPane(ToolPane[ServingPlan]):
    TITLE = "gpusizer serving plan"

    def form(self) -> ComposeResult:
        yield from field("Model (HF id or alias)", FormInput("meta-llama/Llama-3.1-8B-Instruct", id="model",
                                                       suggester=CatalogSuggester(self.catalog, "model")))
        yield pair(("Engine", tool_choice(PlanServingRequest, "engine")),
                   ("Weights", tool_choice(VramRequest, "weights_dtype")))
        yield pair(("Concurrent users", FormInput("100", id="concurrent_users")),
                   ("…or requests/s", FormInput(placeholder="e.g. 5", id="requests_per_s")))
        yield pair(("Prompt tokens", FormInput(default_text(PlanServingRequest, "prompt_tokens"), id="prompt_tokens")),
                   ("Output tokens", FormInput(default_text(PlanServingRequest, "output_tokens"), id="output_tokens")))
        yield pair(("Min tok/s/user", FormInput(placeholder="none", id="tokens_per_s_per_user")),
                   ("Max TTFT s", FormInput(placeholder="none", id="ttft_s")))
        yield pair(("Pricing", tool_choice(PlanServingRequest, "pricing")),
                   ("Jurisdiction", FormInput(placeholder="any, e.g. EU", id="jurisdiction")))
        yield from field("Only this GPU", FormInput(placeholder="all GPUs, or e.g. h100", id="gpu",
                                           suggester=CatalogSuggester(self.catalog, "gpu")))

    def results(self) -> ComposeResult:
        yield Static("", id="serving-summary", classes="headline")
        yield SortableTable(id="serving-options")
        yield Static("", id="serving-infeasible", classes="notes")
        yield Static("", id="serving-assumptions", classes="notes")

    def on_mount(self) -> None:
        self.query_one("#serving-options", DataTable).add_columns(*HEADERS)
        super().on_mount()

    def arguments(self) -> dict[str, Any]:
        users, rate = self.whole("concurrent_users"), self.decimal("requests_per_s")
        if users is not None and rate is not None:
            raise FormError("requests_per_s", "give concurrent users or requests/s, not both: clear one", also=("concurrent_users",))
        return self.given(model=self.text("model") or "", engine=self.selected("engine"),
                          weights_dtype=self.selected("weights_dtype"), concurrent_users=users, requests_per_s=rate,
                          prompt_tokens=self.whole("prompt_tokens"), output_tokens=self.whole("output_tokens"),
                          tokens_per_s_per_user=self.decimal("tokens_per_s_per_user"), ttft_s=self.decimal("ttft_s"),
                          pricing=self.selected("pricing"), jurisdiction=self.text("jurisdiction"), gpu=self.text("gpu"))

    def compute(self, arguments: dict[str, Any]) -> ServingPlan:
        return plan_serving(catalog=self.catalog, **arguments)

    def show(self, result: ServingPlan) -> None:
        table = self.query_one("#serving-options", SortableTable)
        table.clear()
        monthly = dollars([o.usd_per_month for o in result.options])  # each column with the same decimals
        per_million = dollars([o.usd_per_million_output_tokens for o in result.options])
        for o, month, million in zip(result.options, monthly, per_million, strict=True):
            offer = f"{o.offer.provider} {o.offer.instance_type}" if o.offer else "no cloud offer"
            table.add_row(cell(o.gpu_id), month, number(o.total_gpus), f"{o.replicas} x {o.tensor_parallel}",
                          number(o.concurrency_per_replica), number(o.tokens_per_s_per_user, 1), number(o.ttft_s, 2),
                          million, o.limited_by.replace("_", " "),
                          number(o.max_concurrency_per_replica), cell(offer))
        infeasible = [f"• {esc(i.gpu_id)}: {esc(i.reason)}" for i in result.infeasible]
        self.set_text("#serving-infeasible", ("[b]Cannot serve it[/b]\n" + "\n".join(infeasible)) if infeasible else "")
        notes = [*(f"[yellow]! {esc(w)}[/yellow]" for w in result.warnings), *(f"• {esc(a)}" for a in result.assumptions)]
        self.set_text("#serving-assumptions", "\n".join(notes))
        if not result.options:
            self.set_text("#serving-summary", f"No GPU serves {esc(result.model)} this way (reasons below).")
            return
        best = result.options[0]
        cost = (f"{usd(best.usd_per_month)}/month ({usd(best.usd_per_hour)}/h, {usd(best.usd_per_million_output_tokens)} per "
                f"million output tokens)") if best.usd_per_hour is not None else "no cloud price in the catalog"
        self.set_text("#serving-summary",
                      f"[b]{number(best.total_gpus)} × {esc(best.gpu_id)}[/b] ({best.replicas} replica"
                      f"{'s' if best.replicas > 1 else ''} of {best.gpus_per_replica}) with {esc(result.engine)}: {cost}; "
                      f"{number(best.tokens_per_s_per_user, 1)} tokens/s per user, first token in {number(best.ttft_s, 2)} s")
