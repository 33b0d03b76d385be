"""gpusizer.tools: the calculators. Pure Python, pydantic in and out; no MCP, no Textual."""
from gpusizer.catalog import SizingError

from .cloud_cost import CloudCost, cloud_cost
from .compare_gpus import GpuComparison, compare_gpus
from .estimate import estimate_vram
from .rent_vs_buy import RentVsBuy, rent_vs_buy
from .vram_models import Breakdown, GpuCheck, GpuFit, VramEstimate, VramRequest

__all__ = ["Breakdown", "CloudCost", "GpuCheck", "GpuComparison", "GpuFit", "RentVsBuy", "SizingError", "VramEstimate",
           "VramRequest", "cloud_cost", "compare_gpus", "estimate_vram", "rent_vs_buy"]
