"""Ask reads what people actually type (issues #15, #35): a corpus of forum-style questions, each with the reading and
journey expected (tests/data/ask_corpus.jsonl; sources in each row), judged in one test against the exact list of known
misses (tests/data/ask_corpus_misses.json): a new miss fails, and so does a fixed one until the list says so. Rows that
expect a verdict or a figure, or a second part answered, are answered too: read and answered without placeholders,
with every ignored word listed and every part of a two-part question answered or named as not answered."""
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from ask_corpus import BY_QUESTION, CORPUS, HELD_OUT_FILES, MISSES_FILE, answer_case, held_out_cases, held_out_misses, judge_corpus

from gpusizer.catalog import load_catalog
from gpusizer.tools import estimate_vram
from gpusizer.tools.figures import gib
from gpusizer.tools.questions import ask
from gpusizer.tools.questions.shorthands import normalize

PLACEHOLDER = re.compile(r"—|\bNone\b|\bnan\b|\bnull\b")
JOURNEYS = {"estimate", "fit", "which_gpu", "limits", "serving", "speed", "compare", "cloud_cost", "rent_or_buy",
            "training_time", "cheapest_method", "gpu_card", "model_card", "not_understood", "biggest_model"}


def test_the_corpus_holds_at_least_150_questions_over_every_journey():
    assert len(CORPUS) >= 150
    counts = Counter(case["journey"] for case in CORPUS)
    assert set(counts) == JOURNEYS and min(counts.values()) >= 3
    assert sum(1 for c in CORPUS if c.get("previous")) >= 10 and sum(1 for c in CORPUS if c.get("also")) >= 5
    assert all(c["source"] for c in CORPUS) and len({c["question"] for c in CORPUS}) == len(CORPUS)
    assert sum(1 for c in CORPUS if c.get("expect")) >= 40  # rows judged by their answer's verdict or figure
    known = json.loads(MISSES_FILE.read_text())
    assert set(known) <= set(BY_QUESTION), "the known misses name questions the corpus no longer holds"


def test_a_span_the_name_shortcut_refuses_is_no_name_in_the_catalog(catalog):
    """Catalog.may_name refuses Ask's spans before the lookup (name_in_span): never one the catalog would read as a name."""
    for case in CORPUS[::60]:
        tokens = normalize(case["question"]).split(" ")
        spans = {" ".join(tokens[start:start + size]) for size in range(1, 7) for start in range(len(tokens) - size + 1)}
        assert not [span for span in spans if not catalog.may_name(span) and catalog.name_in_text(span) is not None]


@pytest.mark.slow  # run by .ci/run after the README's test command (pyproject.toml: markers)
def test_the_corpus_misses_exactly_the_known_misses():
    """Any change in what the corpus misses fails and prints it: a new miss is a regression to fix; a fixed one is
    written into the list (python benchmarks/ask.py --write-misses) so it cannot come back unnoticed."""
    started = time.perf_counter()
    misses = judge_corpus(load_catalog(include_user=False), workers=min(4, os.cpu_count() or 1))  # the built-in catalog
    elapsed = time.perf_counter() - started
    known = json.loads(MISSES_FILE.read_text())
    new = {q: m for q, m in misses.items() if q not in known}
    fixed = {q: m for q, m in known.items() if q not in misses}
    report = (f"{len(new)} new misses:\n" + "\n".join(f"  {q!r}: {m}" for q, m in new.items())
              + f"\n{len(fixed)} fixed (remove them from {MISSES_FILE.name}):\n" + "\n".join(f"  {q!r}" for q in fixed))
    assert not new and not fixed, report
    assert len(misses) <= 0.05 * len(CORPUS)  # readings >= 95% right (issue #35)
    print(f"corpus: {len(CORPUS) - len(misses)}/{len(CORPUS)} right in {elapsed:.1f} s")


def test_a_default_the_user_did_not_choose_is_said_in_one_line(catalog):
    answer = ask("how much vram for llama 3.1 70b?", catalog)
    assert "context: 2,048 tokens" in " ".join(answer.defaults_used)
    assert answer.interpretation.count("\nAssumed (not in your question): ") == 1
    assert any(d.startswith("engine: transformers generate()") for d in answer.defaults_used)


def test_words_it_does_not_know_are_listed_not_dropped(catalog):
    answer = ask("will llama 3.1 8b fit on a 4090 with my flux capacitor", catalog)
    assert answer.journey == "fit" and {"flux", "capacitor"} <= set(answer.ignored)
    assert "Ignored: 'flux', 'capacitor'" in answer.interpretation


def test_a_gpu_given_by_its_memory_is_a_gpu_of_that_memory(catalog):
    answer = ask("can a 24GB card run qwen2.5 32b awq with vllm?", catalog)
    expected = estimate_vram(catalog=catalog, model="Qwen/Qwen2.5-32B", weights_dtype="awq", engine="vllm", gpu="24GB")
    assert answer.reading["gpus"] == [["24GB", 1]] and gib(expected.gpu_check.per_gpu_bytes) in answer.answer


def test_a_gpu_outside_the_catalog_is_named_with_close_ones(catalog):
    answer = ask("will llama 3.1 8b run on a titan rtx with ollama?", catalog)
    assert answer.reading["unknown_gpu"] == "titan rtx" and "not in the catalog" in answer.answer
    assert "give its memory" in answer.answer


def test_fp8_kv_cache_is_the_cache_not_the_weights(catalog):
    answer = ask("max concurrent 8k requests for qwen3 8b on an L4 with fp8 kv cache in vllm?", catalog)
    assert answer.reading["kv_cache_dtype"] == "fp8" and "weights_dtype" not in answer.reading
    assert answer.calls[0].arguments["kv_cache_dtype"] == "fp8"


def test_a_week_is_168_hours(catalog):
    answer = ask("how much to rent 8 H100s for a week?", catalog)
    assert answer.calls[0].arguments["hours"] == 168.0 and "168 h" in answer.answer


def test_zero_stages_are_used_and_said(catalog):
    answer = ask("full fine-tune of llama 3.1 8b on 8x A100 40GB with deepspeed zero3", catalog)
    assert answer.calls[0].arguments["sharding"] == "zero3" and "sharding zero3" in answer.interpretation


def test_training_from_scratch_on_a_token_count_answers_time_and_cost(catalog):
    answer = ask("how long to train a 7b model on 1T tokens with 64 h100s?", catalog)
    assert answer.journey == "training_time" and answer.calls[0].tool == "training_time"
    result = answer.calls[0].result
    assert result["gpu_count"] == 64 and f"{result['wall_clock_days']:.1f} days" in answer.answer


def test_cheapest_way_to_fine_tune_compares_the_methods(catalog):
    answer = ask("what's the cheapest way to fine-tune llama 3.1 70b?", catalog)
    assert answer.journey == "cheapest_method"
    assert [c.tool for c in answer.calls] == ["cheapest_way"]
    assert [way["way"] for way in answer.calls[0].result["ways"]] == ["full fine-tuning", "LoRA", "QLoRA"]
    assert answer.answer.startswith("Cheapest: ")


def test_speed_questions_get_speed_answers(catalog):
    answer = ask("how many tok/s would i get running llama 3.1 8b q4_k_m on a 3090 in llama.cpp?", catalog)
    assert answer.journey == "speed" and answer.calls[0].tool == "estimate_speed"  # the speed tool, as MCP clients get it
    speed = answer.calls[0].result["decode_tokens_per_s"]
    assert f"{speed:.2f} tokens/s per sequence" in answer.answer


def test_a_two_part_question_answers_both(catalog):
    answer = ask("will qwen3 32b q4_k_m fit on a 4090 and how many tok/s would i get?", catalog)
    assert answer.journey == "fit" and "Speed:" in answer.answer and [c.tool for c in answer.calls] == ["estimate_vram",
                                                                                                      "estimate_speed"]


def test_a_part_it_cannot_answer_is_named(catalog):
    answer = ask("will llama 3.1 8b fit on a titan rtx and how fast is it?", catalog)
    assert answer.not_answered and "speed part" in answer.answer


@pytest.mark.parametrize("first, follow_up, changed", [
    ("will llama 3.1 70b fit on an h100 in fp8?", "and on an A100?", {"gpus": [["a100-80gb-sxm", 1]]}),
    ("how much vram for llama 3.1 70b at 8k context?", "what about 4-bit?", {"weights_dtype": "int4"}),
    ("how much to rent 8 H100s for a week?", "and on spot?", {"pricing": "spot"}),
    ("can a 24GB card run qwen2.5 32b awq with vllm?", "ok and 2 of them?", {"gpus": [["24GB", 2]]}),
])
def test_follow_ups_change_the_previous_question(catalog, first, follow_up, changed):
    previous = ask(first, catalog)
    answer = ask(follow_up, catalog, previous)
    assert answer.follow_up and answer.journey == previous.journey
    assert answer.reading == {**previous.reading, **changed}
    assert answer.interpretation.startswith("Follow-up of the previous question.")


def test_a_whole_new_question_is_not_a_follow_up(catalog):
    previous = ask("will llama 3.1 70b fit on an h100?", catalog)
    answer = ask("Rent vs buy for a single RTX 5090, I'd use it 8 hours a day for 2 years", catalog, previous)
    assert not answer.follow_up and answer.journey == "rent_or_buy" and "model" not in answer.reading


@pytest.mark.slow  # a subprocess: the interpreter's start
def test_gpusizer_ask_json_lists_ignored_words_and_defaults():
    result = subprocess.run([str(Path(sys.executable).parent / "gpusizer"), "ask", "--json",
                             "hey will llama 3.1 8b fit on my 4090 for my startup"], capture_output=True, text=True, timeout=60)
    answer = json.loads(result.stdout)
    assert answer["ignored"] == ["startup"] and any(d.startswith("context:") for d in answer["defaults_used"])
    assert answer["reading"]["gpus"] == [["rtx-4090", 1]]


def test_each_gpu_named_in_a_fit_question_gets_its_answer(catalog):
    answer = ask("will qwen3 14b fit on a 4090 or a 3090?", catalog)
    assert [c.arguments["gpu"] for c in answer.calls] == ["rtx-4090", "rtx-3090"] and "On rtx-3090: " in answer.answer


def test_a_second_model_named_is_said_to_be_unanswered_not_dropped(catalog):
    answer = ask("the FAQ says llama 3 70b needs 48GB for qlora; which card do I get to qlora llama 3.3 70b?", catalog)
    # the model of the sentence that asks is the subject; the one the FAQ spoke of is named, not dropped
    assert answer.reading["model"] == "meta-llama/Llama-3.3-70B-Instruct"
    assert "Also named, not answered for here: model meta-llama/Llama-3.1-70B" in answer.answer


def test_llama_cpp_that_only_partly_offloads_says_partly_not_yes(catalog):
    # a 72B Q4_K_M (~45 GiB) 'fits' a 4090 only with most layers left in system RAM: llama.cpp starts, slowly
    answer = ask("can I run qwen2.5 72b on one 4090 with llama.cpp at 32k", catalog)
    served = estimate_vram(catalog=catalog, model="Qwen/Qwen2.5-72B", engine="llama_cpp", weights_dtype="q4_k_m",
                           seq_len=32768, gpu="rtx-4090").serving
    assert answer.answer.startswith(f"Partly: llama.cpp puts {served.n_gpu_layers} of 81 layers")
    assert gib(served.host_weights_bytes) in answer.answer


def test_an_engine_that_would_not_start_says_why_in_its_own_terms(catalog):
    answer = ask("will llama 3.1 8b fit on a 4090 with vllm", catalog)
    assert "131,072 tokens" in answer.interpretation and "vllm's default" in " ".join(answer.defaults_used)
    assert answer.answer.startswith("No: vLLM would not start") and "set max_model_len" in answer.answer


def test_a_gpu_outside_the_catalog_in_a_comparison_is_said_not_compared(catalog):
    answer = ask("Arc A770 16GB vs 4060 Ti 16GB for llama.cpp, is the intel card worth the hassle?", catalog)
    assert "could not answer" not in answer.answer and "GeForce RTX 4060 Ti 16GB" in answer.answer
    assert "Not in the catalog, so not compared: 'arc a770'" in answer.answer
    assert "compare: 'arc a770' (16GB, not in the catalog), rtx-4060-ti-16gb" in answer.interpretation


def test_a_model_compared_on_a_gpu_outside_the_catalog_is_fitted_on_its_memory(catalog):
    answer = ask("arc a770 16gb vs 4060 ti 16gb for llama 3.1 8b q4_k_m?", catalog)
    assert answer.journey == "compare" and [c.arguments["gpu"] for c in answer.calls] == ["16GB", "rtx-4060-ti-16gb"]
    assert "compared by its 16GB of memory only" in answer.answer


def test_versus_a_gpu_outside_the_catalog_without_its_memory_is_still_a_comparison(catalog):
    answer = ask("arc a770 vs 4090 for qwen2.5 32b q4_k_m in llama.cpp?", catalog)
    assert answer.journey == "compare" and "'arc a770' is not in the catalog: not compared." in answer.answer
    assert "compare rtx-4090, 'arc a770' (not in the catalog) for" in answer.interpretation


@pytest.mark.slow
@pytest.mark.parametrize("path", HELD_OUT_FILES, ids=[p.stem for p in HELD_OUT_FILES])
def test_held_out_rounds_are_at_least_85_percent_right_and_never_silently_wrong(catalog, path):
    """The blind rounds kept out of the corpus (benchmarks/ask.py prints each beside its first score): at least 85% read
    right, and every answer, right or wrong, says what it read and lists what it ignored, so a misreading shows."""
    cases = held_out_cases(path)
    by_question = {case["question"]: case for case in cases}
    answers = [answer_case(case, catalog, by_question) for case in cases]
    wrong = {c["question"]: held_out_misses(c, a) for c, a in zip(cases, answers, strict=True) if held_out_misses(c, a)}
    assert len(wrong) <= 0.15 * len(cases), json.dumps(wrong, indent=1)
    for answer in answers:
        assert not PLACEHOLDER.search(answer.answer), answer.answer
        if answer.understood:
            assert answer.interpretation.startswith(("I read this as:", "Follow-up of the previous question."))
            assert not answer.ignored or "Ignored: " in answer.interpretation
