"""Plain-words questions map to the right tool call, and the answer quotes that tool's figures (issue #7)."""
import pytest

from gpusizer.tools import cloud_cost, compare_gpus, estimate_vram, rent_vs_buy
from gpusizer.tools.figures import gib, usd
from gpusizer.tools.questions import ask

L8, L70, MIX, Q7 = "meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-70B", "mistralai/Mixtral-8x7B-v0.1", "Qwen/Qwen2.5-7B"

PHRASINGS = [  # (question, journey, tool, arguments the call must carry)
    # 1. how much VRAM
    ("How much VRAM for Llama 3.1 70B at 8k context?", "estimate", "estimate_vram", {"model": L70, "seq_len": 8192}),
    ("how much memory does llama-3.1-8b need", "estimate", "estimate_vram", {"model": L8}),
    ("VRAM to serve mixtral with 32768 tokens", "estimate", "estimate_vram", {"model": MIX, "workload": "inference", "seq_len": 32768}),
    ("memory for a 13B model in int4 with batch 8", "estimate", "estimate_vram", {"params_billions": 13.0, "weights_dtype": "int4", "batch_size": 8}),
    ("GPU memory to fine-tune qwen2.5-7b", "estimate", "estimate_vram", {"model": Q7, "workload": "training", "method": "full"}),
    ("how much vram to qlora llama 3.1 70b", "estimate", "estimate_vram", {"model": L70, "method": "qlora"}),
    ("LoRA on Mistral 7B at 4k context with gradient checkpointing", "estimate", "estimate_vram",
     {"model": "mistralai/Mistral-7B-v0.3", "method": "lora", "seq_len": 4096, "gradient_checkpointing": True}),
    ("pretrain a 7B model, batch size 4, 2048 tokens", "estimate", "estimate_vram",
     {"params_billions": 7.0, "workload": "training", "batch_size": 4, "seq_len": 2048}),
    ("vram for qwen3-8b with batch 16 at 32k context", "estimate", "estimate_vram",
     {"model": "Qwen/Qwen3-8B", "batch_size": 16, "seq_len": 32768}),
    ("llama 3.1 8b in fp8", "estimate", "estimate_vram", {"model": L8, "weights_dtype": "fp8"}),
    ("deepseek-v3 4-bit inference", "estimate", "estimate_vram", {"model": "deepseek-ai/DeepSeek-V3", "weights_dtype": "int4"}),
    # 2. will it fit
    ("Will Mixtral fit on 2x H100?", "fit", "estimate_vram", {"model": MIX, "gpu": "h100-sxm", "tensor_parallel": 2}),
    ("can I run llama 3.1 70b on a single 4090?", "fit", "estimate_vram", {"model": L70, "gpu": "rtx-4090"}),
    ("does llama 3.1 8b fit on an L4 at 8k context", "fit", "estimate_vram", {"model": L8, "gpu": "l4", "seq_len": 8192}),
    ("QLoRA llama-3.1-8b on a 4090 with 4096 tokens", "fit", "estimate_vram", {"model": L8, "gpu": "rtx-4090", "method": "qlora"}),
    ("fine-tune llama 3.1 8b on 8 x a100", "fit", "estimate_vram",
     {"model": L8, "gpu": "a100-80gb-sxm", "num_gpus": 8, "sharding": "zero3"}),
    ("is an H200 enough for llama 3.1 70b in bf16?", "fit", "estimate_vram", {"model": L70, "gpu": "h200-sxm"}),
    ("two A100s for mixtral in int8?", "fit", "estimate_vram", {"model": MIX, "gpu": "a100-80gb-sxm", "weights_dtype": "int8"}),
    # 3. which GPU
    ("Which GPU should I use to QLoRA qwen2.5-14b?", "which_gpu", "estimate_vram", {"model": "Qwen/Qwen2.5-14B", "method": "qlora"}),
    ("what gpu do I need for llama 3.1 70b inference", "which_gpu", "estimate_vram", {"model": L70, "workload": "inference"}),
    ("recommend hardware to serve gpt-oss-120b", "which_gpu", "estimate_vram", {"model": "openai/gpt-oss-120b"}),
    ("best GPU for a 30B model in int4", "which_gpu", "estimate_vram", {"params_billions": 30.0, "weights_dtype": "int4"}),
    # 4. longest context / largest batch
    ("longest context for llama 3.1 8b on a 4090", "limits", "estimate_vram", {"model": L8, "gpu": "rtx-4090"}),
    ("largest batch for mistral 7b on an L4 at 4k context", "limits", "estimate_vram",
     {"model": "mistralai/Mistral-7B-v0.3", "gpu": "l4", "seq_len": 4096}),
    ("what's the max context I can LoRA fine-tune qwen2.5-7b with on 24GB? rtx 4090", "limits", "estimate_vram",
     {"model": Q7, "gpu": "rtx-4090", "method": "lora"}),
    ("maximum batch size for llama 3.1 70b on 4x h100", "limits", "estimate_vram", {"model": L70, "gpu": "h100-sxm", "tensor_parallel": 4}),
    ("max concurrent 16k-token requests of Llama 3.1 8B on an H100", "limits", "serving_capacity",
     {"model": L8, "gpu": "h100-sxm", "engine": "vllm", "prompt_tokens": 16384}),
    ("how many users can llama 3.1 8b q4_k_m serve with ollama on a 4090", "limits", "serving_capacity",
     {"model": L8, "engine": "llama_cpp", "weights_dtype": "q4_k_m", "gpu": "rtx-4090"}),
    # 10. serving capacity
    ("serve qwen3-8b to 16 concurrent users at 32k context", "serving", "plan_serving",
     {"model": "Qwen/Qwen3-8B", "concurrent_users": 16, "prompt_tokens": 32768}),
    ("How many GPUs to serve Llama 3.1 70B to 500 concurrent users with vLLM?", "serving", "plan_serving",
     {"model": L70, "concurrent_users": 500, "engine": "vllm"}),
    ("serve Llama 3.1 8B for 1,000 concurrent users", "serving", "plan_serving", {"model": L8, "concurrent_users": 1000}),
    ("I need to host qwen3 32b for 20 requests per second at 30 tokens/s per user on H100s", "serving", "plan_serving",
     {"model": "Qwen/Qwen3-32B", "requests_per_s": 20.0, "tokens_per_s_per_user": 30.0, "gpu": "h100-sxm"}),
    ("capacity plan: mixtral for 2k users with sglang", "serving", "plan_serving",
     {"model": MIX, "concurrent_users": 2000, "engine": "sglang"}),
    ("how many h100s do I need to serve deepseek-v3 at 5 rps", "serving", "plan_serving",
     {"model": "deepseek-ai/DeepSeek-V3", "requests_per_s": 5.0, "gpu": "h100-sxm"}),
    # 5. compare
    ("compare h100, a100 and mi300x", "compare", "compare_gpus", {"gpus": ["h100-sxm", "a100-80gb-sxm", "mi300x"]}),
    ("H100 vs H200 for llama 3.1 70b", "compare", "compare_gpus", {"gpus": ["h100-sxm", "h200-sxm"], "model": L70}),
    ("l40s versus a10g versus l4", "compare", "compare_gpus", {"gpus": ["l40s", "a10g", "l4"]}),
    ("compare b200 and mi355x for serving deepseek-v3 in fp8", "compare", "compare_gpus",
     {"gpus": ["b200", "mi355x"], "weights_dtype": "fp8"}),
    # 6. cheapest rental
    ("cheapest way to rent 8 H100s for 100 hours", "cloud_cost", "cloud_cost", {"gpu": "h100-sxm", "gpu_count": 8, "hours": 100.0}),
    ("how much does it cost to rent an A100 for 3 days", "cloud_cost", "cloud_cost", {"gpu": "a100-80gb-sxm", "hours": 72.0}),
    ("price of 4x L40S for 10 hours on spot", "cloud_cost", "cloud_cost",
     {"gpu": "l40s", "gpu_count": 4, "hours": 10.0, "pricing": "spot"}),
    ("rent 16 h100 for a week", "cloud_cost", "cloud_cost", {"gpu": "h100-sxm", "gpu_count": 16}),
    ("cheapest mi300x", "cloud_cost", "cloud_cost", {"gpu": "mi300x", "hours": 1.0}),
    # 7. rent or buy
    ("rent or buy 8 h100 at 60% utilization over 4 years", "rent_or_buy", "rent_vs_buy",
     {"gpu": "h100-sxm", "gpu_count": 8, "utilization": 0.6, "years": 4.0}),
    ("should we buy 8 H100s at $25,000 each at 80% utilization?", "rent_or_buy", "rent_vs_buy",
     {"gpu": "h100-sxm", "purchase_usd_per_gpu": 25000.0, "utilization": 0.8}),
    ("buy or rent 4 a100 at 40%", "rent_or_buy", "rent_vs_buy", {"gpu": "a100-80gb-sxm", "gpu_count": 4, "utilization": 0.4}),
    # a count left out is the unit the GPU is sold in: one PCIe card, a server of SXM modules
    ("a 4060 ti 16gb for $450 or rent one at 12 cents an hour?", "rent_or_buy", "rent_vs_buy",
     {"gpu": "rtx-4060-ti-16gb", "gpu_count": 1, "purchase_usd_per_gpu": 450.0, "rent_usd_per_gpu_hour": 0.12}),
    ("should we buy h100s or keep renting at 60% utilization?", "rent_or_buy", "rent_vs_buy",
     {"gpu": "h100-sxm", "gpu_count": 8, "utilization": 0.6}),
    ("is owning 8 h100 cheaper than renting at $2/hour", "rent_or_buy", "rent_vs_buy",
     {"gpu": "h100-sxm", "rent_usd_per_gpu_hour": 2.0}),
    # 8. what is
    ("what is an mi300x?", "gpu_card", None, {}),
    ("tell me about the h100", "gpu_card", None, {}),
    ("what is gpt-oss-120b", "model_card", None, {}),
    ("describe the architecture of deepseek-v3", "model_card", None, {}),
]


@pytest.mark.parametrize("question, journey, tool, expected", PHRASINGS, ids=[p[0][:40] for p in PHRASINGS])
def test_phrasing_maps_to_the_right_call(catalog, question, journey, tool, expected):
    answer = ask(question, catalog)
    assert answer.understood and answer.journey == journey, answer.interpretation
    if tool is None:
        assert not answer.calls
        return
    made = answer.calls[0]
    assert made.tool == tool and made.error is None, made.error
    assert {k: made.arguments.get(k) for k in expected} == expected
    assert answer.interpretation.startswith("I read this as:")


def test_there_are_at_least_forty_phrasings_across_the_journeys():
    assert len(PHRASINGS) >= 40
    assert {j for _, j, _, _ in PHRASINGS} == {"estimate", "fit", "which_gpu", "limits", "compare", "cloud_cost", "rent_or_buy",
                                              "gpu_card", "model_card", "serving"}


def test_vram_answer_quotes_the_tools_total(catalog):
    answer = ask("how much VRAM for llama 3.1 70b at 8k context?", catalog)
    expected = estimate_vram(catalog=catalog, model=L70, seq_len=8192)
    assert gib(expected.total_bytes) in answer.answer
    assert "I read this as: meta-llama/Llama-3.1-70B, inference, bf16 (as released), batch 1, 8,192 tokens" in answer.interpretation


def test_fit_answer_says_no_and_how_many_are_needed(catalog):
    answer = ask("will llama 3.1 70b fit on a 4090?", catalog)
    expected = estimate_vram(catalog=catalog, model=L70, gpu="rtx-4090")
    needed = next(f.gpus_needed for f in expected.fits if f.gpu_id == "rtx-4090")
    assert answer.answer.startswith("No:") and gib(expected.total_bytes) in answer.answer and f"{needed} × rtx-4090" in answer.answer


def test_cloud_answer_quotes_the_cheapest_offer(catalog):
    answer = ask("cheapest way to rent 8 H100s for 100 hours", catalog)
    best = cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=8, hours=100).offers[0]
    assert usd(best.total_usd) in answer.answer and best.provider in answer.answer


def test_rent_or_buy_answer_quotes_both_totals(catalog):
    answer = ask("rent or buy 8 h100 at 60% utilization over 4 years", catalog)
    expected = rent_vs_buy(catalog=catalog, gpu="h100-sxm", gpu_count=8, utilization=0.6, years=4)
    assert usd(expected.own_total_usd) in answer.answer and usd(expected.rent_total_usd) in answer.answer


def test_compare_answer_lists_each_gpu_price(catalog):
    answer = ask("compare h100, a100 and mi300x", catalog)
    for row in compare_gpus(catalog=catalog, gpus=["h100-sxm", "a100-80gb-sxm", "mi300x"]).gpus:
        assert f"{row.gpu_id}:" in answer.answer and usd(row.cheapest_usd_per_gpu_hour) in answer.answer


def test_gpu_card_comes_from_the_catalog_with_its_source(catalog):
    answer = ask("what is an mi300x?", catalog)
    gpu = catalog.gpu_by_id["mi300x"]
    assert gpu.name in answer.answer and gpu.source in answer.answer and "192 GB" in answer.answer


@pytest.mark.parametrize("question", ["hello there", "what's the weather", "how much for the big one?", ""])
def test_unreadable_questions_get_examples_not_guesses(catalog, question):
    answer = ask(question, catalog)
    assert not answer.understood and not answer.calls
    assert "Examples:" in answer.answer and "will mixtral fit on 2x H100?" in answer.answer


def test_a_tool_refusal_is_quoted_not_hidden(catalog):
    answer = ask("cheapest way to rent a gaudi 3 for 5 hours", catalog)
    assert answer.understood and answer.calls[0].error and "no cloud offer for gaudi3" in answer.answer


def test_speed_on_the_gpus_named_uses_that_many(catalog):
    answer = ask("how fast is llama 3.1 70b on 8x h100", catalog)
    made = next(c for c in answer.calls if c.tool == "estimate_speed")
    assert made.arguments["num_gpus"] == 8 and "8 x h100-sxm" in answer.answer


@pytest.mark.parametrize("question", [
    "Which cloud GPU is the cheapest per hour that can hold Mixtral 8x22B in fp8 by itself?",
    "cheapest gpu that can hold mixtral 8x22b in fp8 on its own",
    "which single gpu is cheapest for mixtral 8x22b in fp8?",
])
def test_a_gpu_that_holds_it_by_itself_lists_single_gpus_not_a_split_over_cheaper_cards(catalog, question):
    """'By itself', 'on its own', 'single GPU': one card that holds the model, cheapest first (one H200 here), not
    eight RTX 3090s that cost less an hour; and 'on its own' is no question of owning the card."""
    answer = ask(question, catalog)
    assert answer.journey == "which_gpu" and "Cheapest single GPUs that hold it" in answer.answer
    listed = answer.answer.split("Cheapest single GPUs that hold it (on-demand): ")[1].split(". Also")[0]
    assert all(way.startswith("1 × ") for way in listed.split("; ")) and "in house" not in answer.answer


def test_a_model_that_needs_several_gpus_said_nothing_of_alone_still_lists_every_way(catalog):
    answer = ask("cheapest way to run mixtral 8x22b in fp8?", catalog)
    assert "Cheapest single GPUs" not in answer.answer


def test_how_many_pcie_cards_for_a_model_larger_than_a_machine_of_them_says_why_not_up_to_64(catalog):
    """'How many RTX 3090s for DeepSeek V3 at Q4_K_M?': 377 GiB is more than the 8 cards one machine holds (192 GB); the
    answer says so, not that it fails on up to 64 of them, which it never tried."""
    answer = ask("How many RTX 3090s would it take to run DeepSeek V3 at Q4_K_M entirely in VRAM?", catalog)
    assert answer.answer.startswith("On rtx-3090: it does not fit on the 8 one machine holds; more of them means several")
    assert "up to 64" not in answer.answer
