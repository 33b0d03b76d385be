"""A GPU's card in one line, as a person asks 'what is an L40S?': memory, bandwidth, dense 16-bit and FP8 TFLOPS (FP16
where the GPU has no BF16: V100, T4), power, interconnect, the cheapest on-demand price, and the row's source."""
from __future__ import annotations

from gpusizer.catalog import Catalog
from gpusizer.tools.figures import number, usd
from gpusizer.tools.pricing import cheapest


def gpu_card(catalog: Catalog, gpu_id: str) -> str:
    gpu = catalog.find_gpu(gpu_id)
    price = cheapest(catalog, gpu.gpu_id, "on_demand")
    sixteen = (f"{number(gpu.bf16_tflops_dense)} BF16" if gpu.bf16_tflops_dense else
               f"{number(gpu.fp16_tflops_dense)} FP16 (no BF16)" if gpu.fp16_tflops_dense else "BF16 not listed")
    fp8 = f"{number(gpu.fp8_tflops_dense)} FP8" if gpu.fp8_tflops_dense else "no FP8"
    bandwidth = f"{number(gpu.memory_bandwidth_gbps)} GB/s" if gpu.memory_bandwidth_gbps else "bandwidth not listed"
    watts = f"{number(gpu.tdp_watts)} W" if gpu.tdp_watts else "power not listed"
    cost = f"cheapest on-demand {usd(price.usd_per_gpu_hour)}/GPU-h" if price else "no cloud price in the catalog"
    return (f"{gpu.name} ({gpu.vendor}): {number(gpu.memory_gb)} GB, {bandwidth}, {sixteen} / {fp8} dense TFLOPS, {watts}, "
            f"{gpu.interconnect}; {cost}. Source: {gpu.source} (as of {gpu.as_of}).")
