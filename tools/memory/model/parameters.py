"""Parameter counts from an architecture, by component, so weights can be priced per format."""
from __future__ import annotations

from dataclasses import dataclass

from gpusizer.catalog import ModelArch


@dataclass(frozen=True)
class ParameterCount:
    embedding: int        # input embedding table
    lm_head: int          # 0 when tied to the embedding
    attention: int        # all layers: projections, biases, q/k norms, sinks, MLA low-rank parts
    dense_mlp: int        # all layers with a dense MLP
    routed_experts: int   # all layers, every expert
    shared_experts: int
    routers: int
    norms: int            # layer norms and the final norm
    vision: int           # vision tower of a multimodal checkpoint
    active_routed_experts: int  # experts one token passes through, all layers

    @property
    def total(self) -> int:
        return (self.embedding + self.lm_head + self.attention + self.dense_mlp + self.routed_experts
                + self.shared_experts + self.routers + self.norms + self.vision)

    @property
    def active(self) -> int:
        """Parameters one token touches (MoE: only its routed experts)."""
        return self.total - self.routed_experts + self.active_routed_experts

    @property
    def linear_in_blocks(self) -> int:
        """Weights of the decoder blocks' linear layers: what quantization formats compress."""
        return self.attention + self.dense_mlp + self.routed_experts + self.shared_experts


def attention_params_per_layer(arch: ModelArch) -> int:
    h, heads, kv = arch.hidden_size, arch.num_attention_heads, arch.num_key_value_heads
    mla = arch.latent_attention
    if mla is not None:
        q_head, rank = mla.query_head_dim, mla.q_lora_rank
        q = (h * rank + rank + rank * heads * q_head) if rank else h * heads * q_head
        kv_down = h * (mla.kv_lora_rank + mla.qk_rope_head_dim) + mla.kv_lora_rank
        kv_up = mla.kv_lora_rank * heads * (mla.qk_nope_head_dim + mla.v_head_dim)
        return q + kv_down + kv_up + heads * mla.v_head_dim * h
    d = arch.attention_head_dim
    count = h * heads * d + 2 * h * kv * d + heads * d * h
    if arch.attention_bias:
        count += heads * d + 2 * kv * d
    if arch.attention_output_bias:
        count += h
    if arch.qk_norm:
        count += 2 * d if arch.qk_norm_per_head else (heads + kv) * d
    if arch.attention_sinks:
        count += heads
    return count


def mlp_params(hidden: int, width: int, *, bias: bool = False, gated: bool = True) -> int:
    """A gated MLP (gate, up, down) or a plain two-matrix one, with or without biases."""
    if gated:
        return 3 * hidden * width + ((2 * width + hidden) if bias else 0)
    return 2 * hidden * width + ((width + hidden) if bias else 0)


def count_parameters(arch: ModelArch) -> ParameterCount:
    h, layers = arch.hidden_size, arch.num_hidden_layers
    moe_layers = arch.moe_layers
    dense_layers = layers - moe_layers
    expert_width = arch.moe_intermediate_size or arch.intermediate_size
    per_expert = mlp_params(h, expert_width, bias=arch.expert_bias, gated=arch.gated_mlp)
    shared_width = arch.shared_expert_intermediate_size or expert_width
    experts = moe_layers * (arch.num_experts or 0) * per_expert
    embedding = arch.vocab_size * h
    router = (h + 1) * (arch.num_experts or 0) if arch.router_bias else h * (arch.num_experts or 0)
    router += h if arch.shared_expert_gate else 0
    return ParameterCount(
        embedding=embedding,
        lm_head=0 if arch.tie_word_embeddings else embedding,
        attention=layers * attention_params_per_layer(arch),
        dense_mlp=dense_layers * mlp_params(h, arch.intermediate_size, bias=arch.mlp_bias, gated=arch.gated_mlp),
        routed_experts=experts,
        shared_experts=moe_layers * arch.num_shared_experts * mlp_params(h, shared_width, gated=arch.gated_mlp),
        routers=moe_layers * router,
        norms=layers * arch.norms_per_layer * h + h,
        vision=arch.vision_params,
        active_routed_experts=moe_layers * (arch.num_experts_per_tok or 0) * per_expert,
    )


def model_card(arch: ModelArch) -> str:
    """A model's card in one line, as a person asks 'what is Qwen3 30B-A3B?': its parameters (active ones for an MoE),
    layers, hidden size, heads, vocabulary and the config's source."""
    counts = count_parameters(arch)
    moe = f", MoE with {counts.active / 1e9:.1f}B active" if counts.active != counts.total else ""
    return (f"{arch.model_id}: {counts.total / 1e9:.2f}B parameters{moe}; {arch.num_hidden_layers} layers, hidden "
            f"{arch.hidden_size}, {arch.num_attention_heads} query / {arch.num_key_value_heads} KV heads, vocabulary "
            f"{arch.vocab_size:,}. Source: {arch.source} (as of {arch.as_of}).")
