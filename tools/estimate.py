"""estimate_vram: peak GPU memory of an inference prefill or a training step, and where it fits."""
from __future__ import annotations


from gpusizer.catalog import GIB, Catalog, GpuSpec, load_catalog

from .fitting import check_on_gpu, fits_across_catalog
from .overhead import overhead_assumption
from .validation import parse_request
from .vram_models import Breakdown, VramEstimate, VramRequest
from .vram_plan import LORA_TARGETS, Plan, build_plan, per_gpu



def estimate_vram(catalog: Catalog | None = None, **arguments) -> VramEstimate:
    """Peak memory per GPU for the workload described by the MCP tool's arguments."""
    catalog = catalog or load_catalog()
    request = parse_request(VramRequest, arguments, "estimate_vram")
    plan = build_plan(request, catalog)
    breakdown, phase = per_gpu(plan, request.batch_size, request.seq_len, request.num_gpus, request.tensor_parallel, request.sharding)
    total = sum(breakdown.model_dump().values())
    warnings = warnings_for(plan, breakdown, total)
    check = None
    if request.gpu:
        match = catalog.resolve_gpu(request.gpu)
        if match.note:
            warnings.append(match.note)
        check = check_on_gpu(plan, match.gpu, total)
        warnings.extend(precision_notes(plan, match.gpu))
    return VramEstimate(
        model=plan.arch.model_id, workload=request.workload, method=request.method, total_bytes=total,
        total_gib=round(total / GIB, 3), breakdown=breakdown, peak_phase=phase, params=plan.counts.total,
        trainable_params=plan.trainable if request.workload == "training" else 0, active_params=plan.counts.active,
        gpu_check=check, fits=fits_across_catalog(plan, catalog), assumptions=assumptions_for(plan), warnings=warnings)


def assumptions_for(plan: Plan) -> list[str]:
    r, arch = plan.request, plan.arch
    notes = [f"model: {arch.model_id} ({plan.counts.total / 1e9:.2f}B parameters, {arch.num_hidden_layers} layers, hidden {arch.hidden_size}, "
             f"{arch.num_attention_heads} query / {arch.num_key_value_heads} KV heads)",
             f"weights: {plan.weight_format.how}" + ("; embeddings, LM head and norms kept in 16-bit" if plan.weight_format.quantized else ""),
             "recipe: PyTorch + Hugging Face transformers, SDPA/flash attention (no sequence-squared score matrix)"]
    if r.workload == "inference":
        notes += [f"inference: prefill of {r.batch_size} x {r.seq_len} tokens keeping the KV cache ({plan.kv_bytes:g} bytes per value); "
                  "logits for the last position only, as generation does",
                  f"tensor parallel {r.tensor_parallel}: weights, KV heads and MLP split evenly across GPUs"]
    else:
        notes += [f"training: {r.method}, {r.training_precision} precision, {r.optimizer} (foreach=False step), micro-batch "
                  f"{r.batch_size} x {r.seq_len} tokens, gradient checkpointing {'on (every layer)' if r.gradient_checkpointing else 'off'}",
                  "loss: full-vocabulary logits upcast to fp32; at the start of backward three fp32 vocabulary-wide buffers "
                  + ("and the 16-bit logits, which the loop still holds (logits_kept=true; HF Trainer and torchtune free them)"
                     if r.logits_kept else "(the loop has freed the model output and its 16-bit logits: logits_kept=false)"),
                  "gradients set to None between steps (zero_grad(set_to_none=True)): the peak is at the loss or at the optimizer step"]
        if r.method != "full":
            notes.append(f"LoRA rank {r.lora_rank} on {LORA_TARGETS}: {plan.trainable:,} trainable parameters")
        if r.num_gpus > 1:
            notes.append(f"{r.num_gpus} GPUs, sharding '{r.sharding}', tensor parallel {r.tensor_parallel}")
    notes.append(overhead_assumption(r.workload))
    return notes


def warnings_for(plan: Plan, breakdown: Breakdown, total: int) -> list[str]:
    r, arch = plan.request, plan.arch
    warnings = []
    if plan.generic:
        warnings.append(f"architecture assumed: a Llama-style dense decoder of {r.params_billions:g}B parameters "
                        f"({arch.num_hidden_layers} layers, hidden {arch.hidden_size}, vocabulary {arch.vocab_size}); name a catalog model for exact figures")
    if r.seq_len > arch.max_position_embeddings:
        warnings.append(f"seq_len {r.seq_len:,} exceeds the model's context window of {arch.max_position_embeddings:,} tokens")
    if r.workload == "training" and breakdown.activations > 0.5 * total and not r.gradient_checkpointing:
        warnings.append("activations are over half the peak: gradient_checkpointing=true would cut them to one hidden state per layer")
    if r.workload == "training" and r.num_gpus > 1 and r.sharding == "none" and r.tensor_parallel == 1:
        warnings.append("plain data parallelism replicates everything on every GPU: sharding='zero3' or 'fsdp' spreads the model states")
    if arch.is_moe and r.method != "full":
        warnings.append("LoRA adapters counted on attention only for this mixture-of-experts model (experts are fused tensors in transformers)")
    return warnings


def precision_notes(plan: Plan, gpu: GpuSpec) -> list[str]:
    fmt = plan.weight_format
    if fmt.name == "fp8" and not gpu.native_fp8:
        return [f"FP8 is not native on {gpu.name}: weights are stored in FP8 but compute runs in BF16"]
    if fmt.name in ("bf16",) and not gpu.native_bf16:
        return [f"BF16 is not native on {gpu.name}: expect FP16 or FP32 compute instead"]
    return []

