"""plan_serving, asked the way people ask it, and the planner's invariants (hypothesis)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusizer.catalog import SizingError, load_catalog
from gpusizer.tools import estimate_vram, plan_serving

CATALOG = load_catalog(include_user=False)
L8, L70 = "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct"


def plan(model, **arguments):
    return plan_serving(model, catalog=CATALOG, **arguments)


def test_serving_llama_8b_to_1000_concurrent_users_takes_a_few_h100s_not_one_huge_prefill():
    option = plan(L8, gpu="h100-sxm", concurrent_users=1000).options[0]
    # vLLM holds ~430k tokens on one H100: ~340 requests of 1,024 + 256 tokens, so three replicas
    assert option.gpus_per_replica == 1 and 3 <= option.total_gpus <= 4
    assert option.limited_by == "kv_cache" and option.concurrency_per_replica <= option.max_concurrency_per_replica
    assert 10 < option.tokens_per_s_per_user < 40 and option.ttft_s < 1
    assert option.usd_per_hour and option.usd_per_month == pytest.approx(option.usd_per_hour * 730, rel=1e-3)
    assert option.offer is not None and option.offer.instances * option.offer.replicas_per_instance >= option.replicas


def test_the_concurrency_per_replica_is_what_vllm_reports_for_that_context():
    option = plan(L8, gpu="h100-sxm", concurrent_users=10, prompt_tokens=15_000, output_tokens=1384).options[0]
    logged = estimate_vram(L8, engine="vllm", gpu="h100-sxm", max_model_len=16384, catalog=CATALOG).serving
    assert option.max_concurrency_per_replica == int(logged.max_concurrency)


def test_a_speed_target_buys_more_replicas_than_the_kv_cache_alone_needs():
    loose = plan(L8, gpu="h100-sxm", concurrent_users=1000).options[0]
    fast = plan(L8, gpu="h100-sxm", concurrent_users=1000, tokens_per_s_per_user=50).options[0]
    assert fast.limited_by == "tokens_per_s_per_user" and fast.tokens_per_s_per_user >= 50
    assert fast.total_gpus > loose.total_gpus and fast.usd_per_hour > loose.usd_per_hour


def test_a_70b_model_gets_a_tensor_parallel_replica_and_the_whole_catalog_is_ranked_by_cost():
    answer = plan(L70, concurrent_users=200, tokens_per_s_per_user=20)
    priced = [o for o in answer.options if o.usd_per_hour is not None]
    assert [o.usd_per_hour for o in priced] == sorted(o.usd_per_hour for o in priced)
    h100 = next(o for o in answer.options if o.gpu_id == "h100-sxm")
    assert h100.gpus_per_replica >= 2 and h100.tensor_parallel == h100.gpus_per_replica
    small = {i.gpu_id: i.reason for i in answer.infeasible}
    assert "l4" in small and "tensor_parallel" in small["l4"] or "GPUs" in small["l4"]
    assert any("Little" in a or "in flight" in a for a in answer.assumptions)


def test_an_arrival_rate_is_turned_into_requests_in_flight():
    answer = plan(L8, gpu="h100-sxm", requests_per_s=20, output_tokens=256)
    option = answer.options[0]
    in_flight = option.concurrency_per_replica * option.replicas
    step_s = option.decode_step_ms / 1e3
    assert in_flight == pytest.approx(20 * (option.ttft_s + 256 * step_s), rel=0.05, abs=1)
    assert option.aggregate_tokens_per_s == pytest.approx(20 * 256, rel=1e-3)


def test_llama_cpp_serves_a_q4_k_m_from_one_consumer_card_with_several_slots():
    option = plan(L8, engine="llama_cpp", gpu="rtx-4090", concurrent_users=4).options[0]
    assert option.tensor_parallel == 1 and option.replicas == 1 and option.max_concurrency_per_replica >= 4
    # each step reads the 4.3 GB of GPU weights: at most 1,008 / 4.3 = 234 steps/s, and llama.cpp reaches about 3/4
    assert 120 < option.tokens_per_s_per_user < 234
    assert plan(L8, engine="llama_cpp", gpu="rtx-4090", concurrent_users=4).weights_dtype == "q4_k_m"


def test_impossible_targets_and_hardware_say_why():
    answer = plan(L8, gpu="h100-sxm", concurrent_users=10, tokens_per_s_per_user=5000)
    assert not answer.options and "tokens_per_s_per_user" in answer.infeasible[0].reason
    tpu = plan(L8, gpu="tpu-v5e", concurrent_users=10)
    assert "backend" in tpu.infeasible[0].reason


@pytest.mark.parametrize("arguments, message", [
    ({}, "give one of concurrent_users"),
    ({"concurrent_users": 5, "requests_per_s": 1}, "give one of"),
    ({"concurrent_users": 0}, "concurrent_users must be ≥ 1"),
    ({"concurrent_users": 5, "engine": "tgi"}, "engine="),
    ({"concurrent_users": 5, "weights_dtype": "q4_k_m"}, "GGUF"),
    ({"concurrent_users": 5, "prompt_tokens": 200_000}, "context window"),
    ({"concurrent_users": 5, "gpu": "h10"}, "did you mean"),
    ({"concurrent_users": 5, "users": 3}, "unknown argument"),
])
def test_bad_questions_get_a_fix_it_message(arguments, message):
    with pytest.raises(SizingError, match=message):
        plan(L8, **arguments)


traffic = st.fixed_dictionaries({
    "model": st.sampled_from([L8, "Qwen/Qwen3-8B", "mistralai/Mixtral-8x7B-v0.1", "openai/gpt-oss-20b"]),
    "engine": st.sampled_from(["vllm", "sglang", "llama_cpp"]),
    "gpu": st.sampled_from(["h100-sxm", "a100-80gb-sxm", "l40s", "rtx-4090", "rtx-4060-ti-16gb"]),
    "prompt_tokens": st.integers(16, 8192),
    "output_tokens": st.integers(16, 2048),
}, optional={"tokens_per_s_per_user": st.floats(5, 80), "ttft_s": st.floats(0.2, 5)})


def answered(arguments, **more):
    arguments = dict(arguments)
    model = arguments.pop("model")
    return plan(model, **arguments, **more).options


@settings(max_examples=40, deadline=None)
@given(traffic, st.integers(1, 2000), st.integers(1, 2000))
def test_more_users_never_need_fewer_gpus_or_less_money(arguments, users, more):
    few, many = answered(arguments, concurrent_users=users), answered(arguments, concurrent_users=users + more)
    assert bool(many) <= bool(few)
    if many:
        assert many[0].fewest_gpus >= few[0].fewest_gpus and many[0].fewest_gpus <= many[0].total_gpus
        assert (many[0].usd_per_hour or 0) >= (few[0].usd_per_hour or 0) - 1e-9
        if many[0].usd_per_hour is None:  # no offer: the fewest GPUs decide
            assert many[0].total_gpus >= few[0].total_gpus


@settings(max_examples=40, deadline=None)
@given(traffic, st.floats(0.1, 50), st.floats(0.01, 50))
def test_more_requests_per_second_never_need_fewer_gpus_or_less_money(arguments, rate, more):
    low, high = answered(arguments, requests_per_s=rate), answered(arguments, requests_per_s=rate + more)
    assert bool(high) <= bool(low)
    if high:
        assert high[0].fewest_gpus >= low[0].fewest_gpus and high[0].fewest_gpus <= high[0].total_gpus
        assert (high[0].usd_per_hour or 0) >= (low[0].usd_per_hour or 0) - 1e-9
        if high[0].usd_per_hour is None:
            assert high[0].total_gpus >= low[0].total_gpus


@settings(max_examples=40, deadline=None)
@given(traffic, st.integers(1, 8192))
def test_longer_prompts_never_admit_more_users(arguments, extra):
    short = answered(arguments, concurrent_users=1)
    longer = answered({**arguments, "prompt_tokens": arguments["prompt_tokens"] + extra}, concurrent_users=1)
    for option in longer:
        same = [o for o in short if o.gpus_per_replica == option.gpus_per_replica]
        for o in same:
            assert option.max_concurrency_per_replica <= o.max_concurrency_per_replica


async def test_ollama_is_llama_cpp_in_python_and_over_mcp(catalog):
    from mcp import Client

    from gpusizer.server.app import create_server

    expected = plan("llama-3.1-8b", engine="llama_cpp", concurrent_users=4, gpu="rtx-4090", weights_dtype="q4_k_m")
    assert plan("llama-3.1-8b", engine="Ollama", concurrent_users=4, gpu="rtx-4090", weights_dtype="q4_k_m") == expected
    async with Client(create_server(catalog)) as client:
        result = await client.call_tool("plan_serving", {"model": "llama-3.1-8b", "engine": "ollama", "concurrent_users": 4,
                                                         "gpu": "rtx-4090", "weights_dtype": "q4_k_m"})
        assert not result.is_error, result.content
        assert result.structured_content["engine"] == "llama_cpp"


def test_sglang_runs_at_most_its_default_max_running_requests_per_replica(catalog):
    """SGLang caps running requests at KV tokens / context_len x 512 held to 2,048..4,096 (model_runner), whatever more
    its KV pool could hold of short requests."""
    plan = plan_serving("meta-llama/Llama-3.1-8B", engine="sglang", gpu="h200-sxm", concurrent_users=20_000, prompt_tokens=128,
                        min_tokens_per_s_per_user=0,
                        output_tokens=64, catalog=catalog)
    option = plan.options[0]
    assert option.max_concurrency_per_replica > 4096 and option.concurrency_per_replica <= 4096
    assert option.limited_by == "max_running_requests" and option.replicas * 4096 >= 20_000


def test_a_fixed_replica_shape_is_planned_as_asked(catalog):
    # 'how fast is llama 3.1 70b across one 8-GPU node': that node, not the cheapest shape (two GPUs)
    cheapest = plan_serving("meta-llama/Llama-3.1-70B", gpu="h100-sxm", concurrent_users=1, catalog=catalog).options[0]
    node = plan_serving("meta-llama/Llama-3.1-70B", gpu="h100-sxm", concurrent_users=1, gpus_per_replica=8,
                        catalog=catalog).options[0]
    assert cheapest.gpus_per_replica < 8 and node.gpus_per_replica == node.total_gpus == 8
    assert node.tokens_per_s_per_user > cheapest.tokens_per_s_per_user  # more bandwidth per token
    one = plan_serving("meta-llama/Llama-3.1-70B", gpu="h100-sxm", concurrent_users=1, gpus_per_replica=1, catalog=catalog)
    assert not one.options and "1 GPU" in one.infeasible[0].reason
    with pytest.raises(SizingError, match="gpus_per_replica"):
        plan_serving("meta-llama/Llama-3.1-70B", concurrent_users=1, gpus_per_replica=3, catalog=catalog)


def test_a_model_the_catalog_lacks_is_planned_from_its_size_and_says_its_shape_was_assumed():
    served = plan_serving(params_billions=13, concurrent_users=40, tokens_per_s_per_user=20, gpu="a10g", catalog=CATALOG)
    listed = plan(L8, concurrent_users=40, tokens_per_s_per_user=20, gpu="a10g")
    assert served.model == "generic-13b" and served.options and served.options[0].total_gpus >= listed.options[0].total_gpus
    assert any("architecture assumed for 13B" in w for w in served.warnings)


@pytest.mark.parametrize("arguments", [{}, {"model": L8, "params_billions": 8}])
def test_a_plan_needs_exactly_one_of_a_model_or_a_size(arguments):
    with pytest.raises(SizingError, match="exactly one of model"):
        plan_serving(**arguments, concurrent_users=5, catalog=CATALOG)


def test_an_awq_checkpoint_is_not_planned_on_v100s_or_instinct_cards_which_vllm_has_no_kernel_for(catalog):
    """vLLM's quantization hardware table: AWQ needs Turing or newer and has no ROCm kernel."""
    plan = plan_serving("llama-3.1-8b", concurrent_users=100, weights_dtype="awq", catalog=catalog)
    refused = {gpu.gpu_id: gpu.reason for gpu in plan.infeasible}
    assert "no AWQ kernel for Volta" in refused["v100-16gb-sxm2"] and "no AWQ kernel for CDNA" in refused["mi300x"]
    assert not {option.gpu_id for option in plan.options} & {"v100-16gb-sxm2", "v100-32gb-sxm2", "mi300x"}


def test_an_fp8_checkpoint_runs_weight_only_on_ampere_but_not_on_volta(catalog):
    assert plan_serving("llama-3.1-8b", concurrent_users=4, weights_dtype="fp8", gpu="a100-80gb-sxm", catalog=catalog).options
    volta = plan_serving("llama-3.1-8b", concurrent_users=4, weights_dtype="fp8", gpu="v100-32gb-sxm2", catalog=catalog)
    assert not volta.options and "no FP8 kernel for Volta" in volta.infeasible[0].reason


def test_one_user_of_an_fp8_70b_is_served_on_one_h100_once_vllm_may_take_95_percent(catalog):
    """At vLLM's default 0.9 share the FP8 70B leaves no KV cache on one H100, so the plan takes two; operators raise
    --gpu-memory-utilization to 0.95 and serve it on one: the answer names that as the cheaper plan."""
    result = plan_serving(catalog=catalog, model="meta-llama/Llama-3.1-70B", weights_dtype="fp8", gpu="h100-sxm",
                          concurrent_users=1)
    assert result.options[0].total_gpus == 2
    share = result.alternatives[0]
    assert share.arguments == {"gpu_memory_utilization": 0.95} and share.total_gpus == 1
    assert 20 < share.tokens_per_s_per_user < 50
