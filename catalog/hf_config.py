"""A Hugging Face config.json read into a ModelArch's fields, the way transformers reads it.

The family rules (defaults, biases, norms, which layers slide, where the experts sit) come from
data/architectures.json; the release's storage format from `quantization_config` and `torch_dtype`.
"""
from __future__ import annotations

from typing import Any

from .architectures import GENERIC, Family, family_for, wrapper_for
from .errors import SizingError

REQUIRED = ("hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size")
EXPERT_KEYS = ("num_local_experts", "num_experts", "n_routed_experts")  # transformers 5 writes num_local_experts for all
TOP_K_KEYS = ("num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_topk")
DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "half": "fp16", "float": "fp32"}


class ConfigReader:
    """Field lookups that follow transformers: a key present in config.json wins (even null), else the class default."""

    def __init__(self, text: dict[str, Any], family: Family):
        self.text, self.family = text, family

    def get(self, key: str, default: Any = None) -> Any:
        if key in self.text:
            return self.text[key]
        return self.family.defaults.get(key, default)

    def first(self, keys: tuple[str, ...]) -> Any:
        return next((self.get(k) for k in keys if self.get(k) is not None), None)

    def flag(self, rule: bool | str) -> bool:
        if isinstance(rule, bool):
            return rule
        return bool(self.get("attention_bias" if rule == "config" else rule, False))


def split_multimodal(config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None, str | None]:
    """(text config, vision config, text model_type) of a config.json, multimodal or not."""
    wrapper = wrapper_for(config.get("model_type"))
    text = config.get("text_config")
    if isinstance(text, dict):
        model_type = text.get("model_type") or (wrapper.text_model_type if wrapper else None)
        return text, config.get("vision_config"), model_type
    return config, None, config.get("model_type")


def arch_fields(config: dict[str, Any], model_id: str) -> dict[str, Any]:
    """ModelArch fields for a config.json (SizingError naming what is missing when it cannot be read)."""
    if not isinstance(config, dict):
        raise SizingError(f"the config of {model_id!r} is not a JSON object")
    text, vision, model_type = split_multimodal(config)
    family = family_for(model_type)
    read = ConfigReader(text, family)
    missing = [key for key in REQUIRED if read.get(key) is None]
    moe = moe_fields(read)
    if read.get("intermediate_size") is None and not moe:
        missing.append("intermediate_size")
    if missing:
        kind = f"model_type {model_type!r}" if model_type else "a config without model_type"
        raise SizingError(f"cannot read the architecture of {model_id!r} ({kind}): config.json lacks {', '.join(missing)}")
    layers, heads = int(read.get("num_hidden_layers")), int(read.get("num_attention_heads"))
    fields: dict[str, Any] = {
        "family": family.model_type if family is not GENERIC else (model_type or "generic"),
        "model_type": model_type,
        "num_hidden_layers": layers,
        "hidden_size": int(read.get("hidden_size")),
        "num_attention_heads": heads,
        "num_key_value_heads": int(read.get("num_key_value_heads") or heads),
        "head_dim": read.get("head_dim"),
        "intermediate_size": int(read.get(family.dense_width_key or "intermediate_size") or moe["moe_intermediate_size"]),
        "vocab_size": int(read.get("vocab_size")),
        "tie_word_embeddings": bool(config.get("tie_word_embeddings", read.get("tie_word_embeddings", False))),
        "max_position_embeddings": int(read.first(("max_position_embeddings", "max_sequence_length", "seq_length")) or 4096),
        "attention_bias": read.flag(family.qkv_bias),
        "attention_output_bias": read.flag(family.o_bias),
        "mlp_bias": read.flag(family.mlp_bias),
        "gated_mlp": family.gated_mlp,
        "attention_sinks": family.attention_sinks,
        "qk_norm": family.qk_norm != "none" and (family.qk_norm_key is None or bool(read.get(family.qk_norm_key))),
        "qk_norm_per_head": family.qk_norm != "full_width",
        "norms_per_layer": family.norms_per_layer,
        "embedding_scaled": family.embedding_scaled,
        "router_bias": family.router_bias,
        "expert_bias": family.expert_bias,
        **window_fields(read, layers, read.first(("max_position_embeddings", "max_sequence_length", "seq_length"))),
        **moe,
        **mla_fields(read, family),
        "vision_params": vision_parameters(vision, int(read.get("hidden_size"))) if vision else 0,
        "mtp_layers": int(read.get(family.mtp_key) or 0) if family.mtp_key else None,
        **release_fields(config),
    }
    return {key: value for key, value in fields.items() if value is not None}


def window_fields(read: ConfigReader, layers: int, context: int | None) -> dict[str, Any]:
    """Which layers keep only a window of tokens in transformers' cache (cache_utils.get_layer_types_and_kwargs)."""
    explicit = read.get("layer_types")
    rule = read.family.window_rule
    if isinstance(explicit, list) and explicit:
        chunked = sum(1 for t in explicit if t == "chunked_attention")
        sliding = sum(1 for t in explicit if t == "sliding_attention")
        window = read.get("attention_chunk_size") if chunked else read.get("sliding_window")
        count, kind = (chunked, "chunked") if chunked else (sliding, "sliding")
    elif rule == "chunked":
        window, kind = read.get("attention_chunk_size"), "chunked"
        no_rope = read.get("no_rope_layers")
        interval = int(read.get("no_rope_layer_interval") or 4)
        count = sum(no_rope) if isinstance(no_rope, list) and no_rope else layers - layers // interval
    else:
        window, kind = read.get("sliding_window"), "sliding"
        if rule == "all_if_set" or (rule == "none" and read.family is GENERIC):
            count = layers if window else 0
        elif rule == "qwen":
            count = max(0, layers - int(read.get("max_window_layers") or 0)) if read.get("use_sliding_window") else 0
        elif rule == "pattern":
            every = int(read.get(read.family.window_every_key or "", None) or read.family.window_every or 1)
            count = layers - layers // every
        else:
            count = 0
    if not window or not count or (context and int(window) >= int(context)):  # a window as long as the context caps nothing
        return {"window_layers": 0}
    return {"sliding_window": int(window), "window_layers": int(count), "window_kind": kind}


def moe_fields(read: ConfigReader) -> dict[str, Any]:
    family = read.family
    experts = read.first(tuple(dict.fromkeys(filter(None, (family.experts_key, *EXPERT_KEYS)))))
    if not experts or (family.moe_rule == "none" and family is not GENERIC):
        return {}
    layers = int(read.get("num_hidden_layers"))
    width = read.first((family.expert_width_key,) if family.expert_width_key else ("moe_intermediate_size", "intermediate_size"))
    rule = family.moe_rule if family is not GENERIC else ("first_k_dense" if read.get("first_k_dense_replace") else "all")
    if rule == "first_k_dense":
        moe_layers = layers - int(read.get("first_k_dense_replace") or 0)
    elif rule == "sparse_step":
        step, dense_only = int(read.get("decoder_sparse_step") or 1), set(read.get("mlp_only_layers") or [])
        moe_layers = sum(1 for i in range(layers) if i not in dense_only and (i + 1) % step == 0)
    elif rule == "interleave":
        listed = read.get("moe_layers")
        step = int(read.get("interleave_moe_layer_step") or 1)
        moe_layers = len(listed) if isinstance(listed, list) else len(range(step - 1, layers, step))
    else:
        moe_layers = layers
    shared = int(read.get(family.shared_count_key) or 0) if family.shared_count_key else family.shared_count
    shared_width = read.get(family.shared_width_key) if family.shared_width_key else None
    if shared_width and not shared:
        shared = 1
    return {"num_experts": int(experts), "num_experts_per_tok": int(read.first(TOP_K_KEYS) or 1),
            "moe_intermediate_size": int(width), "moe_layer_count": moe_layers,
            "first_k_dense_layers": int(read.get("first_k_dense_replace") or 0) if rule == "first_k_dense" else 0,
            "dense_mlp": moe_layers < layers, "num_shared_experts": shared, "shared_expert_gate": family.shared_expert_gate,
            "shared_expert_intermediate_size": int(shared_width) if shared_width else None}


def mla_fields(read: ConfigReader, family: Family) -> dict[str, Any]:
    if not (family.mla or read.get("kv_lora_rank")):
        return {}
    return {"q_lora_rank": read.get("q_lora_rank"), "kv_lora_rank": read.get("kv_lora_rank"),
            "qk_nope_head_dim": read.get("qk_nope_head_dim"), "qk_rope_head_dim": read.get("qk_rope_head_dim"),
            "v_head_dim": read.get("v_head_dim"), "mtp_layers": int(read.get("num_nextn_predict_layers") or 0)}


GATED_VISION = {"pixtral"}  # vision towers with a SwiGLU MLP (gate, up, down) instead of two matrices


def vision_parameters(vision: dict[str, Any], text_hidden: int) -> int:
    """A ViT tower from its config (attention and MLP with biases, two LayerNorms per layer, patch and position
    embeddings) plus a linear projector into the text width: within a few percent of SigLIP/Pixtral towers."""
    h = int(vision.get("hidden_size") or 1152)
    width = int(vision.get("intermediate_size") or 4 * h)
    layers = int(vision.get("num_hidden_layers") or 27)
    patch, image, channels = int(vision.get("patch_size") or 14), vision.get("image_size") or 896, int(vision.get("num_channels") or 3)
    image = int(image[0] if isinstance(image, list) else image)
    mlp = 3 * h * width if vision.get("model_type") in GATED_VISION else 2 * h * width + width + h
    per_layer = 4 * h * h + 4 * h + mlp + 4 * h
    embeddings = channels * patch * patch * h + h + (image // patch) ** 2 * h
    return layers * per_layer + embeddings + 2 * h + h * text_hidden


def release_fields(config: dict[str, Any]) -> dict[str, Any]:
    """How the release stores its weights: quantization_config, else torch_dtype."""
    nested = config.get("text_config")
    text: dict[str, Any] = nested if isinstance(nested, dict) else {}
    quant = config.get("quantization_config") or text.get("quantization_config")
    if not quant:
        dtype = str(config.get("torch_dtype") or config.get("dtype") or text.get("torch_dtype") or text.get("dtype") or "bfloat16")
        return {"release_format": DTYPES.get(dtype.replace("torch.", ""), "bf16")}
    fmt, note = quantization_format(quant)
    skipped = " ".join(str(m) for m in (quant.get("modules_to_not_convert") or quant.get("ignore") or []))
    experts_only = fmt in ("mxfp4", "fp8", "nvfp4") and ("self_attn" in skipped or ".attn" in skipped)
    return {"release_format": fmt, "release_scope": "experts" if experts_only else "blocks", "release_note": note}


def quantization_format(quant: dict[str, Any]) -> tuple[str, str]:
    method = str(quant.get("quant_method") or quant.get("quant_algo") or "").lower()
    bits = quant.get("bits") or quant.get("w_bit")
    if method in ("fp8", "fbgemm_fp8"):
        block = quant.get("weight_block_size")
        scales = f" with {block[0]}x{block[1]} block scales" if block else " with per-channel scales"
        return "fp8", f"fp8 {quant.get('fmt', 'e4m3')}{scales}"
    if method == "mxfp4":
        return "mxfp4", "MXFP4: 4-bit e2m1 values with one 8-bit scale per 32"
    if method in ("awq", "gptq"):
        if int(bits or 4) == 8:
            return "int8", f"{method.upper()} 8-bit, group size {quant.get('group_size', 128)}"
        return method, f"{method.upper()} {bits or 4}-bit, group size {quant.get('group_size', 128)}"
    if method == "bitsandbytes":
        if quant.get("load_in_8bit"):
            return "int8", "bitsandbytes LLM.int8 (8-bit rows with fp32 scales)"
        return "nf4", f"bitsandbytes {quant.get('bnb_4bit_quant_type', 'nf4')}" + (
            " with double quantization" if quant.get("bnb_4bit_use_double_quant") else "")
    if method == "modelopt" or method == "nvfp4":
        algo = str(quant.get("quant_algo") or "").upper()
        if "FP4" in algo or method == "nvfp4":
            return "nvfp4", "NVFP4: 4-bit e2m1 values with an fp8 scale per 16"
        return "fp8", "ModelOpt FP8"
    if method == "compressed-tensors":
        return compressed_tensors_format(quant)
    raise SizingError(f"quantization method {method or 'unknown'!r} is not modelled; pass weights_dtype to say how the weights are stored")


def compressed_tensors_format(quant: dict[str, Any]) -> tuple[str, str]:
    groups = quant.get("config_groups") or {}
    weights = next((g.get("weights") or {} for g in groups.values() if isinstance(g, dict)), {})
    bits, kind, group = weights.get("num_bits"), weights.get("type"), weights.get("group_size")
    if kind == "float" and bits == 4:
        return "nvfp4", f"compressed-tensors NVFP4 (group size {group or 16})"
    if kind == "float" and bits == 8:
        return "fp8", "compressed-tensors FP8 (per-channel scales)"
    if kind == "int" and bits == 4:
        return "int4", f"compressed-tensors W4A16 (group size {group or 128})"
    if kind == "int" and bits == 8:
        return "int8", "compressed-tensors W8A16"
    raise SizingError(f"compressed-tensors scheme {kind}/{bits} bits is not modelled; pass weights_dtype to say how the weights are stored")
