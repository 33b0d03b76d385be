"""GGUF files as llama.cpp writes them: block sizes of each ggml type, and which type each tensor gets.

Block layouts from ggml/src/ggml-common.h (values per block, bytes per block). The per-tensor choice follows
llama.cpp's src/llama-quant.cpp `llama_tensor_get_type`: a file type (Q4_K_M, ...) has a base type, the output
matrix gets Q6_K, `attn_v` and `ffn_down` get more bits in some layers (`use_more_bits`: the first and last
eighth of the layers and every third one between), rows whose length is not a multiple of 256 fall back from
k-quants to legacy types, and one-dimensional tensors (norms, biases) and the MoE router stay f32.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpusizer.catalog import ModelArch

QK_K = 256

# ggml type -> (values per block, bytes per block)
GGML_TYPES: dict[str, tuple[int, int]] = {
    "F32": (1, 4), "F16": (1, 2), "BF16": (1, 2), "Q8_0": (32, 34), "Q4_0": (32, 18), "Q4_1": (32, 20),
    "Q5_0": (32, 22), "Q5_1": (32, 24), "Q2_K": (256, 84), "Q3_K": (256, 110), "Q4_K": (256, 144),
    "Q5_K": (256, 176), "Q6_K": (256, 210), "IQ4_XS": (256, 136), "IQ4_NL": (32, 18), "IQ3_XXS": (256, 98),
    "IQ3_S": (256, 110), "IQ2_XXS": (256, 66), "IQ2_XS": (256, 74), "IQ2_S": (256, 82), "IQ1_S": (256, 50),
    "IQ1_M": (256, 56), "MXFP4": (32, 17),
}
# k-quants and i-quants need rows of whole 256-value blocks; llama.cpp falls back to these otherwise
FALLBACK = {"Q2_K": "Q4_0", "Q3_K": "IQ4_NL", "Q4_K": "Q5_0", "Q5_K": "Q5_1", "Q6_K": "Q8_0", "IQ4_XS": "IQ4_NL",
            "IQ3_XXS": "IQ4_NL", "IQ3_S": "IQ4_NL", "IQ2_XXS": "IQ4_NL", "IQ2_XS": "IQ4_NL", "IQ2_S": "IQ4_NL", "IQ1_S": "IQ4_NL",
            "IQ1_M": "IQ4_NL"}


def bits(ggml_type: str) -> float:
    values, size = GGML_TYPES[ggml_type]
    return 8 * size / values


def use_more_bits(layer: int, layers: int) -> bool:
    return layer < layers // 8 or layer >= 7 * layers // 8 or (layer - layers // 8) % 3 == 2


@dataclass(frozen=True)
class Tensor:
    role: str     # token_embd, output, attn_q, attn_k, attn_v, attn_output, ffn_gate, ffn_up, ffn_down, ... or f32
    layer: int
    row: int      # values per row (the input width): must be a multiple of the block size
    values: int   # values in the whole tensor
    experts: int = 1


Rule = Callable[[Tensor, int, "ModelArch"], str]


@dataclass(frozen=True)
class FileType:
    label: str
    base: str
    summary: str
    attn_v: Rule | None = None
    ffn_down: Rule | None = None
    attn_output: Rule | None = None
    output: str = "Q6_K"
    embedding: str | None = None  # the token embedding's own type, where the file type sets one
    low_bit: bool = False  # llama.cpp's IQ1/IQ2 branch: no Q8_0 attn_v for 8-expert models

    @property
    def nominal_bits(self) -> float:
        return bits(self.base)


def _more_bits(high: str) -> Rule:
    return lambda t, layers, arch: high if use_more_bits(t.layer, layers) else ""


def _first(fraction: int, high: str) -> Rule:
    return lambda t, layers, arch: high if t.layer < layers // fraction else ""


def _gqa_at_least(groups: int, high: str) -> Rule:
    return lambda t, layers, arch: high if arch.num_attention_heads // arch.num_key_value_heads >= groups else ""


def _always(high: str) -> Rule:
    return lambda t, layers, arch: high


def _low_bit_attn_v(fallback: str) -> Rule:
    """IQ1/IQ2 files: attn_v in Q4_K with grouped-query attention (4+ heads a group) or 4+ experts."""
    return lambda t, layers, arch: ("Q4_K" if arch.num_attention_heads // arch.num_key_value_heads >= 4
                                    or (arch.num_experts or 0) >= 4 else fallback)


def _low_bit_attn_output(high: str) -> Rule:
    return lambda t, layers, arch: "Q5_K" if arch.num_experts == 8 else high


GGUF_FILE_TYPES: dict[str, FileType] = {
    "q8_0": FileType("Q8_0", "Q8_0", "Q8_0 throughout", output="Q8_0"),
    "q6_k": FileType("Q6_K", "Q6_K", "Q6_K throughout"),
    "q5_k_m": FileType("Q5_K_M", "Q5_K", "Q5_K; Q6_K for attn_v and ffn_down in half the layers and for the output",
                       attn_v=_more_bits("Q6_K"), ffn_down=_more_bits("Q6_K")),
    "q5_k_s": FileType("Q5_K_S", "Q5_K", "Q5_K; Q6_K output"),
    "q4_k_m": FileType("Q4_K_M", "Q4_K", "Q4_K; Q6_K for attn_v and ffn_down in half the layers and for the output",
                       attn_v=_more_bits("Q6_K"), ffn_down=_more_bits("Q6_K")),
    "q4_k_s": FileType("Q4_K_S", "Q4_K", "Q4_K; Q5_K for attn_v in 4 layers and ffn_down in the first eighth",
                       attn_v=lambda t, layers, arch: "Q5_K" if t.layer < 4 else "", ffn_down=_first(8, "Q5_K")),
    "q4_0": FileType("Q4_0", "Q4_0", "Q4_0; Q6_K output"),
    "q4_1": FileType("Q4_1", "Q4_1", "Q4_1; Q6_K output"),
    "q5_0": FileType("Q5_0", "Q5_0", "Q5_0; Q6_K output"),
    "q3_k_l": FileType("Q3_K_L", "Q3_K", "Q3_K; Q5_K for attn_v, ffn_down and attn_output",
                       attn_v=_always("Q5_K"), ffn_down=_always("Q5_K"), attn_output=_always("Q5_K")),
    "q3_k_m": FileType("Q3_K_M", "Q3_K", "Q3_K; Q4_K/Q5_K for attn_v, ffn_down and attn_output",
                       attn_v=lambda t, layers, arch: "Q5_K" if t.layer < 2 else "Q4_K",
                       ffn_down=lambda t, layers, arch: "Q5_K" if t.layer < layers // 16 else "Q4_K",
                       attn_output=_always("Q4_K")),
    "q3_k_s": FileType("Q3_K_S", "Q3_K", "Q3_K; Q6_K output"),
    "q2_k": FileType("Q2_K", "Q2_K", "Q2_K; Q3_K/Q4_K for attn_v, ffn_down and attn_output",
                     attn_v=lambda t, layers, arch: "Q4_K" if arch.num_attention_heads // arch.num_key_value_heads >= 4 else "Q3_K",
                     ffn_down=_always("Q3_K"), attn_output=_always("Q3_K")),
    "iq4_xs": FileType("IQ4_XS", "IQ4_XS", "IQ4_XS; Q5_K attn_v with grouped-query attention; Q6_K output",
                       attn_v=_gqa_at_least(4, "Q5_K")),
    "iq4_nl": FileType("IQ4_NL", "IQ4_NL", "IQ4_NL; Q5_K attn_v with grouped-query attention; Q6_K output",
                       attn_v=_gqa_at_least(4, "Q5_K")),
    "iq3_xxs": FileType("IQ3_XXS", "IQ3_XXS", "IQ3_XXS; Q5_K output", output="Q5_K"),
    "iq2_xxs": FileType("IQ2_XXS", "IQ2_XXS", "IQ2_XXS; Q2_K embeddings and first-eighth ffn_down; Q4_K/Q2_K attn_v; "
                        "Q5_K output", attn_v=_low_bit_attn_v("Q2_K"), ffn_down=_first(8, "Q2_K"), output="Q5_K",
                        embedding="Q2_K", low_bit=True),
    "iq1_m": FileType("IQ1_M", "IQ1_M", "IQ1_M; IQ2_XXS attn_output; Q2_K embeddings and first-eighth ffn_down; "
                      "Q4_K/Q2_K attn_v; Q5_K output", attn_v=_low_bit_attn_v("Q2_K"), ffn_down=_first(8, "Q2_K"),
                      attn_output=_low_bit_attn_output("IQ2_XXS"), output="Q5_K", embedding="Q2_K", low_bit=True),
    "iq1_s": FileType("IQ1_S", "IQ1_S", "IQ1_S; IQ2_XXS attn_output; Q2_K embeddings and first-eighth ffn_down; "
                      "Q4_K/Q2_K attn_v; Q5_K output", attn_v=_low_bit_attn_v("Q2_K"), ffn_down=_first(8, "Q2_K"),
                      attn_output=_low_bit_attn_output("IQ2_XXS"), output="Q5_K", embedding="Q2_K", low_bit=True),
}


def tensors(arch: ModelArch) -> Iterator[Tensor]:
    """Every matrix of the model as llama.cpp names it (1-D tensors are role 'f32')."""
    h, d, layers = arch.hidden_size, arch.attention_head_dim, arch.num_hidden_layers
    q, kv = arch.num_attention_heads * d, arch.num_key_value_heads * d
    yield Tensor("token_embd", -1, h, arch.vocab_size * h)
    if not arch.tie_word_embeddings:
        yield Tensor("output", -1, h, arch.vocab_size * h)
    moe_start = layers - arch.moe_layers
    for i in range(layers):
        yield from _attention(arch, i, h, q, kv)
        if arch.is_moe and i >= moe_start:
            width, experts = arch.moe_intermediate_size or arch.intermediate_size, arch.num_experts or 1
            for role, row in (("ffn_gate", h), ("ffn_up", h), ("ffn_down", width)):
                yield Tensor(role, i, row, h * width * experts, experts)
            if arch.num_shared_experts:
                shared = (arch.shared_expert_intermediate_size or width) * arch.num_shared_experts
                for role, row in (("ffn_gate", h), ("ffn_up", h), ("ffn_down", shared)):
                    yield Tensor(role, i, row, h * shared)
            yield Tensor("f32", i, 1, h * experts)  # router (ffn_gate_inp) is kept in f32
        else:
            width = arch.intermediate_size
            for role, row in (("ffn_gate", h), ("ffn_up", h), ("ffn_down", width)):
                yield Tensor(role, i, row, h * width)
        yield Tensor("f32", i, 1, arch.norms_per_layer * h)
    yield Tensor("f32", -1, 1, h)


def _attention(arch: ModelArch, layer: int, h: int, q: int, kv: int) -> Iterator[Tensor]:
    mla = arch.latent_attention
    if mla is not None:
        heads, rank = arch.num_attention_heads, mla.q_lora_rank
        if rank:
            yield Tensor("attn_q", layer, h, h * rank)
            yield Tensor("attn_q", layer, rank, rank * heads * mla.query_head_dim)
        else:
            yield Tensor("attn_q", layer, h, h * heads * mla.query_head_dim)
        yield Tensor("attn_k", layer, h, h * (mla.kv_lora_rank + mla.qk_rope_head_dim))
        yield Tensor("attn_v", layer, mla.kv_lora_rank, mla.kv_lora_rank * heads * (mla.qk_nope_head_dim + mla.v_head_dim))
        yield Tensor("attn_output", layer, heads * mla.v_head_dim, heads * mla.v_head_dim * h)
        return
    yield Tensor("attn_q", layer, h, h * q)
    yield Tensor("attn_k", layer, h, h * kv)
    yield Tensor("attn_v", layer, h, h * kv)
    yield Tensor("attn_output", layer, q, q * h)


def tensor_type(ftype: FileType, tensor: Tensor, arch: ModelArch) -> str:
    layers = arch.num_hidden_layers
    if tensor.role == "f32":
        return "F32"
    if tensor.role == "output" or (tensor.role == "token_embd" and arch.tie_word_embeddings):
        chosen = ftype.output if ftype.base != "Q8_0" else "Q8_0"
    elif tensor.role == "token_embd" and ftype.embedding:
        chosen = ftype.embedding
    else:
        rule = {"attn_v": ftype.attn_v, "ffn_down": ftype.ffn_down, "attn_output": ftype.attn_output}.get(tensor.role)
        chosen = (rule(tensor, layers, arch) if rule else "") or ftype.base
        if tensor.role == "attn_v" and arch.num_experts == 8 and not ftype.low_bit:
            chosen = "Q8_0"  # llama.cpp bumps attn_v of 8-expert models (Mixtral) to Q8_0: ~128 MB for better quality
    values_per_block = GGML_TYPES[chosen][0]
    if tensor.row % values_per_block:
        chosen = FALLBACK.get(chosen, "F16")
        if tensor.row % GGML_TYPES[chosen][0]:
            chosen = "F16"
    return chosen


def gguf_weight_bytes(arch: ModelArch, file_type: str, *, mxfp4_experts: bool = False) -> tuple[int, dict[str, int]]:
    """Bytes of a GGUF file's tensors and how many values went to each ggml type. gpt-oss's GGUF releases keep
    the experts in MXFP4 whatever the file type (mxfp4_experts)."""
    ftype = GGUF_FILE_TYPES[file_type]
    total = 0.0
    by_type: dict[str, int] = {}
    for tensor in tensors(arch):
        chosen = "MXFP4" if mxfp4_experts and tensor.experts > 1 else tensor_type(ftype, tensor, arch)
        total += tensor.values * bits(chosen) / 8
        by_type[chosen] = by_type.get(chosen, 0) + tensor.values
    return int(total), by_type


@dataclass(frozen=True)
class GgufLayout:
    """Where a GGUF file's bytes sit, as llama.cpp places tensors: the token embedding (always in system RAM), the
    output layer (output norm and LM head; a tied model's head is a copy of the embedding on the output device) and
    each repeating block."""
    token_embd: int
    output: int
    blocks: tuple[int, ...]

    @property
    def total(self) -> int:
        return self.token_embd + self.output + sum(self.blocks)


def gguf_layout(arch: ModelArch, file_type: str | None, *, mxfp4_experts: bool = False) -> GgufLayout:
    """Bytes by placement; file_type None is an F16/BF16 file (every matrix 16-bit, 1-D tensors f32)."""
    ftype = GGUF_FILE_TYPES[file_type] if file_type else None
    embd, output, blocks = 0.0, 0.0, [0.0] * arch.num_hidden_layers
    for tensor in tensors(arch):
        if tensor.role == "f32":
            chosen = "F32"
        elif mxfp4_experts and tensor.experts > 1:
            chosen = "MXFP4"
        else:
            chosen = tensor_type(ftype, tensor, arch) if ftype else "F16"
        size = tensor.values * bits(chosen) / 8
        if tensor.role == "token_embd":
            embd += size
            if arch.tie_word_embeddings:
                output += size
        elif tensor.layer < 0:
            output += size  # the LM head and the final norm
        else:
            blocks[tensor.layer] += size
    return GgufLayout(int(embd), int(output), tuple(int(b) for b in blocks))
