"""The cheapest way to do a job (tools/money/cheapest_way.py): each way sized by estimate_vram and priced at the
cheapest catalog GPU that holds it, the pick first."""
from gpusizer.tools.memory.estimate import estimate_vram
from gpusizer.tools.money.cheapest_way import cheapest_way, cheapest_way_answer


def test_the_cheapest_way_to_fine_tune_an_8b_is_an_adapter_not_full_fine_tuning(catalog):
    job = {"model": "llama-3.1-8b", "workload": "training"}
    way = cheapest_way(job, catalog=catalog)
    by_way = {w.way: w for w in way.ways}
    assert set(by_way) == {"full fine-tuning", "LoRA", "QLoRA"} and way.pick in ("LoRA", "QLoRA")
    assert by_way["full fine-tuning"].usd_per_hour > by_way[way.pick].usd_per_hour
    assert by_way["QLoRA"].total_bytes == estimate_vram(**job, method="qlora", catalog=catalog).total_bytes
    assert cheapest_way_answer(way).startswith(f"Cheapest: {way.pick}.")


def test_a_method_already_chosen_is_priced_alone_and_its_run_timed(catalog):
    way = cheapest_way({"model": "mistral-7b", "workload": "training"}, catalog=catalog, method="lora", training_tokens=5e7)
    assert [w.way for w in way.ways] == ["LoRA"] and way.run_gpu_hours and way.run_gpu_hours > 0
    assert "The run on 50M tokens that way" in cheapest_way_answer(way)


def test_serving_compares_formats_on_the_gpus_named(catalog):
    way = cheapest_way({"model": "qwen2.5-32b"}, catalog=catalog, among=["rtx-4090", "a100-80gb-sxm"])
    assert [w.way for w in way.ways] == ["as released", "8-bit weights", "4-bit weights"]
    assert {w.gpu_id for w in way.ways if w.gpu_id} <= {"rtx-4090", "a100-80gb-sxm"}
