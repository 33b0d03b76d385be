"""A quantity the question gives is never dropped in silence (issue #35): where the journey chosen does not use it, the
journey that does answers too, and the interpretation names both readings."""
import pytest

from gpusizer.tools.questions import ask


@pytest.mark.parametrize("question, second, label", [
    ("will qwen2.5 14b fit on an L40S? about 40 people would chat with it at once", "serving", "Serving plan:"),
    ("mistral 7b on one L4 spot, 6 hours a day for two weeks: does it fit and what's the damage?", "cloud_cost", "Rental bill:"),
    ("qlora qwen2.5 7b on my 3090 with 20M tokens of chat logs, will it fit?", "training_time", "Training run:"),
])
def test_a_quantity_the_first_answer_does_not_use_gets_the_answer_that_does(catalog, question, second, label):
    answer = ask(question, catalog)
    assert answer.readings[-1] == second and len(answer.readings) == 2
    assert label in answer.answer and "Two readings:" in answer.interpretation


@pytest.mark.parametrize("question", [
    "how much vram for llama 3.1 8b at 8k context?",
    "serve llama 3.1 70b to 200 users with vllm",
    "how long to train a 7b on 1T tokens with 64 h100s?",
])
def test_a_question_whose_answer_uses_what_it_gives_has_one_reading(catalog, question):
    answer = ask(question, catalog)
    assert answer.readings == [answer.journey] and "Two readings" not in answer.interpretation


def test_a_follow_up_does_not_reopen_the_quantities_of_the_question_before(catalog):
    first = ask("serve llama 3.1 8b to 300 users on l40s", catalog)
    follow = ask("and how much vram is that per gpu?", catalog, first)
    assert len(follow.readings) == 1
