"""A DataTable sorted by the column under the cursor (key `s`, or a click on the header), numbers as numbers."""
from __future__ import annotations

import re

from textual.binding import Binding
from textual.widgets import DataTable


def sort_key(cell) -> tuple:
    text = str(cell)
    found = re.search(r"-?[\d,]*\.?\d+", text.replace("$", ""))
    if found and text.strip() not in ("—", ""):
        return (0, float(found.group().replace(",", "")), text)
    return (1, 0.0, text)


class SortableTable(DataTable):
    """Its first column stays put while the others scroll sideways (the table is as wide as its pane, never cut)."""

    BINDINGS = [Binding("s", "sort_by_cursor", "Sort column", show=False)]  # the f10 screen lists it: the footer has 80 columns

    def __init__(self, **options):
        options.setdefault("fixed_columns", 1)
        super().__init__(zebra_stripes=True, **options)
        self.sorted_by: tuple[int, bool] | None = None

    def action_sort_by_cursor(self) -> None:
        self.sort_by_index(self.cursor_column)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        self.sort_by_index(event.column_index)

    def sort_by_index(self, index: int) -> None:
        reverse = self.sorted_by == (index, False)
        column = list(self.columns)[index]
        self.sort(column, key=sort_key, reverse=reverse)
        self.sorted_by = (index, reverse)
