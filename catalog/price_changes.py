"""What one `gpusizer catalog update` found, and the report a person reads: new and withdrawn offers, on-demand and
spot moves each on its own, spot prices set aside, and the zones and files left out."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .offer import SPOT_FLOOR

UPDATE_MARK = "gpusizer catalog update"  # the verification text of every row this writes; rows without it are the user's
MOVED_FRACTION = 0.10


class PriceChange(NamedTuple):
    offer_id: str
    provider: str
    instance_type: str
    gpu_id: str
    gpus: float
    region: str
    old_usd_per_hour: float | None
    new_usd_per_hour: float | None
    pricing: str  # which price is compared: on_demand or spot
    why: str = ""  # for a spot price set aside: why


@dataclass
class PriceUpdate:
    rows: list[dict[str, Any]] = field(default_factory=list)  # the user's own rows, then this update's
    new: list[PriceChange] = field(default_factory=list)
    removed: list[PriceChange] = field(default_factory=list)
    moved: list[PriceChange] = field(default_factory=list)  # on-demand and spot moves, each its own entry
    doubtful: list[PriceChange] = field(default_factory=list)  # spot prices kept but set aside by the pricing rule
    unchanged: int = 0  # re-priced, on-demand and spot both within MOVED_FRACTION
    left_out_zones: dict[str, int] = field(default_factory=dict)  # provider -> rows from Local / Wavelength Zones
    kept_yours: list[str] = field(default_factory=list)  # shipped offers the user overrides by hand: left as they are
    skipped: list[str] = field(default_factory=list)  # clouds not read, with why
    files: dict[str, dict[str, str | None]] = field(default_factory=dict)  # provider -> {file, commit, date}


def _line(change: PriceChange) -> str:
    gpus = f"{change.gpus:g} x {change.gpu_id}"
    where = f"{change.provider} {change.instance_type} ({gpus}) in {change.region}"
    if change.why:
        return f"  ! {where}: spot ${change.new_usd_per_hour:,.2f}/h set aside ({change.why})"
    if change.old_usd_per_hour is None:
        return f"  + {where}: ${change.new_usd_per_hour:,.2f}/h"
    if change.new_usd_per_hour is None:
        return f"  - {where} (was ${change.old_usd_per_hour:,.2f}/h)"
    delta = change.new_usd_per_hour / change.old_usd_per_hour - 1
    moved = f"${change.old_usd_per_hour:,.2f} -> ${change.new_usd_per_hour:,.2f}/h ({delta:+.0%})"
    return f"  ~ {where}: {change.pricing.replace('_', '-')} {moved}"


def report_lines(update: PriceUpdate, source_label: str, written: Path | None) -> list[str]:
    """What changed, for a person: new, removed, on-demand and spot moves of more than 10% each on its own, spot prices
    set aside, and what was not read."""
    commits = ", ".join(f"{p} @{str(f['commit'])[:7]}" + (f" ({f['date']})" if f["date"] else "") for p, f in update.files.items())
    lines = [f"Read {len(update.files)} price files from {source_label}: {commits or 'none'}."]
    on_demand = [c for c in update.moved if c.pricing == "on_demand"]
    spot = [c for c in update.moved if c.pricing == "spot"]
    for title, changes in (("New", update.new), ("Removed (no longer listed)", update.removed),
                           (f"On-demand moved more than {MOVED_FRACTION:.0%}", on_demand),
                           (f"Spot moved more than {MOVED_FRACTION:.0%}", spot),
                           (f"Spot prices set aside (above on-demand or under {SPOT_FLOOR:.0%} of it; no tool uses them "
                            "unless asked for spot alone)", update.doubtful)):
        lines.append(f"{title}: {len(changes)}")
        lines.extend(_line(change) for change in changes)
    lines.append(f"Re-priced within {MOVED_FRACTION:.0%} (on-demand and spot): {update.unchanged}")
    lines.extend(f"Left out {count} {provider} rows from Local Zones and Wavelength Zones (not the region's prices)"
                 for provider, count in update.left_out_zones.items())
    if update.kept_yours:
        lines.append(f"Kept your own rows for: {', '.join(update.kept_yours)}")
    lines.extend(f"Skipped {reason}" for reason in update.skipped)
    if written is not None:
        lines.append(f"Wrote {written} (your own rows kept). The shipped catalog is unchanged: delete that file's "
                     f"'{UPDATE_MARK}' rows to go back to it.")
    else:
        lines.append("Dry run: nothing written.")
    return lines
