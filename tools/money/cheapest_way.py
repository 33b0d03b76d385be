"""The cheapest way to do a job: for training, full fine-tuning, LoRA or QLoRA; for inference, the weights as released,
8-bit or 4-bit. Each way is sized by estimate_vram and priced at the cheapest catalog GPU that holds it (of the GPUs
named, where some are); the cheapest way is the pick, with the quality it costs. Given a token count, the training run
that way is timed and priced (training_time)."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gpusizer.catalog import Catalog
from gpusizer.tools.figures import gib, number, token_count, usd
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.pricing import cheapest_fits
from gpusizer.tools.speed.training_time import training_time

METHODS = {"full fine-tuning": {"method": "full"}, "LoRA": {"method": "lora"}, "QLoRA": {"method": "qlora"}}
FORMATS = {"as released": {}, "8-bit weights": {"weights_dtype": "int8"}, "4-bit weights": {"weights_dtype": "int4"}}
CAVEATS = {"QLoRA": "QLoRA trains 4-bit base weights: slower steps and slightly lower quality than LoRA.",
           "4-bit weights": "4-bit weights cost some quality; check your evals."}


class WayCost(BaseModel):
    way: str
    total_bytes: int
    gpu_id: str | None = None  # the cheapest priced GPU that holds it; None where no priced GPU does
    gpus_needed: int | None = None
    usd_per_hour: float | None = None
    provider: str | None = None


class CheapestWay(BaseModel):
    ways: list[WayCost]
    pick: str | None  # None where no way fits a priced catalog GPU
    training_tokens: float | None = None
    run_gpu_hours: float | None = None  # the run on training_tokens, the picked way
    run_usd: float | None = None


def cheapest_way(job: dict[str, Any], *, catalog: Catalog, among: list[str] | None = None, method: str | None = None,
                 training_tokens: float | None = None, pricing: str = "on_demand") -> CheapestWay:
    """`job`: estimate_vram's arguments. Training compares the methods (only `method` where one is chosen), inference
    the formats; `among`: the GPUs to price on where the question named some."""
    job = {k: v for k, v in job.items() if v is not None}  # what the job leaves unsaid takes estimate_vram's defaults
    training = job.get("workload") == "training"
    ways = METHODS if training else FORMATS
    if training and method in ("full", "lora", "qlora"):
        ways = {k: v for k, v in ways.items() if v["method"] == method}
    rows = []
    for way, change in ways.items():
        result = estimate_vram(**{**job, **change}, catalog=catalog)
        considered = [f for f in result.fits if f.gpu_id in set(among or ())] or result.fits
        best = next((c for c in cheapest_fits(catalog, considered) if c.usd_per_hour), None)
        rows.append(WayCost(way=way, total_bytes=result.total_bytes) if best is None else
                    WayCost(way=way, total_bytes=result.total_bytes, gpu_id=best.gpu_id, gpus_needed=best.gpus_needed,
                            usd_per_hour=best.usd_per_hour, provider=best.provider))
    priced = [r for r in rows if r.usd_per_hour]
    pick = min(priced, key=lambda r: r.usd_per_hour or 0.0) if priced else None
    found = CheapestWay(ways=rows, pick=pick.way if pick else None, training_tokens=training_tokens)
    if training and training_tokens and pick is not None and pick.gpu_id:
        subject = {k: job[k] for k in ("model", "params_billions") if job.get(k) is not None}
        run = training_time(**subject, training_tokens=training_tokens, gpu=pick.gpu_id, gpu_count=pick.gpus_needed or 1,
                            check_fit=False,  # the pick is a GPU count estimate_vram found to hold this way
                            pricing=pricing, method=ways[pick.way]["method"], catalog=catalog)  # type: ignore[arg-type]
        found.run_gpu_hours, found.run_usd = run.gpu_hours, run.usd_total
    return found


def cheapest_way_answer(result: CheapestWay) -> str:
    """'Cheapest: QLoRA. full fine-tuning: ...; LoRA: ...; QLoRA: ....' then the caveat and the run."""
    lines = "; ".join(f"{r.way}: {gib(r.total_bytes)}, " + (f"{r.gpus_needed} × {r.gpu_id} at {usd(r.usd_per_hour)}/h ({r.provider})"
                                                         if r.usd_per_hour else "no priced GPU holds it") for r in result.ways)
    if result.pick is None:
        return f"No way fits a priced catalog GPU: {lines}."
    caveat = f" {CAVEATS[result.pick]}" if result.pick in CAVEATS else ""
    run = (f" The run on {token_count(result.training_tokens)} tokens that way: about {number(result.run_gpu_hours, 1)} GPU-hours"
           + (f", {usd(result.run_usd)}" if result.run_usd is not None else "") + "."
           if result.training_tokens and result.run_gpu_hours is not None else "")
    return f"Cheapest: {result.pick}. {lines}.{caveat}{run}"
