"""The rent side of rent or buy: a person renting one card rents one card, never a data-centre's 8-GPU machine."""
import pytest

from gpusizer.catalog import SizingError
from gpusizer.tools import rent_vs_buy
from gpusizer.tools.questions import ask


def test_one_rented_4090_is_one_marketplace_card_not_an_eight_gpu_machine(catalog):
    # The only data-centre 4090 offer is an 8-GPU machine: 7 idle cards paid for. A marketplace rents one card.
    result = rent_vs_buy(catalog=catalog, gpu="rtx-4090", gpu_count=1, purchase_usd_per_gpu=1800, utilization=4 / 24)
    assert result.rent_offer_class == "marketplace"
    assert 0.2 <= result.rent_usd_per_gpu_hour <= 1.0
    assert result.rent_total_usd < 5_000  # 1,460 h a year for 3 years at well under $1/h
    assert any("no data-centre offer rents that many without idle GPUs" in a for a in result.assumptions)


def test_a_data_centre_offer_comes_first_where_one_rents_that_many_without_idle_gpus(catalog):
    one = rent_vs_buy(catalog=catalog, gpu="h100-pcie", gpu_count=1, purchase_usd_per_gpu=25_000, utilization=1.0, years=0.5)
    assert one.rent_offer_class == "datacenter"
    assert one.rent_total_usd == pytest.approx(one.rent_usd_per_gpu_hour * 4_380)


def test_sixteen_h200s_rent_as_two_eight_gpu_servers(catalog):
    # Owned servers compare with rented servers: machines whose size divides the count, the largest such size first.
    result = rent_vs_buy(catalog=catalog, gpu="h200-sxm", gpu_count=16, purchase_usd_per_gpu=35_000, utilization=1.0, years=2)
    assert result.rent_offer_class == "datacenter"
    assert result.rent_offer and result.rent_offer.split(" ")[1:3] == ["2", "x"]
    assert 0.8 <= result.rent_total_usd / result.own_total_usd <= 1.25  # close at full use for 2 years


def test_asking_for_the_data_centre_class_still_prices_its_larger_machine(catalog):
    result = rent_vs_buy(catalog=catalog, gpu="rtx-4090", gpu_count=1, purchase_usd_per_gpu=1800, rent_class="datacenter")
    assert result.rent_offer_class == "datacenter"
    assert "idle" in result.rent_options[0].source


def test_renting_on_vast_is_priced_at_vast_not_at_the_cheapest_data_centre(catalog):
    """'Is buying a 5090 better than renting one on vast?': the rent side is vast's offer, a marketplace one."""
    anywhere = rent_vs_buy("rtx-5090", gpu_count=1, utilization=4 / 24, purchase_usd_per_gpu=2000, catalog=catalog)
    on_vast = rent_vs_buy("rtx-5090", gpu_count=1, utilization=4 / 24, purchase_usd_per_gpu=2000, providers=["vast"],
                          catalog=catalog)
    assert anywhere.rent_offer_class == "datacenter" and on_vast.rent_offer_class == "marketplace"
    assert on_vast.rent_usd_per_gpu_hour < anywhere.rent_usd_per_gpu_hour
    assert on_vast.rent_offer.startswith("vast ") and not anywhere.rent_offer.startswith("vast ")


def test_a_misspelt_provider_gets_did_you_mean(catalog):
    with pytest.raises(SizingError, match="did you mean vast"):
        rent_vs_buy("h100", providers=["vastt"], catalog=catalog)


def test_ask_rents_where_the_question_says(catalog):
    answer = ask("5090 at $2000, I'd use it about 4 hours a day. Is buying better than renting one on vast?", catalog)
    assert answer.calls[0].arguments["providers"] == ["vast"] and answer.answer.startswith("Rent: ")
    assert "offer: vast " in answer.answer
