"""A serving engine's memory on one GPU (vLLM, SGLang, llama.cpp): the `serving` object and the per-GPU breakdown."""
from __future__ import annotations

import math
from dataclasses import dataclass

from gpusizer.catalog import GIB, GpuSpec, SizingError
from gpusizer.tools.memory.engine_settings import ServingMemory
from gpusizer.tools.memory.engine_versions import LLAMA_CPP_FLASH_ATTENTION_DEFAULT, version_key
from gpusizer.tools.memory.engines.llama_cpp import (
    DEFAULT_CONTEXT,
    DEFAULT_UBATCH,
    FIT_MARGIN,
    LlamaCppBuffers,
    llama_cpp_buffers,
    offloadable_layers,
    pad_cells,
)
from gpusizer.tools.memory.engines.sglang import SglangBudget, sglang_budget
from gpusizer.tools.memory.engines.vllm import (
    CUDA_GRAPH_PER_SIZE_AND_LAYER,
    VllmBudget,
    graphs_note,
    profile_peak_bytes,
    vllm_budget,
)
from gpusizer.tools.memory.model.gguf import GgufLayout, gguf_layout
from gpusizer.tools.memory.overhead import CUDA_CONTEXT_BYTES, WORKSPACE_BYTES
from gpusizer.tools.memory.plan import Plan
from gpusizer.tools.memory.request import Breakdown

TP_DEGREES = (1, 2, 4, 8)  # tensor parallelism inside one machine
VLLM_GPU_MEMORY_UTILIZATION = 0.9  # vLLM's default share of each GPU


@dataclass(frozen=True)
class EngineResult:
    serving: ServingMemory
    breakdown: Breakdown
    notes: tuple[str, ...]   # assumptions: what the engine did and which defaults it used


def engine_memory(plan: Plan, gpu: GpuSpec | None, num_gpus: int, tp: int, *, quick: bool = False) -> EngineResult:
    """quick: only what a fit scan needs (no longest-request search, no notes)."""
    engine = plan.request.engine
    if engine == "llama_cpp":
        return llama_cpp_memory(plan, gpu, num_gpus)
    if gpu is None:
        raise SizingError(f"engine='{engine}' sizes its KV cache as a fraction of the GPU's memory: give gpu (e.g. 'h100-sxm')")
    pp = num_gpus // tp
    if engine == "vllm":
        return vllm_memory(plan, gpu, tp, pp, quick=quick)
    return sglang_memory(plan, gpu, tp, pp)


def starts_with(plan: Plan, gpu: GpuSpec, gpus: int) -> int | None:
    """Per-GPU bytes when the engine starts on `gpus` of this GPU (tensor parallel; llama.cpp: layer split with every
    layer offloaded), None when it does not: what a fit scan needs, without the notes."""
    r = plan.request
    if r.engine == "llama_cpp":
        key = ("llama_cpp_all_layers", gpus)
        if key not in plan.memo:
            buffers = llama_cpp_run(plan, gpus, offloadable_layers(plan.arch))
            plan.memo[key] = buffers.busiest.total + CUDA_CONTEXT_BYTES + WORKSPACE_BYTES
        need = plan.memo[key]
        assert isinstance(need, int)
        return need if need <= gpu.usable_memory_bytes else None
    if r.engine == "vllm":
        version, _ = version_key("vllm", r.engine_version)
        b = vllm_budget(plan.arch, gpu, weights_bytes=plan.weights_total_bytes, kv_bytes_per_value=plan.kv_bytes, tp=gpus, pp=1,
                        utilization=r.gpu_memory_utilization or VLLM_GPU_MEMORY_UTILIZATION, max_model_len=context_of(plan),
                        batched=r.max_num_batched_tokens,
                        seqs=r.max_num_seqs, eager=bool(r.enforce_eager), version=version, memo=plan.memo, longest=False)
        if b.kv_bytes <= 0 or b.blocks < b.blocks_per_request:
            return None
        return b.requested + b.outside  # outside holds the CUDA graph pool where it is not in the budget
    parts = sglang_parts(plan, gpu, gpus, 1)
    return parts.total if parts.reason is None else None


def context_of(plan: Plan) -> int:
    return plan.request.max_model_len or plan.arch.max_position_embeddings


def vllm_memory(plan: Plan, gpu: GpuSpec, tp: int, pp: int, *, quick: bool = False) -> EngineResult:
    r, arch = plan.request, plan.arch
    version, shown = version_key("vllm", r.engine_version)
    utilization = r.gpu_memory_utilization or 0.9
    max_len = context_of(plan)
    def budget(longest: bool) -> VllmBudget:
        return vllm_budget(arch, gpu, weights_bytes=plan.weights_total_bytes, kv_bytes_per_value=plan.kv_bytes, tp=tp, pp=pp,
                           utilization=utilization, max_model_len=max_len, batched=r.max_num_batched_tokens,
                           seqs=r.max_num_seqs, eager=bool(r.enforce_eager), version=version, memo=plan.memo, longest=longest)
    b = budget(not quick)
    needed_kv = b.blocks_per_request
    if quick and 0 < b.blocks < needed_kv:  # a refusal names the longest length that fits, as vLLM's own error does
        b = budget(True)
    reason = None
    if b.kv_bytes <= 0 or b.blocks == 0:
        graphs = f" + CUDA graphs {b.cuda_graphs / GIB:.2f} GiB" if b.graphs_in_budget and b.cuda_graphs else ""
        reason = (f"no memory left for the KV cache: weights {b.weights / GIB:.2f} GiB + activations {b.activation / GIB:.2f} GiB "
                  f"+ other {b.non_torch / GIB:.2f} GiB{graphs} exceed gpu_memory_utilization x total ({b.requested / GIB:.2f} GiB); "
                  f"use more GPUs (tensor_parallel), a smaller format, or a higher gpu_memory_utilization")
    elif b.blocks < needed_kv:
        reason = (f"max_model_len {max_len:,} needs more KV cache than the {b.kv_bytes / GIB:.2f} GiB available; vLLM's estimated "
                  f"maximum model length is {b.max_model_len_fits or 0:,}: set max_model_len to it or use more GPUs")
    runtime = b.non_torch + b.outside + (b.cuda_graphs if b.graphs_in_budget else 0)
    serving = ServingMemory(
        engine="vllm", engine_version=shown, starts=reason is None, reason=reason, weights_bytes=b.weights,
        activation_peak_bytes=b.activation, non_torch_bytes=b.non_torch, cuda_graph_bytes=b.cuda_graphs,
        kv_cache_bytes=b.kv_bytes, kv_cache_tokens=b.kv_tokens, max_concurrency=round(b.max_concurrency, 2),
        max_model_len=max_len, max_model_len_fits=b.max_model_len_fits, budget_bytes=b.requested, outside_budget_bytes=b.outside,
        block_size=b.block_size, gpu_memory_utilization=utilization, max_num_seqs=b.defaults.max_num_seqs,
        max_num_batched_tokens=b.defaults.max_num_batched_tokens)
    breakdown = Breakdown(weights=b.weights, kv_cache=b.kv_bytes, activations=b.activation, gradients=0, optimizer_states=0,
                          runtime_overhead=runtime)
    if quick:
        return EngineResult(serving, breakdown, ())
    notes = [f"engine: vLLM {shown} (vllm serve) on {gpu.name}, tensor parallel {tp}" + (f", pipeline parallel {pp}" if pp > 1 else "")
             + f"; gpu_memory_utilization {utilization:g} of the {gpu.cuda_total_bytes / GIB:.2f} GiB CUDA reports",
             f"vLLM profile run: {b.defaults.max_num_batched_tokens:,} batched tokens, sampler over "
             f"{min(b.defaults.max_num_seqs, b.defaults.max_num_batched_tokens):,} requests (max_num_seqs); {graphs_note(b)}",
             f"KV cache: {b.block_size}-token blocks; {b.blocks:,} blocks = {b.kv_tokens:,} tokens; a {max_len:,}-token request needs "
             f"{needed_kv:,} blocks" + (f"; {b.padding_layers} padding layers in the hybrid KV groups" if b.padding_layers else ""),
             "outside the budget: CUDA context" + (" and NCCL set-up" if tp * pp > 1 else "")
             + ("" if b.graphs_in_budget else " and the CUDA graph pool")]
    return EngineResult(serving, breakdown, tuple(notes))


@dataclass(frozen=True)
class SglangParts:
    budget: SglangBudget
    graphs: int
    activation: int
    outside: int
    headroom: int
    reason: str | None

    @property
    def total(self) -> int:
        return self.budget.weights + self.budget.kv_bytes + self.activation + self.graphs + self.outside


def sglang_parts(plan: Plan, gpu: GpuSpec, tp: int, pp: int) -> SglangParts:
    r, arch = plan.request, plan.arch
    version, _ = version_key("sglang", r.engine_version)
    max_len = context_of(plan)
    b = sglang_budget(arch, gpu, weights_bytes=plan.weights_total_bytes, kv_bytes_per_value=plan.kv_bytes, tp=tp, pp=pp,
                      fraction=r.gpu_memory_utilization, chunked=r.max_num_batched_tokens, version=version, memo=plan.memo)
    key = ("sglang_runtime", b.chunked_prefill_size, b.cuda_graph_max_bs, tp, pp)
    if key not in plan.memo:
        layers = math.ceil(arch.num_hidden_layers / pp)
        sizes = len([s for s in [1, 2, 4, 8, 12, *range(16, 257, 8), *range(272, 512, 16), *range(512, 1025, 32)]
                     if s <= b.cuda_graph_max_bs])
        graphs = 0 if r.enforce_eager else int(CUDA_GRAPH_PER_SIZE_AND_LAYER * layers * sizes)
        plan.memo[key] = (graphs, profile_peak_bytes(arch, b.chunked_prefill_size, min(b.cuda_graph_max_bs, b.chunked_prefill_size), tp))
    graphs, activation = plan.memo[key]
    cuda_total = gpu.cuda_total_bytes
    outside = gpu.usable_memory_bytes - b.free_at_start
    headroom = cuda_total - int(b.fraction * b.free_at_start) - (cuda_total - b.free_at_start)
    reason = None
    if b.kv_tokens < max_len:
        fit = "no KV cache at all" if b.kv_tokens <= 0 else f"{b.kv_tokens:,} tokens"
        reason = (f"the KV pool ({fit}) cannot hold one {max_len:,}-token request: set context_length (max_model_len) to at most "
                  f"{max(b.kv_tokens, 0):,}, raise mem_fraction_static (gpu_memory_utilization) or use more GPUs")
    elif graphs + activation > headroom:
        reason = (f"CUDA graphs ({graphs / GIB:.2f} GiB) and activations ({activation / GIB:.2f} GiB) exceed the "
                  f"{headroom / GIB:.2f} GiB left by mem_fraction_static {b.fraction:g}: lower it or set cuda_graph_max_bs")
    return SglangParts(b, graphs, activation, outside, headroom, reason)


def sglang_memory(plan: Plan, gpu: GpuSpec, tp: int, pp: int) -> EngineResult:
    r = plan.request
    _, shown = version_key("sglang", r.engine_version)
    max_len = context_of(plan)
    parts = sglang_parts(plan, gpu, tp, pp)
    b = parts.budget
    serving = ServingMemory(
        engine="sglang", engine_version=shown, starts=parts.reason is None, reason=parts.reason, weights_bytes=b.weights,
        activation_peak_bytes=parts.activation, non_torch_bytes=0, cuda_graph_bytes=parts.graphs, kv_cache_bytes=b.kv_bytes,
        kv_cache_tokens=b.kv_tokens, max_concurrency=round(b.kv_tokens / max_len, 2), max_model_len=max_len,
        max_model_len_fits=b.kv_tokens or None, budget_bytes=int(b.fraction * b.free_at_start), outside_budget_bytes=parts.outside,
        block_size=b.page_size, gpu_memory_utilization=b.fraction, max_num_seqs=r.max_num_seqs,
        max_num_batched_tokens=b.chunked_prefill_size)
    breakdown = Breakdown(weights=b.weights, kv_cache=b.kv_bytes, activations=parts.activation, gradients=0, optimizer_states=0,
                          runtime_overhead=parts.graphs + parts.outside)
    notes = [f"engine: SGLang {shown} (sglang.launch_server) on {gpu.name}, tp {tp}" + (f", pp {pp}" if pp > 1 else "")
             + f"; mem_fraction_static {b.fraction:g} of the {b.free_at_start / GIB:.2f} GiB free at start",
             f"KV pool = mem_fraction_static x free - weights = {b.kv_bytes / GIB:.2f} GiB = {b.kv_tokens:,} tokens"
             + (f" (windowed layers: {b.swa_tokens:,}, swa_full_tokens_ratio 0.8)" if b.swa_tokens else ""),
             f"chunked_prefill_size {b.chunked_prefill_size:,}, cuda_graph_max_bs {b.cuda_graph_max_bs} (SGLang's defaults for "
             f"this GPU); CUDA graphs and activations use the memory mem_fraction_static leaves"]
    return EngineResult(serving, breakdown, tuple(notes))


def llama_cpp_layout(plan: Plan) -> GgufLayout:
    if "gguf_layout" not in plan.memo:
        plan.memo["gguf_layout"] = gguf_file_layout(plan)
    layout = plan.memo["gguf_layout"]
    assert isinstance(layout, GgufLayout)
    return layout


def llama_cpp_run(plan: Plan, gpus: int, n_gpu_layers: int, cells: int | None = None) -> LlamaCppBuffers:
    r = plan.request
    version, _ = version_key("llama_cpp", r.engine_version)
    flash = r.flash_attention if r.flash_attention is not None else version >= LLAMA_CPP_FLASH_ATTENTION_DEFAULT
    return llama_cpp_buffers(plan.arch, llama_cpp_layout(plan), gpus=gpus, n_gpu_layers=n_gpu_layers,
                             cells=cells or pad_cells(r.max_model_len or DEFAULT_CONTEXT),
                             ubatch=r.max_num_batched_tokens or DEFAULT_UBATCH,
                             kv_bytes=plan.kv_bytes, flash_attention=flash)


def gguf_file_layout(plan: Plan) -> GgufLayout:
    dtype = plan.weights_dtype
    if dtype == "mxfp4":  # gpt-oss's GGUF (MXFP4_MOE): experts in MXFP4, every other matrix Q8_0
        return gguf_layout(plan.arch, "q8_0", mxfp4_experts=True)
    if plan.weight_format.gguf:
        return gguf_layout(plan.arch, dtype, mxfp4_experts=plan.arch.release_format == "mxfp4")
    return gguf_layout(plan.arch, None)


def llama_cpp_memory(plan: Plan, gpu: GpuSpec | None, num_gpus: int) -> EngineResult:
    r, arch = plan.request, plan.arch
    _, shown = version_key("llama_cpp", r.engine_version)

    def run(ngl: int) -> LlamaCppBuffers:
        return llama_cpp_run(plan, num_gpus, ngl)

    overhead = CUDA_CONTEXT_BYTES + WORKSPACE_BYTES
    all_layers = offloadable_layers(arch)
    how_many = "-ngl"
    if r.n_gpu_layers is not None:
        buffers = run(r.n_gpu_layers)
    elif gpu is None:
        buffers, how_many = run(all_layers), "all layers (no GPU named)"
    else:  # llama.cpp --fit: as many layers as leave 1 GiB free on every device
        budget = gpu.usable_memory_bytes - FIT_MARGIN - overhead
        low, high = 0, all_layers + 1  # the device total grows with every layer offloaded
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if run(middle).busiest.total <= budget else (low, middle)
        buffers, how_many = run(low), f"as many layers as leave llama.cpp's 1 GiB --fit margin on the {gpu.name}"
    device = buffers.busiest
    total = device.total + (overhead if buffers.gpus else 0)
    reason = None
    if gpu is not None and total > gpu.usable_memory_bytes:
        reason = (f"{buffers.n_gpu_layers} layers need {total / GIB:.2f} GiB on a {gpu.usable_memory_bytes / GIB:.2f} GiB GPU: "
                  "lower n_gpu_layers, n_ctx (max_model_len) or use a smaller GGUF type")
    longest = llama_cpp_longest_context(plan, gpu, num_gpus, r.n_gpu_layers or all_layers) if gpu is not None else None
    serving = llama_cpp_serving(buffers, shown, reason, longest)
    breakdown = Breakdown(weights=device.model, kv_cache=device.kv, activations=device.compute, gradients=0, optimizer_states=0,
                          runtime_overhead=overhead if buffers.gpus else 0)
    cells, ubatch, flash = buffers.cells, buffers.ubatch, buffers.flash_attention
    notes = [f"engine: llama.cpp {shown} (llama-server; Ollama runs the same code) on "
             + (f"{num_gpus} x {gpu.name}" if gpu else f"{num_gpus} GPU(s)")
             + f": {buffers.n_gpu_layers} of {all_layers} layers on the GPU ({how_many}), the token embedding in system RAM",
             f"n_ctx {cells:,} cells (padded to 256, shared by the server's slots), n_ubatch {ubatch}, flash attention "
             + ("on" if flash else "off") + f", KV {plan.kv_dtype}",
             f"system RAM: {buffers.host_model / GIB:.2f} GiB of weights (mmapped), {buffers.host_kv / GIB:.2f} GiB KV, "
             f"{buffers.host_compute / GIB:.2f} GiB compute buffers"]
    return EngineResult(serving, breakdown, tuple(notes))


def llama_cpp_longest_context(plan: Plan, gpu: GpuSpec, gpus: int, n_gpu_layers: int) -> int | None:
    """The largest n_ctx (a multiple of 256, up to the model's window) at which `n_gpu_layers` layers still fit each
    GPU with --fit's 1 GiB margin: 'how much context before layers spill to the CPU'. None: not even 256 cells."""
    budget = gpu.usable_memory_bytes - FIT_MARGIN - CUDA_CONTEXT_BYTES - WORKSPACE_BYTES

    def fits(cells: int) -> bool:
        return llama_cpp_run(plan, gpus, n_gpu_layers, cells).busiest.total <= budget

    low, high = 0, plan.arch.max_position_embeddings // 256 + 1  # in units of 256 cells
    if not fits(256):
        return None
    low = 1
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle * 256) else (low, middle)
    return low * 256


def llama_cpp_serving(b: LlamaCppBuffers, shown: str, reason: str | None, longest: int | None = None) -> ServingMemory:
    device, cells = b.busiest, b.cells
    return ServingMemory(
        engine="llama_cpp", engine_version=shown, starts=reason is None, reason=reason, weights_bytes=device.model,
        activation_peak_bytes=device.compute, non_torch_bytes=0, cuda_graph_bytes=0, kv_cache_bytes=device.kv,
        kv_cache_tokens=cells, max_concurrency=1.0, max_model_len=cells, max_model_len_fits=longest,
        budget_bytes=device.total, outside_budget_bytes=CUDA_CONTEXT_BYTES + WORKSPACE_BYTES if b.gpus else 0,
        block_size=256, max_num_batched_tokens=b.ubatch, n_gpu_layers=b.n_gpu_layers, host_weights_bytes=b.host_model,
        host_kv_bytes=b.host_kv, host_compute_bytes=b.host_compute)
