"""plan_serving's speed model against published serving timings (tests/data/throughput_published.json): the band
benchmarks/throughput.py states, and the physics a roofline must keep."""
import math
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import speed  # noqa: E402
import speed_published  # noqa: E402
import throughput  # noqa: E402

from gpusizer.catalog import load_catalog  # noqa: E402
from gpusizer.tools.memory.plan import build_plan  # noqa: E402
from gpusizer.tools.memory.request import VramRequest  # noqa: E402
from gpusizer.tools.speed.estimate_speed import estimate_speed  # noqa: E402
from gpusizer.tools.speed.serving_speed import ReplicaLoad, default_factors, roofline  # noqa: E402

CATALOG = load_catalog(include_user=False)


@pytest.fixture(scope="module")
def rows():
    return throughput.evaluate(CATALOG)


def test_every_case_names_its_source_and_why_when_it_is_not_judged():
    cases = throughput.load_cases()
    assert len([c for c in cases if c["judged"]]) >= 25
    assert all(c["source"] for c in cases) and all(c.get("why_not_judged") for c in cases if not c["judged"])


def test_published_timings_sit_in_the_stated_band(rows):
    ratios = [r["ratio"] for r in rows]
    assert statistics.median(abs(math.log(x)) for x in ratios) < throughput.MEDIAN_LIMIT
    inside = [x for x in ratios if throughput.BAND[0] <= x <= throughput.BAND[1]]
    assert len(inside) >= throughput.INSIDE_SHARE * len(ratios)
    low, high = throughput.OUTER_BAND
    assert all(low <= x <= high for x in ratios), {r["case"]: round(r["ratio"], 2) for r in rows}


def load(model="meta-llama/Llama-3.1-8B-Instruct", gpu="h100-sxm", tp=1, prompt=1024, output=256, **format):
    plan = build_plan(VramRequest(model=model, engine="vllm", **format), CATALOG)
    spec = CATALOG.find_gpu(gpu)
    return ReplicaLoad(roofline(plan, spec, tp, default_factors("vllm", spec, tp, plan.weight_format.compute_dtype)),
                       prompt, output, 8192)


def test_a_decode_step_is_never_faster_than_reading_the_weights_at_full_bandwidth():
    one = load().step_s(1)
    assert one > 15.0e9 / 3350e9  # 15 GB of bf16 weights (the embedding table is not read) at the H100's 3.35 TB/s


def test_bigger_batches_take_longer_steps_but_serve_more_tokens():
    replica = load()
    steps = [replica.step_s(b) for b in (1, 8, 64, 256)]
    assert steps == sorted(steps)
    assert [b / s for b, s in zip((1, 8, 64, 256), steps, strict=True)] == sorted(b / s for b, s in zip((1, 8, 64, 256), steps, strict=True))


def test_fp8_weights_decode_faster_than_bf16_and_a_faster_gpu_faster_still():
    assert load(weights_dtype="fp8").step_s(1) < load().step_s(1)
    assert load(gpu="h200-sxm").step_s(1) < load().step_s(1)


def test_a_mixture_of_experts_reads_only_the_experts_its_tokens_route_to():
    traffic = load(model="Qwen/Qwen3-30B-A3B").line.traffic   # 128 experts, 8 per token
    everything = traffic.dense_bytes + traffic.expert_bytes
    assert traffic.weights_read(1) < everything / 8          # ~3B of 30B parameters for one token
    assert traffic.weights_read(256) > 0.99 * everything     # a large batch touches nearly every expert
    assert load(model="Qwen/Qwen3-30B-A3B").step_s(1) < load(model="Qwen/Qwen3-32B").step_s(1) / 2


@pytest.fixture(scope="module")
def llama_bench_cases():
    rows, _ = speed_published.evaluate(load_catalog(include_user=False))
    return rows


@pytest.mark.parametrize("category, cases", [("llama.cpp decode", 25), ("llama.cpp prefill", 25), ("Ollama decode", 9),
                                             ("server throughput", 30), ("server latency", 12), ("training", 12)])
def test_published_rates_are_within_the_stated_band_and_ahead_of_a_naive_roofline(llama_bench_cases, category, cases):
    """Published measurements (tests/data/speed_published.json): llama-bench tg/pp on 14+ GPUs, and vLLM, SGLang,
    TensorRT-LLM and gpt-fast servers at a batch or a concurrency, and training runs (torchtitan, Llama 2/3.1 GPU-hours; the
    naive twin there is one 40% MFU for every GPU and scale): per category, median within x1.25, every case within
    x2, and a smaller median error than the naive roofline (bandwidth / weights or peak / FLOPs, whichever is slower)."""
    rows = [r for r in llama_bench_cases if r["category"] == category]
    ours = [abs(math.log(r["ours"] / r["published"])) for r in rows]
    naive = [abs(math.log(r["naive"] / r["published"])) for r in rows]
    assert len(rows) >= cases
    assert statistics.median(ours) <= math.log(1.25) and max(ours) <= math.log(2)
    assert statistics.median(ours) < statistics.median(naive)


def test_the_readme_speed_table_is_what_the_benchmark_prints(llama_bench_cases):
    """README's accuracy table is benchmarks/speed_published.py --readme's, recomputed here from the data (only the
    date and core count above it may differ)."""
    readme = (ROOT / "README.md").read_text()
    assert speed_published.readme_shown(readme) == speed_published.readme_table(llama_bench_cases)


def test_the_readme_latency_table_names_the_calls_benchmarks_speed_times():
    """README's per-call latencies are printed by benchmarks/speed.py --readme, with the date and core count of the run
    (timings themselves depend on the machine, so only the calls are checked)."""
    readme = (ROOT / "README.md").read_text()
    _, calls = speed.calls()
    assert speed.readme_calls(readme) == list(calls)
    assert " cores, median of " in readme[readme.index(speed.README_MARK):readme.index(speed.README_END)]


def test_a_3b_model_under_ollama_is_bound_by_the_cost_per_token_not_the_bandwidth(catalog):
    """'Why is my 5090 barely faster than a 4090 on llama3.2:3b?' Ollama's eval rates: 271 tokens/s on an RTX 5090 and
    216-237 on an RTX 4090 (x1.15-1.25, tests/data/speed_published.json), though the 5090 reads memory x1.78 faster:
    at 2 GB a token the fixed cost per layer (kernel launches, the host's work) outweighs reading the weights."""
    rates = {}
    for gpu in ("rtx-5090", "rtx-4090"):
        result = estimate_speed("meta-llama/Llama-3.2-3B-Instruct", gpu=gpu, engine="llama_cpp", weights_dtype="q4_k_m",
                                prompt_tokens=16, output_tokens=256, catalog=catalog)
        rates[gpu] = result.decode_tokens_per_s
    assert estimate_speed("meta-llama/Llama-3.2-3B-Instruct", gpu="rtx-5090", engine="llama_cpp", weights_dtype="q4_k_m",
                          catalog=catalog).decode_bound_by == "fixed_per_layer"
    assert 1.1 < rates["rtx-5090"] / rates["rtx-4090"] < 1.45
    assert 271.4 / 1.25 < rates["rtx-5090"] < 271.4 * 1.25


def test_vllm_pays_its_cpu_scheduling_per_running_sequence_where_sglang_overlaps_it(catalog):
    """'Does a bigger batch cost vLLM more than the GPU work?' Its V1 engine schedules every running request on the CPU
    between steps (HOST_SECONDS_PER_SEQUENCE); SGLang's overlap scheduler hides that work behind the GPU's."""
    from gpusizer.tools.speed.serving_speed import HOST_SECONDS_PER_SEQUENCE

    spec = catalog.find_gpu("h100-sxm")
    steps = {}
    for engine in ("vllm", "sglang"):
        plan = build_plan(VramRequest(model="meta-llama/Llama-3.1-8B-Instruct", engine=engine), catalog)
        line = roofline(plan, spec, 1, default_factors(engine, spec, 1))
        assert line is not None
        steps[engine] = [line.decode_step_s(batch, 1024) for batch in (1, 256)]
    extra = [vllm - sglang for vllm, sglang in zip(steps["vllm"], steps["sglang"], strict=True)]
    assert extra[1] - extra[0] == pytest.approx(255 * HOST_SECONDS_PER_SEQUENCE["vllm"])


def test_an_a100_and_an_h100_decode_an_8b_q4_k_m_at_about_the_same_rate(catalog):
    """llama.cpp's fixed cost per layer dominates a small quantized model on fast HBM: the bandwidth ratio (x1.6) does
    not show up in tokens/s (llama-bench: 135 and 146)."""
    rates = {}
    for gpu in ("a100 80gb sxm", "h100 pcie"):
        plan = build_plan(VramRequest(model="meta-llama/Meta-Llama-3-8B", weights_dtype="q4_k_m", engine="llama_cpp"), catalog)
        spec = catalog.find_gpu(gpu)
        line = roofline(plan, spec, 1, default_factors("llama_cpp", spec, 1))
        assert line is not None
        rates[gpu] = 1 / line.decode_step_s(1, 256)
    assert 0.85 < rates["a100 80gb sxm"] / rates["h100 pcie"] < 1.15


def test_estimate_speed_is_the_roofline_plan_serving_plans_with(catalog):
    """One model of speed: estimate_speed's decode at a concurrency is the step plan_serving's roofline takes."""
    from gpusizer.tools import estimate_speed

    found = estimate_speed("llama-3.1-8b", gpu="h100", concurrency=8, prompt_tokens=1000, output_tokens=200, catalog=catalog)
    plan = build_plan(VramRequest(model="llama-3.1-8b", engine="vllm"), catalog)
    spec = catalog.find_gpu("h100")
    line = roofline(plan, spec, 1, default_factors("vllm", spec, 1))
    assert line is not None
    assert found.decode_tokens_per_s == pytest.approx(1 / line.decode_step_s(8, 1100), rel=1e-3)
    assert found.engine == "vllm" and found.decode_bound_by == "weights"


def test_a_gguf_format_is_run_by_llama_cpp_unless_told_otherwise(catalog):
    from gpusizer.tools import estimate_speed

    assert estimate_speed("llama-3.1-8b", gpu="rtx 4090", weights_dtype="Q4_K_M", catalog=catalog).engine == "llama_cpp"


def test_more_sequences_at_once_raise_the_total_and_lower_each_ones_speed(catalog):
    from gpusizer.tools import estimate_speed

    one = estimate_speed("llama-3.1-8b", gpu="h100", concurrency=1, catalog=catalog)
    many = estimate_speed("llama-3.1-8b", gpu="h100", concurrency=64, catalog=catalog)
    assert many.aggregate_tokens_per_s > one.aggregate_tokens_per_s and many.decode_tokens_per_s < one.decode_tokens_per_s


def test_tensor_parallel_over_pcie_loses_more_to_all_reduces_than_over_nvlink(catalog):
    """A step's all-reduces move 2 x layers x tokens x hidden x 2 bytes through the link: a big batch on four PCIe cards
    pays for it, four NVLink cards hardly do."""
    def slowdown(gpu: str) -> float:
        plan = build_plan(VramRequest(model="meta-llama/Llama-3.1-70B", weights_dtype="fp8", engine="vllm"), catalog)
        line = roofline(plan, catalog.find_gpu(gpu), 4, default_factors("vllm", catalog.find_gpu(gpu), 4, "fp8"))
        return line.decode_step_s(256, 2048) / line._replace(all_reduce_s_per_token=0.0).decode_step_s(256, 2048)
    assert slowdown("l40s") > 1.2 and slowdown("h100-sxm") < 1.1
    assert slowdown("l40s") - 1 > 4 * (slowdown("h100-sxm") - 1)


def test_a_tied_output_head_is_a_gemm_every_token_runs_through(catalog):
    plan = build_plan(VramRequest(model="meta-llama/Llama-3.2-1B", engine="vllm"), catalog)  # ties its embedding
    traffic = roofline(plan, catalog.find_gpu("h100-sxm"), 1, default_factors("vllm", catalog.find_gpu("h100-sxm"), 1)).traffic
    assert traffic.flops_per_token == pytest.approx(2 * (plan.counts.active - plan.counts.vision))


def test_fp8_weights_on_an_a100_run_their_gemms_in_16_bit_at_its_16_bit_efficiency(catalog):
    """An A100 has no FP8 tensor cores: vLLM upcasts FP8 weights (Marlin) and the GEMMs run at the BF16 peak, at the
    efficiency BF16 GEMMs reach; an H100 runs them on its FP8 peak."""
    a100, h100 = catalog.find_gpu("a100-80gb-sxm"), catalog.find_gpu("h100-sxm")
    assert default_factors("vllm", a100, 1, "fp8").compute_efficiency == default_factors("vllm", a100, 1, "bf16").compute_efficiency
    assert default_factors("vllm", h100, 1, "fp8").compute_efficiency < default_factors("vllm", h100, 1, "bf16").compute_efficiency
