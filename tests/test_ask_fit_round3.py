"""Fit, which-GPU, biggest-model and serving answers (blind round 3's kinds of miss), each tried on phrasings the round
did not use: a bare 'q4' is a quant, a claim asked with 'true?' is answered, a razor-thin fit says so, the biggest model
keeps the training precision asked, an in-house plan is machines one can buy, GPUs named without a count are served on
as many as it takes, and a serving plan for many users leads."""
import pytest

from gpusizer.tools import estimate_vram
from gpusizer.tools.memory.answer import fits_answer, roomy
from gpusizer.tools.memory.fitting import NODE_GPUS, most_gpus
from gpusizer.tools.memory.in_house import in_house_answer
from gpusizer.tools.questions import ask
from gpusizer.tools.serving.capacity import serving_capacity


@pytest.mark.parametrize(("question", "dtype"), [
    ("will gemma 3 27b fit my 16gb gpu in q3?", "q3_k_m"),
    ("can a 12 gb card in q4 hold mistral small 24b", "q4_k_m"),
    ("is 24 gb of vram in q4 enough for llama 3.3 70b?", "q4_k_m"),
    ("can vllm serve qwen2.5 32b in q4 on one L40S?", "int4"),  # vLLM loads no GGUF: a 4-bit checkpoint
    ("our T4 box gets retired in Q3. how much vram does llama 3.1 8b need in fp16?", "fp16"),  # a quarter, not a quant
])
def test_a_bare_q_number_is_the_usual_quant_of_that_width(catalog, question, dtype):
    assert ask(question, catalog).reading["weights_dtype"] == dtype


def test_a_24gb_card_in_q4_runs_a_32b_model(catalog):
    answer = ask("would a 24gb gpu in q4 run qwen2.5 32b with 8k context?", catalog)
    assert answer.journey == "fit" and answer.answer.startswith("Yes")


@pytest.mark.parametrize(("question", "verdict"), [
    ("someone on reddit swears llama 3.1 405b in fp8 runs on 4 h100s. true?", "No, that claim is wrong"),
    ("a vendor told us deepseek v3 fits on 8x h200 in fp8, right?", "Yes, that claim is right"),
    ("heard qwen3 32b at 4-bit fits a 24gb 4090. legit?", "Yes, that claim is right"),
    ("my friend says mixtral 8x7b in fp16 runs on a single a100 80gb. correct?", "No, that claim is wrong"),
])
def test_a_claim_asked_about_with_a_bare_true_is_answered_on_the_gpus_it_names(catalog, question, verdict):
    answer = ask(question, catalog)
    assert answer.journey == "fit" and answer.answer.startswith(verdict), answer.answer


@pytest.mark.parametrize("question", [
    "will mistral 7b in bf16 fit a 4060 ti 16gb with 4k context?",
    "qwen2.5 7b fp16 on my 4080 at 4k ctx, will it fit?",
    "can my 3080 10gb hold llama 3.1 8b in 8-bit?",
])
def test_a_razor_thin_fit_is_yes_barely_with_what_leaves_room(catalog, question):
    answer = ask(question, catalog).answer
    assert answer.startswith("Yes, barely") and "To leave room:" in answer and "shorter context" in answer


def test_a_fit_with_room_to_spare_is_a_plain_yes(catalog):
    result = estimate_vram("meta-llama/Llama-3.1-8B", gpu="h100-sxm", catalog=catalog)
    assert fits_answer(result, "1 × H100").startswith("Yes: it fits")
    thin = estimate_vram("mistralai/Mistral-7B-v0.3", gpu="t4", weights_dtype="fp16", catalog=catalog)
    assert fits_answer(thin, "1 × T4").startswith("Yes, barely") and "8-bit weights" in fits_answer(thin, "1 × T4")


@pytest.mark.parametrize("question", [
    "largest llm i could fully fine-tune on one h100 using bf16 mixed precision and adam",
    "what's the biggest model i can do a full finetune of on an a100 80gb in mixed precision?",
    "biggest model for a full fine-tune on a single h100 with amp bf16 training and adamw?",
])
def test_the_biggest_model_to_full_fine_tune_keeps_mixed_precision(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "biggest_model"
    call = answer.calls[-1]
    assert call.arguments["training_precision"] == "mixed"
    largest = call.result["formats"][0]["models"][0]
    assert largest["params"] < 5e9  # ~16 bytes a parameter: 3-4B on 80 GB, not the 7-8B of pure bf16


@pytest.mark.parametrize("question", [
    "what hardware would we buy to host llama 3.1 405b in fp8 on-prem?",
    "we want qwen3 235b on our own servers in house, what gpus do we need",
    "planning to run deepseek v3 in-house at fp8. which gpus, and how many?",
])
def test_an_in_house_plan_is_servers_one_can_buy(catalog, question):
    answer = ask(question, catalog).answer
    assert "To run it in house" in answer and "one server of 8" in answer
    assert "rtx-3090" not in answer and "vast" not in answer and "apple" not in answer


def test_one_server_of_h100s_falling_short_is_said(catalog):
    answer = ask("running deepseek r1 671b in house: what GPUs and how many?", catalog).answer
    assert "One server of 8 × h100-sxm falls short" in answer and "h200-sxm" in answer


def test_tensor_parallelism_stays_in_one_machine_of_pcie_cards(catalog):
    result = estimate_vram("deepseek-ai/DeepSeek-V3", catalog=catalog)
    for fit in result.fits:
        assert fit.gpus_needed <= most_gpus(catalog.find_gpu(fit.gpu_id), "inference")
    assert most_gpus(catalog.find_gpu("rtx-3090"), "inference") == NODE_GPUS
    assert most_gpus(catalog.find_gpu("apple-m2-ultra-76c-192gb"), "inference") == 1
    assert most_gpus(catalog.find_gpu("h100-sxm"), "inference") > NODE_GPUS


def test_buying_for_a_small_model_ranks_single_cards_by_price(catalog):
    result = estimate_vram("meta-llama/Llama-3.1-8B", catalog=catalog)
    answer = in_house_answer(catalog, result.fits, {"model": "meta-llama/Llama-3.1-8B"})
    assert answer.startswith("To run it in house (one card first") and "× 1" not in answer


@pytest.mark.parametrize(("question", "card"), [
    ("i have $1500 to spend on a gpu, what should i buy to run gemma 3 27b at home?", "rtx-3090"),
    ("what card should i purchase for llama 3.3 70b locally with a $3000 budget", "rtx-3090"),
    ("which graphics card should i buy for qwen2.5 32b, my budget is $2,000", "rtx-4090"),
])
def test_a_purchase_budget_no_card_meets_as_released_is_tried_at_4_bit(catalog, question, card):
    answer = ask(question, catalog).answer
    assert "4-bit" in answer and "Within your" in answer and card in answer


def test_a_card_that_only_just_holds_it_is_not_recommended_to_buy(catalog):
    result = estimate_vram("Qwen/Qwen3-32B", weights_dtype="q4_k_m", catalog=catalog)
    assert all(f.usable_bytes - f.per_gpu_bytes >= 0.05 * f.usable_bytes for f in roomy(result.fits))


@pytest.mark.parametrize(("question", "served_on"), [
    ("price per 1M tokens for qwen2.5 72b in bf16 on a100 80gbs with vllm?", "4 × a100-80gb-sxm"),
    ("what does 1M output tokens cost serving deepseek r1 distill llama 70b on h200s?", "2 × h200-sxm"),
    ("how many requests at once can l40s handle for llama 3.3 70b fp8 in vllm", "2 × l40s"),
])
def test_gpus_named_without_a_count_are_served_on_as_many_as_it_takes(catalog, question, served_on):
    answer = ask(question, catalog).answer
    assert answer.startswith(served_on) and "cannot serve" not in answer.splitlines()[0]


def test_serving_capacity_without_a_count_says_one_gpu_is_not_enough(catalog):
    result = serving_capacity("meta-llama/Llama-3.1-70B", gpu="h100-sxm", gpu_count=8, fewest=True, weights_dtype="fp8",
                              catalog=catalog)
    assert result.gpu_count == 2 and result.layouts and result.warnings[0].startswith("One h100-sxm cannot serve it")


@pytest.mark.parametrize("question", [
    "we have 300 users hitting llama 3.1 8b at once, roughly. what gpus should we rent and what's the monthly bill?",
    "serving mistral small 24b to 200 concurrent users: cheapest gpus, monthly?",
    "need gemma 3 27b for 500 simultaneous users. which gpus are cheapest and what's it cost monthly?",
])
def test_a_plan_for_many_users_leads_with_the_serving_plan(catalog, question):
    answer = ask(question, catalog)
    assert answer.journey == "serving" and "/month" in answer.answer.splitlines()[0]
