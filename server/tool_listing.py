"""tools/list without importing the calculators: the listing the tools declare, saved beside this module.

A client's first requests after starting the server are initialize and tools/list; answering the list from this file
lets the server register the calculators (gpusizer.tools: imports and pydantic schema building, a quarter of a
second) after the list has gone out. `python -m gpusizer.server.saved_listing` rewrites the file; `--check` exits 1
when it differs from what the tools declare (tests/test_server_tools.py runs the same comparison).
"""
from __future__ import annotations

import json
from pathlib import Path

from mcp.types import Tool

LISTING = Path(__file__).with_name("tool_listing.json")


def saved_tools() -> list[Tool] | None:
    """The saved listing, or None where there is none (the server then registers the tools before listing them)."""
    try:
        text = LISTING.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return [Tool.model_validate(tool) for tool in json.loads(text)]


def listing_text(tools: list[Tool]) -> str:
    return json.dumps([tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools], indent=1,
                      ensure_ascii=False) + "\n"
