"""Which quantized weight formats vLLM has kernels for on which GPU architecture.

From vLLM's "Supported Hardware" table for its quantization kernels (docs.vllm.ai/en/v0.14.0/features/quantization/,
the same in 0.6-0.15) and its FP8 W8A8 page (docs.vllm.ai/en/v0.32.0/features/quantization/llm_compressor/fp8/): AWQ
needs Turing (SM 7.5) or newer and has no ROCm kernel; GPTQ runs from Volta on NVIDIA, not on AMD GPUs; an FP8
checkpoint runs W8A8 on Ada, Hopper, Blackwell and AMD's CDNA 3, and weight-only (W8A16, FP8 Marlin) on Turing and
Ampere, so not on Volta or CDNA 2. Formats not listed (16-bit, bitsandbytes, GGUF) load everywhere vLLM runs.
"""
from __future__ import annotations

from gpusizer.catalog import GpuSpec

KERNEL_SOURCE = "vLLM's quantization hardware table"
NO_KERNEL: dict[str, tuple[str, ...]] = {  # format -> architectures (by the catalog's name, prefix) vLLM has no kernel for
    "awq": ("Volta", "CDNA"),
    "gptq": ("CDNA",),
    "fp8": ("Volta", "CDNA 2"),
}


def kernel_problem(engine: str, weights_dtype: str, gpu: GpuSpec) -> str | None:
    """Why vLLM cannot load this format on this GPU, or None."""
    if engine != "vllm":
        return None
    missing = NO_KERNEL.get(weights_dtype, ())
    architecture = gpu.architecture or ""
    if any(architecture.startswith(name) for name in missing):
        return f"vLLM has no {weights_dtype.upper()} kernel for {architecture} GPUs ({KERNEL_SOURCE}): pick another format"
    return None
