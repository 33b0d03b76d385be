"""gpusizer.tools: the calculators. Pure Python, pydantic in and out; no MCP, no Textual."""
from gpusizer.catalog import SizingError

from .cloud_cost import CloudCost, cloud_cost
from .compare_gpus import GpuComparison, compare_gpus
from .estimate import estimate_vram
from .plan_serving import plan_serving
from .rent_vs_buy import RentVsBuy, rent_vs_buy
from .serving_plan_models import ServingOption, ServingPlan
from .vram_models import Breakdown, GpuCheck, GpuFit, VramEstimate, VramRequest

__all__ = ["Breakdown", "CloudCost", "GpuCheck", "GpuComparison", "GpuFit", "RentVsBuy", "ServingOption", "ServingPlan", "SizingError",
           "VramEstimate", "VramRequest", "cloud_cost", "compare_gpus", "estimate_vram", "plan_serving", "rent_vs_buy"]
