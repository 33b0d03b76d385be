"""What to rent instead when a provider asked for rents no such GPU: the same GPU from the cheapest provider that does,
and the provider's own GPUs with at least as much memory, cheapest per GPU-hour first ('a 4090 on aws': AWS rents no
4090; RunPod does, and AWS's 24 GB cards are the L4 and the A10G)."""
from __future__ import annotations

import math

from gpusizer.catalog import Catalog, CloudOffer, GpuSpec
from gpusizer.tools.figures import usd
from gpusizer.tools.pricing import instance_usd_per_hour

MOST_LISTED = 3  # of the provider's own GPUs, the cheapest few


def hourly_for(offer: CloudOffer, count: int) -> float | None:
    """The on-demand price of an hour of `count` GPUs on this offer's machines (whole machines: idle GPUs are paid)."""
    price = instance_usd_per_hour(offer, "on_demand")
    return price * math.ceil(count / offer.gpus_per_instance) if price and offer.gpus_per_instance >= 1 else None


def machines(offer: CloudOffer, count: int) -> str:
    instances = math.ceil(count / offer.gpus_per_instance)
    return f"{instances} x {offer.instance_type}" if instances > 1 else offer.instance_type


def cheapest_by_gpu(offers: list[CloudOffer], count: int) -> dict[str, tuple[float, CloudOffer]]:
    """Each GPU's cheapest whole-GPU on-demand offer among `offers` for an hour of `count` GPUs."""
    best: dict[str, tuple[float, CloudOffer]] = {}
    for offer in offers:
        price = hourly_for(offer, count)
        if price is not None and (offer.gpu_id not in best or price < best[offer.gpu_id][0]):
            best[offer.gpu_id] = (price, offer)
    return best


def instead_of(catalog: Catalog, spec: GpuSpec, provider: str, count: int) -> str:
    """One note for `provider`, which rents no `spec` in the catalog (empty when there is nothing to offer instead)."""
    parts, job = [], f"{count} x {spec.gpu_id}" if count > 1 else spec.gpu_id
    elsewhere = cheapest_by_gpu([o for o in catalog.offers_for(spec.gpu_id) if o.provider != provider], count).get(spec.gpu_id)
    if elsewhere:
        price, offer = elsewhere
        parts.append(f"the cheapest {job} on-demand elsewhere is {offer.provider}'s at {usd(price)}/h ({machines(offer, count)})")
    own = cheapest_by_gpu([o for o in catalog.offers if o.provider == provider
                           and catalog.gpu_by_id[o.gpu_id].memory_gb >= spec.memory_gb], count)
    if own:
        listed = sorted(own.items(), key=lambda item: item[1][0])[:MOST_LISTED]
        parts.append(f"{provider}'s GPUs with at least {spec.memory_gb:g} GB" + (f" each, {count} of them: " if count > 1 else ": ")
                     + ", ".join(f"{gpu} {usd(price)}/h ({machines(offer, count)})" for gpu, (price, offer) in listed))
    return f"{provider}: rents no {spec.gpu_id} in the catalog; " + "; ".join(parts) if parts else ""


def not_rented_notes(catalog: Catalog, spec: GpuSpec, count: int, providers: frozenset[str] | None, priced: set[str]) -> list[str]:
    """For each provider asked for that priced nothing (`priced`: those that did) and rents no `spec` in any form, what
    to rent instead."""
    renting = {o.provider for part in (spec, *catalog.other_forms(spec)) for o in catalog.offers_for(part.gpu_id)}
    return [note for p in sorted((providers or frozenset()) - priced - renting) if (note := instead_of(catalog, spec, p, count))]
