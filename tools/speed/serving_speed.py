"""How fast one replica serves: a roofline per engine step, with the efficiencies engines reach stated as data.

A step runs two kinds of kernels one after the other, each bound by memory or compute: the linear layers (GEMMs)
read every weight the step's tokens route to and do 2 FLOPs per active parameter per token; attention reads each
running sequence's KV cache (and, for prompt tokens, does its quadratic FLOPs). Each takes the longer of its bytes at the
engine's share of the datasheet bandwidth and its FLOPs at its share of the dense peak, and the step adds a fixed cost
per layer (kernel launches, scheduling, the tensor-parallel all-reduce), which published decode timings show does not
shrink on faster GPUs. Continuous batching mixes the prompts of arriving requests into decode steps (chunked prefill).
Mixture-of-experts steps read only the experts their tokens route to: with T tokens and k of E experts each,
E x (1 - (1 - k/E)^T) per layer.

Efficiencies, fitted on published timings (gpt-fast, vLLM CI, TensorRT-LLM, NIM and llama-bench tables; each case's
ratio is printed by benchmarks/throughput.py): vLLM/SGLang reach 0.85 of the bandwidth plus 0.08 ms per layer per step;
GEMMs reach 0.65 of the 16-bit dense peak and 0.45 of the FP8/FP4 one, times 0.8 at tensor parallel 4 and 0.6 at 8
(each GPU's share of a GEMM narrows). Beside the GEMMs and the KV read, three costs grow with the batch: the
tensor-parallel all-reduces (2 per layer, their volume over the link: interconnect.py, PCIe vs NVLink), sampling
(vLLM's sampler passes over each sequence's float32 logits) and, under vLLM, the CPU's scheduling of each running
sequence between steps (HOST_SECONDS_PER_SEQUENCE). llama.cpp by GPU class (LLAMA_CPP_CLASSES below: 0.87 of a GDDR
card's bandwidth and 0.60 of an HBM part's, 74-104 us per layer per step, prompts at 0.78 of a GeForce card's dense peak
and 0.30 of other parts'; benchmarks/speed_published.py prints each published case).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from gpusizer.catalog import GpuSpec
from gpusizer.tools.memory.engines.kv_layout import attention_kinds
from gpusizer.tools.memory.model.gguf import gguf_layout
from gpusizer.tools.memory.plan import Plan
from gpusizer.tools.speed.interconnect import all_reduce_bytes_per_token, tensor_parallel_link

VLLM_BANDWIDTH_EFFICIENCY = 0.85
VLLM_STEP_SECONDS_PER_LAYER = 0.08e-3
# llama.cpp by GPU class, fitted on llama-bench tables (tests/data/speed_published.json: tg512/pp512 of Llama 3 8B and
# 70B at Q4_K_M and F16 on 14 GPUs, build 2824; benchmarks/speed_published.py prints each case): every layer costs a
# fixed time per step beside its bytes (kernel launches and small reductions: about 3 ms a token for a 32-layer model,
# why an A100 and an H100 decode an 8B Q4_K_M at the same ~140 tokens/s), and its kernels reach less of an HBM part's
# bandwidth and of a professional or data-centre part's dense peak than of a GeForce card's. That per-layer cost is also
# what bounds a small model: Ollama's eval rates of Llama 3.2 3B and 3.1 8B on five GeForce cards (not fitted on; the
# same RTX 4090 reads 216 or 237 tokens/s by host CPU) land within x1.13, where bandwidth alone is x1.7 too fast.
LLAMA_CPP_CLASSES = {  # class: (share of the bandwidth, seconds per layer per step, share of the dense 16-bit peak)
    "apple": (0.55, 0.0, 0.65),
    "hbm": (0.60, 104e-6, 0.30),
    "gddr_consumer": (0.87, 74e-6, 0.78),
    "gddr_professional": (0.87, 74e-6, 0.30),
}
GEMM_EFFICIENCY = {"fp8": 0.45, "fp4": 0.45}   # of the dense peak of the compute format
GEMM_EFFICIENCY_DEFAULT = 0.65
TP_COMPUTE_FACTOR = {1: 1.0, 2: 1.0, 4: 0.8, 8: 0.6}
# Sampling, per running sequence per step: vLLM's sampler (vllm/v1/sample/sampler.py) turns each sequence's logits into
# float32 and passes over them for temperature, top-k/top-p and the draw: about 3 reads or writes of vocab x 4 bytes.
SAMPLING_PASSES = 3
LOGIT_BYTES = 4
# The host's work per running sequence per step, which vLLM V1 does on the CPU between GPU steps (its engine core runs
# Scheduler.schedule, the model runner's input preparation and update_from_output in turn, not overlapped unless
# --async-scheduling): 12.7 us per request for the scheduler alone in all-decode steps (the profile of vLLM's engine
# loop in openfabric-systems/simllm PR #204, its cost growing x1.9-2.2 per doubling of running requests), a floor for
# the whole. Before V1's rewrite it was far more: ~20 ms a step at 200 sequences for sampling, input preparation, output
# processing and scheduling (vllm-project/vllm#6801, v0.5). SGLang overlaps this work with the GPU's (its overlap
# scheduler, default since v0.4), so it adds nothing there; llama.cpp's host work is in its fixed cost per layer.
HOST_SECONDS_PER_SEQUENCE = {"vllm": 12.7e-6}


class SpeedFactors(NamedTuple):  # a NamedTuple: the planner builds thousands per call
    bandwidth_efficiency: float     # share of the datasheet memory bandwidth a step reaches
    compute_efficiency: float       # share of the dense peak the GEMMs and prefill attention reach
    step_seconds_per_layer: float   # fixed cost of a step, per layer of the model
    host_seconds_per_sequence: float = 0.0  # the engine's CPU work per running sequence per step, not overlapped


def factors_note(engine: str, bandwidth: float | None, compute: float | None) -> str:
    """The speed rule as an assumption line: the engine's defaults, or the overrides given."""
    if engine == "llama_cpp":
        hbm, gddr = LLAMA_CPP_CLASSES["hbm"], LLAMA_CPP_CLASSES["gddr_consumer"]
        bw = f"{bandwidth:.0%}" if bandwidth else f"{gddr[0]:.0%} (HBM parts {hbm[0]:.0%})"
        fixed = (f" + {gddr[1] * 1e3:.3f} ms per layer per step ({hbm[1] * 1e3:.3f} on HBM parts; llama-bench tables, build "
                 "2824: newer builds with CUDA graphs may be faster)")
        if not compute:
            return (f"speed: a roofline per step, at {bw} of the memory bandwidth or, for prompts, "
                    f"{gddr[2]:.0%} of a GeForce card's and {hbm[2]:.0%} of other parts' dense 16-bit peak, whichever is "
                    f"slower{fixed} (change with bandwidth_efficiency, compute_efficiency)")
    else:
        bw, fixed = f"{bandwidth or VLLM_BANDWIDTH_EFFICIENCY:.0%}", f" + {VLLM_STEP_SECONDS_PER_LAYER * 1e3:.2f} ms per layer per step"
    gemm = (f"{compute:.0%} of the dense peak" if compute else
            f"{GEMM_EFFICIENCY_DEFAULT:.0%} of the 16-bit and {GEMM_EFFICIENCY['fp8']:.0%} of the FP8/FP4 dense peak"
            + (", x0.8 at tensor parallel 4 and x0.6 at 8" if engine != "llama_cpp" else ""))
    host = HOST_SECONDS_PER_SEQUENCE.get(engine)
    return (f"speed: a roofline per step, linear layers then attention, each at {bw} of the memory bandwidth or {gemm}, "
            f"whichever is slower{fixed}; per token, the tensor-parallel all-reduces over the GPUs' link, and per sequence, "
            "sampling over its logits" + (f" and {host * 1e6:g} us of the engine's scheduling on the CPU" if host else "")
            + "; continuous batching with chunked prefill (change with bandwidth_efficiency, compute_efficiency)")


def default_factors(engine: str, gpu: GpuSpec, tp: int, compute_dtype: str = "bf16", *, bandwidth: float | None = None,
                    compute: float | None = None) -> SpeedFactors:
    # FP8/FP4 GEMMs only where the GPU has those tensor cores; elsewhere the weights are upcast and the GEMMs run 16-bit
    native = gpu.dense_tflops(compute_dtype) is not None
    gemm = (GEMM_EFFICIENCY.get(compute_dtype, GEMM_EFFICIENCY_DEFAULT) if native else GEMM_EFFICIENCY_DEFAULT) \
        * TP_COMPUTE_FACTOR.get(tp, 0.6)
    if engine == "llama_cpp":
        default_bw, per_layer, gemm_share = LLAMA_CPP_CLASSES[llama_cpp_class(gpu)]
        return SpeedFactors(bandwidth or default_bw, compute or gemm_share, per_layer)
    return SpeedFactors(bandwidth or VLLM_BANDWIDTH_EFFICIENCY, compute or gemm, VLLM_STEP_SECONDS_PER_LAYER,
                        HOST_SECONDS_PER_SEQUENCE.get(engine, 0.0))


def llama_cpp_class(gpu: GpuSpec) -> str:
    if gpu.vendor == "Apple":
        return "apple"
    if "HBM" in gpu.memory_type:
        return "hbm"
    return "gddr_consumer" if "consumer" in gpu.form_factor else "gddr_professional"


@dataclass(frozen=True)
class ReplicaTraffic:
    """What one rank of a replica reads and computes, GPU-independent: bytes and FLOPs per token and per context token."""
    dense_bytes: float          # weights every step reads: all but the routed experts and the input embedding
    expert_bytes: float         # every routed expert of every layer, on this rank
    experts: int
    experts_per_token: int
    kv_full_bytes: float        # per context token: the full-attention layers
    kv_windowed_bytes: float    # per context token: the sliding or chunked layers, up to their window
    window: int | None
    flops_per_token: float      # 2 x active parameters (input embedding excluded; a tied head counted), on this rank
    attention_flops_per_context: float  # per token per context token, on this rank
    layers: int
    all_reduce_bytes_per_token: float = 0.0   # sent through the tensor-parallel all-reduces, per token of a step
    sampling_bytes_per_sequence: float = 0.0  # the sampler's passes over one sequence's float32 logits

    def weights_read(self, tokens: float) -> float:
        if not self.experts or tokens <= 0:
            return self.dense_bytes + (self.expert_bytes if tokens > 0 else 0)
        touched: float = 1 - (1 - self.experts_per_token / self.experts) ** tokens
        return self.dense_bytes + self.expert_bytes * touched

    def kv_read(self, context: float) -> float:
        windowed = min(context, self.window) if self.window else context
        return self.kv_full_bytes * context + self.kv_windowed_bytes * windowed


def replica_traffic(plan: Plan, tp: int) -> ReplicaTraffic:
    """Per rank of a tensor-parallel replica (llama.cpp's layer split: tp=1, every layer read in turn)."""
    key = ("traffic", tp)
    cached = plan.memo.get(key)
    if isinstance(cached, ReplicaTraffic):
        return cached
    arch, counts = plan.arch, plan.counts
    per_param = plan.weights_total_bytes / counts.total
    expert_share = counts.routed_experts / counts.total
    expert_bytes = plan.weights_total_bytes * expert_share
    if plan.weight_format.quantized and arch.release_scope == "experts" and plan.weights_dtype == arch.release_format:
        expert_bytes = counts.routed_experts * plan.weight_format.bytes_per_param  # only the experts are quantized
    embedding_bytes = embedding_read_once(plan, per_param)
    dense_bytes = max(0.0, plan.weights_total_bytes - expert_bytes - embedding_bytes - counts.vision * per_param)
    kinds = attention_kinds(arch, plan.kv_bytes, tp, 1)
    full = sum(k.layers * k.bytes_per_token for k in kinds if k.kind == "full")
    windowed = [k for k in kinds if k.kind != "full"]
    q_width = arch.num_attention_heads * arch.attention_head_dim
    # the input embedding is a lookup, but a tied one is also the output head, a GEMM every token runs through
    active = counts.active - (0 if arch.tie_word_embeddings else counts.embedding) - counts.vision
    traffic = ReplicaTraffic(
        dense_bytes=dense_bytes / tp, expert_bytes=expert_bytes / tp, experts=arch.num_experts or 0,
        experts_per_token=arch.num_experts_per_tok or 0, kv_full_bytes=full,
        kv_windowed_bytes=sum(k.layers * k.bytes_per_token for k in windowed),
        window=windowed[0].window if windowed else None, flops_per_token=2 * active / tp,
        attention_flops_per_context=4 * arch.num_hidden_layers * q_width / tp, layers=arch.num_hidden_layers,
        all_reduce_bytes_per_token=all_reduce_bytes_per_token(arch.hidden_size, arch.num_hidden_layers, tp),
        sampling_bytes_per_sequence=SAMPLING_PASSES * LOGIT_BYTES * arch.vocab_size / tp)
    plan.memo[key] = traffic
    return traffic


def embedding_read_once(plan: Plan, per_param: float) -> float:
    """The input embedding's bytes, which a step does not read whole (one row per token), at the size they are stored:
    a GGUF file quantizes it with the rest (Q4_K_M: Q4_K), other formats keep it 16-bit. A tied embedding is also the
    output head, read whole every token: none of it is left out then."""
    arch, counts = plan.arch, plan.counts
    if arch.tie_word_embeddings:
        return 0.0
    if plan.weight_format.gguf:
        return float(gguf_layout(arch, plan.weights_dtype, mxfp4_experts=arch.release_format == "mxfp4").token_embd)
    return counts.embedding * (2 if plan.weight_format.quantized else per_param)


class Roofline(NamedTuple):
    """One GPU's rates for a replica's traffic."""
    traffic: ReplicaTraffic
    bytes_per_s: float      # bandwidth x efficiency
    flops_per_s: float      # dense peak of the compute format x efficiency
    fixed_s: float          # per step
    all_reduce_s_per_token: float = 0.0     # the tensor-parallel all-reduces, per token a step carries
    sampling_s_per_sequence: float = 0.0    # sampling and the engine's host work, per sequence decoding in the step

    def per_step_growth_s(self, tokens: float, sequences: float) -> float:
        """The parts of a step that grow with its batch beside the GEMMs and attention: all-reduce volume and sampling."""
        return tokens * self.all_reduce_s_per_token + sequences * self.sampling_s_per_sequence

    def decode_step_s(self, batch: float, context: float, prefill_tokens: float = 0.0, prefill_context: float = 0.0) -> float:
        """One step: `batch` sequences decode one token each at `context` tokens, while `prefill_tokens` of new prompts
        (at an average causal context of `prefill_context`) ride along."""
        t = self.traffic
        tokens = batch + prefill_tokens
        gemm = max(t.weights_read(tokens) / self.bytes_per_s, tokens * t.flops_per_token / self.flops_per_s)
        attention_flops = t.attention_flops_per_context * (batch * context + prefill_tokens * prefill_context)
        attention = max(batch * t.kv_read(context) / self.bytes_per_s, attention_flops / self.flops_per_s)
        return gemm + attention + self.fixed_s + self.per_step_growth_s(tokens, batch or 1)

    def compute_bound_batch(self) -> int | None:
        """The batch from which the linear layers of a decode step take longer on compute than on reading weights
        (a mixture of experts: the power of two from which they do, None beyond 65,536 sequences)."""
        t = self.traffic
        if not t.experts:  # the weights read are the same whatever the batch
            return math.ceil(t.weights_read(1) / self.bytes_per_s / (t.flops_per_token / self.flops_per_s))
        for batch in (1 << n for n in range(17)):
            if batch * t.flops_per_token / self.flops_per_s >= t.weights_read(batch) / self.bytes_per_s:
                return batch
        return None


def roofline(plan: Plan, gpu: GpuSpec, tp: int, factors: SpeedFactors) -> Roofline | None:
    """None where the catalog has no bandwidth or compute figure for this GPU."""
    half = (gpu.fp8_tflops_dense or 0) / 2 or None  # a datasheet listing only FP8: 16-bit runs at half of it
    tflops = gpu.dense_tflops(plan.weight_format.compute_dtype) or gpu.bf16_tflops_dense or gpu.fp16_tflops_dense or half
    if not gpu.memory_bandwidth_gbps or not tflops:
        return None
    traffic = replica_traffic(plan, tp)
    bytes_per_s = gpu.memory_bandwidth_gbps * 1e9 * factors.bandwidth_efficiency
    return Roofline(traffic, bytes_per_s, tflops * 1e12 * factors.compute_efficiency,
                    factors.step_seconds_per_layer * plan.arch.num_hidden_layers,
                    traffic.all_reduce_bytes_per_token / tensor_parallel_link(gpu, tp).all_reduce_bytes_per_s,
                    traffic.sampling_bytes_per_sequence / bytes_per_s + factors.host_seconds_per_sequence)


class LoadPoint(NamedTuple):  # a NamedTuple: the planner builds thousands per call
    """A replica running `batch` requests of prompt_tokens in and output_tokens out, continuously."""
    batch: int
    step_s: float                # one decode step, with the prefill of arriving requests mixed in
    ttft_s: float                # a new request's prompt, chunked into steps alongside the running batch

    @property
    def tokens_per_s_per_user(self) -> float:
        return 1 / self.step_s

    @property
    def tokens_per_s(self) -> float:
        return self.batch / self.step_s

    def requests_per_s(self, output_tokens: int) -> float:
        return self.batch / (self.ttft_s + output_tokens * self.step_s)


class ReplicaLoad:
    """One replica shape under continuous traffic of prompt_tokens in and output_tokens out, by batch. Steady state:
    each step finishes batch / output requests, so as many prompts' tokens join it. A new request's prompt runs in
    ceil(prompt / room) steps beside the batch's decode tokens, room being the chunk budget they leave (no queueing:
    the replica has a free slot).

    The planner asks for thousands of batches per call, so the per-batch slopes of Roofline.decode_step_s are worked
    out once: the linear layers' FLOPs and the attention's bytes and FLOPs grow linearly with the batch."""

    def __init__(self, line: Roofline, prompt: int, output: int, chunk: int):
        t = line.traffic
        self.line, self.prompt, self.output, self.chunk = line, prompt, output, chunk
        context = prompt + output / 2
        self.tokens_per_sequence = 1 + prompt / output        # its decode token and its share of arriving prompts
        self.gemm_per_token = t.flops_per_token / line.flops_per_s
        self.growth_per_sequence = self.tokens_per_sequence * line.all_reduce_s_per_token + line.sampling_s_per_sequence
        self.kv_per_sequence = t.kv_read(context) / line.bytes_per_s
        self.attention_per_sequence = max(self.kv_per_sequence, t.attention_flops_per_context * (
            context + prompt / output * prompt / 2) / line.flops_per_s)
        self.dense_weights = None if t.experts else t.weights_read(1) / line.bytes_per_s
        self.prefill_attention = t.attention_flops_per_context * prompt * prompt / 2 / line.flops_per_s
        self.decode_attention = t.attention_flops_per_context * context / line.flops_per_s

    def weights_s(self, tokens: float) -> float:
        return self.dense_weights if self.dense_weights is not None else \
            self.line.traffic.weights_read(tokens) / self.line.bytes_per_s

    def step_s(self, batch: int) -> float:
        tokens = batch * self.tokens_per_sequence
        return (max(self.weights_s(tokens), tokens * self.gemm_per_token) + batch * (self.attention_per_sequence + self.growth_per_sequence)
                + self.line.fixed_s)

    def ttft_s(self, batch: int) -> float:
        room = max(self.chunk - batch, min(self.chunk, 256))
        chunks = math.ceil(self.prompt / room)
        tokens = batch + self.prompt / chunks
        gemm = max(self.weights_s(tokens), tokens * self.gemm_per_token)
        attention = max(batch * self.kv_per_sequence, batch * self.decode_attention + self.prefill_attention / chunks)
        return chunks * (gemm + attention + self.line.fixed_s + self.line.per_step_growth_s(tokens, batch or 1))

    def largest_within_step(self, step_s: float, cap: int) -> int | None:
        """The largest batch up to cap whose step takes at most step_s, in closed form for a dense model (the step is
        fixed + max(weights, batch x GEMM) + batch x attention); None for a mixture of experts (search instead)."""
        if self.dense_weights is None:
            return None
        left = step_s - self.line.fixed_s
        per_sequence = self.attention_per_sequence + self.growth_per_sequence
        by_weights = (left - self.dense_weights) / per_sequence
        by_compute = left / (self.tokens_per_sequence * self.gemm_per_token + per_sequence)
        most = min(by_weights, by_compute) * (1 + 1e-12)
        return max(0, min(cap, math.floor(most))) if math.isfinite(most) else (cap if most > 0 else 0)

    def point(self, batch: int) -> LoadPoint:
        return LoadPoint(batch, self.step_s(batch), self.ttft_s(batch))

    def requests_per_s(self, batch: int) -> float:
        return batch / (self.ttft_s(batch) + self.output * self.step_s(batch))


def load_point(line: Roofline, batch: int, prompt: int, output: int, chunk: int) -> LoadPoint:
    return ReplicaLoad(line, prompt, output, chunk).point(batch)
