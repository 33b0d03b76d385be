#!/usr/bin/env python3
"""Per-call latency of the calculators on the full catalog (median of many calls), as a ratio to a reference
measured in the same run: one validation of the request model alone.

`--readme` prints the block README.md shows, with the date and the machine's core count (timings depend on both);
tests/test_serving_speed.py checks that README's block names the calls this script times."""
from __future__ import annotations

import datetime
import os
import statistics
import sys
import time
from collections.abc import Callable

README_MARK = "<!-- printed by benchmarks/speed.py --readme -->"
README_END = "<!-- end of speed -->"
REPEAT = 200


def median_ms(call, repeat: int = REPEAT) -> float:
    call()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


SERVING_QUESTIONS = [  # a mix of what people ask: users or arrival rates, with and without targets, three engines
    {"model": "meta-llama/Llama-3.1-8B-Instruct", "concurrent_users": 1000, "prompt_tokens": 2048, "output_tokens": 512},
    {"model": "meta-llama/Llama-3.1-8B-Instruct", "requests_per_s": 20, "tokens_per_s_per_user": 20, "ttft_s": 1},
    {"model": "meta-llama/Llama-3.1-8B-Instruct", "concurrent_users": 10},
    {"model": "meta-llama/Llama-3.1-70B-Instruct", "concurrent_users": 200, "tokens_per_s_per_user": 20},
    {"model": "openai/gpt-oss-120b", "concurrent_users": 100},
    {"model": "deepseek-ai/DeepSeek-V3", "concurrent_users": 64},
    {"model": "Qwen/Qwen3-30B-A3B", "requests_per_s": 10, "engine": "sglang"},
    {"model": "meta-llama/Llama-3.1-8B-Instruct", "concurrent_users": 4, "engine": "llama_cpp"},
]


def calls() -> tuple[Callable[[], object], dict[str, Callable[[], object]]]:
    """The reference (one request validated) and the calls timed against it, by name."""
    from gpusizer.catalog import clear_cache, load_catalog
    from gpusizer.tools import VramRequest, cloud_cost, compare_gpus, estimate_vram, plan_serving, rent_vs_buy
    from gpusizer.tools.memory.breakdown import per_gpu
    from gpusizer.tools.memory.plan import build_plan

    catalog = load_catalog()
    plan = build_plan(VramRequest(model="meta-llama/Llama-3.1-70B"), catalog)
    rows: dict[str, Callable[[], object]] = {
        "one estimate (no fit scan)": lambda: per_gpu(plan, 1, 2048, 1, 1, "none"),
        "estimate_vram with fit scan": lambda: estimate_vram(catalog=catalog, model="meta-llama/Llama-3.1-70B"),
        "estimate_vram + max batch/context": lambda: estimate_vram(catalog=catalog, model="llama-3.1-8b", gpu="h100-sxm"),
        "cloud_cost": lambda: cloud_cost(catalog=catalog, gpu="h100-sxm", gpu_count=16, hours=100),
        "rent_vs_buy": lambda: rent_vs_buy(catalog=catalog, gpu="h100-sxm"),
        "compare_gpus (5 GPUs + workload)": lambda: compare_gpus(["h100-sxm", "h200-sxm", "a100-80gb-sxm", "l40s", "mi300x"],
                                                                 model="llama-3.1-70b", catalog=catalog),
        "estimate_vram QLoRA training (hf_trainer)": lambda: estimate_vram("llama-3.1-8b", workload="training", method="qlora",
                                                                           gpu="rtx-4090", catalog=catalog),
        "estimate_vram QLoRA, every training option": lambda: estimate_vram(
            "llama-3.1-8b", workload="training", method="qlora", lora_targets="all_linear_and_head", lora_dropout=0.05,
            optimizer_step="foreach", kbit_upcast=True, framework_version="transformers 4.46, bitsandbytes 0.43.1",
            batch_size=4, seq_len=4096, catalog=catalog),
        "load the catalog (cold, built-in rows)": lambda: (clear_cache(), load_catalog(include_user=False)),
        "estimate_vram GGUF Q4_K_M (70B)": lambda: estimate_vram("llama-3.1-70b", weights_dtype="q4_k_m", catalog=catalog),
        "estimate_vram vLLM on H100 + fit scan": lambda: estimate_vram("llama-3.1-8b", engine="vllm", gpu="h100-sxm",
                                                                       max_model_len=16384, catalog=catalog),
        "estimate_vram llama.cpp auto -ngl (12 GB)": lambda: estimate_vram("llama-3.1-8b", engine="llama_cpp", gpu="rtx-3060-12gb",
                                                                           weights_dtype="q4_k_m", catalog=catalog),
    }
    questions = iter(SERVING_QUESTIONS * 1000)
    rows["plan_serving, whole catalog (8 questions)"] = lambda: plan_serving(catalog=catalog, **next(questions))
    return lambda: VramRequest(model="meta-llama/Llama-3.1-70B"), rows


def readme_block(timings: dict[str, float]) -> str:
    """What README.md shows between its markers: the median per call, with the date and core count of the run."""
    when = f"{datetime.date.today().isoformat()}, {os.cpu_count()} cores, median of {REPEAT} calls each"
    return "\n".join([README_MARK, f"Printed by `python benchmarks/speed.py --readme` ({when});",
                       "`plan_serving` includes its alternatives (the plan again with other formats):", "",
                       "| call | median ms |", "|---|---:|",
                       *(f"| {name} | {ms:.3f} |" for name, ms in timings.items()), README_END])


def readme_calls(text: str) -> list[str]:
    """The call names README's block lists."""
    block = text[text.index(README_MARK):text.index(README_END)]
    table = [line for line in block.splitlines() if line.startswith("|")]
    return [line.split("|")[1].strip() for line in table[2:]]  # below the header and its rule


def main(argv: list[str]) -> int:
    reference_call, rows = calls()
    reference = median_ms(reference_call)
    timings = {name: median_ms(call) for name, call in rows.items()}
    if "--readme" in argv:
        print(readme_block(timings))
        return 0
    print(f"reference (validate one request): {reference:.3f} ms; target: every estimate under 2 ms, plan_serving over "
          "the whole catalog under 5 ms")
    print(f"{'call':38s} {'median ms':>10s} {'x reference':>12s}")
    for name, ms in timings.items():
        print(f"{name:38s} {ms:10.3f} {ms / reference:12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
