"""Serving engines against the start-up logs people posted: vLLM's 'GPU KV cache size' and 'Maximum concurrency',
SGLang's max_total_num_tokens, llama.cpp's model, KV and compute buffers (tests/data/engine_logs.json)."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import engine_logs  # noqa: E402

from gpusizer.catalog import load_catalog  # noqa: E402

JUDGED = engine_logs.JUDGED
# vLLM logs outside tolerance, named so that a new miss fails and a fixed one is noticed.
KNOWN_OUTSIDE = {
    "vllm-21-qwen3-235b-fp8-4xh100-issue21348": "KV cache 16% over: ~1.2 GiB per GPU of non-KV memory unexplained "
                                                "(FP8 MoE kernels' workspaces at 8,192 tokens, the LMCache connector)",
}


@pytest.fixture(scope="module")
def rows():
    return engine_logs.evaluate(load_catalog(include_user=False))


def test_there_are_ten_vllm_and_five_llama_cpp_logs_each_with_its_source_and_command():
    cases = engine_logs.load_cases()
    assert len({c["id"] for c in cases if c["arguments"].get("engine", "vllm") == "vllm"}) >= 10
    assert len({c["id"] for c in cases if c["arguments"].get("engine") == "llama_cpp"}) >= 5
    assert all(c["source"] and c["command"] for c in cases)


def test_every_sglang_and_llama_cpp_figure_is_within_10_percent(rows):
    judged = [r for r in rows if r["figure"] in JUDGED and r["engine"] != "vllm"]
    assert len(judged) >= 20
    outside = {f"{r['case']} {r['figure']}": f"{r['error']:+.1%}" for r in judged if abs(r["error"]) > 0.10}
    assert not outside, outside


def test_four_in_five_vllm_logs_are_within_tolerance_and_kv_tokens_within_6_7_percent_on_average(rows):
    """Issue #32's gates: >= 80% of the vLLM logs with every judged figure within 10%; KV-cache tokens' mean |error|
    at most 6.7% (what the llm-d planner reports on its own logs)."""
    vllm = engine_logs.summary(rows, "vllm")
    assert vllm["logs"] >= 12
    assert vllm["within"] / vllm["logs"] >= 0.80
    assert vllm["kv_tokens_mean_error"] <= 0.067
    assert set(vllm["outside"]) == set(KNOWN_OUTSIDE), vllm["outside"]


def test_vllm_before_0_17_sorts_the_dummy_logits_in_its_profile_run():
    """apply_top_k_top_p's sort path (0.10.2-0.16) holds 28 bytes per logit; the Triton filter (0.17+) 14."""
    from gpusizer.tools import estimate_vram

    def activation(version):
        return estimate_vram(model="Qwen/Qwen2.5-7B-Instruct", engine="vllm", gpu="l40s", engine_version=version,
                             max_model_len=8192).serving.activation_peak_bytes
    sampler_rows = 256 * 152_064
    assert activation("0.10.2") - activation("0.19.0") == pytest.approx(14 * sampler_rows, rel=0.01)


def test_the_profiled_activation_peak_stays_in_the_right_range(rows):
    """Not gated at 10% (quantized kernels' and expert-parallel workspaces are not modelled), but never off by 2x."""
    peaks = [r for r in rows if r["figure"] == "activation_peak_gib"]
    assert peaks and all(0.45 < r["estimate"] / r["logged"] < 1.5 for r in peaks)


def test_the_data_file_names_what_each_figure_is():
    about = json.loads((ROOT / "tests" / "data" / "engine_logs.json").read_text())["about"]
    assert "tokens" in about and "MiB" in about
