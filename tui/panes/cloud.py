"""Cloud cost: every offer that can run N GPUs for H hours, on-demand and spot, cheapest first."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from gpusizer.tools.figures import number, usd
from gpusizer.tools.money import CloudCost, cloud_cost
from gpusizer.tools.money.cloud_cost import CloudCostRequest

from ..form_input import FormInput
from ..safe_text import cell, esc
from ..suggest import CatalogSuggester
from ..text_table import dollars
from ..tick_box import TickBox
from .base import ToolPane, field, number_field, tool_choice
from .sortable import SortableTable

HEADERS = ("provider", "pricing", "total", "all-in", "$/GPU-h", "instances", "idle GPUs", "instance", "$/h (instance)", "billed h",
           "region", "as of")  # what decides first, so it reads at 80 columns


class CloudPane(ToolPane[CloudCost]):
    TITLE = "gpusizer cloud cost"

    def form(self) -> ComposeResult:
        yield from field("GPU", FormInput("h100-sxm", id="gpu", suggester=CatalogSuggester(self.catalog, "gpu")))
        yield from field("GPUs needed", FormInput("8", id="gpu_count"))
        yield from field("Hours (wall-clock)", FormInput("24", id="hours"))
        yield from field("Pricing", tool_choice(CloudCostRequest, "pricing"))
        yield from field("Providers (comma-separated)", FormInput(placeholder="all, or e.g. aws, lambda", id="providers"))
        yield from field("Region contains", FormInput(placeholder="e.g. us-east", id="region"))
        yield TickBox("All GPUs in one machine", id="single_instance", compact=True)
        yield from number_field("Spot interruptions / hour", CloudCostRequest, "spot_interruptions_per_hour")
        yield from number_field("Storage GB-months", CloudCostRequest, "storage_gb_months")
        yield from number_field("Egress GB", CloudCostRequest, "egress_gb")

    def results(self) -> ComposeResult:
        yield Static("", id="cloud-summary", classes="headline")
        yield SortableTable(id="offers")
        yield Static("", id="cloud-notes", classes="notes")

    def on_mount(self) -> None:
        self.query_one("#offers", DataTable).add_columns(*HEADERS)
        super().on_mount()

    def arguments(self) -> dict[str, Any]:
        providers = [p.strip() for p in (self.text("providers") or "").split(",") if p.strip()] or None
        return self.given(gpu=self.text("gpu") or "", gpu_count=self.whole("gpu_count"), hours=self.decimal("hours"),
                          pricing=self.selected("pricing"), providers=providers, region=self.text("region"),
                          single_instance=self.ticked("single_instance") or None,  # unticked: the tool's rule
                          spot_interruptions_per_hour=self.decimal("spot_interruptions_per_hour"),
                          storage_gb_months=self.decimal("storage_gb_months"), egress_gb=self.decimal("egress_gb"))

    def compute(self, arguments: dict[str, Any]) -> CloudCost:
        return cloud_cost(catalog=self.catalog, **arguments)

    def show(self, result: CloudCost) -> None:
        table = self.query_one("#offers", SortableTable)
        table.clear()
        offers = result.offers
        prices = zip(*(dollars([getattr(o, name) for o in offers])  # each column with the same decimals
                       for name in ("total_usd", "all_in_usd", "usd_per_gpu_hour", "usd_per_hour")), strict=True)
        for offer, (total, all_in, per_gpu_hour, per_hour) in zip(offers, prices, strict=True):
            idle = number(offer.idle_gpus)
            table.add_row(cell(offer.provider), offer.pricing.replace("_", "-"), total, all_in, per_gpu_hour,
                          number(offer.instances), f"[yellow]{idle}[/yellow]" if offer.idle_gpus else idle,
                          cell(offer.instance_type), per_hour, number(offer.billed_hours), cell(offer.region),
                          cell(offer.as_of + (" (stale)" if offer.stale else "")))
        self.query_one("#cloud-notes", Static).update("\n".join(f"• {esc(n)}" for n in result.notes))
        if not result.offers:
            self.query_one("#cloud-summary", Static).update(
                f"No offer for {number(result.gpu_count)} × {esc(result.gpu_id)} with these filters (see the notes below).")
            return
        best = result.offers[0]
        self.query_one("#cloud-summary", Static).update(
            f"Cheapest: [b]{usd(best.total_usd)}[/b] on {esc(best.provider)} {esc(best.instance_type)} "
            f"({best.pricing.replace('_', '-')}) for {number(result.gpu_count)} × {esc(result.gpu_id)}, {number(result.hours)} h"
            f" · {len(result.offers)} offers")
