"""What to buy to run a job in house: the machines that hold it, from the fit search's counts and the catalog's prices.

Data-centre parts built into scale-out nodes (SXM, OAM) are bought as 8-GPU servers, so a job that needs 4 of them
takes one server and one that needs 16 takes two, joined by an InfiniBand-class network; PCIe cards go into one
machine of up to 8 (fitting.most_gpus). Cloud-only accelerators (TPUs, Trainium, AWS's A10G) cannot be bought, and
rack-scale superchips (NVL72) are no server of 8.
"""
from __future__ import annotations

from typing import Any

from gpusizer.catalog import Catalog, GpuSpec, SizingError
from gpusizer.tools.figures import gib, usd
from gpusizer.tools.memory import fitting
from gpusizer.tools.memory.answer import roomy
from gpusizer.tools.memory.biggest import LOCAL_FORMAT
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.request import GpuFit

SHOWN = 6


def sold_in_nodes(gpu: GpuSpec) -> bool:
    return fitting.most_gpus(gpu, "inference") == fitting.MAX_GPUS


def buyable(gpu: GpuSpec) -> bool:
    """Sold to put in a machine of one's own: not rented only, nor only as a 72-GPU rack (GB200/GB300 NVL72)."""
    form = gpu.form_factor.lower()
    return not ("cloud-only" in form or "aws-only" in form or "rack" in form)


def machines_of(fit: GpuFit, gpu: GpuSpec) -> tuple[int, int]:
    """(GPUs bought, machines): node parts by whole 8-GPU servers, PCIe cards as many as the job needs."""
    if not sold_in_nodes(gpu):
        return fit.gpus_needed, 1
    nodes = -(-fit.gpus_needed // fitting.NODE_GPUS)
    return (nodes * fitting.NODE_GPUS if fit.gpus_needed > 1 else 1), nodes


def in_house_answer(catalog: Catalog, fits: list[GpuFit], arguments: dict[str, Any], budget_usd: float | None = None) -> str:
    """'Run X in house: what GPUs and how many?': one card where one holds it, cheapest first; a job that needs several
    GPUs on every card, the 8-GPU servers of scale-out parts first (fewest servers, then price: tensor parallelism wants
    their NVLink/Infinity Fabric), then PCIe machines; and the node part one server of falls short, by how much. With a
    budget to buy, what is within it; none as released and no format named: as the 4-bit file local runners load.
    `arguments` are estimate_vram's for the job."""
    options = ranked(catalog, fits)
    if budget_usd is None:
        lead = "one card" if any(o[0].gpus_needed == 1 for o in options) else "one machine"
        return (f"To run it in house ({lead} first; catalog purchase prices, GPUs only): {listed(options)}."
                + short_of_one_server(catalog, fits, arguments))
    within = [o for o in options if o[4] is not None and o[4] <= budget_usd]
    if within:
        return f"Within your {usd(budget_usd)} to buy (catalog purchase prices, GPUs only; one card first): {listed(within)}."
    if arguments.get("weights_dtype") is None and arguments.get("workload") in (None, "inference"):
        local = estimate_vram(**{**given(arguments), "weights_dtype": LOCAL_FORMAT}, catalog=catalog)
        return (f"As released, no card that holds it is within your {usd(budget_usd)}; as the 4-bit file local runners load "
                f"({LOCAL_FORMAT}) it needs {gib(local.total_bytes)}. "
                + in_house_answer(catalog, roomy(local.fits), {**arguments, "weights_dtype": LOCAL_FORMAT}, budget_usd))
    priced = [o for o in options if o[4] is not None]
    return f"No card that holds it is within your {usd(budget_usd)} to buy; the cheapest: {listed(priced) or 'none priced'}."


Option = tuple[GpuFit, GpuSpec, int, int, float | None]  # the fit, the GPU, GPUs bought, machines, their price


def ranked(catalog: Catalog, fits: list[GpuFit]) -> list[Option]:
    options: list[Option] = []
    for fit in fits:
        gpu = catalog.find_gpu(fit.gpu_id)
        if buyable(gpu) and gpu.vendor != "Apple" and not fit.stack_note:
            bought, nodes = machines_of(fit, gpu)
            each = gpu.node_usd_per_gpu or gpu.purchase_usd
            options.append((fit, gpu, bought, nodes, each * bought if each else None))
    single = any(o[0].gpus_needed == 1 for o in options)
    return sorted(options, key=lambda o: (o[3], o[0].gpus_needed > 1 if single else not sold_in_nodes(o[1]), o[4] is None,
                                          o[0].gpus_needed, o[4] or 0, o[0].gpu_id))  # fewest cards, then cheapest


def listed(options: list[Option]) -> str:
    return "; ".join(f"{bought} × {gpu.gpu_id}" + (f" ({'one server' if nodes == 1 else f'{nodes} servers'} of 8"
                                                    + (f"; {fit.gpus_needed} hold it" if fit.gpus_needed < bought else "") + ")"
                                                    if sold_in_nodes(gpu) and bought > 1 else "")
                     + (f": {usd(price)}" if price else ": no purchase price in the catalog")
                     for fit, gpu, bought, nodes, price in options[:SHOWN]) or "nothing the catalog sells"


def given(arguments: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in arguments.items() if v is not None}


def short_of_one_server(catalog: Catalog, fits: list[GpuFit], arguments: dict[str, Any]) -> str:
    """The largest node part one 8-GPU server of does not hold the job: what it needs per GPU there, and what it takes."""
    short = [(catalog.find_gpu(f.gpu_id), f) for f in fits if f.gpus_needed > fitting.NODE_GPUS]
    short = [(gpu, f) for gpu, f in short if sold_in_nodes(gpu) and buyable(gpu)]
    if not short:
        return ""
    gpu, fit = max(short, key=lambda s: (s[0].usable_memory_bytes, s[0].launch_year))
    try:
        check = estimate_vram(**{**given(arguments), "gpu": gpu.gpu_id, "num_gpus": fitting.NODE_GPUS,
                                 "tensor_parallel": fitting.NODE_GPUS}, catalog=catalog).gpu_check
    except SizingError:
        return ""
    if check is None or check.fits:
        return ""
    return (f" One server of 8 × {gpu.gpu_id} falls short: it needs {gib(check.per_gpu_bytes)} per GPU there, which has "
            f"{gib(check.usable_bytes)} usable; it takes {fit.gpus_needed} ({-(-fit.gpus_needed // fitting.NODE_GPUS)} servers), "
            "or a smaller format (4-bit) on one.")
