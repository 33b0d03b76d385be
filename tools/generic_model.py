"""A stand-in architecture for a model the catalog does not know, from its size alone."""
from __future__ import annotations

import datetime

from gpusizer.catalog import ModelArch

VOCAB = 128_256  # Llama 3's tokenizer: a common modern vocabulary size


def generic_dense_decoder(params_billions: float) -> ModelArch:
    """Llama-style: gated MLP 3.5x wide, head_dim 128, ~4 query heads per KV head, ~128 hidden units per layer."""
    target = params_billions * 1e9
    per_layer = lambda h: 13 * h * h  # noqa: E731  attention 2.5 h^2 (GQA 4:1) + gated MLP 3 * h * 3.5 h
    fixed = lambda h: 2 * VOCAB * h   # noqa: E731  untied embedding and LM head
    hidden = min(range(256, 65536 + 1, 256), key=lambda h: abs(per_layer(h) * h / 128 + fixed(h) - target))
    layers = max(1, round((target - fixed(hidden)) / per_layer(hidden)))
    heads = hidden // 128
    kv_heads = max(d for d in range(1, heads + 1) if heads % d == 0 and d <= max(1, heads // 4))
    return ModelArch(model_id=f"generic-{params_billions:g}b", family="generic", num_hidden_layers=layers,
                     hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=128,
                     intermediate_size=int(3.5 * hidden), vocab_size=VOCAB, tie_word_embeddings=False,
                     max_position_embeddings=131072, source="gpusizer generic dense decoder (assumed architecture)",
                     as_of=datetime.date(2026, 11, 22), verification="assumed")
