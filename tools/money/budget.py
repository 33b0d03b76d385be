"""What a budget buys: hours of rented GPUs, the cards whose purchase price it covers, or whether a priced job fits it.

The arithmetic behind Ask's budget questions ('$500: how many H100 hours?', 'which card to buy under $2,000?', 'do we
fit a $10k budget?'); each answer says the division it made, so the figure can be checked by hand.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.figures import number, percent, usd
from gpusizer.tools.money.cloud_cost import CloudCost, Offer
from gpusizer.tools.money.ownership import server_price
from gpusizer.tools.pricing import HOURS_PER_YEAR, FitCost

HOURS_PER_DAY = 24.0


class HeldBy(Protocol):
    """A GPU that holds a workload (estimate_vram's GpuFit): which, and how many of it."""
    @property
    def gpu_id(self) -> str: ...

    @property
    def gpus_needed(self) -> int: ...


def job_rate(offer: Offer) -> float:
    """What the job pays an hour on this offer: every instance it takes, idle GPUs in them included."""
    return offer.usd_per_hour * offer.instances


def budget_hours_answer(result: CloudCost, budget_usd: float) -> str:
    """'Budget $500, how many hours of an H100?': the budget over the cheapest on-demand rate for the GPUs, then over the
    cheapest spot rate (a second figure: spot can be taken back)."""
    job = f"{number(result.gpu_count)} x {result.gpu_id}"
    on_demand = next((o for o in result.offers if o.pricing == "on_demand"), None)
    spot = next((o for o in result.offers if o.pricing == "spot"), None)
    if on_demand is None and spot is None:
        return f"No offer for {job} in the catalog to divide {usd(budget_usd)} by."
    lines = []
    for offer, kind in ((on_demand, "on-demand"), (spot, "spot")):
        if offer is not None:
            hours = budget_usd / job_rate(offer)
            lines.append(f"{number(hours, 0 if hours >= 10 else 1)} hours ({number(hours / HOURS_PER_DAY, 1)} days) of {job} "
                         f"{kind}: {usd(budget_usd)} / {usd(job_rate(offer))} an hour on {offer.provider} {offer.instance_type}")
    lines[0] = "About " + lines[0]
    if len(lines) > 1:
        lines[1] = "On spot (it can be interrupted): " + lines[1]
    return "\n".join(lines)


def cards_within_budget(catalog: Catalog, fits: Iterable[HeldBy], budget_usd: float) -> str:
    """'Which GPU should I buy for X, under $2,000?': the cards that hold the workload whose purchase price (the catalog's,
    as rent_vs_buy uses: the card, plus server parts for a data-centre part) for as many as it needs is within the budget,
    one card before several, cheapest first; when none is, the cheapest few with their prices."""
    priced = []
    for fit in fits:
        try:
            each, _ = server_price(catalog, catalog.find_gpu(fit.gpu_id), None, None)
        except SizingError:  # no purchase price in the catalog: it cannot be weighed against a budget
            continue
        priced.append((each.value * fit.gpus_needed, fit.gpus_needed, fit.gpu_id))
    priced.sort(key=lambda p: (p[1] > 1, p[0]))  # one card that holds it before several cheaper ones
    within = [p for p in priced if p[0] <= budget_usd]
    shown = "; ".join(f"{count} × {gpu_id}: {usd(total)}" for total, count, gpu_id in (within or priced)[:5])
    if within:
        return f"Within your {usd(budget_usd)} to buy (catalog purchase prices; one card first, cheapest first): {shown}."
    return f"No card that holds it is within your {usd(budget_usd)} to buy; the cheapest: {shown or 'none priced'}."


def cheapest_ways(ranked: list[FitCost], rate_cap: float | None = None, hours: float | None = None, one_gpu: bool = False) -> str:
    """The cheapest ways to run a workload (its fits ranked by `cheapest_fits`), on-demand; a rate cap ('my budget is
    $2/hr') leaves out what costs more and says so; hours ('around the clock for a month') add each way's bill; `one_gpu`
    ('a GPU that holds it by itself') keeps the single GPUs that hold it, where any does."""
    title = "Cheapest ways to run it"
    if one_gpu and (alone := [c for c in ranked if c.gpus_needed == 1]):
        ranked, title = alone, "Cheapest single GPUs that hold it"
    priced = [c for c in ranked if c.usd_per_hour]
    within = [c for c in priced if rate_cap is None or (c.usd_per_hour or 0) <= rate_cap]
    if rate_cap is not None and not within:
        return (f"Nothing in the catalog runs it within your {usd(rate_cap)}/h (cheapest: "
                + ", ".join(f"{c.gpus_needed} × {c.gpu_id} at {usd(c.usd_per_hour)}/h" for c in priced[:3]) + ").")
    lines = [f"{c.gpus_needed} × {c.gpu_id}: {usd(c.usd_per_hour)}/h on {c.provider}"
             + (f", {usd((c.usd_per_hour or 0) * hours)} for {number(hours)} h" if hours else "") for c in within[:5]]
    unpriced = [f"{c.gpus_needed} × {c.gpu_id}" for c in ranked if not c.usd_per_hour][:4] if rate_cap is None else []
    cap = f" within your {usd(rate_cap)}/h" if rate_cap is not None else ""
    return (f"{title}{cap} (on-demand): " + "; ".join(lines or ["none priced"])
            + (f". Also fits (no cloud price in the catalog): {', '.join(unpriced)}" if unpriced else "") + ".")


def cheaper_run_verdict(runs: list[tuple[str, Mapping[str, Any]]], budget_usd: float) -> str:
    """'H100 or A100, whichever is cheaper: do we fit the budget?': the verdict on the cheaper priced run first, then each
    run's own line (training_time's results, with their text answers)."""
    run = min((r for _, r in runs), key=lambda r: r.get("usd_total") or math.inf)
    return "\n".join([budget_verdict(run.get("usd_total"), budget_usd, f"the run on {run['gpu_count']} × {run['gpu_id']}"),
                      *(f"- {text}" for text, r in sorted(runs, key=lambda tr: tr[1].get("usd_total") or math.inf))])


def use_of_hours(hours: float, years: float) -> tuple[float, str]:
    """'Sixteen H200s for six weeks ... or buy?': the job's hours as a share of the horizon, and the sentence saying so."""
    utilization = min(1.0, hours / (years * HOURS_PER_YEAR))
    return utilization, f" ({number(hours)} h of use over {number(years)} years is {percent(utilization)} utilization)"


def budget_verdict(cost_usd: float | None, budget_usd: float, what: str) -> str:
    """'Do we fit the budget?': yes or no first, with the cost, the budget and what is left or missing."""
    if cost_usd is None:
        return f"Cannot say: {what} has no cloud price in the catalog to set against your {usd(budget_usd)} budget."
    if cost_usd <= budget_usd:
        return f"Yes: {what} costs {usd(cost_usd)}, within your {usd(budget_usd)} budget ({usd(budget_usd - cost_usd)} to spare)."
    return f"No: {what} costs {usd(cost_usd)}, over your {usd(budget_usd)} budget by {usd(cost_usd - budget_usd)}."
