"""What a release's safetensors files hold, read from their headers only (no weights are loaded).

A safetensors file starts with an 8-byte little-endian length and a JSON header naming every tensor's dtype, shape
and byte range; a sharded release adds model.safetensors.index.json (tensor -> file, and metadata.total_size).
"""
from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import SizingError

MAX_HEADER_BYTES = 100 * 2**20  # DeepSeek-V3's largest shard header is ~1 MB; anything near this is not a header
LAYER_INDEX = re.compile(r"(?:^|\.)layers\.(\d+)\.")


@dataclass(frozen=True)
class CheckpointSummary:
    loaded_bytes: int      # tensors an engine loads
    total_bytes: int       # every tensor in the files
    bytes_by_dtype: dict[str, int] = field(default_factory=dict)
    skipped_note: str = ""  # what is shipped but not loaded (multi-token-prediction layers)

    def to_json(self) -> dict[str, object]:
        return {"loaded_bytes": self.loaded_bytes, "total_bytes": self.total_bytes, "bytes_by_dtype": self.bytes_by_dtype,
                "skipped_note": self.skipped_note}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CheckpointSummary:
        return cls(int(data["loaded_bytes"]), int(data["total_bytes"]), dict(data.get("bytes_by_dtype") or {}),
                   str(data.get("skipped_note") or ""))


def summarize(tensors: Iterable[tuple[str, str, int]], num_hidden_layers: int) -> CheckpointSummary:
    """(name, dtype, bytes) of every tensor -> loaded and total bytes. Layers past num_hidden_layers are the
    multi-token-prediction layers DeepSeek-V3-style releases ship; transformers and vLLM (without speculative
    decoding) do not load them."""
    total = loaded = skipped = 0
    by_dtype: dict[str, int] = {}
    for name, dtype, size in tensors:
        total += size
        by_dtype[dtype] = by_dtype.get(dtype, 0) + size
        match = LAYER_INDEX.search(name)
        if match and int(match.group(1)) >= num_hidden_layers:
            skipped += size
        else:
            loaded += size
    note = f"{skipped / 1e9:.1f} GB of layers past layer {num_hidden_layers - 1} (multi-token prediction) not loaded" if skipped else ""
    return CheckpointSummary(loaded, total, by_dtype, note)


def read_header(path: Path) -> dict[str, object]:
    with path.open("rb") as handle:
        prefix = handle.read(8)
        if len(prefix) != 8:
            raise SizingError(f"{path} is not a safetensors file (too short)")
        (length,) = struct.unpack("<Q", prefix)
        if length > MAX_HEADER_BYTES:
            raise SizingError(f"{path} is not a safetensors file (header length {length:,} bytes)")
        try:
            header = json.loads(handle.read(length))
        except (ValueError, RecursionError):
            raise SizingError(f"{path} is not a safetensors file (its header is not JSON)") from None
    if not isinstance(header, dict):
        raise SizingError(f"{path} is not a safetensors file (its header is not a JSON object)")
    return header


def header_tensors(header: Mapping[str, object], path: Path | None = None) -> Iterable[tuple[str, str, int]]:
    for name, info in header.items():
        if name == "__metadata__" or not isinstance(info, dict):
            continue
        offsets = info.get("data_offsets", (0, 0))
        if not (isinstance(offsets, list | tuple) and len(offsets) == 2
                and all(type(o) is int and o >= 0 for o in offsets) and offsets[1] >= offsets[0]):
            raise SizingError(f"{path or 'a safetensors header'} is not a safetensors file "
                              f"(tensor {name[:80]!r} has data_offsets {str(offsets)[:40]}, not [start, end])")
        yield name, str(info.get("dtype", "?")), offsets[1] - offsets[0]


def read_index(index: Path) -> dict[str, Any]:
    """model.safetensors.index.json as a JSON object, or a SizingError naming the file."""
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except (ValueError, RecursionError):
        raise SizingError(f"{index} is not a safetensors index (not JSON)") from None
    if not isinstance(data, dict) or not isinstance(data.get("weight_map", {}), dict) \
            or not isinstance(data.get("metadata", {}), dict):
        raise SizingError(f"{index} is not a safetensors index (expected an object with a 'weight_map' object)")
    return data


def weight_files(folder: Path) -> list[Path]:
    """The safetensors files transformers would load: the index's files, else model.safetensors, else every
    *.safetensors but Mistral's duplicate consolidated.* copies."""
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        names = sorted({str(n) for n in read_index(index).get("weight_map", {}).values()})
        return [folder / n for n in names if "/" not in n and "\\" not in n and (folder / n).is_file()]
    single = folder / "model.safetensors"
    if single.is_file():
        return [single]
    return sorted(p for p in folder.glob("*.safetensors") if not p.name.startswith("consolidated"))


def summarize_folder(folder: Path, num_hidden_layers: int) -> CheckpointSummary | None:
    """From the headers when the weight files are there; else from the index's total_size; else None."""
    files = weight_files(folder)
    if files:
        return summarize((t for f in files for t in header_tensors(read_header(f), f)), num_hidden_layers)
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        total = read_index(index).get("metadata", {}).get("total_size")
        if type(total) is int and total > 0:
            return CheckpointSummary(int(total), int(total), {}, "from model.safetensors.index.json total_size (no headers)")
    return None
