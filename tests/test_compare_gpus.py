"""Which GPU: specs, prices and speed bounds side by side."""
import pytest

from gpusizer.tools import SizingError, compare_gpus, estimate_vram
from gpusizer.tools.speed.training_time import training_time


def test_rows_come_back_in_the_order_asked_with_ratios_to_the_first(catalog):
    result = compare_gpus(catalog=catalog, gpus=["a100-80gb-sxm", "h100-sxm"])
    assert [g.gpu_id for g in result.gpus] == ["a100-80gb-sxm", "h100-sxm"]
    assert result.gpus[1].ratio_to_first["memory_bandwidth_gbps"] == pytest.approx(3350 / 2039, rel=1e-3)


def test_a_gpu_with_no_offer_still_compares_with_null_prices(catalog):
    result = compare_gpus(catalog=catalog, gpus=["h100-sxm", "gaudi3"])
    gaudi = result.gpus[1]
    assert gaudi.cheapest_usd_per_gpu_hour is None and gaudi.bf16_tflops_per_usd_hour is None
    assert any("gaudi3" in n and "price" in n for n in result.notes)


def test_decode_speed_is_bandwidth_over_bytes_read_per_token(catalog):
    result = compare_gpus(catalog=catalog, gpus=["h100-sxm", "a100-80gb-sxm"], model="meta-llama/Llama-3.1-8B", seq_len=1000)
    h100 = result.gpus[0]
    weights = 8_030_261_248 * 2
    kv = 131_072 * 1000
    assert h100.fits and h100.gpus_needed == 1
    assert h100.decode_tokens_per_s == pytest.approx(3350e9 / (weights + kv), rel=1e-3)


def test_mixture_of_experts_decodes_from_active_parameters_only(catalog):
    result = compare_gpus(catalog=catalog, gpus=["h200-sxm", "mi300x"], model="mistralai/Mixtral-8x7B-v0.1", seq_len=1)
    h200 = result.gpus[0]
    active_weights = 12_879_925_248 * 2
    assert h200.decode_tokens_per_s == pytest.approx(4800e9 / active_weights, rel=0.01)


def test_cost_per_million_tokens_uses_the_cheapest_offer(catalog):
    row = compare_gpus(catalog=catalog, gpus=["h100-sxm", "l40s"], model="llama-3.1-8b", seq_len=1000).gpus[0]
    assert row.usd_per_million_tokens == pytest.approx(row.cheapest_usd_per_gpu_hour / (row.decode_tokens_per_s * 3600) * 1e6, rel=1e-3)


@pytest.mark.parametrize("arguments,fragment", [
    ({"gpus": ["h100-sxm"]}, "gpus"), ({"gpus": ["h100-sxm", "H10"]}, "did you mean"),
    ({"gpus": ["h100-sxm", "l4"], "colour": "red"}, "unknown argument"),
    ({"gpus": ["h100-sxm", "l4"], "model": "llama-3.1-8b", "seq_len": 0}, "seq_len must be ≥ 1"),
    ({"gpus": ["h100-sxm", "l4"], "model": "llama-3.1-8b", "training_tokens": 1e15, "mfu": 5e-324}, "mfu must be ≥ 0.01"),
])
def test_bad_requests_get_fix_it_messages(catalog, arguments, fragment):
    with pytest.raises(SizingError) as error:
        compare_gpus(catalog=catalog, **arguments)
    assert fragment in str(error.value)


def test_training_run_time_and_cost_from_six_n_d(catalog):
    # Llama 3.1 8B (8.03e9 params) on 1e9 tokens: 6 x 8.03e9 x 1e9 = 4.818e19 FLOPs, at the MFU torchtitan published for
    # an 8B on a few H100 (36%), or at the MFU given: 4.818e19 / (2 x 989e12 x 0.4) = 60,900 s = 16.9 h
    result = compare_gpus(catalog=catalog, gpus=["h100-sxm", "mi300x"], model="meta-llama/Llama-3.1-8B", workload="training",
                          training_tokens=1e9)
    h100 = result.gpus[0]
    run = training_time("meta-llama/Llama-3.1-8B", training_tokens=1e9, gpu="h100-sxm", gpu_count=h100.gpus_needed,
                        catalog=catalog)
    assert h100.training_hours == pytest.approx(run.wall_clock_hours, rel=1e-3)
    given = compare_gpus(catalog=catalog, gpus=["h100-sxm", "mi300x"], model="meta-llama/Llama-3.1-8B", workload="training",
                         training_tokens=1e9, mfu=0.4).gpus[0]
    params = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B").params
    assert given.training_hours == pytest.approx(6 * params * 1e9 / (given.gpus_needed * 989e12 * 0.4) / 3600, rel=1e-3)
    # priced on the cheapest machine holding all its GPUs (a sharded job wants one NVLink domain), not on 1-GPU VMs
    assert h100.training_usd == pytest.approx(h100.training_hours * h100.replica_usd_per_hour, rel=1e-3)
    assert h100.replica_usd_per_hour >= h100.gpus_needed * h100.cheapest_usd_per_gpu_hour


def test_training_tokens_without_a_training_workload_adds_nothing(catalog):
    result = compare_gpus(catalog=catalog, gpus=["h100-sxm", "l4"], model="meta-llama/Llama-3.1-8B", training_tokens=1e9)
    assert all(row.training_hours is None for row in result.gpus)


def test_a_llama_cpp_f16_comparison_runs_on_llama_cpps_factors_when_asked(catalog):
    """Someone comparing llama-bench F16 rates names the engine: the expected speed is llama.cpp's, not vLLM's."""
    asked = dict(gpus=["rtx-4090", "rtx-3090"], model="meta-llama/Llama-3.1-8B", weights_dtype="fp16", catalog=catalog)
    vllm, llama_cpp = compare_gpus(**asked), compare_gpus(engine="llama_cpp", **asked)
    assert vllm.gpus[0].decode_tokens_per_s_expected != llama_cpp.gpus[0].decode_tokens_per_s_expected
    assert any("llama.cpp" in note for note in llama_cpp.notes)
    assert any("pass engine='llama_cpp'" in note for note in vllm.notes)


def test_weights_that_need_two_gpus_say_so_instead_of_assuming_a_split_silently(catalog):
    result = compare_gpus(["rtx-4090", "h200-sxm"], model="meta-llama/Llama-3.1-70B", weights_dtype="fp8", catalog=catalog)
    rtx = result.gpus[0]
    assert rtx.gpus_needed and rtx.gpus_needed > 1
    assert any(note.startswith(f"rtx-4090: the weights need {rtx.gpus_needed} GPUs") for note in result.notes)
    assert not any(note.startswith("h200-sxm: the weights need") for note in result.notes)


def test_the_expected_decode_is_what_estimate_speed_says_for_the_same_batch(catalog):
    from gpusizer.tools import estimate_speed
    row = compare_gpus(["h100-sxm", "l40s"], model="meta-llama/Llama-3.1-8B", batch_size=8, seq_len=2048, catalog=catalog).gpus[0]
    speed = estimate_speed("meta-llama/Llama-3.1-8B", gpu="h100-sxm", concurrency=8, prompt_tokens=2048, output_tokens=1,
                           catalog=catalog)
    assert row.decode_tokens_per_s_expected == pytest.approx(speed.decode_tokens_per_s, rel=0.01)


def test_a_gguf_comparison_fits_as_llama_cpp_holds_it(catalog):
    """'4090 or 5090 for Qwen3-32B at q4 with 32k context?': a GGUF file runs in llama.cpp, so each card's fit is
    estimate_vram's under llama.cpp (no generate() activations), not the plain estimate's."""
    asked = {"model": "Qwen/Qwen3-32B", "weights_dtype": "q4_k_m", "seq_len": 32768}
    compared = compare_gpus(gpus=["rtx-4090", "rtx-5090"], catalog=catalog, **asked)
    for row in compared.gpus:
        alone = estimate_vram(**asked, engine="llama_cpp", gpu=row.gpu_id, catalog=catalog).gpu_check
        assert row.gpus_needed == alone.gpus_needed
    assert [row.fits for row in compared.gpus] == [False, True]
