"""Driving the TUI as a person would: focus an input, clear it, type, let the worker finish.

Queries are scoped to the tab on screen: several tabs have an input of the same name (gpu, model).
Waits are on conditions (the app has handled what was sent, no worker runs), not fixed sleeps: Pilot.press idles at
least 40 ms after every key, which was most of the suite's time on 2 cores.
"""
import asyncio
import re

from textual import events
from textual.widgets import Input, Static

from gpusizer.tui.app import GpusizerApp
from gpusizer.tui.choice import Choice
from gpusizer.tui.panes.base import ToolPane


async def settle(pilot) -> None:
    """Until no worker runs and no pane computes off the UI thread (a slow tool's answer may start the next one), and
    the screen is painted."""
    for _ in range(100):
        await pilot.pause()
        if not any(worker.is_running for worker in pilot.app.workers) and not any(
                pane.computing for pane in pilot.app.query(ToolPane)):
            return
        await pilot.app.workers.wait_for_complete()


async def handled(pilot) -> None:
    """Until the app, the screen and the focused widget have handled every message sent before this call (a key goes
    to the app, which hands it to the focused widget)."""
    for pump in (pilot.app, pilot.app.screen, pilot.app.focused or pilot.app.screen):
        done = asyncio.Event()
        if pump.call_later(done.set):
            await done.wait()


async def press(pilot, *keys: str) -> None:
    """Keys one at a time as the terminal sends them, each handled (its recalculation done) before the next."""
    for key in keys:
        burst(pilot, key)
        await handled(pilot)


async def type_into(pilot, selector: str, text: str) -> None:
    """Select the input's text with keys and paste over it, as the terminal sends a paste: one event, one new answer
    (key by key, a recalculation per character, is what test_tui_entry checks, with no key lost)."""
    widget = pilot.app.active_pane.query_one(selector, Input)
    widget.focus()
    await press(pilot, "home", "shift+end")
    if text:
        event = events.Paste(text)
        event.set_sender(pilot.app)
        pilot.app._driver.send_message(event)
    elif widget.value:
        await press(pilot, "backspace")
    await settle(pilot)


async def until(pilot, condition, seconds: float = 10.0):
    """Pauses, each until the app is idle, until condition() holds (its value is returned) or the time is up (the
    last value is returned for the test's assert): a wait on what the test looks for, not a fixed sleep."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not (value := condition()) and asyncio.get_running_loop().time() < deadline:
        await pilot.pause()
    return value


def screen_text(app: GpusizerApp) -> str:
    """The screen as a person sees it, one line per row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def open_tab(pilot, name: str) -> None:
    """The tab on screen as its key opens it, its pane built and its first answer shown."""
    pilot.app.action_open(name)
    await settle(pilot)


async def choose(pilot, selector: str, value: str) -> None:
    """Focus the choice and step through it with the right arrow, as a person would, until it shows `value`."""
    widget = pilot.app.active_pane.query_one(selector, Choice)
    assert value in widget.options, f"{value!r} is not offered by {selector}: {widget.options}"
    widget.focus()
    for _ in widget.options:
        if widget.value == value:
            break
        await press(pilot, "right")
    await settle(pilot)


def shown(app: GpusizerApp, selector: str) -> str:
    return str(app.active_pane.query_one(selector, Static).render())


def table_rows(app: GpusizerApp, selector: str) -> list[list[str]]:
    table = app.active_pane.query_one(selector)
    return [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]


def error_under(app: GpusizerApp, field: str) -> str:
    """The error shown under an input (its text, before it is wrapped into the column), or "" when none is shown."""
    lines = app.active_pane.query(f"#{field}-error")
    return lines.first().message if lines and lines.first().display else ""


def text_table_rows(app: GpusizerApp, selector: str) -> list[list[str]]:
    """The rows of a text table on screen (header left out): its cells are two or more spaces apart."""
    return [re.split(r"\s{2,}", line.strip()) for line in shown(app, selector).splitlines()[1:] if line.strip()]


def burst(pilot, *keys: str) -> None:
    """Keys as a fast typist or a paste sends them: all posted at once, as the terminal driver does when they arrive in
    one read, with nothing awaited in between (pilot.press waits for the app to go idle after every key)."""
    import unicodedata

    from textual import events
    from textual.app import _character_to_key, _get_unicode_name_from_key
    from textual.keys import REPLACED_KEYS

    app = pilot.app
    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        try:
            character = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
        except KeyError:
            character = key if len(key) == 1 else None
        event = events.Key(key, character)
        event.set_sender(app)
        app._driver.send_message(event)
