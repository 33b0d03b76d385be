"""rent_vs_buy: total cost of owning GPUs against renting them for the same busy hours.

own  = purchase + years x (staff + maintenance x purchase + colocation) + energy while busy + idle energy
       + capital charge - discounted residual
rent = rent per GPU-hour x GPUs x 8760 x years x utilization
"""
from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field

from gpusizer.catalog import Catalog, GpuSpec, SizingError, load_catalog
from gpusizer.tools.pricing import HOURS_PER_YEAR, cheapest_job, job_prices
from gpusizer.tools.validation import NAME_LIMIT, declared_by, parse_request

# A DGX H100 draws up to 10.2 kW for 8 x 700 W GPUs: the host (CPUs, memory, NICs, fans) adds ~0.8 W per GPU watt.
HOST_WATTS_PER_GPU_WATT = (10_200 - 8 * 700) / (8 * 700)


class RentVsBuyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(max_length=NAME_LIMIT, description="GPU name or alias ('h100')")
    gpu_count: int = Field(default=8, ge=1, le=1_000_000, description="GPUs bought or rented")
    purchase_usd_per_gpu: float | None = Field(default=None, gt=0, le=10_000_000,
                                               description="GPU plus its share of server, network and install (default: catalog)")
    server_share_usd_per_gpu: float | None = Field(default=None, ge=0, le=10_000_000,
                                                   description="server, network and install per GPU, where no node price is known")
    rent_usd_per_gpu_hour: float | None = Field(default=None, gt=0, le=10_000,
                                                description="default: cheapest on-demand instance with as many GPUs")
    utilization: float = Field(default=0.7, ge=0, le=1, description="share of hours busy")
    years: float = Field(default=3.0, ge=0.01, le=30, description="horizon")
    electricity_usd_per_kwh: float = Field(default=0.10, ge=0, le=10, description="electricity price")
    pue: float = Field(default=1.3, ge=1, le=5, description="power usage effectiveness")
    power_watts_per_gpu: float | None = Field(default=None, gt=0, le=100_000, description="busy draw; default: TDP plus host share")
    idle_watts_per_gpu: float | None = Field(default=None, ge=0, le=100_000, description="idle draw; default: 10% of the busy draw")
    colocation_usd_per_kw_month: float = Field(default=0.0, ge=0, le=10_000, description="colocation fee per provisioned kW")
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
    purchase_usd_per_gpu: float = Field(description="what one GPU costs to own: the GPU plus its share of server and network")
    rent_usd_per_gpu_hour: float
    rent_offer: str | None = Field(default=None, description="the offer the rent rate comes from, when not given")
    utilization: float = Field(description="the share of hours busy both totals are for")
    years: float = Field(description="the horizon both totals are for")
    own_total_usd: float
    rent_total_usd: float
    recommendation: str = Field(description="'buy' or 'rent'")
    breakeven_utilization: float | None = Field(description="None: renting is cheaper even at 100% utilization")
    breakeven_gpu_hours: float | None = Field(description="busy hours per GPU over the horizon at which the costs meet")
    own_breakdown_usd: dict[str, float] = Field(description="purchase, staff, maintenance, colocation, idle_energy, "
                                                "capital_charge, residual_value (negative), energy")
    yearly: list[YearRow]
    utilization_sweep: list[SweepRow]
    assumptions: list[str]


def capital_recovery_factor(rate: float, years: float) -> float:
    """Yearly payment per dollar borrowed over `years` at `rate` (1/years at a zero rate)."""
    growth = (1 + rate) ** years
    if growth - 1 < 1e-12:  # a rate too small to register in floating point is a zero rate
        return 1 / years
    return float(rate * growth / (growth - 1))


@declared_by(RentVsBuyRequest, "rent_vs_buy")
def rent_vs_buy(gpu: str, *, gpu_count: int = 8, purchase_usd_per_gpu: float | None = None,
                server_share_usd_per_gpu: float | None = None, rent_usd_per_gpu_hour: float | None = None,
                utilization: float = 0.7, years: float = 3.0, electricity_usd_per_kwh: float = 0.10, pue: float = 1.3,
                power_watts_per_gpu: float | None = None, idle_watts_per_gpu: float | None = None,
                colocation_usd_per_kw_month: float = 0.0, staff_usd_per_year: float = 0.0,
                maintenance_fraction_per_year: float = 0.0, residual_fraction: float = 0.0, cost_of_capital: float = 0.0,
                catalog: Catalog | None = None) -> RentVsBuy:
    """Owning versus renting `gpu_count` GPUs over `years` at a utilization: both totals, the recommendation,
    break-even utilization and GPU-hours, a yearly table and a utilization sweep. Raises SizingError on bad input."""
    arguments = {name: value for name, value in locals().items() if name != "catalog"}
    catalog = catalog or load_catalog()
    r = parse_request(RentVsBuyRequest, arguments, "rent_vs_buy")
    match = catalog.resolve_gpu(r.gpu)
    spec = match.gpu
    assumptions = [match.note] if match.note else []
    price, line = purchase_price(spec, r)
    assumptions.append(line)
    rent, line, rent_offer = rent_price(catalog, spec, r)
    assumptions.append(line)
    busy, idle, line = power_draw(spec, r)
    assumptions.append(line)
    assumptions.append(f"electricity ${r.electricity_usd_per_kwh}/kWh at PUE {r.pue}"
                       + (f", colocation ${r.colocation_usd_per_kw_month:g}/kW-month on {busy * r.gpu_count / 1000:.1f} kW"
                          if r.colocation_usd_per_kw_month else "")
                       + f"; staff ${r.staff_usd_per_year:,.0f}/year, maintenance {r.maintenance_fraction_per_year:.0%}/year of "
                       f"purchase, residual {r.residual_fraction:.0%}")
    assumptions.append(DISCOUNTING.format(rate=r.cost_of_capital))
    model = CostModel(r, price, rent, busy, idle)
    own, rent_total = model.own(r.utilization), model.rent(r.utilization)
    hours_horizon = HOURS_PER_YEAR * r.years
    breakeven_hours = model.breakeven_gpu_hours()
    breakeven_util = None if breakeven_hours is None or breakeven_hours > hours_horizon else breakeven_hours / hours_horizon
    return RentVsBuy(
        gpu_id=spec.gpu_id, gpu_count=r.gpu_count, purchase_usd_per_gpu=round(price, 2), rent_usd_per_gpu_hour=round(rent, 4),
        rent_offer=rent_offer, utilization=r.utilization, years=r.years, own_total_usd=round(own, 2),
        rent_total_usd=round(rent_total, 2),
        recommendation="buy" if own < rent_total else "rent", breakeven_utilization=breakeven_util,
        breakeven_gpu_hours=breakeven_hours, own_breakdown_usd=model.own_parts(r.utilization),
        yearly=model.yearly(), utilization_sweep=[SweepRow(utilization=u / 10, own_total_usd=round(model.own(u / 10), 2),
                                                           rent_total_usd=round(model.rent(u / 10), 2)) for u in range(1, 11)],
        assumptions=assumptions)


DISCOUNTING = ("discounting: the purchase is paid up front and carries a yearly capital charge at {rate:.1%} (capital "
               "recovery factor); the residual value is discounted to today; running costs and rent are summed year by year "
               "(the same, undiscounted, for both sides)")
# SemiAnalysis' DGX H100 bill of materials (May 2023, via Epoch's notebook): $32,010 of non-GPU parts per 8-GPU server.
DATA_CENTRE_SERVER_SHARE_USD = 32_010 / 8
IDLE_FRACTION = 0.10  # idle H100s in public nvidia-smi logs draw 69-100 W of 700 W (find_string hits 293060996, 8069391929)


def purchase_price(spec: GpuSpec, r: RentVsBuyRequest) -> tuple[float, str]:
    """The GPU plus its share of server, network and install: the request's figure, the catalog's node price per GPU,
    or the GPU's price plus a server share."""
    if r.purchase_usd_per_gpu:
        return r.purchase_usd_per_gpu, f"purchase ${r.purchase_usd_per_gpu:,.0f} per GPU (given)"
    if spec.node_usd_per_gpu and r.server_share_usd_per_gpu is None:
        return spec.node_usd_per_gpu, (f"purchase ${spec.node_usd_per_gpu:,.0f} per GPU: an 8-GPU node's price / 8 "
                                       f"({spec.node_price_source}; parts: {spec.node_price_parts})")
    if spec.purchase_usd is None:
        raise SizingError(f"the catalog has no purchase price for {spec.gpu_id} ({spec.purchase_note or 'none found'}); "
                          "pass purchase_usd_per_gpu (the GPU plus its share of server and network)")
    consumer = "consumer" in spec.form_factor or "workstation" in spec.form_factor
    share = r.server_share_usd_per_gpu if r.server_share_usd_per_gpu is not None else 0.0 if consumer else DATA_CENTRE_SERVER_SHARE_USD
    how = ("given" if r.server_share_usd_per_gpu is not None else "none for a card that goes into a workstation you own"
           if consumer else "SemiAnalysis' DGX H100 bill of materials, May 2023: $32,010 of non-GPU parts / 8")
    return spec.purchase_usd + share, (f"purchase ${spec.purchase_usd + share:,.0f} per GPU: the GPU ${spec.purchase_usd:,.0f} "
                                       f"({spec.purchase_source}) + server, network and install ${share:,.0f} ({how})")


def rent_price(catalog: Catalog, spec: GpuSpec, r: RentVsBuyRequest) -> tuple[float, str, str | None]:
    """The request's rate, else the cheapest on-demand instance holding as many GPUs as are bought (an owned 8-GPU server
    compares with rented 8-GPU machines), else the nearest larger instance, else the largest machines combined."""
    if r.rent_usd_per_gpu_hour:
        return r.rent_usd_per_gpu_hour, f"rent ${r.rent_usd_per_gpu_hour:.2f} per GPU-hour (given)", None
    same = [p for p in job_prices(catalog, spec.gpu_id, r.gpu_count) if p.offer.gpus_per_instance == r.gpu_count]
    best, how = (same[0], "an instance with as many GPUs") if same else (None, "")
    if best is None:
        best = cheapest_job(catalog, spec.gpu_id, r.gpu_count, one_machine=True)
        how = f"no {r.gpu_count}-GPU instance: the cheapest larger one"
    if best is None:  # a cluster of owned servers compares with rented servers, not with as many one-GPU machines
        combined = job_prices(catalog, spec.gpu_id, r.gpu_count, one_machine=False)
        largest = max((p.offer.gpus_per_instance for p in combined), default=0)
        best = next((p for p in combined if p.offer.gpus_per_instance == largest), None)
        how = f"no instance holds them all: {largest:g}-GPU machines combined"
    if best is None:
        raise SizingError(f"no on-demand offer for {spec.gpu_id} in the catalog; pass rent_usd_per_gpu_hour")
    rate = best.usd_per_gpu_hour
    return rate, (f"rent ${rate:.2f} per GPU-hour: cheapest on-demand {how}, {best.describe()}, priced {best.offer.as_of}"), \
        f"{best.offer.provider} {best.offer.instance_type} ({best.offer.region})"


def power_draw(spec: GpuSpec, r: RentVsBuyRequest) -> tuple[float, float, str]:
    busy = r.power_watts_per_gpu
    how = "given"
    if busy is None:
        if spec.tdp_watts is None:
            raise SizingError(f"the catalog has no TDP for {spec.gpu_id}; pass power_watts_per_gpu")
        busy = spec.tdp_watts * (1 + HOST_WATTS_PER_GPU_WATT)
        how = f"{spec.tdp_watts:.0f} W TDP plus its share of the host (DGX H100: 10.2 kW for 8 x 700 W GPUs)"
    idle = r.idle_watts_per_gpu if r.idle_watts_per_gpu is not None else IDLE_FRACTION * busy
    idle_how = "given" if r.idle_watts_per_gpu is not None else "10% of it, as idle H100s draw ~70 W of 700 W in nvidia-smi"
    return busy, idle, f"power per GPU: {busy:.0f} W busy ({how}), {idle:.0f} W idle ({idle_how})"


class CostModel:
    def __init__(self, request: RentVsBuyRequest, price_per_gpu: float, rent_per_gpu_hour: float, busy_watts: float,
                 idle_watts: float):
        self.r, self.rent_rate = request, rent_per_gpu_hour
        self.purchase = price_per_gpu * request.gpu_count
        energy_per_kwh = request.pue * request.electricity_usd_per_kwh
        self.busy_energy_per_gpu_hour = busy_watts / 1000 * energy_per_kwh
        self.idle_energy_per_gpu_hour = idle_watts / 1000 * energy_per_kwh
        self.colocation_per_year = request.colocation_usd_per_kw_month * 12 * busy_watts / 1000 * request.gpu_count

    def gpu_hours(self, utilization: float, years: float | None = None) -> float:
        return HOURS_PER_YEAR * (years if years is not None else self.r.years) * utilization * self.r.gpu_count

    def fixed_parts(self, years: float | None = None) -> dict[str, float]:
        r, horizon = self.r, self.r.years
        years = horizon if years is None else years
        charge = (capital_recovery_factor(r.cost_of_capital, horizon) * horizon - 1) * self.purchase
        residual = r.residual_fraction * self.purchase / (1 + r.cost_of_capital) ** horizon
        return {"purchase": self.purchase, "staff": years * r.staff_usd_per_year,
                "maintenance": years * r.maintenance_fraction_per_year * self.purchase,
                "colocation": years * self.colocation_per_year,
                "capital_charge": charge * years / horizon, "residual_value": -residual if years >= horizon else 0.0}

    def own_parts(self, utilization: float, years: float | None = None) -> dict[str, float]:
        parts = self.fixed_parts(years)
        parts["idle_energy"] = self.idle_energy_per_gpu_hour * self.gpu_hours(1 - utilization, years)
        parts["energy"] = self.busy_energy_per_gpu_hour * self.gpu_hours(utilization, years)
        return parts

    def own(self, utilization: float, years: float | None = None) -> float:
        return sum(self.own_parts(utilization, years).values())

    def rent(self, utilization: float, years: float | None = None) -> float:
        return self.rent_rate * self.gpu_hours(utilization, years)

    def breakeven_gpu_hours(self) -> float | None:
        """Busy hours per GPU at which owning costs what renting does: every busy hour saves rent but costs the
        difference between busy and idle power."""
        margin = self.rent_rate - (self.busy_energy_per_gpu_hour - self.idle_energy_per_gpu_hour)
        if margin <= 0:
            return None
        always = sum(self.own_parts(0.0).values())  # what owning costs with the GPUs idle all the time
        return always / (self.r.gpu_count * margin)

    def yearly(self) -> list[YearRow]:
        marks = [float(y) for y in range(1, math.ceil(self.r.years))] + [self.r.years]
        return [YearRow(year=y, own_cumulative_usd=round(self.own(self.r.utilization, y), 2),
                        rent_cumulative_usd=round(self.rent(self.r.utilization, y), 2)) for y in marks]
