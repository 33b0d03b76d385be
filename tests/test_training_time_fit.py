"""A training time is only an answer for a run that can start: training_time checks a named model's memory on the GPUs
given (estimate_vram's, at plan_training's defaults) and, where it does not fit, says so first and times the changes
that make it fit, each by calling training_time again."""
import re

import pytest

from gpusizer.tools.memory import estimate_vram
from gpusizer.tools.questions import ask
from gpusizer.tools.speed.plan_training import plan_training
from gpusizer.tools.speed.training_time import training_time, training_time_answer

T4_RUN = {"model": "Qwen/Qwen2.5-1.5B", "training_tokens": 1e7, "gpu": "t4", "gpu_count": 1}


def test_a_full_fine_tune_of_qwen_1_5b_does_not_fit_one_t4(catalog):
    run = training_time(**T4_RUN, catalog=catalog)
    memory = estimate_vram("Qwen/Qwen2.5-1.5B", workload="training", gpu="t4", catalog=catalog).gpu_check
    assert run.fits is False and memory is not None and not memory.fits
    assert run.per_gpu_bytes == memory.per_gpu_bytes and run.usable_bytes == memory.usable_bytes  # one memory model
    assert run.gpus_needed == 2
    assert "memory: full training as estimate_vram sizes it" in run.assumptions[-1] and "does not fit" in run.assumptions[-1]


def test_the_t4_answer_leads_with_the_verdict_and_names_the_fixes_timed_again(catalog):
    run = training_time(**T4_RUN, catalog=catalog)
    answer = training_time_answer(run)
    assert answer.startswith("Does not fit: Qwen/Qwen2.5-1.5B full training needs 19.26 GiB per GPU on 1 × t4")
    assert "GPU-hours" not in answer  # no time for the run that cannot start
    changes = {fix.change: fix for fix in run.alternatives}
    assert set(changes) == {"gradient checkpointing", "more GPUs", "LoRA"}
    assert changes["more GPUs"].gpu_count == 2 and changes["LoRA"].method == "lora"
    for fix in run.alternatives:
        again = training_time(**{**T4_RUN, **fix.arguments}, catalog=catalog)  # each figure is training_time's own
        assert again.fits is True and again.wall_clock_hours == pytest.approx(fix.wall_clock_hours)
        assert again.usd_total == pytest.approx(fix.usd_total) and fix.text in answer


def test_the_more_gpus_fix_is_plan_trainings_figure_for_the_same_run(catalog):
    fix = next(f for f in training_time(**T4_RUN, catalog=catalog).alternatives if f.change == "more GPUs")
    plan = plan_training("Qwen/Qwen2.5-1.5B", training_tokens=1e7, gpu="t4", catalog=catalog).options[0]
    assert (plan.gpus, plan.per_gpu_bytes) == (fix.gpu_count, fix.per_gpu_bytes)
    assert plan.wall_clock_hours == pytest.approx(fix.wall_clock_hours)


def test_checkpointing_said_off_is_kept_and_takes_more_t4s(catalog):
    run = training_time(**T4_RUN, gradient_checkpointing=False, catalog=catalog)
    asked = estimate_vram("Qwen/Qwen2.5-1.5B", workload="training", gpu="t4", gradient_checkpointing=False, catalog=catalog)
    assert run.fits is False and asked.gpu_check is not None and run.gpus_needed == asked.gpu_check.gpus_needed == 4


def test_seventy_b_full_training_does_not_fit_eight_a100s_and_sixteen_do(catalog):
    run = training_time("llama-3.1-70b", training_tokens=1e9, gpu="a100-80gb-sxm", gpu_count=8, catalog=catalog)
    assert run.fits is False and run.gpus_needed == 16
    assert any(fix.gpu_count == 16 and fix.gradient_checkpointing for fix in run.alternatives)


def test_an_8b_lora_on_one_h100_fits_and_the_answer_is_unchanged_in_shape(catalog):
    arguments = {"model": "llama-3.1-8b", "training_tokens": 1e8, "gpu": "h100", "gpu_count": 1, "method": "lora"}
    run = training_time(**arguments, catalog=catalog)
    unchecked = training_time(**arguments, check_fit=False, catalog=catalog)
    assert run.fits is True and run.alternatives == [] and run.per_gpu_bytes and run.usable_bytes
    assert run.per_gpu_bytes < run.usable_bytes and "fits" in run.assumptions[-1]
    answer = training_time_answer(run, "lora")
    assert answer == training_time_answer(unchecked, "lora")
    assert re.match(r"About [\d,]+ GPU-hours: [\d.]+ hours of lora training on 1 × h100-sxm at \d+% MFU", answer)


def test_a_params_billions_run_is_not_checked_and_still_timed(catalog):
    run = training_time(params_billions=1.5, training_tokens=1e7, gpu="t4", gpu_count=1, catalog=catalog)
    assert run.fits is None and run.per_gpu_bytes is None and run.alternatives == []
    assert training_time_answer(run).startswith("About ")


def test_callers_that_checked_the_memory_themselves_skip_the_check(catalog):
    run = training_time(**T4_RUN, check_fit=False, catalog=catalog)
    assert run.fits is None and run.alternatives == [] and training_time_answer(run).startswith("About 1 GPU-hours")


def test_ask_says_a_kaggle_t4_cannot_full_fine_tune_qwen_1_5b(catalog):
    answer = ask("Kaggle T4: full fine-tune Qwen2.5-1.5B on 10M tokens, how long will it take?", catalog=catalog)
    assert answer.journey == "training_time" and answer.answer.startswith("Does not fit")
    assert "2 × t4" in answer.answer and "LoRA on 1 × t4" in answer.answer


def test_the_memory_check_reads_the_sequence_and_the_recipe_given(catalog):
    """Unsloth checkpoints by default and a longer sequence holds more activations: the check sizes the run described."""
    arguments = {"model": "qwen3-14b", "training_tokens": 2e7, "gpu": "rtx-4060-ti-16gb", "gpu_count": 1, "method": "qlora"}
    plain = training_time(**arguments, catalog=catalog)
    unsloth = training_time(**arguments, recipe="unsloth", catalog=catalog)
    longer = training_time(**arguments, recipe="unsloth", seq_len=8192, catalog=catalog)
    assert plain.fits is False and unsloth.fits is True  # hf_trainer leaves checkpointing off
    assert unsloth.per_gpu_bytes < longer.per_gpu_bytes < plain.per_gpu_bytes
    assert "unsloth recipe, micro-batch 1 x 8,192 tokens" in longer.assumptions[-1]


def test_ask_times_the_run_it_found_fits_without_contradicting_itself(catalog):
    answer = ask("Will a QLoRA of Qwen3-14B with unsloth fit on my 4060 Ti 16GB at 2048 seq len? and how long for 20M tokens?",
                 catalog=catalog)
    assert answer.answer.startswith("Yes") and "Does not fit" not in answer.answer
