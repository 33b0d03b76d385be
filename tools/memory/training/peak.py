"""Peak memory of one training step per GPU: three moments compete, under the recipe's settings.

  the start of backward: every saved activation, the loss buffers, no gradients yet;
  the first checkpointed layer recomputed in backward (with gradient checkpointing);
  the optimizer step: every gradient and the step's temporaries, no activations.
"""
from __future__ import annotations

from gpusizer.catalog import SizingError
from gpusizer.tools.memory.activations import FP32, Shape, loss_bytes, saved_per_layer_bytes
from gpusizer.tools.memory.lora import adapter_layer_delta_bytes, head_adapter_bytes, upcast_layer_extra_bytes
from gpusizer.tools.memory.overhead import CUDA_CONTEXT_BYTES, runtime_overhead_bytes
from gpusizer.tools.memory.plan import Plan, weight_bytes
from gpusizer.tools.memory.request import Breakdown
from gpusizer.tools.memory.training.states import STAGE, optimizer_step_transient_bytes, training_state_bytes

OFFLOAD_RESIDENT_LAYERS = 2  # offloading keeps the layer in use and the one being fetched or stored on the GPU


def training_breakdown(plan: Plan, batch: int, seq: int, num_gpus: int, tp: int, sharding: str) -> tuple[Breakdown, str]:
    request, arch, counts, settings = plan.request, plan.arch, plan.counts, plan.training
    if settings is None:
        raise SizingError("a training estimate needs training settings")
    full = request.method == "full"
    precision = settings.training_precision
    data_parallel = num_gpus // tp
    stage = STAGE[sharding] if data_parallel > 1 else 0
    frozen_bytes = weight_bytes(plan) / counts.total if not full else 0
    states = training_state_bytes(
        frozen_params=0 if full else counts.total, frozen_bytes_per_param=frozen_bytes, trainable_params=plan.trainable,
        precision=precision, optimizer=request.optimizer, sharding=sharding, data_parallel=data_parallel,
        factored_fraction=2 / arch.hidden_size)
    upcast = (counts.embedding + counts.lm_head + counts.norms) * 2 if settings.kbit_upcast else 0
    weights = (states.weights + upcast / (data_parallel if stage >= 3 else 1)) / tp
    gradients, optimizer = states.gradients / tp, states.optimizer_states / tp
    tokens, layers = batch * seq, arch.num_hidden_layers
    shape = Shape.of(arch, tp, sequence_parallel=True)
    layer = saved_per_layer_bytes(shape, tokens, plan.act_bytes, lora_rank=None if full else request.lora_rank, amp=states.autocast,
                                  kernels=settings.kernels) + adapter_bytes(plan, shape, tokens, stage)
    hidden_state = tokens * shape.hidden * residual_bytes(plan, states.autocast, stage)
    saved: float
    if settings.activation_offloading:
        saved = min(layers, OFFLOAD_RESIDENT_LAYERS) * hidden_state
    else:
        saved = layers * (hidden_state if settings.gradient_checkpointing else layer)
    outside_layers = tokens * shape.hidden * (FP32 + plan.act_bytes) + 2 * tokens * 8 + (0 if full else head_adapter_bytes(
        shape, tokens, plan.act_bytes, rank=request.lora_rank, targets=settings.lora_targets, dropout=settings.lora_dropout))
    head = counts.lm_head or counts.embedding
    autocast_cache = (counts.linear_in_blocks + head) * 2 / tp if states.autocast else 0
    frozen_head_cast = head * 2 / tp if settings.kbit_upcast else 0  # bf16 cast of the fp32 LM head, saved for backward
    # A frozen fp32 base under bf16 autocast: each projection saves its bf16 weight copy for the input's gradient.
    frozen_casts = counts.linear_in_blocks * 2 / tp / layers if (not full and plan.weights_dtype == "fp32" and precision == "mixed") else 0
    backward_start = (saved + outside_layers + autocast_cache + frozen_head_cast + gathered_parameter_bytes(plan, stage, tp)
                      + (0 if settings.gradient_checkpointing else layers * frozen_casts))
    free = None if plan.gpu_bytes is None else plan.gpu_bytes - CUDA_CONTEXT_BYTES - weights - optimizer - backward_start
    loss = loss_bytes(shape, tokens, plan.act_bytes, logits_kept=settings.logits_kept, kind=settings.loss, fused=settings.fused,
                      free_bytes=free, compiled=settings.torch_compile, fp32_logits=settings.fp32_logits)
    # Backward through the recomputed layer's MLP: the gradients of its wide tensors arrive while they are still saved
    # (eager: the down projection's input gradient, then the gate's and up's; Unsloth's kernel writes them in place).
    mlp_grads = (1 if settings.kernels == "unsloth" else 3) * tokens * shape.mlp * plan.act_bytes
    in_backward = backward_start + (layer + tokens * shape.hidden * FP32 + frozen_casts + mlp_grads
                                    if settings.gradient_checkpointing else 0)
    grad_share = gradients / max(1, plan.trainable)
    head_grad = head * grad_share if full else 0  # the LM head's gradient comes first in backward, activations all alive
    shard = plan.trainable / data_parallel if stage >= 1 else plan.trainable
    step = optimizer_step_transient_bytes(min(plan.largest_param, shard), shard, request.optimizer,
                                          4 if precision == "mixed" else 2, settings.optimizer_step) / tp
    if stage >= 1 and sharding != "fsdp" and precision == "mixed":
        step += shard * FP32 / tp  # DeepSpeed builds an fp32 copy of this GPU's gradient partition for the step
    moment = "checkpointed layer recomputed in backward" if settings.gradient_checkpointing else "backward through the LM head"
    if settings.optimizer_in_backward:  # each parameter stepped in place as its gradient arrives: never all gradients at once
        moment = "backward, each parameter stepped as its gradient arrives"
    held = deepspeed_zero3_buffers(plan, gradients, stage, sharding, tp)
    candidates: dict[str, tuple[float, float, float]] = {"start of backward (loss)": (backward_start + loss, held, 0),
                                                         moment: (in_backward, head_grad + held, 0)}
    if not settings.optimizer_in_backward:
        candidates["optimizer step"] = (0, max(gradients, held), step)
    phase, (activations, grads_live, transient) = max(candidates.items(), key=lambda kv: sum(kv[1]))
    if settings.loss != "standard" and phase.startswith("start of backward"):
        phase = f"start of backward ({settings.loss} loss)"
    elif phase.startswith("start of backward"):
        phase = "start of backward (loss over the full vocabulary)"
    live = int(weights + optimizer + activations + grads_live + transient)
    return Breakdown(weights=int(weights), kv_cache=0, activations=int(activations), gradients=int(grads_live),
                     optimizer_states=int(optimizer + transient), runtime_overhead=runtime_overhead_bytes(live, "training")), phase


def residual_bytes(plan: Plan, autocast: bool, stage: int) -> int:
    """Bytes per element of the residual stream, which checkpointing keeps at every layer's input: fp32 wherever the
    embeddings are fp32 (PEFT's k-bit preparation upcasts them, a LoRA base or full fine-tune loaded in fp32 under
    autocast), since the embedding output starts the stream and each residual add keeps the wider dtype. Sharded
    (ZeRO, FSDP) runs compute on 16-bit copies of every parameter: DeepSpeed's bf16 engine converts the module, FSDP's
    MixedPrecision casts it, and TRL skips the k-bit preparation for sharded QLoRA."""
    settings = plan.training
    assert settings is not None
    fp32_base = plan.request.method != "full" and plan.weights_dtype == "fp32"
    return FP32 if stage == 0 and (settings.kbit_upcast or fp32_base or autocast) else plan.act_bytes


def adapter_bytes(plan: Plan, shape: Shape, tokens: int, stage: int) -> float:
    """A LoRA layer's saved bytes beyond the traced all_linear layer: its targets and dropout (lora.py), and the fp32
    stream of a k-bit-prepared QLoRA model (unsharded only, see residual_bytes)."""
    settings, request = plan.training, plan.request
    assert settings is not None
    if request.method == "full" or settings.kernels == "unsloth":
        return 0.0
    dense = plan.arch.dense_mlp and not plan.arch.is_moe
    upcast = settings.kbit_upcast and stage == 0
    delta = adapter_layer_delta_bytes(shape, tokens, plan.act_bytes, rank=request.lora_rank, targets=settings.lora_targets,
                                      dropout=settings.lora_dropout, dense_mlp=dense, fp32_stream=upcast)
    if upcast:
        delta += upcast_layer_extra_bytes(shape, tokens, targets=settings.lora_targets, dropout=settings.lora_dropout,
                                          dense_mlp=dense, matmul_saves_input=settings.matmul4bit_saves_input)
    elif settings.matmul4bit_saves_input:
        delta += upcast_layer_extra_bytes(shape, tokens, targets=settings.lora_targets, dropout=0, dense_mlp=dense,
                                          matmul_saves_input=True) - upcast_layer_extra_bytes(
            shape, tokens, targets=settings.lora_targets, dropout=0, dense_mlp=dense, matmul_saves_input=False)
    return delta


# Recipes whose FSDP wraps only the decoder layers (accelerate's TRANSFORMER_BASED_WRAP from _no_split_modules, as the
# HF Trainer, TRL and axolotl configure it), leaving the embeddings, final norm and LM head to the root module's group.
ROOT_GROUP_RECIPES = frozenset({"hf_trainer", "trl"})


def gathered_parameter_bytes(plan: Plan, stage: int, tp: int) -> float:
    """ZeRO-3 / FSDP gather each layer's full 16-bit parameters before using it; with prefetching the next layer's
    arrive while this one computes: two layers' parameters on top of the shards, and at the loss the LM head's.
    FSDP's root group stays unsharded from forward to backward (torch/distributed/fsdp/_fully_shard/_fully_shard.py,
    fully_shard: "The root FSDP state has its value specially set to False as a heuristic since its parameters would
    typically be immediately all-gathered for backward"; FSDP1's _post_forward_reshard skips the root likewise): under a
    decoder-layer wrap that is the embeddings, the LM head and a multimodal checkpoint's vision tower together.
    torchtune and torchtitan shard the embeddings and the output as groups of their own, and DeepSpeed releases the
    embeddings after their forward."""
    if stage < 3:
        return 0.0
    counts = plan.counts
    per_layer = (counts.total - counts.embedding - counts.lm_head) / plan.arch.num_hidden_layers
    bytes_per_param = weight_bytes(plan) / counts.total if plan.request.method != "full" else 2
    settings = plan.training
    root = plan.request.sharding == "fsdp" and settings is not None and settings.recipe in ROOT_GROUP_RECIPES
    held = counts.embedding + counts.lm_head + counts.vision if root else (counts.lm_head or counts.embedding)
    return (2 * per_layer * bytes_per_param + held * 2) / tp


def reduce_bucket_elements(plan: Plan) -> int:
    """DeepSpeed's reduce_bucket_size as the HF Trainer/accelerate integration fills "auto": hidden_size squared
    (transformers integrations/deepspeed.py, trainer_config_finalize)."""
    return plan.arch.hidden_size ** 2


def deepspeed_zero3_buffers(plan: Plan, gradient_shard: float, stage: int, sharding: str, tp: int) -> float:
    """Gradient memory DeepSpeed ZeRO-3 holds from start-up to the end: DeepSpeedZeroOptimizer_Stage3.
    _setup_for_real_optimizer (deepspeed/runtime/zero/stage3.py, deepspeedai/DeepSpeed@ea78ab68) allocates
    grad_partitions_flat_buffer, this GPU's 16-bit shard of every gradient (2 bytes per parameter / N, the ZeRO paper's
    stage-3 gradient term), and with contiguous_gradients (the default) the reduce bucket, reduce_bucket_size
    elements. FSDP and ZeRO-2 create their gradient shards during backward and free them at zero_grad."""
    if stage < 3 or sharding == "fsdp":
        return 0.0
    return gradient_shard + reduce_bucket_elements(plan) * 2 / tp

