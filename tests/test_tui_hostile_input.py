"""Whatever a person types or pastes, the app keeps running and shows an error or a result (markup, control
characters, emoji, 10 KB pastes) in every input of every tab."""
import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Input, Static
from tui_helpers import open_tab, press, settle

from gpusizer.catalog import load_catalog
from gpusizer.tui.app import TABS, GpusizerApp

CATALOG = load_catalog(include_user=False)
HOSTILE = ["h100 [/i]", "[bold red]x[link=file:///etc/passwd]", "\x1b[31mred\x00\x07\r", "🦙🔥 ㄱ Qwen/Qwen3-[8B]",
           "1e308", "nan", "x" * 10_000]
hostile_text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40),
                         st.text(alphabet="[]/\\=#:bi ", max_size=30), st.text(min_size=2000, max_size=4000))
# one of each kind for the README's command (a closing tag with no opening one, control characters, emoji and CJK,
# "nan", 10 KB); the slow suite (.ci/run) pastes them all, and draws all the random examples, not a third
USUAL = [HOSTILE[0], HOSTILE[2], HOSTILE[3], HOSTILE[5], HOSTILE[6]]
QUICK_SHARE = 3


def shows_something(pane) -> bool:
    """A result, an error under an input, or a problem line: never a blank or a crash."""
    if getattr(pane, "result", None) is not None:
        return True
    return any(str(s.render()).strip() for s in pane.query(".error")) or bool(pane.query(Static))


async def drive(tabs: list[str], texts: list[str]) -> None:
    """One app, each tab opened in turn as its key opens it, every text pasted into all its inputs."""
    async with GpusizerApp(tab=tabs[0], catalog=CATALOG).run_test(size=(100, 30)) as pilot:
        for tab in tabs:
            await open_tab(pilot, tab)
            pane = pilot.app.active_pane
            for text in texts:
                fields = list(pane.query(Input))
                for field in fields:
                    field.value = text  # a paste into every input
                await settle(pilot)
                fields[0].focus()
                await press(pilot, "enter" if tab == "ask" else "end", "[", "/", "]")  # and a few keys typed after it
                await settle(pilot)
                assert pilot.app.is_running, (tab, text[:40])
                assert shows_something(pane), (tab, text[:40])


@pytest.mark.parametrize("depth", ["quick", pytest.param("deep", marks=pytest.mark.slow)])
def test_every_tab_survives_the_usual_hostile_strings(depth):
    asyncio.run(drive(list(TABS), USUAL if depth == "quick" else HOSTILE))


@pytest.mark.parametrize("depth", ["quick", pytest.param("deep", marks=pytest.mark.slow)])
def test_random_text_in_any_input_leaves_the_app_running(depth):
    @settings(max_examples=6 // (QUICK_SHARE if depth == "quick" else 1), deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.sampled_from([t for t in TABS if t != "ask"]), min_size=1, max_size=3, unique=True),
           st.lists(hostile_text, min_size=1, max_size=3))
    def survives(tabs, texts):
        asyncio.run(drive(tabs, texts))

    survives()
