#!/usr/bin/env python3
"""estimate_vram's serving engines against public start-up logs: one row per logged figure, then the summary.

tests/data/engine_logs.json holds each log's source, the command that produced it and the estimate_vram arguments
for its set-up. A log is within tolerance when every judged figure (tokens, concurrency, weights, buffers; not the
profiled activation peak) is within 10%; the gates (tests/test_engine_logs.py, issue #32) are 80% of the vLLM logs
within tolerance and a mean |error| of vLLM's KV-cache tokens of at most 6.7% (the llm-d planner's own figure)."""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "engine_logs.json"
GIB, MIB = 2**30, 2**20
TOLERANCE = 0.10
JUDGED = {"kv_cache_tokens", "max_concurrency", "weights_gib", "gpu_model_mib", "gpu_kv_mib", "gpu_compute_mib",
          "host_model_mib", "host_kv_mib", "host_compute_mib"}
FIELDS = {  # logged figure -> (ServingMemory attribute, unit divisor)
    "kv_cache_tokens": ("kv_cache_tokens", 1), "max_concurrency": ("max_concurrency", 1),
    "weights_gib": ("weights_bytes", GIB), "activation_peak_gib": ("activation_peak_bytes", GIB),
    "gpu_model_mib": ("weights_bytes", MIB), "gpu_kv_mib": ("kv_cache_bytes", MIB), "gpu_compute_mib": ("activation_peak_bytes", MIB),
    "host_model_mib": ("host_weights_bytes", MIB), "host_kv_mib": ("host_kv_bytes", MIB), "host_compute_mib": ("host_compute_bytes", MIB),
}


def load_cases() -> list[dict]:
    return json.loads(DATA.read_text())["cases"]


def evaluate(catalog=None) -> list[dict]:
    from gpusizer.tools import estimate_vram

    rows = []
    for case in load_cases():
        arguments = {"engine": "vllm", **case["arguments"]}
        serving = estimate_vram(catalog=catalog, **arguments).serving
        for name, logged in case["expected"].items():
            attribute, unit = FIELDS[name]
            estimate = getattr(serving, attribute) / unit
            rows.append({"case": case["id"], "engine": arguments["engine"], "figure": name, "estimate": estimate,
                         "logged": logged, "error": estimate / logged - 1})
    return rows


def summary(rows: list[dict], engine: str) -> dict:
    """Logs within tolerance (every judged figure within 10%) and the mean |error| of the KV-cache tokens."""
    logs: dict[str, bool] = {}
    for r in rows:
        if r["engine"] == engine and r["figure"] in JUDGED:
            logs[r["case"]] = logs.get(r["case"], True) and abs(r["error"]) <= TOLERANCE
    kv = [abs(r["error"]) for r in rows if r["engine"] == engine and r["figure"] == "kv_cache_tokens"]
    return {"logs": len(logs), "within": sum(logs.values()), "outside": sorted(k for k, ok in logs.items() if not ok),
            "kv_tokens_mean_error": statistics.fmean(kv) if kv else None}


def main() -> int:
    rows = evaluate()
    print(f"{'log':46s} {'figure':20s} {'estimate':>12s} {'logged':>12s} {'error':>8s}")
    for r in rows:
        print(f"{r['case']:46s} {r['figure']:20s} {r['estimate']:12,.2f} {r['logged']:12,.2f} {r['error']:+8.1%}")
    for engine in ("vllm", "sglang", "llama_cpp"):
        errors = [abs(r["error"]) for r in rows if r["engine"] == engine]
        logs = len({r["case"] for r in rows if r["engine"] == engine})
        if errors:
            print(f"{engine}: {logs} logs, {len(errors)} figures, median |error| {statistics.median(errors):.1%}, worst {max(errors):.1%}")
    vllm = summary(rows, "vllm")
    share = vllm["within"] / vllm["logs"]
    print(f"vllm: {vllm['within']} of {vllm['logs']} logs within tolerance ({share:.0%}; gate >= 80%), KV-cache tokens "
          f"mean |error| {vllm['kv_tokens_mean_error']:.1%} (gate <= 6.7%); outside: {', '.join(vllm['outside']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
