#!/usr/bin/env python3
"""Makes tests/data/vram_traced_sliding_window.jsonl: ../shared/tools/trace_memory.py's inference path (a prefill of
batch x seq tokens, use_cache=True, last-token logits) on small sliding-window configs at half, twice and eight times the
window, plus what the returned cache holds: each layer's class, the bytes its key/value tensors show (views) and the
bytes of the storage behind them (what stays allocated).

Case fields beyond trace_memory.py's: attn ("sdpa" default; "eager" for the models whose transformers class has
_supports_sdpa = False: Gemma 2, gpt-oss). Run with trace_memory.py's set-up (torch and transformers, CPU only):
    python tests/data/trace_sliding_window.py '{"arch": {...}, "workload": "inference", "batch": 4, "seq": 512}'
"""
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "shared" / "tools"))
import torch
import trace_memory as tm
import transformers
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.distributed._tools.mem_tracker import MemTracker
from transformers import AutoModelForCausalLM


def trace(case: dict) -> dict:
    config = tm.load_config(case)
    config._attn_implementation = case.get("attn", "sdpa")
    result: dict = {}
    with FakeTensorMode():
        torch.set_default_dtype(torch.bfloat16)
        model = AutoModelForCausalLM.from_config(config)
        torch.set_default_dtype(torch.float32)
        model.eval()
        tracker = MemTracker()
        tracker.track_external(model)
        with tracker, torch.no_grad():
            ids = torch.randint(0, config.vocab_size, (case["batch"], case["seq"]))
            out = model(input_ids=ids, use_cache=True, logits_to_keep=1)
        cache = out.past_key_values
        result["cache_layers"] = [type(layer).__name__ for layer in cache.layers]
        tensors = [t for layer in cache.layers for t in (layer.keys, layer.values)]
        result["cache_view_bytes"] = sum(t.numel() * t.element_size() for t in tensors)
        result["cache_storage_bytes"] = sum(t.untyped_storage().nbytes() for t in tensors)
        (device_stats,) = tracker.get_tracker_snapshot("peak").values()
        result["peak"] = {str(k).split(".")[-1]: v for k, v in device_stats.items()}
    return result


if __name__ == "__main__":
    case = json.loads(sys.argv[1])
    start = time.time()
    out = trace(case)
    out.update(case=case, seconds=round(time.time() - start, 1), torch=torch.__version__,
               transformers=transformers.__version__, traced_with="tests/data/trace_sliding_window.py")
    print(json.dumps(out))
