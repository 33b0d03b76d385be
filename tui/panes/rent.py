"""Rent vs buy: the inputs with their defaults, cumulative cost over the years, the utilization sweep, the verdict."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static
from textual_plotext import PlotextPlot

from gpusizer.tools import rent_vs_buy
from gpusizer.tools.rent_vs_buy import RentVsBuyRequest

from ..form_input import FormInput
from ..format import number, percent, usd
from ..suggest import CatalogSuggester
from .base import ToolPane, default_text, field


class RentPane(ToolPane):
    TITLE = "gpusizer rent vs buy"

    def form(self) -> ComposeResult:
        yield from field("GPU", FormInput("h100-sxm", id="gpu", suggester=CatalogSuggester(self.catalog, "gpu")))
        yield from field("GPU count", FormInput(default_text(RentVsBuyRequest, "gpu_count"), id="gpu_count", type="integer"))
        yield from field("Purchase $/GPU", FormInput(placeholder="catalog price", id="purchase_usd_per_gpu", type="number"))
        yield from field("Rent $/GPU-h", FormInput(placeholder="cheapest on-demand", id="rent_usd_per_gpu_hour", type="number"))
        yield from field("Utilization 0-1", FormInput(default_text(RentVsBuyRequest, "utilization"), id="utilization", type="number"))
        yield from field("Years", FormInput(default_text(RentVsBuyRequest, "years"), id="years", type="number"))
        yield from field("Electricity $/kWh", FormInput(default_text(RentVsBuyRequest, "electricity_usd_per_kwh"), id="electricity_usd_per_kwh", type="number"))
        yield from field("PUE", FormInput(default_text(RentVsBuyRequest, "pue"), id="pue", type="number"))
        yield from field("Staff $/year", FormInput(default_text(RentVsBuyRequest, "staff_usd_per_year"), id="staff_usd_per_year", type="number"))
        yield from field("Maintenance share/year", FormInput(default_text(RentVsBuyRequest, "maintenance_fraction_per_year"), id="maintenance_fraction_per_year", type="number"))
        yield from field("Residual share", FormInput(default_text(RentVsBuyRequest, "residual_fraction"), id="residual_fraction", type="number"))
        yield from field("Cost of capital/year", FormInput(default_text(RentVsBuyRequest, "cost_of_capital"), id="cost_of_capital", type="number"))

    def results(self) -> ComposeResult:
        yield Static("", id="verdict", classes="headline")
        yield PlotextPlot(id="cumulative-chart")
        yield PlotextPlot(id="sweep-chart")
        yield Static("", id="rent-assumptions", classes="notes")

    NUMBERS = ("purchase_usd_per_gpu", "rent_usd_per_gpu_hour", "utilization", "years", "electricity_usd_per_kwh", "pue",
               "staff_usd_per_year", "maintenance_fraction_per_year", "residual_fraction", "cost_of_capital")

    def arguments(self) -> dict:
        return self.given(gpu=self.text("gpu") or "", gpu_count=self.whole("gpu_count"),
                          **{name: self.decimal(name) for name in self.NUMBERS})

    def compute(self, arguments: dict):
        return rent_vs_buy(self.catalog, **arguments)

    def show(self, result) -> None:
        cheaper = "Buying" if result.recommendation == "buy" else "Renting"
        if result.breakeven_utilization is None:
            breakeven = "renting stays cheaper even at 100% utilization"
        else:
            breakeven = (f"break-even at {percent(result.breakeven_utilization)} utilization "
                         f"({number(result.breakeven_gpu_hours, 0)} busy hours per GPU)")
        self.query_one("#verdict", Static).update(
            f"[b]{cheaper} is cheaper[/b] for {result.gpu_count} × {result.gpu_id}: own {usd(result.own_total_usd)} vs rent "
            f"{usd(result.rent_total_usd)}; {breakeven}")
        self.plot("#cumulative-chart", "Cumulative cost (USD) by year", [r.year for r in result.yearly],
                  [r.own_cumulative_usd for r in result.yearly], [r.rent_cumulative_usd for r in result.yearly])
        sweep = result.utilization_sweep
        self.plot("#sweep-chart", "Total over the horizon (USD) by utilization", [r.utilization for r in sweep],
                  [r.own_total_usd for r in sweep], [r.rent_total_usd for r in sweep])
        self.query_one("#rent-assumptions", Static).update("\n".join(f"• {a}" for a in result.assumptions))

    def plot(self, selector: str, title: str, x: list[float], own: list[float], rent: list[float]) -> None:
        widget = self.query_one(selector, PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.title(title)
        plt.plot(x, own, label="own", marker="braille")
        plt.plot(x, rent, label="rent", marker="braille")
        widget.refresh()
