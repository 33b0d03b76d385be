"""Every tool names the cheapest change that turns its "no" (or a costly "yes") into a better answer, with the figure
that change gives, found by calling the same tool again: so the alternative's arguments reproduce its figure."""
import pytest

from gpusizer.tools import ANSWERS, biggest_model, cloud_cost, compare_gpus, estimate_speed, estimate_vram, plan_serving, plan_training
from gpusizer.tools.figures import usd


def answer(tool, result):
    return ANSWERS[tool][1](result).splitlines()


def test_every_result_carries_alternatives_as_the_contract_says():
    for tool, (result_model, _) in ANSWERS.items():
        assert "alternatives" in result_model.model_fields, tool


def test_serving_200_users_of_a_70b_names_a_cheaper_format_in_the_second_line(catalog):
    result = plan_serving("llama-3.3-70b", concurrent_users=200, catalog=catalog)
    best = result.alternatives[0]
    assert best.usd_per_month < result.options[0].usd_per_month * 0.85
    assert answer("plan_serving", result)[1] == f"Cheaper with {best.text}"
    again = plan_serving("llama-3.3-70b", concurrent_users=200, catalog=catalog, **best.arguments)
    assert again.options[0].usd_per_month == best.usd_per_month and again.options[0].gpu_id == best.gpu_id


def test_a_slower_plan_than_the_default_floor_is_named_after_the_format_changes(catalog):
    result = plan_serving("llama-3.3-70b", concurrent_users=200, catalog=catalog)
    floors = [i for i, a in enumerate(result.alternatives) if a.arguments.get("min_tokens_per_s_per_user") == 0]
    assert all(i > 0 for i in floors)


def test_which_of_these_cards_runs_a_70b_says_how_few_of_each_it_takes_quantized(catalog):
    result = compare_gpus(["rtx-4090", "a100-80gb-sxm"], model="llama-3.1-70b", catalog=catalog)
    assert {a.gpu_id for a in result.alternatives} == {"rtx-4090", "a100-80gb-sxm"}
    for fix in result.alternatives:
        again = estimate_vram("llama-3.1-70b", gpu=fix.gpu_id, catalog=catalog, **fix.arguments)
        assert again.gpu_check is not None and again.gpu_check.fits and fix.gpus < next(
            r.gpus_needed for r in result.gpus if r.gpu_id == fix.gpu_id)
    assert answer("compare_gpus", result)[1].startswith("Fewer GPUs with ")


def test_renting_h100s_for_a_70b_names_the_format_that_halves_the_bill(catalog):
    result = cloud_cost("h100", hours=100, model="llama-3.1-70b", catalog=catalog)
    assert result.gpu_count == 2
    fix = result.alternatives[0]
    assert fix.gpu_count == 1 and fix.total_usd <= result.offers[0].total_usd * 0.85
    again = cloud_cost("h100", hours=100, model="llama-3.1-70b", catalog=catalog, **fix.arguments)
    assert again.offers[0].total_usd == fix.total_usd
    assert usd(fix.total_usd) in answer("cloud_cost", result)[1]


def test_a_gpu_count_the_user_chose_is_not_second_guessed(catalog):
    assert cloud_cost("h100", hours=100, gpu_count=2, model="llama-3.1-70b", catalog=catalog).alternatives == []


def test_how_fast_is_a_70b_on_one_4090_says_it_does_not_fit_and_what_does(catalog):
    result = estimate_speed("llama-3.1-70b", gpu="rtx-4090", catalog=catalog)
    lines = answer("estimate_speed", result)
    assert lines[0].startswith("No: ") and "does not fit" in lines[0]
    fix = result.alternatives[0]
    assert lines[1] == f"Fits with {fix.text}"
    again = estimate_speed("llama-3.1-70b", gpu="rtx-4090", catalog=catalog, **fix.arguments)
    assert again.warnings == [] and again.decode_tokens_per_s == fix.decode_tokens_per_s


def test_a_q8_gguf_too_big_for_a_3090_is_not_timed_as_if_all_layers_were_on_it(catalog):
    result = estimate_speed("qwen2.5-32b", gpu="rtx-3090", weights_dtype="q8_0", catalog=catalog)
    assert result.warnings and result.alternatives[0].arguments["weights_dtype"] == "q4_k_m"
    assert estimate_speed("qwen2.5-32b", gpu="rtx-3090", weights_dtype="q4_k_m", catalog=catalog).warnings == []


def test_qlora_of_a_32b_that_misses_one_4090_names_the_unsloth_recipe(catalog):
    result = plan_training("qwen2.5-32b", training_tokens=1e8, method="qlora", gpu="rtx-4090", gpu_count=1,
                           catalog=catalog)
    assert result.options == []
    fix = result.alternatives[0]
    assert fix.arguments == {"recipe": "unsloth"} and fix.gpus == 1
    assert answer("plan_training", result)[1] == f"Fits with {fix.text}"


def test_training_on_a_t4_names_what_makes_some_model_fit(catalog):
    result = biggest_model("t4", workload="training", catalog=catalog)
    assert result.formats[0].models == []
    assert result.alternatives and all(a.params > 0 for a in result.alternatives)
    assert answer("biggest_model", result)[1].startswith("Where none fits, with ")


@pytest.mark.parametrize("call", [
    lambda c: plan_serving("llama-3.1-8b", concurrent_users=4, gpu="h100", catalog=c),
    lambda c: estimate_speed("llama-3.1-8b", gpu="h100", catalog=c),
    lambda c: biggest_model("h100", catalog=c),
])
def test_a_yes_that_nothing_cheapens_carries_no_alternatives(call, catalog):
    assert call(catalog).alternatives == []
