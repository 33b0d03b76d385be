"""The link a tensor-parallel replica's all-reduces cross, and what one all-reduce of a step's activations costs.

A tensor-parallel decoder layer ends its attention and its MLP with an all-reduce of the step's activations (Megatron-LM's
row-parallel linear layers; vLLM's RowParallelLinear calls tensor_model_parallel_all_reduce), so a step moves 2 x layers
x tokens x hidden x 2 bytes through it. A ring all-reduce sends 2(n-1)/n of the buffer over each GPU's link (nccl-tests
doc/PERFORMANCE.md, "bus bandwidth"), at the link's one-way bandwidth. vLLM does not overlap it with the GEMMs, so it
adds to the step; it grows with the tokens a step carries, which is why large batches and long prompts lose more to it
on PCIe than on NVLink.
"""
from __future__ import annotations

import functools
import re
from typing import NamedTuple

from gpusizer.catalog import GpuSpec

ACTIVATION_BYTES = 2          # bf16/fp16 activations, whatever the weights' format
ALL_REDUCES_PER_LAYER = 2     # after attention's output projection and after the MLP's down projection
# Share of a link's one-way bandwidth a large all-reduce reaches (nccl-tests' bus bandwidth over the link's rate; NVIDIA
# reports ~360-480 GB/s busbw on 8 x H100 SXM with 450 GB/s one-way NVLink, RCCL ~300+ GB/s on 8 x MI300X): 0.75
# assumed for every link, stated in the speed assumption.
ALL_REDUCE_SHARE = 0.75
LINKS = {  # kind: one-way GB/s per GPU where the catalog's interconnect names no figure, and why
    "nvlink": (450.0, "NVLink 4 (H100/H200 SXM): 900 GB/s both ways"),
    "infinity_fabric": (448.0, "MI300X xGMI: 7 links x 64 GB/s one way"),
    "pcie5": (64.0, "PCIe 5.0 x16: 64 GB/s one way"),
    "pcie4": (32.0, "PCIe 4.0 x16: 32 GB/s one way"),
    "pcie3": (16.0, "PCIe 3.0 x16: 16 GB/s one way"),
}
# GeForce cards have no peer-to-peer over PCIe in NVIDIA's driver: NCCL stages each transfer through host memory, which
# halves what the link gives (NCCL's SHM transport; tinygrad's P2P patch exists because of it).
NO_PEER_TO_PEER_SHARE = 0.5


class Link(NamedTuple):
    kind: str
    one_way_gbps: float

    @property
    def all_reduce_bytes_per_s(self) -> float:
        return self.one_way_gbps * 1e9 * ALL_REDUCE_SHARE


def tensor_parallel_link(gpu: GpuSpec, tp: int) -> Link:
    """The link tp GPUs of this type all-reduce over: NVLink or Infinity Fabric where every GPU reaches the others
    (a 2-GPU NVLink bridge serves a pair only), else PCIe at the card's generation."""
    generation = gpu.pcie_gen or (5 if gpu.launch_year >= 2023 else 4)
    return link_of(gpu.interconnect, generation, "consumer" in gpu.form_factor, tp > 2)


@functools.lru_cache(maxsize=256)  # the planner asks for thousands of shapes per call, over a few dozen GPU types
def link_of(interconnect: str, generation: int, consumer: bool, beyond_a_pair: bool) -> Link:
    text = interconnect.lower()
    figure = re.search(r"(\d[\d,.]*)\s*(?:\(.*?\)\s*)?gb/s", text)
    both_ways = float(figure.group(1).replace(",", "")) if figure else None
    bridged_pair = "bridge" in text
    if "nvlink" in text and not (bridged_pair and beyond_a_pair):
        return Link("nvlink", both_ways / 2 if both_ways else LINKS["nvlink"][0])
    if "infinity fabric" in text:
        return Link("infinity_fabric", both_ways / 2 if both_ways and both_ways < 2000 else LINKS["infinity_fabric"][0])
    one_way = LINKS[f"pcie{min(max(generation, 3), 5)}"][0]
    if consumer:
        one_way *= NO_PEER_TO_PEER_SHARE
    return Link(f"pcie{generation}", one_way)


def all_reduce_bytes_per_token(hidden_size: int, layers: int, tp: int) -> float:
    """Bytes each GPU sends per token of a step through the tensor-parallel all-reduces (0 without tensor parallelism)."""
    if tp <= 1:
        return 0.0
    return ALL_REDUCES_PER_LAYER * layers * hidden_size * ACTIVATION_BYTES * 2 * (tp - 1) / tp


def link_note(gpu: GpuSpec, tp: int) -> str:
    link = tensor_parallel_link(gpu, tp)
    return (f"tensor-parallel all-reduces: 2 per layer over {link.kind} at {link.one_way_gbps:g} GB/s one way x "
            f"{ALL_REDUCE_SHARE:.0%} (ring: 2(n-1)/n of the activations per GPU)")
