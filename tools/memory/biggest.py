"""biggest_model: the largest catalog models that fit a GPU (or several of one type) for a workload, per format.

Each model is estimated with the same rules as estimate_vram, largest first, until `limit` fit; a training workload
spreads over the GPUs with ZeRO-3, inference with tensor parallelism (as the fit scan does). With no format named,
inference is answered as released and as the 4-bit GGUF most people run locally (Q4_K_M); training as released.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gpusizer.catalog import Catalog, SizingError, load_catalog
from gpusizer.tools.alternatives import Change, retried, with_alternatives
from gpusizer.tools.figures import gib, number, within_limit
from gpusizer.tools.memory import fitting
from gpusizer.tools.memory.estimate import estimate
from gpusizer.tools.memory.model.formats import FORMATS
from gpusizer.tools.memory.model.parameters import count_parameters
from gpusizer.tools.memory.request import Method, Optimizer, TrainingPrecision, WeightsDtype, Workload
from gpusizer.tools.validation import NAME_LIMIT, declared_by, parse_request

DEFAULT_CONTEXT = 4096   # 'the biggest model I can run': sized for a chat-length context, and said so
MAX_GPU_COUNT = 64
LOCAL_FORMAT: WeightsDtype = "q4_k_m"  # the GGUF Ollama's default tags and most model cards start with


class BiggestModelRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(max_length=NAME_LIMIT, description="GPU name, alias or memory size ('24GB')")
    gpu_count: int = Field(default=1, ge=1, le=MAX_GPU_COUNT, description="GPUs of that type together")
    workload: Workload = Field(default="inference")
    method: Method = Field(default="full", description="training")
    weights_dtypes: list[str] | None = Field(default=None, max_length=8, description="formats to try, as estimate_vram's "
                                             "weights_dtype (default: as released, and q4_k_m for inference)")
    @field_validator("weights_dtypes", mode="after")
    @classmethod
    def _known_formats(cls, values: list[str] | None) -> list[str] | None:
        """Checked against estimate_vram's formats here, so the schema need not list thirty of them again."""
        if values is None:
            return None
        names = [value.strip().lower().replace("-", "_") for value in values]
        unknown = [name for name in names if name not in FORMATS]
        if unknown:
            raise ValueError(f"unknown format {unknown[0][:40]!r}; use estimate_vram's weights_dtype values ({', '.join(FORMATS)})")
        return names

    seq_len: int = Field(default=DEFAULT_CONTEXT, ge=1, le=10_000_000, description="context per sequence")
    batch_size: int = Field(default=1, ge=1, le=4096)
    gradient_checkpointing: bool | None = Field(default=None, description="training: default as the recipe sets it")
    training_precision: TrainingPrecision | None = Field(default=None, description="training: mixed (fp32 master weights and "
                                                         "states, ~16 bytes per parameter with AdamW) or bf16 (default)")
    optimizer: Optimizer = Field(default="adamw", description="training")
    limit: int = Field(default=3, ge=1, le=10, description="models per format")


class FittingModel(BaseModel):
    model: str
    params: int
    per_gpu_bytes: int
    usable_bytes: int


class FormatFits(BaseModel):
    weights_dtype: str = Field(description="the format tried ('as released' where none was named)")
    models: list[FittingModel] = Field(description="largest first")


class BiggestAlternative(Change):
    """A change to the question and the largest model it then fits."""
    model: str
    params: int


class BiggestModels(BaseModel):
    gpu_id: str
    gpu_count: int
    workload: str
    seq_len: int
    formats: list[FormatFits]
    assumptions: list[str]
    alternatives: list[BiggestAlternative] = Field(default=[], description="where a format fits no model: changes that do")


@declared_by(BiggestModelRequest, "biggest_model")
def biggest_model(gpu: str, *, gpu_count: int = 1, workload: Workload = "inference", method: Method = "full",
                  weights_dtypes: list[str] | None = None, seq_len: int = DEFAULT_CONTEXT, batch_size: int = 1,
                  gradient_checkpointing: bool | None = None, training_precision: TrainingPrecision | None = None,
                  optimizer: Optimizer = "adamw", limit: int = 3, catalog: Catalog | None = None) -> BiggestModels:
    """The largest catalog models that fit `gpu_count` x `gpu` for the workload, per format, largest first."""
    request = parse_request(BiggestModelRequest, {k: v for k, v in locals().items() if k != "catalog"}, "biggest_model")
    catalog = catalog or load_catalog()
    match = catalog.resolve_gpu(request.gpu)
    formats: list[str | None] = list(request.weights_dtypes or [])
    if not formats:
        formats = [None, LOCAL_FORMAT] if request.workload == "inference" else [None]
    found = [FormatFits(weights_dtype=dtype or "as released", models=fitting_models(request, match.gpu.gpu_id, dtype, catalog))
             for dtype in formats]
    spread = fitting.split_of(request.workload, request.gpu_count, request.gradient_checkpointing is not False)
    recipe = f" ({request.method}, {request.training_precision or 'bf16'} precision, {request.optimizer})"
    assumptions = [f"{request.workload}" + (recipe if request.workload == "training" else "")
                   + f", batch {request.batch_size} x {request.seq_len:,} tokens"
                   + (" (a chat-length context: give seq_len for another)" if request.seq_len == DEFAULT_CONTEXT else ""),
                   f"{request.gpu_count} x {match.gpu.name}: {spread}",
                   "every model estimated as estimate_vram does (transformers for inference; the default recipe for training)"]
    assumptions += [match.note] if match.note else []
    result = BiggestModels(gpu_id=match.gpu.gpu_id, gpu_count=request.gpu_count, workload=request.workload,
                           seq_len=request.seq_len, formats=found, assumptions=assumptions)
    return with_alternatives(result, lambda: bigger_with(request, result, catalog))


def bigger_with(request: BiggestModelRequest, result: BiggestModels, catalog: Catalog) -> list[BiggestAlternative]:
    """Where a format fits none of the catalog's models: the changes people make (gradient checkpointing and QLoRA for
    training, twice the GPUs), asked again, with the largest model each then fits in that format."""
    empty = next((fits for fits in result.formats if not fits.models), None)
    if empty is None:
        return []
    arguments = {**request.model_dump(), "weights_dtypes": None if empty.weights_dtype == "as released" else [empty.weights_dtype],
                 "limit": 1}
    changes: list[tuple[str, dict[str, Any]]] = []
    checkpointed = fitting.spread_over(request.workload, request.gpu_count, request.gradient_checkpointing).get("gradient_checkpointing")
    if request.workload == "training" and not checkpointed and not request.gradient_checkpointing:
        changes.append(("gradient checkpointing", {"gradient_checkpointing": True}))
    if request.workload == "training" and request.method != "qlora":
        changes.append(("QLoRA (a 4-bit base with adapters)", {"method": "qlora", "weights_dtypes": None}))
    if request.gpu_count * 2 <= MAX_GPU_COUNT:
        changes.append((f"{request.gpu_count * 2} x {result.gpu_id}", {"gpu_count": request.gpu_count * 2}))
    found = []
    for says, change in changes:
        again = retried(biggest_model, {**arguments, "catalog": catalog}, change)
        largest = again.formats[0].models[0] if again and again.formats and again.formats[0].models else None
        if largest is not None:
            found.append(BiggestAlternative(change=says, arguments=change, model=largest.model, params=largest.params,
                                            text=f"{says}: {largest.model} ({largest.params / 1e9:.1f}B) fits"))
    return found


def fitting_models(request: BiggestModelRequest, gpu_id: str, dtype: str | None, catalog: Catalog) -> list[FittingModel]:
    arguments: dict[str, Any] = {"workload": request.workload, "seq_len": request.seq_len, "batch_size": request.batch_size,
                                 "gpu": gpu_id, "weights_dtype": dtype,
                                 **fitting.spread_over(request.workload, request.gpu_count, request.gradient_checkpointing)}
    if request.workload == "training":
        arguments.update(method=request.method, training_precision=request.training_precision, optimizer=request.optimizer)
        arguments.setdefault("gradient_checkpointing", request.gradient_checkpointing)
    found: list[FittingModel] = []
    for arch in sorted(catalog.models, key=lambda m: -count_parameters(m).total):
        try:
            result = estimate({**arguments, "model": arch.model_id}, catalog)
        except SizingError:  # a format this model cannot take, or heads the GPU count does not divide
            continue
        check = result.gpu_check
        if check is not None and check.fits:
            found.append(FittingModel(model=arch.model_id, params=result.params, per_gpu_bytes=check.per_gpu_bytes,
                                      usable_bytes=check.usable_bytes))
            if len(found) == request.limit:
                break
    return found


def biggest_model_answer(result: BiggestModels) -> str:
    lines = [f"Largest catalog models that fit {result.gpu_count} x {result.gpu_id} ({result.workload}, "
             f"{number(result.seq_len)} tokens of context), biggest first:"]
    for fits in result.formats:
        models = ", ".join(f"{m.model} ({m.params / 1e9:.1f}B, {gib(m.per_gpu_bytes)} per GPU)" for m in fits.models)
        lines.append(f"- {fits.weights_dtype}: {models or 'none of the catalog models'}")
    lines[1:1] = [f"Where none fits, with {'; '.join(a.text for a in result.alternatives)}"] if result.alternatives else []
    lines += [f"Assumed: {a}" for a in result.assumptions]
    return within_limit(lines)
