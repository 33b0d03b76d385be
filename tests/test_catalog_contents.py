"""What the catalog holds, and that every figure in it can be traced to a source."""
import datetime

import pytest

from gpusizer.tools.memory.model.parameters import count_parameters

REQUIRED_OFFER_GPUS = {"h100-sxm", "h200-sxm", "b200", "a100-40gb-sxm", "a100-80gb-sxm", "l40s", "l4", "a10g", "t4", "mi300x"}


def test_catalog_has_at_least_30_gpus_30_models_and_60_offers_from_6_providers(catalog):
    assert len(catalog.gpus) >= 30
    assert len(catalog.models) >= 30
    assert len(catalog.offers) >= 60
    assert len({o.provider for o in catalog.offers}) >= 6


def test_every_row_has_a_source_and_an_as_of_date(catalog):
    for row in [*catalog.gpus, *catalog.models, *catalog.providers]:
        assert len(row.source) > 5, row
        assert isinstance(row.as_of, datetime.date) and row.as_of.year >= 2020, row
    for offer in catalog.offers:
        assert len(offer.source) > 5, offer
        earliest, latest = offer.price_dates
        assert latest.year >= 2020 and (earliest is None or earliest <= latest), offer


def test_an_offers_date_is_when_it_was_priced_not_when_it_was_read(catalog):
    """as_of is the price's date (or the interval it lies in); checked is the day gpusizer read it."""
    assert all(offer.as_of != offer.checked.isoformat() for offer in catalog.offers)


def test_at_least_100_offers_from_12_providers_and_every_gpu_with_offers_has_a_price_or_a_reason(catalog):
    assert len(catalog.offers) >= 100 and len({o.provider for o in catalog.offers}) >= 12
    for gpu_id in {o.gpu_id for o in catalog.offers}:
        gpu = catalog.gpu_by_id[gpu_id]
        assert gpu.purchase_usd or gpu.node_usd_per_gpu or gpu.purchase_note, gpu_id


def test_spot_prices_say_which_zone_they_are_for(catalog):
    zoned = [o for o in catalog.offers if o.spot_usd_per_hour and o.provider == "aws"]
    assert zoned and all(o.spot_zone for o in zoned)


def test_every_gpu_of_the_reference_sheet_is_in_the_catalog(catalog):
    reference_ids = ["a100-40gb-sxm", "a100-40gb-pcie", "a100-80gb-sxm", "a100-80gb-pcie", "h100-sxm", "h100-pcie", "h100-nvl",
                     "h200-sxm", "h200-nvl", "gh200", "b200", "b300", "gb200", "gb300", "l40s", "l40", "l4", "a10g", "a10", "t4",
                     "rtx-4090", "rtx-5090", "rtx-6000-ada", "rtx-pro-6000-blackwell", "mi250x", "mi300x", "mi325x", "mi355x",
                     "gaudi2", "gaudi3", "tpu-v5e", "tpu-v5p", "tpu-v6e", "trainium2", "v100-16gb-sxm2", "v100-32gb-sxm2"]
    assert set(reference_ids) <= set(catalog.gpu_by_id)


def test_usable_memory_never_exceeds_marketed_memory(catalog):
    for gpu in catalog.gpus:
        assert 0 < gpu.usable_memory_bytes <= gpu.marketed_memory_bytes, gpu.gpu_id


def test_no_dense_figure_looks_like_a_sparse_one(catalog):
    """H100 SXM's datasheet says 1,979 BF16 TFLOPS: that is 2:4 sparse; the dense figure is 989."""
    h100 = catalog.gpu_by_id["h100-sxm"]
    assert h100.bf16_tflops_dense == pytest.approx(989, rel=0.01)
    assert h100.fp8_tflops_dense == pytest.approx(1979, rel=0.01)
    for gpu in catalog.gpus:
        if gpu.bf16_tflops_dense and gpu.fp8_tflops_dense:
            assert gpu.fp8_tflops_dense <= 2.05 * gpu.bf16_tflops_dense  # L40S: 733 vs 362, gpu.gpu_id


def test_offers_cover_the_common_training_and_serving_gpus(catalog):
    covered = {o.gpu_id for o in catalog.offers}
    missing = REQUIRED_OFFER_GPUS - covered
    assert not missing, missing


def test_spot_is_never_dearer_than_on_demand_in_one_offer(catalog):
    for offer in catalog.offers:
        if offer.spot_usd_per_hour and offer.on_demand_usd_per_hour:
            assert offer.spot_usd_per_hour <= offer.on_demand_usd_per_hour, offer.offer_id


def test_gcp_offers_include_the_gpu_not_just_the_host(catalog):
    a2 = next(o for o in catalog.offers if o.offer_id == "gcp-a2-highgpu-1g-us-central1")
    assert a2.on_demand_usd_per_hour == pytest.approx(0.73948 + 2.93391)


def _published_tolerance(billions: float) -> float:
    """1%, or half the last digit the figure was published with, whichever is looser."""
    text = f"{billions:g}"
    decimals = len(text.split(".")[1]) if "." in text else 0
    return max(0.01 * billions, 0.5 * 10**-decimals)


@pytest.mark.parametrize("model_id,total_b,active_b", [
    ("meta-llama/Llama-3.1-8B", 8.03, None), ("meta-llama/Llama-3.1-70B", 70.6, None), ("meta-llama/Llama-3.1-405B", 405.9, None),
    ("mistralai/Mixtral-8x7B-v0.1", 46.7, 12.9), ("deepseek-ai/DeepSeek-V3", 671, 37), ("openai/gpt-oss-120b", 116.8, None),
])
def test_parameter_counts_match_the_published_totals(catalog, model_id, total_b, active_b):
    counted = count_parameters(catalog.model_by_id[model_id])
    assert counted.total / 1e9 == pytest.approx(total_b, abs=_published_tolerance(total_b))
    if active_b:
        # DeepSeek's report counts activated parameters without the input embedding table (a lookup, not a matmul);
        # Mistral and Qwen count it in.
        active = counted.active - (counted.embedding if model_id.startswith("deepseek-ai/") else 0)
        assert active / 1e9 == pytest.approx(active_b, abs=_published_tolerance(active_b))


def test_every_model_with_a_published_size_counts_to_it(catalog):
    for model in catalog.models:
        if model.published_params_billions:
            counted = count_parameters(model).total / 1e9
            assert counted == pytest.approx(model.published_params_billions, abs=_published_tolerance(model.published_params_billions)), model.model_id


def test_catalog_includes_the_families_users_ask_about(catalog):
    for name in ["Llama-2-7b", "Llama-2-13b", "Llama-2-70b", "Llama-3.3-70B", "Qwen2.5-1.5B", "Qwen2.5-3B", "gemma-3-27b",
                 "phi-4", "DeepSeek-R1-Distill-Llama-70B", "DeepSeek-R1-Distill-Qwen-7B"]:
        catalog.find_model(name)


def test_can_i_price_buying_nearly_every_gpu_i_can_rent(catalog):
    """Issue #34: at least 90% of the GPUs with a cloud offer have a purchase price or say they are not sold alone."""
    rented = sorted({o.gpu_id for o in catalog.offers})
    answered = [g for g in rented if (gpu := catalog.gpu_by_id[g]).purchase_usd or gpu.node_usd_per_gpu
                or gpu.purchase_note.startswith("not sold")]
    assert len(answered) / len(rented) >= 0.9, sorted(set(rented) - set(answered))
    for gpu_id in answered:
        gpu = catalog.gpu_by_id[gpu_id]
        assert not gpu.purchase_usd or gpu.purchase_source, gpu_id  # a price names where it comes from
