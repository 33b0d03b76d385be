"""A box of different cards used together (a 3090 and a 3060 12GB): how each engine shares the model among them.

llama.cpp (`--tensor-split` defaults to each device's free memory) and transformers (`device_map="auto"` balances
layers over the devices' memory) split the layers in proportion to each card's memory, so the cards' memory adds up.
vLLM and SGLang shard every layer with tensor parallelism into equal parts, so the smallest card sets the limit:
each takes its share of `gpu_memory_utilization` (vLLM's 0.9 by default) of itself. Every card also holds its own
buffers and CUDA context, taken from the estimate's activations and runtime overhead.
"""
from __future__ import annotations

from gpusizer.catalog import GpuSpec
from gpusizer.tools.memory.engines.memory import VLLM_GPU_MEMORY_UTILIZATION
from gpusizer.tools.memory.request import BoxCard, BoxCheck, VramEstimate

LAYER_SPLIT = {"hf": "transformers (device_map='auto')", "llama_cpp": "llama.cpp"}


def box_check(result: VramEstimate, cards: list[GpuSpec], engine: str, utilization: float | None = None) -> BoxCheck:
    """Whether `result`'s model fits the cards used together under `engine`, and each card's part."""
    per_device = result.breakdown.activations + result.breakdown.runtime_overhead
    host = (result.serving.host_weights_bytes or 0) if result.serving else 0  # what llama.cpp keeps in system RAM anyway
    shared = result.total_bytes - per_device - host
    usable = [card.usable_memory_bytes for card in cards]
    if engine in ("vllm", "sglang"):
        share = utilization or VLLM_GPU_MEMORY_UTILIZATION
        part = shared // len(cards)
        fits = part <= min(usable) * share - per_device
        split = (f"tensor parallel: an equal share on each of the {len(cards)} cards, so the smallest sets the limit "
                 f"({share:g} of it usable at that memory share)")
        parts = [part] * len(cards)
    else:
        fits = shared <= sum(usable) - len(cards) * per_device
        split = f"{LAYER_SPLIT.get(engine, 'the engine')} splits the layers in proportion to each card's memory"
        parts = [int(shared * u / sum(usable)) for u in usable]
    return BoxCheck(fits=fits, split=split, shared_bytes=shared,
                    cards=[BoxCard(gpu_id=card.gpu_id, usable_bytes=u, share_bytes=p, buffers_bytes=per_device)
                           for card, u, p in zip(cards, usable, parts, strict=True)])
