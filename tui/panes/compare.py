"""Compare: 2-20 GPUs side by side, optionally for a workload; a bar chart of the column under the cursor."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from gpusizer.tools.compare import GpuComparison, compare_gpus
from gpusizer.tools.compare.compare_gpus import CompareRequest
from gpusizer.tools.figures import number, usd
from gpusizer.tools.memory.request import VramRequest

from ..charts import horizontal_bars
from ..form_input import FormInput
from ..safe_text import cell, esc
from ..suggest import CatalogSuggester
from ..text_table import dollars
from .base import ToolPane, default_text, field, tool_choice
from .sortable import SortableTable

COLUMNS: list[tuple[str, str, Callable[[Any], str]]] = [  # (header, row field, how to show it)
    ("GPU", "gpu_id", str), ("memory GB", "memory_gb", number), ("GB/s", "memory_bandwidth_gbps", number),
    ("BF16 TF", "bf16_tflops_dense", number), ("FP8 TF", "fp8_tflops_dense", number), ("TDP W", "tdp_watts", number),
    ("$/GPU-h", "cheapest_usd_per_gpu_hour", usd), ("spot $/h", "cheapest_spot_usd_per_gpu_hour", usd),
    ("TF per $/h", "bf16_tflops_per_usd_hour", number), ("fits", "fits", lambda v: "—" if v is None else ("yes" if v else "no")),
    ("GPUs needed", "gpus_needed", number), ("decode tok/s", "decode_tokens_per_s", number),
    ("$ / M tokens", "usd_per_million_tokens", usd),
]
RATIOS = [  # (header, key of GpuRow.ratio_to_first): each column as a multiple of the first GPU's
    ("mem ×1st", "memory_gb"), ("GB/s ×1st", "memory_bandwidth_gbps"), ("TF ×1st", "bf16_tflops_dense"),
    ("$/h ×1st", "cheapest_usd_per_gpu_hour"),
]


class ComparePane(ToolPane[GpuComparison]):
    TITLE = "gpusizer compare"

    def form(self) -> ComposeResult:
        yield from field("GPUs (comma-separated)", FormInput("h100-sxm, a100-80gb-sxm, l40s", id="gpus",
                                                      suggester=CatalogSuggester(self.catalog, "gpu", many=True)))
        yield from field("Model (optional workload)", FormInput(placeholder="e.g. llama 3.1 70b", id="model",
                                                         suggester=CatalogSuggester(self.catalog, "model")))
        yield from field("Workload", tool_choice(VramRequest, "workload"))
        yield from field("Weights", tool_choice(VramRequest, "weights_dtype"))
        yield from field("Batch", FormInput(default_text(VramRequest, "batch_size"), id="batch_size"))
        yield from field("Seq len", FormInput(default_text(VramRequest, "seq_len"), id="seq_len"))
        yield from field("MFU", FormInput(default_text(CompareRequest, "mfu"), placeholder="published runs", id="mfu"))

    def results(self) -> ComposeResult:
        yield SortableTable(id="comparison")
        yield Static("", id="column-chart")
        yield Static("", id="compare-notes", classes="notes")

    def on_mount(self) -> None:
        self.query_one("#comparison", DataTable).add_columns(*[header for header, _, _ in COLUMNS], *[h for h, _ in RATIOS])
        super().on_mount()

    def arguments(self) -> dict[str, Any]:
        gpus = [name.strip() for name in (self.text("gpus") or "").split(",") if name.strip()]
        workload = {}
        if self.text("model"):
            workload = self.given(model=self.text("model"), workload=self.selected("workload"),
                                  weights_dtype=self.selected("weights_dtype"), batch_size=self.whole("batch_size"),
                                  seq_len=self.whole("seq_len"))
        return self.given(gpus=gpus, mfu=self.decimal("mfu"), **workload)

    def compute(self, arguments: dict[str, Any]) -> GpuComparison:
        return compare_gpus(catalog=self.catalog, **arguments)

    def show(self, result: GpuComparison) -> None:
        table = self.query_one("#comparison", SortableTable)
        table.clear()
        money = {name: dollars([getattr(row, name) for row in result.gpus])  # each column with the same decimals
                 for _, name, shown in COLUMNS if shown is usd}
        for index, row in enumerate(result.gpus):  # the same GPU may be asked twice: keys by position
            ratios = [number(row.ratio_to_first.get(key)) for _, key in RATIOS]
            cells = [money[name][index] if name in money else shown(getattr(row, name)) for _, name, shown in COLUMNS]
            table.add_row(*[cell(text) for text in cells], *ratios, key=f"{index}:{row.gpu_id}")
        self.query_one("#compare-notes", Static).update("\n".join(f"• {esc(n)}" for n in result.notes))
        self.chart_column(table.cursor_column)

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        self.chart_column(event.coordinate.column)

    def chart_column(self, index: int) -> None:
        if self.result is None:
            return
        if index >= len(COLUMNS):
            header, key = RATIOS[index - len(COLUMNS)]
            values = [row.ratio_to_first.get(key) for row in self.result.gpus]
        else:
            header, name, _ = COLUMNS[max(index, 1)]
            values = [getattr(row, name) for row in self.result.gpus]
        numeric = [float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None for v in values]
        order = [row.gpu_id for row in self.result.gpus]
        self.query_one("#column-chart", Static).update(horizontal_bars(header, order, numeric))
