"""A tool pane: a form whose every change re-runs one `gpusizer.tools` call in a worker and shows the result.

Errors appear under the input that caused them; the last good result stays on screen.
"""
from __future__ import annotations

import re
from functools import partial
from typing import Any, get_args

from pydantic import BaseModel
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.validation import default_of

from ..export import as_json, as_markdown


class FormError(Exception):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field, self.message = field, message


def field(label: str, widget: Widget) -> Vertical:
    """A labelled input (compact: one row each, so forms fit 80x24); its error line is mounted only when needed."""
    if hasattr(widget, "compact"):
        widget.compact = True
    return Vertical(Label(label), widget, classes="field")


def default_text(model: type, name: str) -> str:
    """The tool's own default for a field, as the form shows it."""
    value = default_of(model, name)
    return f"{value:g}" if isinstance(value, float) else str(value)


def tool_choice(model: type, name: str) -> Select:
    """A select over a request field's allowed values, starting at the tool's default."""
    return choice(name, list(get_args(model.model_fields[name].annotation)), default_of(model, name))


def choice(name: str, options: list[str], value: str) -> Select:
    return Select([(o, o) for o in options], value=value, allow_blank=False, id=name, compact=True)


class ToolPane(Vertical):
    """Subclasses give `form()`, `results()`, `arguments()`, `compute()` and `show()`."""

    TITLE = ""
    result: BaseModel | None = None

    class Updated(Message):
        """A new result is on screen (tests and the benchmark wait for this)."""

    def __init__(self, catalog: Catalog, **options: Any):
        super().__init__(**options)
        self.catalog = catalog

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(classes="form"):
                yield from self.form()
            with VerticalScroll(classes="results"):
                yield Static("", id=f"{self.id}-problem", classes="error problem")
                yield from self.results()

    def form(self) -> ComposeResult:
        raise NotImplementedError

    def results(self) -> ComposeResult:
        raise NotImplementedError

    def arguments(self) -> dict[str, Any]:
        raise NotImplementedError

    def compute(self, arguments: dict[str, Any]) -> BaseModel:
        raise NotImplementedError

    def show(self, result: BaseModel) -> None:
        raise NotImplementedError

    def on_mount(self) -> None:
        self.recalculate()

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _input_changed(self, event: Message) -> None:
        event.stop()
        self.recalculate()

    def recalculate(self) -> None:
        self.clear_errors()
        try:
            arguments = self.arguments()
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        self.run_worker(partial(self._compute, arguments), exclusive=True, group=f"{self.id}-compute")

    async def _compute(self, arguments: dict[str, Any]) -> None:
        """An async worker: the calculators answer in about a millisecond, so a thread would only add hand-offs;
        exclusive=True drops a stale computation when the next keystroke arrives."""
        try:
            result, problem = self.compute(arguments), None
        except SizingError as error:
            result, problem = None, str(error)
        try:
            self._apply(result, problem)
        except Exception as error:  # noqa: BLE001 - a display bug must not take the app down with a traceback
            self.log.error(f"showing {arguments!r} failed: {error!r}")
            self.query_one(f"#{self.id}-problem", Static).update(
                f"Could not show this result ({type(error).__name__}: {error}); the last good result stays. "
                "Please report it with the inputs above.")

    def _apply(self, result: BaseModel | None, problem: str | None) -> None:
        if problem is not None:
            self.show_error(self.field_named_in(problem), problem)
        else:
            self.result = result
            self.show(result)
        self.post_message(self.Updated())

    # ---- errors next to their input
    def field_named_in(self, message: str) -> str | None:
        names = [w.id for w in self.query("Input, Select, Checkbox") if w.id]
        if re.search(r"unknown GPU|GPU name", message):
            return next((n for n in ("gpu", "gpus") if n in names), None)
        if re.search(r"unknown model|model name|exactly one of model", message):
            return "model" if "model" in names else None
        if "unknown provider" in message:
            return "providers" if "providers" in names else None
        body = message.split(": ", 1)[-1]
        first = min(((body.find(n), n) for n in names if re.search(rf"\b{n}\b", body)), default=None)
        return first[1] if first else None

    def show_error(self, field_name: str | None, message: str) -> None:
        """Under the input that caused it (mounted on demand: fewer widgets, faster start-up), else atop the results."""
        inputs = self.query(f"#{field_name}") if field_name else None
        if not inputs:
            self.query_one(f"#{self.id}-problem", Static).update(message)
            return
        widget = inputs.first()
        widget.add_class("invalid")
        existing = self.query(f"#{field_name}-error")
        if existing:
            existing.first().update(message)
        else:
            widget.parent.mount(Static(message, id=f"{field_name}-error", classes="error field-error"), after=widget)

    def clear_errors(self) -> None:
        for line in self.query(".field-error"):
            line.remove()
        problem = self.query_one(f"#{self.id}-problem", Static)
        if str(problem.render()):
            problem.update("")
        for widget in self.query(".invalid"):
            widget.remove_class("invalid")

    # ---- writing results without needless layout passes (a re-layout costs tens of ms per keystroke)
    def set_text(self, selector: str, content) -> None:
        widget = self.query_one(selector, Static)
        if str(content) == getattr(widget, "_last_content", None):
            return
        widget._last_content = str(content)
        widget.update(content, layout=False)
        width = widget.content_size.width
        if not width or widget.get_content_height(widget.content_size, self.app.size, width) != widget.content_size.height:
            widget.refresh(layout=True)  # the text now takes more or fewer lines

    def set_rows(self, selector: str, rows: list[tuple[str, list[str]]]) -> None:
        """Rows as (key, cells): cells are updated in place when the keys are unchanged, else the table is rebuilt."""
        table = self.query_one(selector)
        keys = [key.value for key in table.rows]
        if keys == [key for key, _ in rows]:
            for key, cells in rows:
                for column, cell in zip(table.columns, cells):
                    if str(table.get_cell(key, column)) != cell:
                        table.update_cell(key, column, cell)
            return
        table.clear()
        for key, cells in rows:
            table.add_row(*cells, key=key)

    # ---- reading the form
    def text(self, name: str) -> str | None:
        value = self.query_one(f"#{name}", Input).value.strip()
        return value or None

    def whole(self, name: str) -> int | None:
        return self.parsed(name, int, "a whole number")

    def decimal(self, name: str) -> float | None:
        return self.parsed(name, float, "a number")

    def parsed(self, name: str, parse, what: str):
        """The input's number (thousands separators allowed), None when empty, or a FormError under the input."""
        value = self.text(name)
        if value is None:
            return None
        try:
            return parse(value.replace(",", "").replace("_", ""))
        except ValueError:
            raise FormError(name, f"{name}: enter {what} (got {value!r})") from None

    def selected(self, name: str) -> str:
        return self.query_one(f"#{name}", Select).value

    def ticked(self, name: str) -> bool:
        return self.query_one(f"#{name}", Checkbox).value

    @staticmethod
    def given(**values: Any) -> dict[str, Any]:
        """Only what the user filled in: empty inputs fall back to the tool's own defaults."""
        return {key: value for key, value in values.items() if value is not None}

    # ---- export
    def markdown(self) -> str | None:
        return as_markdown(self.TITLE, self.result) if self.result else None

    def json(self) -> str | None:
        return as_json(self.result) if self.result else None
