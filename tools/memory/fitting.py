"""Where an estimate fits: GPUs needed on each catalog GPU, and the largest batch or context on one GPU."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NotRequired, TypedDict

from gpusizer.catalog import Catalog, GpuSpec
from gpusizer.tools.memory.breakdown import per_gpu
from gpusizer.tools.memory.engine_settings import engine_runs_on, unread_backend
from gpusizer.tools.memory.plan import Plan
from gpusizer.tools.memory.request import GpuCheck, GpuFit
from gpusizer.tools.pricing import machine_price

GPU_COUNTS = (1, 2, 4, 8, 16, 32, 64)
MAX_GPUS = GPU_COUNTS[-1]  # the largest count the fit scan tries
SEARCH_LIMIT = 10_000_000


class Layout(TypedDict):
    num_gpus: int
    tensor_parallel: int
    sharding: str
    gradient_checkpointing: NotRequired[bool]


def spread_over(workload: str, gpus: int, gradient_checkpointing: bool | None = None) -> Layout:
    """How the fit scan spreads a job over `gpus`: tensor parallel for inference; for training, as sharded runs are
    launched: ZeRO-3 (= FSDP full shard) with activation checkpointing on each decoder layer (torchtune's multi-GPU
    full_finetune_distributed configs, llama-recipes' fsdp_config fsdp_activation_checkpointing=True, axolotl's and
    the alignment handbook's FSDP/DeepSpeed recipes): the model states shrink with the GPU count, the activations do
    not. A request that says `gradient_checkpointing` itself keeps it (the layout then leaves it to the request). As
    estimate_vram arguments, so a face asking "does it fit on N GPUs" asks exactly what the scan computed."""
    if gpus <= 1:
        return {"num_gpus": 1, "tensor_parallel": 1, "sharding": "none"}
    if workload == "inference":
        return {"num_gpus": gpus, "tensor_parallel": gpus, "sharding": "none"}
    if gradient_checkpointing is not None:
        return {"num_gpus": gpus, "tensor_parallel": 1, "sharding": "zero3"}
    return {"num_gpus": gpus, "tensor_parallel": 1, "sharding": "zero3", "gradient_checkpointing": True}


def laid_out(plan: Plan, layout: Layout) -> Plan:
    """The plan with the layout's checkpointing (the scan's sharded training runs checkpoint each layer)."""
    settings = plan.training
    wanted = layout.get("gradient_checkpointing")
    if settings is None or wanted is None or settings.gradient_checkpointing == wanted:
        return plan
    return replace(plan, training=settings.model_copy(update={"gradient_checkpointing": wanted}))


def total_for(plan: Plan, batch: int, seq: int, gpus: int | None = None) -> int:
    """Per-GPU peak; with `gpus`, spread the way the fit scan does (`spread_over`)."""
    r = plan.request
    layout: Layout = spread_over(r.workload, gpus, r.gradient_checkpointing) if gpus is not None else \
        {"num_gpus": r.num_gpus, "tensor_parallel": r.tensor_parallel, "sharding": r.sharding}
    breakdown, _ = per_gpu(laid_out(plan, layout), batch, seq, layout["num_gpus"], layout["tensor_parallel"], layout["sharding"])
    return sum(breakdown.model_dump().values())


def candidate_gpu_counts(plan: Plan) -> list[int]:
    """GPU counts the fit scan tries: tensor parallelism must split the attention heads evenly."""
    r = plan.request
    return [n for n in GPU_COUNTS if r.workload == "training" or plan.arch.num_attention_heads % n == 0]


def gpus_needed(plan: Plan, usable_bytes: int) -> int | None:
    """Fewest GPUs of this memory that hold the job (None: not even 64)."""
    r = plan.request
    return next((n for n in candidate_gpu_counts(plan) if total_for(plan, r.batch_size, r.seq_len, n) <= usable_bytes), None)


def sizes_from_free_memory(plan: Plan) -> bool:
    """Whether some buffer of this job is sized from the GPU's free memory (Unsloth's fused loss): its peak on a named
    GPU includes it, but it never decides whether the job fits (it takes only part of what is free)."""
    s = plan.training
    return bool(s and s.loss == "fused" and s.fused.free_fraction)


def on_gpu(plan: Plan, gpu: GpuSpec) -> Plan:
    return replace(plan, gpu_bytes=gpu.usable_memory_bytes) if sizes_from_free_memory(plan) else plan


XLA_ONLY = {"Google": "TPUs run PyTorch through torch_xla or JAX", "AWS": "Trainium runs PyTorch through the Neuron SDK"}


def stack_note(plan: Plan, gpu: GpuSpec) -> str | None:
    """Why the software this job needs does not run on this GPU as estimated, or None where it does."""
    r = plan.request
    if plan.weights_dtype == "nf4" and gpu.vendor != "NVIDIA":
        return "bitsandbytes' NF4 (QLoRA) runs on NVIDIA GPUs"
    if r.engine != "hf" and not engine_runs_on(r.engine, gpu.vendor):
        return unread_backend(r.engine, gpu.vendor)
    if gpu.vendor in XLA_ONLY:
        return f"{XLA_ONLY[gpu.vendor]}, not as transformers' own loop: memory differs"
    return None


def most_gpus(gpu: GpuSpec, workload: str) -> int:
    """The most of this GPU one inference job spans: tensor parallelism (and llama.cpp's layer split) runs inside one
    machine, which holds NODE_GPUS PCIe cards at most, and one system-on-chip (an Apple Mac) is a machine of one; only
    parts built into scale-out nodes (SXM, OAM, superchips, cloud accelerators with their own fabric) go across machines,
    over an InfiniBand/NVLink-class network. Training (ZeRO-3 / FSDP over data-parallel ranks) is not limited here."""
    form = gpu.form_factor.lower()
    if workload != "inference" or gpu.memory_bandwidth_gbps is None:  # a GPU known only by its memory size: as asked
        return MAX_GPUS
    if "soc" in form:
        return 1
    return NODE_GPUS if form.startswith("pcie") or gpu.interconnect.lower() in ("pcie only", "none") else MAX_GPUS


def fits_across_catalog(plan: Plan, catalog: Catalog) -> list[GpuFit]:
    r = plan.request
    counts = candidate_gpu_counts(plan)
    needed_bytes = {n: total_for(plan, r.batch_size, r.seq_len, n) for n in counts}
    checkpointing = r.gradient_checkpointing is not False
    fits = []
    for gpu in catalog.gpus:
        n = next((n for n in counts if needed_bytes[n] <= gpu.usable_memory_bytes and n <= most_gpus(gpu, r.workload)), None)
        if n is not None:
            price = machine_price(catalog, gpu.gpu_id, n, "on_demand")
            machine = int(price.offer.gpus_per_instance) if price else NODE_GPUS
            fits.append(GpuFit(gpu_id=gpu.gpu_id, gpus_needed=n, per_gpu_bytes=needed_bytes[n], usable_bytes=gpu.usable_memory_bytes,
                               note=split_of(r.workload, n, checkpointing, machine) if n > 1 else None,
                               usd_per_hour=round(price.usd_per_hour, 4) if price else None,
                               provider=price.offer.provider if price else None,
                               instance_type=price.offer.instance_type if price else None, stack_note=stack_note(plan, gpu)))
    return sorted(fits, key=lambda f: (f.gpus_needed, f.usable_bytes, f.gpu_id))


def largest_fitting(fits: Callable[[int], bool], ceiling: int, start: int = 1) -> int | None:
    """Largest n in [1, ceiling] with fits(n), for memory that grows with n: gallops from `start` (the request's own
    value, usually near the answer) up or down by doubling, then bisects."""
    low = min(max(1, start), ceiling)
    if fits(low):
        high = low * 2
        while high <= ceiling and fits(high):
            low, high = high, high * 2
        high = min(high, ceiling + 1)
    else:
        high = low
        low //= 2
        while low >= 1 and not fits(low):
            high, low = low, low // 2
        if low < 1:
            return None
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def check_on_gpu(plan: Plan, gpu: GpuSpec, total: int) -> GpuCheck:
    r, usable = plan.request, gpu.usable_memory_bytes
    needed, plan = total, on_gpu(plan, gpu)
    if sizes_from_free_memory(plan):
        total = total_for(plan, r.batch_size, r.seq_len)
    max_batch = largest_fitting(lambda b: total_for(plan, b, r.seq_len) <= usable, SEARCH_LIMIT, r.batch_size)
    context_limit = plan.arch.max_position_embeddings
    by_memory = largest_fitting(lambda s: total_for(plan, r.batch_size, s) <= usable, SEARCH_LIMIT, r.seq_len)
    max_seq = None if by_memory is None else min(by_memory, max(context_limit, r.seq_len))
    notes = []
    if by_memory is not None and by_memory > context_limit:
        notes.append(f"memory allows {by_memory:,} tokens, more than the model's {context_limit:,}-token context window; "
                     "max_seq_len is capped there")
    if r.num_gpus > 1:
        notes.append(f"figures are per GPU with the request's {r.num_gpus} GPUs")
    count = gpus_needed(plan, usable)
    split = None if count is None else split_of(r.workload, count, r.gradient_checkpointing is not False)
    return GpuCheck(gpu_id=gpu.gpu_id, name=gpu.name, fits=needed <= usable, per_gpu_bytes=total, usable_bytes=usable,
                    headroom_bytes=usable - total, max_batch_size=max_batch, max_seq_len=max_seq,
                    max_seq_len_by_memory=by_memory, gpus_needed=count, split=split, notes=notes)


NODE_GPUS = 8  # an HGX/DGX-style server: where no offer says its size, a sharded job past 8 GPUs spans such machines


def split_of(workload: str, gpus: int, checkpointing: bool = True, machine_gpus: int = NODE_GPUS) -> str:
    """How the fit scan spreads a job over `gpus` (spread_over), in words: a training job past one machine of
    `machine_gpus` runs across machines (ZeRO-3 / FSDP shard over every rank of the job)."""
    if gpus == 1:
        return "one GPU"
    machines = -(-gpus // max(1, machine_gpus))
    if workload == "inference":
        return (f"tensor parallel over {gpus} GPUs in one machine" if machines == 1 else f"{machines} machines of "
                f"{machine_gpus}: tensor parallel inside each, pipeline parallel across them (an InfiniBand-class network)")
    where = "in one machine" if machines == 1 else f"across {machines} machines of {machine_gpus}"
    return f"ZeRO-3 / FSDP over {gpus} GPUs{' with gradient checkpointing' if checkpointing else ''}, {where}"
