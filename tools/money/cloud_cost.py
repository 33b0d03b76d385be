"""cloud_cost: every catalog offer that can run a job of N GPUs for H hours, cheapest first."""
from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any, Literal, Unpack

from pydantic import BaseModel, ConfigDict, Field

from gpusizer.catalog import Catalog, CloudOffer, GpuSpec, Provider, SizingError, load_catalog
from gpusizer.tools.alternatives import with_alternatives
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.fitting import MAX_GPUS, gpus_needed
from gpusizer.tools.memory.plan import build_plan
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.memory.workload import WORKLOAD_FIELDS, WorkloadArguments, workload_of
from gpusizer.tools.money.alternatives import CostAlternative, cost_alternatives
from gpusizer.tools.money.elsewhere import not_rented_notes
from gpusizer.tools.pricing import (
    HOURS_PER_YEAR,
    SPOT_FLOOR,
    billed_hours,
    in_jurisdiction,
    known_providers,
    price_age,
    price_class,
    spot_price_doubt,
)
from gpusizer.tools.validation import NAME_LIMIT, Jurisdiction, Name, declared_by, parse_request

Pricing = Literal["on_demand", "spot"]


class CloudCostRequest(BaseModel):
    model_config = ConfigDict(extra="allow")  # extras: an estimate_vram workload, checked in cloud_cost

    gpu: str = Field(max_length=NAME_LIMIT, description="GPU name or alias ('h100', 'rtx 4090')")
    gpu_count: int | None = Field(default=None, ge=1, le=100_000, description="GPUs needed (default 1, or what the workload needs)")
    hours: float = Field(gt=0, le=1_000_000, description="wall-clock hours")
    pricing: Literal["on_demand", "spot", "both"] = Field(default="both", description="which prices to list")
    providers: list[Name] | None = Field(default=None, max_length=50, description="only these providers ('aws', 'lambda')")
    region: str | None = Field(default=None, max_length=NAME_LIMIT, description="only regions containing this ('us-east')")
    jurisdiction: Jurisdiction | None = Field(default=None, description="only offers under this data law or country: "
                                     "EU, EEA, US, UK, CA, JP, IN...")
    single_instance: bool | None = Field(default=None, description="false: also split over smaller machines; default: "
                                         "one machine where one holds all the GPUs")
    spot_interruptions_per_hour: float = Field(default=0.0, ge=0, le=10, description="expected spot preemptions per hour")
    hours_lost_per_interruption: float = Field(default=0.5, ge=0, le=24, description="hours lost per preemption")
    checkpoint_overhead_fraction: float = Field(default=0.0, ge=0, le=1, description="share of spot time spent checkpointing")
    storage_gb_months: float = Field(default=0.0, ge=0, le=1e9, description="storage to price, in GB-months")
    egress_gb: float = Field(default=0.0, ge=0, le=1e9, description="internet egress to price, in GB")
    storage_usd_per_gb_month: float | None = Field(default=None, ge=0, le=100, description="override providers' storage price")
    egress_usd_per_gb: float | None = Field(default=None, ge=0, le=100, description="override providers' egress price")


class Offer(BaseModel):
    provider: str
    instance_type: str
    region: str
    gpu_id: str
    gpus_per_instance: float
    instances: int
    idle_gpus: float
    pricing: Pricing
    offer_class: str = Field(default="datacenter", description="datacenter, marketplace or spot")
    machine_gpus: int | None = None
    interconnect: str = ""
    usd_per_hour: float = Field(description="one instance")
    usd_per_gpu_hour: float
    billed_hours: float
    total_usd: float = Field(description="instances x usd_per_hour x billed_hours")
    storage_usd: float | None = Field(default=None, description="storage_gb_months x the provider's price; null where unknown")
    egress_usd: float | None = Field(default=None, description="egress_gb x the provider's price; null where unknown")
    all_in_usd: float | None = Field(default=None, description="total_usd + storage_usd + egress_usd; null where a price is unknown")
    as_of: str = Field(description="when the provider priced it (ISO date, or an interval when only bounds are known)")
    price_date: str = Field(description="the same as as_of")
    checked: str = Field(description="when gpusizer read the price")
    stale: bool = Field(description="price older than 90 days")
    price_date_uncertain: bool = Field(description="the price date is only known to lie in an interval reaching past 90 days")
    spot_zone: str = ""
    country: str = ""
    jurisdiction: str = ""
    price_warning: str = Field(default="", description="why this spot price is in doubt (listed only for pricing='spot', "
                               "after the sound offers); empty when the price passed the check")
    source: str


class CloudCost(BaseModel):
    gpu_id: str
    gpu_count: int
    hours: float
    offers: list[Offer]
    notes: list[str]
    alternatives: list[CostAlternative] = Field(default=[], description="changes that need fewer GPUs, priced")


@declared_by(CloudCostRequest, "cloud_cost", extra=WORKLOAD_FIELDS)
def cloud_cost(gpu: str, *, hours: float, gpu_count: int | None = None, pricing: Literal["on_demand", "spot", "both"] = "both",
               providers: list[str] | None = None, region: str | None = None, jurisdiction: str | None = None,
               single_instance: bool | None = None,
               spot_interruptions_per_hour: float = 0.0, hours_lost_per_interruption: float = 0.5,
               checkpoint_overhead_fraction: float = 0.0, storage_gb_months: float = 0.0, egress_gb: float = 0.0,
               storage_usd_per_gb_month: float | None = None, egress_usd_per_gb: float | None = None,
               catalog: Catalog | None = None, **workload: Unpack[WorkloadArguments]) -> CloudCost:
    """Every catalog cloud offer that can run gpu_count GPUs (or, given a workload, as many as it needs) for `hours`
    of wall-clock time, cheapest first: whole instances, idle GPUs, billing increments, spot, storage and egress.
    Raises SizingError on bad input."""
    arguments = {name: value for name, value in locals().items() if name not in ("catalog", "workload")}
    catalog = catalog or load_catalog()
    request = parse_request(CloudCostRequest, {**arguments, **workload}, "cloud_cost")
    riders = workload_of(request, "cloud_cost", list(CloudCostRequest.model_fields))
    match = catalog.resolve_gpu(request.gpu)
    spec = match.gpu
    notes = [match.note] if match.note else []
    if riders:
        request.gpu_count = request.gpu_count or gpus_for_workload(riders, spec, catalog, notes)
    request.gpu_count = request.gpu_count or 1
    candidates = [o for o in catalog.offers_for(spec.gpu_id) if o.gpus_per_instance >= 1]
    if len(candidates) < len(catalog.offers_for(spec.gpu_id)):
        notes.append("offers that sell a fraction of one GPU are left out: they cannot be combined into whole GPUs")
    if not candidates:
        known = sorted({o.gpu_id for o in catalog.offers})
        raise SizingError(f"no cloud offer for {spec.gpu_id} in the catalog; GPUs with offers: {', '.join(known)} "
                          "(add your own rows in offers.csv of the user catalog folder)")
    candidates = machine_rule(filter_offers(candidates, request, catalog), request, notes)
    pricings: list[Pricing] = ["on_demand", "spot"] if request.pricing == "both" else [request.pricing]
    spot_hours = request.hours * (1 + request.checkpoint_overhead_fraction) * (
        1 + request.spot_interruptions_per_hour * request.hours_lost_per_interruption)
    if "spot" in pricings and spot_hours > request.hours:
        notes.append(f"spot wall-clock grows from {request.hours:g} h to {spot_hours:.2f} h: "
                     f"{request.checkpoint_overhead_fraction:.0%} checkpointing, {request.spot_interruptions_per_hour:g} "
                     f"interruptions per hour losing {request.hours_lost_per_interruption:g} h each")
    elif "spot" in pricings:
        notes.append("spot totals assume no interruptions; pass spot_interruptions_per_hour and checkpoint_overhead_fraction "
                     "to price them in")
    doubts = {o.offer_id: doubt for o in candidates if "spot" in pricings and (doubt := spot_price_doubt(o))}
    listed = request.pricing == "spot"  # a doubtful spot price is set aside unless spot alone was asked for
    offers = [priced(o, p, request, catalog, spot_hours if p == "spot" else request.hours,
                     doubts.get(o.offer_id, "") if p == "spot" else "")
              for o in candidates for p in pricings if o.usd_per_hour(p) and (p != "spot" or listed or o.offer_id not in doubts)]
    if request.providers and not match.exact and offers:  # 'A100 80GB on runpod vs lambda': each provider's own form
        offers += other_forms_by_provider(arguments, workload, spec, catalog, offers, notes, every=match.note is None)
    if request.providers and match.note and not riders:  # 'an A100 on Lambda': the family, not only its usual part
        offers += family_parts_by_provider(arguments, spec, catalog, offers, notes)
    offers.sort(key=lambda o: (bool(o.price_warning), o.total_usd, o.provider, o.instance_type))
    if doubts:
        notes.append(doubt_note(doubts, candidates, listed))
    if any(o.stale for o in offers):
        notes.append("some prices are older than 90 days (stale=true): check the provider's page before relying on them")
    if any(o.price_date_uncertain for o in offers):
        notes.append("some price dates are only bounded (as_of start/end; '..' when the start is unknown) and may be older "
                     "than 90 days (price_date_uncertain=true); gpusizer catalog update refreshes them when online")
    unbilled = sorted({o.provider for o in offers if catalog.provider_by_id[o.provider].billing_increment_seconds is None})
    if unbilled:
        notes.append(f"no published billing increment for {', '.join(unbilled)}: billed per second with no minimum")
    if not offers:
        largest = max(o.gpus_per_instance for o in catalog.offers_for(spec.gpu_id))
        which = "" if request.pricing == "both" else request.pricing.replace("_", "-") + " "
        notes.append(f"no {which}price for {spec.gpu_id} with these filters"
                     + (f" (the largest {spec.gpu_id} instance has {largest:g} GPUs)" if request.single_instance else ""))
    notes += extras_notes(request, offers)
    if any(o.instances > 1 for o in offers):
        notes.append("offers that need several instances split the job across machines: fine for data parallel or separate "
                     "jobs, not for tensor parallel, which wants all its GPUs in one NVLink domain (single_instance=true "
                     "keeps only instances that hold them all)")
    if not offers and not match.exact and (other := in_another_form(arguments, workload, spec, catalog)):
        return other
    wanted = known_providers(catalog, request.providers)
    notes[:0] = not_rented_notes(catalog, spec, request.gpu_count or 1, wanted, {o.provider for o in offers})  # the fix first
    result = CloudCost(gpu_id=spec.gpu_id, gpu_count=request.gpu_count or 1, hours=request.hours, offers=offers, notes=notes)
    return with_alternatives(result, lambda: cost_alternatives(
        arguments, riders, result.gpu_id, result.gpu_count, offers[0].total_usd if offers else None,
        functools.partial(cloud_cost, catalog=catalog), catalog))


def as_named(catalog: Catalog, words: str, gpu_id: str) -> str:
    """A GPU as a question named it ('a100 80gb', which RunPod rents in its PCIe form), where the catalog reads those words
    as `gpu_id`; else the id ('h100s' is read in free text, not as an argument)."""
    try:
        return words if catalog.resolve_gpu(words).gpu.gpu_id == gpu_id else gpu_id
    except SizingError:
        return gpu_id


def in_another_form(arguments: dict[str, Any], workload: WorkloadArguments, spec: GpuSpec, catalog: Catalog) -> CloudCost | None:
    """'A100 80GB on RunPod' where RunPod rents only the PCIe part: that part's offers, saying so, rather than none."""
    for part in (p for p in catalog.other_forms(spec) if catalog.offers_for(p.gpu_id)):
        found = cloud_cost(**{**arguments, "gpu": part.gpu_id}, catalog=catalog, **workload)
        if found.offers:
            said = (f"'{arguments['gpu']}' read as {part.gpu_id} ({part.name}): no {spec.gpu_id} offer matches these "
                    f"filters, and this is the same GPU memory in another form")
            return found.model_copy(update={"notes": [said, *found.notes]})
    return None


def other_forms_by_provider(arguments: dict[str, Any], workload: WorkloadArguments, spec: GpuSpec, catalog: Catalog,
                            offers: list[Offer], notes: list[str], every: bool = False) -> list[Offer]:
    """Of the providers asked about, each with no offer of the part read gets its offers of the part in another form
    ('A100 80GB' at RunPod, which rents the PCIe one, beside Lambda's SXM), saying so. With `every` (a name of the
    memory, not the form: 'A100 80GB'), every provider's other forms are weighed too: Azure's 4-GPU PCIe machine beats
    its 8-GPU SXM one with 4 idle for '4x A100 80GB'."""
    found: list[Offer] = []
    priced = {o.provider for o in offers}
    for provider in dict.fromkeys(p.lower() for p in arguments["providers"] if every or p.lower() not in priced):
        other = in_another_form({**arguments, "providers": [provider]}, workload, spec, catalog)
        if other:
            found += other.offers
            notes.append(f"{provider}: " + (other.notes[0] if provider not in priced else
                         f"'{arguments['gpu']}' names no form: {other.gpu_id} offers priced beside {spec.gpu_id}"))
    return found


def family_parts_by_provider(arguments: dict[str, Any], spec: GpuSpec, catalog: Catalog, offers: list[Offer],
                             notes: list[str]) -> list[Offer]:
    """'What does Lambda charge for an A100?': the family's name was read as its usual part (the 80GB SXM), which Lambda
    rents only as 8-GPU machines; where a provider asked about rents that part only with idle GPUs for the count (or not
    at all), its offers of the family's other parts that hold the job with none idle are priced beside, saying so."""
    found: list[Offer] = []
    for provider in dict.fromkeys(p.lower() for p in arguments["providers"]):
        if any(o.provider == provider and not o.idle_gpus for o in offers):
            continue
        for part in (g for g in catalog.gpus if g.family == spec.family and g.memory_gb != spec.memory_gb):
            if not [o for o in catalog.offers_for(part.gpu_id) if o.provider == provider]:
                continue
            whole = [o for o in cloud_cost(**{**arguments, "gpu": part.gpu_id, "providers": [provider]}, catalog=catalog).offers
                     if not o.idle_gpus]
            if whole:
                found += whole
                notes.append(f"{provider}: '{arguments['gpu']}' also names the {part.name} ({part.gpu_id}), which {provider} "
                             f"rents with no idle GPU for this job: priced beside {spec.gpu_id}")
    return found


def filter_offers(offers: list[CloudOffer], request: CloudCostRequest, catalog: Catalog) -> list[CloudOffer]:
    wanted = known_providers(catalog, request.providers)
    if wanted:
        offers = [o for o in offers if o.provider in wanted]
    if request.region:
        offers = [o for o in offers if request.region.lower() in o.region.lower()]
    if request.jurisdiction:
        offers = [o for o in offers if in_jurisdiction(o, request.jurisdiction)]
    return offers


def machine_rule(offers: list[CloudOffer], request: CloudCostRequest, notes: list[str]) -> list[CloudOffer]:
    """A job of several GPUs runs in one machine when any machine holds them all (tensor parallelism and sharded training
    want one NVLink domain); where none does, on the largest machines combined. single_instance overrides both ways."""
    count = request.gpu_count or 1
    if request.single_instance is False or count == 1 or not offers:
        return offers
    whole = [o for o in offers if o.gpus_per_instance >= count]
    if whole or request.single_instance:
        if request.single_instance is None and len(whole) < len(offers):
            notes.append(f"only machines holding all {count} GPUs are priced (tensor parallelism and sharded training need "
                         "one NVLink domain); single_instance=false adds jobs split over smaller machines")
        return whole
    largest = max(o.gpus_per_instance for o in offers)
    notes.append(f"no {offers[0].gpu_id} machine holds {count} GPUs: priced on the largest machines ({largest:g} GPUs each) "
                 "combined, as a multi-node job runs; single_instance=false adds smaller machines")
    return [o for o in offers if o.gpus_per_instance == largest]


def doubt_note(doubts: dict[str, str], offers: list[CloudOffer], listed: bool) -> str:
    """Which spot prices failed the price check, and what was done with them."""
    named = "; ".join(f"{o.provider} {o.instance_type} ({o.region}): {doubts[o.offer_id]}" for o in offers if o.offer_id in doubts)
    if listed:
        return f"spot prices in doubt (a stale or mistyped row?), listed last with price_warning: {named}"
    return (f"spot prices set aside (above on-demand, or below {SPOT_FLOOR:.0%} of it: a stale or mistyped row): {named}; "
            "pricing='spot' lists them, flagged")


def priced(offer: CloudOffer, pricing: Pricing, request: CloudCostRequest, catalog: Catalog, hours: float,
           warning: str = "") -> Offer:
    gpu_count = request.gpu_count or 1
    instances = math.ceil(gpu_count / offer.gpus_per_instance)
    hourly = offer.usd_per_hour(pricing) or 0.0
    billed = billed_hours(hours, catalog.provider_by_id[offer.provider])
    age = price_age(offer)
    return Offer(provider=offer.provider, instance_type=offer.instance_type, region=offer.region, gpu_id=offer.gpu_id,
                 gpus_per_instance=offer.gpus_per_instance, instances=instances,
                 idle_gpus=instances * offer.gpus_per_instance - gpu_count, pricing=pricing,
                 offer_class=price_class(catalog, offer, pricing), machine_gpus=offer.machine_gpus,
                 interconnect=offer.interconnect, usd_per_hour=hourly,
                 usd_per_gpu_hour=hourly / offer.gpus_per_instance, billed_hours=billed,
                 total_usd=instances * hourly * billed, as_of=offer.as_of, price_date=offer.as_of,
                 checked=offer.checked.isoformat(), stale=age.stale, price_date_uncertain=age.uncertain,
                 spot_zone=offer.spot_zone if pricing == "spot" else "", country=offer.country, jurisdiction=offer.jurisdiction,
                 price_warning=warning, source=offer.source,
                 **extras(request, catalog.provider_by_id[offer.provider], instances * hourly * billed))


def extras(request: CloudCostRequest, provider: Provider, compute_usd: float) -> dict[str, float | None]:
    """Storage and egress at the provider's prices (or the caller's), and the all-in total when both are known."""
    storage_price = first_known(request.storage_usd_per_gb_month, provider.storage_usd_per_gb_month)
    egress_price = first_known(request.egress_usd_per_gb, provider.egress_usd_per_gb)
    storage = 0.0 if not request.storage_gb_months else (None if storage_price is None else request.storage_gb_months * storage_price)
    billable = max(0.0, request.egress_gb - (0.0 if request.egress_usd_per_gb is not None else free_egress_gb(request, provider)))
    egress = 0.0 if not billable else (None if egress_price is None else billable * egress_price)
    all_in = None if storage is None or egress is None else compute_usd + storage + egress
    return {"storage_usd": storage, "egress_usd": egress, "all_in_usd": all_in}


def free_egress_gb(request: CloudCostRequest, provider: Provider) -> float:
    """The provider's free monthly egress, over the months the job spans (at least one)."""
    months = max(1, math.ceil(request.hours / (HOURS_PER_YEAR / 12)))
    return provider.egress_free_gb_per_month * months


def first_known(*values: float | None) -> float | None:
    return next((v for v in values if v is not None), None)


def extras_notes(request: CloudCostRequest, offers: list[Offer]) -> list[str]:
    if not (request.storage_gb_months or request.egress_gb):
        return []
    notes = [f"storage {request.storage_gb_months:g} GB-months and egress {request.egress_gb:g} GB priced per provider "
             "(providers.csv: first pricing tier, after the provider's free monthly egress); all_in_usd adds them to the "
             "compute total"]
    unpriced = sorted({o.provider for o in offers if o.all_in_usd is None})
    if unpriced:
        notes.append(f"no storage or egress price for {', '.join(unpriced)}: pass storage_usd_per_gb_month / egress_usd_per_gb")
    priced = [o for o in offers if o.all_in_usd is not None]
    if priced:
        best = min(priced, key=lambda o: o.all_in_usd or 0.0)
        notes.append(f"cheapest all-in: {best.provider} {best.instance_type} ({best.pricing}) at ${best.all_in_usd:,.2f}")
    return notes


def gpus_for_workload(workload: Mapping[str, Any], gpu: GpuSpec, catalog: Catalog, notes: list[str]) -> int:
    """How many of this GPU the workload needs (estimate_vram's fit search), with a note saying so."""
    estimate_vram(catalog=catalog, **workload)  # validates the workload with estimate_vram's own messages
    plan = build_plan(VramRequest(**workload), catalog)
    needed = gpus_needed(plan, gpu.usable_memory_bytes)
    if needed is None:
        raise SizingError(f"cloud_cost: {plan.arch.model_id} does not fit on up to {MAX_GPUS} x {gpu.gpu_id}; pick a larger GPU")
    notes.append(f"gpu_count {needed}: the fewest {gpu.gpu_id} that hold {plan.arch.model_id} ({workload.get('workload', 'inference')}) "
                 "per estimate_vram")
    return needed
