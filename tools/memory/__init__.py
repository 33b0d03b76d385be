"""Memory: what a model needs in GPU memory, for inference or a training step, and where that fits.

- `estimate_vram(model, ...)`: peak bytes per GPU by category, the fit on a named GPU, and where it fits across the catalog.
- `fit_hints(request, estimate)`: the one change (batch, context, format, checkpointing, GPUs) that makes a "no" fit.
- `workload_of(arguments)`: estimate_vram's fields riding along another tool's arguments.

Below them: `model/` (parameters, formats, stored weight bytes), `training/` (states and the step's peak),
`engines/` (vLLM, SGLang and llama.cpp start-up budgets), and the plan every estimate is built from (`plan.py`).
"""
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.hints import fit_hints
from gpusizer.tools.memory.request import Breakdown, GpuCheck, GpuFit, VramEstimate, VramRequest
from gpusizer.tools.memory.workload import workload_of

__all__ = ["Breakdown", "GpuCheck", "GpuFit", "VramEstimate", "VramRequest", "estimate_vram", "fit_hints", "workload_of"]
