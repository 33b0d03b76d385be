"""'Spot vs on-demand' asks both bills and what spot saves: the on-demand total first, the spot one beside it, neither
pricing class left under 'Ignored'."""
import re

import pytest

from gpusizer.tools.questions import ask


def totals(line: str) -> tuple[float, float, float]:
    on_demand, spot, saved = (float(x.replace(",", "")) for x in re.findall(
        r"On-demand \$([\d,.]+) .* vs spot \$([\d,.]+) .* spot saves \$([\d,.]+)", line)[0])
    return on_demand, spot, saved


@pytest.mark.parametrize("question, provider", [
    ("on-demand or spot for 4x L40S on runpod for 50 hours, how much do I save?", "runpod"),
    ("how much cheaper is spot than on-demand for an H100 on verda for 200 hours?", "verda"),
    ("compare spot and on-demand prices for 8 H100s on aws for a day", "aws"),
    ("nebius, one h200 for 3 days: spot versus on demand?", "nebius"),
])
def test_both_pricing_classes_named_give_both_totals_and_the_difference_on_demand_first(catalog, question, provider):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost"
    first = answer.answer.splitlines()[0]
    on_demand, spot, saved = totals(first)
    assert spot < on_demand and saved == pytest.approx(on_demand - spot, abs=0.01) and f"on {provider} " in first
    assert not {"spot", "on-demand", "demand"} & set(answer.ignored)


def test_a_named_machine_compares_its_own_two_prices(catalog):
    first = ask("p5.48xlarge, on-demand vs spot for 12 hours?", catalog).answer.splitlines()[0]
    rate = min(o.on_demand_usd_per_hour for o in catalog.offers if o.instance_type == "p5.48xlarge" and o.on_demand_usd_per_hour)
    assert "on aws p5.48xlarge" in first and totals(first)[0] == pytest.approx(rate * 12)  # the catalog's rate, not a typed one


def test_one_pricing_class_named_is_that_class_alone(catalog):
    answer = ask("8x H100 on aws for a day, spot only", catalog)
    assert answer.reading["pricing"] == "spot" and "On-demand $" not in answer.answer
