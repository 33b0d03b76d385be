"""gpusizer.tools: the calculators. Pure Python, pydantic in and out; no MCP, no Textual."""
from gpusizer.catalog import SizingError

from .estimate import estimate_vram
from .vram_models import Breakdown, GpuCheck, GpuFit, VramEstimate, VramRequest

__all__ = ["Breakdown", "GpuCheck", "GpuFit", "SizingError", "VramEstimate", "VramRequest", "estimate_vram"]
