"""A read-only table drawn as text: for result tables nobody sorts or moves a cursor through.

A DataTable renders each cell through a Rich console; rebuilding one of forty rows on every keystroke cost tens of
milliseconds. This is one `Content`, padded by column, with the header in bold.
"""
from __future__ import annotations

from textual.content import Content

from gpusizer.tools.figures import cents_and_more


def text_table(headers: list[str], rows: list[list[str]], right: frozenset[int] = frozenset(),
               widest: dict[int, int] | None = None) -> Content:
    """Columns as wide as their widest cell, two spaces apart; the columns numbered in `right` align right, and a
    cell longer than its column's limit in `widest` ends in "…"."""
    limits = widest or {}
    rows = [[clip(cell, limits.get(column)) for column, cell in enumerate(row)] for row in rows]
    widths = [max([len(header), *(len(row[column]) for row in rows)]) for column, header in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.rjust(width) if column in right else cell.ljust(width)
                         for column, (cell, width) in enumerate(zip(cells, widths, strict=False))).rstrip()

    return Content("\n").join([Content.assemble((line(headers), "bold")), *(Content(line(row)) for row in rows)])

def dollars(amounts: list[float | None]) -> list[str]:
    """One column of dollar amounts, every cell with the same decimals (not $0.4400 above $1.29): cents, or as many
    places (up to four) as a price under a dollar needs to be shown exactly ($0.855, $0.0917)."""
    places = max((cents_and_more(amount) for amount in amounts if amount is not None and abs(amount) < 1), default=2)
    return ["—" if amount is None else f"${amount:,.{places}f}" for amount in amounts]


def clip(cell: str, limit: int | None) -> str:
    return cell if limit is None or len(cell) <= limit else cell[:limit - 1] + "…"
