"""Ask on serving (issue #35): what given hardware takes, answered at a chat's length and a per-user speed; traffic with
a price asked answered as a serving plan led by its price; 'A or B, whichever is cheaper' planned on both; the cost
per million tokens of a GPU kept busy."""
import re

import pytest

from gpusizer.tools.figures import number
from gpusizer.tools.questions import ask


def figure(pattern, text):
    found = re.search(pattern, text)
    assert found, text
    return float(found.group(1).replace(",", ""))


@pytest.mark.parametrize("question", [
    "how many concurrent users can one L40S handle with mistral 7b in vllm?",
    "how many users can a single L40S take running mistral 7b on vllm?",
    "one l40s, mistral 7b, vllm: how many chats at once can it carry?",
    "with vllm, how many simultaneous requests will mistral 7b on an L40S hold?",
])
def test_users_one_gpu_handles_are_chat_length_requests_not_the_full_window(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "limits" and answer.calls[0].tool == "serving_capacity"
    first = answer.answer.splitlines()[0]
    assert "1,024 prompt + 256 output tokens" in first and "at least 10 tokens/s each" in first
    assert 120 <= figure(r": ([\d,]+) requests of", first) <= 200  # not vLLM's 6.35 at 32,768 tokens
    assert "'Maximum concurrency' 6.35" in answer.answer  # that figure, said for what it is


@pytest.mark.parametrize("question", [
    "8xH100 node, llama 3.3 70b fp8 in vllm. how many concurrent chat users can it handle at >= 25 tok/s each?",
    "how many users at 25 tokens/s each can 8x h100 serve with llama 3.3 70b in fp8 on vllm?",
    "llama 3.3 70b fp8, vllm, one node of 8 H100s: how many concurrent requests at 25 tok/s per user?",
])
def test_a_speed_target_per_user_caps_the_users_a_node_takes(catalog, question):
    answer = ask(question, catalog)
    assert answer.calls[0].tool == "serving_capacity" and answer.calls[0].arguments["tokens_per_s_per_user"] == 25
    first = answer.answer.splitlines()[0]
    assert "at least 25 tokens/s each" in first and 130 <= figure(r": ([\d,]+) requests of", first) <= 300


@pytest.mark.parametrize("question", [
    "p4d.24xlarge running llama 3.1 70b in vllm (tp=8): how many requests/sec can it sustain with 512-token prompts and "
    "256-token outputs?",
    "how many requests per second can 8x a100 40gb push for llama 3.1 70b on vllm with tp=8, 512 token prompts?",
    "what's the max rps of llama 3.1 70b on 8x A100 40GB SXM with vllm tp 8?",
])
def test_a_request_rate_asked_of_given_gpus_leads_the_answer(catalog, question):
    answer = ask(question, catalog)
    assert answer.calls[0].tool == "serving_capacity" and answer.calls[0].arguments["gpus_per_replica"] == 8
    assert 3 <= figure(r"about ([\d.]+) requests/s sustained", answer.answer.splitlines()[0]) <= 15


@pytest.mark.parametrize("question", [
    "whats the cost per million output tokens serving llama 3.1 8b on a single L4 (kept busy)?",
    "price per million tokens of llama 3.1 8b on an l4 with vllm, fully utilized?",
    "cost per token serving llama 3.1 8b on one L4?",
])
def test_the_cost_per_million_tokens_of_a_busy_gpu_leads_with_it(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "serving" and answer.calls[0].tool == "serving_capacity"
    first = answer.answer.splitlines()[0]
    assert re.search(r"^1 × l4 \(one replica of 1 GPU\): \$[\d.]+ per million output tokens \(\$[\d.]+/h\) kept busy at "
                     r"\d+ requests", first), first


@pytest.mark.parametrize("question, users", [
    ("What's the cheapest way to serve gpt-oss-20b for 100 concurrent users?", 100),
    ("serve gpt-oss-120b for 1000 concurrent users, cheapest setup?", 1000),
    ("lowest-cost way to serve qwen2.5 7b to 50 users at once?", 50),
    ("cheapest gpu setup for mistral 7b at 300 concurrent chats?", 300),
])
def test_users_with_a_cheapest_setup_asked_get_a_serving_plan_led_by_its_monthly_price(catalog, question, users):
    answer = ask(question, catalog)
    assert answer.journey == "serving" and answer.calls[0].arguments["concurrent_users"] == users
    assert re.match(r"\$[\d,.]+/month in all \(\$[\d.]+/h\): \d+ replicas? of ", answer.answer), answer.answer


@pytest.mark.parametrize("question", [
    "our chatbot gets 2000 requests per hour on llama 3.1 8b, what's the cheapest cloud gpu setup",
    "RAG app: 8k token prompts, 500 output tokens, 10 req/s, phi-4. what's it cost per month on cloud?",
    "what would it cost per month to host llama 3.1 8b for 5 requests a second?",
])
def test_a_request_rate_with_a_cost_asked_is_a_serving_plan(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "serving" and "requests_per_s" in answer.calls[0].arguments
    assert re.match(r"\$[\d,.]+/month in all", answer.answer), answer.answer


@pytest.mark.parametrize("question, gpus", [
    ("we get ~10 rps of gemma 3 27b traffic. A100 80GB or H100, whichever is cheaper per month?", {"a100-80gb-sxm", "h100-sxm"}),
    ("L40S or A100 for llama 3.1 8b at 20 req/s, whichever is cheaper?", {"l40s", "a100-80gb-sxm"}),
    ("serving qwen2.5 14b to 200 users: H100 or H200, which costs less per month?", {"h100-sxm", "h200-sxm"}),
    ("mistral 7b for 500 concurrent users - l4 or a10g, cheaper one?", {"l4", "a10g"}),
])
def test_a_or_b_whichever_is_cheaper_plans_both_and_leads_with_the_cheaper(catalog, question, gpus):
    answer = ask(question, catalog)
    assert answer.journey == "serving"
    assert {c.arguments["gpu"] for c in answer.calls if c.tool == "plan_serving"} == gpus
    first = answer.answer.splitlines()[0]
    assert first.startswith("Cheaper: ") and first.count("/month") == 2, first
    cheaper = first.removeprefix("Cheaper: ").split(" ")[0]
    prices = {g: figure(rf"{g}: \d+ GPUs?, \$([\d,.]+)/month", first) for g in gpus}
    assert prices[cheaper] == min(prices.values())


@pytest.mark.parametrize("question, users", [
    ("internal chatbot for ~500 staff, maybe 50 concurrent at peak, llama 3.1 8b on L40S. how many gpus?", 50),
    ("1200 people in the company, 80 concurrent. what does serving qwen2.5 14b cost per month?", 80),
    ("a school of 900 students, around 60 simultaneous at peak: serve mistral 7b, what gpus?", 60),
])
def test_the_concurrent_count_is_the_load_not_the_head_count(catalog, question, users):
    from gpusizer.tools.questions import ask

    assert ask(question, catalog).reading["users"] == users


@pytest.mark.parametrize("question", [
    "peak aggregate tokens/sec for mistral small 24b in fp8 on one l40s under vllm?",
    "whats the max throughput qwen3 14b can push on 2x a100 80gb with sglang",
])
def test_a_boxs_throughput_is_what_it_serves_in_all_with_no_speed_floor(catalog, question):
    answer = ask(question, catalog)
    made = next(c for c in answer.calls if c.tool == "serving_capacity")
    assert made.arguments["min_tokens_per_s_per_user"] == 0 and made.result is not None
    best = max(made.result["layouts"], key=lambda layout: layout["aggregate_tokens_per_s"])
    assert f"about {number(best['aggregate_tokens_per_s'])} output tokens/s in all" in answer.answer.splitlines()[0]
    assert "the most output tokens/s in all" in answer.interpretation


def test_a_throughput_at_a_batch_said_is_the_speed_at_that_batch(catalog):
    answer = ask("total throughput of llama 3.1 8b on one h100 with vllm at batch 16?", catalog)
    assert [c.tool for c in answer.calls][:1] == ["estimate_speed"] and answer.calls[0].arguments["concurrency"] == 16


def test_a_pasted_max_model_len_asks_what_the_engine_admits_not_a_chat_speed(catalog):
    """'vllm serve ... --max-model-len 16384: how many at once?' asks the engine's own limit (its KV cache at that length),
    with the speed each request then gets said, not the count that keeps a default 10 tokens/s each."""
    answer = ask("vllm serve Qwen/Qwen2.5-32B-Instruct --max-model-len 16384 on one h100. how many requests can it run at once?",
                 catalog)
    made = next(c for c in answer.calls if c.tool == "serving_capacity")
    assert made.arguments["min_tokens_per_s_per_user"] == 0 and made.arguments["prompt_tokens"] == 16384 - 256
    first = made.result["layouts"][0]
    assert first["limited_by"] == "kv_cache" and f"{first['requests_at_once']} requests of" in answer.answer.splitlines()[0]
    assert "as many as the engine admits" in answer.interpretation


def test_a_share_of_the_people_at_once_is_the_users_not_a_utilization(catalog):
    answer = ask("our school has 1200 students and maybe 10% would use the tutor bot simultaneously. qwen2.5 14b: what gpus and cost?",
                 catalog)
    assert answer.journey == "serving" and answer.reading["users"] == 120 and answer.reading.get("utilization") is None
