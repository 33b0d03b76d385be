#!/usr/bin/env python3
"""Makes tests/data/vram_traced_lora_options.jsonl: a copy of ../shared/tools/trace_memory.py's training path with PEFT-like LoRA choices (issue #32):
targets, lora_dropout, and a QLoRA stand-in (bitsandbytes Linear4bit + PEFT k-bit preparation) on fake tensors.

Case fields beyond trace_memory.py's: targets (list of projection names, "lm_head" allowed), dropout (p),
kbit (true: frozen linears become a 4-bit stand-in, embeddings/norms/lm_head fp32, adapters fp32, bf16 autocast),
matmul_saves_input (true: bitsandbytes < 0.43.2, MatMul4Bit keeps its input), foreach (AdamW foreach).
Run with trace_memory.py's set-up (torch and transformers in a CPU-only virtual environment):
    python tests/data/trace_lora.py '{"arch": {...}, "workload": "training", "method": "lora", "batch": 1, "seq": 1024,
                                      "kbit": true, "grad_ckpt": true}'
"""
import contextlib
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "shared" / "tools"))
import torch
import trace_memory as tm
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.distributed._tools.mem_tracker import MemTracker
from transformers import AutoModelForCausalLM


class MatMul4Bit(torch.autograd.Function):
    """bitsandbytes autograd/_functions.py MatMul4Bit: dequantize to A's dtype, linear; saves (None, B) since 0.43.2."""
    @staticmethod
    def forward(ctx, A, B, shape, saves_input):
        weight = torch.empty(shape, dtype=A.dtype, device=A.device)  # F.dequantize_4bit(B).to(A.dtype)
        out = torch.nn.functional.linear(A, weight)
        ctx.shape = shape
        if saves_input:
            ctx.save_for_backward(A)
        return out

    @staticmethod
    def backward(ctx, grad):
        weight = torch.empty(ctx.shape, dtype=grad.dtype, device=grad.device)
        return grad @ weight, None, None, None


class Linear4bit(torch.nn.Module):
    """bitsandbytes nn/modules.py Linear4bit.forward: x.to(compute_dtype), matmul_4bit, .to(inp_dtype)."""
    def __init__(self, base, saves_input):
        super().__init__()
        self.in_features, self.out_features = base.in_features, base.out_features
        self.weight = torch.nn.Parameter(torch.empty(base.out_features * base.in_features // 2, 1, dtype=torch.uint8),
                                         requires_grad=False)
        self.saves_input = saves_input

    def forward(self, x):
        inp_dtype = x.dtype
        x = x.to(torch.bfloat16)
        return MatMul4Bit.apply(x, self.weight, (self.out_features, self.in_features), self.saves_input).to(inp_dtype)


class LoRALinear(torch.nn.Module):
    """PEFT tuners/lora/layer.py Linear.forward (16-bit base) or tuners/lora/bnb.py Linear4bit.forward (4-bit base)."""
    def __init__(self, base, rank, dropout, adapter_dtype, kbit):
        super().__init__()
        self.base_layer, self.kbit = base, kbit
        self.A = torch.nn.Linear(base.in_features, rank, bias=False, dtype=adapter_dtype)
        self.B = torch.nn.Linear(rank, base.out_features, bias=False, dtype=adapter_dtype)
        self.drop = torch.nn.Dropout(dropout) if dropout else torch.nn.Identity()

    def forward(self, x):
        result = self.base_layer(x)
        if self.kbit:
            result = result.clone()
            if not torch.is_autocast_enabled():
                dtype = result.dtype
                out = self.B(self.A(self.drop(x.to(self.A.weight.dtype)))) * 2.0
                return result + out.to(dtype)
            return result + self.B(self.A(self.drop(x))) * 2.0
        dtype = result.dtype
        x = x.to(self.A.weight.dtype)
        return (result + self.B(self.A(self.drop(x))) * 2.0).to(dtype)


def prepare(model, case):
    kbit = case.get("kbit", False)
    for p in model.parameters():
        p.requires_grad_(False)
    targets = set(case.get("targets", ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]))
    adapter_dtype = torch.float32 if (kbit or case.get("amp")) else next(model.parameters()).dtype
    for layer in model.model.layers:
        for module in list(layer.modules()):
            for name, child in list(module.named_children()):
                if isinstance(child, torch.nn.Linear):
                    base = Linear4bit(child, case.get("matmul_saves_input", False)) if kbit else child
                    new = LoRALinear(base, case.get("lora_r", 16), case.get("dropout", 0.0), adapter_dtype, kbit) \
                        if name in targets else base
                    setattr(module, name, new)
    if "lm_head" in targets:
        model.lm_head = LoRALinear(model.lm_head, case.get("lora_r", 16), case.get("dropout", 0.0), adapter_dtype, False)
    if kbit:  # PEFT prepare_model_for_kbit_training: every non-4-bit parameter to fp32
        for p in model.parameters():
            if p.dtype in (torch.bfloat16, torch.float16):
                p.data = p.data.to(torch.float32)
    model.enable_input_require_grads()


def trace(case):
    config = tm.load_config(case)
    batch, seq = case["batch"], case["seq"]
    result = {}
    with FakeTensorMode():
        torch.set_default_dtype(torch.bfloat16)
        model = AutoModelForCausalLM.from_config(config)
        torch.set_default_dtype(torch.float32)
        if case.get("grad_ckpt"):
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.train()
        if case.get("method", "lora") != "full":
            prepare(model, case)
        trainable = [p for p in model.parameters() if p.requires_grad]
        result["trainable_params"] = sum(p.numel() for p in trainable)
        optimizer = torch.optim.AdamW(trainable, lr=1e-5, foreach=case.get("foreach", False))
        tracker = MemTracker()
        tracker.track_external(model, optimizer)
        amp = case.get("kbit") or case.get("amp")
        autocast = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if amp else contextlib.nullcontext
        with tracker:
            for step in range(2):
                ids = torch.randint(0, config.vocab_size, (batch, seq))
                with autocast():
                    loss = model(input_ids=ids, labels=ids).loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
                if step == 0:
                    tracker.reset_mod_stats()
        (device_stats,) = tracker.get_tracker_snapshot("peak").values()
        result["peak"] = {str(k).split(".")[-1]: v for k, v in device_stats.items()}
    return result


if __name__ == "__main__":
    case = json.loads(sys.argv[1])
    start = time.time()
    out = trace(case)
    out.update(case=case, seconds=round(time.time() - start, 1))
    print(json.dumps(out))
