"""estimate_vram under a serving engine: its start-up budget on the GPU named, and where it starts across the catalog."""
from __future__ import annotations

from gpusizer.catalog import GIB, Catalog, GpuSpec, SizingError
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES, engine_runs_on, unread_backend
from gpusizer.tools.memory.engines.kernels import kernel_problem
from gpusizer.tools.memory.engines.memory import TP_DEGREES, EngineResult, engine_memory, starts_with
from gpusizer.tools.memory.fitting import most_gpus
from gpusizer.tools.memory.model.formats import FORMATS, SIXTEEN_BIT
from gpusizer.tools.memory.overhead import CUDA_CONTEXT_BYTES, overhead_assumption
from gpusizer.tools.memory.plan import Plan
from gpusizer.tools.memory.request import GpuCheck, GpuFit, VramEstimate, VramRequest
from gpusizer.tools.pricing import cheapest_job


def check_engine_request(request: VramRequest, plan: Plan) -> None:
    engine = request.engine
    if request.workload != "inference":
        raise SizingError(f"engine='{engine}' serves models: use workload='inference' (training uses recipe)")
    fmt = FORMATS[plan.weights_dtype]
    if engine in ("vllm", "sglang") and fmt.gguf:
        raise SizingError(f"'{plan.weights_dtype}' is a GGUF file type for llama.cpp: use engine='llama_cpp', or a format "
                          f"{ENGINE_NAMES[engine]} loads (bf16, fp8, awq, gptq, mxfp4, nvfp4)")
    if engine == "llama_cpp" and not (fmt.gguf or plan.weights_dtype in (*SIXTEEN_BIT, "mxfp4")):
        raise SizingError(f"llama.cpp runs GGUF files: weights_dtype '{plan.weights_dtype}' has no GGUF form; use a GGUF type "
                          "(q4_k_m, q8_0, ...), bf16 or fp16")
    if engine != "llama_cpp" and request.num_gpus % request.tensor_parallel:
        raise SizingError(f"num_gpus ({request.num_gpus}) must be tensor_parallel x pipeline parallel")
    heads = plan.arch.num_attention_heads
    if engine in ("vllm", "sglang") and heads % request.tensor_parallel:
        raise SizingError(f"tensor_parallel {request.tensor_parallel} must divide the model's {heads} attention heads")


def estimate_with_engine(request: VramRequest, plan: Plan, catalog: Catalog, base_assumptions: list[str],
                         warnings: list[str]) -> VramEstimate:
    check_engine_request(request, plan)
    gpu = None
    if request.single_gpu:
        match = catalog.resolve_gpu(request.single_gpu)
        gpu = match.gpu
        if not engine_runs_on(request.engine, gpu.vendor):
            raise SizingError(f"{unread_backend(request.engine, gpu.vendor)}: leave engine out for the model's own need "
                              f"on {gpu.name}", arguments=("engine", "gpu"))
        if match.note:
            warnings.append(match.note)
    result = engine_memory(plan, gpu, request.num_gpus, request.tensor_parallel)
    total = sum(result.breakdown.model_dump().values())
    serving = result.serving
    if serving.reason:
        warnings.append(f"{ENGINE_NAMES[request.engine]} would not start: {serving.reason}")
    fits = engine_fits(plan, catalog)
    check = gpu_check(gpu, result, total, next((f for f in fits if f.gpu_id == gpu.gpu_id), None)) if gpu else None
    if gpu and check and (problem := kernel_problem(request.engine, plan.weights_dtype, gpu)):
        warnings.insert(0, problem)
        check = check.model_copy(update={"fits": False, "gpus_needed": None, "split": problem})
    return VramEstimate(
        model=plan.arch.model_id, workload="inference", method="full", weights_dtype=plan.weights_dtype,
        kv_cache_dtype=plan.kv_dtype, total_bytes=total, reserved_bytes=max(0, total - serving.non_torch_bytes - CUDA_CONTEXT_BYTES),
        total_gib=round(total / GIB, 3), breakdown=result.breakdown,
        peak_phase="start-up: the engine's memory budget", params=plan.counts.total, trainable_params=0,
        active_params=plan.counts.active, serving=serving, gpu_check=check, fits=fits,
        assumptions=[*base_assumptions, *result.notes, overhead_assumption("inference")], warnings=warnings)


def gpu_check(gpu: GpuSpec, result: EngineResult, total: int, fewest: GpuFit | None) -> GpuCheck:
    """The engine on this GPU; `fewest`: the fewest of it on which the engine starts (engine_fits), None where not even 64."""
    s = result.serving
    notes = [f"{ENGINE_NAMES[s.engine]} takes {s.budget_bytes / GIB:.2f} GiB of the GPU whatever the model: the rest of its "
             "budget goes to the KV cache"] if s.engine in ("vllm", "sglang") else []
    return GpuCheck(gpu_id=gpu.gpu_id, name=gpu.name, fits=s.starts, per_gpu_bytes=total, usable_bytes=gpu.usable_memory_bytes,
                    headroom_bytes=gpu.usable_memory_bytes - total,
                    max_batch_size=int(s.max_concurrency) if s.engine != "llama_cpp" else None,
                    max_seq_len=s.max_model_len_fits, max_seq_len_by_memory=s.max_model_len_fits, notes=notes,
                    gpus_needed=fewest.gpus_needed if fewest else None,
                    split=(fewest.note or "one GPU") if fewest else None)


def engine_fits(plan: Plan, catalog: Catalog) -> list[GpuFit]:
    """Per catalog GPU, the fewest GPUs (tensor parallel in one machine; llama.cpp: layers split) on which the engine starts."""
    r = plan.request
    heads = plan.arch.num_attention_heads
    degrees = [n for n in TP_DEGREES if heads % n == 0] if r.engine != "llama_cpp" else list(TP_DEGREES)
    fits = []
    for gpu in catalog.gpus:
        if not engine_runs_on(r.engine, gpu.vendor) or kernel_problem(r.engine, plan.weights_dtype, gpu):
            continue
        for n in (n for n in degrees if n <= most_gpus(gpu, "inference")):  # one machine at most
            total = starts_with(plan, gpu, n)
            if total is not None:
                price = cheapest_job(catalog, gpu.gpu_id, n, "on_demand", one_machine=True)
                fits.append(GpuFit(gpu_id=gpu.gpu_id, gpus_needed=n, per_gpu_bytes=total, usable_bytes=gpu.usable_memory_bytes,
                                   note=f"{n} GPUs, tensor parallel in one machine" if n > 1 else None,
                                   usd_per_hour=round(price.usd_per_hour, 4) if price else None,
                                   provider=price.offer.provider if price else None,
                                   instance_type=price.offer.instance_type if price else None))
                break
    return sorted(fits, key=lambda f: (f.gpus_needed, f.usable_bytes, f.gpu_id))
