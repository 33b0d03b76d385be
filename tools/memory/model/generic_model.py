"""A stand-in architecture for a model the catalog does not know, from its size alone."""
from __future__ import annotations

import datetime

from gpusizer.catalog import ModelArch

VOCAB = 128_256      # Llama 3's tokenizer: a common modern vocabulary size
HEAD_DIM = 128
KV_HEADS = 8         # grouped-query attention with 8 KV heads: Llama 3, Qwen 2.5/3, Mistral, Gemma 3 27B...
MLP_RATIO = 3.5      # Llama 3 8B/70B/405B: 14336/4096, 28672/8192, 53248/16384
SHAPE = (f"a modern dense decoder: grouped-query attention with {KV_HEADS} KV heads of {HEAD_DIM} dims, gated MLP "
         f"{MLP_RATIO}x wide, 80-128 hidden units per layer by size, untied {VOCAB:,}-token vocabulary (Llama 3's shapes)")


def hidden_per_layer(params_billions: float) -> int:
    """Width over depth of current dense models: 128 up to ~16B (Llama 3 8B 4096/32, Qwen3 14B 5120/40), deeper in
    the middle (Llama 3 70B 8192/80, Qwen2.5 72B 8192/80, Qwen3 32B 5120/64), 128 again at the top (Llama 3 405B
    16384/126)."""
    return 100 if 16 < params_billions <= 200 else HEAD_DIM


def generic_dense_decoder(params_billions: float) -> ModelArch:
    target = params_billions * 1e9

    def per_layer(h: int) -> float:
        kv = min(KV_HEADS, h // HEAD_DIM) * HEAD_DIM
        return 2 * h * h + 2 * h * kv + 3 * h * MLP_RATIO * h

    def layers_for(h: int) -> float:
        return max(1.0, (target - 2 * VOCAB * h) / per_layer(h))  # untied embedding and LM head take the rest

    aspect = hidden_per_layer(params_billions)
    # widths in whole groups of KV_HEADS heads (so every KV head serves the same number of query heads)
    widths = [*range(256, 1024, 256), *range(1024, 65536 + 1, KV_HEADS * HEAD_DIM)]
    hidden = min(widths, key=lambda h: abs(layers_for(h) - h / aspect))
    layers = max(1, round(layers_for(hidden)))
    heads = max(1, hidden // HEAD_DIM)
    kv_heads = max(d for d in range(1, min(KV_HEADS, heads) + 1) if heads % d == 0)
    return ModelArch(model_id=f"generic-{params_billions:g}b", family="generic", num_hidden_layers=layers,
                     hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=HEAD_DIM,
                     intermediate_size=int(MLP_RATIO * hidden), vocab_size=VOCAB, tie_word_embeddings=False,
                     max_position_embeddings=131072, source=f"gpusizer generic decoder: {SHAPE}",
                     as_of=datetime.date(2026, 11, 22), verification="assumed")


def assumed_architecture(params_billions: float, arch: ModelArch) -> str:
    """The warning every answer about an unlisted model carries: which shape stood in for it."""
    return (f"architecture assumed for {params_billions:g}B parameters ({arch.num_hidden_layers} layers, hidden "
            f"{arch.hidden_size}, {arch.num_key_value_heads} KV heads); name the model for exact figures")
