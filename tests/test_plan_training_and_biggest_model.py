"""plan_training and biggest_model: questions people ask about a training run and about what a GPU holds."""
import pytest

from gpusizer.catalog import load_catalog
from gpusizer.tools import SizingError, biggest_model, estimate_vram, plan_training
from gpusizer.tools.questions import ask
from gpusizer.tools.speed.training_time import training_time


def test_a_run_on_a_named_node_takes_what_training_time_says(catalog):
    plan = plan_training("llama-3.1-8b", training_tokens=2e9, gpu="h100", gpu_count=8, catalog=catalog)
    # sharded over the node as the fit search lays it out: ZeRO-3 with each layer checkpointed (recomputed in backward)
    run = training_time("llama-3.1-8b", training_tokens=2e9, gpu="h100", gpu_count=8, gradient_checkpointing=True, catalog=catalog)
    assert (plan.gpu_id, plan.gpu_count) == ("h100-sxm", 8)
    assert plan.wall_clock_hours == pytest.approx(run.wall_clock_hours) and plan.usd_total == pytest.approx(run.usd_total)
    assert plan.tokens_per_s_per_gpu == pytest.approx(2e9 / (run.wall_clock_hours * 3600 * 8))


def test_fifty_thousand_examples_of_1200_tokens_for_three_epochs_is_180_million_tokens(catalog):
    plan = plan_training("llama-3.1-8b", examples=50_000, tokens_per_example=1200, epochs=3, method="lora", catalog=catalog)
    assert plan.training_tokens == 180_000_000 and "50,000 examples" in plan.assumptions[0]


def test_the_cheapest_gpu_type_comes_first_and_every_option_holds_the_job(catalog):
    plan = plan_training("qwen2.5-7b", training_tokens=1e8, method="lora", catalog=catalog)
    priced = [o.usd_total for o in plan.options if o.usd_total is not None]
    assert priced == sorted(priced) and plan.usd_total == plan.options[0].usd_total
    for option in plan.options[:3]:
        spread = {"num_gpus": option.gpus, "sharding": "zero3"} if option.gpus > 1 else {}
        check = estimate_vram("qwen2.5-7b", workload="training", method="lora", gpu=option.gpu_id, catalog=catalog, **spread).gpu_check
        assert check is not None and check.fits


def test_qlora_is_planned_only_on_gpus_bitsandbytes_runs_on(catalog):
    plan = plan_training("llama-3.1-8b", training_tokens=1e8, method="qlora", catalog=catalog)
    vendors = {catalog.find_gpu(o.gpu_id).vendor for o in plan.options}
    assert vendors == {"NVIDIA"} and any("bitsandbytes" in a for a in plan.assumptions)


def test_a_full_fine_tune_too_big_for_the_gpu_named_says_how_many_it_takes(catalog):
    plan = plan_training("qwen2.5-14b", training_tokens=1e8, gpu="a100 80gb", gpu_count=1, catalog=catalog)
    needed = estimate_vram("qwen2.5-14b", workload="training", gpu="a100 80gb", catalog=catalog).gpu_check
    assert plan.options == [] and plan.gpu_id is None and needed is not None and needed.gpus_needed
    assert any("does not fit 1 x a100-80gb-sxm" in w and f"it takes {needed.gpus_needed}" in w for w in plan.warnings)


def test_a_run_with_no_token_count_is_refused_with_what_to_give(catalog):
    with pytest.raises(SizingError, match="training_tokens.*or examples and tokens_per_example"):
        plan_training("llama-3.1-8b", examples=1000, catalog=catalog)


def test_a_3090_holds_a_bigger_model_as_a_4_bit_gguf_than_as_released(catalog):
    found = biggest_model("rtx 3090", catalog=catalog)
    released, gguf = found.formats
    assert (released.weights_dtype, gguf.weights_dtype) == ("as released", "q4_k_m")
    assert gguf.models[0].params > released.models[0].params


def test_every_model_it_lists_fits_when_estimated_on_its_own(catalog):
    found = biggest_model("l40s", weights_dtypes=["AWQ"], seq_len=16384, catalog=catalog)
    assert found.formats[0].weights_dtype == "awq"
    for listed in found.formats[0].models:
        check = estimate_vram(listed.model, weights_dtype="awq", seq_len=16384, gpu="l40s", catalog=catalog).gpu_check
        assert check is not None and check.fits and check.per_gpu_bytes == listed.per_gpu_bytes


def test_an_unknown_format_names_the_ones_it_takes(catalog):
    with pytest.raises(SizingError, match="unknown format 'q9'.*q4_k_m"):
        biggest_model("rtx 3090", weights_dtypes=["q9"], catalog=catalog)


def test_ask_answers_the_biggest_model_question_with_the_tools_models():
    catalog = load_catalog(include_user=False)
    answer = ask("whats the biggest model i can run on a 3090 at q4_k_m?", catalog=catalog)
    found = biggest_model("rtx-3090", weights_dtypes=["q4_k_m"], catalog=catalog)
    assert found.formats[0].models[0].model in answer.answer
    assert any(call.tool == "biggest_model" for call in answer.calls)
