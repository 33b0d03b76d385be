"""Which GPU: specs, prices and speed bounds side by side."""
import pytest

from gpusizer.tools import SizingError, compare_gpus, estimate_vram


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
    # Llama 3.1 8B (8.03e9 params) on 1e9 tokens: 6 x 8.03e9 x 1e9 = 4.818e19 FLOPs.
    # 2 x H100 (989 dense BF16 TFLOPS) at MFU 0.4: 4.818e19 / (2 x 989e12 x 0.4) = 60,900 s = 16.9 h
    result = compare_gpus(catalog=catalog, gpus=["h100-sxm", "mi300x"], model="meta-llama/Llama-3.1-8B", workload="training",
                          training_tokens=1e9)
    h100 = result.gpus[0]
    params = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B").params
    expected_hours = 6 * params * 1e9 / (h100.gpus_needed * 989e12 * 0.4) / 3600
    assert h100.training_hours == pytest.approx(expected_hours, rel=1e-3)
    assert h100.training_usd == pytest.approx(h100.training_hours * h100.gpus_needed * h100.cheapest_usd_per_gpu_hour, rel=1e-3)


def test_training_tokens_without_a_training_workload_adds_nothing(catalog):
    result = compare_gpus(catalog=catalog, gpus=["h100-sxm", "l4"], model="meta-llama/Llama-3.1-8B", training_tokens=1e9)
    assert all(row.training_hours is None for row in result.gpus)
