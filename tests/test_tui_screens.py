"""Each tab driven as a person would: the figures on screen are the tools' figures for the same inputs."""
import json

import pytest
from textual.widgets import Input, TabbedContent
from tui_helpers import choose, error_under, open_tab, settle, shown, table_rows, text_table_rows, type_into

from gpusizer.tools import cloud_cost, compare_gpus, estimate_vram, plan_serving, rent_vs_buy
from gpusizer.tools.figures import gib, number, usd
from gpusizer.tools.memory.answer import cheapest_first
from gpusizer.tools.pricing import cheapest_fits
from gpusizer.tui.app import GpusizerApp
from gpusizer.tui.text_table import clip, dollars

SIZE = (120, 40)


@pytest.fixture
def app(catalog):
    return lambda tab="estimate": GpusizerApp(tab=tab, catalog=catalog)


async def test_estimate_shows_the_same_total_breakdown_and_fits_as_the_tool(app, catalog):
    async with app().run_test(size=SIZE) as pilot:
        await type_into(pilot, "#model", "qwen2.5-7b")
        await choose(pilot, "#workload", "training")
        await choose(pilot, "#method", "qlora")
        await type_into(pilot, "#seq_len", "4096")
        await type_into(pilot, "#gpu", "rtx 4090")
        expected = estimate_vram(catalog=catalog, model="qwen2.5-7b", workload="training", method="qlora", seq_len=4096, gpu="rtx 4090",
                                 weights_dtype="bf16", training_precision="mixed", optimizer="adamw", sharding="none",
                                 batch_size=1, num_gpus=1, tensor_parallel=1, lora_rank=16)  # checkpointing: the recipe's
        assert gib(expected.total_bytes) in shown(pilot.app, "#total")
        box = pilot.app.active_pane.query_one("#gradient_checkpointing")
        assert box.value is expected.training.gradient_checkpointing is True  # peft's QLoRA preparation turns it on
        assert gib(expected.breakdown.weights) in shown(pilot.app, "#breakdown")
        assert number(expected.gpu_check.max_seq_len) in shown(pilot.app, "#gpu-check")
        ranked = cheapest_first(expected.fits)  # as the tool's answer ranks them: where QLoRA runs, then cheapest
        assert all(fit.stack_note is None for fit in ranked[:8]) and ranked[0].usd_per_hour is not None
        costs = {cost.gpu_id: cost for cost in cheapest_fits(catalog, ranked)}
        per_gpu_hour = [costs[fit.gpu_id].usd_per_gpu_hour for fit in ranked]  # a price column: one precision
        per_hour = [costs[fit.gpu_id].usd_per_hour for fit in ranked]
        rows = [[clip(fit.gpu_id, 16), str(fit.gpus_needed), gpu_hour, hour]
                for fit, gpu_hour, hour in zip(ranked, dollars(per_gpu_hour), dollars(per_hour), strict=True)]
        assert text_table_rows(pilot.app, "#fits") == rows[:8] + [[f"… {len(rows) - 8} more: ctrl+l lists them"]]
        await pilot.press("ctrl+l")  # the long list collapses; one key lists it all
        await settle(pilot)
        assert text_table_rows(pilot.app, "#fits") == rows


async def test_estimate_invalid_batch_shows_its_message_and_keeps_the_last_result(app):
    async with app().run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = shown(pilot.app, "#total")
        await type_into(pilot, "#batch_size", "0")
        assert "Batch must be ≥ 1 (got 0)" in error_under(pilot.app, "batch_size")  # the label on screen, not the argument
        assert shown(pilot.app, "#total") == before
        assert pilot.app.active_pane.query_one("#batch_size").has_class("invalid")
        await type_into(pilot, "#batch_size", "2")
        assert not error_under(pilot.app, "batch_size") and shown(pilot.app, "#total") != before


async def test_estimate_unknown_model_says_did_you_mean_under_the_model(app):
    async with app().run_test(size=SIZE) as pilot:
        await type_into(pilot, "#model", "lama 3.1 8x")
        assert "did you mean" in error_under(pilot.app, "model")


async def test_gradient_checkpointing_shows_the_recipe_choice_until_a_person_changes_it(app, catalog):
    async with app().run_test(size=(80, 24)) as pilot:
        await choose(pilot, "#workload", "training")
        await choose(pilot, "#method", "qlora")
        box = pilot.app.active_pane.query_one("#gradient_checkpointing")
        assert box.value is True
        box.value = False  # by hand: sent as chosen from now on
        await settle(pilot)
        off = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", workload="training", method="qlora",
                            gradient_checkpointing=False)
        assert gib(off.total_bytes) in shown(pilot.app, "#total")


async def test_a_hint_says_what_would_make_it_fit_and_f8_applies_it(app, catalog):
    async with app().run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#model", "llama 3.1 70b")
        await type_into(pilot, "#gpu", "h100")
        await type_into(pilot, "#num_gpus", "2")
        hint = shown(pilot.app, "#hints")
        fitted = estimate_vram(catalog=catalog, model="llama 3.1 70b", gpu="h100", num_gpus=2, tensor_parallel=2)
        assert "tensor parallel over the 2 GPUs given" in hint and gib(fitted.gpu_check.per_gpu_bytes) in hint
        assert "tensor_parallel=2 splits it" in shown(pilot.app, "#warnings")
        await pilot.press("f8")
        await settle(pilot)
        assert pilot.app.active_pane.query_one("#tensor_parallel", Input).value == "2"
        assert "fits" in shown(pilot.app, "#gpu-check") and "does not fit" not in shown(pilot.app, "#gpu-check")


async def test_a_gpu_too_small_says_how_many_of_it_the_model_needs(app, catalog):
    async with app().run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#model", "llama 3.1 70b")
        await type_into(pilot, "#gpu", "rtx 3090")
        check = estimate_vram(catalog=catalog, model="llama 3.1 70b", gpu="rtx 3090").gpu_check
        assert check is not None and check.gpus_needed
        assert f"does not fit: needs {check.gpus_needed}" in shown(pilot.app, "#gpu-check")


async def test_tensor_parallel_that_does_not_divide_the_heads_is_refused_under_its_input(app):
    async with app().run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#num_gpus", "3")
        await type_into(pilot, "#tensor_parallel", "3")
        assert "does not divide" in error_under(pilot.app, "tensor_parallel")


async def test_the_verdict_and_warnings_come_before_the_long_lists(app):
    async with app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = pilot.app.active_pane
        order = [w.id for w in pane.query(".results > Static") if w.id in ("total", "gpu-check", "warnings", "fits", "assumptions")]
        assert order == ["total", "gpu-check", "warnings", "fits", "assumptions"]


async def test_an_error_goes_under_the_input_its_arguments_name_even_when_the_sentence_does_not(app):
    """'a GPU memory size must be 1 to 4096 GB' never says 'gpu': SizingError.arguments places it."""
    async with app().run_test(size=SIZE) as pilot:
        await type_into(pilot, "#gpu", "5000GB")
        assert "1 to 4096 GB" in error_under(pilot.app, "gpu")


async def test_qlora_shows_its_nf4_base_and_lora_gives_the_weights_choice_back(app):
    async with app().run_test(size=SIZE) as pilot:
        await choose(pilot, "#workload", "training")
        weights = pilot.app.active_pane.query_one("#weights_dtype")
        await choose(pilot, "#method", "qlora")
        assert (weights.value, weights.disabled) == ("nf4", True)
        assert "(qlora)" in shown(pilot.app, "#total")
        await choose(pilot, "#method", "full")  # right arrow from qlora wraps to full
        assert (weights.value, weights.disabled) == ("as released", False)


async def test_estimate_from_a_size_in_billions(app, catalog):
    async with app().run_test(size=SIZE) as pilot:
        await type_into(pilot, "#model", "")  # a model and a size together are a conflict: the model goes first
        await type_into(pilot, "#params_billions", "13")
        expected = estimate_vram(catalog=catalog, params_billions=13)
        assert gib(expected.total_bytes) in shown(pilot.app, "#total")


async def test_compare_lists_the_gpus_in_order_with_the_tools_prices(app, catalog):
    async with app("compare").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#gpus", "h100, mi300x, l4")
        await type_into(pilot, "#model", "llama 3.1 8b")
        expected = compare_gpus(catalog=catalog, gpus=["h100", "mi300x", "l4"], model="llama 3.1 8b", workload="inference",
                                weights_dtype="bf16", batch_size=1, seq_len=2048)
        rows = table_rows(pilot.app, "#comparison")
        assert [row[0] for row in rows] == [gpu.gpu_id for gpu in expected.gpus]
        assert [row[6] for row in rows] == dollars([gpu.cheapest_usd_per_gpu_hour for gpu in expected.gpus])
        assert [row[11] for row in rows] == [number(gpu.decode_tokens_per_s) for gpu in expected.gpus]
        assert [row[-1] for row in rows] == [number(gpu.ratio_to_first["cheapest_usd_per_gpu_hour"]) for gpu in expected.gpus]


async def test_compare_sorts_by_the_column_under_the_cursor_and_charts_it(app):
    async with app("compare").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#gpus", "l4, h100, a10g")
        table = pilot.app.active_pane.query_one("#comparison")
        table.focus()
        table.move_cursor(column=2)
        await pilot.press("s")
        await settle(pilot)
        bandwidths = [float(row[2].replace(",", "")) for row in table_rows(pilot.app, "#comparison")]
        assert bandwidths == sorted(bandwidths)
        assert "GB/s" in shown(pilot.app, "#column-chart")


async def test_cloud_cost_shows_idle_gpus_and_the_cheapest_total(app, catalog):
    async with app("cloud").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#gpu_count", "3")
        await type_into(pilot, "#hours", "10")
        expected = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=3, hours=10, pricing="both", spot_interruptions_per_hour=0,
                              storage_gb_months=0, egress_gb=0)
        assert usd(expected.offers[0].total_usd) in shown(pilot.app, "#cloud-summary")
        rows = table_rows(pilot.app, "#offers")
        assert len(rows) == len(expected.offers)
        assert [row[2] for row in rows] == dollars([offer.total_usd for offer in expected.offers])
        assert any("5" in row[6] for row in rows), "an 8-GPU instance leaves 5 idle"


async def test_cloud_cost_on_one_machine_only_and_when_no_machine_is_big_enough(app, catalog):
    async with app("cloud").run_test(size=SIZE) as pilot:
        pilot.app.active_pane.query_one("#single_instance").focus()
        await pilot.press("space")
        await settle(pilot)
        expected = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=24, single_instance=True)
        rows = table_rows(pilot.app, "#offers")
        assert [row[2] for row in rows] == dollars([offer.total_usd for offer in expected.offers])
        assert {row[5] for row in rows} == {"1"}, "every offer is one instance"
        await type_into(pilot, "#gpu_count", "16")
        assert "No offer for 16 × h100-sxm" in shown(pilot.app, "#cloud-summary")
        assert table_rows(pilot.app, "#offers") == []
        assert "the largest h100-sxm instance has 8 GPUs" in shown(pilot.app, "#cloud-notes")


async def test_cloud_cost_unknown_provider_is_shown_next_to_providers(app):
    async with app("cloud").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#providers", "awz")
        assert "unknown provider" in error_under(pilot.app, "providers")


async def test_rent_vs_buy_verdict_matches_the_tool(app, catalog):
    async with app("rent").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#purchase_usd_per_gpu", "30000")
        await type_into(pilot, "#utilization", "0.5")
        # the owning lines left empty take the catalog's sourced defaults, as the tool does (issue #34)
        expected = rent_vs_buy(catalog=catalog, gpu="h100-sxm", gpu_count=8, purchase_usd_per_gpu=30000, utilization=0.5, years=3,
                               electricity_usd_per_kwh=0.1, pue=1.3)
        verdict = shown(pilot.app, "#verdict")
        assert usd(expected.own_total_usd) in verdict and usd(expected.rent_total_usd) in verdict


async def test_rent_vs_buy_utilization_above_one_is_refused_with_the_range(app):
    async with app("rent").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#utilization", "1.5")
        assert "Utilization 0-1 must be ≤ 1" in error_under(pilot.app, "utilization")


async def test_catalog_search_filters_and_enter_shows_the_source(app, catalog):
    async with app("catalog").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#catalog-search", "mi300x")
        rows = table_rows(pilot.app, "#catalog-table")
        assert rows[0][0] == "mi300x" and len(rows) < len(catalog.gpus) / 4
        table = pilot.app.active_pane.query_one("#catalog-table")
        table.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert catalog.gpu_by_id["mi300x"].source in shown(pilot.app, "#catalog-detail")


SIZES = [(80, 24), (160, 45)]  # the smallest terminal the app is made for, and a roomy one


async def test_wide_tables_scroll_sideways_inside_the_pane_and_keep_their_first_column(app):
    async with app("compare").run_test(size=SIZES[0]) as pilot:
        for tab, table_id, fill in [("compare", "#comparison", ("#model", "llama 3.1 8b")), ("cloud", "#offers", ("#gpu", "h100")),
                                    ("serving", "#serving-options", ("#model", "llama 3.1 8b"))]:
            await open_tab(pilot, tab)
            await type_into(pilot, *fill)
            for size in SIZES:
                await pilot.resize_terminal(*size)
                table = pilot.app.active_pane.query_one(table_id)
                results = table.parent
                assert table.fixed_columns == 1 and table.row_count, (tab, size)
                assert table.region.right <= results.region.right and table.region.x >= results.region.x, (tab, size)  # it scrolls
                if table.virtual_size.width > table.size.width:
                    table.scroll_x = table.max_scroll_x
                    await pilot.pause()
                    assert table.scroll_x > 0, (tab, size)
                    table.scroll_x = 0


async def test_a_catalog_search_finds_matches_in_every_list_and_names_are_never_cut(app, catalog):
    async with app("catalog").run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert pilot.app.focused is pilot.app.active_pane.query_one("#catalog-search")  # the cursor is in the search box
        await type_into(pilot, "#catalog-search", "qwen")  # no GPU matches: the list moves to the models
        pane = pilot.app.active_pane
        qwen = [m.model_id for m in catalog.models if "qwen" in m.model_dump_json().lower()]
        assert pane.query_one("#catalog-view").value == "models"
        assert f"{len(qwen)} models" in shown(pilot.app, "#catalog-matches") and "0 gpus" in shown(pilot.app, "#catalog-matches")
        table = pane.query_one("#catalog-table")
        assert [row[0] for row in table_rows(pilot.app, "#catalog-table")] == qwen
        assert table.columns[table.ordered_columns[0].key].width >= max(len(m) for m in qwen)


@pytest.mark.parametrize("tab, label", [("estimate", "Estimate"), ("compare", "Compare"), ("cloud", "Cloud cost"),
                                        ("rent", "Rent vs buy"), ("catalog", "Catalog"), ("ask", "Ask"), ("speed", "Speed"),
                                        ("training", "Training"), ("biggest", "Biggest")])
async def test_tab_option_opens_on_that_tab_with_focus_in_its_first_input(app, tab, label):
    async with app(tab).run_test(size=SIZE) as pilot:
        await settle(pilot)
        tabs = pilot.app.query_one("#tabs", TabbedContent)
        assert tabs.active == tab and str(tabs.get_tab(tab).label) == label
        focused = pilot.app.focused
        assert isinstance(focused, Input) and focused is pilot.app.query_one(f"#{tab}-pane").query(Input).first()


async def test_ctrl_q_quits(app):
    async with app().run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not pilot.app.is_running


async def test_function_keys_switch_tabs(app):
    async with app().run_test(size=SIZE) as pilot:
        await pilot.press("f4")
        assert pilot.app.query_one("#tabs", TabbedContent).active == "rent"


async def test_export_writes_markdown_and_json_files(app, tmp_path, monkeypatch):
    monkeypatch.setenv("GPUSIZER_EXPORT_DIR", str(tmp_path))
    async with app().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.press("ctrl+j")
        await pilot.pause()
    markdown = next(tmp_path.glob("estimate-*.md")).read_text()
    assert "total_bytes" in markdown and "## breakdown" in markdown
    assert "## inputs" in markdown and "| model |" in markdown and "## assumptions" in markdown
    assert "Catalog: gpusizer " in markdown and "GPUs," in markdown
    exported = json.loads(next(tmp_path.glob("estimate-*.json")).read_text())
    assert exported["inputs"]["model"] and exported["result"]["total_bytes"] and exported["result"]["assumptions"]
    assert exported["catalog"].startswith("gpusizer ")


async def test_the_export_notice_shows_the_whole_path(app, tmp_path, monkeypatch):
    deep = tmp_path / ("a-long-folder-name-" * 4) / "exports"
    monkeypatch.setenv("GPUSIZER_EXPORT_DIR", str(deep))
    async with app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        notice = pilot.app._notifications
        assert any(str(pilot.app.last_export) in str(n.message) for n in notice)


async def test_compare_the_same_gpu_twice_and_too_few_gpus(app):
    async with app("compare").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#gpus", "h100, h100")
        assert [row[0] for row in table_rows(pilot.app, "#comparison")] == ["h100-sxm", "h100-sxm"]
        await type_into(pilot, "#gpus", "h100")
        assert "GPUs (comma-separated) needs at least 2 entries (got 1)" in error_under(pilot.app, "gpus")


async def test_serving_shows_the_planners_cheapest_option_and_every_gpu_it_ranked(app, catalog):
    async with app("serving").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#concurrent_users", "500")
        await type_into(pilot, "#tokens_per_s_per_user", "20")
        expected = plan_serving(catalog=catalog, model="meta-llama/Llama-3.1-8B-Instruct", engine="vllm", concurrent_users=500,
                                prompt_tokens=1024, output_tokens=256, tokens_per_s_per_user=20, pricing="on_demand")
        best = expected.options[0]
        summary = shown(pilot.app, "#serving-summary")
        assert f"{best.total_gpus} × {best.gpu_id}" in summary and usd(best.usd_per_month) in summary
        rows = table_rows(pilot.app, "#serving-options")
        assert [row[0] for row in rows] == [o.gpu_id for o in expected.options]
        assert [row[1] for row in rows] == dollars([o.usd_per_month for o in expected.options])


async def test_serving_asks_for_users_or_a_rate_not_both(app):
    async with app("serving").run_test(size=SIZE) as pilot:
        await type_into(pilot, "#requests_per_s", "5")
        assert "not both" in error_under(pilot.app, "requests_per_s")


async def test_every_footer_key_is_on_screen_on_every_tab(catalog):
    from textual.widgets._footer import FooterKey

    from gpusizer.tui.app import FOOTER_WORDS, TAB_KEYS, TABS, GpusizerApp

    app = GpusizerApp(catalog=catalog)
    async with app.run_test(size=SIZES[0]) as pilot:
        for tab in TABS:  # each tab opened in turn, as its key opens it, at each size
            await open_tab(pilot, tab)
            for size in SIZES:
                await pilot.resize_terminal(*size)
                keys = {key.key_display: key for key in app.query(FooterKey)}
                shown_tabs = {TAB_KEYS[name] for name in FOOTER_WORDS}  # f1-f7; the later tabs: tab bar, f10, palette
                assert {"^q", "^s", "^j", "f10", *shown_tabs} <= set(keys), (tab, size)
                assert all(key.region.right <= size[0] for key in keys.values()), (tab, size)


async def test_f10_lists_every_key_of_the_tab_including_those_the_footer_leaves_out(catalog):
    from gpusizer.tui.app import GpusizerApp

    app = GpusizerApp(tab="ask", catalog=catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f10")
        await pilot.pause()
        text = str(app.screen.query_one("#keys-text").render())
        for shown in ("^t", "toggle", "esc", "Cancel question", "open the Rent vs buy tab", "ctrl+p"):
            assert shown.lower() in text.lower(), shown
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]


async def test_the_verdict_is_on_screen_without_scrolling(app):
    async with app().run_test(size=SIZES[0]) as pilot:
        for tab, verdict in [("estimate", "#total"), ("estimate", "#gpu-check"), ("compare", "#comparison"),
                             ("cloud", "#cloud-summary"), ("rent", "#verdict"), ("serving", "#serving-summary")]:
            await open_tab(pilot, tab)
            for size in SIZES:
                await pilot.resize_terminal(*size)
                widget = pilot.app.active_pane.query_one(verdict)
                assert widget.region.height > 0 and widget.region.bottom <= size[1] - 1, (tab, verdict, size, widget.region)
