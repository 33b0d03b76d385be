"""What people type into a number field, read as the number they mean: '8k', '32K', '1,024', '1e3', '$25,000', '60%'.

A context length's 'k' is 1,024 tokens (8k = 8,192, as context sizes are quoted); any other field's 'k' is a
thousand ('2k users' = 2,000), 'm' a million. The field shows the value it read whenever the text is not already it.
"""
from __future__ import annotations

import math
import re

TOKEN_FIELDS = frozenset({"seq_len", "prompt_tokens", "output_tokens", "max_model_len", "max_num_batched_tokens"})
NUMBER = re.compile(r"^\s*\$?\s*([-+]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)\s*([kKmM%]?)\s*$")
LONGEST_TEXT = 40  # characters: longer is not a number anyone typed


def read_number(field: str, text: str) -> float:
    """The number `text` means in `field`; ValueError when it is none."""
    found = NUMBER.match(text) if len(text) <= LONGEST_TEXT else None
    if found is None:
        raise ValueError(text)
    digits, suffix = found.group(1).replace(",", "").replace("_", ""), found.group(2).lower()
    value = float(digits)
    scale = {"k": 1024 if field in TOKEN_FIELDS else 1000, "m": 1024 ** 2 if field in TOKEN_FIELDS else 1e6, "%": 0.01}
    value *= scale.get(suffix, 1)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def shown_as_read(value: float) -> str:
    """The value as the field echoes it: '= 8,192'."""
    return f"= {value:,.0f}" if float(value).is_integer() else f"= {value:,g}"
