"""KV cache bytes: grouped-query heads, multi-head latent attention, sliding-window layers.

How a model's attention layers cache keys and values depends on who runs it: serving engines (vLLM, SGLang,
llama.cpp) keep multi-head latent attention compressed (one latent of kv_lora_rank + qk_rope_head_dim per token and
layer), while transformers' DeepSeek/Kimi attention caches the decompressed per-head keys and values."""
from __future__ import annotations

from gpusizer.catalog import ModelArch

# model_types whose Hub generation_config.json sets cache_implementation="hybrid" (google/gemma-2-*, google/gemma-3-*):
# before transformers 4.56 generate() built HybridCache, static layers of min(window, max_cache_len) tokens.
HYBRID_STATIC_CACHE_TYPES = frozenset({"gemma2", "gemma3", "gemma3_text"})


def kv_bytes_per_token_per_layer(arch: ModelArch, dtype_bytes: float, *, latent: bool = True) -> float:
    mla = arch.latent_attention
    if mla is not None and latent:  # the compressed latent plus the shared rope key, as vLLM/SGLang MLA backends cache it
        return (mla.kv_lora_rank + mla.qk_rope_head_dim) * dtype_bytes
    if mla is not None:  # transformers: keys of qk_nope + qk_rope and values of v_head_dim, for every head
        return arch.num_attention_heads * (mla.query_head_dim + mla.v_head_dim) * dtype_bytes
    return 2 * arch.num_key_value_heads * arch.attention_head_dim * dtype_bytes


def kv_cache_bytes(arch: ModelArch, batch: int, tokens: int, dtype_bytes: float, cap_sliding: bool = True,
                   *, latent: bool = True) -> int:
    """Bytes of keys and values kept for `batch` sequences of `tokens` tokens, all layers.

    `cap_sliding=False` models the Hugging Face prefill, which keeps every token in sliding layers too."""
    per_layer = kv_bytes_per_token_per_layer(arch, dtype_bytes, latent=latent)
    windowed = arch.windowed_layers if cap_sliding else 0
    full = arch.num_hidden_layers - windowed
    window_tokens = min(tokens, arch.sliding_window or tokens)
    return int(batch * per_layer * (full * tokens + windowed * window_tokens))


def prefill_caps_windows(arch: ModelArch, hub_hybrid_cache_honoured: bool) -> bool:
    """Whether a transformers prefill longer than the window holds only the window in its sliding layers. Traced with
    transformers 5.24 on fake tensors (tests/data/vram_traced_sliding_window.jsonl): DynamicSlidingWindowLayer.update
    (cache_utils.py) keeps `full_key_states[:, :, -sliding_window + 1:, :]`, a view whose storage is the whole prefill,
    for Mistral, Qwen2 (use_sliding_window), Gemma 2/3 and gpt-oss alike. Only Gemma 2/3 under transformers < 4.56
    (HybridCache from the Hub's generation config, preallocated to the window) cap it; before the 4.54 cache refactor
    DynamicCache had no sliding layers at all and kept every token."""
    return hub_hybrid_cache_honoured and arch.model_type in HYBRID_STATIC_CACHE_TYPES
