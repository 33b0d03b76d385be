#!/usr/bin/env python3
"""The speed model against published llama.cpp measurements (llama-bench decode and prompt rates), one row per case.

tests/data/speed_published.json holds each case with its source, the line it was copied from and its settings
(llama-bench tg/pp tests, -ngl 99, the build). Ratio = ours / published. Beside ours, a naive roofline: the datasheet
bandwidth over the weights' bytes for decode, and the dense 16-bit peak over 2 FLOPs per parameter for prompts, so the
model's own factors can be judged against the simplest tool. Cases on GPUs the catalog does not hold, or engines this
benchmark does not drive yet (servers at concurrency), are listed as not judged with the reason.
"""
from __future__ import annotations

import json
import math
import os
import re
import statistics
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "speed_published.json"
WEIGHTS = {"Q4_K_M": "q4_k_m", "Q4_0": "q4_0", "Q8_0": "q8_0", "F16": "fp16", "BF16": "bf16"}


def gpu_name(published: str) -> str:
    name = re.sub(r"^(NVIDIA|AMD) |GeForce |Instinct | Generation", "", published)
    return name.replace("A100-SXM4-80GB", "a100 80gb sxm").replace("A100 80GB PCIe", "a100 80gb pcie")


def tokens_of(test: str) -> int:
    return int(re.sub(r"\D", "", test) or 128)


def predict(case: dict, catalog) -> tuple[float, float]:
    """Ours and the naive roofline, in the case's metric."""
    from gpusizer.tools.memory.plan import build_plan
    from gpusizer.tools.memory.request import VramRequest
    from gpusizer.tools.speed.serving_speed import default_factors, roofline

    gpu = catalog.find_gpu(gpu_name(case["gpu"]))
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


def evaluate(catalog=None) -> tuple[list[dict], list[tuple[dict, str]]]:
    from gpusizer.catalog import SizingError, load_catalog

    os.environ["HF_HUB_OFFLINE"] = "1"  # a model the catalog lacks is not judged, never fetched
    catalog = catalog or load_catalog(include_user=False)
    rows, skipped = [], []
    for case in json.loads(DATA.read_text())["cases"]:
        if case["engine"] != "llama_cpp" or case["weights"] not in WEIGHTS or not case.get("model_hf_id"):
            skipped.append((case, "not a llama.cpp case this benchmark drives yet"))
            continue
        try:
            ours, naive = predict(case, catalog)
        except SizingError as error:
            skipped.append((case, str(error).split(";")[0][:80]))
            continue
        rows.append({"gpu": case["gpu"], "gpus": case.get("gpu_count") or 1, "model": case["model_hf_id"].split("/")[-1],
                     "weights": case["weights"], "metric": case["metric"].split("_")[0],
                     "test": case["settings"].get("test"), "published": case["value"], "ours": ours, "naive": naive})
    return rows, skipped


def summary(rows: list[dict], key: str) -> str:
    ratios = [r[key] / r["published"] for r in rows]
    logs = [abs(math.log(x)) for x in ratios]
    within_2 = sum(0.5 <= x <= 2 for x in ratios)
    return f"median x{math.exp(statistics.median(logs)):.2f}, worst x{math.exp(max(logs)):.2f}, within x2: {within_2}/{len(rows)}"


def main() -> int:
    rows, skipped = evaluate()
    print(f"{'gpu':32s} {'n':>2s} {'model':18s} {'weights':7s} {'test':6s} {'published':>10s} {'ours':>9s} {'ratio':>6s} {'naive':>6s}")
    for r in rows:
        print(f"{r['gpu'][:32]:32s} {r['gpus']:2d} {r['model'][:18]:18s} {r['weights']:7s} {str(r['test']):6s} "
              f"{r['published']:10,.1f} {r['ours']:9,.1f} {r['ours'] / r['published']:6.2f} {r['naive'] / r['published']:6.2f}")
    for metric in ("decode", "prefill"):
        subset = [r for r in rows if r["metric"] == metric]
        if subset:
            print(f"{metric}: {len(subset)} cases; ours {summary(subset, 'ours')}; naive roofline {summary(subset, 'naive')}")
    reasons: dict[str, int] = {}
    for _, why in skipped:
        reasons[why] = reasons.get(why, 0) + 1
    print(f"not judged: {len(skipped)} ({'; '.join(f'{n} x {why}' for why, n in sorted(reasons.items()))})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
