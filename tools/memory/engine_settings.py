"""What a serving engine does with a GPU's memory at start-up: the `serving` object of estimate_vram."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field

# estimate_vram's engine settings: they size a serving engine on a named GPU, so they do not ride along other tools
ENGINE_FIELDS = ("engine", "engine_version", "gpu_memory_utilization", "max_model_len", "max_num_seqs", "max_num_batched_tokens",
                 "enforce_eager", "n_gpu_layers", "flash_attention")
ENGINE_NAMES = {"hf": "Hugging Face transformers (generate)", "vllm": "vLLM", "sglang": "SGLang", "llama_cpp": "llama.cpp"}
# names people use for the same engines: Ollama, LM Studio and koboldcpp run llama.cpp underneath
ENGINE_ALIASES = {"ollama": "llama_cpp", "llama.cpp": "llama_cpp", "llamacpp": "llama_cpp", "lm_studio": "llama_cpp",
                  "lmstudio": "llama_cpp", "koboldcpp": "llama_cpp", "transformers": "hf"}


# the hardware whose memory rules were read for each engine (CUDA and ROCm builds; llama.cpp's Metal too); vLLM's TPU,
# Gaudi and Neuron platforms and SGLang's are separate back ends with budgets of their own, llama.cpp has none for them
ENGINE_VENDORS = {"vllm": ("NVIDIA", "AMD"), "sglang": ("NVIDIA", "AMD"), "llama_cpp": ("NVIDIA", "AMD", "Apple")}


def engine_runs_on(engine: str, vendor: str) -> bool:
    """Whether the engine's rules apply on this vendor's hardware ('unknown': a GPU given only by its memory)."""
    return engine not in ENGINE_VENDORS or vendor in (*ENGINE_VENDORS[engine], "unknown")


def unread_backend(engine: str, vendor: str) -> str:
    if engine == "llama_cpp":
        return f"llama.cpp has no back end for {vendor} accelerators"
    return f"{ENGINE_NAMES[engine]} runs on {vendor} hardware through a separate backend whose memory rules gpusizer has not read"


def engine_name(value: object) -> object:
    """A user's engine name in the form the Literal takes ('Ollama' -> 'llama_cpp', 'llama-cpp' -> 'llama_cpp')."""
    if not isinstance(value, str):
        return value
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    return ENGINE_ALIASES.get(key, key)


# an engine as people name it: the validator travels with the type, so Python, MCP and the TUI read 'Ollama' alike
Engine = Annotated[Literal["hf", "vllm", "sglang", "llama_cpp"], BeforeValidator(engine_name)]
ServingEngine = Annotated[Literal["vllm", "sglang", "llama_cpp"], BeforeValidator(engine_name)]


class ServingMemory(BaseModel):
    """Per GPU (the most loaded rank), as the engine logs it at start-up."""
    engine: Engine
    engine_version: str = Field(description="the release whose rules were applied")
    starts: bool = Field(description="whether the engine starts: weights, activations and one max_model_len request fit")
    reason: str | None = Field(default=None, description="why it does not start, in the engine's terms, with the fix")
    weights_bytes: int = Field(description="vLLM 'Model loading took', llama.cpp 'CUDA0 model buffer size'")
    activation_peak_bytes: int = Field(description="vLLM 'torch peak memory increase'; llama.cpp compute buffer")
    non_torch_bytes: int = Field(description="vLLM 'non-torch forward increase memory' (NCCL/custom all-reduce buffers)")
    cuda_graph_bytes: int = Field(description="CUDA graph pool (estimated: 0.45 MiB per captured size and layer)")
    kv_cache_bytes: int = Field(description="vLLM 'Available KV cache memory'; SGLang K size + V size; llama.cpp KV buffer")
    kv_cache_tokens: int = Field(description="vLLM 'GPU KV cache size: N tokens'; SGLang max_total_num_tokens; llama.cpp n_ctx")
    max_concurrency: float = Field(description="vLLM 'Maximum concurrency for max_model_len tokens per request'")
    max_model_len: int = Field(description="context per request (llama.cpp: n_ctx, shared by its slots)")
    max_model_len_fits: int | None = Field(default=None, description="the longest max_model_len one request could use here")
    budget_bytes: int = Field(description="vLLM gpu_memory_utilization x total; SGLang mem_fraction_static x free; llama.cpp: "
                              "what it allocates")
    outside_budget_bytes: int = Field(description="CUDA context, NCCL set-up and (older vLLM) the CUDA graph pool")
    block_size: int = Field(description="tokens per KV block (SGLang and llama.cpp: page size 1 and 256-cell padding)")
    gpu_memory_utilization: float | None = Field(default=None, description="vLLM's fraction of total, SGLang's mem_fraction_static")
    max_num_seqs: int | None = None
    max_num_batched_tokens: int | None = Field(default=None, description="vLLM max_num_batched_tokens, SGLang chunked_prefill_size, "
                                               "llama.cpp n_ubatch")
    n_gpu_layers: int | None = Field(default=None, description="llama.cpp -ngl: repeating layers plus the output layer on GPUs")
    host_weights_bytes: int | None = Field(default=None, description="llama.cpp: weights left in system RAM (token embedding, "
                                           "layers not offloaded)")
    host_kv_bytes: int | None = None
    host_compute_bytes: int | None = None
