"""Activation memory: the inference prefill peak and what training saves for the backward pass.

The per-layer terms count the tensors PyTorch autograd keeps for a Hugging Face decoder layer with SDPA
attention (probed with saved-tensor hooks on fake tensors, see docs/memory-model.md):
  T = tokens in the micro-batch, h = hidden, f = MLP width, q = heads*head_dim, kv = kv_heads*head_dim.
"""
from __future__ import annotations

from dataclasses import dataclass

from gpusizer.catalog import ModelArch

FP32 = 4
INT64 = 8


@dataclass(frozen=True)
class Shape:
    """The widths that activations scale with, already divided by tensor parallelism where sharded."""
    hidden: int
    mlp: float        # dense MLP width, or the width one token sees through its routed experts
    query: float
    key_value: float
    heads: float
    vocab: float
    head_dim: int
    norms_per_layer: int
    qk_norm: bool
    routed_copies: int = 0   # experts per token (mixture of experts), 0 for dense models

    @classmethod
    def of(cls, arch: ModelArch, tensor_parallel: int = 1, *, sequence_parallel: bool = False) -> Shape:
        """sequence_parallel: the hidden-wide activations are split across the tensor-parallel group too (Megatron-LM's
        --sequence-parallel, torchtitan's tensor parallel plan): what training with tensor parallelism runs."""
        tp = tensor_parallel
        mla = arch.latent_attention
        if mla is not None:
            query = arch.num_attention_heads * mla.query_head_dim
            key_value = arch.num_attention_heads * (mla.qk_nope_head_dim + mla.v_head_dim) / 2
        else:
            query = arch.num_attention_heads * arch.attention_head_dim
            key_value = arch.num_key_value_heads * arch.attention_head_dim
        return cls(arch.hidden_size // (tp if sequence_parallel else 1), mlp_width_per_token(arch) / tp, query / tp, key_value / tp,
                   arch.num_attention_heads / tp, arch.vocab_size / tp, arch.qk_rope_head_dim or arch.attention_head_dim,
                   arch.norms_per_layer, arch.qk_norm, arch.num_experts_per_tok or 0)


def mlp_width_per_token(arch: ModelArch) -> float:
    """Dense width, or for mixture-of-experts the routed experts' widths one token passes through."""
    if not arch.is_moe:
        return arch.intermediate_size
    expert = arch.moe_intermediate_size or arch.intermediate_size
    return (arch.num_experts_per_tok or 1) * expert + arch.num_shared_experts * (arch.shared_expert_intermediate_size or expert)


def inference_transient_bytes(shape: Shape, batch: int, seq: int, act_bytes: int) -> int:
    """Largest set of live temporaries during the prefill, on top of weights and the KV cache.

    Inside the last layer's MLP: three MLP-wide tensors (activation, up projection, their product), four
    hidden-wide ones (residual stream, attention sum, norm output, input), the rotary tables and token ids."""
    tokens = batch * seq
    mlp_phase = 3 * tokens * shape.mlp * act_bytes + 4 * tokens * shape.hidden * act_bytes
    attention_phase = (2 * shape.query + 2 * shape.key_value) * tokens * act_bytes + 4 * tokens * shape.hidden * act_bytes
    logits_phase = batch * shape.vocab * (act_bytes + FP32) + 2 * tokens * shape.hidden * act_bytes
    rotary = 2 * seq * shape.head_dim * act_bytes
    return int(max(mlp_phase, attention_phase, logits_phase) + rotary + tokens * INT64)


def saved_per_layer_bytes(shape: Shape, tokens: int, act_bytes: int, *, lora_rank: int | None, amp: bool,
                          kernels: str = "eager") -> float:
    """What autograd keeps for one decoder layer without checkpointing."""
    if kernels == "unsloth" and lora_rank and not amp:
        return unsloth_lora_layer_bytes(shape, tokens, act_bytes)
    norms = shape.norms_per_layer
    # RMSNorm keeps its fp32 upcast input; its 16-bit output is kept by the projection that reads it
    # (a frozen projection keeps nothing, so LoRA drops those, and its adapters keep their rank-r outputs).
    norm_bytes = norms * tokens * shape.hidden * FP32
    normed_outputs = 0 if lora_rank else norms * tokens * shape.hidden * act_bytes
    reshaped_inputs = 2 * tokens * shape.hidden * act_bytes          # o_proj and residual-side copies
    mlp = 4 * tokens * shape.mlp * act_bytes                         # gate output, activation, up output, product
    rotary = 2 * tokens * (shape.query + shape.key_value) * act_bytes  # q and k before and after rotation
    softmax_stats = tokens * shape.heads * FP32                      # SDPA's log-sum-exp
    qk_norm = 2 * tokens * (shape.query + shape.key_value) * (FP32 + act_bytes) / 2 if shape.qk_norm else 0
    adapters = 8 * tokens * lora_rank * act_bytes if lora_rank else 0
    # Mixture of experts: each routed copy of a token's hidden state is gathered for its expert and its
    # weighted output kept (the expert MLPs themselves are already in `mlp`, at the routed width).
    routing = 2 * tokens * shape.routed_copies * shape.hidden * act_bytes if shape.routed_copies else 0
    # Under autocast the residual stream and norm outputs stay fp32, and every projection input is cast to
    # bf16 and kept: five more hidden-wide fp32-or-cast tensors per layer than pure bf16.
    autocast = 5 * tokens * shape.hidden * act_bytes if amp else 0
    return norm_bytes + normed_outputs + reshaped_inputs + mlp + rotary + softmax_stats + qk_norm + adapters + routing + autocast


def unsloth_lora_layer_bytes(shape: Shape, tokens: int, act_bytes: int) -> float:
    """A decoder layer under Unsloth's LoRA kernels (unsloth/kernels, 2026.10): RMSNorm saves its 16-bit input and one
    fp32 inverse-RMS per row (rms_layernorm.py); LoRA_QKV saves the normed input X only (fast_lora.py); RoPE rotates in
    place and saves cos/sin (rope_embedding.py); attention keeps q, k, v, its output and the log-sum-exp; LoRA_MLP saves
    X and the gate and up outputs e and g, recomputing the activation in backward."""
    norms = shape.norms_per_layer * tokens * (shape.hidden * act_bytes + FP32)
    inputs = 2 * tokens * shape.hidden * act_bytes                   # X of LoRA_QKV and of LoRA_MLP
    attention = tokens * (2 * shape.query + 2 * shape.key_value) * act_bytes + tokens * shape.heads * FP32
    mlp = 2 * tokens * shape.mlp * act_bytes                         # e and g
    routing = 2 * tokens * shape.routed_copies * shape.hidden * act_bytes if shape.routed_copies else 0
    return norms + inputs + attention + mlp + routing


CHUNKS = 8  # torchtune's CEWithChunkedOutputLoss / LinearCrossEntropyLoss default num_output_chunks


@dataclass(frozen=True)
class FusedLoss:
    """A fused linear cross-entropy kernel: it projects a tile of tokens onto the vocabulary at a time and writes the
    hidden states' gradient, so the full logits never exist.

    hidden_bytes: per hidden-state element, the gradient buffer plus any per-token scratch of the kernel;
    tile_cap_bytes / tile_bytes_per_logit: the largest logits tile it holds (0 = accounted in hidden_bytes)."""
    hidden_bytes: int
    tile_cap_bytes: float
    tile_bytes_per_logit: int
    name: str
    free_fraction: float = 0.0  # > 0: the tile is sized to this share of the GPU memory still free (Unsloth)

    def bytes(self, tokens: int, hidden: int, vocab: float, free_bytes: float | None = None) -> int:
        """An elastic tile (free_fraction) only takes memory that is free: counted on a named GPU, never needed to fit."""
        tile = min(self.tile_cap_bytes, tokens * vocab * self.tile_bytes_per_logit)
        if self.free_fraction:
            tile = 0 if free_bytes is None else min(tile, max(0.0, free_bytes) * self.free_fraction)
        return int(tokens * hidden * self.hidden_bytes + tile)


FUSED_LOSSES = {
    # Liger-Kernel's fused_linear_cross_entropy (v0.8.2): a 16-bit hidden-state gradient and tiles of about
    # tokens / ceil(vocab / hidden) rows, i.e. ~tokens x hidden logits, in fp32 with their gradient (8 bytes).
    "liger": FusedLoss(2 + 8, 0, 0, "Liger fused linear cross-entropy"),
    # TRL 1.16 kernels/chunked_logprob.py: fp32 grad_hidden [N, H] and one reusable bf16 tile of 4096 x 32768.
    "trl": FusedLoss(4, 4096 * 32768 * 2, 2, "TRL fused LM head"),
    # unsloth_zoo fused_losses/cross_entropy_loss.py: grad_inputs like the hidden states (bf16), chunks sized for a
    # transient of half the free GPU memory, at most 4 GiB, at 16 bytes per logit.
    "unsloth": FusedLoss(2, 4 * 2**30, 16, "Unsloth fused cross-entropy", free_fraction=0.5),
}


def loss_bytes(shape: Shape, tokens: int, act_bytes: int, *, logits_kept: bool, kind: str = "standard",
               fused: FusedLoss = FUSED_LOSSES["liger"], free_bytes: float | None = None, compiled: bool = False,
               fp32_logits: bool = False) -> int:
    """The loss at the start of backward.

    standard (transformers' ForCausalLMLoss): three fp32 vocabulary-wide buffers (the log-softmax output it saved,
    that output's gradient and the logits' gradient), plus the 16-bit logits while the loop holds the model output.
    Traced: the two differ by exactly tokens x vocabulary x 2 bytes, for Llama-3.2-1B and -3B alike.
    chunked (torchtune): each of 8 chunks is upcast and saved separately, so backward holds every chunk's saved
    fp32 log-softmax output but the gradients of one chunk at a time: 4 + 2 x 4/8 bytes per logit.
    fused linear cross-entropy (Liger, TRL, Unsloth): the kernel's own buffers (see FusedLoss).
    compiled (torch.compile of the loss, as torchtune's compile=True does): AOT autograd fuses the upcast, log-softmax and
    NLL and saves the 16-bit logits it can recompute them from, the same tensor the model returned; backward writes a
    16-bit gradient (one chunk at a time when chunked).
    fp32_logits (transformers before 4.46): the model itself returned the upcast logits, so held ones cost 4 bytes."""
    logits = tokens * shape.vocab
    kept = (FP32 if fp32_logits and kind == "standard" else act_bytes) * logits if logits_kept else 0
    if compiled and kind != "fused":
        return int(logits * act_bytes * (1 + (1 / CHUNKS if kind == "chunked" else 1)))
    if kind == "chunked":
        return int(logits * (FP32 + 2 * FP32 / CHUNKS) + kept)
    if kind == "fused":
        return int(fused.bytes(tokens, shape.hidden, shape.vocab, free_bytes) + kept)
    return int(logits * 3 * FP32 + kept)
