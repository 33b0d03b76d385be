"""A stand-in architecture for a model the catalog does not know, from its size alone."""
from __future__ import annotations

import datetime

from gpusizer.catalog import ModelArch

VOCAB = 128_256      # Llama 3's tokenizer: a common modern vocabulary size
HEAD_DIM = 128
KV_HEADS = 8         # grouped-query attention with 8 KV heads: Llama 3, Qwen 2.5/3, Mistral, Gemma 3 27B...
MLP_RATIO = 3.5      # Llama 3 8B/70B/405B: 14336/4096, 28672/8192, 53248/16384
SHAPE = (f"a modern dense decoder: grouped-query attention with {KV_HEADS} KV heads of {HEAD_DIM} dims, gated MLP "
         f"{MLP_RATIO}x wide, about {HEAD_DIM} hidden units per layer, untied {VOCAB:,}-token vocabulary (Llama 3's shape)")


def generic_dense_decoder(params_billions: float) -> ModelArch:
    target = params_billions * 1e9

    def per_layer(h: int) -> float:
        kv = min(KV_HEADS, h // HEAD_DIM) * HEAD_DIM
        return 2 * h * h + 2 * h * kv + 3 * h * MLP_RATIO * h

    def fixed(h: int) -> float:
        return 2 * VOCAB * h  # untied embedding and LM head

    hidden = min(range(256, 65536 + 1, 256), key=lambda h: abs(per_layer(h) * h / HEAD_DIM + fixed(h) - target))
    layers = max(1, round((target - fixed(hidden)) / per_layer(hidden)))
    heads = max(1, hidden // HEAD_DIM)
    kv_heads = max(d for d in range(1, min(KV_HEADS, heads) + 1) if heads % d == 0)
    return ModelArch(model_id=f"generic-{params_billions:g}b", family="generic", num_hidden_layers=layers,
                     hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=HEAD_DIM,
                     intermediate_size=int(MLP_RATIO * hidden), vocab_size=VOCAB, tie_word_embeddings=False,
                     max_position_embeddings=131072, source=f"gpusizer generic decoder: {SHAPE}",
                     as_of=datetime.date(2026, 11, 22), verification="assumed")
