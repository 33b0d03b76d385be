"""estimate_vram: peak GPU memory of an inference prefill or a training step, and where it fits."""
from __future__ import annotations

from collections.abc import Mapping

from gpusizer.catalog import GIB, Catalog, GpuSpec, load_catalog
from gpusizer.tools.figures import gib
from gpusizer.tools.memory import fitting, ladder
from gpusizer.tools.memory.box import box_check
from gpusizer.tools.memory.breakdown import per_gpu
from gpusizer.tools.memory.engine_settings import Engine
from gpusizer.tools.memory.engines.kernels import kernel_problem
from gpusizer.tools.memory.fitting import check_on_gpu, fits_across_catalog
from gpusizer.tools.memory.kv_cache import kv_cache_bytes
from gpusizer.tools.memory.lora import DESCRIBED
from gpusizer.tools.memory.model.generic_model import SHAPE, assumed_architecture
from gpusizer.tools.memory.overhead import overhead_assumption, reserved_bytes
from gpusizer.tools.memory.plan import Plan, build_plan
from gpusizer.tools.memory.request import (
    Breakdown,
    KvDtype,
    LoraTargets,
    Loss,
    Method,
    Optimizer,
    OptimizerStep,
    Recipe,
    Sharding,
    TrainingPrecision,
    TrainingSetup,
    VramEstimate,
    VramRequest,
    WeightsDtype,
    Workload,
)
from gpusizer.tools.memory.training.peak import reduce_bucket_elements
from gpusizer.tools.validation import declared_by, default_of, parse_request


@declared_by(VramRequest, "estimate_vram")
def estimate_vram(model: str | None = None, *, params_billions: float | None = None, workload: Workload = "inference",
                  method: Method = "full", weights_dtype: WeightsDtype | None = None, kv_cache_dtype: KvDtype | None = None,
                  training_precision: TrainingPrecision | None = None, optimizer: Optimizer = "adamw", recipe: Recipe | None = None,
                  loss: Loss | None = None, logits_kept: bool | None = None, gradient_checkpointing: bool | None = None,
                  activation_offloading: bool | None = None, optimizer_in_backward: bool | None = None,
                  torch_compile: bool | None = None, batch_size: int = 1,
                  seq_len: int = 2048, lora_rank: int = 16, lora_targets: LoraTargets | None = None,
                  lora_dropout: float | None = None, optimizer_step: OptimizerStep | None = None,
                  kbit_upcast: bool | None = None, framework_version: str | None = None, num_gpus: int = 1, sharding: Sharding = "none",
                  tensor_parallel: int = 1, gpu: str | list[str] | None = None, engine: Engine = "hf", engine_version: str | None = None,
                  gpu_memory_utilization: float | None = None, max_model_len: int | None = None,
                  max_num_seqs: int | None = None, max_num_batched_tokens: int | None = None,
                  enforce_eager: bool | None = None, n_gpu_layers: int | None = None, flash_attention: bool | None = None,
                  catalog: Catalog | None = None) -> VramEstimate:
    """Peak GPU memory per GPU to serve or train a model, where it fits, and the assumptions behind the figure.

    model: a Hugging Face id, catalog alias, local config.json / model folder, or any Hub id when online (or give
    params_billions); workload 'inference' (a prefill of batch_size x seq_len tokens) or 'training' (one step with
    method full / lora / qlora under a recipe: pytorch, hf_trainer (default), trl, torchtune, unsloth). Weights default
    to the release's own format. With `gpu`, also the largest batch and longest sequence that fit. The arguments are
    those of the MCP tool (VramRequest holds their limits and descriptions); `catalog` defaults to the built-in one
    plus the user's rows. Raises SizingError with a fix-it message on bad input.
    """
    arguments = {name: value for name, value in locals().items() if name != "catalog"}
    catalog = catalog or load_catalog()
    if isinstance(gpu, list):
        return on_a_box(arguments, gpu, catalog)
    result = estimate(arguments, catalog)
    found = ladder.alternatives(arguments, result, catalog, estimate)
    return result.model_copy(update={"alternatives": found}) if found else result


def on_a_box(arguments: Mapping[str, object], names: list[str], catalog: Catalog) -> VramEstimate:
    """gpu as a list: several of one card are num_gpus of it; different cards are checked as one box (box.py)."""
    parse_request(VramRequest, arguments, "estimate_vram")  # limits and names checked before any work
    if len({name.strip().lower() for name in names}) <= 1:
        checkpointing = arguments.get("gradient_checkpointing")
        spread = fitting.spread_over(str(arguments.get("workload") or "inference"), len(names),
                                     checkpointing if isinstance(checkpointing, bool) else None)
        return estimate_vram(**{**arguments, **spread, "gpu": names[0] if names else None, "catalog": catalog})  # type: ignore[arg-type]
    cards = [catalog.resolve_gpu(name).gpu for name in names]
    engine = str(arguments.get("engine") or "hf")
    sized = {**arguments, "gpu": None, "engine": "hf" if engine in ("vllm", "sglang") else engine}
    result = estimate(sized, catalog)
    checked = box_check(result, cards, engine, arguments.get("gpu_memory_utilization"))  # type: ignore[arg-type]
    note = f"a box of {' + '.join(card.gpu_id for card in cards)}: {checked.split}"
    return result.model_copy(update={"box": checked, "assumptions": [*result.assumptions, note]})


def estimate(arguments: Mapping[str, object], catalog: Catalog | None = None) -> VramEstimate:
    catalog = catalog or load_catalog()
    request = parse_request(VramRequest, arguments, "estimate_vram")
    context_note = []
    if request.engine != "hf" and request.max_model_len is None and request.seq_len != default_of(VramRequest, "seq_len"):
        request = request.model_copy(update={"max_model_len": request.seq_len})  # '16k context' is the engine's context
        context_note = [f"context per request: seq_len {request.seq_len:,} used as max_model_len (vLLM --max-model-len, "
                        "SGLang --context-length, llama.cpp -c)"]
    plan = build_plan(request, catalog)
    if request.engine != "hf":
        from gpusizer.tools.memory.engines.estimate import estimate_with_engine

        return estimate_with_engine(request, plan, catalog, model_assumptions(plan) + context_note, engine_warnings(plan))
    breakdown, phase = per_gpu(plan, request.batch_size, request.seq_len, request.num_gpus, request.tensor_parallel, request.sharding)
    total = sum(breakdown.model_dump().values())
    warnings = warnings_for(plan, breakdown, total)
    check = None
    if request.single_gpu:
        match = catalog.resolve_gpu(request.single_gpu)
        if match.note:
            warnings.append(match.note)
        check = check_on_gpu(plan, match.gpu, total)
        warnings.extend(precision_notes(plan, match.gpu))
        if problem := kernel_problem("hf", plan.weights_dtype, match.gpu):
            warnings.insert(0, problem)
            check = check.model_copy(update={"fits": False, "gpus_needed": None, "split": problem})
    return VramEstimate(
        model=plan.arch.model_id, workload=request.workload, method=request.method, weights_dtype=plan.weights_dtype,
        kv_cache_dtype=plan.kv_dtype, total_bytes=total, reserved_bytes=reserved_bytes(total),
        total_gib=round(total / GIB, 3), breakdown=breakdown,
        peak_phase=phase, params=plan.counts.total,
        trainable_params=plan.trainable if request.workload == "training" else 0, active_params=plan.counts.active,
        training=training_setup(plan), gpu_check=check, fits=fits_across_catalog(plan, catalog),
        assumptions=assumptions_for(plan), warnings=warnings)


def training_setup(plan: Plan) -> TrainingSetup | None:
    s = plan.training
    if s is None:
        return None
    return TrainingSetup.model_validate(s.model_dump(include=set(TrainingSetup.model_fields)))


def model_assumptions(plan: Plan) -> list[str]:
    arch = plan.arch
    return [f"model: {arch.model_id} ({plan.counts.total / 1e9:.2f}B parameters, {arch.num_hidden_layers} layers, hidden "
            f"{arch.hidden_size}, {arch.num_attention_heads} query / {arch.num_key_value_heads} KV heads)"
            + (f"; {SHAPE}" if plan.generic else ""),
            f"weights: {plan.weights_how}"]


def engine_warnings(plan: Plan) -> list[str]:
    r, arch = plan.request, plan.arch
    warnings = list(plan.notes)
    if plan.generic:
        warnings.append(f"architecture assumed for {r.params_billions:g}B parameters: name the model for exact figures")
    context = r.max_model_len or arch.max_position_embeddings
    if context > arch.max_position_embeddings:
        warnings.append(f"max_model_len {context:,} exceeds the model's context window of {arch.max_position_embeddings:,} tokens")
    return warnings


def assumptions_for(plan: Plan) -> list[str]:
    r, arch = plan.request, plan.arch
    notes = [f"model: {arch.model_id} ({plan.counts.total / 1e9:.2f}B parameters, {arch.num_hidden_layers} layers, hidden "
             f"{arch.hidden_size}, {arch.num_attention_heads} query / {arch.num_key_value_heads} KV heads)"
             + (f"; {SHAPE}" if plan.generic else ""),
             f"weights: {plan.weights_how}",
             "attention: SDPA/flash (no sequence-squared score matrix)"]
    if arch.windowed_layers and r.workload == "inference":
        notes.append(f"KV cache: {arch.windowed_layers} of {arch.num_hidden_layers} layers attend to the last "
                     f"{arch.sliding_window:,} tokens ({arch.window_kind} attention), but a transformers prefill holds every "
                     "token's keys and values until the first decode step (DynamicSlidingWindowLayer keeps a view of "
                     "the prefill; Gemma 2/3 before transformers 4.56 used a static cache of the window)")
    if r.workload == "inference":
        notes += [f"inference (Hugging Face generate): prefill of {r.batch_size} x {r.seq_len} tokens keeping the KV cache in "
                  f"{plan.kv_dtype} ({plan.kv_bytes:g} bytes per value); logits for the last position only",
                  f"tensor parallel {r.tensor_parallel}: weights, KV heads and MLP split evenly across GPUs"]
    else:
        notes += training_assumptions(plan)
    notes.append(overhead_assumption(r.workload))
    return notes


def training_assumptions(plan: Plan) -> list[str]:
    r, s = plan.request, plan.training
    assert s is not None
    loss = {"standard": "standard: full-vocabulary logits upcast to fp32 (12 bytes per logit at the start of backward)",
            "chunked": "chunked: 8 chunks upcast and freed one at a time (5 bytes per logit)",
            "fused": f"fused linear cross-entropy ({s.fused.name}): logits never held whole"}[s.loss]
    notes = [*s.lines,
             f"training: {r.method}, {s.training_precision} precision, {r.optimizer} ({s.optimizer_step} step), micro-batch "
             f"{r.batch_size} x {r.seq_len} tokens, gradient checkpointing {'on (every layer)' if s.gradient_checkpointing else 'off'}"
             + (", checkpointed activations offloaded to CPU memory" if s.activation_offloading else ""),
             f"loss {loss}; " + ("the loop holds the 16-bit logits through backward (logits_kept=true)" if s.logits_kept
                                 else "the model output is freed before backward (logits_kept=false)"),
             "gradients set to None between steps: the peak is at the loss, in backward or at the optimizer step"]
    if s.loss == "fused" and s.fused.free_fraction:
        notes.append(f"{s.fused.name} sizes its logits chunks from free GPU memory ({s.fused.free_fraction:.0%} of it, at most "
                     f"{s.fused.tile_cap_bytes / 2**30:g} GiB): counted in a named GPU's peak, never needed to fit")
    if s.torch_compile:
        notes.append("torch.compile: the loss saves the 16-bit logits instead of an fp32 log-softmax; fusion inside the "
                     "layers is not counted")
    if s.optimizer_in_backward:
        notes.append("optimizer in backward: each parameter is stepped and its gradient freed as soon as it is computed")
    if r.optimizer.startswith("paged_"):
        notes.append("paged optimizer states live in CUDA unified memory and page out to CPU memory: not counted on the GPU")
    if s.kbit_upcast:
        notes.append("embeddings, norms and LM head in fp32 next to the NF4 base ("
                     + ("PEFT prepare_model_for_kbit_training upcasts them" if s.recipe == "hf_trainer" else
                        "the model id is loaded in fp32") + "): the residual stream, the checkpointed hidden states and "
                     "the 4-bit projections' outputs are fp32 (bitsandbytes Linear4bit returns its input's dtype); "
                     "kbit_upcast=false if you skip it")
    if r.method != "full":
        notes.append(f"LoRA rank {r.lora_rank} on the {DESCRIBED[s.lora_targets]}"
                     + (f", lora_dropout {s.lora_dropout:g} (each adapter keeps its dropout output and mask)"
                        if s.lora_dropout else "") + f": {plan.trainable:,} trainable parameters")
    if r.num_gpus > 1:
        notes.append(f"{r.num_gpus} GPUs, sharding '{r.sharding}', tensor parallel {r.tensor_parallel}")
    if r.sharding == "zero3" and r.num_gpus // r.tensor_parallel > 1:
        notes.append("DeepSpeed ZeRO-3 holds, beside the paper's model states, from start-up: grad_partitions_flat_buffer "
                     f"(16-bit gradient shard, 2 bytes per parameter / {r.num_gpus // r.tensor_parallel}) and the reduce "
                     f"bucket (reduce_bucket_size 'auto' = hidden^2 = {reduce_bucket_elements(plan):,} elements); and "
                     "gathers two layers' parameters at a time (prefetch)")
    return notes


def warnings_for(plan: Plan, breakdown: Breakdown, total: int) -> list[str]:
    r, arch = plan.request, plan.arch
    warnings = list(plan.notes)
    if plan.generic:
        warnings.append(assumed_architecture(r.params_billions or 0, arch))
    if r.seq_len > arch.max_position_embeddings:
        warnings.append(f"seq_len {r.seq_len:,} exceeds the model's context window of {arch.max_position_embeddings:,} tokens")
    settings = plan.training
    if settings and breakdown.activations > 0.5 * total and not settings.gradient_checkpointing:
        warnings.append("activations are over half the peak: gradient_checkpointing=true would cut them to one hidden state per layer")
    if r.workload == "inference" and r.num_gpus > 1 and r.tensor_parallel == 1:
        warnings.append(f"num_gpus {r.num_gpus} with tensor_parallel 1 keeps a whole copy of the model on every GPU: "
                        f"tensor_parallel={r.num_gpus} splits it across them")
    if r.workload == "training" and r.num_gpus > 1 and r.sharding == "none" and r.tensor_parallel == 1:
        warnings.append("plain data parallelism replicates everything on every GPU: sharding='zero3' or 'fsdp' spreads the model states")
    if arch.is_moe and r.method != "full":
        warnings.append("LoRA adapters counted on attention only for this mixture-of-experts model "
                        "(experts are fused tensors in transformers)")
    warnings += latent_cache_warning(plan, breakdown)
    if plan.weight_format.gguf and r.workload == "inference":
        warnings.append(f"'{plan.weights_dtype}' is a GGUF file type: llama.cpp and Ollama run it (transformers would dequantize it)")
    return warnings


def latent_cache_warning(plan: Plan, breakdown: Breakdown) -> list[str]:
    """Multi-head latent attention (DeepSeek V2/V3, Kimi K2): transformers caches the decompressed per-head K and V,
    the serving engines the compressed latent. Where the two differ by more than 2x, both figures and the switch."""
    r, arch = plan.request, plan.arch
    if r.workload != "inference" or arch.latent_attention is None or r.engine != "hf":
        return []
    latent = kv_cache_bytes(arch, r.batch_size, r.seq_len, plan.kv_bytes, latent=True) / r.tensor_parallel
    if breakdown.kv_cache <= 2 * latent:
        return []
    return [f"KV cache {gib(breakdown.kv_cache)} per GPU as transformers keeps it (decompressed, per head); vLLM and SGLang, "
            f"how this model is usually served, cache the compressed latent: {gib(latent)} per GPU (engine='vllm' with a gpu)"]


def precision_notes(plan: Plan, gpu: GpuSpec) -> list[str]:
    fmt = plan.weight_format
    if fmt.name == "fp8" and not gpu.native_fp8:
        return [f"FP8 is not native on {gpu.name}: weights are stored in FP8 but compute runs in BF16"]
    if fmt.name in ("mxfp4", "nvfp4") and not gpu.native_fp4:
        return [f"FP4 is not native on {gpu.name}: {fmt.name.upper()} weights are unpacked per matmul (compute in BF16)"]
    if fmt.name in ("bf16",) and not gpu.native_bf16:
        return [f"BF16 is not native on {gpu.name}: expect FP16 or FP32 compute instead"]
    return []
