"""One open model's architecture: every config.json field a memory estimate needs, and how its release is stored."""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

WindowKind = Literal["sliding", "chunked"]


@dataclass(frozen=True)
class LatentAttention:
    """Multi-head latent attention (DeepSeek V2/V3, Kimi K2): its sizes, all present."""
    q_lora_rank: int | None   # None: queries are projected directly (DeepSeek-V2-Lite)
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int

    @property
    def query_head_dim(self) -> int:
        return self.qk_nope_head_dim + self.qk_rope_head_dim
ReleaseScope = Literal["blocks", "experts"]


class ModelArch(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model_id: str = Field(min_length=3, description="Hugging Face id, e.g. meta-llama/Llama-3.1-8B")
    family: str
    model_type: str | None = Field(default=None, description="config.json model_type (of the text model for multimodal ones)")
    aliases: list[str] = []
    short_names: list[str] = Field(default=[], description="family-and-size names ('llama 70b') this row answers as the "
                                   "family's current model, with a note")
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
    mlp_bias: bool = False
    gated_mlp: bool = True
    attention_sinks: bool = False
    qk_norm: bool = False
    qk_norm_per_head: bool = Field(default=True, description="q/k norms over head_dim (Qwen3, Gemma 3) or the whole width (OLMo 2)")
    norms_per_layer: int = Field(default=2, ge=1, le=4)
    embedding_scaled: bool = False
    sliding_window: int | None = Field(default=None, gt=0, description="tokens a windowed layer keeps (sliding window or attention chunk)")
    sliding_window_every: int | None = Field(default=None, ge=1, description="1 in N layers is global; 1 = every layer slides "
                                             "(older rows; window_layers says it directly)")
    window_layers: int | None = Field(default=None, ge=0, description="layers whose transformers cache keeps only sliding_window tokens")
    window_kind: WindowKind = "sliding"
    num_experts: int | None = Field(default=None, gt=0)
    num_experts_per_tok: int | None = Field(default=None, gt=0)
    moe_intermediate_size: int | None = Field(default=None, gt=0)
    num_shared_experts: int = Field(default=0, ge=0)
    shared_expert_intermediate_size: int | None = Field(default=None, gt=0, description="shared expert width when it differs "
                                                        "from moe_intermediate_size")
    shared_expert_gate: bool = Field(default=False, description="a sigmoid gate (hidden -> 1) on the shared expert (Qwen2-MoE)")
    first_k_dense_layers: int = Field(default=0, ge=0)
    moe_layer_count: int | None = Field(default=None, ge=0, description="layers with a mixture of experts (default: every "
                                        "layer after first_k_dense_layers)")
    dense_mlp: bool = True
    router_bias: bool = False
    expert_bias: bool = False
    q_lora_rank: int | None = Field(default=None, gt=0)
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_nope_head_dim: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    v_head_dim: int | None = Field(default=None, gt=0)
    mtp_layers: int = Field(default=0, ge=0, description="multi-token-prediction layers shipped in the checkpoint, not loaded")
    vision_params: int = Field(default=0, ge=0, description="vision tower parameters of multimodal checkpoints")
    release_format: str = Field(default="bf16", description="how the release stores its weights: a weights_dtype of estimate_vram")
    release_scope: ReleaseScope = Field(default="blocks", description="what a quantized release quantizes: every linear layer of "
                                        "the decoder blocks, or only the MoE experts (gpt-oss)")
    release_bytes: int | None = Field(default=None, gt=0, description="bytes of the tensors an engine loads, from the release's "
                                      "safetensors headers")
    release_note: str = ""
    published_params_billions: float | None = Field(default=None, gt=0)
    published_active_params_billions: float | None = Field(default=None, gt=0)
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = ""

    @model_validator(mode="before")
    @classmethod
    def _from_config(cls, data: Any) -> Any:
        """A row may give the model's config.json as `config`: its fields are read the way transformers reads them."""
        if isinstance(data, dict) and "config" in data:
            from .hf_config import arch_fields

            data = dict(data)
            fields = arch_fields(data.pop("config"), data["model_id"])
            data = {**fields, **data}
        return data

    @property
    def is_moe(self) -> bool:
        return self.num_experts is not None

    @property
    def uses_mla(self) -> bool:
        return self.kv_lora_rank is not None

    @property
    def latent_attention(self) -> LatentAttention | None:
        if self.kv_lora_rank is None or self.qk_nope_head_dim is None or self.qk_rope_head_dim is None or self.v_head_dim is None:
            return None
        return LatentAttention(self.q_lora_rank, self.kv_lora_rank, self.qk_nope_head_dim, self.qk_rope_head_dim, self.v_head_dim)

    @property
    def attention_head_dim(self) -> int:
        return self.head_dim or self.hidden_size // self.num_attention_heads

    @property
    def windowed_layers(self) -> int:
        """Layers whose cache keeps only `sliding_window` tokens (transformers' DynamicCache)."""
        if not self.sliding_window:
            return 0
        if self.window_layers is not None:
            return self.window_layers
        every = self.sliding_window_every
        if not every:
            return 0
        return self.num_hidden_layers if every == 1 else self.num_hidden_layers - self.num_hidden_layers // every

    @property
    def moe_layers(self) -> int:
        if not self.is_moe:
            return 0
        if self.moe_layer_count is not None:
            return self.moe_layer_count
        return self.num_hidden_layers - self.first_k_dense_layers

    @model_validator(mode="after")
    def _consistent(self) -> ModelArch:
        if self.num_attention_heads % self.num_key_value_heads:
            raise ValueError("num_attention_heads must be a multiple of num_key_value_heads")
        if self.is_moe and not self.num_experts_per_tok:
            raise ValueError("a mixture-of-experts model needs num_experts_per_tok")
        if self.uses_mla and None in (self.qk_nope_head_dim, self.qk_rope_head_dim, self.v_head_dim):
            raise ValueError("multi-head latent attention needs qk_nope_head_dim, qk_rope_head_dim and v_head_dim")
        if self.window_layers is not None and self.window_layers > self.num_hidden_layers:
            raise ValueError("window_layers cannot exceed num_hidden_layers")
        if self.moe_layer_count is not None and self.moe_layer_count > self.num_hidden_layers:
            raise ValueError("moe_layer_count cannot exceed num_hidden_layers")
        return self
