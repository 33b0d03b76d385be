"""The Ask tab's cards: each tool call's title says its key figure before it is expanded."""
from gpusizer.tools.questions import ask
from gpusizer.tui.panes.ask import key_figures


def test_a_capacity_card_says_the_requests_at_once_and_the_rate(catalog):
    answer = ask("how many concurrent users can one L40S handle with mistral 7b in vllm?", catalog)
    call = next(c for c in answer.calls if c.tool == "serving_capacity")
    best = call.result["layouts"][0]
    assert key_figures(call) == f"{best['requests_at_once']:,} requests at once, {best['requests_per_s']:.1f} requests/s"


def test_a_serving_plan_card_says_the_fleet_and_its_month(catalog):
    answer = ask("serve qwen2.5 7b to 300 concurrent users with vllm", catalog)
    call = next(c for c in answer.calls if c.tool == "plan_serving")
    assert key_figures(call).startswith(f"{call.result['options'][0]['total_gpus']} × ") and "/month" in key_figures(call)


def test_a_cheapest_way_card_names_the_pick(catalog):
    answer = ask("cheapest way to fine-tune llama 3.1 8b?", catalog)
    assert key_figures(answer.calls[0]) == f"cheapest: {answer.calls[0].result['pick']}"
