"""Storage formats of weights and KV caches: bits per value with the real cost of their scales.

Group-wise formats store a scale (and zero point) per group of values:
  AWQ/GPTQ 4-bit, groups of 128: 4 bits + an fp16 scale and a packed 4-bit zero per group = 4.156 bits.
  NF4 with double quantization (QLoRA paper, section 3): 4 + 8/64 + 32/(64*256) = 4.127 bits.
  MXFP4 (OCP microscaling; gpt-oss experts): 4-bit e2m1 values and one 8-bit e8m0 scale per 32 = 4.25 bits.
  NVFP4: 4-bit e2m1 values and one fp8 e4m3 scale per 16 = 4.5 bits (plus one fp32 scale per tensor).
  FP8 checkpoints (DeepSeek-V3, Qwen3-FP8): one fp32 scale per 128x128 block = 8.002 bits.
GGUF types carry their own block layouts (gguf.py); a GGUF file type mixes several of them per tensor.
"""
from __future__ import annotations

from dataclasses import dataclass

from gpusizer.tools.memory.model.gguf import GGUF_FILE_TYPES


@dataclass(frozen=True)
class WeightFormat:
    name: str
    bits_per_weight: float  # of the tensors the format quantizes, scales included
    quantized: bool         # embeddings, norms, routers and the LM head stay 16-bit (GGUF files: per its mix)
    compute_dtype: str      # what the matmuls run in
    how: str                # one line for the assumptions list
    gguf: bool = False      # a llama.cpp file type: the per-tensor mix of gguf.py decides the bytes

    @property
    def bytes_per_param(self) -> float:
        return self.bits_per_weight / 8


FORMATS: dict[str, WeightFormat] = {
    "fp32": WeightFormat("fp32", 32, False, "fp32", "fp32: 4 bytes per parameter"),
    "bf16": WeightFormat("bf16", 16, False, "bf16", "bf16: 2 bytes per parameter"),
    "fp16": WeightFormat("fp16", 16, False, "fp16", "fp16: 2 bytes per parameter"),
    "fp8": WeightFormat("fp8", 8 + 32 / (128 * 128), True, "fp8", "fp8 e4m3 with one fp32 scale per 128x128 block"),
    "int8": WeightFormat("int8", 8 + 24 / 128, True, "bf16",
                         "int8 (GPTQ/bitsandbytes-style) with a 16-bit scale and an 8-bit zero per group of 128"),
    "int4": WeightFormat("int4", 4 + 20 / 128, True, "bf16", "int4 with an fp16 scale and a 4-bit zero per group of 128 (AWQ/GPTQ/W4A16)"),
    "awq": WeightFormat("awq", 4 + 20 / 128, True, "bf16", "AWQ 4-bit, group size 128: fp16 scale and 4-bit zero per group"),
    "gptq": WeightFormat("gptq", 4 + 20 / 128, True, "bf16", "GPTQ 4-bit, group size 128: fp16 scale and 4-bit zero per group"),
    "nf4": WeightFormat("nf4", 4.127, True, "bf16", "NF4 with double quantization: 4.127 bits per parameter (QLoRA, bitsandbytes)"),
    "mxfp4": WeightFormat("mxfp4", 4.25, True, "bf16", "MXFP4: 4-bit e2m1 values with one 8-bit scale per 32 (4.25 bits)"),
    "nvfp4": WeightFormat("nvfp4", 4.5, True, "fp4", "NVFP4: 4-bit e2m1 values with one fp8 scale per 16 (4.5 bits)"),
    **{name: WeightFormat(name, ftype.nominal_bits, True, "bf16", f"GGUF {ftype.label}: llama.cpp's per-tensor mix "
                          f"({ftype.summary})", gguf=True) for name, ftype in GGUF_FILE_TYPES.items()},
}

SIXTEEN_BIT = ("bf16", "fp16")
TRAINABLE = ("fp32", "bf16", "fp16")

# KV cache element sizes: llama.cpp's q8_0 / q4_0 blocks hold 32 values with one fp16 scale (34 and 18 bytes).
KV_DTYPE_BYTES: dict[str, float] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "q8_0": 34 / 32, "q4_0": 18 / 32}
DTYPE_BYTES = KV_DTYPE_BYTES
