"""Ask answers with the tools' own answers (issue #35: answers come from tools only): the rent-or-buy and comparison
texts are the ones an MCP client reads, so their verdict, one-machine price and owning lines are the same."""
import pytest

from gpusizer.tools import compare_gpus, rent_vs_buy
from gpusizer.tools.compare.answer import compare_gpus_answer
from gpusizer.tools.money.answers import rent_vs_buy_answer
from gpusizer.tools.questions import ask


def test_buying_a_server_or_renting_answers_with_rent_vs_buys_own_lines(catalog):
    answer = ask("we'd use eight h100s about half the time. buy a box or keep renting them?", catalog).answer
    tool = rent_vs_buy_answer(rent_vs_buy(catalog=catalog, gpu="h100-sxm", gpu_count=8, utilization=0.5))
    assert tool.splitlines()[0] in answer and "count as $0" not in answer
    assert "Owning:" in answer  # the owning lines the totals hold (staff, power, colocation...) are named


def test_one_card_or_two_smaller_ones_whichever_is_cheaper_is_answered_by_one_machines_price(catalog):
    """Two L40S are priced as the machine that holds both, not as two single-GPU rentals."""
    answer = ask("qwen2.5 32b in bf16 for chat: a single h100 or a pair of l40s - which one costs less an hour?", catalog)
    tool = compare_gpus_answer(compare_gpus(["h100-sxm", "l40s"], model="Qwen/Qwen2.5-32B", weights_dtype="bf16",
                                            catalog=catalog))
    assert answer.journey == "compare" and tool.splitlines()[0] in answer.answer
    assert "Cheapest per hour that holds the workload" in answer.answer


def test_running_a_model_for_a_month_names_each_ways_bill_not_only_its_rate(catalog):
    """'around the clock for a month' is 730 hours: each way to run it is priced for them."""
    answer = ask("roughly what's the bill for keeping qwen2.5 72b up nonstop for a month on rented gpus?", catalog).answer
    assert "for 730 h" in answer


def test_a_gpu_rented_for_some_hours_is_answered_with_cloud_costs_own_lines(catalog):
    """The cheapest offer and the cheapest on-demand one, as the MCP tool words them (spot is not the only bill)."""
    answer = ask("whats 300 hrs on a single L4 gonna run me?", catalog).answer
    assert "Cheapest on-demand:" in answer and "for 300 hours" in answer


def test_bf16_mixed_precision_is_read_and_sized_with_fp32_master_weights(catalog):
    """AMP keeps fp32 master weights and Adam states: ~16 bytes a parameter, so an 8B does not fit one H100."""
    answer = ask("can i do full-parameter training of llama 3.1 8b on a single h100 using bf16 mixed precision + adamw?", catalog)
    assert answer.reading["training_precision"] == "mixed" and answer.answer.startswith("No")


def test_tokens_per_second_on_a_named_card_is_estimate_speeds_figure(catalog):
    from gpusizer.tools import estimate_speed

    answer = ask("single-stream decode speed of llama 3.1 70b in fp8 on one h100?", catalog)
    figure = estimate_speed(catalog=catalog, model="meta-llama/Llama-3.1-70B", gpu="h100-sxm", weights_dtype="fp8")
    assert f"{figure.decode_tokens_per_s:.2f} tokens/s per sequence" in answer.answer


def test_a_request_rate_and_what_hardware_gets_a_serving_plan(catalog):
    """'~2000 requests an hour ... what hardware?': the rate is the load a plan serves, not dropped for a memory list."""
    answer = ask("our support bot will see ~2000 requests an hour on llama 3.1 8b, 600-token prompts, 200-token replies."
                 " what hardware?", catalog)
    assert answer.journey == "serving" and answer.calls[0].arguments["requests_per_s"] == pytest.approx(2000 / 3600, rel=0.01)
