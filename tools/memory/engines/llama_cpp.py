"""llama.cpp's buffers on each device: model, KV cache and compute, for a given -ngl, -c and -ub.

src/llama-model.cpp load_tensors: -ngl counts the repeating blocks plus one output layer (final norm and LM head);
layers from n_layer + 1 - ngl up go to the GPUs, the output layer first; the token embedding always stays in system
RAM. Several GPUs split the offloaded range by layer in proportion to free memory (equal GPUs: evenly), the output
layer on the last one. src/llama-kv-cache.cpp: a layer's K and V live on its device, n_ctx cells (padded to 256) of
n_head_kv x head_dim values each, f16 unless -ctk/-ctv say q8_0/q4_0; sliding-window layers keep window + n_ubatch
cells (padded). The compute buffer is the worst-case graph of one n_ubatch (measured on 146 runs, within 3%):
    n_ubatch x max(4 (vocab + 2 hidden) on the output device,
                   flash attention: 2 n_ctx + 4 (3 ffn + 4 hidden);  without: 4 n_ctx (heads + 1) + 4 (ffn + 2 hidden))
Defaults: -c 4096 (the CLI default from Nov 2024; newer builds start from the training context and fit it to memory,
Ollama 4096), -ub 512, flash attention on since b6250 (PR #15434), -ngl all, or with a GPU named, as many layers as fit
with llama.cpp's 1 GiB --fit margin.
"""
from __future__ import annotations

from dataclasses import dataclass

from gpusizer.catalog import GIB, ModelArch
from gpusizer.tools.memory.activations import mlp_width_per_token
from gpusizer.tools.memory.engines.kv_layout import attention_kinds
from gpusizer.tools.memory.model.gguf import GgufLayout

CELL_PADDING = 256
DEFAULT_CONTEXT = 4096
DEFAULT_UBATCH = 512
FIT_MARGIN = 1 * GIB  # common/arg.cpp --fit-target default: 1 GiB left free per device


def pad_cells(cells: int) -> int:
    return -(-cells // CELL_PADDING) * CELL_PADDING


@dataclass(frozen=True)
class DeviceBuffers:
    model: int
    kv: int
    compute: int
    layers: int          # repeating blocks on this device
    output: bool         # the output layer is here

    @property
    def total(self) -> int:
        return self.model + self.kv + self.compute


@dataclass(frozen=True)
class LlamaCppBuffers:
    gpus: tuple[DeviceBuffers, ...]
    host_model: int
    host_kv: int
    host_compute: int
    n_gpu_layers: int
    cells: int
    ubatch: int
    flash_attention: bool

    @property
    def busiest(self) -> DeviceBuffers:
        return max(self.gpus, key=lambda d: d.total) if self.gpus else DeviceBuffers(0, 0, 0, 0, False)


def kv_per_layer_cells(arch: ModelArch, cells: int, ubatch: int, k_bytes: float) -> list[tuple[int, float]]:
    """(cells, bytes per cell) for every layer, full layers first then windowed ones, in layer order."""
    kinds = attention_kinds(arch, k_bytes)
    out: list[tuple[int, float]] = []
    for kind in kinds:
        layer_cells = cells if kind.window is None else min(cells, pad_cells(kind.window + ubatch))
        out += [(layer_cells, kind.bytes_per_token)] * kind.layers
    return out


def compute_buffer(arch: ModelArch, cells: int, ubatch: int, flash_attention: bool, output: bool) -> int:
    h, ffn = arch.hidden_size, mlp_width_per_token(arch)
    logits = 4 * (arch.vocab_size + 2 * h) if output else 0
    if flash_attention:
        layer = 2 * cells + 4 * (3 * ffn + 4 * h)
    else:
        layer = 4 * cells * (arch.num_attention_heads + 1) + 4 * (ffn + 2 * h)
    return int(ubatch * max(logits, layer))


def offloadable_layers(arch: ModelArch) -> int:
    """What -ngl counts: every repeating layer plus the output layer (n_layer + 1)."""
    return arch.num_hidden_layers + 1


def llama_cpp_buffers(arch: ModelArch, layout: GgufLayout, *, gpus: int, n_gpu_layers: int, cells: int, ubatch: int,
                      kv_bytes: float, flash_attention: bool) -> LlamaCppBuffers:
    n_layer = arch.num_hidden_layers
    ngl = max(0, min(n_gpu_layers, n_layer + 1))
    start = n_layer + 1 - ngl                    # first offloaded layer index (n_layer is the output layer)
    offloaded = [i for i in range(start, n_layer)]
    kv_layers = kv_per_layer_cells(arch, cells, ubatch, kv_bytes)
    # windowed layers are interleaved in the model; spread them evenly over the layer order
    ordered = sorted(kv_layers, key=lambda c: c[0])
    by_layer = [ordered[(i * len(ordered)) // n_layer] for i in range(n_layer)] if kv_layers else [(0, 0.0)] * n_layer
    devices: list[DeviceBuffers] = []
    if ngl and gpus:
        share = [offloaded[(d * len(offloaded)) // gpus:((d + 1) * len(offloaded)) // gpus] for d in range(gpus)]
        for d, layers in enumerate(share):
            last = d == gpus - 1
            model = sum(layout.blocks[i] for i in layers) + (layout.output if last else 0)
            kv = int(sum(by_layer[i][0] * by_layer[i][1] for i in layers))
            devices.append(DeviceBuffers(model, kv, compute_buffer(arch, cells, ubatch, flash_attention, last),
                                         len(layers), last))
    host_layers = [i for i in range(min(start, n_layer))]
    host_model = layout.token_embd + sum(layout.blocks[i] for i in host_layers) + (0 if ngl else layout.output)
    host_kv = int(sum(by_layer[i][0] * by_layer[i][1] for i in host_layers))
    host_compute = int(ubatch * 4 * (arch.hidden_size + cells))  # inputs and the attention mask on the host
    if not devices:
        host_compute += compute_buffer(arch, cells, ubatch, flash_attention, True)
    return LlamaCppBuffers(tuple(devices), host_model, host_kv, host_compute, ngl, cells, ubatch, flash_attention)
