"""gpusizer.tools: the calculators. Pure Python, pydantic in and out; no MCP, no Textual.

One package per domain, lowest first: `memory/` (estimate_vram, biggest_model), `speed/` (estimate_speed, plan_training), `money/`
(cloud_cost, rent_vs_buy),
`serving/` (plan_serving), `compare/` (compare_gpus), `questions/` (Ask). Shared by all: `validation.py` (inputs and
fix-it errors), `pricing.py` (the price rule over the catalog's offers), `figures.py` (how figures are rounded).
"""
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from gpusizer.catalog import SizingError
from gpusizer.tools.compare import GpuComparison, compare_gpus, compare_gpus_answer
from gpusizer.tools.memory import Alternative, Breakdown, GpuCheck, GpuFit, VramEstimate, VramRequest, estimate_vram
from gpusizer.tools.memory.answer import estimate_vram_answer
from gpusizer.tools.memory.biggest import BiggestModels, biggest_model, biggest_model_answer
from gpusizer.tools.money import CloudCost, RentVsBuy, cloud_cost, cloud_cost_answer, rent_vs_buy, rent_vs_buy_answer
from gpusizer.tools.serving import ServingOption, ServingPlan, plan_serving, plan_serving_answer
from gpusizer.tools.speed.estimate_speed import SpeedEstimate, estimate_speed, estimate_speed_answer
from gpusizer.tools.speed.plan_training import PlanTraining, plan_training, plan_training_answer

# Each tool's result as the answer an assistant reads (verdict first, at most 1,500 bytes): its result model and the
# function that words it. The MCP server sends this as the text content beside the structured result.
ANSWERS: dict[str, tuple[type[BaseModel], Callable[[Any], str]]] = {
    "estimate_vram": (VramEstimate, estimate_vram_answer),
    "compare_gpus": (GpuComparison, compare_gpus_answer),
    "cloud_cost": (CloudCost, cloud_cost_answer),
    "rent_vs_buy": (RentVsBuy, rent_vs_buy_answer),
    "plan_serving": (ServingPlan, plan_serving_answer),
    "plan_training": (PlanTraining, plan_training_answer),
    "biggest_model": (BiggestModels, biggest_model_answer),
    "estimate_speed": (SpeedEstimate, estimate_speed_answer),
}

__all__ = ["ANSWERS", "Alternative", "BiggestModels", "Breakdown", "CloudCost", "GpuCheck", "GpuComparison",
           "GpuFit", "PlanTraining", "RentVsBuy", "ServingOption", "ServingPlan", "SizingError", "SpeedEstimate",
           "VramEstimate", "VramRequest", "biggest_model", "biggest_model_answer", "cloud_cost", "cloud_cost_answer",
           "compare_gpus", "compare_gpus_answer", "estimate_speed", "estimate_speed_answer", "estimate_vram",
           "estimate_vram_answer", "plan_serving", "plan_serving_answer", "plan_training", "plan_training_answer",
           "rent_vs_buy", "rent_vs_buy_answer"]
