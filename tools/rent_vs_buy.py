"""rent_vs_buy: total cost of owning GPUs against renting them for the same busy hours.

own  = purchase + years x (staff + maintenance x purchase) + energy while busy + capital charge - discounted residual
rent = rent per GPU-hour x GPUs x 8760 x years x utilization
"""
from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field

from gpusizer.catalog import Catalog, SizingError, load_catalog

from .pricing import cheapest
from .validation import NAME_LIMIT, known_arguments_only, parse_request

HOURS_PER_YEAR = 8760
# A DGX H100 draws up to 10.2 kW for 8 x 700 W GPUs: the host (CPUs, memory, NICs, fans) adds ~0.8 W per GPU watt.
HOST_WATTS_PER_GPU_WATT = (10_200 - 8 * 700) / (8 * 700)


class RentVsBuyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(max_length=NAME_LIMIT, description="GPU name or alias ('h100')")
    gpu_count: int = Field(default=8, ge=1, le=1_000_000, description="GPUs bought or rented")
    purchase_usd_per_gpu: float | None = Field(default=None, gt=0, le=10_000_000,
                                               description="GPU plus its share of server and network (default: catalog)")
    rent_usd_per_gpu_hour: float | None = Field(default=None, gt=0, le=10_000, description="default: cheapest on-demand offer")
    utilization: float = Field(default=0.7, ge=0, le=1, description="share of hours busy")
    years: float = Field(default=3.0, ge=0.01, le=30, description="horizon")
    electricity_usd_per_kwh: float = Field(default=0.10, ge=0, le=10, description="electricity price")
    pue: float = Field(default=1.3, ge=1, le=5, description="power usage effectiveness")
    power_watts_per_gpu: float | None = Field(default=None, gt=0, le=100_000, description="default: TDP plus host share")
    staff_usd_per_year: float = Field(default=0.0, ge=0, le=1e9, description="operations staff per year")
    maintenance_fraction_per_year: float = Field(default=0.0, ge=0, le=1, description="yearly maintenance, share of purchase")
    residual_fraction: float = Field(default=0.0, ge=0, le=1, description="resale value, share of purchase")
    cost_of_capital: float = Field(default=0.0, ge=0, le=1, description="yearly cost of capital (0.08)")


class YearRow(BaseModel):
    year: float
    own_cumulative_usd: float
    rent_cumulative_usd: float


class SweepRow(BaseModel):
    utilization: float
    own_total_usd: float
    rent_total_usd: float


class RentVsBuy(BaseModel):
    gpu_id: str
    gpu_count: int
    own_total_usd: float
    rent_total_usd: float
    recommendation: str = Field(description="'buy' or 'rent'")
    breakeven_utilization: float | None = Field(description="None: renting is cheaper even at 100% utilization")
    breakeven_gpu_hours: float | None = Field(description="busy hours per GPU over the horizon at which the costs meet")
    own_breakdown_usd: dict[str, float]
    yearly: list[YearRow]
    utilization_sweep: list[SweepRow]
    assumptions: list[str]


def capital_recovery_factor(rate: float, years: float) -> float:
    """Yearly payment per dollar borrowed over `years` at `rate` (1/years at a zero rate)."""
    growth = (1 + rate) ** years
    if growth - 1 < 1e-12:  # a rate too small to register in floating point is a zero rate
        return 1 / years
    return rate * growth / (growth - 1)


@known_arguments_only("rent_vs_buy")
def rent_vs_buy(gpu: str, *, gpu_count: int = 8, purchase_usd_per_gpu: float | None = None,
                rent_usd_per_gpu_hour: float | None = None, utilization: float = 0.7, years: float = 3.0,
                electricity_usd_per_kwh: float = 0.10, pue: float = 1.3, power_watts_per_gpu: float | None = None,
                staff_usd_per_year: float = 0.0, maintenance_fraction_per_year: float = 0.0, residual_fraction: float = 0.0,
                cost_of_capital: float = 0.0, catalog: Catalog | None = None) -> RentVsBuy:
    """Owning versus renting `gpu_count` GPUs over `years` at a utilization: both totals, the recommendation,
    break-even utilization and GPU-hours, a yearly table and a utilization sweep. Raises SizingError on bad input."""
    arguments = {name: value for name, value in locals().items() if name != "catalog"}
    catalog = catalog or load_catalog()
    r = parse_request(RentVsBuyRequest, arguments, "rent_vs_buy")
    match = catalog.resolve_gpu(r.gpu)
    spec = match.gpu
    assumptions = [match.note] if match.note else []
    price = r.purchase_usd_per_gpu or spec.purchase_usd
    if price is None:
        raise SizingError(f"the catalog has no purchase price for {spec.gpu_id}; pass purchase_usd_per_gpu "
                          "(the GPU plus its share of server and network)")
    assumptions.append(f"purchase ${price:,.0f} per GPU" + ("" if r.purchase_usd_per_gpu else f" (catalog: {spec.purchase_source})"))
    rent = r.rent_usd_per_gpu_hour
    if rent is None:
        best = cheapest(catalog, spec.gpu_id, "on_demand")
        if best is None:
            raise SizingError(f"no on-demand offer for {spec.gpu_id} in the catalog; pass rent_usd_per_gpu_hour")
        rent = best.usd_per_gpu_hour
        assumptions.append(f"rent ${rent:.2f} per GPU-hour: cheapest on-demand offer ({best.offer.provider} "
                           f"{best.offer.instance_type}, as of {best.offer.as_of})")
    watts = r.power_watts_per_gpu
    if watts is None:
        if spec.tdp_watts is None:
            raise SizingError(f"the catalog has no TDP for {spec.gpu_id}; pass power_watts_per_gpu")
        watts = spec.tdp_watts * (1 + HOST_WATTS_PER_GPU_WATT)
        assumptions.append(f"power {watts:.0f} W per GPU: {spec.tdp_watts:.0f} W TDP plus its share of the host "
                           "(DGX H100: 10.2 kW for 8 x 700 W GPUs)")
    assumptions.append(f"electricity ${r.electricity_usd_per_kwh}/kWh at PUE {r.pue}, paid only for busy hours; "
                       f"staff ${r.staff_usd_per_year:,.0f}/year, maintenance {r.maintenance_fraction_per_year:.0%}/year of purchase, "
                       f"residual {r.residual_fraction:.0%}, cost of capital {r.cost_of_capital:.1%}")
    model = CostModel(r, price, rent, watts)
    own, rent_total = model.own(r.utilization), model.rent(r.utilization)
    hours_horizon = HOURS_PER_YEAR * r.years
    breakeven_hours = model.breakeven_gpu_hours()
    breakeven_util = None if breakeven_hours is None or breakeven_hours > hours_horizon else breakeven_hours / hours_horizon
    return RentVsBuy(
        gpu_id=spec.gpu_id, gpu_count=r.gpu_count, own_total_usd=round(own, 2), rent_total_usd=round(rent_total, 2),
        recommendation="buy" if own < rent_total else "rent", breakeven_utilization=breakeven_util,
        breakeven_gpu_hours=breakeven_hours, own_breakdown_usd=model.own_parts(r.utilization),
        yearly=model.yearly(), utilization_sweep=[SweepRow(utilization=u / 10, own_total_usd=round(model.own(u / 10), 2),
                                                           rent_total_usd=round(model.rent(u / 10), 2)) for u in range(1, 11)],
        assumptions=assumptions)


class CostModel:
    def __init__(self, request: RentVsBuyRequest, price_per_gpu: float, rent_per_gpu_hour: float, watts: float):
        self.r, self.rent_rate = request, rent_per_gpu_hour
        self.purchase = price_per_gpu * request.gpu_count
        self.energy_per_gpu_hour = watts / 1000 * request.pue * request.electricity_usd_per_kwh

    def busy_gpu_hours(self, utilization: float, years: float | None = None) -> float:
        return HOURS_PER_YEAR * (years if years is not None else self.r.years) * utilization * self.r.gpu_count

    def fixed_parts(self, years: float | None = None) -> dict[str, float]:
        r, horizon = self.r, self.r.years
        years = horizon if years is None else years
        charge = (capital_recovery_factor(r.cost_of_capital, horizon) * horizon - 1) * self.purchase
        residual = r.residual_fraction * self.purchase / (1 + r.cost_of_capital) ** horizon
        return {"purchase": self.purchase, "staff": years * r.staff_usd_per_year,
                "maintenance": years * r.maintenance_fraction_per_year * self.purchase,
                "capital_charge": charge * years / horizon, "residual_value": -residual if years >= horizon else 0.0}

    def own_parts(self, utilization: float) -> dict[str, float]:
        parts = self.fixed_parts()
        parts["energy"] = self.energy_per_gpu_hour * self.busy_gpu_hours(utilization)
        return {k: round(v, 2) for k, v in parts.items()}

    def own(self, utilization: float, years: float | None = None) -> float:
        return sum(self.fixed_parts(years).values()) + self.energy_per_gpu_hour * self.busy_gpu_hours(utilization, years)

    def rent(self, utilization: float, years: float | None = None) -> float:
        return self.rent_rate * self.busy_gpu_hours(utilization, years)

    def breakeven_gpu_hours(self) -> float | None:
        margin = self.rent_rate - self.energy_per_gpu_hour
        if margin <= 0:
            return None
        return sum(self.fixed_parts().values()) / (self.r.gpu_count * margin)

    def yearly(self) -> list[YearRow]:
        marks = [float(y) for y in range(1, math.ceil(self.r.years))] + [self.r.years]
        return [YearRow(year=y, own_cumulative_usd=round(self.own(self.r.utilization, y), 2),
                        rent_cumulative_usd=round(self.rent(self.r.utilization, y), 2)) for y in marks]
