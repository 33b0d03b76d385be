"""What to rent instead when a provider asked for rents no such GPU: the same GPU from the cheapest provider that does,
and the provider's own GPUs with at least as much memory, cheapest per GPU-hour first ('a 4090 on aws': AWS rents no
4090; RunPod does, and AWS's 24 GB cards are the L4 and the A10G)."""
from __future__ import annotations

from gpusizer.catalog import Catalog, GpuSpec
from gpusizer.tools.figures import usd
from gpusizer.tools.pricing import JobPrice, job_options, machine_choice

MOST_LISTED = 3  # of the provider's own GPUs, the cheapest few


def job_on(catalog: Catalog, gpu_id: str, count: int, provider: str | None = None,
           skip: str | None = None) -> JobPrice | None:
    """An hour of `count` GPUs on-demand from `provider` (or any but `skip`), by cloud_cost's machine rule: one machine
    holding them all, else the largest machines combined (whole machines: idle GPUs are paid)."""
    def of(one_machine: bool) -> list[JobPrice]:
        return [p for p in job_options(catalog, gpu_id, count, "on_demand", one_machine, None)
                if p.offer.provider != skip and provider in (None, p.offer.provider)]
    return machine_choice(of(True), of(False))


def machines(job: JobPrice) -> str:
    return f"{job.instances} x {job.offer.instance_type}" if job.instances > 1 else job.offer.instance_type


def instead_of(catalog: Catalog, spec: GpuSpec, provider: str, count: int) -> str:
    """One note for `provider`, which rents no `spec` in the catalog (empty when there is nothing to offer instead)."""
    parts, job = [], f"{count} x {spec.gpu_id}" if count > 1 else spec.gpu_id
    if elsewhere := job_on(catalog, spec.gpu_id, count, skip=provider):
        parts.append(f"the cheapest {job} on-demand elsewhere is {elsewhere.offer.provider}'s at "
                     f"{usd(elsewhere.usd_per_hour)}/h ({machines(elsewhere)})")
    own = [found for gpu_id in sorted({o.gpu_id for o in catalog.offers if o.provider == provider
                                       and catalog.gpu_by_id[o.gpu_id].memory_gb >= spec.memory_gb})
           if (found := job_on(catalog, gpu_id, count, provider))]
    if own:
        listed = sorted(own, key=lambda j: j.usd_per_hour)[:MOST_LISTED]
        parts.append(f"{provider}'s GPUs with at least {spec.memory_gb:g} GB" + (f" each, {count} of them: " if count > 1 else ": ")
                     + ", ".join(f"{j.offer.gpu_id} {usd(j.usd_per_hour)}/h ({machines(j)})" for j in listed))
    return f"{provider}: rents no {spec.gpu_id} in the catalog; " + "; ".join(parts) if parts else ""


def not_rented_notes(catalog: Catalog, spec: GpuSpec, count: int, providers: frozenset[str] | None, priced: set[str]) -> list[str]:
    """For each provider asked for that priced nothing (`priced`: those that did) and rents no `spec` in any form, what
    to rent instead."""
    renting = {o.provider for part in (spec, *catalog.other_forms(spec)) for o in catalog.offers_for(part.gpu_id)}
    return [note for p in sorted((providers or frozenset()) - priced - renting) if (note := instead_of(catalog, spec, p, count))]
