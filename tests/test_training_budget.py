"""Training budgets: the tokens a budget buys, and Chinchilla-optimal token counts (20 per parameter, Hoffmann et al.
2022) with the run's time and cost. Phrasings made up for these rules, none from a round."""
import pytest

from gpusizer.tools.questions import ask
from gpusizer.tools.speed.training_time import CHINCHILLA_TOKENS_PER_PARAMETER, tokens_for_budget, training_time


def test_chinchilla_optimal_is_twenty_tokens_per_parameter(catalog):
    run = training_time(params_billions=3, tokens_per_parameter=CHINCHILLA_TOKENS_PER_PARAMETER, gpu_count=8, catalog=catalog)
    assert run.training_tokens == pytest.approx(20 * 3e9, rel=0.05)
    assert "Hoffmann et al. 2022" in run.assumptions[0]


def test_a_budget_buys_tokens_at_the_runs_cost_per_token(catalog):
    run = training_time("llama-3.2-1b", training_tokens=1e9, gpu_count=8, catalog=catalog)
    text = tokens_for_budget(run, 10_000, claimed_tokens=100e9)
    assert run.usd_total is not None
    tokens = 10_000 / run.usd_total * 1e9
    assert 0.5e12 <= tokens <= 1.6e12  # $10k of H100 time at 30-40% MFU: 0.5-1.6T tokens for a 1B model
    assert text.startswith("About ") and "too low" in text


@pytest.mark.parametrize("question", [
    "we have a $5k budget: how many tokens could we train a 7B model on with rented A100s?",
    "with $20,000 how many training tokens can I pretrain a 3B model on using H100s? my boss says 200B tokens",
    "how many tokens can I train qwen2.5 0.5b on for a budget of $2k on h100s?",
    "budget is $10k. how many tokens can i pretrain a 1B model (llama 3.2 1b size) on, using rented H100s?",
])
def test_a_budget_question_answers_the_tokens_it_buys(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "training_time"
    assert answer.answer.startswith("About ") and " tokens: $" in answer.answer.splitlines()[0]


def test_a_claimed_token_count_is_weighed(catalog):
    answer = ask("with $20,000 how many training tokens can I pretrain a 3B model on using H100s? my boss says 200B tokens", catalog)
    assert "The 200B claimed is too low" in answer.answer


@pytest.mark.parametrize("question, tokens", [
    ("how long to train a 7B model compute-optimal on 64 H100s?", 140e9),
    ("Chinchilla optimal tokens for llama 3.1 8b, and how many days on 8 H100s?", 160e9),
    ("pretraining a 1B model chinchilla-optimally on 8 a100s: how long?", 20e9),
    ("If I train a 3B model from scratch Chinchilla-optimal, how many tokens is that and how long on one 8xH100 node?", 60e9),
])
def test_chinchilla_optimal_answers_the_tokens_then_the_run(catalog, question, tokens):
    answer = ask(question, catalog)
    assert answer.journey == "training_time"
    run = next(c.result for c in answer.calls if c.tool == "training_time")
    assert run is not None and run["training_tokens"] == pytest.approx(tokens, rel=0.08)
    assert "Chinchilla-optimal" in answer.answer.splitlines()[0] and "GPU-hours" in answer.answer


def test_a_budget_question_about_fine_tuning_answers_the_tokens_it_buys(catalog):
    """Fine-tuning is training: 'how many tokens can I fine-tune on for $X' is the tokens a budget buys (blind round 4)."""
    answer = ask("we've got $3,000 of cloud credit for a100s: roughly how many tokens could we fully fine-tune a 13B model on?",
                 catalog)
    assert answer.journey == "training_time" and answer.answer.startswith("About ") and " tokens: $" in answer.answer.splitlines()[0]
