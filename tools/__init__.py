"""gpusizer.tools: the calculators. Pure Python, pydantic in and out; no MCP, no Textual."""
from gpusizer.catalog import SizingError

__all__ = ["SizingError"]
