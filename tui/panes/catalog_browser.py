"""Catalog: GPUs, models and offers as searchable tables with source and as-of; enter shows a row in full."""
from __future__ import annotations

import datetime
import json

from pydantic import BaseModel
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DataTable, Input, Static

from gpusizer.catalog import Catalog, SizingError, load_catalog
from gpusizer.catalog.catalog import clear_cache
from gpusizer.catalog.loading import user_catalog_dir
from gpusizer.catalog.price_update import GitHubSource, PriceSource, report_lines, update_offers, write_update

from ..choice import Choice
from ..form_input import FormInput
from ..safe_text import cell, esc
from .sortable import SortableTable

WIDEST = {"name": 34, "model_id": 44, "source": 40, "instance_type": 30, "region": 18}  # characters; the detail shows all
VIEWS = {  # what: (rows, id field, columns)
    "gpus": (lambda c: c.gpus, "gpu_id", ["gpu_id", "name", "memory_gb", "memory_bandwidth_gbps", "bf16_tflops_dense",
                                          "fp8_tflops_dense", "tdp_watts", "as_of", "source"]),
    "models": (lambda c: c.models, "model_id", ["model_id", "num_hidden_layers", "hidden_size", "num_attention_heads",
                                                "num_key_value_heads", "vocab_size", "as_of", "source"]),
    "offers": (lambda c: c.offers, "offer_id", ["provider", "instance_type", "gpu_id", "gpus_per_instance", "region",
                                                "on_demand_usd_per_hour", "spot_usd_per_hour", "as_of", "source"]),
}


class SearchInput(FormInput):
    """The search box: down and tab go to the table (the rows are what one searches for); the Update prices button is
    not the next stop, so tab then enter never starts a network update by accident (shift+tab from the table, a
    click or ctrl+r still reach it)."""

    BINDINGS = [Binding("down,tab", "to_table", "Rows", show=False)]

    def action_to_table(self) -> None:
        table = self.screen.query_one("#catalog-table", SortableTable)
        table.focus()
        if table.row_count:  # the row under the cursor, in full
            table.move_cursor(row=table.cursor_row)


class CatalogPane(Vertical):
    TITLE = "gpusizer catalog"
    BINDINGS = [Binding("ctrl+r", "update_prices", "Update prices", show=False)]  # the toolbar button shows it

    def __init__(self, catalog: Catalog, **options):
        super().__init__(**options)
        self.catalog = catalog
        self.rows: dict[str, BaseModel] = {}
        self.price_source: PriceSource = GitHubSource()  # tests put a recorded copy here

    def compose(self) -> ComposeResult:
        with Horizontal(classes="toolbar"):
            yield Choice(list(VIEWS), "gpus", id="catalog-view")
            yield SearchInput(placeholder="search any column (e.g. h100, nvidia, lambda, qwen)", id="catalog-search")
            yield Button("Update prices", id="update-prices", compact=True, tooltip="ctrl+r: re-read current cloud prices "
                         "from SkyPilot's public catalog into your catalog folder (gpusizer catalog update)")
        yield Static("", id="catalog-matches", classes="notes")
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

    def matching(self, view: str, query: str) -> list[BaseModel]:
        rows_of, _, _ = VIEWS[view]
        return [row for row in rows_of(self.catalog) if not query or query in json.dumps(row.model_dump(mode="json")).lower()]

    def fill(self) -> None:
        """The list chosen, filtered by the search; a search counts its matches in every list, and when the list shown
        has none it moves to the first list that has some."""
        choice = self.query_one("#catalog-view", Choice)
        query = self.query_one("#catalog-search", Input).value.strip().lower()[:200]
        found = {view: self.matching(view, query) for view in VIEWS} if query else {}
        if query and not found[choice.value] and any(found.values()):
            choice.value = next(view for view, rows in found.items() if rows)  # fills again through Changed
            return
        view = choice.value
        matches = self.query_one("#catalog-matches", Static)
        matches.update(esc(f"'{query}': " + " · ".join(f"{len(rows)} {name}" for name, rows in found.items())) if query else "")
        matches.display = bool(query)  # no blank line above the table
        rows = found.get(view) if query else self.matching(view, "")
        _, key, columns = VIEWS[view]
        table = self.query_one("#catalog-table", SortableTable)
        table.clear(columns=True)
        data_rows = [row.model_dump(mode="json") for row in rows or []]
        for column in columns:  # as wide as the widest value (to a limit), so no search narrows a column to nothing
            values = [len(str(d.get(column) if d.get(column) is not None else "—")) for d in data_rows]
            table.add_column(column, key=column, width=min(max([len(column), *values]), WIDEST.get(column, 24)))
        self.rows = {}
        for row, data in zip(rows or [], data_rows, strict=True):
            row_id = data[key]
            self.rows[row_id] = row
            table.add_row(*[cell("—" if data.get(c) is None else data.get(c)) for c in columns], key=row_id)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.has_focus:  # moving through the rows shows each in full; refilling the table does not
            self.show_row(event.row_key.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.show_row(event.row_key.value)

    def show_row(self, key: object) -> None:
        """Every field of the row, the full name included."""
        row = self.rows.get(str(key))
        if row is not None:
            fields = row.model_dump(mode="json")
            self.query_one("#catalog-detail", Static).update("\n".join(f"[b]{k}[/b]: {esc(v)}" for k, v in fields.items()))

    @on(Button.Pressed, "#update-prices")
    def action_update_prices(self) -> None:
        self.query_one("#catalog-detail", Static).update("Reading current prices from "
                                                         f"{esc(self.price_source.label)} …")
        self.update_prices()

    @work(thread=True, exclusive=True, group="price-update")
    def update_prices(self) -> None:
        """`gpusizer catalog update`, off the UI thread; then every tab prices from the updated catalog."""
        today = datetime.date.today()
        folder = user_catalog_dir()
        try:
            result = update_offers(self.catalog, self.price_source, today, folder / "offers.csv")
            if not result.files and result.skipped:  # offline, or the host refused: say that, not "Read 0 price files"
                reasons = "\n".join(f"• {reason}" for reason in result.skipped)
                text = f"Prices not updated: {self.price_source.label} could not be reached or read.\n{reasons}"
                self.app.call_from_thread(self.prices_updated, self.catalog, text)
                return
            written = write_update(result, folder, today) if result.files else None
            clear_cache()
            catalog = load_catalog() if written else self.catalog
            text = "\n".join(report_lines(result, self.price_source.label, written))
        except (SizingError, OSError) as error:
            catalog, text = self.catalog, f"Prices not updated: {error}"
        self.app.call_from_thread(self.prices_updated, catalog, text)

    def prices_updated(self, catalog: Catalog, report: str) -> None:
        use_catalog = getattr(self.app, "use_catalog", None)
        if use_catalog is not None:
            use_catalog(catalog)
        self.catalog = catalog
        self.fill()
        self.query_one("#catalog-detail", Static).update(esc(report))

    def markdown(self) -> str | None:
        return None

    def json(self) -> str | None:
        return None
