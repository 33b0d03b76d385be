"""How figures are shown: the same rounding everywhere, so a test can compare the screen with the tool's result."""
from __future__ import annotations

from gpusizer.catalog import GIB


def gib(byte_count: int | float | None) -> str:
    return "—" if byte_count is None else f"{byte_count / GIB:,.2f} GiB"


def usd(amount: float | None) -> str:
    if amount is None:
        return "—"
    return f"${amount:,.2f}" if abs(amount) >= 1 else f"${amount:.4f}"


def number(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def token_count(tokens: float) -> str:
    """500M, 26B, 1.5T: token counts as people write them."""
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if tokens >= size:
            return f"{tokens / size:.3g}{suffix}"
    return number(tokens)


def percent(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"
