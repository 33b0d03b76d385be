"""Questions about the fine-tuning settings frameworks choose for you: LoRA targets and dropout, the k-bit upcast,
the optimizer step, the library releases, and what the allocator holds."""

import pytest

from gpusizer.tools import SizingError, estimate_vram

LLAMA_8B = "meta-llama/Llama-3.1-8B"  # 32 layers, hidden 4096, MLP 14336


def train(catalog, **arguments):
    return estimate_vram(catalog=catalog, **{"model": LLAMA_8B, "workload": "training", **arguments})


def test_qlora_after_peft_kbit_preparation_checkpoints_fp32_hidden_states(catalog):
    """prepare_model_for_kbit_training upcasts the embeddings, so every checkpointed layer input is fp32, not bf16."""
    settings = dict(method="qlora", batch_size=4, seq_len=2048, gradient_checkpointing=True, loss="fused")
    upcast, plain = train(catalog, **settings, kbit_upcast=True), train(catalog, **settings, kbit_upcast=False)
    stream = 32 * 4 * 2048 * 4096 * 2  # layers x tokens x hidden x the 2 more bytes of fp32
    assert upcast.breakdown.activations - plain.breakdown.activations >= stream
    assert upcast.training.kbit_upcast and any("residual stream" in line for line in upcast.assumptions)


def test_trainer_qlora_upcasts_by_default_but_torchtune_and_unsloth_stay_16_bit(catalog):
    assert train(catalog, method="qlora").training.kbit_upcast
    assert not train(catalog, method="qlora", recipe="torchtune").training.kbit_upcast
    assert not train(catalog, method="qlora", recipe="unsloth").training.kbit_upcast
    assert not train(catalog, method="lora").training.kbit_upcast  # only a 4-bit base is prepared


def test_peft_defaults_to_q_and_v_adapters_so_trainer_lora_trains_fewer_parameters(catalog):
    default = train(catalog, method="lora")
    every = train(catalog, method="lora", lora_targets="all_linear")
    assert default.training.lora_targets == "q_v"
    assert default.trainable_params == 16 * 32 * ((4096 + 4096) + (4096 + 1024))  # rank x layers x (q + v)
    assert every.trainable_params > 4 * default.trainable_params
    assert every.breakdown.activations > default.breakdown.activations


def test_an_adapter_on_the_lm_head_trains_vocabulary_times_rank_more(catalog):
    every = train(catalog, method="lora", lora_targets="all_linear")
    head = train(catalog, method="lora", lora_targets="all_linear_and_head")
    assert head.trainable_params - every.trainable_params == 16 * (4096 + 128_256)


def test_lora_dropout_keeps_a_mask_and_a_copy_of_each_adapted_input(catalog):
    """nn.Dropout before lora_A: its output (2 bytes) and boolean mask (1 byte) per input element, in every layer."""
    settings = dict(method="lora", weights_dtype="bf16", training_precision="bf16", lora_targets="q_v", batch_size=2,
                    seq_len=1024, gradient_checkpointing=False, loss="fused")
    without, with_dropout = train(catalog, **settings, lora_dropout=0.0), train(catalog, **settings, lora_dropout=0.1)
    expected = 32 * 2 * 1024 * (2 * 4096) * 3  # layers x tokens x (q's and v's inputs) x 3 bytes
    assert with_dropout.breakdown.activations - without.breakdown.activations == pytest.approx(expected, rel=0.01)


def test_trl_keeps_peft_dropout_of_0_05(catalog):
    assert train(catalog, method="lora", recipe="trl").training.lora_dropout == 0.05


def test_trainer_before_4_54_steps_adamw_with_a_parameter_sized_temporary(catalog):
    """adamw_torch (torch's foreach AdamW) until transformers 4.54, adamw_torch_fused since: the foreach step holds the
    square root of every second moment at once."""
    settings = dict(model="meta-llama/Llama-3.2-1B", training_precision="bf16", batch_size=1, seq_len=256,
                    gradient_checkpointing=True)
    old, new = train(catalog, **settings, framework_version="4.53"), train(catalog, **settings)
    assert (old.training.optimizer_step, new.training.optimizer_step) == ("foreach", "fused")
    assert old.peak_phase == "optimizer step"
    assert old.breakdown.optimizer_states - new.breakdown.optimizer_states == pytest.approx(old.params * 2, rel=0.01)


def test_an_optimizer_step_named_in_the_request_wins_over_the_release(catalog):
    assert train(catalog, framework_version="4.40", optimizer_step="fused").training.optimizer_step == "fused"


def test_bitsandbytes_before_0_43_2_keeps_each_4bit_layers_input(catalog):
    settings = dict(method="qlora", batch_size=2, seq_len=1024, gradient_checkpointing=False, kbit_upcast=False)
    old = train(catalog, **settings, framework_version="bitsandbytes 0.43.1")
    new = train(catalog, **settings)
    assert old.breakdown.activations > new.breakdown.activations
    assert any("0.43.2" in line for line in old.assumptions)


def test_the_estimate_names_the_releases_whose_defaults_it_used(catalog):
    assert "transformers 5.23.0" in train(catalog).training.versions
    assert "transformers 4.46" in train(catalog, framework_version="transformers==4.46").training.versions


@pytest.mark.parametrize("version", ["transformer 4.46", "four", "torch 2.8"])
def test_a_version_that_is_not_a_release_of_a_known_library_says_how_to_write_one(catalog, version):
    with pytest.raises(SizingError, match="framework_version"):
        train(catalog, framework_version=version)


def test_reserved_memory_is_the_peak_without_the_cuda_context(catalog):
    from gpusizer.tools.memory.overhead import CUDA_CONTEXT_BYTES

    result = train(catalog, method="lora")
    assert result.reserved_bytes == result.total_bytes - CUDA_CONTEXT_BYTES
    live = result.total_bytes - result.breakdown.runtime_overhead
    assert live < result.reserved_bytes < result.total_bytes


def test_a_loop_holding_the_output_of_transformers_before_4_46_holds_fp32_logits(catalog):
    """Before 4.46 LlamaForCausalLM returned logits.float() with its loss; since, the loss upcasts inside and the model
    returns 16-bit logits: a loop that keeps the output keeps 2 more bytes per logit on the old release."""
    settings = dict(model="meta-llama/Llama-3.2-1B", recipe="pytorch", training_precision="bf16", batch_size=4, seq_len=2048)
    old, new = train(catalog, **settings, framework_version="4.45"), train(catalog, **settings)
    assert old.breakdown.activations - new.breakdown.activations == pytest.approx(4 * 2048 * 128_256 * 2, rel=0.01)
