"""gpusizer.tools: the calculators. Pure Python, pydantic in and out; no MCP, no Textual.

One package per domain, lowest first: `memory/` (estimate_vram), `speed/`, `money/` (cloud_cost, rent_vs_buy),
`serving/` (plan_serving), `compare/` (compare_gpus), `questions/` (Ask). Shared by all: `validation.py` (inputs and
fix-it errors), `pricing.py` (the price rule over the catalog's offers), `figures.py` (how figures are rounded).
"""
from gpusizer.catalog import SizingError
from gpusizer.tools.compare import GpuComparison, compare_gpus
from gpusizer.tools.memory import Breakdown, GpuCheck, GpuFit, VramEstimate, VramRequest, estimate_vram
from gpusizer.tools.money import CloudCost, RentVsBuy, cloud_cost, rent_vs_buy
from gpusizer.tools.serving import ServingOption, ServingPlan, plan_serving

__all__ = ["Breakdown", "CloudCost", "GpuCheck", "GpuComparison", "GpuFit", "RentVsBuy", "ServingOption", "ServingPlan", "SizingError",
           "VramEstimate", "VramRequest", "cloud_cost", "compare_gpus", "estimate_vram", "plan_serving", "rent_vs_buy"]
