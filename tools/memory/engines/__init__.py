"""Serving engines' memory at start-up: what vLLM, SGLang and llama.cpp reserve on each GPU, and the KV cache left.

- `engine_memory(plan, gpu, ...)`: the `serving` object of estimate_vram and the per-GPU breakdown under an engine.
- `estimate_with_engine(plan, ...)`: estimate_vram's result when an engine is named.
- `vllm_budget`, `sglang_budget`, `llama_cpp_buffers`: each engine's own budget, as its code computes it.
"""
from gpusizer.tools.memory.engines.estimate import estimate_with_engine
from gpusizer.tools.memory.engines.llama_cpp import llama_cpp_buffers
from gpusizer.tools.memory.engines.memory import engine_memory
from gpusizer.tools.memory.engines.sglang import sglang_budget
from gpusizer.tools.memory.engines.vllm import vllm_budget

__all__ = ["engine_memory", "estimate_with_engine", "llama_cpp_buffers", "sglang_budget", "vllm_budget"]
