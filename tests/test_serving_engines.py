"""estimate_vram under a serving engine, asked the way people ask it, and the engine budget's invariants (hypothesis)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusizer.catalog import GIB, SizingError, load_catalog
from gpusizer.tools import estimate_vram

CATALOG = load_catalog(include_user=False)


def serving(model, **arguments):
    return estimate_vram(model, catalog=CATALOG, **arguments).serving


def test_how_many_16k_token_requests_of_llama_3_1_8b_does_vllm_admit_on_one_h100():
    s = serving("meta-llama/Llama-3.1-8B-Instruct", engine="vllm", gpu="h100-sxm", max_model_len=16384)
    assert s.starts and s.engine == "vllm"
    # vLLM budgets 0.9 x 79.2 GiB; 15 GiB of weights and ~3 GiB of activations, graphs and workspaces leave ~53 GiB of KV
    # at 128 KiB per token: about 430k tokens, 26 requests of 16k (the HF model would have said one 16k prefill)
    assert 400_000 < s.kv_cache_tokens < 470_000
    assert 24 < s.max_concurrency < 29
    assert s.max_concurrency == pytest.approx(s.kv_cache_tokens / 16384, rel=0.01)


def test_an_fp8_kv_cache_doubles_the_tokens_vllm_holds():
    bf16 = serving("meta-llama/Llama-3.1-8B-Instruct", engine="vllm", gpu="h100-sxm", max_model_len=8192)
    fp8 = serving("meta-llama/Llama-3.1-8B-Instruct", engine="vllm", gpu="h100-sxm", max_model_len=8192, kv_cache_dtype="fp8")
    assert fp8.kv_cache_tokens == pytest.approx(2 * bf16.kv_cache_tokens, rel=0.01)


def test_a_70b_model_on_one_h100_does_not_start_and_says_what_to_change():
    e = estimate_vram("meta-llama/Llama-3.1-70B-Instruct", engine="vllm", gpu="h100-sxm", catalog=CATALOG)
    assert not e.serving.starts and "tensor_parallel" in e.serving.reason
    assert any("would not start" in w for w in e.warnings)
    assert e.gpu_check is not None and not e.gpu_check.fits


def test_how_many_layers_of_an_8b_q4_k_m_at_32k_context_fit_on_an_8_gb_card_and_how_much_ram_for_the_rest():
    s = serving("meta-llama/Llama-3.1-8B-Instruct", engine="llama_cpp", gpu="8GB", weights_dtype="q4_k_m",
                max_model_len=32768)
    assert s.n_gpu_layers is not None and 20 <= s.n_gpu_layers < 33
    assert s.host_weights_bytes > 0.3 * GIB   # the layers left behind and the token embedding stay in system RAM
    assert s.budget_bytes <= CATALOG.resolve_gpu("8GB").gpu.usable_memory_bytes - 1 * GIB  # llama.cpp's --fit margin


def test_llama_cpp_offloads_everything_when_the_card_is_big_enough():
    s = serving("meta-llama/Llama-3.1-8B-Instruct", engine="llama_cpp", gpu="rtx-4090", weights_dtype="q4_k_m")
    assert s.n_gpu_layers == 33 and s.starts


def test_llama_cpp_keeps_its_cache_in_f16_unless_told_otherwise():
    # llama.cpp's --cache-type-k/-v default to f16 whatever the GGUF; the vLLM and transformers default is the model's bf16
    llama_cpp = estimate_vram("google/gemma-2-9b", engine="llama_cpp", gpu="rtx-4090", weights_dtype="q4_k_m", catalog=CATALOG)
    vllm = estimate_vram("google/gemma-2-9b", engine="vllm", gpu="rtx-4090", catalog=CATALOG)
    assert (llama_cpp.kv_cache_dtype, vllm.kv_cache_dtype) == ("fp16", "bf16")
    q8 = estimate_vram("google/gemma-2-9b", engine="llama_cpp", gpu="rtx-4090", kv_cache_dtype="q8_0", catalog=CATALOG)
    assert q8.kv_cache_dtype == "q8_0"


def test_a_context_given_as_seq_len_is_the_engines_context():
    # 'ds v3 q4_k_m at 16k ctx in llama.cpp' sized n_ctx at llama.cpp's 4096 default: seq_len now sets it (-c 16384)
    said = estimate_vram("deepseek-ai/DeepSeek-V3", engine="llama_cpp", weights_dtype="q4_k_m", seq_len=16384, catalog=CATALOG)
    explicit = estimate_vram("deepseek-ai/DeepSeek-V3", engine="llama_cpp", weights_dtype="q4_k_m", max_model_len=16384,
                             catalog=CATALOG)
    assert said.serving.max_model_len == explicit.serving.max_model_len == 16384
    assert said.breakdown == explicit.breakdown
    assert said.breakdown.kv_cache == 61 * 576 * 2 * 16384  # MLA: one 576-wide latent per token per layer, f16
    # vLLM at 32k starts on a 4090 where its default, the model's 128k window, does not
    assert serving("meta-llama/Llama-3.1-8B-Instruct", engine="vllm", gpu="rtx-4090", weights_dtype="fp8", seq_len=32768).starts
    assert not serving("meta-llama/Llama-3.1-8B-Instruct", engine="vllm", gpu="rtx-4090", weights_dtype="fp8").starts


def test_engines_size_serving_not_training_and_vllm_needs_a_gpu():
    with pytest.raises(SizingError, match="workload='inference'"):
        estimate_vram("meta-llama/Llama-3.1-8B", engine="vllm", gpu="h100-sxm", workload="training", catalog=CATALOG)
    with pytest.raises(SizingError, match="give gpu"):
        estimate_vram("meta-llama/Llama-3.1-8B", engine="vllm", catalog=CATALOG)
    with pytest.raises(SizingError, match="GGUF"):
        estimate_vram("meta-llama/Llama-3.1-8B", engine="vllm", gpu="h100-sxm", weights_dtype="q4_k_m", catalog=CATALOG)
    with pytest.raises(SizingError, match="divide"):
        estimate_vram("meta-llama/Llama-3.1-8B", engine="vllm", gpu="h100-sxm", num_gpus=3, tensor_parallel=3, catalog=CATALOG)


MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-8B", "google/gemma-2-9b", "mistralai/Mixtral-8x7B-v0.1",
          "openai/gpt-oss-20b", "deepseek-ai/DeepSeek-V2-Lite"]
GPUS = ["h100-sxm", "a100-80gb-sxm", "l40s", "h200-sxm", "rtx-4090"]
engine_setups = st.fixed_dictionaries({
    "model": st.sampled_from(MODELS),
    "engine": st.sampled_from(["vllm", "sglang"]),
    "gpu": st.sampled_from(GPUS),
    "max_model_len": st.integers(256, 32768),
}, optional={"kv_cache_dtype": st.sampled_from(["bf16", "fp8"]), "enforce_eager": st.booleans()})


@settings(max_examples=40, deadline=None)
@given(engine_setups, st.floats(0.5, 0.85), st.floats(0.01, 0.14))
def test_a_larger_gpu_memory_utilization_never_holds_fewer_kv_tokens(arguments, fraction, more):
    arguments = dict(arguments)
    model = arguments.pop("model")
    low = serving(model, **arguments, gpu_memory_utilization=fraction)
    high = serving(model, **arguments, gpu_memory_utilization=fraction + more)
    assert high.kv_cache_tokens >= low.kv_cache_tokens


@settings(max_examples=40, deadline=None)
@given(engine_setups, st.integers(1, 65536))
def test_a_longer_max_model_len_never_admits_more_concurrent_requests(arguments, extra):
    arguments = dict(arguments)
    model = arguments.pop("model")
    short = serving(model, **arguments)
    longer = serving(model, **{**arguments, "max_model_len": arguments["max_model_len"] + extra})
    assert longer.max_concurrency <= short.max_concurrency + 1e-9


def test_engines_are_placed_only_on_hardware_they_run_on():
    # llama.cpp has CUDA, ROCm and Metal back ends, none for TPUs, Gaudi or Trainium: they are not where it 'fits'
    fits = estimate_vram("openai/gpt-oss-20b", engine="llama_cpp", catalog=CATALOG).fits
    vendors = {CATALOG.find_gpu(f.gpu_id).vendor for f in fits}
    assert vendors <= {"NVIDIA", "AMD", "Apple"} and "NVIDIA" in vendors
    with pytest.raises(SizingError, match="no back end for Google"):
        estimate_vram("openai/gpt-oss-20b", engine="llama_cpp", gpu="tpu-v5e", catalog=CATALOG)


@pytest.mark.parametrize("file_type, published_gb", [("iq1_s", 131), ("iq1_m", 158), ("iq2_xxs", 183)])
def test_the_low_bit_gguf_files_of_deepseek_r1_weigh_about_what_unsloth_publishes(file_type, published_gb):
    # unsloth.ai/blog/deepseekr1-dynamic (2025-01-27): 131 / 158 / 183 GB. Theirs keep attention and the first three
    # dense layers in 4-6 bit and down_proj at 2.06 bits; llama.cpp's own IQ1/IQ2 mix (llama-quant.cpp) is what we size
    weights = estimate_vram("deepseek-ai/DeepSeek-V3", weights_dtype=file_type, catalog=CATALOG).breakdown.weights
    assert weights / 1e9 == pytest.approx(published_gb, rel=0.06)
