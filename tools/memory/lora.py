"""LoRA adapters: which linear layers carry them, their parameters, and what they and the k-bit upcast keep for backward.

Targets (each recipe's default is in recipes.py):
  q_v                  q_proj and v_proj: PEFT's LoraConfig default for Llama, Mistral and Qwen2 (target_modules=None,
                       utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING), so Trainer's and TRL's
  attention            q, k, v and o
  all_linear           the seven projections of every decoder block (PEFT target_modules="all-linear", Unsloth,
                       LLaMA-Factory's lora_target=all, axolotl's lora_target_linear)
  all_linear_and_head  and the LM head (torchtune apply_lora_to_output)

The activations are measured against the traced all_linear layer (activations.saved_per_layer_bytes), from traces of
PEFT's LoRA forward (tuners/lora/layer.py and bnb.py, 0.21.2) on fake tensors (scratch trace_lora.py, a copy of
../shared/tools/trace_memory.py with these options):
  - a projection without an adapter is frozen: it keeps nothing. Without adapters on the MLP, its down projection's
    input (the gate x up product) and the gate/up input (the normed hidden state) are not kept;
  - each adapter keeps its rank-r output for lora_B;
  - lora_dropout > 0 (nn.Dropout): each adapter keeps its dropout output and the boolean mask, 2 + 1 bytes per input
    element; the normed MLP input is then kept only by the dropout copies;
  - the LM head's adapter keeps the final norm's output and its rank-r output.
"""
from __future__ import annotations

from gpusizer.catalog import ModelArch
from gpusizer.tools.memory.activations import FP32, Shape

PROJECTIONS: dict[str, tuple[str, ...]] = {
    "q_v": ("q", "v"), "attention": ("q", "k", "v", "o"),
    "all_linear": ("q", "k", "v", "o", "gate", "up", "down"),
    "all_linear_and_head": ("q", "k", "v", "o", "gate", "up", "down"),
}
MLP_PROJECTIONS = ("gate", "up", "down")
MASK_BYTES = 1  # torch.native_dropout's boolean mask
DESCRIBED = {"q_v": "q and v projections (PEFT's default for Llama-style models)", "attention": "q, k, v and o projections",
             "all_linear": "every linear layer of the decoder blocks (q, k, v, o, gate, up, down)",
             "all_linear_and_head": "every linear layer of the decoder blocks and the LM head"}


def adapted_projections(arch: ModelArch, targets: str) -> list[tuple[str, int, int]]:
    """(name, input width, output width) of each adapted projection in one decoder layer. A mixture-of-experts MLP
    holds its experts as fused tensors in transformers: adapters go on attention only."""
    h, d = arch.hidden_size, arch.attention_head_dim
    q, kv = arch.num_attention_heads * d, arch.num_key_value_heads * d
    mlp = arch.intermediate_size if (arch.dense_mlp and not arch.is_moe) else 0
    widths = {"q": (h, q), "k": (h, kv), "v": (h, kv), "o": (q, h), "gate": (h, mlp), "up": (h, mlp), "down": (mlp, h)}
    return [(name, *widths[name]) for name in PROJECTIONS[targets] if not (name in MLP_PROJECTIONS and not mlp)]


def lora_parameters(arch: ModelArch, rank: int, targets: str = "all_linear") -> int:
    per_layer = sum(width + out for _, width, out in adapted_projections(arch, targets))
    head = arch.hidden_size + arch.vocab_size if targets == "all_linear_and_head" else 0
    return int(rank * (arch.num_hidden_layers * per_layer + head))


def input_width(shape: Shape, name: str) -> float:
    return {"o": shape.query, "down": shape.mlp}.get(name, shape.hidden)


def adapter_layer_delta_bytes(shape: Shape, tokens: int, act_bytes: int, *, rank: int, targets: str, dropout: float,
                              dense_mlp: bool, fp32_stream: bool = False) -> float:
    """One decoder layer's saved bytes under these targets and dropout, minus the traced all_linear layer's.
    fp32_stream (k-bit upcast): an adapter whose input is fp32 keeps 4 bytes per input element under dropout
    (traced: the mask and the bf16 cast autocast makes of the dropout output, beside the shared cast it no longer
    uses), the o projection's 16-bit input 3 as in a bf16 layer."""
    names = PROJECTIONS[targets]
    delta: float = -(len(PROJECTIONS["all_linear"]) - len(names)) * tokens * rank * act_bytes
    mlp_adapted = dense_mlp and any(name in names for name in MLP_PROJECTIONS)
    if dense_mlp and not mlp_adapted:
        delta -= tokens * (shape.mlp + shape.hidden) * act_bytes  # the product and the normed MLP input, kept by no one
    if dropout > 0:
        kept = [name for name in names if dense_mlp or name not in MLP_PROJECTIONS]
        per_element = {name: FP32 if (fp32_stream and name != "o") else act_bytes + MASK_BYTES for name in kept}
        delta += sum(tokens * input_width(shape, name) * per_element[name] for name in kept)
        if mlp_adapted and not fp32_stream:
            delta -= tokens * shape.hidden * act_bytes
    return delta


def head_adapter_bytes(shape: Shape, tokens: int, act_bytes: int, *, rank: int, targets: str, dropout: float) -> float:
    """The LM head's adapter: the final norm's output it keeps (its dropout copy and mask) and its rank-r output."""
    if targets != "all_linear_and_head":
        return 0.0
    return tokens * (shape.hidden * (act_bytes + (MASK_BYTES if dropout > 0 else 0)) + rank * act_bytes)


def upcast_layer_extra_bytes(shape: Shape, tokens: int, *, targets: str, dropout: float, dense_mlp: bool,
                             matmul_saves_input: bool) -> float:
    """A QLoRA decoder layer after PEFT's prepare_model_for_kbit_training (utils/other.py, 0.21.2: every non-4-bit
    parameter cast to fp32) with bitsandbytes' Linear4bit (nn/modules.py, 0.50: x.to(compute_dtype), matmul_4bit,
    .to(inp_dtype)) under bf16 autocast, minus the same layer in pure bf16.

    The fp32 embeddings make the residual stream fp32, and Linear4bit hands each projection's output back in its
    input's dtype, so q, k, v (into rotary) and the MLP's gate, activation and up outputs are fp32: 2 more bytes each.
    Each adapter's lora_A under autocast keeps its own bf16 cast of the fp32 normed input, where a bf16 layer's
    adapters share one; SDPA keeps bf16 casts of its q, k, v inputs. With bitsandbytes before 0.43.2 (PR #1270)
    MatMul4Bit also kept its bf16 input A: one cast per frozen projection."""
    bf16 = 2
    names = PROJECTIONS[targets]
    mlp = shape.mlp if dense_mlp else 0.0
    attention_casts = sum(1 for name in names if name in ("q", "k", "v"))
    mlp_casts = sum(1 for name in names if name in ("gate", "up")) if mlp else 0
    extra = (3 * tokens * mlp * (FP32 - bf16) + 2 * tokens * (shape.query + shape.key_value) * (FP32 - bf16)
             + tokens * (shape.query + 2 * shape.key_value) * bf16
             + (max(0, attention_casts - 1) + max(0, mlp_casts - 1)) * tokens * shape.hidden * bf16)
    if matmul_saves_input:
        extra += tokens * (3 * shape.hidden + shape.query + (2 * shape.hidden + mlp if mlp else 0)) * bf16
    return extra
