"""Rent or buy at the conditions the asker states: full use, costs they will not pay, a project's length as the
horizon, and a rate someone else quoted (mentioned, not used). Phrasings made up for these rules, none from a round."""
import pytest

from gpusizer.tools.questions import ask


def rent_vs_buy_arguments(answer):
    return next(c.arguments for c in answer.calls if c.tool == "rent_vs_buy")


@pytest.mark.parametrize("question", [
    "buy 8 h100s or rent them for 3 years, running flat out?",
    "should we purchase 4 a100s or rent? they'd be fully utilized for 2 years",
    "buy or rent 2 l40s at max load over 3 years",
    "buy or rent an rtx 4090 that would be running nonstop for a year",
    "Our CFO asks: buy 16 H200s at $35k each, or rent them, for 2 years at basically full utilization?",
])
def test_full_use_said_in_words_is_utilization_one(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "rent_or_buy"
    assert rent_vs_buy_arguments(answer)["utilization"] == 1.0


@pytest.mark.parametrize("question, zero", [
    ("buy 2 l40s at $9k each or rent at $1/hr? we have our own rack space and no additional ops people",
     {"staff_usd_per_year", "colocation_usd_per_kw_month"}),
    ("thinking of buying an a100 at $15k to drop into an existing server, vs renting at $1.50/hr",
     {"server_share_usd_per_gpu", "networking_usd_per_gpu"}),
    ("buy 8 h100s or rent for 3 years? we don't pay for hosting, and our current team runs it",
     {"staff_usd_per_year", "colocation_usd_per_kw_month"}),
    ("How many hours of use until buying an L40S (~$10k) beats renting one at ~$0.90/h? It would go into a server we "
     "already have, no extra staff or colo.", {"staff_usd_per_year", "colocation_usd_per_kw_month", "server_share_usd_per_gpu"}),
])
def test_costs_the_owner_will_not_pay_are_zero(catalog, question, zero):
    arguments = rent_vs_buy_arguments(ask(question, catalog))
    assert all(arguments[line] == 0.0 for line in zero)


def test_without_staff_or_colocation_an_l40s_pays_off_within_the_horizon(catalog):
    answer = ask("when does buying an l40s at $10k beat renting it at $0.90/h, if it sits in a box we already own with no "
                 "extra staff or hosting?", catalog)
    first = answer.answer.splitlines()[0]
    assert first.startswith("Break-even:") and "busy hours per GPU" in first  # the hours asked lead
    hours = float(first.split("(")[1].split(" busy")[0].replace(",", ""))
    assert 8_000 <= hours <= 16_000


@pytest.mark.parametrize("question, years", [
    ("should i buy an a100 for a 9 month project or just rent one?", 0.75),
    ("is buying two rtx 4090s worth it for a 4-month research project, vs renting?", 4 * 730 / 8760),
    ("we have a pilot lasting 8 weeks: buy an h100 or rent?", 8 * 168 / 8760),
    ("we need an l40s for a 10-week study. buy one for $9k or rent?", 10 * 168 / 8760),
])
def test_a_projects_length_is_the_horizon_and_every_hour_of_it_is_used(catalog, question, years):
    answer = ask(question, catalog)
    arguments = rent_vs_buy_arguments(answer)
    assert arguments["years"] == pytest.approx(years)
    assert arguments["utilization"] == 1.0


def test_a_six_month_project_prices_owning_over_six_months(catalog):
    answer = ask("Would it make sense to buy an H100 PCIe (~$25k) for a 6-month project instead of renting one?", catalog)
    assert answer.answer.startswith("Rent:") and "over 0.50 years" in answer.answer


@pytest.mark.parametrize("question, quoted", [
    ("rent or buy 8 h100s over 3 years? someone told me they go for $4/hr but that was a year ago", 4.0),
    ("buy 4 a100s or rent? i heard $3/hr but not sure if that's current", 3.0),
    ("buy 16 H200s at $35k each or rent, 2 years at full use? (someone said H200s were $10/hr last year, no idea if that's "
     "still true)", 10.0),
])
def test_a_doubted_or_dated_rate_is_mentioned_not_used(catalog, question, quoted):
    answer = ask(question, catalog)
    assert "rent_usd_per_gpu_hour" not in rent_vs_buy_arguments(answer)
    assert f"Not used: the quoted ${quoted:.2f}/GPU-hour" in answer.answer


@pytest.mark.parametrize("question", [
    "Thinking of buying a 4090 for ~$1800 vs just renting one when I need it, maybe 4 hours a day. Worth buying?",
    "buy an rtx 4090 or rent one, 6 hours a day for 3 years?",
    "rent or buy a single 4090 for hobby use, 2 hours a day over 2 years?",
])
def test_renting_one_card_is_priced_as_one_card(catalog, question):
    text = ask(question, catalog).answer
    assert "marketplace on-demand offer" in text and "8x_RTX4090" not in text


def test_buying_an_a100_weighs_one_module_not_a_server_of_eight(catalog):
    from gpusizer.tools.questions import ask

    for question in ("should we buy an A100 80GB or rent one for our lab, used maybe 30% of the time?",
                     "is it worth buying a single H100 SXM vs renting it? maybe 40% busy",
                     "rent or buy one h100 for two years at full load?"):
        assert ask(question, catalog).calls[-1].arguments["gpu_count"] == 1, question
