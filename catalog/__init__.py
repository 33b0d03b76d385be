"""gpusizer.catalog: GPUs, models and cloud offers, each row with its source and as-of date.

The names below are imported on first use (PEP 562): `from gpusizer.catalog import SizingError` at a server's start
builds none of the catalog's pydantic models, which only loading the catalog needs.
"""
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import CatalogError, SizingError

if TYPE_CHECKING:
    from .catalog import Catalog, GpuMatch, ModelMatch, NameMatch, clear_cache, load_catalog
    from .gpu import GIB, MIB, GpuSpec
    from .model_arch import ModelArch
    from .offer import CloudOffer, Provider
    from .ownership import OwnershipCost, ReservedRate

WHERE = {"Catalog": ".catalog", "GpuMatch": ".catalog", "ModelMatch": ".catalog", "NameMatch": ".catalog",
         "clear_cache": ".catalog", "load_catalog": ".catalog", "GIB": ".gpu", "MIB": ".gpu", "GpuSpec": ".gpu",
         "ModelArch": ".model_arch", "CloudOffer": ".offer", "Provider": ".offer", "OwnershipCost": ".ownership",
         "ReservedRate": ".ownership"}


def __getattr__(name: str) -> Any:
    if name not in WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(WHERE[name], __name__), name)
    globals()[name] = value
    return value


__all__ = ["Catalog", "CatalogError", "CloudOffer", "GIB", "GpuMatch", "ModelMatch", "NameMatch", "GpuSpec", "MIB", "ModelArch",
           "OwnershipCost", "Provider", "ReservedRate", "SizingError", "clear_cache", "load_catalog"]
