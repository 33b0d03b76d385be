"""Training recipes: what each framework does by default that changes GPU memory, and the user's overrides.

A recipe sets the loss implementation, whether the loop still holds the logits during backward, gradient
checkpointing, activation offloading, optimizer-in-backward, how the optimizer step is implemented (its
temporaries), and whether PEFT's k-bit preparation upcasts the unquantized weights for QLoRA. Every value cites
the framework's code; any request field overrides the preset.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .vram_models import Loss, Recipe

DEFAULT_RECIPE: Recipe = "hf_trainer"
STEP_KINDS = Literal["per_parameter", "foreach", "fused"]


@dataclass(frozen=True)
class TrainingSettings:
    recipe: Recipe
    loss: Loss
    logits_kept: bool
    gradient_checkpointing: bool
    activation_offloading: bool
    optimizer_in_backward: bool
    optimizer_step: STEP_KINDS     # per_parameter (foreach=False), foreach (torch default), fused
    kbit_upcast: bool              # QLoRA: PEFT's prepare_model_for_kbit_training keeps unquantized weights in fp32
    lines: tuple[str, ...] = ()    # what each setting is and where it comes from, for the assumptions list


@dataclass(frozen=True)
class Preset:
    loss: Loss
    logits_kept: bool
    gradient_checkpointing: dict[str, bool]  # by method
    activation_offloading: bool
    optimizer_in_backward: bool
    optimizer_step: STEP_KINDS
    kbit_upcast: bool
    why: str


PRESETS: dict[Recipe, Preset] = {
    "pytorch": Preset(
        "standard", True, {"full": False, "lora": False, "qlora": False}, False, False, "per_parameter", False,
        "a plain loop: out = model(**batch); out.loss.backward() with transformers' standard loss, AdamW(foreach=False) "
        "(the traced reference recipe)"),
    "hf_trainer": Preset(
        "standard", False, {"full": False, "lora": False, "qlora": True}, False, False, "fused", True,
        "transformers Trainer: compute_loss returns only the loss (the logits are freed before backward), standard "
        "fp32-upcast loss (loss_utils.ForCausalLMLoss), gradient_checkpointing off by default (TrainingArguments) but "
        "on for QLoRA (PEFT prepare_model_for_kbit_training), optim adamw_torch_fused"),
    "trl": Preset(
        "standard", False, {"full": True, "lora": True, "qlora": True}, False, False, "fused", True,
        "TRL SFTTrainer: SFTConfig turns gradient checkpointing on by default; Trainer's loss and fused AdamW"),
    "torchtune": Preset(
        "chunked", False, {"full": True, "lora": True, "qlora": True}, False, False, "fused", False,
        "torchtune recipes: CEWithChunkedOutputLoss (8 chunks), `del outputs` before backward, "
        "enable_activation_checkpointing true in the single-device configs, AdamW fused=True, NF4 via torchao"),
    "unsloth": Preset(
        "fused", False, {"full": True, "lora": True, "qlora": True}, True, False, "fused", False,
        "Unsloth: use_gradient_checkpointing='unsloth' offloads the checkpointed hidden states to CPU memory, a fused "
        "cross-entropy that never holds fp32 logits, bf16 LM head (no PEFT fp32 upcast)"),
}


def training_settings(recipe: Recipe | None, method: str, *, loss: Loss | None = None, logits_kept: bool | None = None,
                      gradient_checkpointing: bool | None = None, activation_offloading: bool | None = None,
                      optimizer_in_backward: bool | None = None) -> TrainingSettings:
    name = recipe or DEFAULT_RECIPE
    preset = PRESETS[name]
    settings = TrainingSettings(name, preset.loss, preset.logits_kept, preset.gradient_checkpointing[method],
                                preset.activation_offloading, preset.optimizer_in_backward, preset.optimizer_step,
                                preset.kbit_upcast and method == "qlora")
    overrides: dict[str, str | bool | None] = {
        "loss": loss, "logits_kept": logits_kept, "gradient_checkpointing": gradient_checkpointing,
        "activation_offloading": activation_offloading, "optimizer_in_backward": optimizer_in_backward}
    given = {key: value for key, value in overrides.items() if value is not None}
    settings = replace(settings, loss=loss or settings.loss,
                       logits_kept=settings.logits_kept if logits_kept is None else logits_kept,
                       gradient_checkpointing=settings.gradient_checkpointing if gradient_checkpointing is None else gradient_checkpointing,
                       activation_offloading=settings.activation_offloading if activation_offloading is None else activation_offloading,
                       optimizer_in_backward=settings.optimizer_in_backward if optimizer_in_backward is None else optimizer_in_backward)
    if settings.activation_offloading and not settings.gradient_checkpointing:
        settings = replace(settings, gradient_checkpointing=True)
        given.setdefault("gradient_checkpointing", True)
    origin = "default recipe" if recipe is None else "recipe"
    lines = [f"{origin} '{name}': {preset.why}"]
    if given:
        lines.append("overrides: " + ", ".join(f"{key}={value}" for key, value in given.items()))
    return replace(settings, lines=tuple(lines))
