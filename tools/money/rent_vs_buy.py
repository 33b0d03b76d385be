"""rent_vs_buy: total cost of owning GPUs against renting them for the same busy hours.

own  = server + networking (paid up front) + capital charge on them - discounted residual value
       + years x (colocation + maintenance + staff) + power while busy and while idle (at PUE)
rent = rate per GPU-hour x GPUs x 8760 x years x utilization (on-demand), or x every hour (reserved: committed)
Every owning line defaults to a sourced row of catalog/data/ownership.csv for the GPU's class and can be overridden.
"""
from __future__ import annotations

import functools
import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gpusizer.catalog import Catalog, GpuSpec, load_catalog
from gpusizer.tools.alternatives import Change, with_alternatives
from gpusizer.tools.figures import usd
from gpusizer.tools.money.ownership import CostLine, Figure, busy_watts, default_figure, gpu_class, nodes, residual_share, server_price
from gpusizer.tools.money.rent_alternatives import rent_alternatives
from gpusizer.tools.money.rent_side import RentRate, on_demand_rate, reserved_rates
from gpusizer.tools.pricing import HOURS_PER_YEAR, known_providers
from gpusizer.tools.validation import NAME_LIMIT, Name, declared_by, parse_request

RentClass = Literal["auto", "datacenter", "marketplace"]


class RentVsBuyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(max_length=NAME_LIMIT, description="GPU name or alias ('h100')")
    gpu_count: int = Field(default=8, ge=1, le=1_000_000, description="GPUs bought or rented")
    purchase_usd_per_gpu: float | None = Field(default=None, gt=0, le=10_000_000, description="GPU plus its server share")
    server_share_usd_per_gpu: float | None = Field(default=None, ge=0, le=10_000_000, description="non-GPU server parts")
    networking_usd_per_gpu: float | None = Field(default=None, ge=0, le=10_000_000, description="cluster fabric per GPU")
    rent_usd_per_gpu_hour: float | None = Field(default=None, gt=0, le=10_000,
                                                description="default: the cheapest offer renting as many, none idle")
    rent_class: RentClass = Field(default="auto", description="on-demand offers to rent; auto: data-centre, else marketplace")
    providers: list[Name] | None = Field(default=None, max_length=50, description="rent only from these providers ('vast')")
    utilization: float = Field(default=0.7, ge=0, le=1, description="share of hours busy")
    years: float = Field(default=3.0, ge=0.01, le=30, description="horizon")
    electricity_usd_per_kwh: float = Field(default=0.10, ge=0, le=10, description="electricity price")
    pue: float = Field(default=1.3, ge=1, le=5, description="power usage effectiveness")
    power_watts_per_gpu: float | None = Field(default=None, gt=0, le=100_000, description="busy draw")
    idle_watts_per_gpu: float | None = Field(default=None, ge=0, le=100_000, description="idle draw")
    colocation_usd_per_kw_month: float | None = Field(default=None, ge=0, le=10_000, description="colocation")
    staff_usd_per_year: float | None = Field(default=None, ge=0, le=1e9, description="staff, all nodes")
    staff_usd_per_node_year: float | None = Field(default=None, ge=0, le=1e8, description="staff per 8-GPU node")
    maintenance_fraction_per_year: float | None = Field(default=None, ge=0, le=1, description="share of hardware")
    residual_fraction: float | None = Field(default=None, ge=0, le=1, description="resale share at the end")
    cost_of_capital: float | None = Field(default=None, ge=0, le=1, description="financing rate")


class YearRow(BaseModel):
    year: float
    own_cumulative_usd: float
    rent_cumulative_usd: float


class SweepRow(BaseModel):
    utilization: float
    own_total_usd: float
    rent_total_usd: float


class RentOption(BaseModel):
    offer_class: str = Field(description="datacenter, marketplace, reserved_1y, reserved_3y")
    usd_per_gpu_hour: float
    committed: bool = Field(description="every hour paid, busy or not")
    offer: str | None
    rent_total_usd: float
    recommendation: str
    breakeven_utilization: float | None
    source: str


class RentVsBuy(BaseModel):
    gpu_id: str
    gpu_count: int
    purchase_usd_per_gpu: float = Field(description="the card plus its server share")
    rent_usd_per_gpu_hour: float
    rent_offer: str | None = Field(default=None, description="the offer the rent rate comes from, when not given")
    rent_offer_class: str = "given"
    utilization: float = Field(description="the share of hours busy both totals are for")
    years: float = Field(description="the horizon both totals are for")
    own_total_usd: float
    rent_total_usd: float
    own_usd_per_gpu_hour: float = Field(description="per owned GPU-hour")
    recommendation: str = Field(description="'buy' or 'rent'")
    breakeven_utilization: float | None = Field(description="None: renting is cheaper even at 100% utilization")
    breakeven_gpu_hours: float | None = Field(description="busy hours per GPU over the horizon at which the costs meet")
    payback_months: float | None = Field(default=None, description="months at this utilization until the rent avoided has "
                                         "paid the purchase and the running costs (before resale); null: never")
    own_breakdown_usd: dict[str, float]
    cost_lines: list[CostLine]
    rent_options: list[RentOption] = Field(description="on-demand, then reserved")
    yearly: list[YearRow]
    utilization_sweep: list[SweepRow]
    assumptions: list[str]
    alternatives: list[Change] = Field(default=[], description="changes that flip the verdict")


def capital_recovery_factor(rate: float, years: float) -> float:
    """Yearly payment per dollar borrowed over `years` at `rate` (1/years at a zero rate)."""
    growth = (1 + rate) ** years
    if growth - 1 < 1e-12:  # a rate too small to register in floating point is a zero rate
        return 1 / years
    return float(rate * growth / (growth - 1))


@declared_by(RentVsBuyRequest, "rent_vs_buy")
def rent_vs_buy(gpu: str, *, gpu_count: int = 8, purchase_usd_per_gpu: float | None = None,
                server_share_usd_per_gpu: float | None = None, networking_usd_per_gpu: float | None = None,
                rent_usd_per_gpu_hour: float | None = None, rent_class: RentClass = "auto", providers: list[str] | None = None,
                utilization: float = 0.7, years: float = 3.0, electricity_usd_per_kwh: float = 0.10, pue: float = 1.3,
                power_watts_per_gpu: float | None = None, idle_watts_per_gpu: float | None = None,
                colocation_usd_per_kw_month: float | None = None, staff_usd_per_year: float | None = None,
                staff_usd_per_node_year: float | None = None, maintenance_fraction_per_year: float | None = None,
                residual_fraction: float | None = None, cost_of_capital: float | None = None,
                catalog: Catalog | None = None) -> RentVsBuy:
    """Owning versus renting `gpu_count` GPUs over `years` at a utilization: both totals, the recommendation,
    break-even utilization and GPU-hours, every owning line with its source, reserved rates beside on-demand, a yearly
    table and a utilization sweep. Raises SizingError on bad input."""
    arguments = {name: value for name, value in locals().items() if name != "catalog"}
    catalog = catalog or load_catalog()
    r = parse_request(RentVsBuyRequest, arguments, "rent_vs_buy")
    match = catalog.resolve_gpu(r.gpu)
    spec = match.gpu
    assumptions = [match.note] if match.note else []
    model = CostModel(r, owning_figures(catalog, spec, r))
    rates, job_note = rent_rates(catalog, spec, r)
    main = rates[0]
    own, rent_total = model.own(r.utilization), model.rent(main, r.utilization)
    hours_horizon = HOURS_PER_YEAR * r.years
    breakeven_util = model.breakeven(main)
    assumptions += [f"purchase ${model.figures['purchase'].value:,.0f} per GPU: {model.figures['purchase'].source}",
                    f"rent ${main.usd_per_gpu_hour:.2f} per GPU-hour: {main.how}", *job_note, model.power_note(),
                    f"owning lines for a {gpu_class(spec)} GPU: each from catalog/data/ownership.csv unless given (cost_lines)",
                    DISCOUNTING.format(rate=model.figures["financing"].value)]
    result = RentVsBuy(
        gpu_id=spec.gpu_id, gpu_count=r.gpu_count, purchase_usd_per_gpu=round(model.figures["purchase"].value, 2),
        rent_usd_per_gpu_hour=round(main.usd_per_gpu_hour, 4), rent_offer=main.offer, rent_offer_class=main.offer_class,
        utilization=r.utilization, years=r.years, own_total_usd=round(own, 2), rent_total_usd=round(rent_total, 2),
        own_usd_per_gpu_hour=round(own / (r.gpu_count * hours_horizon), 4),
        recommendation="buy" if own < rent_total else "rent", breakeven_utilization=breakeven_util,
        breakeven_gpu_hours=None if breakeven_util is None and model.breakeven_hours(main) is None
        else model.breakeven_hours(main),
        payback_months=None if (payback := model.payback_years(main)) is None else round(12 * payback, 1),
        own_breakdown_usd={k: round(v, 2) for k, v in model.own_parts(r.utilization).items()},
        cost_lines=model.cost_lines(), rent_options=[model.option(rate) for rate in rates],
        yearly=model.yearly(main), utilization_sweep=[SweepRow(utilization=u / 10, own_total_usd=round(model.own(u / 10), 2),
                                                               rent_total_usd=round(model.rent(main, u / 10), 2))
                                                      for u in range(1, 11)],
        assumptions=assumptions)
    return with_alternatives(result, lambda: rent_alternatives(
        {k: v for k, v in arguments.items() if v is not None}, result, functools.partial(rent_vs_buy, catalog=catalog)))


DISCOUNTING = ("discounting: the hardware is paid up front and carries a yearly capital charge at {rate:.1%} (capital "
               "recovery factor); the residual value is discounted to today; running costs and rent are summed year by year "
               "(the same, undiscounted, for both sides)")


def quoted_rent_line(result: RentVsBuy, quoted_usd_per_gpu_hour: float) -> str:
    """A rate someone else quoted, not used: what renting would cost at it, and which side would win."""
    at_quote = result.rent_total_usd / result.rent_usd_per_gpu_hour * quoted_usd_per_gpu_hour
    return (f"Not used: the quoted {usd(quoted_usd_per_gpu_hour)}/GPU-hour (hearsay, not your rate; the catalog's is used): "
            f"at it renting would cost {usd(at_quote)}, {'buy' if result.own_total_usd < at_quote else 'rent'} wins")


def owning_figures(catalog: Catalog, spec: GpuSpec, r: RentVsBuyRequest) -> dict[str, Figure]:
    """Each owning line's figure: the caller's, else the catalog's default for the GPU's class."""
    purchase, _ = server_price(catalog, spec, r.purchase_usd_per_gpu, r.server_share_usd_per_gpu)
    busy = busy_watts(catalog, spec, r.power_watts_per_gpu)
    idle_share = default_figure(catalog, "idle_draw", spec, None)
    idle = (Figure(r.idle_watts_per_gpu, "watts_per_gpu", True, "given") if r.idle_watts_per_gpu is not None
            else Figure(idle_share.value * busy.value, "watts_per_gpu", False, f"{idle_share.value:.0%} of busy: {idle_share.source}",
                        idle_share.as_of))
    staff = (Figure(r.staff_usd_per_year, "usd_per_year", True, "given") if r.staff_usd_per_year is not None else None)
    per_node = default_figure(catalog, "staff", spec, r.staff_usd_per_node_year, "usd_per_node_year")
    if staff is None:
        staff = Figure(per_node.value * nodes(r.gpu_count), "usd_per_year", per_node.given,
                       f"${per_node.value:,.0f} per 8-GPU node-year x {nodes(r.gpu_count)} node(s): {per_node.source}", per_node.as_of)
    return {"purchase": purchase, "busy_watts": busy, "idle_watts": idle, "staff": staff,
            "networking": default_figure(catalog, "networking", spec, r.networking_usd_per_gpu, "usd_per_gpu")
            if not r.purchase_usd_per_gpu or r.networking_usd_per_gpu is not None
            else Figure(0.0, "usd_per_gpu", True, "inside the given purchase"),
            "colocation": default_figure(catalog, "colocation", spec, r.colocation_usd_per_kw_month, "usd_per_kw_month"),
            "maintenance": default_figure(catalog, "maintenance", spec, r.maintenance_fraction_per_year, "fraction_per_year"),
            "financing": default_figure(catalog, "financing", spec, r.cost_of_capital, "rate_per_year"),
            "residual": default_figure(catalog, "residual", spec, r.residual_fraction, "fraction_at_horizon")}


def rent_rates(catalog: Catalog, spec: GpuSpec, r: RentVsBuyRequest) -> tuple[list[RentRate], list[str]]:
    """The on-demand rate first (given, or the class's machine of as many GPUs), then the reserved ones."""
    if r.rent_usd_per_gpu_hour:
        given = RentRate("given", r.rent_usd_per_gpu_hour, False, None, "given")
        return [given, *reserved_rates(catalog, spec, None)], []
    on_demand, job = on_demand_rate(catalog, spec, r.gpu_count, r.rent_class, known_providers(catalog, r.providers))
    reserved = reserved_rates(catalog, spec, job)
    note = [] if reserved else [f"no reserved (1- or 3-year) rate for {spec.gpu_id} in catalog/data/reserved.csv"]
    return [on_demand, *reserved], note


class CostModel:
    """own(u) = fixed + per_utilization x u; rent(u) = rate x GPU-hours x (1 if committed else u)."""

    def __init__(self, request: RentVsBuyRequest, figures: dict[str, Figure]):
        self.r, self.figures = request, figures
        gpus = request.gpu_count
        self.hardware = (figures["purchase"].value + figures["networking"].value) * gpus
        energy_per_kwh = request.pue * request.electricity_usd_per_kwh
        self.busy_energy_per_gpu_hour = figures["busy_watts"].value / 1000 * energy_per_kwh
        self.idle_energy_per_gpu_hour = figures["idle_watts"].value / 1000 * energy_per_kwh
        self.colocation_per_year = figures["colocation"].value * 12 * figures["busy_watts"].value / 1000 * gpus

    def gpu_hours(self, utilization: float, years: float | None = None) -> float:
        return HOURS_PER_YEAR * (years if years is not None else self.r.years) * utilization * self.r.gpu_count

    def own_parts(self, utilization: float, years: float | None = None) -> dict[str, float]:
        f, horizon = self.figures, self.r.years
        years = horizon if years is None else years
        rate = f["financing"].value
        charge = (capital_recovery_factor(rate, horizon) * horizon - 1) * self.hardware
        residual = residual_share(f["residual"], horizon) * self.hardware / (1 + rate) ** horizon
        power = (self.busy_energy_per_gpu_hour * self.gpu_hours(utilization, years)
                 + self.idle_energy_per_gpu_hour * self.gpu_hours(1 - utilization, years))
        return {"purchase": f["purchase"].value * self.r.gpu_count, "networking": f["networking"].value * self.r.gpu_count,
                "colocation": years * self.colocation_per_year, "power": power,
                "maintenance": years * f["maintenance"].value * self.hardware, "staff": years * f["staff"].value,
                "capital_charge": charge * years / horizon, "residual_value": -residual if years >= horizon else 0.0}

    def own(self, utilization: float, years: float | None = None) -> float:
        return sum(self.own_parts(utilization, years).values())

    def rent(self, rate: RentRate, utilization: float, years: float | None = None) -> float:
        return rate.usd_per_gpu_hour * self.gpu_hours(1.0 if rate.committed else utilization, years)

    def breakeven(self, rate: RentRate) -> float | None:
        """The utilization in 0-1 where own(u) = rent(u), both straight lines in u; None where they do not meet there."""
        fixed, slope = self.own(0.0), self.own(1.0) - self.own(0.0)
        rent_fixed, rent_slope = self.rent(rate, 0.0), self.rent(rate, 1.0) - self.rent(rate, 0.0)
        if math.isclose(slope, rent_slope):
            return None
        crossing = (fixed - rent_fixed) / (rent_slope - slope)
        return crossing if 0 <= crossing <= 1 else None

    def breakeven_hours(self, rate: RentRate) -> float | None:
        """Busy hours per GPU where an on-demand rate meets owning (may lie past the horizon); None where it never does."""
        if rate.committed:
            share = self.breakeven(rate)
            return None if share is None else share * HOURS_PER_YEAR * self.r.years
        margin = rate.usd_per_gpu_hour - (self.busy_energy_per_gpu_hour - self.idle_energy_per_gpu_hour)
        return None if margin <= 0 else self.own(0.0) / (self.r.gpu_count * margin)

    def payback_years(self, rate: RentRate) -> float | None:
        """'Pays for itself in 6 months': the time at the asked utilization when the rent avoided has covered the money
        paid up front and the running costs since (resale left out); None where a month of rent costs no more than a
        month of owning. Both grow linearly with time within the horizon."""
        u, t = self.r.utilization, min(1.0, self.r.years) / 2
        upfront = self.own(u, 0.0)
        margin = (self.rent(rate, u, t) - (self.own(u, t) - upfront)) / t
        return upfront / margin if margin > 0 else None

    def option(self, rate: RentRate) -> RentOption:
        own, rent = self.own(self.r.utilization), self.rent(rate, self.r.utilization)
        return RentOption(offer_class=rate.offer_class, usd_per_gpu_hour=round(rate.usd_per_gpu_hour, 4), committed=rate.committed,
                          offer=rate.offer, rent_total_usd=round(rent, 2), recommendation="buy" if own < rent else "rent",
                          breakeven_utilization=self.breakeven(rate), source=rate.how)

    def cost_lines(self) -> list[CostLine]:
        parts = self.own_parts(self.r.utilization)
        wanted = [("purchase", "purchase"), ("networking", "networking"), ("colocation", "colocation"),
                  ("busy_watts", "power"), ("idle_watts", None), ("maintenance", "maintenance"), ("staff", "staff"),
                  ("financing", "capital_charge"), ("residual", "residual_value")]
        return [CostLine(line=name, value=round(f.value, 4), unit=f.unit, total_usd=round(parts[part], 2) if part else 0.0,
                         given=f.given, source=f.source, as_of=f.as_of)
                for name, part in wanted for f in [self.figures[name]]]

    def power_note(self) -> str:
        busy, idle = self.figures["busy_watts"], self.figures["idle_watts"]
        return (f"power per GPU: {busy.value:.0f} W busy ({busy.source}), {idle.value:.0f} W idle; electricity "
                f"${self.r.electricity_usd_per_kwh}/kWh at PUE {self.r.pue}")

    def yearly(self, rate: RentRate) -> list[YearRow]:
        marks = [float(y) for y in range(1, math.ceil(self.r.years))] + [self.r.years]
        return [YearRow(year=y, own_cumulative_usd=round(self.own(self.r.utilization, y), 2),
                        rent_cumulative_usd=round(self.rent(rate, self.r.utilization, y), 2)) for y in marks]
