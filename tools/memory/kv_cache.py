"""KV cache bytes: grouped-query heads, multi-head latent attention, sliding-window layers.

How a model's attention layers cache keys and values depends on who runs it: serving engines (vLLM, SGLang,
llama.cpp) keep multi-head latent attention compressed (one latent of kv_lora_rank + qk_rope_head_dim per token and
layer), while transformers' DeepSeek/Kimi attention caches the decompressed per-head keys and values."""
from __future__ import annotations

from gpusizer.catalog import ModelArch


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
