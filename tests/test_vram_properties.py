"""Invariants of the memory model, over many shapes (hypothesis)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusizer.catalog import load_catalog
from gpusizer.tools import estimate_vram

CATALOG = load_catalog(include_user=False)
MODELS = ["meta-llama/Llama-3.2-1B", "Qwen/Qwen2.5-7B", "mistralai/Mixtral-8x7B-v0.1", "Qwen/Qwen3-8B", "google/gemma-2-9b",
          "deepseek-ai/DeepSeek-V3", "openai/gpt-oss-20b", "microsoft/Phi-3-mini-4k-instruct"]

workloads = st.fixed_dictionaries({
    "model": st.sampled_from(MODELS),
    "workload": st.sampled_from(["inference", "training"]),
    "batch_size": st.integers(1, 64),
    "seq_len": st.integers(1, 32768),
}, optional={"gradient_checkpointing": st.booleans(), "training_precision": st.sampled_from(["mixed", "bf16"]),
             "optimizer": st.sampled_from(["adamw", "adamw_8bit", "sgd", "adafactor"])})


def total(**arguments):
    return estimate_vram(catalog=CATALOG, **arguments).total_bytes


@settings(max_examples=60, deadline=None)
@given(workloads, st.integers(1, 8))
def test_memory_never_decreases_with_batch_size(arguments, extra):
    assert total(**{**arguments, "batch_size": arguments["batch_size"] + extra}) >= total(**arguments)


@settings(max_examples=60, deadline=None)
@given(workloads, st.integers(1, 4096))
def test_memory_never_decreases_with_sequence_length(arguments, extra):
    assert total(**{**arguments, "seq_len": arguments["seq_len"] + extra}) >= total(**arguments)


@settings(max_examples=40, deadline=None)
@given(workloads.filter(lambda a: a["workload"] == "training"), st.sampled_from([2, 4, 8, 64]))
def test_more_zero_sharding_never_increases_per_gpu_memory(arguments, gpus):
    """ZeRO-3 from four GPUs: on two, DeepSpeed's stage 3 saves half the 16-bit weights but holds, from start-up, a
    gradient shard of the same size (stage3.py grad_partitions_flat_buffer) plus the gathered layers, where stage 2
    has no gradients yet at the loss; so two-GPU ZeRO-3 can sit above ZeRO-2."""
    stages = [total(**arguments, num_gpus=gpus, sharding=s) for s in ("none", "zero1", "zero2", "zero3")]
    compared = stages if gpus >= 4 else stages[:3]
    assert compared == sorted(compared, reverse=True)


@settings(max_examples=40, deadline=None)
@given(workloads.filter(lambda a: a["workload"] == "training"), st.sampled_from(["zero1", "zero2", "zero3", "fsdp"]))
def test_more_gpus_never_increase_per_gpu_memory(arguments, sharding):
    """From one GPU to two, ZeRO-3 trades half the weights for a gradient shard as large (see above): from 4 on."""
    counts = [total(**arguments, num_gpus=n, sharding=sharding) for n in ((1, 4, 8, 16) if sharding == "zero3" else (1, 2, 4, 8, 16))]
    assert counts == sorted(counts, reverse=True)


@settings(max_examples=40, deadline=None)
@given(workloads.filter(lambda a: a["workload"] == "inference"))
def test_tensor_parallelism_never_increases_per_gpu_memory(arguments):
    heads = CATALOG.find_model(arguments["model"]).num_attention_heads
    counts = [total(**arguments, num_gpus=n, tensor_parallel=n) for n in (1, 2, 4, 8) if heads % n == 0]  # the rest is refused
    assert counts == sorted(counts, reverse=True)


@settings(max_examples=60, deadline=None)
@given(workloads.filter(lambda a: a["workload"] == "training"))
def test_gradient_checkpointing_never_increases_memory(arguments):
    assert total(**{**arguments, "gradient_checkpointing": True}) <= total(**{**arguments, "gradient_checkpointing": False})


training = workloads.filter(lambda a: a["workload"] == "training").map(lambda a: {**a, "gradient_checkpointing": None})
recipes = st.sampled_from([None, "pytorch", "hf_trainer", "trl", "torchtune", "unsloth"])
methods = st.sampled_from(["full", "lora", "qlora"])
SAVERS = [("gradient_checkpointing", False, True), ("activation_offloading", False, True), ("logits_kept", True, False),
          ("optimizer_in_backward", False, True), ("loss", "standard", "chunked"), ("loss", "chunked", "fused"),
          ("torch_compile", False, True)]


@settings(max_examples=80, deadline=None)
@given(training, recipes, methods, st.sampled_from(SAVERS))
def test_a_setting_that_saves_memory_never_increases_the_estimate(arguments, recipe, method, saver):
    """Whatever the recipe's defaults, turning on a memory saver (or a cheaper loss) never costs memory."""
    name, spender, saver_value = saver
    arguments = {k: v for k, v in arguments.items() if v is not None} | {"recipe": recipe, "method": method}
    if method != "full":
        arguments.pop("training_precision", None)
    assert total(**arguments, **{name: saver_value}) <= total(**arguments, **{name: spender})


@settings(max_examples=40, deadline=None)
@given(training, recipes)
def test_paged_optimizer_states_never_cost_gpu_memory(arguments, recipe):
    arguments = {k: v for k, v in arguments.items() if v is not None and k != "optimizer"} | {"recipe": recipe}
    assert total(**arguments, optimizer="paged_adamw_8bit") <= total(**arguments, optimizer="adamw_8bit")
    assert total(**arguments, optimizer="paged_adamw") <= total(**arguments, optimizer="adamw")
