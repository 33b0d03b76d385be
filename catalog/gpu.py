"""One accelerator: datasheet specs (dense figures only) with provenance."""
from __future__ import annotations

import datetime

from pydantic import BaseModel, ConfigDict, Field, model_validator

GIB = 2**30
MIB = 2**20


CUDA_RESERVED_BYTES = int(0.45 * 2**30)


class GpuSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    gpu_id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    vendor: str
    family: str
    family_default: bool = False
    architecture: str
    form_factor: str
    launch_year: int = Field(ge=2010, le=2035)
    memory_gb: float = Field(gt=0, description="marketed capacity; GPU memory is sold in binary gigabytes (2^30 bytes)")
    usable_memory_mib: int = Field(gt=0, description="what the driver reports as total: the budget a fit check uses")
    usable_memory_note: str = ""
    memory_type: str
    memory_bandwidth_gbps: float | None = Field(gt=0, description="GB/s, 10^9 bytes per second (None: a GPU given only by "
                                                "its memory size)")
    fp32_tflops: float | None = Field(default=None, gt=0)
    tf32_tflops_dense: float | None = Field(default=None, gt=0)
    bf16_tflops_dense: float | None = Field(default=None, gt=0)
    fp16_tflops_dense: float | None = Field(default=None, gt=0)
    fp8_tflops_dense: float | None = Field(default=None, gt=0)
    int8_tops_dense: float | None = Field(default=None, gt=0)
    fp4_tflops_dense: float | None = Field(default=None, gt=0)
    native_bf16: bool
    native_fp8: bool
    native_fp4: bool
    sparse_note: str = ""
    tdp_watts: float | None = Field(default=None, gt=0)
    interconnect: str
    pcie_gen: int | None = None
    mig: str = ""
    purchase_usd: float | None = Field(default=None, gt=0, description="indicative price of one GPU")
    purchase_source: str = ""
    node_usd_per_gpu: float | None = Field(default=None, gt=0, description="an 8-GPU server's price divided by 8: GPU plus its "
                                           "share of chassis, CPUs, memory, NICs and install")
    node_price_source: str = ""
    node_price_parts: str = ""
    purchase_note: str = Field(default="", description="why no purchase price is given, where none is")
    aliases: list[str] = []
    source: str = Field(min_length=3)
    as_of: datetime.date
    verification: str = ""
    notes: str = ""

    @property
    def usable_memory_bytes(self) -> int:
        return self.usable_memory_mib * MIB

    @property
    def cuda_total_bytes(self) -> int:
        """What the CUDA runtime reports as total (cudaMemGetInfo), the base of vLLM's and SGLang's budgets: on data-centre
        parts the driver reserves ~0.45 GiB more than nvidia-smi's total shows (H100 79.19 vs 79.65 GiB, L40S 44.42 vs
        44.99 in vLLM logs); a GeForce card reports its whole total (RTX 4080: 15.99 GiB in both), and an Apple GPU has
        no CUDA driver to reserve anything (its share of unified memory is already the usable figure)."""
        whole = "consumer" in self.form_factor.lower() or self.family == "custom" or self.vendor == "Apple"
        return self.usable_memory_bytes - (0 if whole else CUDA_RESERVED_BYTES)

    @property
    def marketed_memory_bytes(self) -> int:
        return round(self.memory_gb * GIB)

    @model_validator(mode="after")
    def _consistent(self) -> GpuSpec:
        if self.usable_memory_bytes > self.marketed_memory_bytes:
            raise ValueError(f"usable memory {self.usable_memory_mib} MiB exceeds the marketed {self.memory_gb} GB")
        ladder = [("tf32", self.tf32_tflops_dense), ("bf16", self.bf16_tflops_dense),
                  ("fp8", self.fp8_tflops_dense), ("fp4", self.fp4_tflops_dense)]
        known = [(name, value) for name, value in ladder if value is not None]
        for (low_name, low), (high_name, high) in zip(known, known[1:], strict=False):
            if high < low:  # a narrower format is never slower on the same tensor cores
                raise ValueError(f"dense {high_name} ({high}) below dense {low_name} ({low}): is one of them a sparse figure?")
        if self.purchase_usd is not None and not self.purchase_source:
            raise ValueError("purchase_usd needs a purchase_source")
        return self

    def dense_tflops(self, dtype: str) -> float | None:
        """Peak dense throughput for a compute format, None where unsupported or unknown."""
        return {"fp32": self.fp32_tflops, "tf32": self.tf32_tflops_dense, "bf16": self.bf16_tflops_dense,
                "fp16": self.fp16_tflops_dense or self.bf16_tflops_dense, "fp8": self.fp8_tflops_dense,
                "int8": self.int8_tops_dense, "fp4": self.fp4_tflops_dense}.get(dtype)
