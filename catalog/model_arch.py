"""One open model's architecture: every config.json field a memory estimate needs."""
from __future__ import annotations

import datetime

from pydantic import BaseModel, ConfigDict, Field, model_validator


class ModelArch(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model_id: str = Field(min_length=3, description="Hugging Face id, e.g. meta-llama/Llama-3.1-8B")
    family: str
    aliases: list[str] = []
    num_hidden_layers: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_key_value_heads: int = Field(gt=0)
    head_dim: int | None = Field(default=None, gt=0)
    intermediate_size: int = Field(gt=0, description="dense MLP width (gated: gate, up and down projections)")
    vocab_size: int = Field(gt=0)
    tie_word_embeddings: bool = False
    max_position_embeddings: int = Field(gt=0)
    attention_bias: bool = Field(default=False, description="biases on the q, k, v projections")
    attention_output_bias: bool = False
    attention_sinks: bool = False
    qk_norm: bool = False
    norms_per_layer: int = Field(default=2, ge=1, le=4)
    embedding_scaled: bool = False
    sliding_window: int | None = Field(default=None, gt=0)
    sliding_window_every: int | None = Field(default=None, ge=1, description="1 in N layers is global; 1 = every layer slides")
    num_experts: int | None = Field(default=None, gt=0)
    num_experts_per_tok: int | None = Field(default=None, gt=0)
    moe_intermediate_size: int | None = Field(default=None, gt=0)
    num_shared_experts: int = Field(default=0, ge=0)
    first_k_dense_layers: int = Field(default=0, ge=0)
    dense_mlp: bool = True
    router_bias: bool = False
    expert_bias: bool = False
    q_lora_rank: int | None = Field(default=None, gt=0)
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_nope_head_dim: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    v_head_dim: int | None = Field(default=None, gt=0)
    vision_params: int = Field(default=0, ge=0, description="vision tower parameters of multimodal checkpoints")
    native_weight_format: str = "bf16"
    published_params_billions: float | None = Field(default=None, gt=0)
    published_active_params_billions: float | None = Field(default=None, gt=0)
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = ""

    @property
    def is_moe(self) -> bool:
        return self.num_experts is not None

    @property
    def uses_mla(self) -> bool:
        return self.kv_lora_rank is not None

    @property
    def attention_head_dim(self) -> int:
        return self.head_dim or self.hidden_size // self.num_attention_heads

    @model_validator(mode="after")
    def _consistent(self) -> "ModelArch":
        if self.num_attention_heads % self.num_key_value_heads:
            raise ValueError("num_attention_heads must be a multiple of num_key_value_heads")
        if self.is_moe and not self.num_experts_per_tok:
            raise ValueError("a mixture-of-experts model needs num_experts_per_tok")
        if self.uses_mla and None in (self.qk_nope_head_dim, self.qk_rope_head_dim, self.v_head_dim):
            raise ValueError("multi-head latent attention needs qk_nope_head_dim, qk_rope_head_dim and v_head_dim")
        return self
