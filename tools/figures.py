"""How figures are shown: the same rounding everywhere, so a test can compare the screen with the tool's result."""
from __future__ import annotations

from gpusizer.catalog import GIB


def gib(byte_count: int | float | None) -> str:
    return "—" if byte_count is None else f"{byte_count / GIB:,.2f} GiB"


def usd(amount: float | None) -> str:
    """Dollars and cents; a price under a dollar with as many places as it needs, up to four ($0.44, $0.855, $0.0917),
    so $0.44 never reads $0.4400 beside $1.29."""
    if amount is None:
        return "—"
    return f"${amount:,.2f}" if abs(amount) >= 1 else f"${amount:.{cents_and_more(amount)}f}"


def cents_and_more(amount: float) -> int:
    """The decimal places a price under a dollar needs to be shown exactly: 2, 3, or at most 4."""
    return next((places for places in (2, 3) if abs(round(amount, places) - amount) < 1e-9), 4)


def number(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def wall_time(hours: float) -> str:
    """'5.2 hours' under a day, '2.0 days' from one day on: a run's wall-clock time as people say it."""
    return f"{number(hours / 24, 1)} days" if hours >= 24 else f"{number(hours, 1)} hours"


def token_count(tokens: float) -> str:
    """500M, 26B, 1.5T: token counts as people write them."""
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if tokens >= size:
            return f"{tokens / size:.3g}{suffix}"
    return number(tokens)


def percent(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"


TEXT_LIMIT_BYTES = 1_500  # a tool's text content: an answer an assistant reads aloud, not the whole result


def best_of(lines: list[str], shown: int = 5, total: int | None = None) -> list[str]:
    """The first `shown` lines of a ranked list, and how many more the structured result holds (`total`: the list's
    length, where only the lines shown were worded)."""
    more = (len(lines) if total is None else total) - shown
    return lines[:shown] + ([f"... and {more} more in the structured result"] if more > 0 else [])


def within_limit(lines: list[str], limit_bytes: int = TEXT_LIMIT_BYTES) -> str:
    """Lines joined into an answer of at most `limit_bytes` UTF-8 bytes: whole lines from the top (the verdict first),
    then a pointer to the structured result for what did not fit."""
    tail = "(the rest is in the structured result)"
    kept: list[str] = []
    size = 0
    for line in lines:
        cost = len(line.encode()) + 1
        if size + cost > limit_bytes - len(tail) - 1:
            if not kept:  # a single over-long verdict: cut it at a character boundary
                return line.encode()[: limit_bytes - len(tail) - 2].decode(errors="ignore") + "\n" + tail
            kept.append(tail)
            break
        kept.append(line)
        size += cost
    return "\n".join(kept)
