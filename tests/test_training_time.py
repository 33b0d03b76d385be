"""How long and how much to train on N tokens: 6 FLOPs per active parameter per token at 40% MFU, checked against
the GPU-hours Meta published for Llama 2 (Touvron et al. 2023, "Llama 2", table 2: A100-80GB, 2T tokens)."""
import pytest

from gpusizer.catalog import SizingError
from gpusizer.tools.speed.training_time import training_time

LLAMA_2_A100_HOURS = {"meta-llama/Llama-2-7b-hf": 184_320, "meta-llama/Llama-2-13b-hf": 368_640,
                      "meta-llama/Llama-2-70b-hf": 1_720_320}


@pytest.mark.parametrize("model, published_hours", LLAMA_2_A100_HOURS.items())
def test_llama_2_pretraining_hours_are_reproduced_within_10_percent(catalog, model, published_hours):
    result = training_time(model, training_tokens=2e12, gpu="a100-80gb-sxm", catalog=catalog)
    assert result.gpu_hours == pytest.approx(published_hours, rel=0.10)


def test_more_gpus_finish_sooner_for_the_same_gpu_hours(catalog):
    eight = training_time(params_billions=7, training_tokens=1e12, gpu_count=8, catalog=catalog)
    sixty_four = training_time(params_billions=7, training_tokens=1e12, gpu_count=64, catalog=catalog)
    assert sixty_four.gpu_hours == pytest.approx(eight.gpu_hours) and sixty_four.wall_clock_hours == pytest.approx(eight.wall_clock_hours / 8)


def test_a_mixture_of_experts_trains_on_its_active_parameters(catalog):
    moe = training_time("Qwen/Qwen3-30B-A3B", training_tokens=1e11, catalog=catalog)
    assert moe.active_params < 4e9 and "active" in moe.assumptions[0]


def test_the_cost_is_gpu_hours_at_the_cheapest_offer(catalog):
    result = training_time(params_billions=1, training_tokens=2e10, gpu="h100-sxm", catalog=catalog)
    assert result.usd_total == pytest.approx(result.gpu_hours * result.usd_per_gpu_hour) and result.provider


@pytest.mark.parametrize("arguments, message", [
    ({}, "give model or params_billions"),
    ({"model": "llama-3.1-8b", "params_billions": 8}, "give model or params_billions"),
    ({"params_billions": 7, "training_tokens": 10.0}, "training_tokens"),
    ({"params_billions": 7, "mfu": 0.95}, "mfu"),
])
def test_impossible_runs_are_refused_with_the_allowed_range(catalog, arguments, message):
    with pytest.raises(SizingError, match=message):
        training_time(**{"training_tokens": 1e12, **arguments}, catalog=catalog)


def test_lora_skips_the_frozen_weights_gradients_and_checkpointing_recomputes_the_forward(catalog):
    # backward = activation gradients (2 per parameter) + weight gradients (2): adapters keep only the first half
    full = training_time("Qwen/Qwen2.5-7B", training_tokens=5e8, gpu_count=2, catalog=catalog)
    lora = training_time("Qwen/Qwen2.5-7B", training_tokens=5e8, gpu_count=2, method="lora", catalog=catalog)
    checkpointed = training_time("Qwen/Qwen2.5-7B", training_tokens=5e8, gpu_count=2, method="qlora",
                                 gradient_checkpointing=True, catalog=catalog)
    assert lora.training_flops == pytest.approx(full.training_flops * 4 / 6)
    assert checkpointed.training_flops == pytest.approx(full.training_flops)  # 4 + 2 recomputed
    assert "frozen weights get no gradients" in lora.assumptions[0]


def test_compare_gpus_times_a_lora_run_like_training_time(catalog):
    from gpusizer.tools.compare import compare_gpus
    rows = compare_gpus(["h100-sxm", "a100-80gb-sxm"], model="Qwen/Qwen2.5-7B", workload="training", method="lora",
                        training_tokens=5e8, catalog=catalog).gpus
    h100 = training_time("Qwen/Qwen2.5-7B", training_tokens=5e8, gpu_count=rows[0].gpus_needed, method="lora", catalog=catalog)
    assert rows[0].training_hours == pytest.approx(h100.wall_clock_hours, rel=1e-3)
