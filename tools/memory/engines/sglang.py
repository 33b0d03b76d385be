"""SGLang's KV pool on one GPU, as its model runner sizes it at start-up.

python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py (profile_max_num_token): `total` is the free memory
after torch.distributed is set up (minimum over ranks); after loading the weights
    rest = free_after_weights - total x (1 - mem_fraction_static)   =   mem_fraction_static x total - weights
and max_total_num_tokens = rest / cell size, rounded down to the page size. CUDA graphs and activations are not
profiled: they must fit in the (1 - mem_fraction_static) left over. Sliding-window models split the pool with
swa_full_tokens_ratio (0.8): windowed layers get 0.8 cells per full-layer cell.

mem_fraction_static when not given (server_args.py), by release:
  before 0.4.7: by TP size, 0.88 / 0.87 (2) / 0.85 (4) / 0.81 (8) / 0.79 (16+);
  0.4.7 - 0.5.3 (PR #7054): reserve 2.8 + P/10 GiB under 35 GiB GPUs, 9.5 + P/2 under 90, 12 + P/2 under 160, else 32;
  0.5.4+ (PR #10975): reserve 512 + 1.5 x chunked_prefill_size + 2 x cuda_graph_max_bs + 1024 x P / 8 MB (at least
  10 GiB above 60 GiB GPUs); chunked_prefill_size and cuda_graph_max_bs come from a table by GPU size.
P = tensor x pipeline parallel; the fraction is of the device's memory size.
"""
from __future__ import annotations

from dataclasses import dataclass

from gpusizer.catalog import GIB, MIB, GpuSpec, ModelArch
from gpusizer.tools.memory.engine_versions import SGLANG_RESERVE_BY_GPU, SGLANG_RESERVE_BY_SETTINGS, VersionKey
from gpusizer.tools.memory.engines.kv_layout import attention_kinds, tokens_per_byte_pool
from gpusizer.tools.memory.plan import Memo

CONTEXT_BEFORE_START = int(0.4 * GIB)   # free at start on H100: 78.81 of 79.19 GiB (sglang docs log)
DIST_INIT_PCIE = int(0.13 * GIB)        # "init_dist ... mem usage=0.13 GB" at TP 4 on L4
DIST_INIT_NVLINK = int(1.0 * GIB)       # NCCL and custom all-reduce over NVLink: ~1 GiB on H100 (vLLM's TP 2 logs show the same)
SWA_FULL_TOKENS_RATIO = 0.8

# GPU memory (GiB) up to which a row applies: chunked_prefill_size, cuda_graph_max_bs at tp < 4, at tp >= 4
SETTINGS_BY_GPU = [(20, 2048, 8, 8), (35, 2048, 24, 80), (60, 4096, 32, 160), (90, 8192, 256, 512), (160, 8192, 256, 512)]
LARGEST_GPU_SETTINGS = (16384, 512, 512)


@dataclass(frozen=True)
class SglangBudget:
    free_at_start: int
    fraction: float
    weights: int
    kv_bytes: int
    kv_tokens: int
    swa_tokens: int | None
    chunked_prefill_size: int
    cuda_graph_max_bs: int
    page_size: int


def gpu_settings(gpu_gib: float, parallel: int) -> tuple[int, int]:
    for ceiling, chunked, small_tp, large_tp in SETTINGS_BY_GPU:
        if gpu_gib < ceiling:
            return chunked, small_tp if parallel < 4 else large_tp
    return LARGEST_GPU_SETTINGS[0], LARGEST_GPU_SETTINGS[1]


def default_fraction(gpu: GpuSpec, tp: int, pp: int, chunked: int, graph_bs: int, version: VersionKey) -> float:
    parallel = tp * pp
    gpu_gib = gpu.usable_memory_bytes / GIB
    if version >= SGLANG_RESERVE_BY_SETTINGS:
        reserved_mb = 512 + 1.5 * max(chunked, 2048) + 2 * graph_bs + 1024 * parallel / 8
        if gpu_gib > 60:
            reserved_mb = max(reserved_mb, 10 * 1024)
        total_mb = gpu.usable_memory_bytes / MIB
        return round((total_mb - reserved_mb) / total_mb, 3)
    if version >= SGLANG_RESERVE_BY_GPU:
        reserved = (2.8 + parallel / 10 if gpu_gib < 35 else 9.5 + parallel / 2 if gpu_gib < 90 else
                    12 + parallel / 2 if gpu_gib < 160 else 32)
        return (gpu_gib - reserved) / gpu_gib
    return 0.79 if parallel >= 16 else 0.81 if parallel >= 8 else 0.85 if parallel >= 4 else 0.87 if parallel >= 2 else 0.88


def sglang_budget(arch: ModelArch, gpu: GpuSpec, *, weights_bytes: float, kv_bytes_per_value: float, tp: int, pp: int,
                  fraction: float | None, chunked: int | None, version: VersionKey, memo: Memo | None = None) -> SglangBudget:
    default_chunked, graph_bs = gpu_settings(gpu.usable_memory_bytes / GIB, tp * pp)
    chunked = chunked or default_chunked
    fraction = fraction or default_fraction(gpu, tp, pp, chunked, graph_bs, version)
    dist = DIST_INIT_NVLINK if gpu.interconnect.lower().startswith("nvlink") else DIST_INIT_PCIE
    free = gpu.cuda_total_bytes - CONTEXT_BEFORE_START - (dist if tp * pp > 1 else 0)
    weights = int(weights_bytes / (tp * pp))
    kv_bytes = max(0, int(fraction * free) - weights)
    key = ("sglang_cell", tp, pp)
    if memo is None or key not in memo:
        kinds = attention_kinds(arch, kv_bytes_per_value, tp, pp)
        windowed = any(k.kind != "full" for k in kinds)
        found = (windowed, tokens_per_byte_pool(kinds, SWA_FULL_TOKENS_RATIO if windowed else 1.0))
        if memo is not None:
            memo[key] = found
    windowed, cell = memo[key] if memo is not None else found
    page = 64 if arch.latent_attention is not None else 1
    tokens = int(kv_bytes // cell) // page * page
    swa = int(tokens * SWA_FULL_TOKENS_RATIO) if windowed else None
    return SglangBudget(free, fraction, weights, kv_bytes, tokens, swa, chunked, graph_bs, page)
