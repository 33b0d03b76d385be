"""The text answers of cloud_cost and rent_vs_buy: the verdict first, the figures that carry it, the notes that moved it.

The MCP tools send these as their text content (an answer a person could read aloud, at most 1,500 bytes); the full
result stays in the structured content, so the text names only the best offers and the notes that change the answer.
"""
from __future__ import annotations

from collections.abc import Mapping

from gpusizer.catalog import Catalog
from gpusizer.catalog.clouds import priced_providers
from gpusizer.catalog.instances import instance_types
from gpusizer.tools.figures import best_of, number, percent, usd, within_limit
from gpusizer.tools.money.cloud_cost import CloudCost, Offer
from gpusizer.tools.money.rent_vs_buy import RentVsBuy
from gpusizer.tools.pricing import usd_per_gpu_hour

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
    job = job.replace(f" x {result.gpu_id} ", f" x {best.gpu_id} ")  # an alias priced in its other form says which
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


def instance_lines(result: CloudCost, instances: list[str]) -> list[str]:
    """The instance types asked about, each priced first (on-demand, then spot): 'what does a p4d.24xlarge cost?' asks
    that machine's bill, not the cheapest of its GPUs elsewhere."""
    named = [o for o in result.offers if o.instance_type.lower() in {i.lower() for i in instances}]
    ordered = sorted(named, key=lambda o: (o.instance_type, o.pricing != "on_demand", o.total_usd))
    firsts = {(o.instance_type, o.pricing): o for o in reversed(ordered)}  # the cheapest region of each
    return [f"{o.instance_type}: {usd(o.total_usd)} for {number(result.hours)} h on {where(o)}, {usd(o.usd_per_gpu_hour)}/GPU-hour"
            f"{billing(o, result.hours)}" for o in ordered if firsts[o.instance_type, o.pricing] is o]


def cloud_bill_answer(result: CloudCost, catalog: Catalog, providers: list[str], rate: float | None,
                      told: Mapping[str, object], instances: list[str] | None = None, cheapest_asked: bool = False) -> str:
    """A rental's bill: how its hours were counted ('8 hours a day × 30.4 days'), the asker's own rate first where one was
    given (after the catalog's offers when the cheapest is asked), then the catalog's offers: the instance types named,
    each provider's asked about (the cheaper first), else the cheapest overall. `told` is what the question said, by
    kind: 'hours_of_use' (how the hours were counted), 'pricing' ('both': spot vs on-demand asked), 'unpriced_cloud' (a
    cloud outside the catalog, named)."""
    outside = told.get("unpriced_cloud")
    if (outside or rate is not None) and not providers:  # a cloud's list price, the asker's rate: on-demand offers compare
        result = result.model_copy(update={"offers": sorted(result.offers, key=lambda o: o.pricing != "on_demand")})
    named = instance_lines(result, instances or [])
    offers = (providers_answer(result, providers, catalog) if providers
              else "\n".join(cloud_cost_answer(result).splitlines()[:5]))  # the cheapest, then the cheapest on-demand
    elsewhere = f"The cheapest at {', '.join(providers)}:" if providers else "Elsewhere:"  # (a machine names its provider)
    only_named = bool(named) and {o.instance_type.lower() for o in result.offers} <= {i.lower() for i in instances or []}
    offers = "\n".join(named) if only_named else "\n".join([*named, elsewhere if named else "", offers]).strip()  # said once
    lead = [unpriced_line(str(outside), catalog)] if outside else []
    lead += unpriced_machines(result, instances or [])
    lead += [pricing_difference(result, instances or [], providers)] if told.get("pricing") == "both" else []
    hours = [f"Hours priced: {number(result.hours)} hours of use ({told['hours_of_use']})."] if "hours_of_use" in told else []
    if rate is None:
        return "\n".join([*lead, *hours, offers])
    gpu_hours = result.gpu_count * result.hours
    gpus = f"{result.gpu_count} GPU{'s' if result.gpu_count != 1 else ''}"
    own = f"At your rate of {usd(rate)}/GPU-h: {gpus} × {number(result.hours)} h = {number(gpu_hours)} GPU-hours, {usd(gpu_hours * rate)}."
    if cheapest_asked and result.offers:  # 'our provider charges $3.50/h, feels steep: the cheapest?': the catalog's first
        saved = gpu_hours * rate - result.offers[0].total_usd
        return "\n".join([*lead, *hours, offers, own + (f" The cheapest here saves {usd(saved)}." if saved > 0 else "")])
    if providers:  # 'runpod h100 for 10 hours? I saw $1.99/h': the rate is said against the provider's own
        own = f"{own} {rate_check(result, catalog, providers, rate)}".rstrip()
    return "\n".join([*lead, own, *hours, "For comparison, the catalog's cheapest offers:", offers])


def unpriced_machines(result: CloudCost, instances: list[str]) -> list[str]:
    """'What will a g6e.xlarge cost?': a machine named that no offer prices is said to be unpriced, before the offers of
    the same GPUs (rather than a bill of another machine standing in for it unsaid)."""
    return [f"{row.instance_type} ({row.provider}, {row.gpus_per_instance} x {row.gpu_id}) has no price in the catalog; the "
            "same GPUs from the catalog's offers:" for name in dict.fromkeys(i.lower() for i in instances)
            if (row := instance_types().get(name)) and not any(o.instance_type.lower() == name for o in result.offers)]


def rate_check(result: CloudCost, catalog: Catalog, providers: list[str], rate: float) -> str:
    """Whether a quoted rate is a named provider's catalog rate for the GPU (on-demand, or spot where only spot is
    priced), and whose it is if not."""
    pricing = "spot" if {o.pricing for o in result.offers} == {"spot"} else "on_demand"  # as the bill is priced
    close = {o.provider for o in catalog.offers_for(result.gpu_id)
             if (price := usd_per_gpu_hour(o, pricing)) and o.gpus_per_instance >= 1 and abs(price - rate) <= 0.01 * rate}
    kind = PRICING_WORDS[pricing]
    if mine := sorted(close & set(providers)):
        return f"That is {', '.join(mine)}'s catalog {kind} rate."
    theirs = "; ".join(f"{p} {usd(offers[0].usd_per_gpu_hour)}/GPU-hour" for p in dict.fromkeys(providers)
                       if (offers := [o for o in result.offers if o.provider == p and o.pricing == pricing]))
    if not theirs:
        return ""  # the provider rents none here: its lines say so
    whose = f"; the catalog lists {result.gpu_id} at that rate at {', '.join(sorted(close))}" if close else ""
    return f"It is not {' or '.join(dict.fromkeys(providers))}'s catalog {kind} rate ({theirs}){whose}."


def unpriced_line(cloud: str, catalog: Catalog) -> str:
    """A cloud the catalog holds no prices of, said first, with the clouds it does and what to do."""
    return (f"{cloud} is not in the catalog, so there is no {cloud} price here (add its rates as rows of offers.csv in your "
            f"catalog folder); the catalog prices {', '.join(priced_providers(catalog))}. The same job from those:")


def pricing_difference(result: CloudCost, instances: list[str], providers: list[str]) -> str:
    """'spot vs on-demand': both bills of the machine asked about (the instance named, else the first provider's
    cheapest, else the cheapest of each) and what spot saves."""
    pool = ([o for o in result.offers if o.instance_type.lower() in {i.lower() for i in instances}]
            or [o for o in result.offers if o.provider in providers[:1]] or result.offers)
    on_demand, spot = (next((o for o in pool if o.pricing == p), None) for p in ("on_demand", "spot"))
    job = f"{number(result.gpu_count)} x {(on_demand or spot or result).gpu_id} for {number(result.hours)} hours"
    if on_demand is None or spot is None:
        missing, found = ("spot", "on-demand") if on_demand else ("on-demand", "spot")
        return f"No {missing} price in the catalog for {job} here: the {found} bill only"
    saved = on_demand.total_usd - spot.total_usd
    same = on_demand.provider == spot.provider and on_demand.instance_type == spot.instance_type
    at = (f" on {on_demand.provider} {on_demand.instance_type}" if same
          else f" (on-demand: {where(on_demand)}; spot: {where(spot)})")
    return (f"On-demand {usd(on_demand.total_usd)} ({usd(on_demand.usd_per_hour * on_demand.instances)}/h) vs spot "
            f"{usd(spot.total_usd)} ({usd(spot.usd_per_hour * spot.instances)}/h) for {job}{at}: spot saves {usd(saved)} "
            f"({saved / on_demand.total_usd:.0%}), but can be interrupted")


def providers_answer(result: CloudCost, providers: list[str], catalog: Catalog) -> str:
    """'runpod vs lambda': each provider's on-demand bill (spot beside it, a second figure), the cheaper named first; a
    provider with no offer says why."""
    job = f"{number(result.gpu_count)} x {result.gpu_id} for {number(result.hours)} hour{'s' if result.hours != 1 else ''}"
    firsts = {p: provider_offers(result, p) for p in dict.fromkeys(providers)}
    priced = sorted((offers[0].total_usd, p) for p, offers in firsts.items() if offers)
    instead = {n.split(":", 1)[0] for n in result.notes if n.split(": ", 1)[-1].startswith("rents no ")}  # elsewhere.py
    lines = [f"{p}: {provider_line(firsts[p], result.gpu_id)}" if firsts[p] else missing_offer(catalog, p, result.gpu_id, result.gpu_count)
             for p in [p for _, p in priced] + [p for p, offers in firsts.items() if not offers and p not in instead]]
    head = f"No offer in the catalog for {job} at {', '.join(firsts)}"
    if priced:
        (total, pick), *rest = priced
        kind = PRICING_WORDS[firsts[pick][0].pricing]
        job = job.replace(result.gpu_id, firsts[pick][0].gpu_id)  # the form that won, said ('4 x a100-80gb-pcie')
        head = (f"Cheaper: {pick}, {usd(total)} {kind} for {job}, vs " + ", ".join(f"{p} {usd(t)}" for t, p in rest) if rest
                else f"{usd(total)} {kind} for {job} on {pick}")
    notes = [n for n in result.notes if n.split(":", 1)[0] in firsts]  # 'runpod: a100 80gb read as the PCIe part'
    return within_limit([head, *(f"- {line}" for line in lines), *notes])


PRICING_WORDS = {"on_demand": "on-demand", "spot": "spot"}


def provider_offers(result: CloudCost, provider: str) -> list[Offer]:
    """A provider's bill: its cheapest on-demand offer (the bill unless spot is asked), then its cheapest spot one."""
    own = [o for o in result.offers if o.provider == provider]
    on_demand = next((o for o in own if o.pricing == "on_demand"), None)
    spot = next((o for o in own if o.pricing == "spot"), None)
    if on_demand and spot and spot.total_usd >= on_demand.total_usd:  # spot only on a bigger machine: no saving to show
        spot = None
    return [o for o in (on_demand, spot) if o is not None]


def provider_line(offers: list[Offer], gpu_id: str) -> str:
    first, *spot = offers
    form = f"{first.gpu_id} " if first.gpu_id != gpu_id else ""  # the part in another form, said
    idle = f", {number(first.idle_gpus)} GPUs paid for but idle" if first.idle_gpus else ""
    return (f"{usd(first.total_usd)} {PRICING_WORDS[first.pricing]} ({form}{first.instance_type}, "
            f"{usd(first.usd_per_gpu_hour)}/GPU-hour{idle})" + "".join(f"; spot {usd(o.total_usd)}" for o in spot))


def missing_offer(catalog: Catalog, provider: str, gpu_id: str, count: int) -> str:
    """No offer for the GPU, or none holding `count` of it in one machine."""
    sizes = [o.gpus_per_instance for o in catalog.offers_for(gpu_id) if o.provider == provider]
    if not sizes:
        return f"{provider}: no offer for {gpu_id} in the catalog"
    return f"{provider}: no machine with {count} × {gpu_id} in the catalog (its largest has {number(max(sizes))})"


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
    if result.payback_months is not None and result.payback_months <= 12 * result.years:  # past it, break-even says why
        when = f"about {number(result.payback_months, 0)} months" if result.payback_months >= 1 else "under a month"
        lines.append(f"Pays for itself in {when} at {percent(result.utilization)} "
                     "utilization, when the rent it saves has covered the purchase and the running costs (before resale)")
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
