"""Training recipes: what each framework does by default that changes GPU memory, and the user's overrides.

A recipe sets the loss implementation, whether the loop still holds the logits during backward, gradient
checkpointing, activation offloading, optimizer-in-backward, how the optimizer step is implemented (its
temporaries), the precision it trains in, the dtype it loads a model id in, and whether the unquantized weights of a
QLoRA model end up in fp32. Every value cites the framework's code and version; any request field overrides the
preset. Read from: transformers 5.23.0, TRL 1.16.0, torchtune bd2a0fc7c (HEAD) and v0.6.1, Unsloth 2026.10.9, PEFT
0.21.2.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import ConfigDict

from gpusizer.tools.memory.activations import FUSED_LOSSES, FusedLoss
from gpusizer.tools.memory.request import TRAINING_OVERRIDES, Loss, OptimizerStep, Recipe, TrainingPrecision, TrainingSetup

DEFAULT_RECIPE: Recipe = "hf_trainer"
UNSLOTH_OFFLOAD_MIN_SEQ = 512  # unsloth/models/_utils.py: below max_seq_length 512 "unsloth" checkpointing is the standard one


class TrainingSettings(TrainingSetup):
    """A recipe's settings as the calculators read them: what estimate_vram reports (TrainingSetup) and what only the
    arithmetic needs."""
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    loads_fp32: bool               # the framework loads a model id in fp32 (TRL), so a LoRA base is fp32 too
    fused: FusedLoss               # the fused loss kernel this framework uses when loss == "fused"
    kernels: str = "eager"         # the layers' own kernels: eager (transformers) or unsloth (what they save for backward)
    lines: tuple[str, ...] = ()    # what each setting is and where it comes from, for the assumptions list


@dataclass(frozen=True)
class Preset:
    loss: Loss
    logits_kept: bool
    gradient_checkpointing: dict[str, bool]  # by method
    activation_offloading: bool
    optimizer_in_backward: bool
    optimizer_step: OptimizerStep
    kbit_upcast: bool
    precision: TrainingPrecision | None   # the only precision the framework trains in; None: the request's training_precision
    loads_fp32: bool
    fused: str              # key of FUSED_LOSSES
    why: str


ALL = {"full": True, "lora": True, "qlora": True}
PRESETS: dict[Recipe, Preset] = {
    "pytorch": Preset(
        "standard", True, {"full": False, "lora": False, "qlora": False}, False, False, "per_parameter", False, None, False,
        "liger",
        "a plain loop: out = model(**batch); out.loss.backward() with transformers' standard loss, AdamW(foreach=False) "
        "(the traced reference recipe)"),
    "hf_trainer": Preset(
        "standard", False, {"full": False, "lora": False, "qlora": True}, False, False, "fused", True, None, False, "liger",
        "transformers Trainer 5.23: compute_loss returns only the loss, so the logits are freed before backward; standard "
        "fp32-upcast loss (loss_utils.ForCausalLMLoss); gradient checkpointing off (TrainingArguments) but on for QLoRA "
        "(PEFT prepare_model_for_kbit_training, which also upcasts the unquantized weights to fp32); optim "
        "adamw_torch_fused"),
    "trl": Preset(
        "fused", False, ALL, False, False, "fused", True, None, True, "trl",
        "TRL SFTTrainer 1.16: gradient checkpointing on (base_config.py), a model id loaded in float32 with bf16 autocast "
        "(create_model_from_path, since 0.27), the fused tiled LM head that never builds the logits "
        "(kernels/chunked_logprob.py: fp32 hidden-state gradient, 4096 x 32768 bf16 tiles), fused AdamW"),
    "torchtune": Preset(
        "chunked", False, ALL, False, False, "fused", False, "bf16", False, "liger",
        "torchtune (v0.6.1 and HEAD): pure bf16 (dtype: bf16), a chunked loss (CEWithChunkedOutputLoss / "
        "LinearCrossEntropyLoss, 8 chunks), `del outputs` before backward, enable_activation_checkpointing true in the "
        "single-device configs, NF4 base through torchao for QLoRA with norms, embeddings and output projection in bf16"),
    "unsloth": Preset(
        "fused", False, ALL, True, False, "fused", False, None, False, "unsloth",
        "Unsloth 2026.10: use_gradient_checkpointing='unsloth' copies each checkpointed layer input to CPU memory "
        "(standard checkpointing below 512 tokens), unsloth_fused_ce_loss (chunks of at most 4 GiB at 16 bytes per "
        "logit, hidden-state gradient in bf16), only the LoRA weights in fp32 (lm_head and embeddings stay 16-bit)"),
}


def training_settings(recipe: Recipe | None, method: str, *, seq_len: int, precision: TrainingPrecision,
                      overrides: Mapping[str, object] | None = None) -> TrainingSettings:
    """The preset of `recipe` (hf_trainer by default) for `method`, with the request's TRAINING_OVERRIDES applied
    (a None override keeps the preset's value)."""
    name = recipe or DEFAULT_RECIPE
    preset = PRESETS[name]
    offload = preset.activation_offloading and not (name == "unsloth" and seq_len < UNSLOTH_OFFLOAD_MIN_SEQ)
    chosen_precision = preset.precision or precision
    given = {key: value for key, value in (overrides or {}).items() if key in TRAINING_OVERRIDES and value is not None}
    values: dict[str, object] = {
        "recipe": name, "loss": preset.loss, "logits_kept": preset.logits_kept,
        "gradient_checkpointing": preset.gradient_checkpointing[method], "activation_offloading": offload,
        "optimizer_in_backward": preset.optimizer_in_backward, "torch_compile": False, **given,
        "optimizer_step": preset.optimizer_step, "kbit_fp32_upcast": preset.kbit_upcast and method == "qlora",
        "training_precision": chosen_precision, "loads_fp32": preset.loads_fp32 and chosen_precision == "mixed",
        "fused": FUSED_LOSSES[preset.fused], "kernels": "unsloth" if name == "unsloth" else "eager"}
    settings = TrainingSettings.model_validate(values)
    if settings.activation_offloading and not settings.gradient_checkpointing:
        settings = settings.model_copy(update={"gradient_checkpointing": True})
        given.setdefault("gradient_checkpointing", True)
    origin = "default recipe" if recipe is None else "recipe"
    lines = [f"{origin} '{name}': {preset.why}"]
    if name == "hf_trainer" and precision == "mixed":
        lines.append("precision 'mixed' as Trainer with bf16=True on weights loaded in fp32 (transformers 4.x's default load); "
                     "5.x loads the checkpoint's bf16 and Trainer then trains pure bf16: training_precision='bf16'")
    if name == "trl" and precision == "mixed":
        lines.append("a model object you load in bf16 yourself trains pure bf16 under TRL: training_precision='bf16'")
    if preset.precision and precision != preset.precision:
        lines.append(f"{name} trains in {preset.precision} only (training_precision '{precision}' does not apply)")
    if name == "unsloth" and preset.activation_offloading and not offload and "activation_offloading" not in given:
        lines.append(f"seq_len under {UNSLOTH_OFFLOAD_MIN_SEQ}: Unsloth uses standard gradient checkpointing (no offload)")
    if given:
        lines.append("overrides: " + ", ".join(f"{key}={value}" for key, value in given.items()))
    return settings.model_copy(update={"lines": tuple(lines)})
