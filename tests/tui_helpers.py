"""Driving the TUI as a person would: focus an input, clear it, type, let the worker finish.

Queries are scoped to the tab on screen: several tabs have an input of the same name (gpu, model).
"""
from textual.widgets import Input, Select, Static

from gpusizer.tui.app import GpusizerApp


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def type_into(pilot, selector: str, text: str) -> None:
    widget = pilot.app.active_pane.query_one(selector, Input)
    widget.focus()
    await pilot.press("end", "ctrl+u", *list(text))
    await settle(pilot)


async def choose(pilot, selector: str, value: str) -> None:
    pilot.app.active_pane.query_one(selector, Select).value = value
    await settle(pilot)


def shown(app: GpusizerApp, selector: str) -> str:
    return str(app.active_pane.query_one(selector, Static).render())


def table_rows(app: GpusizerApp, selector: str) -> list[list[str]]:
    table = app.active_pane.query_one(selector)
    return [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]
