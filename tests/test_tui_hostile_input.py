"""Whatever a person types or pastes, the app keeps running and shows an error or a result (markup, control
characters, emoji, 10 KB pastes) in every input of every tab."""
import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Input, Static

from gpusizer.catalog import load_catalog
from gpusizer.tui.app import TABS, GpusizerApp

CATALOG = load_catalog(include_user=False)
HOSTILE = ["h100 [/i]", "[bold red]x[link=file:///etc/passwd]", "\x1b[31mred\x00\x07\r", "🦙🔥 ㄱ Qwen/Qwen3-[8B]",
           "1e308", "nan", "x" * 10_000]
hostile_text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40),
                         st.text(alphabet="[]/\\=#:bi ", max_size=30), st.text(min_size=2000, max_size=4000))


def shows_something(pane) -> bool:
    """A result, an error under an input, or a problem line: never a blank or a crash."""
    if getattr(pane, "result", None) is not None:
        return True
    return any(str(s.render()).strip() for s in pane.query(".error")) or bool(pane.query(Static))


async def drive(tab: str, texts: list[str]) -> None:
    async with GpusizerApp(tab=tab, catalog=CATALOG).run_test(size=(100, 30)) as pilot:
        pane = pilot.app.active_pane
        for text in texts:
            fields = list(pane.query(Input))
            for field in fields:
                field.value = text  # a paste into every input
            await pilot.pause()
            fields[0].focus()
            await pilot.press("enter" if tab == "ask" else "end", "[", "/", "]")  # and a few keys typed after it
            await pilot.pause()
            assert pilot.app.is_running
            assert shows_something(pane)


@pytest.mark.parametrize("tab", list(TABS))
def test_every_tab_survives_the_usual_hostile_strings(tab):
    asyncio.run(drive(tab, HOSTILE))


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([t for t in TABS if t != "ask"]), st.lists(hostile_text, min_size=1, max_size=3))
def test_random_text_in_any_input_leaves_the_app_running(tab, texts):
    asyncio.run(drive(tab, texts))
