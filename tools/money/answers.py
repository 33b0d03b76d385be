"""The text answers of cloud_cost and rent_vs_buy: the verdict first, the figures that carry it, the notes that moved it.

The MCP tools send these as their text content (an answer a person could read aloud, at most 1,500 bytes); the full
result stays in the structured content, so the text names only the best offers and the notes that change the answer.
"""
from __future__ import annotations

from gpusizer.tools.figures import best_of, number, percent, usd, within_limit
from gpusizer.tools.money.cloud_cost import CloudCost, Offer
from gpusizer.tools.money.rent_vs_buy import RentVsBuy

NOTES_SHOWN = 3
OWN_PARTS_SHOWN = 3
CLAUSE_LIMIT = 220  # an assumption longer than this is cut at its first parenthesis: the source is in the structured result


def cloud_cost_answer(result: CloudCost) -> str:
    """The cheapest offer, the cheapest on-demand one when that is spot, the next four, and the notes about the winner."""
    job = f"{number(result.gpu_count)} x {result.gpu_id} for {number(result.hours)} hour{'s' if result.hours != 1 else ''}"
    if not result.offers:
        reason = next((n for n in result.notes if n.startswith("no ") and " price for " in n), "no offer passes the filters")
        others = [n for n in result.notes if n != reason][:NOTES_SHOWN]
        return within_limit([f"No offer runs {job}: {reason}", *others])
    best = result.offers[0]
    lines = [f"Cheapest: {usd(best.total_usd)} total for {job} on {where(best)}, "
             f"{usd(best.usd_per_gpu_hour)}/GPU-hour{billing(best, result.hours)}"]
    lines += [f"Cheaper with {result.alternatives[0].text}"] if result.alternatives else []
    on_demand = next((o for o in result.offers if o.pricing == "on_demand"), None)
    if best.pricing == "spot":
        lines.append(f"Cheapest on-demand: {usd(on_demand.total_usd)} on {where(on_demand)}, {usd(on_demand.usd_per_gpu_hour)}"
                     f"/GPU-hour{billing(on_demand, result.hours)}" if on_demand else "No on-demand offer in this result")
    lines += best_of([f"- {usd(o.total_usd)}: {where(o)}, {usd(o.usd_per_gpu_hour)}/GPU-hour{billing(o, result.hours)}"
                      for o in result.offers[1:]], shown=4)
    lines += sorted(result.notes, key=lambda note: not concerns(note, best))[:NOTES_SHOWN]
    return within_limit(lines)


def where(offer: Offer) -> str:
    """'aws 2 x p5.48xlarge (us-east-1, spot)'."""
    count = f"{offer.instances} x " if offer.instances > 1 else ""
    return f"{offer.provider} {count}{offer.instance_type} ({offer.region}, {PRICE_CLASS_WORDS.get(offer.offer_class, offer.pricing)})"


PRICE_CLASS_WORDS = {"datacenter": "on-demand", "marketplace": "marketplace on-demand", "spot": "spot"}


def billing(offer: Offer, hours: float) -> str:
    """What the offer bills beyond the job: idle GPUs in a larger instance, hours rounded up to the provider's increment."""
    extras = []
    if offer.idle_gpus > 0:
        extras.append(f"{number(offer.idle_gpus)} GPU{'s' if offer.idle_gpus != 1 else ''} paid for but idle")
    if offer.billed_hours > hours:
        extras.append(f"billed {number(offer.billed_hours)} hours")
    return f" ({', '.join(extras)})" if extras else ""


def concerns(note: str, best: Offer) -> bool:
    """Whether a note changes the cheapest offer's answer (a note about spot matters only when spot wins, ...)."""
    if note.startswith("spot "):
        return best.pricing == "spot"
    if note.startswith("offers that need several instances"):
        return best.instances > 1
    if "stale=true" in note:
        return best.stale
    if "price_date_uncertain=true" in note:
        return best.price_date_uncertain
    if note.startswith("no published billing increment"):
        return best.provider in note.split(":", 1)[0].replace(",", " ").split()
    return not note.startswith(("offers that sell a fraction", "storage "))


def rent_vs_buy_answer(result: RentVsBuy) -> str:
    """Buy or rent with both totals, the break-even, the rent rate with its class and offer, the reserved rates beside it,
    the owner's cost per GPU-hour and its largest lines, the assumptions."""
    lines = [f"{result.recommendation.capitalize()}: own {usd(result.own_total_usd)} vs rent {usd(result.rent_total_usd)}"
             f" over {number(result.years)} years at {percent(result.utilization)} utilization for "
             f"{number(result.gpu_count)} x {result.gpu_id}", breakeven(result)]
    lines.append(f"Rent rate: {usd(result.rent_usd_per_gpu_hour)}/GPU-hour"
                 + (f", the cheapest {CLASS_WORDS.get(result.rent_offer_class, result.rent_offer_class)} on-demand offer: "
                    f"{result.rent_offer}" if result.rent_offer else " (given)"))
    reserved = [o for o in result.rent_options if o.committed]
    if reserved:
        lines.append("Reserved instead: " + "; ".join(
            f"{CLASS_WORDS[o.offer_class]} {usd(o.usd_per_gpu_hour)}/GPU-hour, {usd(o.rent_total_usd)} ({o.recommendation} wins)"
            for o in reserved))
    parts = sorted(((k, v) for k, v in result.own_breakdown_usd.items() if v), key=lambda kv: -abs(kv[1]))[:OWN_PARTS_SHOWN]
    lines.append(f"Owning: {usd(result.own_usd_per_gpu_hour)} per owned GPU-hour, {usd(result.purchase_usd_per_gpu)} per GPU "
                 "up front; largest lines: " + ", ".join(f"{name.replace('_', ' ')} {signed_usd(value)}" for name, value in parts))
    if result.alternatives:
        lines.append("Flips if you " + "; or ".join(a.text for a in result.alternatives[:2]))
    lines += [f"- {clause(a)}" for a in deciding_assumptions(result.assumptions)]
    return within_limit(lines)


CLASS_WORDS = {"datacenter": "data-centre", "marketplace": "marketplace", "reserved_1y": "1-year", "reserved_3y": "3-year"}


def breakeven(result: RentVsBuy) -> str:
    """Where owning and renting meet, said as the change that flips the recommendation."""
    if result.breakeven_utilization is not None:
        flip = "buying wins above it" if result.recommendation == "rent" else "renting wins below it"
        return (f"Break-even: {percent(result.breakeven_utilization)} utilization "
                f"({number(result.breakeven_gpu_hours, 0)} busy hours per GPU); {flip}")
    if result.breakeven_gpu_hours is not None:
        return (f"Renting wins even at 100% utilization: owning breaks even only after {number(result.breakeven_gpu_hours, 0)} "
                "busy hours per GPU, more than the horizon holds")
    return "Renting wins at any utilization: the rent per GPU-hour is below the extra energy of a busy hour"


def signed_usd(amount: float) -> str:
    return f"-{usd(-amount)}" if amount < 0 else usd(amount)


def deciding_assumptions(assumptions: list[str]) -> list[str]:
    """The GPU read, the purchase price and the running costs: the rent rate has its own line, the discounting rule is fixed."""
    order = ("'", "purchase ", "power per GPU")
    picked = [a for prefix in order for a in assumptions if a.startswith(prefix)]
    return picked[:3]


def clause(text: str) -> str:
    """A long assumption up to its first parenthesis (its source), which the structured result keeps whole."""
    if len(text) <= CLAUSE_LIMIT:
        return text
    head = text.split(" (", 1)[0]
    return head if len(head) <= CLAUSE_LIMIT else head[: CLAUSE_LIMIT - 3] + "..."
