"""How many GPUs a job takes, laid out as the frameworks run it: sharded training (ZeRO-3 / FSDP) checkpoints each
layer, across machines of 8 where one machine does not hold the count; llama.cpp reads a bit width as its GGUF."""
import pytest

from gpusizer.tools import estimate_vram
from gpusizer.tools.memory.answer import count_answer
from gpusizer.tools.memory.fitting import spread_over

L70 = "meta-llama/Llama-3.1-70B"


def test_a_full_fine_tune_of_llama_70b_takes_16_h100s_sharded_with_checkpointing(catalog):
    check = estimate_vram(L70, workload="training", gpu="h100", catalog=catalog).gpu_check
    assert check is not None and not check.fits and check.gpus_needed == 16
    assert "ZeRO-3" in (check.split or "") and "gradient checkpointing" in (check.split or "")
    assert "across 2 machines of 8" in (check.split or "")


@pytest.mark.parametrize(("model", "gpu"), [(L70, "h100"), ("qwen2.5-32b", "a100 80gb"), ("qwen2.5-72b", "h200"),
                                            ("llama-3.1-8b", "rtx-4090")])
def test_the_count_the_fit_search_finds_is_one_the_tool_then_says_fits(catalog, model, gpu):
    check = estimate_vram(model, workload="training", gpu=gpu, catalog=catalog).gpu_check
    assert check is not None and check.gpus_needed
    spread = estimate_vram(model, workload="training", gpu=gpu, catalog=catalog,
                           **spread_over("training", check.gpus_needed)).gpu_check  # type: ignore[arg-type]
    assert spread is not None and spread.fits
    if check.gpus_needed > 1:
        fewer = estimate_vram(model, workload="training", gpu=gpu, catalog=catalog,
                              **spread_over("training", check.gpus_needed // 2)).gpu_check  # type: ignore[arg-type]
        assert fewer is not None and not fewer.fits


def test_a_fine_tune_that_turns_checkpointing_off_is_counted_without_it(catalog):
    """The activations of a 70B step without checkpointing do not shrink with sharding: 64 H100s do not hold it."""
    check = estimate_vram(L70, workload="training", gpu="h100", gradient_checkpointing=False, catalog=catalog).gpu_check
    assert check is not None and check.gpus_needed is None


def test_the_catalog_fits_say_how_a_sharded_job_is_laid_out(catalog):
    fits = estimate_vram(L70, workload="training", catalog=catalog).fits
    h100 = next(fit for fit in fits if fit.gpu_id == "h100-sxm")
    assert h100.gpus_needed == 16 and "with gradient checkpointing" in (h100.note or "")


def test_one_gpu_stays_as_the_recipe_runs_it(catalog):
    """The layout changes sharded runs only: on one GPU the recipe's own checkpointing decides."""
    assert "gradient_checkpointing" not in spread_over("training", 1)
    assert "gradient_checkpointing" not in spread_over("inference", 8)
    assert "gradient_checkpointing" not in spread_over("training", 8, gradient_checkpointing=False)  # the request says it


@pytest.mark.parametrize(("said", "gguf"), [("int4", "q4_k_m"), ("int8", "q8_0"), ("fp8", "q8_0")])
def test_a_bit_width_under_llama_cpp_is_its_usual_gguf(catalog, said, gguf):
    result = estimate_vram("qwen2.5-32b", weights_dtype=said, engine="llama_cpp", gpu="rtx-4090", catalog=catalog)
    same = estimate_vram("qwen2.5-32b", weights_dtype=gguf, engine="llama_cpp", gpu="rtx-4090", catalog=catalog)
    assert result.weights_dtype == gguf and result.total_bytes == same.total_bytes


def test_a_count_someone_claims_is_weighed_against_the_fewest_gpus(catalog):
    fits = estimate_vram(L70, workload="training", catalog=catalog).fits
    assert count_answer("h100-sxm", fits, 8).startswith("No, 8 is not enough. On h100-sxm: 16 GPU(s)")
    assert count_answer("h100-sxm", fits, 32).startswith("Yes, 32 is enough. On h100-sxm: 16 GPU(s)")
    assert count_answer("h100-sxm", fits).startswith("On h100-sxm: 16 GPU(s)")


def test_plan_training_keeps_gradient_checkpointing_off_when_asked_on_several_gpus(catalog):
    from gpusizer.tools import plan_training

    on = plan_training(model="llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", gpu_count=8, catalog=catalog).options[0]
    off = plan_training(model="llama-3.1-8b", training_tokens=1e9, gpu="h100-sxm", gpu_count=8, gradient_checkpointing=False,
                        catalog=catalog).options[0]
    assert off.per_gpu_bytes > on.per_gpu_bytes and off.wall_clock_hours < on.wall_clock_hours  # no recompute, more memory
