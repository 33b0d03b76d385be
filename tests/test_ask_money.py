"""Money questions judged by their answers (issue #35): each provider's bill of the GPU named, on-demand unless spot
is asked, schedules priced as the hours they are, budgets divided, and rent-or-buy at the asker's own rate."""
import pytest

from gpusizer.tools.figures import usd
from gpusizer.tools.questions import ask


@pytest.mark.parametrize("question", [
    "what does an A100 80GB cost per hour on runpod vs lambda",
    "renting a single a100 80gb for a week: runpod vs lambda, which is cheaper?",
    "a100 80gb for 3 days, runpod or lambda, which is cheaper?",
    "price of 2x a100 80gb on runpod and lambda for a day",
])
def test_a_provider_that_rents_the_other_form_of_a_gpu_is_priced_and_the_pick_leads(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost" and "no offer" not in answer.answer
    assert answer.answer.startswith("Cheaper: runpod,") and "a100-80gb-pcie" in answer.answer


@pytest.mark.parametrize("question", [
    "fine tuning job needs 4 a100 40gb for 36 hours, whats the bill on aws",
    "how much would 8 h100 cost for 2 days on aws",
    "cost of 2 l40s on aws for 100 hours?",
])
def test_a_bill_on_one_provider_is_on_demand_with_spot_second(catalog, question):
    text = ask(question, catalog).answer
    assert " on-demand for " in text.splitlines()[0] and "; spot $" in text


@pytest.mark.parametrize("question, hours, days", [
    ("renting 4x L40S for a month but only 8 hours a day, ballpark cost?", 243.2, "30.4 days"),
    ("2 h100 for two weeks, 10 hrs a day, what's the cost?", 140, "14 days"),
    ("an a100 for a month, weekdays only, 8 hours a day: cost?", 173.6, "21.7 weekdays"),
    ("what would it cost to run llama 3.1 8b on an l4 6 hours a day for a month", 182.4, "30.4 days"),
])
def test_hours_a_day_over_a_span_are_the_hours_priced_and_said(catalog, question, hours, days):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost" and answer.reading["hours"] == pytest.approx(hours)
    assert answer.answer.startswith("Hours priced: ") and days in answer.answer.splitlines()[0]


@pytest.mark.parametrize("question", [
    "I want to run qwen2.5 7b on a T4 spot instance 8 hours a day for a month, how much?",
    "llama 3.1 8b on an l4 for 2 weeks, 10 hours a day. how much?",
    "mistral 7b on one a10g 12 hours a day for 30 days, how much",
])
def test_a_model_a_gpu_a_schedule_and_how_much_is_a_bill_with_the_fit_as_a_note(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost" and "\nFit: " in answer.answer and "$" in answer.answer.split("\nFit: ")[0]


@pytest.mark.parametrize("question", [
    "budget is $500, how many hours of a single H100 can i get",
    "i have $1000, how many hours of an a100 is that",
    "with a $200 budget how long can I rent a 4090",
])
def test_a_budget_is_divided_by_the_hourly_rate(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost" and answer.answer.startswith("About ") and " hours (" in answer.answer
    assert "On spot" in answer.answer


@pytest.mark.parametrize("question, budget", [
    ("which gpu should I buy for qlora finetuning llama 3.1 8b, budget under $2000", "$2,000.00"),
    ("what card should i buy to run qwen2.5 14b, budget $1500", "$1,500.00"),
    ("best gpu to buy for mistral 7b inference with a $800 budget?", "$800.00"),
])
def test_which_gpu_to_buy_within_a_budget_lists_cards_by_purchase_price(catalog, question, budget):
    answer = ask(question, catalog)
    assert answer.journey == "which_gpu" and f"Within your {budget} to buy" in answer.answer and "/h on" not in answer.answer


def test_a_training_run_against_a_budget_says_yes_or_no_first(catalog):
    answer = ask("continued pretraining of mistral 7b on 20B tokens, budget $10k, H100 or A100 whichever is cheaper. "
                 "do we fit the budget?", catalog)
    assert answer.journey == "cloud_cost" and answer.answer.startswith("Yes: the run on ") and "within your $10,000.00" in answer.answer


@pytest.mark.parametrize("question, rate", [
    ("buy a 4090 for $1800 or rent one on vast at 40c/hr? i'd use it ~6 hours a day", 0.4),
    ("rent a 3090 at 22c/hr or buy one used for $700? about 3 hours a day", 0.22),
    ("should i buy an rtx 5090 for $2000 or rent it at 55c/hr, maybe 5 hours a day?", 0.55),
])
def test_rent_or_buy_uses_the_askers_rate_in_cents(catalog, question, rate):
    answer = ask(question, catalog)
    assert answer.journey == "rent_or_buy" and answer.reading["rent_usd_per_gpu_hour"] == pytest.approx(rate)
    assert "(given)" in answer.answer


@pytest.mark.parametrize("question, count", [
    ("we pay $2.50/hr per H100 on contract. at what utilization does buying our own 8 become cheaper?", 8),
    ("we rent a100s at $1.50/hr. at what usage does buying 4 pay off?", 4),
    ("renting h200s costs us $3/hr each; if we purchase 16 of them, when do they pay for themselves?", 16),
])
def test_a_break_even_question_is_rent_or_buy_with_the_break_even_first(catalog, question, count):
    answer = ask(question, catalog)
    assert answer.journey == "rent_or_buy" and answer.answer.splitlines()[0].startswith("Break-even: ")
    assert f"for {count} x " in answer.answer


@pytest.mark.parametrize("question", ["$/M tokens for Mixtral 8x7B on 2x A100 80GB?",
                                      "what's the $ per 1M tokens for llama 3.3 70b on 4x h100 at on-demand prices?"])
def test_a_price_per_million_tokens_on_named_gpus_is_that_price(catalog, question):
    """'$/M tokens' is the price asked (blind round 4, S12): not a fit and an hourly bill."""
    answer = ask(question, catalog)
    layout = answer.calls[0].result["layouts"][0]
    assert answer.journey == "serving" and usd(layout["usd_per_million_output_tokens"]) in answer.answer
    assert "per million output tokens" in answer.answer.splitlines()[0]
