"""Catalog: GPUs, models and offers as searchable tables with source and as-of; enter shows a row in full."""
from __future__ import annotations

import json

from pydantic import BaseModel
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static

from gpusizer.catalog import Catalog

from ..choice import Choice
from ..form_input import FormInput
from ..safe_text import cell, esc
from .sortable import SortableTable

VIEWS = {  # what: (rows, id field, columns)
    "gpus": (lambda c: c.gpus, "gpu_id", ["gpu_id", "name", "memory_gb", "memory_bandwidth_gbps", "bf16_tflops_dense",
                                          "fp8_tflops_dense", "tdp_watts", "as_of", "source"]),
    "models": (lambda c: c.models, "model_id", ["model_id", "num_hidden_layers", "hidden_size", "num_attention_heads",
                                                "num_key_value_heads", "vocab_size", "as_of", "source"]),
    "offers": (lambda c: c.offers, "offer_id", ["provider", "instance_type", "gpu_id", "gpus_per_instance", "region",
                                                "on_demand_usd_per_hour", "spot_usd_per_hour", "as_of", "source"]),
}


class CatalogPane(Vertical):
    TITLE = "gpusizer catalog"

    def __init__(self, catalog: Catalog, **options):
        super().__init__(**options)
        self.catalog = catalog
        self.rows: dict[str, BaseModel] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(classes="toolbar"):
            yield Choice(list(VIEWS), "gpus", id="catalog-view")
            yield FormInput(placeholder="search any column (e.g. h100, nvidia, lambda, qwen)", id="catalog-search")
        yield SortableTable(id="catalog-table", cursor_type="row")
        with VerticalScroll(id="catalog-detail-box"):
            yield Static("[dim]Enter on a row shows all its fields.[/dim]", id="catalog-detail")

    def on_mount(self) -> None:
        self.fill()

    @on(Choice.Changed)
    @on(Input.Changed)
    def _filter_changed(self, event) -> None:
        event.stop()
        self.fill()

    def fill(self) -> None:
        view = self.query_one("#catalog-view", Choice).value
        query = self.query_one("#catalog-search", Input).value.strip().lower()
        rows_of, key, columns = VIEWS[view]
        table = self.query_one("#catalog-table", SortableTable)
        table.clear(columns=True)
        table.add_columns(*columns)
        self.rows = {}
        for row in rows_of(self.catalog):
            data = row.model_dump(mode="json")
            if query and query not in json.dumps(data).lower():
                continue
            row_id = data[key]
            self.rows[row_id] = row
            table.add_row(*[cell("—" if data.get(c) is None else data.get(c)) for c in columns], key=row_id)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        row = self.rows.get(str(event.row_key.value))
        if row is not None:
            fields = row.model_dump(mode="json")
            self.query_one("#catalog-detail", Static).update("\n".join(f"[b]{k}[/b]: {esc(v)}" for k, v in fields.items()))

    def markdown(self) -> str | None:
        return None

    def json(self) -> str | None:
        return None
