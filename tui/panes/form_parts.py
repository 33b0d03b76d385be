"""The pieces a pane's form is built from: labelled inputs, pairs of them, and choices and defaults read from the
tool's own request model (so the form shows what the tool would do with an empty field)."""
from __future__ import annotations

from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel
from textual.app import ComposeResult
from textual.containers import Grid
from textual.widget import Widget
from textual.widgets import Label

from gpusizer.catalog import Catalog
from gpusizer.tools.validation import default_of

from ..choice import Choice
from ..form_input import FormInput
from ..suggest import CatalogSuggester


def compact(widget: Widget) -> Widget:
    """One row instead of three (no border), so forms fit 80x24."""
    if hasattr(widget, "compact"):
        widget.compact = True
    return widget


def labelled(label: str, widget: Widget) -> Widget:
    """The input remembers its on-screen label: error messages name it as the screen does."""
    widget.label_text = label  # type: ignore[attr-defined]
    return compact(widget)


def label_of(widget: Widget, name: str) -> str:
    return getattr(widget, "label_text", None) or name


def field(label: str, widget: Widget) -> list[Widget]:
    """A label over its input, straight in the form (no wrapper: every widget costs start-up time). The input's error
    line is mounted under it only when needed."""
    return [Label(label), labelled(label, widget)]


def pair(left: tuple[str, Widget], right: tuple[str, Widget]) -> Grid:
    """Two labelled inputs side by side: labels on the first row of one grid, inputs on the second."""
    (left_label, left_widget), (right_label, right_widget) = left, right
    return Grid(Label(left_label), Label(right_label), labelled(left_label, left_widget), labelled(right_label, right_widget),
                classes="pair")


def default_text(model: type, name: str) -> str:
    """The tool's own default for a field, as the form shows it ("" where the tool decides case by case: the field's
    placeholder says how)."""
    value = default_of(model, name)
    return "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def number_field(label: str, model: type, name: str) -> ComposeResult:
    """A labelled number input showing the tool's own default for that request field."""
    yield from field(label, FormInput(default_text(model, name), id=name))


TOOL_DEFAULT = "default"  # an optional field left to the tool
DEFAULT_LABELS = {"weights_dtype": "as released", "recipe": "hf_trainer (default)"}  # what 'left to the tool' means for some fields


def tool_choice(model: type[BaseModel], name: str) -> Choice:
    """A choice over a request field's allowed values, starting at the tool's default; a field the tool fills in
    itself when absent (weights_dtype: as released) starts at 'default'."""
    values = literal_values(model.model_fields[name].annotation)
    default = default_of(model, name)
    if default is None:
        label = DEFAULT_LABELS.get(name, TOOL_DEFAULT)
        return Choice([label, *values], label, id=name)
    return Choice(values, default, id=name)


def literal_values(annotation: Any) -> list[str]:
    """The strings a Literal allows, through Optional, unions and Annotated (a validator on an engine name)."""
    if get_origin(annotation) is Literal:
        return [str(value) for value in get_args(annotation)]
    if get_origin(annotation) is Annotated:
        return literal_values(get_args(annotation)[0])
    return [value for arg in get_args(annotation) if arg is not type(None) for value in literal_values(arg)]


def model_fields(catalog: Catalog, default: str) -> ComposeResult:
    """A model by name (suggested from the catalog) or an unlisted model by its size: ToolPane.model_or_size reads them."""
    yield from field("Model (HF id or alias)", FormInput(default, id="model", suggester=CatalogSuggester(catalog, "model")))
    yield from field("…or size in billions", FormInput(placeholder="e.g. 7 (generic decoder)", id="params_billions"))
