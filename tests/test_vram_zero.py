"""ZeRO's model states per GPU against the ZeRO paper (Rajbhandari et al. 2019, Figure 1: 7.5B parameters, 64 GPUs,
mixed-precision Adam, K = 12), read from estimate_vram's breakdown at the step's peak, plus what DeepSpeed allocates
beyond the paper's figure (deepspeed/runtime/zero/stage3.py)."""
import pytest

from gpusizer.tools import estimate_vram

GPUS = 64
PAPER_BYTES_PER_PARAM = {  # (2 + 2 + K) split by stage, K = 12
    "none": 16,
    "zero1": 4 + 12 / GPUS,
    "zero2": 2 + 14 / GPUS,
    "zero3": 16 / GPUS,
}


def model_states(sharding: str, **settings):
    result = estimate_vram(params_billions=7.5, workload="training", method="full", training_precision="mixed",
                           sharding=sharding, num_gpus=GPUS, batch_size=1, seq_len=512, gradient_checkpointing=True,
                           recipe="hf_trainer", **settings)
    b = result.breakdown
    return result, b.weights + b.gradients + b.optimizer_states


@pytest.mark.parametrize("sharding", list(PAPER_BYTES_PER_PARAM))
def test_a_7_5b_model_on_64_gpus_holds_the_zero_papers_model_states_at_each_stage(sharding):
    result, states = model_states(sharding)
    paper = PAPER_BYTES_PER_PARAM[sharding] * result.params
    assert states == pytest.approx(paper, rel=0.05)


def test_zero3_keeps_its_gradient_shard_from_start_up_so_it_counts_at_the_loss_too():
    """stage3.py allocates grad_partitions_flat_buffer (2 bytes per parameter / N) with the optimizer: not a bucket."""
    result, _ = model_states("zero3")
    assert result.peak_phase.startswith("start of backward")
    assert result.breakdown.gradients >= 2 * result.params / GPUS


def test_zero3_names_its_reduce_bucket_and_gradient_shard_apart_from_the_paper():
    result, _ = model_states("zero3")
    line = next(a for a in result.assumptions if "ZeRO-3" in a and "bucket" in a)
    assert "grad_partitions_flat_buffer" in line and "reduce_bucket_size" in line


def test_fsdp_creates_its_gradient_shards_in_backward_so_none_are_held_at_the_loss():
    """FSDP2 reduce-scatters each layer's gradients in backward; the Trainer's zero_grad(set_to_none=True) frees them."""
    fsdp, _ = model_states("fsdp")
    zero3, _ = model_states("zero3")
    assert fsdp.breakdown.gradients < zero3.breakdown.gradients
