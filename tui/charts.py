"""Text charts drawn from a tool's figures (no arithmetic beyond scaling to the width)."""
from __future__ import annotations

from rich.text import Text

PART_COLOURS = {"weights": "dodger_blue1", "kv_cache": "medium_purple1", "activations": "orange1", "gradients": "red1",
                "optimizer_states": "green3", "runtime_overhead": "grey62"}


def stacked_bar(parts: dict[str, int], width: int = 40) -> Text:
    """One bar split by share, and a legend with each part's colour."""
    total = sum(parts.values()) or 1
    bar, legend = Text(), Text()
    drawn = 0
    for name, value in parts.items():
        cells = round(value / total * width) if value else 0
        cells = min(cells, width - drawn)
        drawn += cells
        bar.append("█" * cells, style=PART_COLOURS.get(name, "white"))
        if value:
            legend.append("■ ", style=PART_COLOURS.get(name, "white"))
            legend.append(f"{name.replace('_', ' ')} {value / total:.0%}  ")
    return Text("\n").join([bar, legend])


def horizontal_bars(title: str, labels: list[str], values: list[float | None], width: int = 30) -> Text:
    """A bar per label, scaled to the largest value; missing values say so."""
    largest = max((v for v in values if v), default=0) or 1
    pad = max((len(label) for label in labels), default=0)
    lines = [Text(title, style="bold")]
    for label, value in zip(labels, values):
        line = Text(f"{label:<{pad}} ")
        if value is None:
            line.append("no value", style="dim")
        else:
            line.append("█" * max(1, round(value / largest * width)), style="dodger_blue1")
            line.append(f" {value:,.4g}")
        lines.append(line)
    return Text("\n").join(lines)
