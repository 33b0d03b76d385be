"""Engine releases: which one a request means, and the release where a memory rule changed.

A version is a release string ("0.19.0", "v0.5.4") for vLLM and SGLang, a build number ("b6250") for llama.cpp. Without
one, the rules of the release current on the catalog's date apply (CURRENT), and the assumptions say which."""
from __future__ import annotations

import functools
import re

from gpusizer.catalog import SizingError

VersionKey = tuple[int, ...]

CURRENT = {"vllm": "0.29.1", "sglang": "0.5.5", "llama_cpp": "b7217"}  # the newest releases whose code and logs were read
VERSION_LIMIT = 24

# vLLM (vllm/v1/worker/gpu_worker.py and PRs): NCCL set-up before the memory snapshot, outside the budget (PR #25359);
# the CUDA graph pool estimated and subtracted from the KV budget (PR #30515, default on); capture sizes up to
# min(2 x max_num_seqs, 512) in steps 8 then 16 (51 sizes) instead of every 8 up to 512 (67 sizes).
VLLM_NCCL_BEFORE_SNAPSHOT = (0, 11)
VLLM_CUDA_GRAPHS_IN_BUDGET = (0, 21)
VLLM_CAPTURE_SIZES_V019 = (0, 19)
# The profile run's sampler (dummy top_k = vocab - 1, top_p = 0.9) filters through apply_top_k_top_p_triton in place
# from 0.17 (vllm/v1/sample/ops/topk_topp_sampler.py: `if HAS_TRITON and logits.shape[0] >= 8`); before, FlashInfer's
# sampler was an optional extra (<= 0.11.0) or opt-in (0.11.1-0.16), so the PyTorch sort path ran.
VLLM_TRITON_TOP_K_TOP_P = (0, 17)
# SGLang server_args.py mem_fraction_static rules: a table by TP size, then a reserve by GPU size (PR #7054), then a
# reserve from chunked_prefill_size and cuda_graph_max_bs (PR #10975).
SGLANG_RESERVE_BY_GPU = (0, 4, 7)
SGLANG_RESERVE_BY_SETTINGS = (0, 5, 4)
# llama.cpp: flash attention on by default and every layer offloaded (PR #15434, August 2025).
LLAMA_CPP_FLASH_ATTENTION_DEFAULT = (6250,)

_RELEASE = re.compile(r"^\s*v?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,4}))?")
_BUILD = re.compile(r"^\s*b?(\d{1,6})\s*$", re.IGNORECASE)


@functools.lru_cache(maxsize=256)
def version_key(engine: str, version: str | None) -> tuple[VersionKey, str]:
    """(comparable key, the version string used); a clear error for anything that is not a version of the engine."""
    text = (version or CURRENT[engine]).strip()
    if len(text) > VERSION_LIMIT:
        raise SizingError(f"engine_version is at most {VERSION_LIMIT} characters (got {len(text)})")
    if engine == "llama_cpp":
        build = _BUILD.match(text)
        if build:
            return (int(build.group(1)),), f"b{build.group(1)}"
        raise SizingError(f"engine_version for llama_cpp is a build number such as 'b6250' (got '{text[:40]}')")
    release = _RELEASE.match(text)
    if not release:
        raise SizingError(f"engine_version for {engine} is a release such as '{CURRENT[engine]}' (got '{text[:40]}')")
    parts = tuple(int(p) for p in release.groups() if p is not None)
    return parts, ".".join(str(p) for p in parts)
