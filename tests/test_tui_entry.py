"""Number fields read what people type (8k, 32K, 1,024, 1e3), conflicting inputs say so under both, and no keystroke
is lost however fast it comes (issue #16)."""
import pytest
from textual import events
from textual.widgets import Input
from tui_helpers import error_under, open_tab, settle, type_into, until

from gpusizer.tools import estimate_vram
from gpusizer.tui.app import GpusizerApp
from gpusizer.tui.form_input import FormInput
from gpusizer.tui.number_entry import read_number


@pytest.mark.parametrize("field, text, value", [
    ("seq_len", "8k", 8192), ("seq_len", "32K", 32768), ("seq_len", "128k", 131072), ("prompt_tokens", "1,024", 1024),
    ("batch_size", "1e3", 1000), ("concurrent_users", "2k", 2000), ("hours", "1.5k", 1500), ("purchase_usd_per_gpu", "$25,000", 25000),
    ("utilization", "60%", 0.6), ("egress_gb", "2.5m", 2_500_000),
])
def test_what_people_type_is_the_number_they_mean(field, text, value):
    assert read_number(field, text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["eight", "8kk", "1e999", "--3", "8 k tokens", "x" * 100])
def test_what_is_no_number_is_refused(text):
    with pytest.raises(ValueError):
        read_number("seq_len", text)


async def test_seq_len_8k_is_8192_tokens_and_the_field_shows_what_it_read(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#seq_len", "8k")
        pane = pilot.app.active_pane
        assert pane.arguments()["seq_len"] == 8192 and not error_under(pilot.app, "seq_len")
        assert pane.query_one("#seq_len", FormInput).echo == "= 8,192"  # drawn dim beside the text
        expected = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", seq_len=8192)
        assert pane.result.total_bytes == expected.total_bytes


async def test_a_half_number_in_a_whole_number_field_is_named_with_its_label(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#num_gpus", "1.5")
        assert error_under(pilot.app, "num_gpus").startswith("GPUs: enter a whole number")


async def test_a_model_and_a_size_together_are_a_conflict_named_under_both(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#params_billions", "7")
        for field in ("model", "params_billions"):
            assert "not both" in error_under(pilot.app, field), field


async def test_long_messages_are_cut_to_two_lines_and_f9_shows_the_whole(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#model", "x" * 60)
        shown = error_under(pilot.app, "model")
        assert len(shown) <= 170 and "gpusizer://" not in shown
        await pilot.press("f9")
        await pilot.pause()
        assert any("did you mean" in str(n.message) for n in pilot.app._notifications)


def number_inputs(pane):
    return [w for w in pane.query(Input) if w.id and w.id not in ("model", "gpu", "gpus", "question", "providers", "region",
                                                                       "jurisdiction", "catalog-search")
            and not (w.placeholder or "").startswith("e.g. rtx")]


@pytest.mark.parametrize("depth", ["quick", pytest.param("deep", marks=pytest.mark.slow)])
async def test_no_keystroke_is_lost_typing_with_no_pause_into_every_number_field(catalog, depth):
    """Every field takes keys through the same FormInput; what differs is the tab behind it (a sync calculator or one in
    a thread), so the README's command types into the first number field of each tab and the slow suite into all."""
    async with GpusizerApp(catalog=catalog).run_test(size=(80, 24)) as pilot:
        for tab in ["estimate", "compare", "cloud", "rent", "serving", "speed", "training", "biggest"]:
            await open_tab(pilot, tab)
            fields = number_inputs(pilot.app.active_pane)
            assert fields, tab
            for widget in fields if depth == "deep" else fields[:1]:
                widget.focus()
                await pilot.press("end", "ctrl+u")
                for character in "1,024":  # every key posted at once: nothing awaits between them
                    pilot.app.post_message(events.Key(character, character))
                await settle(pilot)
                assert widget.value == "1,024", (tab, widget.id, widget.value)


async def test_a_hub_id_is_read_off_the_ui_thread_with_a_line_saying_so(catalog, monkeypatch, tmp_path):
    """The model field takes a Hugging Face id: while its config comes, the form says so; then the estimate shows."""
    import json
    import threading
    from pathlib import Path

    from gpusizer.catalog import model_sources

    monkeypatch.setenv("GPUSIZER_CACHE_DIR", str(tmp_path))
    config = json.loads((Path(__file__).parent / "data" / "configs" / "Qwen3-32B" / "config.json").read_text())
    release = threading.Event()

    def slow_fetch(repo_id):
        release.wait(10)
        return {"config": config, "checkpoint": None, "fetched": "2026-11-24"}

    monkeypatch.setattr(model_sources, "fetch_from_hub", slow_fetch)
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#model", "someorg/my-finetune-32b")
        problem = str(pilot.app.active_pane.query_one("#estimate-pane-problem").render())
        assert "Reading someorg/my-finetune-32b's config.json from the Hugging Face Hub" in problem
        release.set()  # the fetch starts once typing has paused (0.6 s), then the estimate follows
        await until(pilot, lambda: pilot.app.active_pane.result.model == "someorg/my-finetune-32b")
        assert pilot.app.active_pane.result.model == "someorg/my-finetune-32b"
