"""Bytes per parameter for each storage format, with the real cost of quantization scales."""
from __future__ import annotations

from dataclasses import dataclass

@dataclass(frozen=True)
class WeightFormat:
    name: str
    bytes_per_param: float
    quantized: bool      # embeddings and the LM head stay in 16-bit for quantized formats
    compute_dtype: str   # what the matmuls run in
    how: str             # one line for the assumptions list


# Group-wise formats store one scale (and zero point) per group: GPTQ/AWQ use groups of 128 with an fp16
# scale and a packed zero (~32 bits per group). NF4 with double quantization (QLoRA paper, section 3):
# 4 + 8/64 + 32/(64*256) = 4.127 bits per parameter. FP8 checkpoints keep one fp32 scale per 128x128 block.
FORMATS = {
    "fp32": WeightFormat("fp32", 4.0, False, "fp32", "fp32: 4 bytes per parameter"),
    "bf16": WeightFormat("bf16", 2.0, False, "bf16", "bf16: 2 bytes per parameter"),
    "fp16": WeightFormat("fp16", 2.0, False, "fp16", "fp16: 2 bytes per parameter"),
    "fp8": WeightFormat("fp8", 1.0 + 4 / (128 * 128), True, "fp8", "fp8 e4m3 with one fp32 scale per 128x128 block"),
    "int8": WeightFormat("int8", 1.0 + 4 / 128, True, "bf16", "int8 with an fp16 scale and zero point per group of 128"),
    "int4": WeightFormat("int4", 0.5 + 4 / 128, True, "bf16", "int4 (GPTQ/AWQ) with an fp16 scale and zero point per group of 128"),
    "nf4": WeightFormat("nf4", 4.127 / 8, True, "bf16", "NF4 with double quantization: 4.127 bits per parameter (QLoRA)"),
}

DTYPE_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}
