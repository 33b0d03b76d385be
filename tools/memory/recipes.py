"""Training recipes: what each framework does by default that changes GPU memory, and the user's overrides.

A recipe sets the loss implementation, whether the loop still holds the logits during backward, gradient
checkpointing, activation offloading, optimizer-in-backward, how the optimizer step is implemented (its
temporaries), the precision it trains in, the dtype it loads a model id in, and whether the unquantized weights of a
QLoRA model end up in fp32. Every value cites the framework's code and version; any request field overrides the
preset. Read from: transformers 5.23.0, TRL 1.16.0, torchtune bd2a0fc7c (HEAD) and v0.6.1, Unsloth 2026.10.9, PEFT
0.21.2. Defaults that changed between releases (Trainer's optimizer, transformers' load dtype) follow
`framework_version` through the rules in training/versions.py.

LoRA targets and dropout, each framework's own default: PEFT's LoraConfig (tuners/lora/config.py) lora_dropout 0.0
and target_modules None, which for Llama, Mistral and Qwen2 means q_proj and v_proj (utils/constants.py
TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING); TRL's ModelConfig (trainer/model_config.py) lora_dropout 0.05 and
the same targets; torchtune's LoRA configs q_proj, v_proj, output_proj and the MLP (apply_lora_to_mlp), dropout 0.0;
Unsloth's get_peft_model the seven projections, dropout 0.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import ConfigDict

from gpusizer.tools.memory import framework_versions as versions
from gpusizer.tools.memory.activations import FUSED_LOSSES, FusedLoss
from gpusizer.tools.memory.request import (
    TRAINING_OVERRIDES,
    LoraTargets,
    Loss,
    OptimizerStep,
    Recipe,
    TrainingPrecision,
    TrainingSetup,
)

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
    matmul4bit_saves_input: bool = False  # bitsandbytes before 0.43.2: each frozen 4-bit linear keeps its input
    fp32_logits: bool = False  # transformers before 4.46 returns the logits upcast to fp32 (held ones cost 4 bytes)


@dataclass(frozen=True)
class Preset:
    loss: Loss
    logits_kept: bool
    gradient_checkpointing: dict[str, bool]  # by method
    activation_offloading: bool
    optimizer_in_backward: bool
    optimizer_step: OptimizerStep | None  # None: Trainer's optim default of the transformers release (versions.py)
    kbit_upcast: bool
    precision: TrainingPrecision | None   # the only precision the framework trains in; None: the request's training_precision
    loads_fp32: bool | None  # None: as the transformers release loads a model id (4.x float32, 5.x the checkpoint's dtype)
    fused: str              # key of FUSED_LOSSES
    lora_targets: LoraTargets
    lora_dropout: float
    why: str


ALL = {"full": True, "lora": True, "qlora": True}
PRESETS: dict[Recipe, Preset] = {
    "pytorch": Preset(
        "standard", True, {"full": False, "lora": False, "qlora": False}, False, False, "per_parameter", False, None, False,
        "liger", "all_linear", 0.0,
        "a plain loop: out = model(**batch); out.loss.backward() with transformers' standard loss, AdamW(foreach=False) "
        "(the traced reference recipe)"),
    "hf_trainer": Preset(
        "standard", False, {"full": False, "lora": False, "qlora": True}, False, False, None, True, None, None, "liger",
        "q_v", 0.0,
        "transformers Trainer: compute_loss returns only the loss, so the logits are freed before backward; standard "
        "fp32-upcast loss (loss_utils.ForCausalLMLoss); gradient checkpointing off (TrainingArguments) but on for QLoRA "
        "(PEFT prepare_model_for_kbit_training, which also upcasts the unquantized weights to fp32); PEFT's LoraConfig "
        "defaults (q_proj and v_proj, no dropout)"),
    "trl": Preset(
        "fused", False, ALL, False, False, None, True, None, True, "trl", "q_v", 0.05,
        "TRL SFTTrainer 1.16: gradient checkpointing on (base_config.py), a model id loaded in float32 with bf16 autocast "
        "(create_model_from_path, since 0.27), the fused tiled LM head that never builds the logits "
        "(kernels/chunked_logprob.py: fp32 hidden-state gradient, 4096 x 32768 bf16 tiles), ModelConfig's LoRA "
        "(PEFT's q_proj and v_proj, lora_dropout 0.05)"),
    "torchtune": Preset(
        "chunked", False, ALL, False, False, "fused", False, "bf16", False, "liger", "all_linear", 0.0,
        "torchtune (v0.6.1 and HEAD): pure bf16 (dtype: bf16), a chunked loss (CEWithChunkedOutputLoss / "
        "LinearCrossEntropyLoss, 8 chunks), `del outputs` before backward, enable_activation_checkpointing true in the "
        "single-device configs, NF4 base through torchao for QLoRA with norms, embeddings and output projection in bf16"),
    "unsloth": Preset(
        "fused", False, ALL, True, False, "fused", False, None, False, "unsloth", "all_linear", 0.0,
        "Unsloth 2026.10: use_gradient_checkpointing='unsloth' copies each checkpointed layer input to CPU memory "
        "(standard checkpointing below 512 tokens), unsloth_fused_ce_loss (chunks of at most 4 GiB at 16 bytes per "
        "logit, hidden-state gradient in bf16), only the LoRA weights in fp32 (lm_head and embeddings stay 16-bit)"),
}


RECIPE_LIBRARIES: dict[Recipe, tuple[str, ...]] = {
    "pytorch": ("transformers",), "hf_trainer": ("transformers", "peft", "bitsandbytes"),
    "trl": ("trl", "transformers", "peft", "bitsandbytes"), "torchtune": ("torchtune",), "unsloth": ("unsloth",)}


def default_precision(name: Recipe, preset: Preset, method: str, loads_checkpoint_dtype: bool) -> TrainingPrecision:
    """What a recipe trains in when the request does not say: PEFT keeps LoRA adapters in fp32 (get_peft_model's
    autocast_adapter_dtype=True), so adapters are 'mixed'; Trainer's full fine-tune follows the dtype transformers
    loads: float32 in 4.x (mixed: fp32 master weights under bf16 autocast), the checkpoint's bf16 from 5.0 (pure bf16)."""
    if preset.precision:
        return preset.precision
    if name == "hf_trainer" and method == "full" and loads_checkpoint_dtype:
        return "bf16"
    return "mixed"


def training_settings(recipe: Recipe | None, method: str, *, seq_len: int, precision: TrainingPrecision | None,
                      overrides: Mapping[str, object] | None = None,
                      framework_version: str | None = None) -> TrainingSettings:
    """The preset of `recipe` (hf_trainer by default) for `method` under the releases `framework_version` names, with
    the request's TRAINING_OVERRIDES applied (a None override keeps the preset's value)."""
    name = recipe or DEFAULT_RECIPE
    preset = PRESETS[name]
    chosen = versions.releases(framework_version, name)
    loads_checkpoint_dtype = bool(versions.setting("loads_checkpoint_dtype", chosen))
    offload = preset.activation_offloading and not (name == "unsloth" and seq_len < UNSLOTH_OFFLOAD_MIN_SEQ)
    chosen_precision = preset.precision or precision or default_precision(name, preset, method, loads_checkpoint_dtype)
    loads_fp32 = preset.loads_fp32 if preset.loads_fp32 is not None else not loads_checkpoint_dtype
    given = {key: value for key, value in (overrides or {}).items() if key in TRAINING_OVERRIDES and value is not None}
    values: dict[str, object] = {
        "recipe": name, "loss": preset.loss, "logits_kept": preset.logits_kept,
        "gradient_checkpointing": preset.gradient_checkpointing[method], "activation_offloading": offload,
        "optimizer_in_backward": preset.optimizer_in_backward, "torch_compile": False,
        "optimizer_step": preset.optimizer_step or versions.setting("trainer_optimizer_step", chosen),
        "kbit_upcast": preset.kbit_upcast, "lora_targets": preset.lora_targets, "lora_dropout": preset.lora_dropout,
        **given,
        "training_precision": chosen_precision, "loads_fp32": loads_fp32 and chosen_precision == "mixed",
        "fused": FUSED_LOSSES[preset.fused], "kernels": "unsloth" if name == "unsloth" else "eager",
        "versions": versions.described(chosen, RECIPE_LIBRARIES[name]),
        "matmul4bit_saves_input": method == "qlora" and bool(versions.setting("matmul4bit_saves_input", chosen)),
        "fp32_logits": name in ("pytorch", "hf_trainer") and bool(versions.setting("model_returns_fp32_logits", chosen))}
    if method != "qlora":
        values["kbit_upcast"] = False
    if method == "full":
        values["lora_dropout"] = 0.0
    settings = TrainingSettings.model_validate(values)
    if settings.activation_offloading and not settings.gradient_checkpointing:
        settings = settings.model_copy(update={"gradient_checkpointing": True})
        given.setdefault("gradient_checkpointing", True)
    lines = [f"{'default recipe' if recipe is None else 'recipe'} '{name}': {preset.why}",
             *version_lines(name, settings, method, precision, given, framework_version)]
    if preset.precision and precision and precision != preset.precision:
        lines.append(f"{name} trains in {preset.precision} only (training_precision '{precision}' does not apply)")
    if name == "unsloth" and preset.activation_offloading and not offload and "activation_offloading" not in given:
        lines.append(f"seq_len under {UNSLOTH_OFFLOAD_MIN_SEQ}: Unsloth uses standard gradient checkpointing (no offload)")
    if given:
        lines.append("overrides: " + ", ".join(f"{key}={value}" for key, value in given.items()))
    return settings.model_copy(update={"lines": tuple(lines)})


def version_lines(name: Recipe, settings: TrainingSettings, method: str, precision: TrainingPrecision | None,
                  given: Mapping[str, object], framework_version: str | None) -> list[str]:
    """What the releases decided, each with its source (versions.RULES)."""
    lines = [f"releases: {settings.versions}" + ("" if framework_version else " (the newest read; framework_version "
                                                                              "names others)")]
    if name in ("hf_trainer", "trl") and "optimizer_step" not in given:
        lines.append(f"optimizer step {settings.optimizer_step}: {versions.rule_source('trainer_optimizer_step')}")
    if name == "hf_trainer" and precision is None:
        how = ("fp32 LoRA adapters (PEFT autocast_adapter_dtype)" if method != "full" else
               "pure bf16 on the checkpoint's bf16" if settings.training_precision == "bf16" else
               "fp32 weights under bf16 autocast (training_precision='bf16' if you load bf16)")
        lines.append(f"precision {settings.training_precision}: {how}; {versions.rule_source('loads_checkpoint_dtype')}")
    if name == "trl" and settings.training_precision == "mixed":
        lines.append("a model object you load in bf16 yourself trains pure bf16 under TRL: training_precision='bf16'")
    if settings.fp32_logits and settings.logits_kept and settings.loss == "standard":
        lines.append("the held logits are fp32: " + versions.rule_source("model_returns_fp32_logits"))
    if settings.matmul4bit_saves_input:
        lines.append(versions.rule_source("matmul4bit_saves_input").replace("no longer", "before it:"))
    return lines
