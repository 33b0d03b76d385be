"""How many requests one replica's KV cache holds at once, as the serving engine budgets its memory at start-up."""
from __future__ import annotations

import math
from typing import NamedTuple

from gpusizer.catalog import GpuSpec
from gpusizer.tools.memory.engine_versions import version_key
from gpusizer.tools.memory.engines.llama_cpp import DEFAULT_UBATCH, LlamaCppBuffers
from gpusizer.tools.memory.engines.memory import llama_cpp_run, sglang_parts, starts_with, vllm_memory
from gpusizer.tools.memory.engines.vllm import vllm_budget
from gpusizer.tools.memory.overhead import CUDA_CONTEXT_BYTES, WORKSPACE_BYTES
from gpusizer.tools.memory.plan import Plan


class ReplicaCapacity(NamedTuple):  # a NamedTuple: the planner builds thousands per call
    requests: int              # requests of max_model_len tokens the KV cache holds at once
    kv_tokens: int
    max_num_seqs: int | None   # the engine's own cap on running requests
    chunk_tokens: int          # tokens one step may batch (vLLM max_num_batched_tokens, SGLang chunked prefill, n_ubatch)


def replica_capacity(plan: Plan, gpu: GpuSpec, gpus: int) -> ReplicaCapacity | None:
    """The capacity of a replica of `gpus` GPUs (tensor parallel; llama.cpp: layers split), None when it does not start
    (capacity_problem says why: wording it costs more than the check, and a planner needs it for few shapes)."""
    engine, context = plan.request.engine, plan.request.max_model_len or plan.arch.max_position_embeddings
    if engine == "vllm":
        r = plan.request
        if plan.weights_total_bytes / gpus >= gpu.cuda_total_bytes:  # a rank's weights alone exceed what vLLM may request
            return None                                               # (gpu_memory_utilization <= 1): no budget to work out
        version, _ = version_key("vllm", r.engine_version)
        b = vllm_budget(plan.arch, gpu, weights_bytes=plan.weights_total_bytes, kv_bytes_per_value=plan.kv_bytes, tp=gpus, pp=1,
                        utilization=r.gpu_memory_utilization or 0.9, max_model_len=context, batched=r.max_num_batched_tokens,
                        seqs=r.max_num_seqs, eager=bool(r.enforce_eager), version=version, memo=plan.memo, longest=False)
        if b.kv_bytes <= 0 or b.blocks < b.blocks_per_request:
            return None
        return ReplicaCapacity(int(b.max_concurrency), b.kv_tokens, b.defaults.max_num_seqs, b.defaults.max_num_batched_tokens)
    if engine == "sglang":
        parts = sglang_parts(plan, gpu, gpus, 1)
        if parts.reason:
            return None
        kv_tokens = parts.budget.kv_tokens
        return ReplicaCapacity(kv_tokens // context, kv_tokens, sglang_max_running_requests(kv_tokens, plan.arch.max_position_embeddings),
                               parts.budget.chunked_prefill_size)
    return llama_cpp_slots(plan, gpu, gpus, context)


def sglang_max_running_requests(kv_tokens: int, context_len: int) -> int:
    """SGLang's default cap on running requests (model_runner resolve_max_num_reqs / scheduler): the request pool,
    KV tokens / context_len x 512 held to 2,048..4,096, and never more than half the KV tokens."""
    pool = max(min(int(kv_tokens / context_len * 512), 4096), 2048)
    return max(1, min(pool, kv_tokens // 2))


def capacity_problem(plan: Plan, gpu: GpuSpec, gpus: int) -> str:
    """Why a replica of `gpus` GPUs does not start, in the engine's terms."""
    engine = plan.request.engine
    if engine == "vllm":
        return vllm_memory(plan, gpu, gpus, 1, quick=True).serving.reason or "vLLM does not start"
    if engine == "sglang":
        return sglang_parts(plan, gpu, gpus, 1).reason or "SGLang does not start"
    context = plan.request.max_model_len or plan.arch.max_position_embeddings
    return (f"the {plan.weights_dtype} weights with a {context:,}-token context do not fit on {gpus} x {gpu.name} with every "
            "layer offloaded (partial offload decodes at system-RAM speed)")


def llama_cpp_slots(plan: Plan, gpu: GpuSpec, gpus: int, context: int) -> ReplicaCapacity | None:
    """llama-server with every layer on the GPUs and as many slots (-np) of `context` cells (padded to 256) as the rest
    of the memory holds (-c slots x context)."""
    if starts_with(plan, gpu, gpus) is None:
        return None
    key = ("llama_cpp_one_slot", gpus)  # GPU-independent: the planner asks for it once per GPU type
    if key not in plan.memo:
        plan.memo[key] = llama_cpp_run(plan, gpus, plan.arch.num_hidden_layers + 1)
    one = plan.memo[key]
    assert isinstance(one, LlamaCppBuffers)
    device = one.busiest
    free = gpu.usable_memory_bytes - CUDA_CONTEXT_BYTES - WORKSPACE_BYTES - device.total
    # every slot adds what the first one holds: its context in full layers, its own window in sliding ones
    slots = 1 + (math.floor(free / device.kv) if device.kv and free > 0 else 0)
    return ReplicaCapacity(slots, slots * context, None, plan.request.max_num_batched_tokens or DEFAULT_UBATCH)
