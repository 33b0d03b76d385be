"""compare_gpus: specs, prices and (with a workload) fit and speed bounds for 2-20 GPUs side by side."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from pydantic import BaseModel, ConfigDict, Field

from gpusizer.catalog import Catalog, GpuSpec, SizingError, load_catalog
from gpusizer.tools.alternatives import with_alternatives
from gpusizer.tools.compare.alternatives import compare_alternatives
from gpusizer.tools.memory import Alternative
from gpusizer.tools.memory.engine_settings import ENGINE_NAMES, ServingEngine
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.memory.fitting import MAX_GPUS, gpus_needed
from gpusizer.tools.memory.kv_cache import kv_cache_bytes
from gpusizer.tools.memory.plan import Plan, build_plan, weight_bytes
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.memory.workload import WORKLOAD_FIELDS, WorkloadArguments, workload_of
from gpusizer.tools.pricing import cheapest, machine_price, price_class
from gpusizer.tools.speed.serving_speed import default_factors, roofline
from gpusizer.tools.speed.training_time import flops_per_parameter, run_speed, training_seconds
from gpusizer.tools.validation import Name, declared_by, parse_request

RATIO_COLUMNS = ("memory_gb", "memory_bandwidth_gbps", "bf16_tflops_dense", "cheapest_usd_per_gpu_hour")


class GpuRow(BaseModel):
    gpu_id: str
    name: str
    vendor: str
    memory_gb: float
    memory_bandwidth_gbps: float | None
    bf16_tflops_dense: float | None
    fp8_tflops_dense: float | None = Field(description="null where FP8 is not supported")
    fp4_tflops_dense: float | None
    tdp_watts: float | None
    interconnect: str
    native_fp8: bool
    native_fp4: bool
    cheapest_usd_per_gpu_hour: float | None = Field(description="cheapest on-demand offer; null where the catalog has none")
    cheapest_provider: str | None
    cheapest_offer_class: str | None = Field(default=None, description="datacenter or marketplace: the class of the "
                                             "cheapest on-demand offer (a marketplace host is not a data-centre machine)")
    cheapest_spot_usd_per_gpu_hour: float | None
    cheapest_spot_provider: str | None
    usd_per_gb_hour: float | None
    bandwidth_gbps_per_usd_hour: float | None
    bf16_tflops_per_usd_hour: float | None
    ratio_to_first: dict[str, float | None]
    fits: bool | None = None
    gpus_needed: int | None = None
    decode_tokens_per_s: float | None = Field(default=None, description="per sequence, upper bound from memory bandwidth")
    decode_tokens_per_s_expected: float | None = Field(default=None, description="per sequence at batch_size (estimate_speed)")
    prefill_seconds: float | None = Field(default=None, description="batch_size prompts of seq_len (estimate_speed)")
    usd_per_million_tokens: float | None = Field(default=None, description="decode at batch_size on the cheapest on-demand offer")
    replica_usd_per_hour: float | None = Field(default=None, description="the GPUs it needs: a tensor-parallel replica in one "
                                               "machine (its share when a machine hosts several), training across machines")
    replica_offer: str | None = None
    training_hours: float | None = Field(default=None, description="training_tokens on gpus_needed GPUs (training_time)")
    training_usd: float | None = Field(default=None, description="training_hours x replica_usd_per_hour: the cheapest on-demand "
                                        "machine holding all gpus_needed GPUs")


class GpuComparison(BaseModel):
    gpus: list[GpuRow]
    notes: list[str]
    alternatives: list[Alternative] = Field(default=[], description="where it does not fit one GPU: the first change that does")


class CompareRequest(BaseModel):
    model_config = ConfigDict(extra="allow")
    gpus: list[Name] = Field(min_length=2, max_length=20, description="2-20 GPU names; ratios are to the first")
    mfu: float | None = Field(default=None, ge=0.01, le=1, description="training; default: published runs' MFU")
    engine: ServingEngine | None = Field(default=None, description="default: llama_cpp for GGUF, else vllm")
    training_tokens: float | None = Field(default=None, gt=0, le=1e15, description="tokens to train on: adds run hours and cost")


@declared_by(CompareRequest, "compare_gpus", extra=WORKLOAD_FIELDS)
def compare_gpus(gpus: list[str], *, mfu: float | None = None, training_tokens: float | None = None,
                 engine: ServingEngine | None = None, catalog: Catalog | None = None,
                 **workload: Unpack[WorkloadArguments]) -> GpuComparison:
    """Specs and prices of 2-20 GPUs side by side, with ratios to the first; with a workload (estimate_vram's model,
    workload, method, weights_dtype, batch_size, seq_len, ...) also fits, GPUs needed, decode and prefill bounds,
    $ per million tokens, and with training_tokens the run's hours and cost. Raises SizingError on bad input."""
    catalog = catalog or load_catalog()
    request = parse_request(CompareRequest, {"gpus": gpus, "mfu": mfu, "training_tokens": training_tokens, "engine": engine,
                                             **workload}, "compare_gpus")
    riders = workload_of(request, "compare_gpus", list(CompareRequest.model_fields))
    notes: list[str] = []
    fit_engine: str | None = None
    matches = [catalog.resolve_gpu(name) for name in request.gpus]
    notes += [m.note for m in matches if m.note]
    rows = [spec_row(m.gpu, catalog) for m in matches]
    if riders:
        estimate_vram(catalog=catalog, **riders)  # validates the workload and raises its fix-it message
        plan = build_plan(VramRequest(**riders), catalog)
        speed_engine = request.engine or ("llama_cpp" if plan.weight_format.gguf else "vllm")
        fit_engine = request.engine or ("llama_cpp" if plan.weight_format.gguf else None)
        for row, match in zip(rows, matches, strict=True):
            needed = needed_on(match.gpu, plan, riders, fit_engine, catalog)
            add_workload(row, match.gpu, plan, request, speed_engine, notes, catalog, needed)
            add_training_run(row, match.gpu, plan, request)
        notes.append("decode bound: aggregate memory bandwidth / bytes read per step (active weights + each sequence's KV cache)")
        if plan.request.workload == "inference":
            notes.append(f"expected decode and prefill: estimate_speed's model under {ENGINE_NAMES[speed_engine]}"
                         + ("" if request.engine else " (the default for this format; pass engine='llama_cpp' for llama.cpp "
                            "or Ollama, 'vllm' or 'sglang' for a server)"))
        notes.append("replica price: the cheapest on-demand instance that holds all the GPUs a tensor-parallel replica needs "
                     "(a bigger instance hosts several replicas and each pays its share); training may combine machines")
    add_ratios(rows)
    if request.training_tokens:
        mfu_words = f"MFU {request.mfu}" if request.mfu else "the MFU published runs reached on each GPU's generation (training_time)"
        notes.append(f"training run: {flops_per_parameter(riders.get('method', 'full'), bool(riders.get('gradient_checkpointing')))}"
                     f" x active params x {request.training_tokens:.3g} tokens at {mfu_words} on gpus_needed GPUs "
                     "(the fewest that fit); more GPUs shorten it at about the same cost")
    missing = [r.gpu_id for r in rows if r.cheapest_usd_per_gpu_hour is None]
    if missing:
        notes.append(f"no on-demand price in the catalog for {', '.join(missing)}: its price figures are left out")
    no_fp8 = [r.gpu_id for r in rows if r.fp8_tflops_dense is None]
    if no_fp8:
        notes.append(f"no FP8 tensor cores on {', '.join(no_fp8)}")
    result = GpuComparison(gpus=rows, notes=notes)
    inference = riders.get("workload", "inference") == "inference"
    engine_riders = {**riders, "engine": fit_engine} if riders and fit_engine and inference else riders
    return with_alternatives(result, lambda: compare_alternatives(engine_riders, [(r.gpu_id, r.fits) for r in rows], catalog))


def spec_row(gpu: GpuSpec, catalog: Catalog) -> GpuRow:
    on_demand, spot = cheapest(catalog, gpu.gpu_id, "on_demand"), cheapest(catalog, gpu.gpu_id, "spot")
    price = on_demand.usd_per_gpu_hour if on_demand else None

    def per_dollar(value: float | None) -> float | None:
        return round(value / price, 3) if price and value else None

    return GpuRow(gpu_id=gpu.gpu_id, name=gpu.name, vendor=gpu.vendor, memory_gb=gpu.memory_gb,
                  memory_bandwidth_gbps=gpu.memory_bandwidth_gbps, bf16_tflops_dense=gpu.bf16_tflops_dense,
                  fp8_tflops_dense=gpu.fp8_tflops_dense, fp4_tflops_dense=gpu.fp4_tflops_dense, tdp_watts=gpu.tdp_watts,
                  interconnect=gpu.interconnect, native_fp8=gpu.native_fp8, native_fp4=gpu.native_fp4,
                  cheapest_usd_per_gpu_hour=price, cheapest_provider=on_demand.offer.provider if on_demand else None,
                  cheapest_offer_class=price_class(catalog, on_demand.offer, "on_demand") if on_demand else None,
                  cheapest_spot_usd_per_gpu_hour=spot.usd_per_gpu_hour if spot else None,
                  cheapest_spot_provider=spot.offer.provider if spot else None,
                  usd_per_gb_hour=round(price / gpu.memory_gb, 4) if price else None,
                  bandwidth_gbps_per_usd_hour=per_dollar(gpu.memory_bandwidth_gbps),
                  bf16_tflops_per_usd_hour=per_dollar(gpu.bf16_tflops_dense), ratio_to_first={})


def needed_on(gpu: GpuSpec, plan: Plan, riders: Mapping[str, Any], engine: str | None, catalog: Catalog) -> int | None:
    """The GPUs that hold an inference workload under the engine that runs it, where one is named or the format implies
    one (a GGUF file runs in llama.cpp, which holds no generate() activations: estimate_vram's figure for that engine);
    else, and for training, the plan's own estimate."""
    if engine and plan.request.workload == "inference":
        try:
            check = estimate_vram(**{**riders, "engine": engine, "gpu": gpu.gpu_id}, catalog=catalog).gpu_check
        except SizingError:  # a format the engine does not load: the plan's estimate, as before
            check = None
        if check is not None:
            return check.gpus_needed
    return gpus_needed(plan, gpu.usable_memory_bytes)


def add_workload(row: GpuRow, gpu: GpuSpec, plan: Plan, request: CompareRequest, engine: str, notes: list[str],
                 catalog: Catalog, needed: int | None) -> None:
    r = plan.request
    row.gpus_needed, row.fits = needed, needed == 1
    if needed is None:
        notes.append(f"{gpu.gpu_id}: does not fit on {MAX_GPUS} GPUs")
        return
    active_weights = weight_bytes(plan) * plan.counts.active / plan.counts.total
    kv_per_sequence = kv_cache_bytes(plan.arch, 1, r.seq_len, plan.kv_bytes)
    bytes_per_step = active_weights + r.batch_size * kv_per_sequence
    if not gpu.memory_bandwidth_gbps:
        return
    row.decode_tokens_per_s = round(needed * gpu.memory_bandwidth_gbps * 1e9 / bytes_per_step, 2)
    if r.workload == "inference":  # the same speed model estimate_speed, plan_serving and Ask use, so the faces agree
        add_expected_speed(row, gpu, plan, engine, needed, notes)
    else:
        tflops = gpu.bf16_tflops_dense or gpu.fp16_tflops_dense
        if tflops:
            share = run_speed(gpu, plan.counts.active / 1e9, needed, request.mfu).hardware_share
            row.prefill_seconds = round(2 * plan.counts.active * r.batch_size * r.seq_len / (needed * tflops * 1e12 * share), 4)
    job = machine_price(catalog, gpu.gpu_id, needed, "on_demand")
    if job:
        row.replica_usd_per_hour, row.replica_offer = round(job.usd_per_hour_shared, 4), job.describe()
        tokens_per_hour = row.decode_tokens_per_s * r.batch_size * 3600
        row.usd_per_million_tokens = round(job.usd_per_hour_shared / tokens_per_hour * 1e6, 4)


def add_expected_speed(row: GpuRow, gpu: GpuSpec, plan: Plan, engine: str, needed: int, notes: list[str]) -> None:
    """Decode per sequence at batch_size and the prefill of batch_size prompts, as estimate_speed works them out; where
    the weights need several GPUs, the split is said, never silently assumed."""
    r = plan.request
    tp = 1 if engine == "llama_cpp" else needed  # llama.cpp's layer split reads every layer in turn
    line = roofline(plan, gpu, tp, default_factors(engine, gpu, tp, plan.weight_format.compute_dtype))
    if line is None:
        return
    row.decode_tokens_per_s_expected = round(1 / line.decode_step_s(r.batch_size, r.seq_len), 2)
    row.prefill_seconds = round(line.decode_step_s(0, 0, r.batch_size * r.seq_len, r.seq_len / 2), 4)
    if needed > 1:
        split = "layers split, read in turn" if engine == "llama_cpp" else f"tensor parallel {needed} over {gpu.interconnect}"
        notes.append(f"{gpu.gpu_id}: the weights need {needed} GPUs; expected speed assumes {needed} x {gpu.gpu_id} ({split})")


def add_training_run(row: GpuRow, gpu: GpuSpec, plan: Plan, request: CompareRequest) -> None:
    """Training time >= 6 x active params x tokens / (GPUs x dense TFLOPS x MFU) (4 under adapters, +2 with gradient
    checkpointing); its cost at the cheapest rate."""
    if not request.training_tokens or plan.request.workload != "training" or not row.gpus_needed:
        return
    tflops = gpu.bf16_tflops_dense or gpu.fp16_tflops_dense  # training_time's peak: the dense 16-bit one
    if not tflops:
        return
    per_parameter = flops_per_parameter(plan.request.method, bool(plan.request.gradient_checkpointing))
    share = run_speed(gpu, plan.counts.active / 1e9, row.gpus_needed, request.mfu).hardware_share
    seconds = training_seconds(plan.counts.active, request.training_tokens, row.gpus_needed, tflops, share, per_parameter)
    row.training_hours = round(seconds / 3600, 3)
    if row.replica_usd_per_hour:
        row.training_usd = round(row.training_hours * row.replica_usd_per_hour, 2)


def add_ratios(rows: list[GpuRow]) -> None:
    first = rows[0]
    for row in rows:
        for column in RATIO_COLUMNS:
            base, value = getattr(first, column), getattr(row, column)
            row.ratio_to_first[column] = round(value / base, 3) if base and value else None
