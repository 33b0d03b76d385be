"""A tool pane: a form whose every change re-runs one `gpusizer.tools` call and shows the result.

Errors appear under the input that caused them. A result is shown only for what the form shows: while an input is
invalid, or a unit is still being typed ('1 mo' on the way to '1 month'), the result area says it waits for that input
instead of keeping the figures of a value no longer on screen.
"""
from __future__ import annotations

import re
from typing import Any, Generic, TypeVar

from pydantic import BaseModel
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Static

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.validation import quoted

from ..choice import Choice
from ..export import as_json, as_markdown
from ..form_input import FormInput
from ..number_entry import COUNT_EXAMPLES, COUNT_FIELDS, DURATION_EXAMPLES, HOURS_FIELDS, PartialUnit, read_number, shown_as_read
from ..safe_text import esc
from ..wrapping import MessageLine
from .form_parts import DEFAULT_LABELS, TOOL_DEFAULT, compact, default_text, field, label_of, labelled, number_field, pair, tool_choice

__all__ = ["DEFAULT_LABELS", "TOOL_DEFAULT", "FormError", "ToolPane", "compact", "default_text", "field", "label_of", "labelled",
           "number_field", "pair", "tool_choice"]  # the form's pieces live in form_parts; the panes import them from here


class FormError(Exception):
    """A value the form cannot send; `also`: the other inputs in the conflict (the message goes under each); `waiting`:
    the value is still being typed (a unit half written), not wrong."""

    def __init__(self, field: str, message: str, also: tuple[str, ...] = (), waiting: bool = False):
        super().__init__(message)
        self.field, self.message, self.also, self.waiting = field, message, also, waiting


SCREEN_WORDS = {"the gpusizer://models resource": "the Catalog tab", "the gpusizer://gpus resource": "the Catalog tab",
                "gpusizer://models": "the Catalog tab", "gpusizer://gpus": "the Catalog tab", "gpusizer://offers": "the Catalog tab"}
HUB_FETCH_AFTER_S = 0.6  # a Hub id is fetched once typing pauses this long, not at every keystroke
SHORT_ERROR = 150  # characters an error line shows (two lines of a half screen); ctrl+e shows the whole message

ResultT = TypeVar("ResultT", bound=BaseModel)  # the pane's tool's output model
Outcome = tuple[Any, "str | None", tuple[str, ...]]  # (result or None, the problem or None, the arguments it names)


class ToolPane(Vertical, Generic[ResultT]):
    """Subclasses name their tool's result model (`ToolPane[VramEstimate]`) and give `form()`, `results()`,
    `arguments()`, `compute()` and `show()`."""

    TITLE = ""
    BINDINGS = [Binding("f9", "error_detail", "Error detail", show=False)]  # listed by f10
    result: ResultT | None = None  # the last good result
    result_inputs: dict[str, Any] = {}  # the arguments that result was computed from
    computed_from: dict[str, Any] = {}  # the arguments of the last computation that answered
    COMPUTE_IN_THREAD = False  # True for tools slower than a keystroke (see compute_later)
    computing = False  # a computation runs in a thread
    _latest: dict[str, Any] | None = None  # the arguments the form asks now, while computing off the UI thread

    class Updated(Message):
        """A new result (or its error) was just put on the widgets; the next frame paints it."""

    def __init__(self, catalog: Catalog, **options: Any):
        super().__init__(**options)
        self.catalog = catalog
        self._flagged: list[Widget | None] = []  # the inputs show_error marked; None: the problem line
        self._error_lines: dict[str, MessageLine] = {}  # input id: its error line, once mounted
        self._shown: dict[str, str] = {}  # selector: the text set_text last put there
        self._error_detail = ""  # the whole message behind the short error line
        self._hub_failures: dict[str, str] = {}  # Hub ids that could not be read, with why
        self._fetch_timer: Timer | None = None

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

    def compute(self, arguments: dict[str, Any]) -> ResultT:
        raise NotImplementedError

    def show(self, result: ResultT) -> None:
        raise NotImplementedError

    def on_mount(self) -> None:
        for widget in self.query(".form Input, .form Choice, .form Checkbox"):
            self.watch(widget, "value", self.recalculate, init=False)
        self.recalculate()

    @on(Input.Changed)
    @on(Choice.Changed)
    @on(Checkbox.Changed)
    def _stop_changed(self, event: Message) -> None:
        event.stop()  # handled by the value watchers above

    def recalculate(self) -> None:
        """Called as the value changes, before the screen repaints: the keystroke and its new result share a frame.

        The calculators answer in about a millisecond, so they run right here: a worker (or the Changed message)
        would add a hop, and Textual paints at most once per 1/60 s, so every hop can cost a whole frame.
        """
        self.clear_errors()
        try:
            arguments = self.arguments()
        except FormError as error:
            self._latest = None  # an answer still being computed is for inputs the form no longer shows
            for name in (error.field, *error.also):
                self.show_error(name, error.message, waiting=error.waiting)
            return
        model = arguments.get("model")
        if isinstance(model, str) and model in self._hub_failures:
            self._latest = None
            self.show_error("model", self._hub_failures[model])
            return
        if isinstance(model, str) and self.catalog.needs_download(model):
            self._latest = None
            self.show_problem(f"Reading {model}'s config.json from the Hugging Face Hub … (the result follows)", short=True)
            self.hide_result()
            if self._fetch_timer is not None:  # still typing: fetch the id once the keys stop
                self._fetch_timer.stop()
            self._fetch_timer = self.set_timer(HUB_FETCH_AFTER_S, lambda: self.fetch_model(model))
            return
        if self.COMPUTE_IN_THREAD:
            self.compute_later(arguments)
            return
        self.finish(arguments, self.attempt(arguments))

    def attempt(self, arguments: dict[str, Any]) -> Outcome:
        """The tool's answer for these arguments, or the problem to show instead (and the arguments it names)."""
        try:
            return self.compute(arguments), None, ()
        except SizingError as error:
            return None, str(error), error.arguments
        except Exception as error:  # noqa: BLE001 - a calculator bug must not take the app down with a traceback
            self.log.error(f"computing {arguments!r} failed: {error!r}")
            return None, f"Could not compute this ({type(error).__name__}: {error}); please report it.", ()

    def finish(self, arguments: dict[str, Any], outcome: Outcome) -> None:
        result, problem, named = outcome
        if result is not None:
            self.computed_from = arguments
        try:
            self._apply(result, problem, named)
        except Exception as error:  # noqa: BLE001 - nor a display bug
            self.log.error(f"showing {arguments!r} failed: {error!r}")
            self.show_problem(
                f"Could not show this result ({type(error).__name__}: {error}); the last good result stays. "
                "Please report it with the inputs above.")

    # ---- tools that take a tenth of a second or more (every GPU type planned, every catalog model sized): off the UI
    # thread, one computation at a time, and only the newest inputs' answer shown
    def compute_later(self, arguments: dict[str, Any]) -> None:
        self._latest = arguments
        if not self.computing:
            self.computing = True
            self.compute_in_thread(arguments)

    @work(thread=True, group="compute")
    def compute_in_thread(self, arguments: dict[str, Any]) -> None:
        outcome = self.attempt(arguments)
        try:
            self.app.call_from_thread(self.computed, arguments, outcome)
        except RuntimeError:  # the app closed meanwhile
            pass

    def computed(self, arguments: dict[str, Any], outcome: Outcome) -> None:
        """Back on the UI thread: shown if the form still asks exactly this, else the newest inputs go next."""
        self.computing = False
        if self._latest is arguments:
            self.finish(arguments, outcome)
        elif self._latest is not None:
            self.compute_later(self._latest)

    @work(thread=True, exclusive=True, group="hub-model")
    def fetch_model(self, model: str) -> None:
        """A Hub model's config, read off the UI thread (seconds on a slow network); then the form recalculates."""
        try:
            self.catalog.resolve_model(model)
        except SizingError as error:
            self._hub_failures[model] = str(error)
        self.app.call_from_thread(self.recalculate)

    def _apply(self, result: ResultT | None, problem: str | None, named: tuple[str, ...] = ()) -> None:
        if problem is not None or result is None:
            self.show_error(self.input_for(named) or self.field_named_in(problem or ""), problem or "no result")
        else:
            self.result, self.result_inputs = result, self.computed_from
            self.show(result)
            self.query_one(".results").remove_class("stale")
        self.post_message(self.Updated())

    def hide_result(self) -> None:
        """The figures on screen belong to a value the form no longer shows: hidden until the next result (the problem
        line atop the results, which stays, says why)."""
        self.query_one(".results").add_class("stale")

    # ---- errors next to their input
    ARGUMENT_INPUTS = {"gpu": ("gpu", "gpus"), "gpus": ("gpus", "gpu"), "model": ("model",)}

    def input_for(self, arguments: tuple[str, ...]) -> str | None:
        """The input a SizingError's arguments name (the structured way; field_named_in reads older messages)."""
        ids = {w.id for w in self.query("Input, Choice, Checkbox") if w.id}
        for argument in arguments:
            for candidate in self.ARGUMENT_INPUTS.get(argument, (argument,)):
                if candidate in ids:
                    return candidate
        return None

    def field_named_in(self, message: str) -> str | None:
        names = [w.id for w in self.query("Input, Choice, Checkbox") if w.id]
        if re.search(r"unknown GPU|GPU name", message):
            return next((n for n in ("gpu", "gpus") if n in names), None)
        if re.search(r"unknown model|model name|exactly one of model", message):
            return "model" if "model" in names else None
        if "unknown provider" in message:
            return "providers" if "providers" in names else None
        body = message.split(": ", 1)[-1]
        first = min(((body.find(n), n) for n in names if re.search(rf"\b{n}\b", body)), default=None)
        return first[1] if first else None

    def on_screen(self, message: str) -> str:
        """A tool's message in the screen's words: the labels instead of argument names, no tool prefix, at most two
        lines (the rest one key away, f9)."""
        self._error_detail = message
        text = re.sub(r"^[a-z_]+: ", "", message)
        for widget in self.query("Input, Choice, Checkbox"):
            label = getattr(widget, "label_text", None)
            if widget.id and label:  # argument names: any with an underscore, a plain word only where it is the subject
                name = re.escape(widget.id)
                pattern = rf"\b{name}\b" if "_" in widget.id else rf"\b{name}\b(?= ?(?:=|must|needs|is not|:))"
                text = re.sub(pattern, label, text)
        for api, words in SCREEN_WORDS.items():
            text = text.replace(api, words)
        if len(text) > SHORT_ERROR:
            cut = max(text.rfind("; ", 0, SHORT_ERROR), text.rfind(". ", 0, SHORT_ERROR), text.rfind(" (", 0, SHORT_ERROR))
            text = (text[:cut] if cut > 40 else text[:SHORT_ERROR]).rstrip(" .;") + " … (f9: detail)"
        return text

    def action_error_detail(self) -> None:
        if self._error_detail:
            self.app.notify(self._error_detail, title="Error detail", timeout=20, markup=False)

    def show_error(self, field_name: str | None, message: str, waiting: bool = False) -> None:
        """Under the input that caused it, else atop the results; the result area says it waits for that input. An
        input's error line is mounted the first time it is needed (fewer widgets, faster start-up) and then only shown
        and hidden."""
        message = self.on_screen(message)
        inputs = self.query(f"#{field_name}") if field_name else None
        self.hide_result()
        if not inputs or field_name is None:
            self.show_problem(message, short=True)
            return
        widget = inputs.first()
        label = label_of(widget, field_name)
        self.show_problem(f"Waiting for {label} to be finished (the result follows)." if waiting else
                          f"No result while {label} is invalid: the reason is under it.", short=True)
        widget.add_class("invalid")
        line = self._error_lines.get(field_name)
        if line is None:
            line = self._error_lines[field_name] = MessageLine(message, id=f"{field_name}-error", classes="error field-error")
            parent = widget.parent
            row = parent if isinstance(parent, Widget) and parent.has_class("pair") else widget  # under a pair: below both
            container = row.parent
            if isinstance(container, Widget):
                container.mount(line, after=row)
        else:
            line.show_message(message)
            line.display = True
        self._flagged.append(widget)

    def show_problem(self, message: str, short: bool = False) -> None:
        """Atop the results: for what no single input caused."""
        self.query_one(f"#{self.id}-problem", Static).update(esc(message if short else self.on_screen(message)))
        self._flagged.append(None)

    def clear_errors(self) -> None:
        """Undo what show_error did (kept in a list: querying the whole pane on every keystroke costs milliseconds)."""
        for widget in self._flagged:
            if widget is None:
                self.query_one(f"#{self.id}-problem", Static).update("")
            else:
                widget.remove_class("invalid")
                self._error_lines[widget.id or ""].display = False
        self._flagged.clear()

    # ---- writing results without needless layout passes (a re-layout costs tens of ms per keystroke)
    def set_text(self, selector: str, content) -> None:
        widget = self.query_one(selector, Static)
        if self._shown.get(selector) == str(content):
            return
        self._shown[selector] = str(content)
        widget.update(content, layout=False)
        width = widget.content_size.width
        if not width or widget.get_content_height(widget.content_size, self.app.size, width) != widget.content_size.height:
            widget.refresh(layout=True)  # the text now takes more or fewer lines

    # ---- reading the form
    def text(self, name: str) -> str | None:
        value = self.query_one(f"#{name}", Input).value.strip()
        return value or None

    def model_or_size(self) -> dict[str, Any]:
        """The model field or the size field (model_fields): exactly one, as the tools take them."""
        model, size = self.text("model"), self.decimal("params_billions")
        if model is not None and size is not None:
            raise FormError("model", "give a model or a size in billions, not both: clear one", also=("params_billions",))
        if model is None and size is None:
            raise FormError("model", "enter a model name or a size in billions")
        return {"model": model, "params_billions": size}

    def whole(self, name: str) -> int | None:
        return self.parsed(name, int, "a whole number")

    def decimal(self, name: str) -> float | None:
        return self.parsed(name, float, "a number")

    def parsed(self, name: str, parse, what: str):
        """The input's number as people type it ('8k', '1,024', '1e3', '60%'), None when empty, or a FormError under
        the input; the input shows the value it read when the text is not already that number."""
        widget = self.query_one(f"#{name}", Input)
        value = widget.value.strip() or None
        echo = ""
        examples = (DURATION_EXAMPLES if name in HOURS_FIELDS else COUNT_EXAMPLES if name in COUNT_FIELDS
                    else "e.g. 8k or 1,024")
        try:
            if value is None:
                return None
            number = read_number(name, value)
            if parse is int and not float(number).is_integer():
                raise ValueError(value)
            echo = "" if value.replace(",", "") in (f"{number:g}", f"{number:.0f}") else shown_as_read(number, name)
            return parse(number)
        except PartialUnit:
            raise FormError(name, f"{label_of(widget, name)}: finish the unit (min, h, day, week, month = 730 h, year)",
                            waiting=True) from None
        except ValueError:
            raise FormError(name, f"{label_of(widget, name)}: enter {what}, {examples} (got {quoted(value)})") from None
        finally:
            if isinstance(widget, FormInput):
                widget.echo = echo

    def selected(self, name: str) -> str | None:
        value = self.query_one(f"#{name}", Choice).value
        return None if value == DEFAULT_LABELS.get(name, TOOL_DEFAULT) else value

    def ticked(self, name: str) -> bool:
        return self.query_one(f"#{name}", Checkbox).value

    @staticmethod
    def given(**values: Any) -> dict[str, Any]:
        """Only what the user filled in: empty inputs fall back to the tool's own defaults."""
        return {key: value for key, value in values.items() if value is not None}

    # ---- export
    def markdown(self) -> str | None:
        return as_markdown(self.TITLE, self.result, self.result_inputs, self.catalog.describe()) if self.result else None

    def json(self) -> str | None:
        return as_json(self.result, self.result_inputs, self.catalog.describe()) if self.result else None
