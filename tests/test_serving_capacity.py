"""serving_capacity: what GPUs in hand serve, asked the way people ask it ('how many users can one L40S take?'), and
its figures checked against plan_serving's own and Little's law."""
import pytest

from gpusizer.catalog import SizingError, load_catalog
from gpusizer.tools import plan_serving
from gpusizer.tools.serving.capacity import serving_capacity, serving_capacity_answer

CATALOG = load_catalog(include_user=False)
MISTRAL_7B, L8, L70 = "mistralai/Mistral-7B-v0.3", "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.3-70B-Instruct"


def capacity(model, **arguments):
    return serving_capacity(model, catalog=CATALOG, **arguments)


def test_one_l40s_takes_about_150_chat_requests_of_mistral_7b_not_vllms_six_at_the_full_window():
    result = capacity(MISTRAL_7B, gpu="l40s")
    best = result.layouts[0]
    assert result.prompt_tokens + result.output_tokens == 1280 and result.tokens_per_s_per_user == 10  # a chat, the floor
    assert 120 <= best.requests_at_once <= 200 and best.tokens_per_s_per_user >= 10
    assert result.window_tokens == 32768 and result.window_max_concurrency == pytest.approx(6.35, abs=0.5)
    text = serving_capacity_answer(result)
    assert text.startswith(f"1 × l40s (one replica of 1 GPU): {best.requests_at_once} requests of 1,024 prompt + 256 output")
    assert "'Maximum concurrency' 6.35" in text


def test_an_8xh100_node_at_25_tokens_per_second_each_holds_130_to_260_chat_users():
    result = capacity(L70, gpu="h100-sxm", gpu_count=8, weights_dtype="fp8", tokens_per_s_per_user=25)
    by_size = {layout.gpus_per_replica: layout for layout in result.layouts}
    assert 110 <= by_size[8].requests_at_once <= 160  # one tensor-parallel-8 replica
    assert 130 <= result.layouts[0].requests_at_once <= 300 and result.layouts[0].replicas > 1  # smaller replicas take more
    assert all(layout.tokens_per_s_per_user >= 25 for layout in result.layouts)
    assert 1 not in by_size and any("1 GPU per replica" in why for why in result.infeasible)  # 70 GB of fp8 on one card


def test_a_p4d_at_tensor_parallel_8_sustains_a_few_requests_per_second_by_littles_law():
    result = capacity("meta-llama/Llama-3.1-70B", gpu="a100-40gb-sxm", gpu_count=8, gpus_per_replica=8, prompt_tokens=512,
                      output_tokens=256)
    (layout,) = result.layouts
    assert 3 <= layout.requests_per_s <= 15
    in_flight_s = layout.ttft_s + 256 / layout.tokens_per_s_per_user
    assert layout.requests_per_s == pytest.approx(layout.requests_at_once / in_flight_s, rel=0.01)
    assert serving_capacity_answer(result, "rate").startswith(f"8 × a100-40gb-sxm (one replica of 8 GPUs): about "
                                                              f"{layout.requests_per_s:.2f} requests/s sustained")


def test_a_busy_l4_prices_a_million_output_tokens_at_its_full_load():
    result = capacity(L8, gpu="l4")
    layout = result.layouts[0]
    assert layout.usd_per_hour and layout.usd_per_million_output_tokens == pytest.approx(
        layout.usd_per_hour / (layout.aggregate_tokens_per_s * 3600) * 1e6, rel=1e-3)
    assert serving_capacity_answer(result, "cost").startswith("1 × l4 (one replica of 1 GPU): $")
    assert "per million output tokens" in serving_capacity_answer(result, "cost").splitlines()[0]


def test_the_capacity_is_plan_servings_largest_batch_within_the_same_targets():
    mine = capacity(L8, gpu="h100-sxm", tokens_per_s_per_user=30).layouts[0]
    option = plan_serving(L8, gpu="h100-sxm", gpus_per_replica=1, concurrent_users=1, tokens_per_s_per_user=30,
                          catalog=CATALOG).options[0]
    assert mine.requests_at_once == option.largest_concurrency_per_replica
    assert mine.requests_per_s == pytest.approx(option.capacity_requests_per_s, rel=1e-3)


def test_no_speed_floor_lets_the_kv_cache_set_the_capacity():
    floored = capacity(L8, gpu="h100-sxm").layouts[0]
    unfloored = capacity(L8, gpu="h100-sxm", min_tokens_per_s_per_user=0).layouts[0]
    assert unfloored.limited_by in ("kv_cache", "max_num_seqs") and unfloored.requests_at_once >= floored.requests_at_once


def test_a_faster_target_never_admits_more_requests():
    counts = [capacity(L8, gpu="a10g", tokens_per_s_per_user=t).layouts[0].requests_at_once for t in (5, 10, 20)]
    assert counts == sorted(counts, reverse=True)


def test_a_speed_one_request_cannot_reach_is_refused_with_the_speed_it_gets():
    result = capacity(L8, gpu="a10g", tokens_per_s_per_user=60)  # 16 GB of weights over 600 GB/s: about 30 tokens/s
    assert not result.layouts and "misses the target: tokens_per_s_per_user" in result.infeasible[0]


def test_llama_cpp_and_sglang_capacities_come_from_their_own_budgets():
    gguf = capacity(L8, gpu="rtx-3090", engine="llama_cpp", weights_dtype="q4_k_m")
    sglang = capacity(L8, gpu="rtx-4090", engine="sglang")
    assert gguf.layouts[0].requests_at_once >= 1 and gguf.window_max_concurrency is None
    assert sglang.layouts[0].requests_at_once >= 1 and "SGLang" in serving_capacity_answer(sglang)


def test_a_model_too_big_for_the_gpus_says_why():
    result = capacity(L70, gpu="l4")
    assert not result.layouts and result.infeasible
    assert serving_capacity_answer(result).startswith("1 × l4 cannot serve")


def test_no_gpus_is_an_error():
    with pytest.raises(SizingError):
        capacity(L8, gpu="h100-sxm", gpu_count=0)


@pytest.mark.parametrize("users", [10, 300, 2000])
def test_a_plans_capacity_covers_its_planned_load_and_its_rate_follows_littles_law(users):
    option = plan_serving(L8, gpu="l40s", concurrent_users=users, catalog=CATALOG).options[0]
    assert option.concurrency_per_replica <= option.largest_concurrency_per_replica <= option.max_concurrency_per_replica
    assert option.largest_concurrency_per_replica * option.replicas >= users
    assert option.capacity_requests_per_s > 0


def test_a_window_too_long_for_the_kv_cache_names_the_longest_that_fits_as_vllm_does(catalog):
    """'vllm serve Llama-3.1-8B --max-model-len 32768 on one L4': vLLM refuses and names its estimated maximum model
    length (about 28k here); the refusal says that figure, not 0 (the capacity scan skips the search when a length fits)."""
    from gpusizer.tools import estimate_vram

    result = serving_capacity("llama-3.1-8b", gpu="l4", prompt_tokens=32_512, output_tokens=256, catalog=catalog)
    assert not result.layouts
    named = estimate_vram(model="llama-3.1-8b", gpu="l4", engine="vllm", seq_len=32_768, catalog=catalog).serving
    assert named is not None and named.reason and "estimated maximum model length is 0" not in named.reason
    fits = int(named.reason.split("estimated maximum model length is ")[1].split(":")[0].replace(",", ""))
    assert 20_000 < fits < 32_768
    assert any(f"is {fits:,}:" in why for why in result.infeasible)
