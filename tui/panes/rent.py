"""Rent vs buy: the inputs with their defaults, cumulative cost over the years, the utilization sweep, the verdict."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static
from textual_plotext import PlotextPlot

from gpusizer.tools.figures import number, percent, usd
from gpusizer.tools.money import RentVsBuy, rent_vs_buy
from gpusizer.tools.money.rent_vs_buy import RentVsBuyRequest

from ..charts import money, nice_ticks
from ..form_input import FormInput
from ..safe_text import esc
from ..suggest import CatalogSuggester
from .base import ToolPane, default_text, field, number_field


class RentPane(ToolPane[RentVsBuy]):
    TITLE = "gpusizer rent vs buy"

    def form(self) -> ComposeResult:
        yield from field("GPU", FormInput("h100-sxm", id="gpu", suggester=CatalogSuggester(self.catalog, "gpu")))
        yield from field("GPU count", FormInput(default_text(RentVsBuyRequest, "gpu_count"), id="gpu_count"))
        yield from field("Purchase $/GPU", FormInput(placeholder="catalog price", id="purchase_usd_per_gpu"))
        yield from field("Rent $/GPU-h", FormInput(placeholder="cheapest on-demand", id="rent_usd_per_gpu_hour"))
        yield from number_field("Utilization 0-1", RentVsBuyRequest, "utilization")
        yield from number_field("Years", RentVsBuyRequest, "years")
        yield from number_field("Electricity $/kWh", RentVsBuyRequest, "electricity_usd_per_kwh")
        yield from number_field("PUE", RentVsBuyRequest, "pue")
        yield from field("Staff $/year", FormInput(placeholder="sourced default", id="staff_usd_per_year"))
        yield from field("Maintenance share/year", FormInput(placeholder="sourced default", id="maintenance_fraction_per_year"))
        yield from field("Residual share", FormInput(placeholder="sourced default", id="residual_fraction"))
        yield from field("Cost of capital/year", FormInput(placeholder="sourced default", id="cost_of_capital"))

    def results(self) -> ComposeResult:
        yield Static("", id="verdict", classes="headline")
        yield PlotextPlot(id="cumulative-chart")
        yield PlotextPlot(id="sweep-chart")
        yield Static("", id="rent-assumptions", classes="notes")

    NUMBERS = ("purchase_usd_per_gpu", "rent_usd_per_gpu_hour", "utilization", "years", "electricity_usd_per_kwh", "pue",
               "staff_usd_per_year", "maintenance_fraction_per_year", "residual_fraction", "cost_of_capital")

    def arguments(self) -> dict[str, Any]:
        return self.given(gpu=self.text("gpu") or "", gpu_count=self.whole("gpu_count"),
                          **{name: self.decimal(name) for name in self.NUMBERS})

    def compute(self, arguments: dict[str, Any]) -> RentVsBuy:
        return rent_vs_buy(catalog=self.catalog, **arguments)

    def show(self, result: RentVsBuy) -> None:
        cheaper = "Buying" if result.recommendation == "buy" else "Renting"
        if result.breakeven_utilization is None:
            breakeven = "renting stays cheaper even at 100% utilization"
        else:
            breakeven = (f"break-even at {percent(result.breakeven_utilization)} utilization "
                         f"({number(result.breakeven_gpu_hours, 0)} busy hours per GPU)")
        self.query_one("#verdict", Static).update(
            f"[b]{cheaper} is cheaper[/b] for {result.gpu_count} × {esc(result.gpu_id)}: own {usd(result.own_total_usd)} vs rent "
            f"{usd(result.rent_total_usd)}; {breakeven}")
        years = [r.year for r in result.yearly]
        self.plot("#cumulative-chart", "Cumulative cost by year", years, [r.own_cumulative_usd for r in result.yearly],
                  [r.rent_cumulative_usd for r in result.yearly], [f"year {number(y)}" for y in years])
        sweep = result.utilization_sweep
        shares = [r.utilization for r in sweep]
        share_ticks = nice_ticks(min(shares), max(shares)) if shares else []
        self.plot("#sweep-chart", "Total over the horizon by utilization", shares, [r.own_total_usd for r in sweep],
                  [r.rent_total_usd for r in sweep], [percent(t) for t in share_ticks], share_ticks)
        self.query_one("#rent-assumptions", Static).update("\n".join(f"• {esc(a)}" for a in result.assumptions))

    def plot(self, selector: str, title: str, x: list[float], own: list[float], rent: list[float], x_labels: list[str],
             x_ticks: list[float] | None = None) -> None:
        """Both lines, the y axis in dollars as people read them ($335K, $1.2M), the x axis labelled with its unit."""
        widget = self.query_one(selector, PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.title(title)
        plt.plot(x, own, label="own", marker="braille")
        plt.plot(x, rent, label="rent", marker="braille")
        values = [v for v in (*own, *rent) if v is not None]
        y_ticks = nice_ticks(min(values), max(values)) if values else []
        plt.yticks(y_ticks, [money(t) for t in y_ticks])
        plt.xticks(x if x_ticks is None else x_ticks, x_labels)
        widget.refresh()
