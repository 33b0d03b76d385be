"""The catalog: GPUs, models, cloud offers and providers, with lookups by loose names."""
from __future__ import annotations

import datetime
import re
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from .errors import CatalogError, SizingError
from .gpu import GpuSpec
from .loading import load_table, user_catalog_dir
from .lookup import VENDOR_WORDS, NameIndex, compact
from .model_arch import ModelArch
from .offer import CloudOffer, Provider
from .ownership import OwnershipCost, ReservedRate

NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
SPANS_REMEMBERED = 200_000


@dataclass(frozen=True)
class GpuMatch:
    gpu: GpuSpec
    note: str | None  # set when a bare family name was resolved to one part
    exact: bool = True  # False when the name was an alias, a family or a memory size: another part may be meant


@dataclass(frozen=True)
class NameMatch:
    kind: Literal["model", "gpu"]
    item_id: str


@dataclass(frozen=True)
class ModelMatch:
    model: ModelArch
    note: str | None  # set when a short name ('llama 70b') was read as one model, or the model came from outside the catalog


class Catalog:
    def __init__(self, gpus: list[GpuSpec], models: list[ModelArch], offers: list[CloudOffer],
                 providers: list[Provider], user_dir: Path | None = None, *, ownership: list[OwnershipCost] | None = None,
                 reserved: list[ReservedRate] | None = None):
        self.gpus, self.models, self.offers, self.providers = gpus, models, offers, providers
        self.ownership = ownership if ownership is not None else _builtin_ownership()
        self.reserved = reserved if reserved is not None else _builtin_reserved()
        self.ownership_by_id = {row.cost_id: row for row in self.ownership}
        self.user_dir = user_dir
        self.gpu_by_id = {g.gpu_id: g for g in gpus}
        self.model_by_id = {m.model_id: m for m in models}
        self.provider_by_id = {p.provider: p for p in providers}
        self.derived: dict[tuple[Hashable, ...], object] = {}  # values the calculators derive from rows that never change after loading
        self._offers_by_gpu: dict[str, list[CloudOffer]] = {}
        for offer in offers:
            self._offers_by_gpu.setdefault(offer.gpu_id, []).append(offer)
        self._check_references()
        self._gpu_names = NameIndex("GPU", ((g.gpu_id, [g.name, *g.aliases]) for g in gpus))
        self._model_names = NameIndex("model", ((m.model_id, [m.model_id.split("/")[-1], *m.aliases]) for m in models))
        self._short_names = {compact(s): m.model_id for m in models for s in m.short_names}
        self._family_default = {compact(g.family): g for g in gpus if g.family_default}
        self._keys: tuple[frozenset[str], int] | None = None  # may_name's, built on first use
        self._spans_read: dict[str, NameMatch | None] = {}

    def _check_references(self) -> None:
        for offer in self.offers:
            if offer.gpu_id not in self.gpu_by_id:
                raise CatalogError(f"offer {offer.offer_id!r} names unknown gpu_id {offer.gpu_id!r}")
            if offer.provider not in self.provider_by_id:
                raise CatalogError(f"offer {offer.offer_id!r} names provider {offer.provider!r} with no row in providers.csv")

    def resolve_gpu(self, name: str) -> GpuMatch:
        """Like find_gpu, and says so when a family name ('H100') was taken to mean one part; a memory size ('24GB',
        'custom:24') is a GPU of that memory and nothing else known."""
        if not isinstance(name, str) or not name.strip():
            raise SizingError("a GPU name is required, e.g. 'h100-sxm' or 'A100-80GB' (see gpusizer://gpus)", arguments=("gpu",))
        check_length("GPU", name)
        sized = gpu_of_memory(name)
        if sized is not None:
            return sized
        gpu_id = self._gpu_names.get(name)
        if gpu_id:
            gpu = self.gpu_by_id[gpu_id]
            exact = compact(name) in (compact(gpu.gpu_id), compact(gpu.name))
            family_guess = gpu.family_default and compact(name) == compact(gpu.family)
            note = None if exact or not family_guess else self._family_note(name, gpu)
            return GpuMatch(gpu, note, exact)
        family = self._family_default.get(compact(name))
        if family:
            return GpuMatch(family, self._family_note(name, family), False)
        raise SizingError(self._gpu_names.unknown_message(name, "the gpusizer://gpus resource lists every GPU"),
                          arguments=("gpu",), allowed="a GPU id, name or alias from gpusizer://gpus, or a memory size ('24GB')")

    def _family_note(self, name: str, gpu: GpuSpec) -> str:
        siblings = [g.gpu_id for g in self.gpus if g.family == gpu.family and g.gpu_id != gpu.gpu_id]
        others = f"; other parts: {', '.join(siblings)}" if siblings else ""
        return f"'{name}' read as {gpu.gpu_id} ({gpu.name}), the most common data-centre part{others}"

    def other_forms(self, gpu: GpuSpec) -> list[GpuSpec]:
        """The same GPU with the same memory in another form (SXM / PCIe / NVL), as a name like 'A100 80GB' may mean."""
        return [g for g in self.gpus if g.family == gpu.family and g.gpu_id != gpu.gpu_id and g.memory_gb == gpu.memory_gb]

    def find_gpu(self, name: str) -> GpuSpec:
        return self.resolve_gpu(name).gpu

    def find_model(self, name: str) -> ModelArch:
        return self.resolve_model(name).model

    def resolve_model(self, name: str) -> ModelMatch:
        """A catalog id or alias; a short family name ('qwen 72b'); a local config.json or model folder; or a
        Hugging Face Hub id (read from the Hub when online)."""
        from . import model_sources

        if not isinstance(name, str) or not name.strip():
            raise SizingError("a model name is required, e.g. 'meta-llama/Llama-3.1-8B' (see gpusizer://models)",
                              arguments=("model",))
        check_length("model", name)
        model_id = self._model_names.get(name)
        if model_id is not None:
            return ModelMatch(self.model_by_id[model_id], None)
        short = self._short_names.get(compact(name))
        if short is not None:
            return ModelMatch(self.model_by_id[short], f"'{name}' read as {short}, the family's current model of that size "
                              "(name the exact model for another)")
        if model_sources.looks_like_path(name):
            model = model_sources.model_from_path(name)
            return ModelMatch(model, f"architecture read from {model.source.removeprefix('local file ')}")
        if model_sources.looks_like_hub_id(name):
            try:
                model = model_sources.model_from_hub(name.strip())
            except SizingError as error:
                close = ", ".join(f"'{s}'" for s in self._model_names.suggestions(name))
                raise SizingError(f"{error}; catalog models with close names: {close}", arguments=("model",)) from None
            return ModelMatch(model, f"architecture read from the Hugging Face Hub ({model.model_id})")
        raise SizingError(self._model_names.unknown_message(
            name, "the gpusizer://models resource lists every model; a Hugging Face id (org/name), a local config.json "
            "or model folder also work; or pass params_billions"), arguments=("model",))

    def name_in_text(self, words: str) -> NameMatch | None:
        """What a span of a sentence names, exactly (no fuzzy guessing): a model by id, alias or family-and-size
        ('llama 70b'), or a GPU by id, name, alias or family ('h100'). A trailing plural 's' is tolerated ('h100s').
        For readers of free text (Ask); names given as arguments go through resolve_model / resolve_gpu."""
        if len(words) > NAME_LIMIT or len(words) < 2 or words.isdigit() and len(words) < 4:
            return None
        if " " in words and ("/" in words or "," in words):  # a Hub id is one token; no name holds a comma
            return None
        singular = words[:-1] if words.endswith("s") else words
        consumer = [f"rtx {w}" for w in (words, singular) if w[0].isdigit()]  # '3090' is the RTX 3090
        for candidate in dict.fromkeys((words, singular, *consumer)):
            model_id = self._model_names.get(candidate) or self._short_names.get(compact(candidate))
            if model_id:
                return NameMatch("model", model_id)
            gpu_id = self._gpu_names.get(candidate)
            family = self._family_default.get(compact(candidate))
            if gpu_id is None and family is not None:
                gpu_id = family.gpu_id
            if gpu_id:
                return NameMatch("gpu", gpu_id)
        return None

    def may_name(self, words: str) -> bool:
        """False only when no name can match `words`: a name's compact form (lower-case letters and digits) is a prefix
        of its span's, so a span none of whose prefixes is a name key names nothing (tests/test_ask_corpus.py checks
        it never refuses what name_in_text reads)."""
        if "/" in words or any(w in VENDOR_WORDS for w in re.split(r"[^a-z0-9.]+", words.lower())):
            return True
        keys, longest = self._name_keys()
        squeezed = "".join(c for c in words.lower() if c in NAME_CHARACTERS)
        candidates = (squeezed, "rtx" + squeezed) if words[:1].isdigit() else (squeezed,)  # '3090' is the RTX 3090
        return any(c[:n] in keys for c in candidates for n in range(1, min(len(c), longest) + 1))

    def name_in_span(self, words: str) -> NameMatch | None:
        """name_in_text for a reader that offers every span of a text (Ask tries each of up to six words, nearly all
        no name): refused first where may_name says no name can match, and remembered."""
        if words not in self._spans_read:
            if len(self._spans_read) >= SPANS_REMEMBERED:  # a long-running server: bounded
                self._spans_read.clear()
            self._spans_read[words] = self.name_in_text(words) if self.may_name(words) else None
        return self._spans_read[words]

    def _name_keys(self) -> tuple[frozenset[str], int]:
        """Every compact key the name lookups use, and the longest."""
        if self._keys is None:
            indexes = (self._model_names._by_key, self._gpu_names._by_key, self._short_names, self._family_default)
            keys = frozenset(k for index in indexes for key in index for k in (key, compact(key)) if k)
            self._keys = keys, max(map(len, keys), default=0)
        return self._keys

    def needs_download(self, name: str) -> bool:
        """Whether resolving this model name reads the Hugging Face Hub (a Hub id outside the catalog, not cached yet):
        faces fetch it off their UI thread and say so while it comes."""
        from . import model_sources

        if not isinstance(name, str) or len(name) > NAME_LIMIT or not model_sources.looks_like_hub_id(name):
            return False
        if self._model_names.get(name) or self._short_names.get(compact(name)) or model_sources.looks_like_path(name):
            return False
        return not model_sources.hub_entry(name.strip()).exists()

    def similar_gpus(self, name: str, limit: int = 3) -> list[str]:
        """GPU ids spelled most like `name` (for 'did you mean')."""
        return self._gpu_names.suggestions(name[:NAME_LIMIT], limit)

    def describe(self) -> str:
        """Which catalog an answer came from, in one line (exports name it): the package version, the newest source
        date of its rows, their counts, and whether the user's own rows or a price update are merged in."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            package = version("gpusizer")
        except PackageNotFoundError:
            package = "0+unknown"
        dates = [str(g.as_of)[-10:] for g in self.gpus] + [str(m.as_of)[-10:] for m in self.models]
        dates += [str(o.as_of)[-10:] for o in self.offers]  # an interval's end
        newest = max(dates) if dates else "no rows"
        own = f"; the user's rows from {self.user_dir}" if self.user_dir and any(self.user_dir.glob("*.csv")) else ""
        return (f"gpusizer {package} catalog: {len(self.gpus)} GPUs, {len(self.models)} models, {len(self.offers)} offers, "
                f"sources up to {newest}{own}")

    def complete_gpu(self, partial: str, limit: int = 20) -> list[str]:
        """GPU ids for a half-typed name (for MCP completions and the TUI's type-ahead)."""
        return self._gpu_names.complete(partial, limit)

    def complete_model(self, partial: str, limit: int = 20) -> list[str]:
        return self._model_names.complete(partial, limit)

    def offers_for(self, gpu_id: str) -> list[CloudOffer]:
        return list(self._offers_by_gpu.get(gpu_id, ()))


MEMORY_SIZE = re.compile(r"^\s*(?:custom\s*[:-]\s*)?(\d{1,4}(?:\.\d{1,2})?)\s*(gb|gib|g)?\s*$", re.IGNORECASE)


def gpu_of_memory(name: str) -> GpuMatch | None:
    """'24GB', '24 GiB', 'custom:24': a GPU known only by its memory, all of it usable (GeForce cards report within
    0.1% of their size; data-centre parts with ECC 1-3% less, so name the part when you can)."""
    match = MEMORY_SIZE.match(name)
    if not match or (not match.group(2) and not name.strip().lower().startswith("custom")):
        return None
    size = float(match.group(1))
    if not 1 <= size <= 4096:
        raise SizingError(f"a GPU memory size must be 1 to 4096 GB (got {size:g})", arguments=("gpu",), allowed="1 to 4096 GB")
    spec = GpuSpec(gpu_id=f"custom-{size:g}gb", name=f"a {size:g} GB GPU", vendor="unknown", family="custom", architecture="unknown",
                   form_factor="unknown", launch_year=2026, memory_gb=size, usable_memory_mib=int(size * 1024),
                   usable_memory_note="assumed: all of it usable", memory_type="unknown", memory_bandwidth_gbps=None,
                   native_bf16=True, native_fp8=False, native_fp4=False, interconnect="unknown",
                   source="the size you gave", as_of=datetime.date.today(), verification="assumed")
    return GpuMatch(spec, f"'{name.strip()}' read as a GPU with {size:g} GB, all usable; speed and price need a named GPU")


NAME_LIMIT = 200  # characters: longer is no name, and fuzzy matching it would cost seconds


def check_length(kind: str, name: str) -> None:
    if len(name) > NAME_LIMIT:
        raise SizingError(f"a {kind} name is at most {NAME_LIMIT} characters (got {len(name):,})",
                          arguments=(kind.lower(),), allowed=f"at most {NAME_LIMIT} characters")


def load_catalog(user_dir: Path | str | None = None, *, include_user: bool = True) -> Catalog:
    """The built-in catalog merged with the user's own rows (cached per folder)."""
    folder = Path(user_dir) if user_dir is not None else (user_catalog_dir() if include_user else None)
    return _load(folder)


@lru_cache(maxsize=8)
def _load(folder: Path | None) -> Catalog:
    return Catalog(
        gpus=load_table("gpus.csv", GpuSpec, "gpu_id", folder),
        models=load_table("models.json", ModelArch, "model_id", folder),
        offers=[o for o in load_table("offers.csv", CloudOffer, "offer_id", folder) if not o.withdrawn],
        providers=load_table("providers.csv", Provider, "provider", folder),
        user_dir=folder,
        ownership=load_table("ownership.csv", OwnershipCost, "cost_id", folder),
        reserved=load_table("reserved.csv", ReservedRate, "reserved_id", folder),
    )


@lru_cache(maxsize=1)
def _builtin_ownership() -> list[OwnershipCost]:
    """The built-in cost lines, for a catalog assembled from rows (tests, tools that build one)."""
    return load_table("ownership.csv", OwnershipCost, "cost_id", None)


@lru_cache(maxsize=1)
def _builtin_reserved() -> list[ReservedRate]:
    return load_table("reserved.csv", ReservedRate, "reserved_id", None)


def clear_cache() -> None:
    _load.cache_clear()
    _builtin_ownership.cache_clear()
    _builtin_reserved.cache_clear()
