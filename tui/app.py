"""The gpusizer terminal app: one tab per tool, a catalog browser and the Ask pane."""
from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol, cast, runtime_checkable

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import Hit, Hits, Provider
from textual.widgets import Header, Input, Static, TabbedContent, TabPane

from .footer import SteadyFooter
from .safe_text import esc

if TYPE_CHECKING:  # the catalog (pydantic models and data files) loads after the first frame: see GpusizerApp.catalog
    from textual.message import Message
    from textual.pilot import Pilot
    from textual.widget import AwaitMount, Widget

    from gpusizer.catalog import Catalog

TABS = {  # --tab name: (label, module under gpusizer.tui.panes, pane class); imported on first use
    "estimate": ("Estimate", "estimate", "EstimatePane"),
    "compare": ("Compare", "compare", "ComparePane"),
    "cloud": ("Cloud cost", "cloud", "CloudPane"),
    "rent": ("Rent vs buy", "rent", "RentPane"),
    "serving": ("Serving", "serving", "ServingPane"),
    "catalog": ("Catalog", "catalog_browser", "CatalogPane"),
    "ask": ("Ask", "ask", "AskPane"),
    "speed": ("Speed", "speed", "SpeedPane"),
    "training": ("Training", "training", "TrainingPane"),
    "biggest": ("Biggest", "biggest", "BiggestPane"),
}

# Each tab's key. f1-f7 stay where people learnt them; f8-f10 already apply a hint, show an error in full and list the
# keys, and f11/f12 are taken by many terminals (full screen, drop-down) and by macOS, so the later tabs take control
# keys that text fields leave free, named for the tab where a letter is free: ^f fast (Speed), ^g GPU-hours
# (Training), ^b Biggest.
TAB_KEYS = {"estimate": "f1", "compare": "f2", "cloud": "f3", "rent": "f4", "serving": "f5", "catalog": "f6", "ask": "f7",
            "speed": "ctrl+f", "training": "ctrl+g", "biggest": "ctrl+b"}

# the footer's word for each tab it shows (the tabs show their full names): every key has to fit in 80 columns, so the
# later tabs are left to the tab bar, f10 and the command palette
FOOTER_WORDS = {"estimate": "Fit", "compare": "Cmp", "cloud": "Cost", "rent": "Buy", "serving": "Srv", "catalog": "Cat",
                "ask": "Ask"}


def pane_class(name: str):
    _, module, cls = TABS[name]
    return getattr(import_module(f"gpusizer.tui.panes.{module}"), cls)


class ScreenCommands(Provider):
    """Command palette entries: open each tab, export the current result."""

    async def search(self, query: str) -> Hits:
        app = cast(GpusizerApp, self.app)
        matcher = self.matcher(query)
        commands: list[tuple[str, Callable[[], object], str]] = [  # (command, what it runs, its key: the line under it)
            (f"Open {label}", partial(app.action_open, name), TAB_KEYS[name]) for name, (label, *_) in TABS.items()]
        commands += [("Export result as Markdown", app.action_export_markdown, "ctrl+s"),
                     ("Export result as JSON", app.action_export_json, "ctrl+j"),
                     ("Toggle light / dark theme", app.action_toggle_theme, "ctrl+t")]
        for text, callback, key in commands:
            score = matcher.match(text)
            if score > 0:  # the help line is drawn under the command: the command again read as a duplicate
                yield Hit(score, matcher.highlight(text), callback, text=text, help=f"key: {key}")


@runtime_checkable
class AnswersFromCatalog(Protocol):
    catalog: Catalog


class Exports(Protocol):
    """What every tab's pane gives the export keys: its result as text, None before there is one."""

    def markdown(self) -> str | None: ...

    def json(self) -> str | None: ...


class PaneMount(NamedTuple):
    pane: Widget
    mounting: AwaitMount  # awaited: the pane and its widgets are composed and mounted

    def __await__(self):
        return self.mounting.__await__()


class GpusizerApp(App):
    TITLE = "gpusizer"
    SUB_TITLE = "will it fit, where, and what will it cost"
    CSS_PATH = Path(__file__).with_name("gpusizer.tcss")  # absolute, so subclasses defined elsewhere still find it
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        *[Binding(TAB_KEYS[name], f"open('{name}')", FOOTER_WORDS.get(name, label), show=name in FOOTER_WORDS,
                  tooltip=f"open the {label} tab") for name, (label, *_) in TABS.items()],
        # Tab and shift+tab move the focus as soon as the app reads them: a burst of keys (fast typing, a paste, a
        # slow machine) is otherwise delivered whole to the field that had the focus, Tabs included, so the digits
        # meant for the next fields landed in the first one (no description: the keys screen lists them once)
        Binding("tab", "next_field('tab')", "", show=False, priority=True),
        Binding("shift+tab", "next_field('shift+tab')", "", show=False, priority=True),
        Binding("ctrl+s", "export_markdown", "md", tooltip="export the result as Markdown"),
        Binding("ctrl+j", "export_json", "JSON", tooltip="export the result as JSON"),
        # listed by f10, not in the footer: every key the footer shows has to fit 80 columns
        Binding("ctrl+t", "toggle_theme", "Theme", show=False, tooltip="toggle light and dark"),
        Binding("f10", "keys", "Keys", tooltip="this list of keys (also ? outside a text field)"),
        Binding("question_mark", "keys", "Keys", show=False),
    ]

    painted = False  # the first frame is on screen: the panes may be built

    def __init__(self, tab: str = "estimate", catalog: Catalog | None = None):
        super().__init__()
        self.initial_tab = tab
        self._catalog = catalog
        self.first_tab_open = asyncio.Event()

    @property
    def catalog(self) -> Catalog:
        """The catalog the tabs answer from, read on first use (after the first frame, unless one was given)."""
        return self.read_catalog()

    def read_catalog(self) -> Catalog:
        if self._catalog is None:
            from gpusizer.catalog import load_catalog

            self._catalog = load_catalog()
        return self._catalog

    def compose(self) -> ComposeResult:
        """The tabs, the keys and a line saying the tab is on its way: every pane is built once the frame is painted
        (the first one then reads the catalog and imports its tool), so the window fills at once."""
        yield Header()
        with TabbedContent(initial=self.initial_tab, id="tabs"):
            for name, (label, *_) in TABS.items():
                with TabPane(label, id=name):
                    if name == self.initial_tab:
                        yield Static(f"Opening {label} …", id="opening", classes="notes")
        yield SteadyFooter(compact=True, show_command_palette=False)  # ctrl+p still opens it; f10 lists it

    def on_mount(self) -> None:
        self.call_after_refresh(self.open_first_tab)

    async def open_first_tab(self) -> None:
        """Once the first frame is painted: the catalog, then the tab on screen (its tool's import and first answer)."""
        from gpusizer.catalog import SizingError

        try:
            self.painted = True
            self.read_catalog()
            await self.query("#opening").remove()
            name = self.query_one("#tabs", TabbedContent).active or self.initial_tab
            if not self.query(f"#{name}-pane"):  # (unless a key opened it already)
                await self.build_pane(name)
            self.set_timer(1.0, self.freeze_start_up_objects)
        except SizingError as error:  # a user's catalog row that does not validate: named, no traceback
            from rich.text import Text

            self.exit(return_code=2, message=Text(f"gpusizer: {error}"))
        finally:
            self.first_tab_open.set()

    @asynccontextmanager
    async def run_test(self, *, headless: bool = True, size: tuple[int, int] | None = (80, 24), tooltips: bool = False,
                       notifications: bool = False, message_hook: Callable[[Message], None] | None = None
                       ) -> AsyncGenerator[Pilot, None]:
        """Textual's, with the pilot handed over once the first tab is open (as a person sees it, a moment after the
        first frame): a test starts from the form and its first answer."""
        async with super().run_test(headless=headless, size=size, tooltips=tooltips, notifications=notifications,
                                    message_hook=message_hook) as pilot:
            await asyncio.wait_for(self.first_tab_open.wait(), timeout=30)
            await pilot.pause()
            yield pilot

    @staticmethod
    def freeze_start_up_objects() -> None:
        """A second after the first tab opened (not in the way of its first answer): collect once, then let the garbage collector
        skip everything start-up built (modules, catalog, widgets). Its full collections no longer walk them, which
        took the slowest keystrokes on the 2-core machine from 70-90 ms to 30-40 ms."""
        gc.collect()
        gc.freeze()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if self.painted:  # before the first frame, open_first_tab builds the tab on screen
            self.ensure_pane(event.pane.id or "estimate")

    def ensure_pane(self, name: str) -> Widget:
        """The tab's pane, built on first use."""
        found = self.query(f"#{name}-pane")
        return found.first() if found else self.build_pane(name).pane

    def build_pane(self, name: str) -> PaneMount:
        pane = pane_class(name)(self.catalog, id=f"{name}-pane")
        mounting = self.query_one(f"TabPane#{name}").mount(pane)
        pane.call_after_refresh(self.focus_first_input, name)
        return PaneMount(pane, mounting)

    def action_keys(self) -> None:
        """Every key that works here, the tab's own included (the footer at 80 columns shows f1-f7 in a word each)."""
        from .keys_screen import KeysScreen, key_rows

        tab = self.query_one("#tabs", TabbedContent).active
        self.push_screen(KeysScreen(key_rows(self.screen.active_bindings), TABS[tab][0]))

    def use_catalog(self, catalog: Catalog) -> None:
        """After a price update: every tab, built or not, answers from the new catalog."""
        self._catalog = catalog
        for name in TABS:
            for pane in self.query(f"#{name}-pane"):
                if isinstance(pane, AnswersFromCatalog):
                    pane.catalog = catalog

    def focus_first_input(self, name: str) -> None:
        inputs = self.query_one(f"#{name}-pane").query(Input)
        if inputs:
            inputs.first().focus()

    def action_open(self, name: str) -> None:
        self.query_one("#tabs", TabbedContent).active = name
        self.ensure_pane(name)
        self.focus_first_input(name)

    @property
    def active_pane(self) -> Exports:
        return cast(Exports, self.ensure_pane(self.query_one("#tabs", TabbedContent).active))

    def action_export_markdown(self) -> None:
        self.export(self.active_pane.markdown(), "md")

    def action_export_json(self) -> None:
        self.export(self.active_pane.json(), "json")

    def export(self, text: str | None, suffix: str) -> None:
        if not text:
            self.notify("Nothing to export on this tab yet.", severity="warning")
            return
        from .export import write_export

        self.copy_to_clipboard(text)
        path = write_export(self.query_one("#tabs", TabbedContent).active, text, suffix)
        self.notify(f"Copied to the clipboard (where the terminal allows) and saved to\n{esc(str(path))}", title="Exported",
                    timeout=15)
        self.last_export = path

    async def action_next_field(self, key: str) -> None:
        """Tab / shift+tab at once: the focused widget's own use of the key (the Catalog search goes to its rows),
        else the next / previous field."""
        focused = self.focused
        own = focused._bindings.key_to_bindings.get(key, []) if focused is not None else []
        if focused is not None and own:
            await focused.run_action(own[0].action)
        elif key == "tab":
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"
