"""gpusizer.catalog: GPUs, models and cloud offers, each row with its source and as-of date."""
from .catalog import Catalog, GpuMatch, ModelMatch, NameMatch, clear_cache, load_catalog
from .errors import CatalogError, SizingError
from .gpu import GIB, MIB, GpuSpec
from .model_arch import ModelArch
from .offer import CloudOffer, Provider
from .ownership import OwnershipCost, ReservedRate

__all__ = ["Catalog", "CatalogError", "CloudOffer", "GIB", "GpuMatch", "ModelMatch", "NameMatch", "GpuSpec", "MIB", "ModelArch",
           "OwnershipCost", "Provider", "ReservedRate", "SizingError", "clear_cache", "load_catalog"]
