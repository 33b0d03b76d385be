"""Comparing GPUs side by side: specs, prices and, with a workload, fit and speed.

- `compare_gpus(gpus, ...)`: one row per GPU in the order asked.
"""
from gpusizer.tools.compare.compare_gpus import GpuComparison, compare_gpus

__all__ = ["GpuComparison", "compare_gpus"]
