"""What a newcomer met at 80x24 (issue #37): durations in the Hours field, no stale figure beside an error, the value a
field read shown beside it, a blank box when unticked, every footer key on screen, the catalog's search and table."""
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.widgets import Input
from tui_helpers import burst, choose, error_under, open_tab, press, screen_text, settle, shown, type_into, until

from gpusizer.tools import cloud_cost
from gpusizer.tools.figures import usd
from gpusizer.tui.app import TABS, GpusizerApp
from gpusizer.tui.number_entry import PartialUnit, read_number
from gpusizer.tui.text_table import dollars
from gpusizer.tui.wrapping import wrap_message

SIZE = (80, 24)
QUICK_SHARE = 5  # the README's command draws a fifth of the wrapping examples; the slow suite (.ci/run) draws them all


def row_with(app: GpusizerApp, text: str) -> str:
    return next(line for line in screen_text(app).splitlines() if text in line)


@pytest.mark.parametrize("text, hours", [("1 month", 730), ("2 weeks", 336), ("3 days", 72), ("36h", 36), ("1 mo", 730),
                                         ("1 week 2 days", 216), ("90 min", 1.5), ("1 year", 8760), ("1.5k", 1500)])
def test_hours_are_read_the_way_people_write_durations(text, hours):
    assert read_number("hours", text) == pytest.approx(hours)


@pytest.mark.parametrize("text", ["1 m", "1m", "1 mon", "1 wee", "1 week 2"])
def test_a_unit_still_being_typed_is_neither_a_number_nor_a_mistake(text):
    with pytest.raises(PartialUnit):
        read_number("hours", text)


def test_m_still_means_million_outside_an_hours_field():
    assert read_number("egress_gb", "2.5m") == 2_500_000


async def test_typing_one_month_in_hours_reads_730_hours(catalog):
    async with GpusizerApp(tab="cloud", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#hours", "1 month")
        pane = pilot.app.active_pane
        assert pane.arguments()["hours"] == 730 and not error_under(pilot.app, "hours")
        expected = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=730)
        summary = shown(pilot.app, "#cloud-summary")
        assert usd(expected.offers[0].total_usd) in summary and "730 h" in summary
        assert "= 730 h" in row_with(pilot.app, "1 month")  # the field says how it read the words


async def test_half_way_through_one_month_the_old_total_gives_way_to_waiting(catalog):
    async with GpusizerApp(tab="cloud", catalog=catalog).run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=24).offers[0].total_usd
        assert usd(before) in screen_text(pilot.app)
        await type_into(pilot, "#hours", "1 m")  # on the way to "1 month": not a million hours
        screen = screen_text(pilot.app)
        assert "Waiting for Hours" in screen and "Cheapest" not in screen and usd(before) not in screen
        assert "$6,840,000" not in screen
        pane = pilot.app.active_pane
        for key in "onth":
            await pilot.press(key)
        await settle(pilot)
        assert "Cheapest" in screen_text(pilot.app) and "730 h" in shown(pilot.app, "#cloud-summary")
        assert pane.query_one("#hours", Input).value == "1 month"


async def test_an_hours_value_that_is_no_duration_shows_no_result_beside_its_error(catalog):
    async with GpusizerApp(tab="cloud", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#hours", "1 fortnight")
        assert "1 month (= 730 h)" in error_under(pilot.app, "hours")
        assert "No result while Hours (wall-clock) is invalid" in shown(pilot.app, "#cloud-pane-problem")
        assert "Cheapest" not in screen_text(pilot.app)
        await type_into(pilot, "#hours", "48")
        assert "Cheapest" in screen_text(pilot.app) and "48 h" in shown(pilot.app, "#cloud-summary")


async def test_typing_8k_in_seq_len_shows_8192_beside_it_at_80_columns(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#seq_len", "8k")
        pilot.app.set_focus(None)
        await pilot.pause()
        assert "= 8,192" in row_with(pilot.app, "8k")
        assert pilot.app.active_pane.query_one("#seq_len", Input).echo == "= 8,192"
        await type_into(pilot, "#seq_len", "4096")  # already the number: nothing to repeat
        assert "= " not in row_with(pilot.app, "4096")


async def test_an_unticked_box_is_blank_and_a_ticked_one_shows_a_tick(catalog):
    async with GpusizerApp(tab="cloud", catalog=catalog).run_test(size=SIZE) as pilot:
        pane = pilot.app.active_pane
        pane.query_one("#single_instance").scroll_visible(animate=False)
        await settle(pilot)
        off = row_with(pilot.app, "All GPUs in one machine")
        assert "X" not in off and "✓" not in off
        pane.query_one("#single_instance").focus()
        await pilot.press("space")
        await settle(pilot)
        assert "✓" in row_with(pilot.app, "All GPUs in one machine")


async def test_every_footer_key_stays_on_screen_at_80_columns_whatever_has_focus(catalog):
    def footer() -> str:
        return screen_text(pilot.app).splitlines()[-1]

    async with GpusizerApp(catalog=catalog).run_test(size=SIZE) as pilot:
        for tab in TABS:  # each tab opened in turn, as its key opens it
            await open_tab(pilot, tab)
            for widget in [w for w in pilot.app.active_pane.query("*") if w.focusable]:
                widget.focus()
                # the footer is rebuilt for the focused widget's keys: read it once it is drawn again
                await until(pilot, lambda: "f10 Keys" in footer())
                line = footer()
                assert "^j JSON" in line and "f10 Keys" in line, (tab, widget, line)


async def test_down_from_the_catalog_search_moves_to_the_rows(catalog):
    async with GpusizerApp(tab="catalog", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#catalog-search", "h100")
        await pilot.press("down")
        await settle(pilot)
        assert pilot.app.focused is pilot.app.active_pane.query_one("#catalog-table")


async def test_tab_then_enter_in_the_catalog_search_shows_a_row_and_updates_nothing(catalog):
    class Counting:
        label = "a source that counts"
        calls = 0

        def latest(self, file):
            Counting.calls += 1
            raise OSError("not expected")

        def text(self, file, commit):
            raise OSError("not expected")

    async with GpusizerApp(tab="catalog", catalog=catalog).run_test(size=SIZE) as pilot:
        pane = pilot.app.active_pane
        pane.price_source = Counting()
        await settle(pilot)
        await pilot.press("tab")
        assert pilot.app.focused is pane.query_one("#catalog-table")
        await pilot.press("enter")
        await settle(pilot)
        assert Counting.calls == 0 and "gpu_id: " in shown(pilot.app, "#catalog-detail")


async def test_an_offline_price_update_first_says_the_host_was_not_reached(catalog):
    class Offline:
        label = "github.com/skypilot-org/skypilot-catalog"

        def latest(self, file):
            raise OSError("<urlopen error [Errno -3] Temporary failure in name resolution>")

        def text(self, file, commit):
            raise OSError("unreachable")

    async with GpusizerApp(tab="catalog", catalog=catalog).run_test(size=SIZE) as pilot:
        pilot.app.active_pane.price_source = Offline()
        await pilot.press("ctrl+r")
        await settle(pilot)
        report = shown(pilot.app, "#catalog-detail")
        assert report.startswith("Prices not updated: github.com/skypilot-org/skypilot-catalog could not be reached")
        assert "Read 0 price files" not in report and "New: 0" not in report


async def test_the_catalog_table_fills_the_screen_at_80x24(catalog):
    async with GpusizerApp(tab="catalog", catalog=catalog).run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = pilot.app.active_pane.query_one("#catalog-table")
        assert table.size.height >= 14  # the header, twelve rows and more; not five above blank lines
        assert table.region.bottom >= SIZE[1] - 4


async def test_a_long_model_id_shows_its_start_once_the_field_is_left(catalog):
    async with GpusizerApp(tab="serving", catalog=catalog).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        assert "meta-llama/Llama-3.1-8B" in screen_text(pilot.app)


async def test_every_price_in_the_offers_table_has_the_same_number_of_decimals_as_its_column(catalog):
    async with GpusizerApp(tab="cloud", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#gpu", "l4")
        table = pilot.app.active_pane.query_one("#offers")
        for column in (2, 3, 4, 8):  # total, all-in, $/GPU-h, $/h (instance)
            cells = [str(table.get_row_at(index)[column]) for index in range(table.row_count)]
            assert len({len(text.rpartition(".")[2]) for text in cells}) == 1, cells


async def test_the_command_palette_offers_open_serving_once(catalog):
    async with GpusizerApp(tab="cloud", catalog=catalog).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await press(pilot, *"serving")
        await until(pilot, lambda: "Open Serving" in screen_text(pilot.app))  # the palette searches in a worker
        await pilot.pause()
        assert screen_text(pilot.app).count("Open Serving") == 1


async def test_the_rent_charts_read_in_dollars_and_years_not_raw_numbers(catalog):
    async with GpusizerApp(tab="rent", catalog=catalog).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = screen_text(pilot.app)
        assert "year 1" in screen and "$100K" in screen and "50%" in screen
        assert "335438" not in screen and ".5" not in screen.split("Cumulative cost by year")[1].split("•")[0]


async def test_an_unknown_gpu_names_the_catalog_tab_once(catalog):
    async with GpusizerApp(tab="cloud", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#gpu", "tesla p40")
        assert "the Catalog tab lists every GPU" in error_under(pilot.app, "gpu") and "the the" not in error_under(pilot.app, "gpu")


async def test_choosing_unsloth_in_estimate_shows_a_32b_qlora_fitting_one_24gb_card(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#model", "qwen2.5-32b")
        await choose(pilot, "#workload", "training")
        await choose(pilot, "#method", "qlora")
        await type_into(pilot, "#seq_len", "4096")
        await type_into(pilot, "#gpu", "rtx 4090")
        assert "does not fit" in shown(pilot.app, "#gpu-check")
        await choose(pilot, "#recipe", "unsloth")
        assert "fits" in shown(pilot.app, "#gpu-check") and "does not fit" not in shown(pilot.app, "#gpu-check")


async def test_tab_backspace_and_digits_typed_in_one_burst_fill_gpus_tensor_par_and_lora_rank(catalog, tmp_path, monkeypatch):
    """Keys that arrive together used to go, Tabs included, to the field that had the focus ('2', '2', '32' meant for
    GPUs, Tensor par. and LoRA rank ended in Seq len), and a field's own keys acted after the digits typed behind them
    (Tab, backspace, 2: the 2 replaced the selected 1, then backspace deleted it, a blank field the export left out)."""
    monkeypatch.setenv("GPUSIZER_EXPORT_DIR", str(tmp_path))
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = pilot.app.active_pane
        pane.query_one("#seq_len").focus()
        await pilot.pause()
        burst(pilot, "tab", "backspace", "2", "tab", "ctrl+u", "2", "tab", "3", "2", "shift+tab", "shift+tab", "shift+tab",
              "4", "k")
        await settle(pilot)
        values = {name: pane.query_one(f"#{name}", Input).value for name in ("seq_len", "num_gpus", "tensor_parallel", "lora_rank")}
        assert values == {"seq_len": "4k", "num_gpus": "2", "tensor_parallel": "2", "lora_rank": "32"}
        await pilot.press("ctrl+j")
        await pilot.pause()
    inputs = json.loads(next(tmp_path.glob("estimate-*.json")).read_text())["inputs"]
    assert {name: inputs[name] for name in ("seq_len", "num_gpus", "tensor_parallel", "lora_rank")} == {
        "seq_len": 4096, "num_gpus": 2, "tensor_parallel": 2, "lora_rank": 32}


async def test_fast_tabbing_through_the_whole_form_leaves_every_value_in_place(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = pilot.app.active_pane
        before = {w.id: w.value for w in pane.query(Input)}
        arguments = pane.arguments()
        burst(pilot, *["tab"] * 20, *["shift+tab"] * 20)
        await settle(pilot)
        assert {w.id: w.value for w in pane.query(Input)} == before and pane.arguments() == arguments


async def test_a_did_you_mean_list_never_leaves_a_comma_alone_on_a_line_at_80_columns(catalog):
    async with GpusizerApp(tab="estimate", catalog=catalog).run_test(size=SIZE) as pilot:
        await type_into(pilot, "#model", "mi3")  # offers three quoted Mistral ids, one a character wider than the column
        assert "did you mean" in error_under(pilot.app, "model")
        form_column = [line[:33].strip() for line in screen_text(pilot.app).splitlines()[3:-1]]  # below the tab bar
        assert "did you" in "\n".join(form_column)
        lone = [line for line in form_column if re.fullmatch(r"[,.;:?!'\"]+", line)]  # not the scrollbar's ▅ glyphs
        assert not lone, form_column


@pytest.mark.parametrize("depth", ["quick", pytest.param("deep", marks=pytest.mark.slow)])
def test_a_wrapped_message_keeps_every_character_and_no_line_is_only_punctuation(depth):
    @settings(max_examples=200 // (QUICK_SHARE if depth == "quick" else 1), deadline=None)
    @given(words=st.lists(st.from_regex(r"'?[A-Za-z0-9]{1,12}([/-][A-Za-z0-9.]{1,14}){0,3}'?[,;?]?", fullmatch=True),
                          min_size=1, max_size=12),
           width=st.integers(min_value=8, max_value=60))
    def wraps(words, width):
        text = " ".join(words)
        lines = wrap_message(text, width).split("\n")
        assert all(len(line) <= width for line in lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert not [line for line in lines if re.fullmatch(r"\W+", line)] or any(re.fullmatch(r"\W+", w) for w in words)

    wraps()


@pytest.mark.parametrize("amount", [1.29, 25.0, 1_234.5, 6_840_000.0])
def test_a_price_from_a_dollar_up_reads_the_same_in_a_summary_and_in_a_column(amount):
    """Summaries print figures.usd, columns dollars(): one rule, the column only aligns the decimals of its cells."""
    assert dollars([amount]) == [usd(amount)]


@pytest.mark.parametrize("amount", [0.44, 0.66])
def test_a_price_under_a_dollar_reads_the_same_in_a_summary_and_in_a_column(amount):
    assert dollars([amount]) == [usd(amount)]
