"""Architecture families: how each Hugging Face model_type lays out parameters and KV cache (data/architectures.json)."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .loading import builtin_text

BiasRule = bool | str  # True / False, or the config key that switches it ("config" = attention_bias)


class Family(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model_type: str
    also: list[str] = []
    defaults: dict[str, Any] = {}
    qkv_bias: BiasRule = "config"
    o_bias: BiasRule = "config"
    mlp_bias: BiasRule = False
    qk_norm: Literal["none", "per_head", "full_width"] = "none"
    qk_norm_key: str | None = None  # the norms exist only when this config key is true (GLM-4.5's use_qk_norm)
    norms_per_layer: int = 2
    embedding_scaled: bool = False
    attention_sinks: bool = False
    router_bias: bool = False
    expert_bias: bool = False
    gated_mlp: bool = True
    window_rule: Literal["none", "all_if_set", "qwen", "pattern", "chunked"] = "none"
    window_every: int | None = None
    window_every_key: str | None = None
    moe_rule: Literal["none", "all", "first_k_dense", "sparse_step", "interleave"] = "none"
    experts_key: str | None = None
    expert_width_key: str | None = None
    dense_width_key: str | None = None
    shared_count_key: str | None = None
    shared_count: int = 0
    shared_width_key: str | None = None
    shared_expert_gate: bool = False
    mla: bool = False
    mtp_key: str | None = None  # config key counting multi-token-prediction layers shipped in the checkpoint
    source: str


GENERIC = Family(model_type="generic", source="no family rule: read as a Llama-style decoder (gated MLP, no biases, "
                 "two norms per layer), mixture-of-experts fields taken where present")


class Wrapper(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model_type: str
    text_model_type: str
    source: str


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Family], dict[str, Wrapper]]:
    data = json.loads(builtin_text("architectures.json"))
    families: dict[str, Family] = {}
    for row in data["families"]:
        family = Family.model_validate(row)
        for name in (family.model_type, *family.also):
            families[name] = family
    wrappers = {w["model_type"]: Wrapper.model_validate(w) for w in data["wrappers"]}
    return families, wrappers


def family_for(model_type: str | None) -> Family:
    """The rules for a config's model_type; GENERIC when transformers' layout for it is not in the table."""
    return _table()[0].get(model_type or "", GENERIC)


def wrapper_for(model_type: str | None) -> Wrapper | None:
    return _table()[1].get(model_type or "")
