"""Text charts drawn from a tool's figures (no arithmetic beyond scaling to the width).

Built as Textual `Content` rather than Rich `Text`: Textual renders it without a Rich console pass, which keeps
each keystroke's repaint short.
"""
from __future__ import annotations

import math

from textual.content import Content

PART_COLOURS = {"weights": "#1e90ff", "kv_cache": "#af87ff", "activations": "#ffaf00", "gradients": "#ff3b3b",
                "optimizer_states": "#00d75f", "runtime_overhead": "#9e9e9e"}
BAR_COLOUR = "#1e90ff"


def stacked_bar(parts: dict[str, int], width: int = 40) -> Content:
    """One bar split by share, and a legend with each part's colour."""
    total = sum(parts.values()) or 1
    bar: list[tuple[str, str]] = []
    legend: list[str | tuple[str, str]] = []
    drawn = 0
    for name, value in parts.items():
        cells = min(round(value / total * width) if value else 0, width - drawn)
        drawn += cells
        colour = PART_COLOURS.get(name, "#ffffff")
        bar.append(("█" * cells, colour))
        if value:
            legend += [("■ ", colour), f"{name.replace('_', ' ')} {value / total:.0%}  "]
    return Content("\n").join([Content.assemble(*bar), Content.assemble(*legend)])


def horizontal_bars(title: str, labels: list[str], values: list[float | None], width: int = 30) -> Content:
    """A bar per label, scaled to the largest value; missing values say so."""
    largest = max((v for v in values if v), default=0) or 1
    pad = max((len(label) for label in labels), default=0)
    lines = [Content.assemble((title, "bold"))]
    for label, value in zip(labels, values, strict=True):
        if value is None:
            lines.append(Content.assemble(f"{label:<{pad}} ", ("no value", "dim")))
        else:
            bar = "█" * max(1, round(value / largest * width))
            lines.append(Content.assemble(f"{label:<{pad}} ", (bar, BAR_COLOUR), f" {value:,.4g}"))
    return Content("\n").join(lines)


def money(amount: float) -> str:
    """An axis label: $800, $335K, $1.2M."""
    for size, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(amount) >= size:
            return f"${amount / size:.3g}{suffix}"
    return f"${amount:.3g}"


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round values from `low` to `high` (about `count` steps of 1, 2, 2.5 or 5 times a power of ten)."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low] if math.isfinite(low) else []
    rough = (high - low) / count
    power = 10 ** math.floor(math.log10(rough))
    step = next(power * m for m in (1, 2, 2.5, 5, 10) if power * m >= rough)
    first = math.ceil(low / step) * step
    return [round(first + i * step, 12) for i in range(int((high - first) / step + 1e-9) + 1)]
