"""How long and how much to train on N tokens: 6 FLOPs per active parameter per token at the MFU published runs reached
on the GPU's generation, the model's size and the job's scale (training_mfu.py), checked against the GPU-hours Meta
published for Llama 2 (Touvron et al. 2023, "Llama 2", table 2: A100-80GB, 2T tokens, on thousands of GPUs) and the
throughput torchtitan publishes for jobs on a few nodes."""
import pytest

from gpusizer.catalog import SizingError
from gpusizer.tools.speed.training_time import training_time

LLAMA_2_A100_HOURS = {"meta-llama/Llama-2-7b-hf": 184_320, "meta-llama/Llama-2-13b-hf": 368_640,
                      "meta-llama/Llama-2-70b-hf": 1_720_320}


@pytest.mark.parametrize("model, published_hours", LLAMA_2_A100_HOURS.items())
def test_llama_2_pretraining_hours_are_reproduced_within_10_percent(catalog, model, published_hours):
    result = training_time(model, training_tokens=2e12, gpu="a100-80gb-sxm", gpu_count=2048, catalog=catalog)
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
    ({"params_billions": 7, "fp8": "sometimes"}, "fp8"),
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


def test_an_8b_on_one_h100_node_runs_at_torchtitans_published_throughput(catalog):
    """torchtitan, Llama 3.1 8B on 8 H100 (FSDP, selective checkpointing): 5,762-6,667 tokens/s per GPU, 33-39% MFU."""
    run = training_time("llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", gpu_count=8, selective_checkpointing=True,
                        catalog=catalog)
    tokens_per_s_per_gpu = 1e9 / (run.wall_clock_hours * 3600 * 8)
    assert 5_000 < tokens_per_s_per_gpu < 7_500 and "torchtitan" in run.mfu_source


def test_the_same_model_uses_more_of_an_a100_than_of_an_h100_and_still_runs_slower(catalog):
    a100 = training_time("llama-3.1-8b", training_tokens=1e9, gpu="a100-80gb-sxm", gpu_count=8, catalog=catalog)
    h100 = training_time("llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", gpu_count=8, catalog=catalog)
    assert a100.mfu > h100.mfu and h100.wall_clock_hours < a100.wall_clock_hours


def test_llama_3_1_8b_pretraining_on_an_h100_cluster_takes_about_its_model_card_hours(catalog):
    """Llama 3.1 8B model card: 1.46M H100-80GB hours for 15T tokens (the whole run, failures included)."""
    run = training_time("llama-3.1-8b", training_tokens=15e12, gpu="h100-sxm", gpu_count=16_384, catalog=catalog)
    assert run.gpu_hours == pytest.approx(1.46e6, rel=0.15)


def test_fp8_speeds_up_a_run_only_where_the_gpu_has_fp8_tensor_cores(catalog):
    bf16 = training_time("llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", gpu_count=8, catalog=catalog)
    fp8 = training_time("llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", gpu_count=8, fp8=True, catalog=catalog)
    a100 = training_time("llama-3.1-8b", training_tokens=1e9, gpu="a100-80gb-sxm", gpu_count=8, fp8=True, catalog=catalog)
    assert bf16.wall_clock_hours / fp8.wall_clock_hours == pytest.approx(1.28) and "FP8" in fp8.assumptions[1]
    assert a100.fp8_speedup == 1 and "no FP8 tensor cores" in a100.assumptions[1]


def test_selective_checkpointing_costs_a_little_and_full_checkpointing_a_third(catalog):
    plain, selective, full = (training_time("llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", catalog=catalog, **flags)
                              for flags in ({}, {"selective_checkpointing": True}, {"gradient_checkpointing": True}))
    assert 1 < selective.wall_clock_hours / plain.wall_clock_hours < 1.05
    assert full.wall_clock_hours / plain.wall_clock_hours == pytest.approx(8 / 6)


def test_a_gpu_generation_without_a_published_run_says_whose_it_borrows(catalog):
    run = training_time("llama-3.1-8b", training_tokens=1e9, gpu="mi300x", gpu_count=8, catalog=catalog)
    assert "no published run on CDNA 3: Hopper's" in run.mfu_source
