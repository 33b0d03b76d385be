"""Memory: what a model needs in GPU memory, for inference or a training step, and where that fits.

- `estimate_vram(model, ...)`: peak bytes per GPU by category, the fit on a named GPU, and where it fits across the catalog.
  With a gpu it does not fit, `alternatives`: the cheapest changes that make it fit, from the fix-it ladder
  (`ladder.py`: format, KV cache, context, checkpointing, optimizer, recipe, GPUs), each re-estimated.
- `biggest_model(gpu, ...)`: the largest catalog models that fit a GPU (or several) for a workload, per format.
- `workload_of(arguments)`: estimate_vram's fields riding along another tool's arguments.

Below them: `model/` (parameters, formats, stored weight bytes), `training/` (states and the step's peak),
`engines/` (vLLM, SGLang and llama.cpp start-up budgets), and the plan every estimate is built from (`plan.py`).
"""
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.request import Alternative, Breakdown, GpuCheck, GpuFit, VramEstimate, VramRequest
from gpusizer.tools.memory.workload import workload_of

__all__ = ["Alternative", "Breakdown", "GpuCheck", "GpuFit", "VramEstimate", "VramRequest", "estimate_vram", "workload_of"]
