"""Comparing GPUs side by side: specs, prices and, with a workload, fit and speed.

- `compare_gpus(gpus, ...)`: one row per GPU in the order asked.
- `compare_gpus_answer(result)`: a comparison as a short text answer, the verdict first.
"""
from gpusizer.tools.compare.answer import compare_gpus_answer
from gpusizer.tools.compare.compare_gpus import GpuComparison, compare_gpus

__all__ = ["GpuComparison", "compare_gpus", "compare_gpus_answer"]
