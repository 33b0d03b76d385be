"""vLLM's start-up memory budget on one GPU, as its V1 worker computes it.

vllm/v1/worker/gpu_worker.py and vllm/utils/mem_utils.py (memory_profiling, since PR #19312 / v0.9.2):
  requested  = gpu_memory_utilization x total device memory
  KV bytes   = requested - weights - torch peak of the profile run - non-torch increase (- CUDA graph estimate, >= 0.21)
then kv_cache_utils turns bytes into blocks, tokens and the maximum concurrency for max_model_len. Memory in use before
the snapshot (the CUDA context; NCCL set-up since 0.11) is outside the budget, as is the CUDA graph pool before 0.21.

The profile run is one forward of max_num_batched_tokens dummy tokens over min(max_num_seqs, max_num_batched_tokens)
requests, then the sampler on one logit row per request, so its peak grows with the vocabulary and max_num_seqs. Since
0.17 the sampler holds the bf16 logits, their fp32 copy, softmax probabilities and the exponential noise of random
sampling (14 bytes per logit; top-k/top-p filter in place with Triton). Before, the dummy top_k/top_p went through
apply_top_k_top_p's sort (vllm/v1/sample/ops/topk_topp_sampler.py, read in the 0.10.2, 0.11.1 and 0.15.1 wheels): at
its scatter the bf16 and fp32 logits, the sorted values (4), their int64 indices (8), the top-k and top-p masks (1 + 1),
the cumulative probabilities (4) and the scattered result (4) are alive: 28 bytes per logit.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from gpusizer.catalog import GIB, MIB, GpuSpec, ModelArch
from gpusizer.tools.memory.activations import mlp_width_per_token
from gpusizer.tools.memory.engine_versions import (
    VLLM_CAPTURE_SIZES_V019,
    VLLM_CUDA_GRAPHS_IN_BUDGET,
    VLLM_NCCL_BEFORE_SNAPSHOT,
    VLLM_TRITON_TOP_K_TOP_P,
    VersionKey,
)
from gpusizer.tools.memory.engines.kv_layout import AttentionKind, VllmGroups, attention_kinds, vllm_blocks_per_request, vllm_groups
from gpusizer.tools.memory.overhead import CUDA_CONTEXT_BYTES
from gpusizer.tools.memory.plan import Memo

SAMPLER_BYTES_PER_LOGIT = 2 + 4 + 4 + 4             # bf16 logits, fp32 logits, probabilities, exponential noise
SORTED_SAMPLER_BYTES_PER_LOGIT = 2 + 4 + 4 + 8 + 1 + 4 + 1 + 4  # the sort path's peak at its scatter (before 0.17)
NON_TORCH_SINGLE = int(0.25 * GIB)        # cuBLAS workspaces and friends (logged 0.24-0.26 GiB on H100 at TP 1)
NON_TORCH_NVLINK = int(2.1 * GIB)         # custom all-reduce and NCCL buffers at TP >= 2 over NVLink (2.07-2.13 GiB)
NCCL_SET_UP = int(1.0 * GIB)              # NCCL communicators created before the snapshot (v0.11+), H100 TP 2 logs
CUDA_GRAPH_PER_SIZE_AND_LAYER = 0.45 * MIB  # pools logged: 0.84 GiB (8B, 51 sizes) ... 3.45 GiB (235B TP8, 67 sizes)
LARGE_GPU = 70 * GIB                      # vllm/engine/arg_utils.py: bigger defaults on >= 70 GiB GPUs other than A100


class VllmDefaults(NamedTuple):  # a NamedTuple: the planner builds thousands per call
    max_num_batched_tokens: int
    max_num_seqs: int
    block_size: int


MLA_BLOCK_SIZE = {"Hopper": 64, "Blackwell": 128}  # FlashMLA forces 64, CUTLASS MLA 128; Triton MLA elsewhere keeps 16


def vllm_defaults(gpu: GpuSpec, mla: bool, batched: int | None, seqs: int | None, version: VersionKey) -> VllmDefaults:
    """The API server's defaults (`vllm serve`): 8192 batched tokens and 1024 sequences on >= 70 GiB GPUs that are not
    A100s, else 2048 and 256; max_num_seqs is capped at max_num_batched_tokens since 0.11. Blocks of 16 tokens, or what
    the GPU's MLA backend forces."""
    large = gpu.usable_memory_bytes >= LARGE_GPU and gpu.family != "a100"
    batched = batched or (8192 if large else 2048)
    seqs = seqs or (1024 if large else 256)
    if version >= VLLM_NCCL_BEFORE_SNAPSHOT:
        seqs = min(seqs, batched)
    return VllmDefaults(batched, seqs, MLA_BLOCK_SIZE.get(gpu.architecture, 16) if mla else 16)


def capture_sizes(max_num_seqs: int, batched: int, version: VersionKey) -> int:
    """How many batch sizes vLLM captures CUDA graphs for: up to min(2 x max_num_seqs, 512) in steps of 8 then 16
    (v0.19+), every 8 up to 512 before."""
    if version >= VLLM_CAPTURE_SIZES_V019:
        largest = min(2 * max_num_seqs, 512, batched)
        return len([s for s in [1, 2, 4, *range(8, 256, 8), *range(256, 513, 16)] if s <= largest])
    largest = min(512, batched)
    return len([s for s in [1, 2, 4, *range(8, 513, 8)] if s <= largest])


def sampler_bytes_per_logit(version: VersionKey) -> int:
    return SAMPLER_BYTES_PER_LOGIT if version >= VLLM_TRITON_TOP_K_TOP_P else SORTED_SAMPLER_BYTES_PER_LOGIT


def profile_peak_bytes(arch: ModelArch, batched: int, requests: int, tp: int,
                       per_logit: int = SAMPLER_BYTES_PER_LOGIT) -> int:
    """Torch peak of the profile run: the largest layer's temporaries over max_num_batched_tokens, or the sampler over
    one full-vocabulary logit row per request, whichever is larger. A mixture-of-experts layer's fused_moe workspaces
    (each token copied per routed expert: the gate/up output and the hidden-wide result) are cached and reused, so
    they stay allocated under the sampler's peak too."""
    h = arch.hidden_size
    mlp = mlp_width_per_token(arch) / tp
    q = arch.num_attention_heads * arch.attention_head_dim / tp
    kv = max(1, arch.num_key_value_heads // tp) * arch.attention_head_dim
    forward = batched * (max(3 * mlp, 2 * q + 2 * kv) + 3 * h) * 2
    sampler = requests * arch.vocab_size * per_logit + 2 * batched * h * 2
    workspace = 0.0
    if arch.is_moe:
        routed = batched * (arch.num_experts_per_tok or 1)
        expert = (arch.moe_intermediate_size or arch.intermediate_size) / tp
        workspace = routed * (3 * expert + h) * 2
    return int(max(forward, sampler) + workspace)


@dataclass(frozen=True)
class VllmShape:
    """Everything of the budget that does not depend on the GPU's size: per rank, for given defaults."""
    defaults: VllmDefaults
    activation: int
    kinds: tuple[AttentionKind, ...]
    groups: VllmGroups
    page_bytes: float
    blocks_per_request: int
    cuda_graphs: int
    layers: int


class VllmBudget(NamedTuple):  # a NamedTuple: the planner builds thousands per call
    requested: int
    weights: int
    activation: int
    non_torch: int
    cuda_graphs: int
    graphs_in_budget: bool
    outside: int
    kv_bytes: int
    blocks: int
    kv_tokens: int
    max_concurrency: float
    blocks_per_request: int
    block_size: int
    defaults: VllmDefaults
    max_model_len_fits: int | None
    padding_layers: int


def vllm_shape(arch: ModelArch, defaults: VllmDefaults, *, kv_bytes_per_value: float, tp: int, pp: int, max_model_len: int, eager: bool,
               version: VersionKey) -> VllmShape:
    activation = profile_peak_bytes(arch, defaults.max_num_batched_tokens, min(defaults.max_num_seqs, defaults.max_num_batched_tokens), tp,
                                    sampler_bytes_per_logit(version))
    kinds = attention_kinds(arch, kv_bytes_per_value, tp, pp)
    layers = sum(k.layers for k in kinds)
    graphs = 0 if eager else int(CUDA_GRAPH_PER_SIZE_AND_LAYER * layers *
                                 capture_sizes(defaults.max_num_seqs, defaults.max_num_batched_tokens, version))
    groups = vllm_groups(kinds)
    page = defaults.block_size * max(k.bytes_per_token for k in kinds) * groups.group_size
    per_request = vllm_blocks_per_request(kinds, groups, max_model_len, defaults.block_size, defaults.max_num_batched_tokens)
    return VllmShape(defaults, activation, tuple(kinds), groups, page, per_request, graphs, layers)


def vllm_budget(arch: ModelArch, gpu: GpuSpec, *, weights_bytes: float, kv_bytes_per_value: float, tp: int, pp: int,
                utilization: float, max_model_len: int, batched: int | None, seqs: int | None, eager: bool,
                version: VersionKey, memo: Memo | None = None, longest: bool = True) -> VllmBudget:
    defaults = vllm_defaults(gpu, arch.latent_attention is not None, batched, seqs, version)
    key = ("vllm", defaults, tp, pp)
    shape = memo.get(key) if memo is not None else None
    if shape is None:
        shape = vllm_shape(arch, defaults, kv_bytes_per_value=kv_bytes_per_value, tp=tp, pp=pp, max_model_len=max_model_len,
                           eager=eager, version=version)
        if memo is not None:
            memo[key] = shape
    assert isinstance(shape, VllmShape)
    total = gpu.cuda_total_bytes
    requested = int(utilization * total)
    weights = int(weights_bytes / (tp * pp))
    nvlink = gpu.interconnect.lower().startswith("nvlink")
    non_torch = NON_TORCH_NVLINK if tp * pp > 1 and nvlink else NON_TORCH_SINGLE
    graphs = shape.cuda_graphs
    in_budget = version >= VLLM_CUDA_GRAPHS_IN_BUDGET
    kv_bytes = requested - weights - shape.activation - non_torch - (graphs if in_budget else 0)
    outside = CUDA_CONTEXT_BYTES + (NCCL_SET_UP if tp * pp > 1 and version >= VLLM_NCCL_BEFORE_SNAPSHOT else 0) \
        + (0 if in_budget else graphs)
    groups = shape.groups
    assert isinstance(groups, VllmGroups)
    blocks = int(max(0, kv_bytes) // shape.page_bytes)
    tokens = (blocks // groups.count) * defaults.block_size
    fits_len = longest_request(list(shape.kinds), groups, blocks, defaults) if longest else None
    return VllmBudget(requested, weights, shape.activation, non_torch, graphs, in_budget, outside, max(0, kv_bytes), blocks, tokens,
                      blocks / shape.blocks_per_request, shape.blocks_per_request, defaults.block_size, defaults, fits_len,
                      groups.padding_layers)


def longest_request(kinds: Sequence[AttentionKind], groups: VllmGroups, blocks: int, defaults: VllmDefaults) -> int | None:
    """vLLM's 'estimated maximum model length': the longest request whose blocks fit (None: not even one block)."""
    block = defaults.block_size
    if all(k.kind == "full" for k in kinds):  # one block per block_size tokens in every group
        return blocks // groups.count * block or None

    def fits(n: int) -> bool:
        return vllm_blocks_per_request(list(kinds), groups, n, block, defaults.max_num_batched_tokens) <= blocks

    if not fits(1):
        return None
    low, high = 1, blocks * block + 1  # a full-attention group alone needs ceil(n / block) blocks
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def graphs_note(budget: VllmBudget) -> str:
    if not budget.cuda_graphs:
        return "enforce_eager: no CUDA graphs"
    where = "subtracted from the KV budget (v0.21+)" if budget.graphs_in_budget else "allocated after the KV cache, outside the budget"
    return f"CUDA graph pool ~{budget.cuda_graphs / GIB:.2f} GiB, {where}"
