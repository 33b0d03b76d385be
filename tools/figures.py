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


def percent(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"
