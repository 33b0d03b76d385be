"""Which quantized weight formats an engine has kernels for on which GPU architecture.

vLLM, from its "Supported Hardware" table for its quantization kernels (docs.vllm.ai/en/v0.14.0/features/quantization/,
the same in 0.6-0.15) and its FP8 W8A8 page (docs.vllm.ai/en/v0.32.0/features/quantization/llm_compressor/fp8/): AWQ
needs Turing (SM 7.5) or newer and has no ROCm kernel; GPTQ runs from Volta on NVIDIA, not on AMD GPUs; an FP8
checkpoint runs W8A8 on Ada, Hopper, Blackwell and AMD's CDNA 3, and weight-only (W8A16, FP8 Marlin) on Turing and
Ampere, so not on Volta or CDNA 2. transformers loads AWQ checkpoints through AutoAWQ, whose kernels need compute
capability 7.5 (Turing) or newer (AutoAWQ's README), so not on Volta. (An FP8 checkpoint under transformers on a GPU
without FP8 tensor cores is not refused: it is dequantized to BF16, which estimate.py sizes.) Formats not listed
(16-bit, bitsandbytes, GGUF) load everywhere the engine runs; SGLang and llama.cpp are not tabled here.
"""
from __future__ import annotations

from gpusizer.catalog import GpuSpec

KERNEL_SOURCES = {"vllm": "vLLM's quantization hardware table", "hf": "AutoAWQ's README: compute capability 7.5 or newer"}
ENGINE_NAMES = {"vllm": "vLLM", "hf": "transformers"}
NO_KERNEL: dict[str, dict[str, tuple[str, ...]]] = {  # engine -> format -> architectures (catalog name, prefix) with no kernel
    "vllm": {"awq": ("Volta", "CDNA"), "gptq": ("CDNA",), "fp8": ("Volta", "CDNA 2")},
    "hf": {"awq": ("Volta",)},
}
SAME_SIZE_FORMAT = {"awq": "gptq"}  # a 4-bit checkpoint of the other kind, for a GPU with no kernel for the first


def kernel_problem(engine: str, weights_dtype: str | None, gpu: GpuSpec) -> str | None:
    """Why the engine cannot load this format on this GPU, or None."""
    missing = NO_KERNEL.get(engine, {}).get(weights_dtype or "", ())
    architecture = gpu.architecture or ""
    if any(architecture.startswith(name) for name in missing):
        return (f"{ENGINE_NAMES[engine]} has no {str(weights_dtype).upper()} kernel for {architecture} GPUs "
                f"({KERNEL_SOURCES[engine]}): pick another format")
    return None


def loadable_format(engine: str, weights_dtype: str, gpu: GpuSpec) -> str | None:
    """The format itself where the engine has a kernel for it on this GPU, else one of the same size it has, else None."""
    for candidate in (weights_dtype, SAME_SIZE_FORMAT.get(weights_dtype)):
        if candidate and kernel_problem(engine, candidate, gpu) is None:
            return candidate
    return None
