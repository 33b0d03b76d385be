"""The questions people ask before they rent GPUs, answered by estimate_vram."""
import pytest

from gpusizer.tools import SizingError, estimate_vram

GIB = 2**30


def test_llama_8b_inference_fits_one_24gb_gpu(catalog):
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", seq_len=4096, gpu="rtx-4090")
    assert result.gpu_check.fits
    assert result.total_bytes == sum(result.breakdown.model_dump().values())


def test_llama_70b_bf16_inference_needs_more_than_one_80gb_gpu(catalog):
    result = estimate_vram(catalog=catalog, model="llama-3.1-70b", gpu="h100-sxm")
    assert not result.gpu_check.fits
    h100 = next(f for f in result.fits if f.gpu_id == "h100-sxm")
    assert h100.gpus_needed == 2


def test_llama_70b_qlora_fits_one_80gb_gpu(catalog):
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B", workload="training", method="qlora",
                           gradient_checkpointing=True, seq_len=2048, gpu="a100-80gb-sxm")
    assert result.gpu_check.fits
    assert result.trainable_params < 0.01 * result.params


def test_full_finetune_of_8b_with_mixed_precision_adamw_needs_about_16_bytes_per_parameter(catalog):
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", workload="training", gradient_checkpointing=True, seq_len=512,
                           training_precision="mixed")
    states = result.breakdown.weights + result.breakdown.optimizer_states + result.breakdown.gradients
    assert states / result.params >= 12  # weights + optimizer states (+ gradients at the step): 12 to 16+ bytes


def test_trainer_on_transformers_4_trains_a_full_fine_tune_in_mixed_precision_and_5_in_bf16(catalog):
    """4.x loaded float32 (fp32 master weights under bf16 autocast); 5.0 loads the checkpoint's bf16, so Trainer trains
    pure bf16: half the model states, and the default follows the release the recipe names."""
    def states(**extra):
        result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", workload="training", gradient_checkpointing=True,
                               seq_len=512, **extra)
        b = result.breakdown
        return result.training.training_precision, (b.weights + b.optimizer_states + b.gradients) / result.params
    assert states(framework_version="4.46")[0] == "mixed" and states(framework_version="4.46")[1] >= 12
    precision, per_param = states()
    assert precision == "bf16" and 6 <= per_param < 9


def test_small_model_big_vocabulary_training_is_dominated_by_the_loss(catalog):
    result = estimate_vram(catalog=catalog, model="Qwen/Qwen2.5-0.5B", workload="training", batch_size=8, seq_len=2048)
    assert result.breakdown.activations > 5 * result.breakdown.weights
    assert "vocabulary" in result.peak_phase


def test_a_loop_that_frees_the_model_output_saves_two_bytes_per_logit(catalog):
    """`out = model(**batch); out.loss.backward()` keeps the output (and its bf16 logits) alive; HF Trainer frees it."""
    common = dict(model="Qwen/Qwen2.5-0.5B", workload="training", batch_size=8, seq_len=1024, training_precision="bf16")
    kept = estimate_vram(catalog=catalog, **common, recipe="pytorch")
    freed = estimate_vram(catalog=catalog, **common, recipe="pytorch", logits_kept=False)
    assert kept.peak_phase == freed.peak_phase == "start of backward (loss over the full vocabulary)"
    assert kept.breakdown.activations - freed.breakdown.activations == 8 * 1024 * 151_936 * 2
    assert any("logits_kept=false" in a for a in freed.assumptions)
    assert any("logits_kept=true" in a for a in kept.assumptions)
    inference = dict(model="Qwen/Qwen2.5-0.5B", batch_size=8, seq_len=1024)
    assert estimate_vram(catalog=catalog, **inference).total_bytes == estimate_vram(catalog=catalog, **inference, logits_kept=False).total_bytes


def test_the_default_recipe_is_hf_trainer_which_frees_the_logits(catalog):
    result = estimate_vram(catalog=catalog, model="Qwen/Qwen2.5-0.5B", workload="training", batch_size=8, seq_len=1024)
    assert result.training.recipe == "hf_trainer" and not result.training.logits_kept
    assert any("default recipe 'hf_trainer'" in a for a in result.assumptions)


def test_longest_context_a_24gb_gpu_can_fine_tune(catalog):
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", workload="training", method="qlora",
                           gradient_checkpointing=True, gpu="rtx-4090")
    longest = result.gpu_check.max_seq_len
    assert longest and longest > 2048
    at_limit = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", workload="training", method="qlora",
                             gradient_checkpointing=True, seq_len=longest, gpu="rtx-4090")
    beyond = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-8B", workload="training", method="qlora",
                           gradient_checkpointing=True, seq_len=longest + 1, gpu="rtx-4090")
    assert at_limit.gpu_check.fits and not beyond.gpu_check.fits


def test_largest_batch_that_fits(catalog):
    result = estimate_vram(catalog=catalog, model="mistralai/Mistral-7B-v0.3", seq_len=2048, gpu="h100-sxm")
    batch = result.gpu_check.max_batch_size
    assert estimate_vram(catalog=catalog, model="mistralai/Mistral-7B-v0.3", seq_len=2048, batch_size=batch, gpu="h100-sxm").gpu_check.fits
    assert not estimate_vram(catalog=catalog, model="mistralai/Mistral-7B-v0.3", seq_len=2048, batch_size=batch + 1, gpu="h100-sxm").gpu_check.fits


def test_fits_are_listed_smallest_first_and_on_usable_memory(catalog):
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B")
    needed = [f.gpus_needed for f in result.fits]
    assert needed == sorted(needed)
    assert all(f.per_gpu_bytes <= f.usable_bytes for f in result.fits)


def test_gqa_keeps_the_kv_cache_small(catalog):
    """Llama 2 70B and Llama 3.1 70B both use 8 KV heads; Llama 2 7B uses full multi-head attention."""
    llama2_7b = estimate_vram(catalog=catalog, model="llama-2-7b", seq_len=4096).breakdown.kv_cache
    llama3_8b = estimate_vram(catalog=catalog, model="llama-3.1-8b", seq_len=4096).breakdown.kv_cache
    assert llama2_7b == 4 * llama3_8b


def test_deepseek_under_transformers_caches_every_heads_keys_and_values(catalog):
    """transformers' DeepseekV3Attention caches the decompressed keys (qk_nope + qk_rope) and values of all 128 heads."""
    result = estimate_vram(catalog=catalog, model="deepseek-ai/DeepSeek-V3", seq_len=1000)
    assert result.breakdown.kv_cache == 61 * 128 * (128 + 64 + 128) * 2 * 1000


def test_a_64k_prefill_of_gpt_oss_holds_every_tokens_cache_even_in_its_sliding_layers(catalog):
    """transformers' DynamicSlidingWindowLayer keeps a view of the last 127 tokens whose storage is the whole prefill
    (traced: tests/test_vram_sliding_window.py); only the first decode step frees it."""
    result = estimate_vram(catalog=catalog, model="openai/gpt-oss-120b", seq_len=65536)
    per_layer_per_token = 2 * 8 * 64 * 2
    assert result.breakdown.kv_cache == per_layer_per_token * 36 * 65536


def test_an_fp8_checkpoint_under_transformers_on_an_a100_takes_bf16_memory(catalog):
    """transformers dequantizes FP8 weights to BF16 below compute capability 8.9; vLLM keeps them in FP8 (Marlin)."""
    on_a100 = estimate_vram(catalog=catalog, model="llama-3.1-8b", weights_dtype="fp8", gpu="a100-80gb-sxm")
    on_h100 = estimate_vram(catalog=catalog, model="llama-3.1-8b", weights_dtype="fp8", gpu="h100-sxm")
    bf16 = estimate_vram(catalog=catalog, model="llama-3.1-8b", weights_dtype="bf16", gpu="a100-80gb-sxm")
    assert on_a100.breakdown.weights == bf16.breakdown.weights
    assert on_h100.breakdown.weights < 0.6 * bf16.breakdown.weights  # FP8 matrices; embeddings and norms stay BF16
    assert any("dequantizes FP8 weights to BF16" in w for w in on_a100.warnings)
    vllm = estimate_vram(catalog=catalog, model="llama-3.1-8b", weights_dtype="fp8", gpu="a100-80gb-sxm", engine="vllm")
    assert vllm.weights_dtype == "fp8"


def test_no_fp8_weights_suggested_for_transformers_on_an_a100_where_it_would_load_them_in_bf16(catalog):
    result = estimate_vram(catalog=catalog, model="Qwen/Qwen3-32B", gpu="a100-40gb-sxm")
    assert result.alternatives and not any("FP8 weights" in a.change for a in result.alternatives)
    assert result.alternatives[0].arguments["weights_dtype"] == "awq"


@pytest.mark.parametrize("engine", ["hf", "vllm"])
def test_awq_on_a_v100_is_refused_with_the_gptq_checkpoint_that_loads(catalog, engine):
    """AutoAWQ and vLLM's AWQ kernels need Turing (SM 7.5); GPTQ runs on Volta."""
    result = estimate_vram(catalog=catalog, model="Qwen/Qwen3-32B", weights_dtype="awq", gpu="v100-sxm2-32gb", engine=engine)
    assert not result.gpu_check.fits and "no AWQ kernel for Volta" in result.gpu_check.split
    assert result.alternatives[0].arguments["weights_dtype"] == "gptq"


def test_vllm_that_does_not_start_on_one_gpu_names_how_many_and_the_4bit_checkpoint_on_fewer(catalog):
    result = estimate_vram(catalog=catalog, model="Qwen/Qwen3-32B", gpu="l4", engine="vllm")
    assert not result.gpu_check.fits and result.gpu_check.gpus_needed == 8
    four_bit = result.alternatives[0]
    assert four_bit.arguments["weights_dtype"] == "awq" and four_bit.gpus == 2


def test_a_bare_family_name_says_which_part_was_assumed(catalog):
    result = estimate_vram(catalog=catalog, model="llama-3.1-8b", gpu="H100")
    assert result.gpu_check.gpu_id == "h100-sxm"
    assert any("h100-pcie" in w for w in result.warnings)


def test_an_unlisted_model_works_from_its_size_with_a_warning(catalog):
    result = estimate_vram(catalog=catalog, params_billions=13)
    assert result.params == pytest.approx(13e9, rel=0.05)
    assert any("architecture assumed" in w for w in result.warnings)


def test_every_estimate_lists_its_assumptions(catalog):
    result = estimate_vram(catalog=catalog, model="llama-3.1-8b", workload="training", method="lora")
    text = " ".join(result.assumptions)
    assert "LoRA rank 16" in text and "runtime overhead" in text and "SDPA" in text


@pytest.mark.parametrize("arguments,fragment", [
    ({"model": "llama-3.1-8b", "batch_size": -1}, "batch_size must be ≥ 1"),
    ({"model": "llama-3.1-8b", "seq_len": 0}, "seq_len must be ≥ 1"),
    ({"model": "llama-3.1-8b", "seq_len": 10**12}, "seq_len must be ≤"),
    ({"model": "llama-3.1-8b", "method": "qlora"}, "use workload='training'"),
    ({"model": "llama-3.1-8b", "workload": "serve"}, "workload='serve' is not allowed"),
    ({"model": "llama-3.1-9b"}, "did you mean"),
    ({}, "exactly one of model"),
    ({"model": "llama-3.1-8b", "params_billions": 8}, "exactly one of model"),
    ({"params_billions": -3}, "params_billions must be >"),
    ({"model": "llama-3.1-8b", "num_gpus": 3, "tensor_parallel": 2}, "multiple of tensor_parallel"),
    ({"model": "llama-3.1-8b", "sharding": "zero3"}, "applies to training"),
    ({"model": "llama-3.1-8b", "gpu": "H10"}, "did you mean 'h100-sxm'"),
    ({"model": "llama-3.1-8b", "banana": 1}, "unknown argument 'banana'"),
])
def test_bad_input_gets_a_fix_it_message(catalog, arguments, fragment):
    with pytest.raises(SizingError) as error:
        estimate_vram(catalog=catalog, **arguments)
    assert fragment in str(error.value)


QLORA_CONFIGS = __import__("pathlib").Path(__file__).resolve().parent / "data" / "configs"


@pytest.mark.parametrize("folder,gpu,batch_size", [("llama-65b", "rtx-a6000", 4), ("llama-33b", "24GB", 4)])
def test_the_qlora_papers_claims_65b_on_one_48gb_gpu_and_33b_on_a_24gb_card(catalog, folder, gpu, batch_size):
    """QLoRA (Dettmers et al. 2023, arXiv:2305.14314): 'finetune a 65B parameter model on a single 48GB GPU', and a
    33B on a single 24 GB consumer GPU. Recipe of artidoro/qlora scripts/finetune_guanaco_65b.sh: NF4 + double
    quantization, LoRA r=64 on every linear layer, bf16, gradient checkpointing, batch 4 of at most 16 + 512 tokens,
    qlora.py's default optimizer paged_adamw_32bit (states paged to CPU memory under pressure)."""
    result = estimate_vram(catalog=catalog, model=str(QLORA_CONFIGS / folder / "config.json"), workload="training",
                           method="qlora", lora_rank=64, batch_size=batch_size, seq_len=528, recipe="hf_trainer",
                           optimizer="paged_adamw", gradient_checkpointing=True, training_precision="bf16", gpu=gpu)
    assert result.gpu_check.fits
    assert result.total_bytes > 0.8 * result.gpu_check.usable_bytes  # the claim is tight: 4-bit weights alone fill most of it


def test_a_model_too_big_for_the_gpu_named_says_how_many_of_that_gpu_it_takes(catalog):
    check = estimate_vram("llama-3.1-70b", gpu="rtx-3090", catalog=catalog).gpu_check
    assert check is not None and not check.fits
    assert check.gpus_needed is not None and check.gpus_needed > 1 and "tensor parallel" in (check.split or "")
    spread = estimate_vram("llama-3.1-70b", gpu="rtx-3090", num_gpus=check.gpus_needed,
                           tensor_parallel=check.gpus_needed, catalog=catalog).gpu_check
    assert spread is not None and spread.fits  # the count is one the tool itself then says fits


def test_a_training_job_too_big_for_one_gpu_is_counted_with_zero3(catalog):
    check = estimate_vram("qwen2.5-32b", workload="training", gpu="h100", catalog=catalog).gpu_check
    assert check is not None and not check.fits and check.gpus_needed and check.gpus_needed > 1
    assert "ZeRO-3" in (check.split or "")


def test_a_job_that_fits_needs_one_gpu(catalog):
    check = estimate_vram("llama-3.1-8b", gpu="h100", catalog=catalog).gpu_check
    assert check is not None and check.fits and check.gpus_needed == 1 and check.split == "one GPU"


def test_a_3090_and_a_3060_in_one_box_add_up_under_llama_cpp_but_not_under_vllm(catalog):
    """llama.cpp splits layers by memory (24 + 12 GB add up); vLLM gives each card an equal share (the 12 GB limits)."""
    layers = estimate_vram("qwen2.5-32b", weights_dtype="q8_0", engine="llama_cpp", seq_len=4096,
                           gpu=["rtx-3090", "rtx-3060-12gb"], catalog=catalog).box
    shards = estimate_vram("qwen2.5-32b", weights_dtype="awq", engine="vllm", seq_len=4096,
                           gpu=["rtx-3090", "rtx-3060-12gb"], catalog=catalog).box
    assert layers is not None and shards is not None
    assert layers.cards[0].share_bytes > layers.cards[1].share_bytes  # in proportion to memory
    assert shards.cards[0].share_bytes == shards.cards[1].share_bytes and "smallest sets the limit" in shards.split
    assert layers.fits and layers.shared_bytes > 24 * 2**30  # more than either card alone


def test_the_same_card_listed_twice_is_two_of_it(catalog):
    listed = estimate_vram("llama-3.1-70b", weights_dtype="awq", gpu=["rtx-3090", "rtx-3090"], catalog=catalog)
    counted = estimate_vram("llama-3.1-70b", weights_dtype="awq", gpu="rtx-3090", num_gpus=2, tensor_parallel=2, catalog=catalog)
    assert listed.box is None and listed.total_bytes == counted.total_bytes and listed.gpu_check == counted.gpu_check


def test_a_box_of_too_many_cards_is_refused_with_the_limit(catalog):
    with pytest.raises(SizingError, match="at most 16"):
        estimate_vram("llama-3.1-8b", gpu=["rtx-3090"] * 17, catalog=catalog)


def test_a_70b_in_fp8_that_just_misses_one_h100_under_vllm_is_told_to_raise_the_memory_share(catalog):
    """vLLM at its default 0.9 share leaves no KV cache for an FP8 70B on one H100 (the CUDA graphs are in the budget);
    --gpu-memory-utilization 0.95 starts it: that, not the FP8 it already has, is the first fix."""
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B", engine="vllm", weights_dtype="fp8",
                           gpu="h100-sxm", max_model_len=1280)
    assert not result.gpu_check.fits and "CUDA graphs" in result.serving.reason
    first = result.alternatives[0]
    assert first.arguments == {"gpu_memory_utilization": 0.95} and first.gpus == 1
    assert not any(a.arguments.get("weights_dtype") == "fp8" for a in result.alternatives)


@pytest.mark.parametrize("card", ["16GB", "custom:16", "custom-16gb"])
def test_a_card_known_only_by_its_memory_gets_the_fixes_that_fit_it(catalog, card):
    """'phi-4 on a 16gb card?': a GPU named by its size has no architecture to check kernels against, and its id
    ('custom-16gb') reads back as the same card."""
    result = estimate_vram(catalog=catalog, model="microsoft/phi-4", gpu=card)
    assert result.gpu_check.gpu_id == "custom-16gb" and not result.gpu_check.fits
    assert result.alternatives and result.alternatives[0].gpus == 1


def test_a_70b_in_fp8_at_its_full_context_under_vllm_gets_the_flags_that_start_it_on_one_h100(catalog):
    """At Llama 3.1's 128k default context no share of one H100 holds a whole request's KV cache; what operators do
    is both: --gpu-memory-utilization 0.95 and a --max-model-len that share holds."""
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B", engine="vllm", weights_dtype="fp8", gpu="h100-sxm")
    first = result.alternatives[0]
    assert first.gpus == 1 and first.arguments["gpu_memory_utilization"] == 0.95
    assert 4096 <= first.arguments["max_model_len"] < 131072


def test_a_70b_in_bf16_under_vllm_on_one_h100_is_told_4_bit_starts_it_there_at_a_shorter_context(catalog):
    """'No, 4 GPUs' is not the whole answer: a 4-bit checkpoint holds on one H100 once --max-model-len leaves room for
    one request's KV cache; at the full 128k context it takes two, and both are said."""
    result = estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B", engine="vllm", gpu="h100-sxm")
    four_bit = [a for a in result.alternatives if a.arguments.get("weights_dtype") == "awq"]
    assert four_bit and four_bit[0].gpus == 1
    assert 4096 <= four_bit[0].arguments["max_model_len"] < 131072
    assert f"--max-model-len {four_bit[0].arguments['max_model_len']:,}: fits 1 x" in four_bit[0].text


def test_a_shorter_context_for_vllm_is_measured_against_its_max_model_len_not_the_default_seq_len(catalog):
    """Qwen3 32B AWQ on a 4090 under vLLM starts at ~5.5k tokens of its 40,960: that context is the first fix."""
    result = estimate_vram(catalog=catalog, model="Qwen/Qwen3-32B", engine="vllm", weights_dtype="awq", gpu="rtx-4090")
    first = result.alternatives[0]
    assert first.gpus == 1 and "max_model_len" in first.arguments and "gpu_memory_utilization" not in first.arguments
