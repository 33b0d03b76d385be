"""Weight bytes as stored: the release's own format by default, or any format the user names."""
from __future__ import annotations

from gpusizer.catalog import ModelArch
from gpusizer.tools.memory.model.formats import FORMATS, TRAINABLE, WeightFormat
from gpusizer.tools.memory.model.gguf import gguf_weight_bytes
from gpusizer.tools.memory.model.parameters import ParameterCount

QLORA_BASE = "nf4"


def default_weights_dtype(arch: ModelArch, workload: str, method: str) -> tuple[str, str]:
    """(format, why) when the request names none: QLoRA's NF4 base; the release's format for inference; for
    training a quantized release is dequantized to bf16 (full and LoRA training run on 16-bit weights)."""
    if workload == "training" and method == "qlora":
        return QLORA_BASE, "QLoRA stores the frozen base in NF4"
    release = arch.release_format
    if release == "fp32":
        return "bf16", "the release is fp32; served and trained in bf16 (vLLM's dtype=auto does so, transformers with dtype=bfloat16)"
    if workload == "training" and release not in TRAINABLE:
        return "bf16", f"the release is {release}; training loads it dequantized to bf16 (as transformers does for {method} training)"
    return release, "as released" + (f" ({arch.release_note})" if arch.release_note else "")


def quantized_params(counts: ParameterCount, arch: ModelArch, fmt: WeightFormat) -> int:
    """Parameters a quantized format compresses: every linear layer of the decoder blocks, or for a release that
    quantizes only the experts (gpt-oss's MXFP4), the routed experts."""
    if fmt.name == arch.release_format and arch.release_scope == "experts":
        return counts.routed_experts
    return counts.linear_in_blocks


_GGUF_CACHE: dict[tuple[str, str, str], tuple[int, dict[str, int]]] = {}


def gguf_bytes_cached(arch: ModelArch, file_type: str) -> tuple[int, dict[str, int]]:
    """llama.cpp's per-tensor mix walks every tensor of the model: worth doing once per model and file type."""
    key = (arch.model_id, arch.source, file_type)
    if key not in _GGUF_CACHE:
        _GGUF_CACHE[key] = gguf_weight_bytes(arch, file_type, mxfp4_experts=arch.release_format == "mxfp4")
    return _GGUF_CACHE[key]


def weight_bytes_of(arch: ModelArch, counts: ParameterCount, weights_dtype: str) -> tuple[float, str]:
    """(bytes of all weights on one copy of the model, how they were counted)."""
    fmt = FORMATS[weights_dtype]
    if weights_dtype == arch.release_format and arch.release_bytes:
        return float(arch.release_bytes), f"{arch.release_bytes / 1e9:.2f} GB: the release's tensors as its safetensors headers list them"
    if fmt.gguf:
        text_bytes, by_type = gguf_bytes_cached(arch, weights_dtype)
        mix = ", ".join(f"{t} {share / sum(by_type.values()):.0%}" for t, share in sorted(by_type.items(), key=lambda kv: -kv[1])[:4])
        return float(text_bytes), f"{fmt.how}; tensors by type: {mix} (the vision tower is a separate mmproj file)"
    if not fmt.quantized:
        return counts.total * fmt.bytes_per_param, fmt.how
    quantized = quantized_params(counts, arch, fmt)
    kept = counts.total - quantized
    scope = "the MoE experts" if quantized == counts.routed_experts and counts.routed_experts else "the decoder blocks' linear layers"
    return (quantized * fmt.bytes_per_param + kept * 2,
            f"{fmt.how} on {scope}; embeddings, norms, routers and the LM head kept in 16-bit")
