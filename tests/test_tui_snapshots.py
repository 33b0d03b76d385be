"""Snapshots of key screens at 80x24 (pytest-textual-snapshot; `pytest --snapshot-update` re-records them).

Rendering differs between Textual releases, so the snapshots are compared only on the release they were
recorded with; on another one they are skipped with that reason.
"""
import pytest
import textual
from tui_helpers import choose, settle, type_into

from gpusizer.tui.app import GpusizerApp

RECORDED_WITH = "8.2.8"
pytestmark = pytest.mark.skipif(textual.__version__ != RECORDED_WITH,
                                reason=f"snapshots were recorded with Textual {RECORDED_WITH}, this is {textual.__version__}")


async def still(pilot) -> None:
    """No focused input: a blinking cursor or a pending type-ahead suggestion would make the picture flaky."""
    await settle(pilot)
    pilot.app.set_focus(None)
    await pilot.pause()


def test_estimate_screen_at_80x24(snap_compare, catalog):
    async def qlora_on_a_4090(pilot):
        await settle(pilot)
        await choose(pilot, "#workload", "training")
        await choose(pilot, "#method", "qlora")
        await type_into(pilot, "#gpu", "rtx 4090")
        await still(pilot)

    assert snap_compare(GpusizerApp(catalog=catalog), terminal_size=(80, 24), run_before=qlora_on_a_4090)


def test_compare_screen(snap_compare, catalog):
    assert snap_compare(GpusizerApp(tab="compare", catalog=catalog), terminal_size=(120, 32), run_before=still)


def test_rent_vs_buy_screen_light_theme(snap_compare, catalog):
    async def light(pilot):
        await settle(pilot)
        await pilot.press("ctrl+t")
        await type_into(pilot, "#purchase_usd_per_gpu", "30000")
        await still(pilot)

    assert snap_compare(GpusizerApp(tab="rent", catalog=catalog), terminal_size=(120, 40), run_before=light)


def test_speed_screen_at_80x24(snap_compare, catalog):
    async def qwen_32b_q4_k_m_on_a_4090(pilot):
        await settle(pilot)
        await type_into(pilot, "#model", "qwen2.5 32b")
        await choose(pilot, "#weights_dtype", "q4_k_m")
        await choose(pilot, "#engine", "llama_cpp")
        await still(pilot)

    assert snap_compare(GpusizerApp(tab="speed", catalog=catalog), terminal_size=(80, 24), run_before=qwen_32b_q4_k_m_on_a_4090)
