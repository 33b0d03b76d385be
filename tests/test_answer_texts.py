"""The text an AI assistant reads aloud: the verdict first, with the structured result's figures, in at most 1,500 bytes."""
from gpusizer.tools.compare import compare_gpus, compare_gpus_answer
from gpusizer.tools.figures import TEXT_LIMIT_BYTES, number, percent, usd
from gpusizer.tools.money import cloud_cost, cloud_cost_answer, rent_vs_buy, rent_vs_buy_answer
from gpusizer.tools.serving import plan_serving, plan_serving_answer

MORE = "more in the structured result"


def first_line(text):
    return text.splitlines()[0]


def fits_the_limit(text):
    return 0 < len(text.encode()) <= TEXT_LIMIT_BYTES


def test_what_does_renting_8_h100s_for_two_weeks_cost(catalog):
    result = cloud_cost("h100", gpu_count=8, hours=336, catalog=catalog)
    text = cloud_cost_answer(result)
    best = result.offers[0]
    assert first_line(text).startswith("Cheapest:")
    assert usd(best.total_usd) in first_line(text) and usd(best.usd_per_gpu_hour) in first_line(text)
    assert f"{best.provider} " in first_line(text) and "336 hours" in first_line(text)
    assert fits_the_limit(text)
    assert len(result.offers) > 5 and f"and {len(result.offers) - 5} {MORE}" in text


def test_when_spot_wins_the_answer_also_names_the_cheapest_on_demand_offer(catalog):
    result = cloud_cost("h100", gpu_count=8, hours=336, catalog=catalog)
    assert result.offers[0].pricing == "spot"
    on_demand = next(o for o in result.offers if o.pricing == "on_demand")
    second = cloud_cost_answer(result).splitlines()[1]
    assert second.startswith("Cheapest on-demand:") and usd(on_demand.total_usd) in second


def test_three_gpus_on_aws_say_the_idle_gpus_they_pay_for(catalog):
    result = cloud_cost("h100-sxm", gpu_count=3, hours=10, providers=["aws"], region="us-east-1", pricing="on_demand",
                        catalog=catalog)
    text = cloud_cost_answer(result)
    assert any(o.idle_gpus == 5 for o in result.offers)
    assert "5 GPUs paid for but idle" in text
    assert fits_the_limit(text)


def test_sixteen_gpus_in_one_machine_say_no_first_and_why(catalog):
    result = cloud_cost("h100", gpu_count=16, hours=1, single_instance=True, catalog=catalog)
    assert result.offers == []
    line = first_line(cloud_cost_answer(result))
    assert line.startswith("No offer runs 16 x h100-sxm for 1 hour:")
    assert "the largest h100-sxm instance has 8 GPUs" in line  # the change that turns the no into a yes


def test_should_we_buy_or_rent_8_h100s(catalog):
    result = rent_vs_buy("h100", catalog=catalog)
    lines = rent_vs_buy_answer(result).splitlines()
    assert lines[0].startswith(result.recommendation.capitalize() + ":")
    assert usd(result.own_total_usd) in lines[0] and usd(result.rent_total_usd) in lines[0]
    assert "3 years at 70% utilization" in lines[0] and "8 x h100-sxm" in lines[0]
    assert number(result.breakeven_gpu_hours, 0) in lines[1]
    if result.breakeven_utilization is not None:
        assert percent(result.breakeven_utilization) in lines[1]
    assert result.rent_offer and result.rent_offer in lines[2] and "data-centre on-demand" in lines[2]
    assert lines[3].startswith("Reserved instead: 1-year") and "3-year" in lines[3]  # issue #34: reserved beside on-demand
    assert "per owned GPU-hour" in lines[4]
    assert fits_the_limit("\n".join(lines))


def test_renting_a_gpu_for_less_than_its_power_wins_at_any_utilization(catalog):
    result = rent_vs_buy("h100", rent_usd_per_gpu_hour=0.01, utilization=1.0, catalog=catalog)
    assert result.recommendation == "rent" and result.breakeven_utilization is None
    text = rent_vs_buy_answer(result)
    assert first_line(text).startswith("Rent:") and "100% utilization" in first_line(text)
    assert text.splitlines()[1].startswith("Renting wins") and "(given)" in text
    assert fits_the_limit(text)


def test_how_many_gpus_serve_llama_8b_to_100_users(catalog):
    plan = plan_serving("llama-3.1-8b", concurrent_users=100, catalog=catalog)
    text = plan_serving_answer(plan)
    best = plan.options[0]
    line = first_line(text)
    assert best.gpu_id in line and "100 requests in flight at once" in line
    assert usd(best.usd_per_month) in line and number(best.tokens_per_s_per_user) in line and number(best.ttft_s) in line
    assert "limited by" in line
    assert len(plan.options) > 5 and f"and {len(plan.options) - 5} {MORE}" in text
    assert f"{plan.engine_version}" in text and fits_the_limit(text)


def test_a_request_rate_and_a_speed_target_on_h100_read_back_in_the_verdict(catalog):
    plan = plan_serving("llama-3.1-70b", requests_per_s=5, tokens_per_s_per_user=20, gpu="h100", catalog=catalog)
    line = first_line(plan_serving_answer(plan))
    assert "5 requests/s" in line and f"{plan.options[0].total_gpus} GPUs" in line


def test_llama_405b_on_one_type_of_gpu_that_cannot_hold_it_says_so_first(catalog):
    plan = plan_serving("llama-3.1-405b", concurrent_users=10, gpu="l4", catalog=catalog)
    assert plan.options == []
    text = plan_serving_answer(plan)
    assert first_line(text).startswith("l4 cannot serve") and plan.infeasible[0].reason in first_line(text)
    assert fits_the_limit(text)


def test_a_gpu_without_a_cloud_offer_still_gets_a_plan_without_a_price(catalog):
    plan = plan_serving("llama-3.1-8b", concurrent_users=10, gpu="rtx 4080", catalog=catalog)
    line = first_line(plan_serving_answer(plan))
    assert plan.options and plan.options[0].usd_per_month is None
    assert "no cloud price in the catalog" in line and "$" not in line


def test_which_of_h100_a100_l40s_is_cheapest_for_llama_8b(catalog):
    result = compare_gpus(["h100", "a100 80gb", "l40s"], model="llama-3.1-8b", catalog=catalog)
    text = compare_gpus_answer(result)
    cheapest = min(result.gpus, key=lambda row: row.replica_usd_per_hour)
    assert first_line(text).startswith(f"Cheapest per hour that holds the workload: {cheapest.gpu_id},")
    assert usd(cheapest.replica_usd_per_hour) in first_line(text)
    rows = [line for line in text.splitlines() if line.startswith("- ")]
    assert [line.split(":")[0][2:] for line in rows] == [row.gpu_id for row in result.gpus]  # the order asked
    assert all(usd(row.cheapest_usd_per_gpu_hour) in line for row, line in zip(result.gpus, rows, strict=True))
    assert fits_the_limit(text)


def test_twenty_gpus_side_by_side_show_five_and_stay_short(catalog):
    names = [gpu.gpu_id for gpu in catalog.gpus][:20]
    result = compare_gpus(names, catalog=catalog)
    text = compare_gpus_answer(result)
    assert first_line(text).startswith(f"Against {result.gpus[0].gpu_id}:")
    assert f"and 15 {MORE}" in text and fits_the_limit(text)


def test_a_model_no_gpu_in_the_list_can_hold_says_none_fits_first(catalog):
    result = compare_gpus(["t4", "rtx 4080"], model="llama-3.1-405b", batch_size=64, seq_len=131072, catalog=catalog)
    assert all(row.gpus_needed is None for row in result.gpus)
    text = compare_gpus_answer(result)
    assert first_line(text).startswith("None of these GPUs holds the workload")
    assert text.count("does not fit") == 2  # once per GPU line, not again in the notes


def test_every_answer_stays_within_the_limit_on_hostile_inputs(catalog):
    texts = [
        cloud_cost_answer(cloud_cost("h100", gpu_count=1000, hours=1_000_000, storage_gb_months=1e6, egress_gb=1e6,
                                     spot_interruptions_per_hour=10, checkpoint_overhead_fraction=1, catalog=catalog)),
        rent_vs_buy_answer(rent_vs_buy("rtx 4090", gpu_count=1_000_000, years=30, utilization=0, catalog=catalog)),
        plan_serving_answer(plan_serving("llama-3.1-8b", requests_per_s=1_000_000, ttft_s=0.001, catalog=catalog)),
        compare_gpus_answer(compare_gpus([gpu.gpu_id for gpu in catalog.gpus][-20:], model="llama-3.1-70b", catalog=catalog)),
    ]
    assert all(fits_the_limit(text) for text in texts)
    verdicts = ("Cheapest: ", "Rent: ", "No GPU in the catalog can serve", "Cheapest per hour that holds the workload: ")
    assert [first_line(text).startswith(verdict) for text, verdict in zip(texts, verdicts, strict=True)] == [True] * 4
    assert "1,000,000 x rtx-4090" in first_line(texts[1])  # counts read with thousands separators
