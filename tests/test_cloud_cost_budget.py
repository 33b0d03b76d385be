"""What a budget buys (tools/money/budget.py) and each provider's bill of a GPU named by an alias (cloud_cost)."""
import re

import pytest

from gpusizer.tools import cloud_cost, estimate_vram
from gpusizer.tools.money.answers import providers_answer
from gpusizer.tools.money.budget import budget_hours_answer, budget_verdict, cards_within_budget, cheapest_ways, job_rate
from gpusizer.tools.pricing import cheapest_fits


def test_an_alias_finds_each_providers_own_form_of_the_gpu(catalog):
    """'A100 80GB' on RunPod (which rents the PCIe part) vs Lambda (the SXM one): both priced, RunPod's form said."""
    result = cloud_cost(catalog=catalog, gpu="a100 80gb", hours=168, providers=["runpod", "lambda"])
    forms = {o.provider: o.gpu_id for o in result.offers}
    assert forms == {"runpod": "a100-80gb-pcie", "lambda": "a100-80gb-sxm"}
    assert any(n.startswith("runpod: ") and "a100-80gb-pcie" in n for n in result.notes)


def test_an_exact_part_is_not_swapped_for_another_form(catalog):
    result = cloud_cost(catalog=catalog, gpu="a100-80gb-sxm", hours=1, providers=["runpod", "lambda"])
    assert {o.gpu_id for o in result.offers} == {"a100-80gb-sxm"}


def test_each_provider_bill_is_on_demand_first_with_spot_beside_it(catalog):
    result = cloud_cost(catalog=catalog, gpu="a100-40gb-sxm", gpu_count=4, hours=36, providers=["aws"])
    text = providers_answer(result, ["aws"], catalog)
    on_demand = next(o for o in result.offers if o.pricing == "on_demand")
    assert text.startswith(f"${on_demand.total_usd:,.2f} on-demand") and "; spot $" in text


def test_which_provider_is_cheaper_leads_with_the_pick(catalog):
    result = cloud_cost(catalog=catalog, gpu="a100 80gb", hours=168, providers=["runpod", "lambda"])
    first_line = providers_answer(result, ["runpod", "lambda"], catalog).splitlines()[0]
    assert first_line.startswith("Cheaper: runpod,") and "vs lambda" in first_line


def test_a_budget_buys_its_dollars_over_the_hourly_rate(catalog):
    result = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=1, hours=1)
    on_demand = next(o for o in result.offers if o.pricing == "on_demand")
    text = budget_hours_answer(result, 500)
    assert text.startswith(f"About {500 / job_rate(on_demand):,.0f} hours") and "on-demand" in text
    assert "On spot" in text.splitlines()[1]


def test_cards_to_buy_within_a_budget_hold_the_workload_and_cost_no_more(catalog):
    fits = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", workload="training", method="qlora").fits
    text = cards_within_budget(catalog, fits, 2000)
    assert text.startswith("Within your $2,000.00 to buy")
    prices = [float(p.replace(",", "")) for p in re.findall(r": \$([\d,]+\.\d\d)", text)]
    assert prices and all(p <= 2000 for p in prices)
    assert cards_within_budget(catalog, fits, 10).startswith("No card that holds it is within your $10.00")


def test_a_rate_cap_leaves_out_what_costs_more(catalog):
    fits = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B").fits
    ranked = cheapest_fits(catalog, fits)
    assert cheapest_ways(ranked, 0.01).startswith("Nothing in the catalog runs it within your $0.01/h")
    assert "within your $5.00/h" in cheapest_ways(ranked, 5.0)


@pytest.mark.parametrize("cost, verdict", [(1_500, "Yes"), (12_000, "No"), (None, "Cannot say")])
def test_a_budget_verdict_says_yes_or_no_first(cost, verdict):
    assert budget_verdict(cost, 10_000, "the run").startswith(verdict + ":")
