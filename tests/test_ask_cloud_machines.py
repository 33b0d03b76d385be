"""A machine named by the type its provider sells it as ('gpu_8x_h100_sxm5', 'p5.4xlarge', 'Standard_NC96ads_A100_v4') is
read from the catalog's own offers, not from a hand-written list: its GPUs, its provider, and its bill first."""
import pytest

from gpusizer.catalog.instances import machine_key, machines
from gpusizer.tools.questions import ask


def test_every_machine_the_offers_sell_is_found_by_its_own_name_in_any_spelling(catalog):
    index = machines(catalog)
    for offer in catalog.offers:
        found = index.get(machine_key(offer.instance_type))
        assert found is not None and (found.gpu_id, found.gpus_per_instance) == (offer.gpu_id, offer.gpus_per_instance)
    assert machine_key("Standard_NC96ads_A100_v4") == machine_key("nc96ads-a100-v4") == "nc96ads_a100_v4"
    assert machine_key("1H100.80S.30V") == "1h100_80s_30v"


@pytest.mark.parametrize("question, gpus, provider, machine, hours", [
    ("how much is lambda's gpu_1x_a10 for 40 hours?", [["a10", 1]], "lambda", "gpu_1x_a10", 40),
    ("price of 2 days on a Standard_NC24ads_A100_v4?", [["a100-80gb-pcie", 1]], "azure", "Standard_NC24ads_A100_v4", 48),
    ("what does an 8L40S.160V cost for a week", [["l40s", 8]], "verda", "8L40S.160V", 168),
    ("g7e.8xlarge for 10 hours, total?", [["rtx-pro-6000-blackwell", 1]], "aws", "g7e.8xlarge", 10),
])
def test_a_machine_the_catalog_sells_is_its_gpus_at_its_provider_priced_first(catalog, question, gpus, provider, machine, hours):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost" and answer.reading["gpus"] == gpus and answer.reading["hours"] == hours
    assert answer.reading["providers"] == [provider]
    first = answer.answer.splitlines()[0]
    offer = next(o for o in catalog.offers if o.instance_type == machine and o.on_demand_usd_per_hour)
    assert first.startswith(f"{machine}: ") and f"on {provider} {machine} " in first
    assert f"${offer.on_demand_usd_per_hour * hours:,.2f}" in answer.answer


def test_two_machines_of_a_name_the_table_already_knew_are_still_their_gpus(catalog):
    answer = ask("2x p5.48xlarge for a day, what's the bill?", catalog)
    assert answer.reading["gpus"] == [["h100-sxm", 16]] and answer.reading["providers"] == ["aws"]


def test_a_word_that_only_looks_like_a_machine_is_left_alone(catalog):
    answer = ask("how much vram does llama-3.1-8b need at 8k context?", catalog)
    assert answer.journey == "estimate" and not answer.reading.get("providers")


def test_a_machine_the_catalog_knows_but_does_not_price_is_said_to_be_unpriced_before_the_same_gpus_elsewhere(catalog):
    """'What will a g6e.xlarge cost me for 300 hours?': instance_types.csv knows it (1 x L40S at AWS) but no offer prices
    it; the answer says so first, then prices one L40S wherever it is cheapest, instead of quoting another bill as the
    g6e.xlarge's unsaid."""
    assert not [o for o in catalog.offers if o.instance_type == "g6e.xlarge"]
    answer = ask("what will a g6e.xlarge cost me for 300 hours?", catalog)
    lines = answer.answer.splitlines()
    assert lines[0] == "g6e.xlarge (aws, 1 x l40s) has no price in the catalog; the same GPUs from the catalog's offers:"
    cheapest = min(o.on_demand_usd_per_hour for o in catalog.offers_for("l40s") if o.on_demand_usd_per_hour and o.gpus_per_instance == 1)
    assert f"${cheapest * 300:,.2f}" in answer.answer and answer.calls[0].arguments.get("providers") is None
