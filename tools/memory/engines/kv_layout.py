"""How a serving engine lays out the KV cache of one GPU: bytes per token of each kind of attention layer on a rank,
and vLLM's grouping of hybrid models (full, sliding-window and chunked layers) into KV-cache groups.

vLLM (vllm/v1/kv_cache_interface.py, vllm/v1/core/kv_cache_utils.py): a layer's page holds block_size tokens of
2 x max(1, kv_heads // tp) x head_dim values (KV heads are replicated when tensor parallelism exceeds them); multi-head
latent attention keeps one kv_lora_rank + qk_rope_head_dim latent per token, not split across ranks. Hybrid models
are grouped so every group has the same number of layers; blocks are shared across groups, the log reports
(blocks // groups) x block_size tokens, and a request needs its full-length blocks in full groups but only
window + max_num_batched_tokens in sliding groups.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from gpusizer.catalog import ModelArch
from gpusizer.tools.memory.kv_cache import kv_bytes_per_token_per_layer


@dataclass(frozen=True)
class AttentionKind:
    kind: str                 # full, sliding or chunked
    layers: int               # on this rank
    window: int | None        # tokens a sliding/chunked layer keeps
    bytes_per_token: float    # per layer on this rank


def attention_kinds(arch: ModelArch, kv_bytes: float, tp: int = 1, pp: int = 1) -> list[AttentionKind]:
    """The attention layers of one rank by kind, the busiest pipeline stage (ceil(layers / pp))."""
    if arch.latent_attention is not None:
        per_layer = kv_bytes_per_token_per_layer(arch, kv_bytes)
    else:
        per_layer = 2 * max(1, arch.num_key_value_heads // tp) * arch.attention_head_dim * kv_bytes
    share = math.ceil(arch.num_hidden_layers / pp) / arch.num_hidden_layers
    windowed = arch.windowed_layers
    kinds = [AttentionKind("full", math.ceil((arch.num_hidden_layers - windowed) * share), None, per_layer)]
    if windowed:
        kinds.append(AttentionKind(arch.window_kind, math.ceil(windowed * share), arch.sliding_window, per_layer))
    return [k for k in kinds if k.layers]


@dataclass(frozen=True)
class VllmGroups:
    group_size: int           # layers per KV-cache group (padding layers included)
    groups: dict[str, int]    # groups per attention kind
    padding_layers: int

    @property
    def count(self) -> int:
        return sum(self.groups.values())


def vllm_groups(kinds: list[AttentionKind]) -> VllmGroups:
    """vLLM's hybrid KV-cache manager: groups of equal size, the smallest kind's layer count (the largest when it is
    under 1.5 x the smallest); each kind fills ceil(layers / size) groups, the gap logged as padding layers."""
    counts = [k.layers for k in kinds]
    smallest, largest = min(counts), max(counts)
    size = largest if largest < 1.5 * smallest else smallest
    groups = {k.kind: math.ceil(k.layers / size) for k in kinds}
    padding = sum(g * size for g in groups.values()) - sum(counts)
    return VllmGroups(size, groups, padding)


def vllm_blocks_per_request(kinds: list[AttentionKind], groups: VllmGroups, max_model_len: int, block: int,
                            batched_tokens: int) -> int:
    """Blocks one request of max_model_len tokens needs, summed over groups (kv_cache_interface max_memory_usage)."""
    needed = 0
    for k in kinds:
        if k.kind == "full" or k.window is None:
            per_group = math.ceil(max_model_len / block)
        elif k.kind == "sliding":
            per_group = math.ceil(min(k.window - 1 + batched_tokens, max_model_len) / block) + 1
        else:  # chunked local attention (Llama 4)
            per_group = math.ceil(min(k.window + batched_tokens, max_model_len) / block)
        needed += per_group * groups.groups[k.kind]
    return needed


def tokens_per_byte_pool(kinds: list[AttentionKind], window_share: float = 1.0) -> float:
    """Bytes one token costs across all layers of a rank; window_share < 1 gives windowed layers fewer cells
    (SGLang's swa_full_tokens_ratio)."""
    return sum(k.layers * k.bytes_per_token * (1 if k.kind == "full" else window_share) for k in kinds)
