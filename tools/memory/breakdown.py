"""A plan's bytes on each GPU: the inference prefill peak, or a training step's (training/peak.py)."""
from __future__ import annotations

from gpusizer.tools.memory import framework_versions as versions
from gpusizer.tools.memory.activations import Shape, inference_transient_bytes
from gpusizer.tools.memory.kv_cache import kv_cache_bytes, prefill_caps_windows
from gpusizer.tools.memory.overhead import runtime_overhead_bytes
from gpusizer.tools.memory.plan import Plan, weight_bytes
from gpusizer.tools.memory.request import Breakdown
from gpusizer.tools.memory.training.peak import training_breakdown


def per_gpu(plan: Plan, batch: int, seq: int, num_gpus: int, tensor_parallel: int, sharding: str) -> tuple[Breakdown, str]:
    if plan.request.workload == "inference":
        return inference_breakdown(plan, batch, seq, tensor_parallel)
    return training_breakdown(plan, batch, seq, num_gpus, tensor_parallel, sharding)


def inference_breakdown(plan: Plan, batch: int, seq: int, tp: int) -> tuple[Breakdown, str]:
    weights = weight_bytes(plan) / tp
    capped = prefill_caps_windows(plan.arch, bool(versions.setting("hub_hybrid_cache_honoured", transformers_release(plan))))
    # transformers: MLA decompressed, per head; sliding layers hold the whole prefill (a view of it) unless capped
    kv = kv_cache_bytes(plan.arch, batch, seq, plan.kv_bytes, cap_sliding=capped, latent=False) / tp
    activations = inference_transient_bytes(Shape.of(plan.arch, tp), batch, seq, plan.act_bytes)
    live = int(weights) + int(kv) + activations
    return Breakdown(weights=int(weights), kv_cache=int(kv), activations=activations, gradients=0, optimizer_states=0,
                     runtime_overhead=runtime_overhead_bytes(live, "inference")), "prefill (last layer's MLP)"


def transformers_release(plan: Plan) -> dict[str, versions.VersionKey]:
    """The releases an inference request names (framework_version; a bare version is transformers')."""
    return versions.releases(plan.request.framework_version, "pytorch")
