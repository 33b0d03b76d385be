#!/usr/bin/env python3
"""The speed model against published measurements, one row per case, by category: llama.cpp decode and prompt rates
(llama-bench), Ollama's eval rates (small models on fast GeForce cards, where the host's share of a token shows),
datacenter servers (vLLM, SGLang, TensorRT-LLM/NIM, gpt-fast) at a batch or a concurrency, and training runs
(torchtitan's tokens/s per GPU, the GPU-hours Meta published for Llama 2 and 3.1).

tests/data/speed_published.json holds each case with its source, the line it was copied from and its settings.
Ratio = ours / published (times and rates alike). Beside ours, a naive roofline: every step reads the weights at the
datasheet bandwidth or does 2 FLOPs per active parameter per token at the dense peak, whichever is slower, with no
KV cache, no fixed cost and no engine limits, so the model's own factors can be judged against the simplest tool.
Servers are judged through the functions plan_serving plans with: the roofline per step (serving_speed), the KV cache
the engine budgets at start-up (replica_capacity: requests beyond it wait), continuous batching with chunked prefill.
Training is judged through training_time (the MFU table of training_mfu.py), whose naive twin is one MFU for every
GPU and scale (40%, Llama 2's A100 figure). The training rows include the runs that table was read from, so they are
not held out (torchtitan's Llama 2 rows are not in the table).
Cases on GPUs or models the catalog does not hold, or whose settings are not published, are listed as not judged.

`--readme` prints the block README.md shows (per category, with the date and the machine's core count);
tests/test_serving_speed.py checks README's block against this recomputation.
"""
from __future__ import annotations

import datetime
import json
import math
import os
import re
import statistics
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "speed_published.json"
WEIGHTS = {"Q4_K_M": "q4_k_m", "Q4_0": "q4_0", "Q8_0": "q8_0", "F16": "fp16", "BF16": "bf16"}
SERVER_ENGINES = ("vllm", "sglang", "tensorrt_llm", "gpt_fast")  # the last two judged with vLLM's factors (CUDA graphs)
GGML_ENGINES = ("llama_cpp", "ollama")  # Ollama runs llama.cpp's ggml kernels: judged with llama.cpp's factors
README = Path(__file__).resolve().parent.parent / "README.md"
README_MARK = "<!-- printed by benchmarks/speed_published.py --readme -->"
README_END = "<!-- end of speed_published -->"
CATEGORIES = {
    "decode_tokens_per_s": "latency", "ttft_ms": "latency", "tpot_ms": "latency", "static_batch_latency_ms": "latency",
    "aggregate_output_tokens_per_s": "throughput", "static_batch_output_tokens_per_s": "throughput",
}
CONTEXT_OF_BATCH_ONE = 200  # gpt-fast decodes from an almost empty context


def gpu_name(published: str) -> str:
    name = re.sub(r"^(NVIDIA|AMD) |GeForce |Instinct | Generation", "", published)
    return name.replace("A100-SXM4-80GB", "a100 80gb sxm").replace("A100 80GB PCIe", "a100 80gb pcie")


def tokens_of(test: str) -> int:
    return int(re.sub(r"\D", "", test) or 128)


def predict(case: dict, catalog) -> tuple[float, float]:
    """Ours and the naive roofline, in the case's metric."""
    if case["engine"] in SERVER_ENGINES:
        return predict_server(case, catalog)
    if case["metric"].startswith("training_"):
        return predict_training(case, catalog)
    from gpusizer.tools.memory.plan import build_plan
    from gpusizer.tools.memory.request import VramRequest
    from gpusizer.tools.speed.serving_speed import default_factors, roofline

    gpu = catalog.find_gpu(case.get("gpu_id") or gpu_name(case["gpu"]))
    plan = build_plan(VramRequest(model=case["model_hf_id"], weights_dtype=WEIGHTS[case["weights"]], engine="llama_cpp"), catalog)
    line = roofline(plan, gpu, 1, default_factors("llama_cpp", gpu, 1, plan.weight_format.compute_dtype))
    assert line is not None
    tokens = tokens_of(case["settings"].get("test", "tg128"))
    gpus = case.get("gpu_count") or 1
    if case["metric"] == "decode_tokens_per_s":
        ours = 1 / line.decode_step_s(1, tokens / 2)
        naive = gpu.memory_bandwidth_gbps * 1e9 / plan.weights_total_bytes  # every layer read in turn: no gain from more GPUs
    else:
        ours = tokens / line.decode_step_s(0, 0, tokens, tokens / 2)  # a layer split runs the layers in turn
        naive = (gpu.bf16_tflops_dense or gpu.fp16_tflops_dense or 0) * 1e12 * gpus / (2 * plan.counts.active)
    return ours, naive


class Naive:
    """Bandwidth / weights or peak / FLOPs per step, whichever is slower: no KV cache, fixed cost or engine limit."""

    def __init__(self, plan: Any, gpu: Any, tp: int):
        peak = gpu.dense_tflops(plan.weight_format.compute_dtype) or gpu.bf16_tflops_dense or gpu.fp16_tflops_dense
        self.weights_s = plan.weights_total_bytes / tp / (gpu.memory_bandwidth_gbps * 1e9)
        self.token_s = 2 * plan.counts.active / tp / (peak * 1e12)

    def step_s(self, batch: float, context: float = 0.0) -> float:
        return max(self.weights_s, batch * self.token_s)

    def decode_step_s(self, batch: float, context: float, prefill_tokens: float = 0.0, prefill_context: float = 0.0) -> float:
        return max(self.weights_s, (batch + prefill_tokens) * self.token_s)


def predict_server(case: dict, catalog) -> tuple[float, float]:
    from gpusizer.tools.memory.plan import build_plan
    from gpusizer.tools.memory.request import VramRequest
    from gpusizer.tools.serving.replica_capacity import replica_capacity
    from gpusizer.tools.speed.serving_speed import ReplicaLoad, default_factors, roofline

    s = case["settings"]
    tp = s.get("tensor_parallel") or case.get("gpu_count") or 1
    engine = "sglang" if case["engine"] == "sglang" else "vllm"
    prompt, output = s.get("input_tokens") or 1, s.get("output_tokens") or CONTEXT_OF_BATCH_ONE
    plan = build_plan(VramRequest(model=case.get("catalog_model") or case["model_hf_id"], weights_dtype=case["weights"],
                                  kv_cache_dtype=case.get("kv_cache"), engine=engine, max_model_len=prompt + output), catalog)
    gpu = catalog.find_gpu(case["gpu_id"])
    # TensorRT-LLM's C++ executor and gpt-fast carry no Python scheduler between steps: vLLM's factors less its host work
    line = roofline(plan, gpu, tp, default_factors(case["engine"], gpu, tp, plan.weight_format.compute_dtype))
    assert line is not None
    capacity = replica_capacity(plan, gpu, tp)
    running = min(s.get("concurrency") or 1, capacity.requests if capacity else 1 << 20)
    chunk = capacity.chunk_tokens if capacity else 8192
    ours = figure(case, line, running, prompt, output, lambda: ReplicaLoad(line, prompt, output, chunk))
    naive = figure(case, Naive(plan, gpu, tp), s.get("concurrency") or 1, prompt, output, None)
    return ours, naive


def figure(case: dict, line: Any, batch: int, prompt: int, output: int, load: Any) -> float:
    """The case's metric from one step model: static batches run their prompts in one step and then decode together;
    a server at a concurrency keeps `batch` requests running (continuous batching)."""
    metric, s = case["metric"], case["settings"]
    if metric == "decode_tokens_per_s":
        return 1 / line.decode_step_s(1, CONTEXT_OF_BATCH_ONE / 2)
    if metric == "ttft_ms":
        if batch <= 1:
            return 1e3 * line.decode_step_s(0, 0, prompt, prompt / 2)
        # a benchmark client at a fixed concurrency with fixed lengths runs in waves: `batch` requests start together and
        # end together, so a wave's prompts are prefilled first, in turn; request i waits for the first i prompts
        wave = line.decode_step_s(0, 0, batch * prompt, prompt / 2)
        return 1e3 * wave * (batch + 1) / (2 * batch)
    if metric == "tpot_ms":
        return 1e3 * (load().step_s(batch) if load else line.decode_step_s(batch, prompt + output / 2))
    if metric == "aggregate_output_tokens_per_s":
        if load:
            return float(load().requests_per_s(batch) * output)
        return batch * output / (line.decode_step_s(0, 0, prompt, prompt / 2) + output * line.decode_step_s(batch, 0))
    prefill = line.decode_step_s(0, 0, batch * prompt, prompt / 2)
    generated = s.get("generated_tokens_total") or batch * output  # requests ending at EOS thin the batch as it runs
    running = generated / output
    seconds = prefill + output * line.decode_step_s(running, prompt + output / 2)
    return 1e3 * seconds if metric == "static_batch_latency_ms" else generated / seconds


def predict_training(case: dict, catalog) -> tuple[float, float]:
    from gpusizer.tools.speed.training_time import MFU_DEFAULT, training_time

    s = case["settings"]
    tokens = s.get("training_tokens") or 1e9
    runs = [training_time(case["model_hf_id"], training_tokens=tokens, gpu=case["gpu_id"], gpu_count=case["gpu_count"],
                          mfu=mfu, fp8=bool(s.get("fp8")), gradient_checkpointing=s.get("activation_checkpointing") == "full",
                          selective_checkpointing=s.get("activation_checkpointing") == "selective", catalog=catalog)
            for mfu in (None, MFU_DEFAULT)]
    if case["metric"] == "training_gpu_hours":
        return runs[0].gpu_hours, runs[1].gpu_hours
    per_gpu = [tokens / (run.wall_clock_hours * 3600 * run.gpu_count) for run in runs]
    return per_gpu[0], per_gpu[1]


def category(case: dict) -> str:
    if case["engine"] in GGML_ENGINES:
        return case["engine"].replace("llama_cpp", "llama.cpp").replace("ollama", "Ollama") + " " + case["metric"].split("_")[0]
    if case["metric"].startswith("training_"):
        return "training"
    return "server " + CATEGORIES.get(case["metric"], "other")


def evaluate(catalog=None) -> tuple[list[dict], list[tuple[dict, str]]]:
    from gpusizer.catalog import SizingError, load_catalog

    os.environ["HF_HUB_OFFLINE"] = "1"  # a model the catalog lacks is not judged, never fetched
    catalog = catalog or load_catalog(include_user=False)
    rows, skipped = [], []
    for case in json.loads(DATA.read_text())["cases"]:
        if case.get("judged") is False:
            skipped.append((case, case["why_not_judged"]))
            continue
        if case["engine"] in GGML_ENGINES and (case["weights"] not in WEIGHTS or not case.get("model_hf_id")):
            skipped.append((case, "a llama.cpp format this benchmark does not drive"))
            continue
        try:
            ours, naive = predict(case, catalog)
        except SizingError as error:
            skipped.append((case, str(error).split(";")[0][:80]))
            continue
        s = case["settings"]
        rows.append({"gpu": case["gpu"], "gpus": case.get("gpu_count") or 1, "model": case["model_hf_id"].split("/")[-1],
                     "weights": case["weights"], "metric": case["metric"].split("_")[0], "category": category(case),
                     "test": s.get("test") or (f"{s.get('activation_checkpointing')} AC" + (" fp8" if s.get("fp8") else "")
                                               if "activation_checkpointing" in s else
                                               f"c{s.get('concurrency')} {s.get('input_tokens')}/{s.get('output_tokens')}"),
                     "published": case["value"], "ours": ours, "naive": naive})
    return rows, skipped


def summary(rows: list[dict], key: str) -> str:
    ratios = [r[key] / r["published"] for r in rows]
    logs = [abs(math.log(x)) for x in ratios]
    within_2 = sum(0.5 <= x <= 2 for x in ratios)
    return f"median x{math.exp(statistics.median(logs)):.2f}, worst x{math.exp(max(logs)):.2f}, within x2: {within_2}/{len(rows)}"


def errors(rows: list[dict], key: str) -> tuple[float, float, int]:
    """Median and worst error as a factor (x1.25 = 25% off, either way), and the cases within x2."""
    ratios = [r[key] / r["published"] for r in rows]
    logs = [abs(math.log(x)) for x in ratios]
    return math.exp(statistics.median(logs)), math.exp(max(logs)), sum(0.5 <= x <= 2 for x in ratios)


def readme_table(rows: list[dict]) -> list[str]:
    """The table README.md shows: per category and in all, ours beside the naive roofline."""
    lines = ["| category | cases | ours: median error | ours: worst | within x2 | naive roofline: median error |",
             "|---|---:|---:|---:|---:|---:|"]
    groups = [(name, [r for r in rows if r["category"] == name]) for name in sorted({r["category"] for r in rows})]
    for name, subset in [*groups, ("all", rows)]:
        median, worst, within = errors(subset, "ours")
        naive, _, _ = errors(subset, "naive")
        lines.append(f"| {name} | {len(subset)} | x{median:.2f} | x{worst:.2f} | {within}/{len(subset)} | x{naive:.2f} |")
    return lines


def readme_block(rows: list[dict], skipped: list[tuple[dict, str]]) -> str:
    """What README.md shows between its markers, with the date and the core count of the run that printed it."""
    when = f"{datetime.date.today().isoformat()}, {os.cpu_count()} cores"
    return "\n".join([
        README_MARK,
        f"Printed by `python benchmarks/speed_published.py --readme` ({when}): {len(rows)} published measurements judged,",
        f"{len(skipped)} listed but not judged (the script says why). Error: ours / published or its inverse, the larger.",
        "",
        *readme_table(rows),
        README_END,
    ])


def readme_shown(text: str) -> list[str]:
    """The table lines of README's block (the date and core count above them change from run to run)."""
    start, end = text.index(README_MARK), text.index(README_END)
    return [line for line in text[start:end].splitlines() if line.startswith("|")]


def main(argv: list[str]) -> int:
    rows, skipped = evaluate()
    if "--readme" in argv:
        print(readme_block(rows, skipped))
        return 0
    print(f"{'gpu':28s} {'n':>2s} {'model':18s} {'weights':7s} {'metric':9s} {'test':14s} {'published':>10s} {'ours':>9s} "
          f"{'ratio':>6s} {'naive':>6s}")
    for r in rows:
        print(f"{r['gpu'][:28]:28s} {r['gpus']:2d} {r['model'][:18]:18s} {r['weights'][:7]:7s} {r['metric'][:9]:9s} "
              f"{str(r['test'])[:14]:14s} {r['published']:10,.1f} {r['ours']:9,.1f} {r['ours'] / r['published']:6.2f} "
              f"{r['naive'] / r['published']:6.2f}")
    for name in sorted({r["category"] for r in rows}):
        subset = [r for r in rows if r["category"] == name]
        print(f"{name}: {len(subset)} cases; ours {summary(subset, 'ours')}; naive roofline {summary(subset, 'naive')}")
    print(f"all: {len(rows)} cases; ours {summary(rows, 'ours')}; naive roofline {summary(rows, 'naive')}")
    reasons: dict[str, int] = {}
    for _, why in skipped:
        reasons[why] = reasons.get(why, 0) + 1
    print(f"not judged: {len(skipped)} ({'; '.join(f'{n} x {why}' for why, n in sorted(reasons.items()))})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
