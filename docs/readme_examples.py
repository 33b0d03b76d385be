#!/usr/bin/env python3
"""The README's examples, produced by the tools themselves: `python docs/readme_examples.py` rewrites each block
between its markers; `--check` exits 1 when the README no longer shows what the tools answer (tests/test_readme.py
runs it), so an example cannot drift from the code.

Blocks: `catalog` (the data files' row counts), `ask` (a `gpusizer ask` transcript), `mcp` (questions, the call an
assistant makes, and the first two lines of the tool's text answer) and `rent` (the worked TCO example and the default
rent-or-buy question), each from the built-in catalog only.
"""
from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
ASK_QUESTION = "hey can my 3080 run mistral 7b q4_k_m for my discord bot?"
MCP_EXAMPLES: list[tuple[str, str, dict[str, Any]]] = [
    ("Can I QLoRA Llama 3.1 8B on my 4090?", "estimate_vram",
     {"model": "llama-3.1-8b", "workload": "training", "method": "qlora", "gpu": "rtx 4090"}),
    ("Serve Llama 3.1 70B at 8k context on two H100s?", "estimate_vram",
     {"model": "llama-3.1-70b", "seq_len": 8192, "tensor_parallel": 2, "num_gpus": 2, "gpu": "h100"}),
    ("Llama 3.1 70B on my two 3090s?", "estimate_vram", {"model": "llama-3.1-70b", "gpu": "rtx-3090", "num_gpus": 2}),
    ("Cheapest 8×H100 for a day?", "cloud_cost", {"gpu": "h100", "gpu_count": 8, "hours": 24, "pricing": "on_demand"}),
    ("How many GPUs for 200 users of Llama 3.3 70B?", "plan_serving", {"model": "llama-3.3-70b", "concurrent_users": 200}),
]


def ask_block() -> str:
    from gpusizer.catalog import load_catalog
    from gpusizer.tools.questions import ask

    answer = ask(ASK_QUESTION, load_catalog(include_user=False))
    printed = f"{answer.interpretation}\n{answer.answer}" if answer.understood else answer.answer  # as `gpusizer ask` prints
    return f'```console\n$ gpusizer ask "{ASK_QUESTION}"\n{printed}\n```'


def call_text(tool: str, arguments: dict[str, Any]) -> str:
    from mcp import Client

    from gpusizer.catalog import load_catalog
    from gpusizer.server.app import create_server

    async def run() -> str:
        async with Client(create_server(load_catalog(include_user=False))) as client:
            result = await client.call_tool(tool, arguments)
            return str(result.content[0].text)

    return asyncio.run(run())


def mcp_block() -> str:
    rows = ["| you ask | the assistant calls | and reads (the first two lines of the tool's text) |", "|---|---|---|"]
    for question, tool, arguments in MCP_EXAMPLES:
        shown = ", ".join(f"{key}={value!r}".replace("'", '"') for key, value in arguments.items())
        first = " ".join(call_text(tool, arguments).splitlines()[:2]).replace("|", "\\|")
        rows.append(f'| "{question}" | `{tool}({shown})` | {first} |')
    return "\n".join(rows)


def catalog_block() -> str:
    from gpusizer.catalog import load_catalog

    catalog = load_catalog(include_user=False)
    providers = len({offer.provider for offer in catalog.offers})
    rows = [
        ("gpus.csv", len(catalog.gpus), "accelerators: memory (marketed and usable), bandwidth, **dense** TFLOPS per format, "
         "TDP, interconnect, aliases, purchase and 8-GPU node prices"),
        ("models.json", len(catalog.models), "open models' architecture from their `config.json` (layers, heads, KV heads, MoE, "
         "MLA, sliding windows)"),
        ("offers.csv", len(catalog.offers), "cloud instances per region: GPUs per instance, on-demand and spot $/hour (the spot "
         f"zone named), country and jurisdiction ({providers} providers)"),
        ("providers.csv", len(catalog.providers), "billing increment and minimum charge per provider; storage $/GB-month, egress "
         "$/GB and free egress where published"),
    ]
    return "\n".join(["| file | rows | what |", "|---|---|---|", *(f"| `{name}` | {count} | {what} |" for name, count, what in rows)])


# The README's worked example: a published 8 x H100 TCO analysis's inputs at their midpoints, no line it leaves out
TCO_EXAMPLE: dict[str, Any] = {"gpu": "h100-sxm", "gpu_count": 8, "purchase_usd_per_gpu": 40_625, "electricity_usd_per_kwh": 0.09,
                               "pue": 1.0, "power_watts_per_gpu": 1275, "colocation_usd_per_kw_month": 200,
                               "residual_fraction": 0.30, "staff_usd_per_year": 0, "maintenance_fraction_per_year": 0,
                               "cost_of_capital": 0}
RENT_QUOTES = {"RunPod": 2.69, "Lambda": 3.99, "AWS": 6.88}  # $/GPU-hour quotes the example sets beside it
FREAKONOMICS_RENTS = (1.65, 2.85)  # Cheah's rent below which an H100 loses money, and the one that beats the market


def rent_block() -> str:
    from gpusizer.catalog import load_catalog
    from gpusizer.tools import rent_vs_buy
    from gpusizer.tools.figures import percent, usd

    catalog = load_catalog(include_user=False)

    def owned(years: float, utilization: float, **more: Any) -> Any:
        return rent_vs_buy(catalog=catalog, years=years, utilization=utilization, **TCO_EXAMPLE, **more)

    busy = owned(3, 0.7).own_usd_per_gpu_hour / 0.7  # per busy GPU-hour: the rent owning has to beat
    shares = " / ".join(percent(owned(3, 0.7, rent_usd_per_gpu_hour=rate).breakeven_utilization) for rate in RENT_QUOTES.values())
    cheah = " and ".join(f"{percent(owned(3, 0.7, rent_usd_per_gpu_hour=rate).breakeven_utilization)} at {usd(rate)}"
                         for rate in FREAKONOMICS_RENTS)
    default = rent_vs_buy("h100", gpu_count=8, utilization=0.7, catalog=catalog)
    reserved = {option.offer_class: usd(option.usd_per_gpu_hour) for option in default.rent_options}
    rows = ["| | gpusizer | the analysis |", "|---|---|---|",
            f"| owned cost per GPU-hour, fully used | {usd(owned(3, 1).own_usd_per_gpu_hour)} over 3 years "
            f"({usd(owned(5, 1).own_usd_per_gpu_hour)} over 5) | \"~$1.20\" |",
            f"| owned cost per busy GPU-hour at 70% use | {usd(busy)} | — |",
            f"| rent at which owning wins at 70% use | above {usd(busy)} | cloud at $3.00-4.50 \"breaks even in 14-18 months\" |",
            f"| break-even utilization at {' / '.join(f'{usd(r)} ({who})' for who, r in RENT_QUOTES.items())} per GPU-hour "
            f"| {shares} | — |"]
    return "\n".join([*rows, "",
                      f"With these inputs gpusizer needs {cheah} (Eugene Cheah's \"H100 Freakonomics\" rents). The default "
                      f"question, `rent_vs_buy(gpu=\"h100\", gpu_count=8, utilization=0.7)`, counts every line with its sourced "
                      f"default: owning costs {usd(default.own_usd_per_gpu_hour)} per owned GPU-hour over 3 years, against "
                      f"{default.rent_offer} on demand ({usd(default.rent_usd_per_gpu_hour)} per GPU-hour) and 1- and 3-year "
                      f"reservations ({reserved.get('reserved_1y', '—')} and {reserved.get('reserved_3y', '—')}) beside it."])


BLOCKS: dict[str, Callable[[], str]] = {"catalog": catalog_block, "ask": ask_block, "mcp": mcp_block, "rent": rent_block}


def marked(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated by docs/readme_examples.py: {name} -->\n)(.*?)(\n<!-- end of {name} -->)", re.S)


def rendered(text: str) -> str:
    for name, block in BLOCKS.items():
        pattern = marked(name)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no '{name}' block markers")
        content = block()
        text = pattern.sub(lambda match: match.group(1) + content + match.group(3), text)  # noqa: B023 - used at once
    return text


def main(argv: list[str]) -> int:
    current = README.read_text()
    wanted = rendered(current)
    if "--check" in argv:
        if wanted != current:
            print("README.md examples differ from what the tools answer: run python docs/readme_examples.py")
            return 1
        return 0
    README.write_text(wanted)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
