"""A GPU the asker says they need, then 'cheapest option?': the GPU is what is priced, not a story to set aside; a rate
they pay now is weighed after the catalog's cheapest; a schedule of sessions a week is counted as the hours it is."""
import pytest

from gpusizer.tools.questions import ask


@pytest.mark.parametrize("question, gpus", [
    ("need an A100 80GB for 8 hours a day, weekdays only, for one month. cheapest option + total?", [["a100-80gb-sxm", 1]]),
    ("need an L40S for 6 hours a day, weekdays only, for two months. cheapest option?", [["l40s", 1]]),
    ("we need 2 H100s for 3 weeks. what's the cheapest option and total?", [["h100-sxm", 2]]),
    ("I want a 4090 for 10 hours a day for a week. cheapest option?", [["rtx-4090", 1]]),
])
def test_a_gpu_the_asker_needs_is_priced_when_the_cheapest_option_is_asked(catalog, question, gpus):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost" and answer.reading["gpus"] == gpus
    assert "$" in answer.answer


def test_a_gpu_the_asker_has_is_still_a_story(catalog):
    answer = ask("I have a 3090 at home. what's the cheapest option to run llama 70b?", catalog)
    assert answer.journey != "cloud_cost" and not answer.reading.get("gpus")


@pytest.mark.parametrize("question", [
    "need an A100 80GB for 8 hours a day, weekdays only, for one month. cheapest option + total? (our current provider charges "
    "like $3.50/h which feels steep)",
    "need one H100 for 100 hours. cheapest option? we pay $4/h right now",
    "I need an RTX 4090 for 10 hours a day for a week. cheapest option? we pay $0.90/h now",
])
def test_a_rate_paid_now_comes_after_the_catalogs_cheapest_on_demand_offer(catalog, question):
    answer = ask(question, catalog)
    lines = answer.answer.splitlines()
    cheapest = next(line for line in lines if line.startswith("Cheapest: "))
    assert "spot" not in cheapest and lines[-1].startswith("At your rate of ")
    assert lines.index(cheapest) < len(lines) - 1


@pytest.mark.parametrize("question, hours", [
    ("one A100 for a workshop: 2 hours a session, 3 times a week, for 6 weeks. roughly what will it cost?", 36),
    ("one L4 for a study group: 2 hours a session, twice a week, for 3 months. cost?", 52.2),
    ("an a10g 4 hours an evening, 2 evenings a week, for 8 weeks: the bill?", 64),
    ("an h100 8 hours a day, 5 days a week, for 4 weeks. how much?", 160),
])
def test_sessions_a_week_over_a_span_are_the_hours_priced(catalog, question, hours):
    answer = ask(question, catalog)
    assert answer.journey == "cloud_cost" and answer.reading["hours"] == pytest.approx(hours)
    assert "session" not in answer.ignored and "evening" not in answer.ignored


@pytest.mark.parametrize("question", [
    "We need an EU-only provider because of GDPR: 2x H100 for 200 hours. Cheapest option?",
    "gdpr means we can only use providers in the eu: 4x a100 80gb for a week, cheapest?",
])
def test_a_data_law_said_prices_only_offers_under_it(catalog, question):
    answer = ask(question, catalog)
    made = next(c for c in answer.calls if c.tool == "cloud_cost")
    assert answer.journey == "cloud_cost" and made.arguments["jurisdiction"] == "EU" and made.result is not None
    assert made.result["offers"] and all(o["jurisdiction"] == "EU" for o in made.result["offers"])
    assert "EU offers only" in answer.interpretation
