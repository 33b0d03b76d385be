"""The Ask tab's cards: each tool call's title says its key figure before it is expanded."""
from gpusizer.tools.questions import ask
from gpusizer.tui.panes.ask import key_figures


def test_a_capacity_card_says_the_requests_at_once_the_rate_and_the_throughput(catalog):
    answer = ask("how many concurrent users can one L40S handle with mistral 7b in vllm?", catalog)
    call = next(c for c in answer.calls if c.tool == "serving_capacity")
    best = call.result["layouts"][0]
    assert key_figures(call).startswith(f"{best['requests_at_once']:,} requests at once, {best['requests_per_s']:.1f} requests/s")


def test_a_throughput_card_says_the_most_output_tokens_a_second_of_any_layout(catalog):
    answer = ask("what's the max throughput of llama 3.1 70b fp8 on 8x H100 with vllm?", catalog)
    call = next(c for c in answer.calls if c.tool == "serving_capacity")
    most = max(layout["aggregate_tokens_per_s"] for layout in call.result["layouts"])
    assert key_figures(call).endswith(f"up to {most:,.0f} output tok/s")


def test_a_cost_card_with_no_offer_says_so_rather_than_nothing(catalog):
    answer = ask("how much to rent a 4090 on aws for 10 hours?", catalog)
    call = next(c for c in answer.calls if c.tool == "cloud_cost")
    assert not call.result["offers"] and key_figures(call) == "no offer priced (why in notes)"


def test_a_serving_plan_card_says_the_fleet_and_its_month(catalog):
    answer = ask("serve qwen2.5 7b to 300 concurrent users with vllm", catalog)
    call = next(c for c in answer.calls if c.tool == "plan_serving")
    assert key_figures(call).startswith(f"{call.result['options'][0]['total_gpus']} × ") and "/month" in key_figures(call)


def test_a_cheapest_way_card_names_the_pick(catalog):
    answer = ask("cheapest way to fine-tune llama 3.1 8b?", catalog)
    assert key_figures(answer.calls[0]) == f"cheapest: {answer.calls[0].result['pick']}"


def test_a_biggest_model_card_names_the_largest_model_of_each_format(catalog):
    answer = ask("whats the biggest model i can run on a 3090 with ollama", catalog)
    call = next(c for c in answer.calls if c.tool == "biggest_model")
    first = [f for f in call.result["formats"] if f["models"]][0]
    assert key_figures(call).startswith(f"{first['models'][0]['model']} ({first['weights_dtype']})")
