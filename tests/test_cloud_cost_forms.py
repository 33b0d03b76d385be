"""A GPU named by its memory and not its form ('A100 80GB') is either form: cloud_cost weighs both at each provider asked
about and leads with the cheapest machine for the count, saying which form it is. A family name ('H100') keeps the
catalog's reading (SXM) where the provider rents it."""
import pytest

from gpusizer.tools.money import cloud_cost
from gpusizer.tools.questions import ask


def test_four_a100_80gb_on_azure_are_the_four_gpu_pcie_machine_not_half_an_eight_gpu_one(catalog):
    result = cloud_cost("a100 80gb", gpu_count=4, hours=730, providers=["azure"], pricing="on_demand", catalog=catalog)
    best = result.offers[0]
    assert (best.gpu_id, best.instance_type, best.idle_gpus) == ("a100-80gb-pcie", "Standard_NC96ads_A100_v4", 0)
    assert best.total_usd == pytest.approx(14.692 * 730)
    assert any(n.startswith("azure: 'a100 80gb' names no form") for n in result.notes)


def test_a_family_name_is_not_weighed_in_its_other_form_where_the_provider_rents_the_one_read(catalog):
    result = cloud_cost("h100", hours=10, providers=["runpod"], catalog=catalog)
    assert {o.gpu_id for o in result.offers} == {"h100-sxm"}


@pytest.mark.parametrize("question, count", [
    ("Finance here - engineering wants 4x A100 80GB on Azure running 24/7. What does that come to per month?", 4),
    ("4 A100 80GB cards on azure for two weeks, cost?", 4),
    ("we need two A100 80GB on azure for 100 hours; price?", 2),
    ("azure: one a100 80gb for a month, what's the bill", 1),
])
def test_ask_leads_with_the_cheaper_form_and_says_it(catalog, question, count):
    first = ask(question, catalog).answer.splitlines()[0]
    assert f"for {count} x a100-80gb-pcie " in first and "on azure" in first


def test_a_quoted_rate_is_said_against_the_named_providers_own(catalog):
    """'runpod h100 for 10 hours? I saw $1.99/h somewhere': the quoted rate is priced, and said not to be RunPod's when
    the catalog's RunPod rate differs, naming who lists it at that rate."""
    from gpusizer.tools.figures import usd
    from gpusizer.tools.money.answers import cloud_bill_answer
    result = cloud_cost("h100", hours=10, providers=["runpod"], catalog=catalog)
    runpod = min(o.usd_per_gpu_hour for o in result.offers if o.pricing == "on_demand")
    quoted = next(o.on_demand_usd_per_hour / o.gpus_per_instance for o in catalog.offers_for("h100-sxm")
                  if o.provider != "runpod" and o.on_demand_usd_per_hour and o.gpus_per_instance >= 1
                  and abs(o.on_demand_usd_per_hour / o.gpus_per_instance - runpod) > 0.1)
    text = cloud_bill_answer(result, catalog, ["runpod"], quoted, {})
    assert text.startswith(f"At your rate of {usd(quoted)}/GPU-h") and "It is not runpod's catalog on-demand rate" in text
    own = cloud_bill_answer(result, catalog, ["runpod"], runpod, {})
    assert "That is runpod's catalog on-demand rate." in own
