"""estimate_vram is judged against peaks traced from the real transformers code (tests/data/*.jsonl)."""
import importlib.util
import json
import statistics
from pathlib import Path

import pytest

from gpusizer.tools import estimate_vram

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("accuracy", ROOT / "benchmarks" / "accuracy.py")
accuracy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(accuracy)
GIB = 2**30


@pytest.fixture(scope="module")
def rows():
    return accuracy.evaluate()


def test_there_are_traced_cases_to_judge_by(rows):
    assert len(rows) >= 10


def test_median_error_against_traced_peaks_is_within_3_percent(rows):
    assert statistics.median(abs(r["error"]) for r in rows) <= 0.03


def test_every_traced_case_is_within_10_percent(rows):
    misses = [f"{r['case']}: estimate {r['estimate'] / GIB:.2f} GiB vs traced {r['reference'] / GIB:.2f} GiB ({r['error']:+.1%})"
              for r in rows if abs(r["error"]) > 0.10]
    assert not misses, misses


PUBLISHED = json.loads((ROOT / "tests" / "data" / "vram_published_cases.json").read_text())["cases"]
KV_CASES = [c for c in PUBLISHED if c["id"].startswith("kv-")]


@pytest.mark.parametrize("case", KV_CASES, ids=[c["id"] for c in KV_CASES])
def test_kv_cache_matches_the_analytic_figure_exactly(catalog, case):
    result = estimate_vram(catalog=catalog, model=case["model"], batch_size=case["batch"], seq_len=case["seq_len"])
    assert result.breakdown.kv_cache / GIB == pytest.approx(case["published_value_gb"], rel=0.01)


def test_llama_8b_bf16_weights_are_two_bytes_per_parameter(catalog):
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B")
    assert result.breakdown.weights / GIB == pytest.approx(14.958, rel=0.01)  # 8,030,261,248 x 2 bytes


def test_nf4_with_double_quantization_costs_4_127_bits_per_parameter():
    from gpusizer.tools.memory.model.formats import FORMATS
    # QLoRA paper: 4 + 8/64 + 32/(64*256) bits. Llama-3.1-70B at that rate for every parameter: 33.897 GiB.
    assert 70_553_706_496 * FORMATS["nf4"].bytes_per_param / GIB == pytest.approx(33.897, rel=0.01)


def test_quantized_weights_keep_embeddings_and_head_in_16_bit(catalog):
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B", weights_dtype="nf4")
    embeddings_and_head = 2 * 128_256 * 8192
    linear = 70_553_706_496 - embeddings_and_head
    assert result.breakdown.weights == pytest.approx(linear * 4.127 / 8 + embeddings_and_head * 2, rel=0.01)


@pytest.mark.parametrize("sharding,expected_gb", [("zero1", 31.4), ("zero2", 16.6), ("zero3", 1.9)])
def test_zero_model_states_match_the_zero_paper(sharding, expected_gb):
    """ZeRO paper, Figure 1: 7.5B parameters, mixed-precision Adam (K=12), 64 GPUs."""
    from gpusizer.tools.memory.training.states import training_state_bytes
    states = training_state_bytes(frozen_params=0, frozen_bytes_per_param=0, trainable_params=7_500_000_000,
                                  precision="mixed", optimizer="adamw", sharding=sharding, data_parallel=64, factored_fraction=0)
    total = states.weights + states.gradients + states.optimizer_states
    assert total / 1e9 == pytest.approx(expected_gb, abs=0.06)


def test_mixed_precision_adam_without_sharding_is_16_bytes_per_parameter():
    """ZeRO paper section 3: a 1.5B model needs at least 24 GB for its model states."""
    from gpusizer.tools.memory.training.states import training_state_bytes
    states = training_state_bytes(frozen_params=0, frozen_bytes_per_param=0, trainable_params=1_500_000_000,
                                  precision="mixed", optimizer="adamw", sharding="none", data_parallel=1, factored_fraction=0)
    assert (states.weights + states.gradients + states.optimizer_states) / 1e9 == pytest.approx(24.0)


@pytest.fixture(scope="module")
def published():
    return accuracy.evaluate_published()


def test_every_published_measurement_names_its_source_recipe_and_metric(published):
    cases = json.loads((ROOT / "tests" / "data" / "vram_published_measured.json").read_text())["cases"]
    assert len(cases) >= 30
    for case in cases:
        assert case["source"] and case["gap"], case["id"]
        assert case["measures"] in ("active", "allocated", "reserved", "device", "capacity"), case["id"]
        assert "recipe" in case["arguments"], case["id"]
        assert case.get("judged", True) or case["why_not_judged"], case["id"]


# Judged cases still beyond 20%, kept in the benchmark and named here so that a new miss fails and a fixed one is noticed.
KNOWN_MISSES: dict[str, str] = {}


def test_published_peaks_are_within_8_percent_at_the_median_and_20_percent_each(published):
    """torchtune's, Unsloth's, LLaMA-Factory's, PEFT's, TRL's, torchtitan's, axolotl's and Qwen's published peaks, each called
    with the settings its publisher ran (tests/data/vram_published_measured.json says why any row is shown but not judged)."""
    judged = [row for row in published if row["judged"]]
    assert len(judged) >= 55
    errors = [abs(row["error"]) for row in judged]
    assert statistics.median(errors) <= 0.08
    qlora = [abs(row["error"]) for row in judged if row["method"] == "qlora"]
    assert statistics.median(qlora) <= 0.10
    outside = {row["case"]: f"{row['error']:+.1%}" for row in judged if abs(row["error"]) > 0.20}
    assert set(outside) == set(KNOWN_MISSES), outside


@pytest.fixture(scope="module")
def option_rows():
    return accuracy.evaluate_options()


def test_lora_targets_dropout_and_kbit_upcast_match_their_traces_within_6_percent(option_rows):
    """PEFT's LoRA forward with each target set and dropout, and bitsandbytes' 4-bit layers after PEFT's k-bit
    preparation, traced on fake tensors (tests/data/trace_lora.py)."""
    misses = {r["case"]: f"{r['error']:+.1%}" for r in option_rows if abs(r["error"]) > 0.06}
    assert len(option_rows) >= 15 and not misses, misses
