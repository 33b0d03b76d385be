"""A tool's result is converted once (server/tool_results.py: converted) into exactly what the SDK's conversion and then the
answer text made of it: the same structuredContent, the same answer, the same errors."""
import json
from pathlib import Path

import pytest
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from gpusizer.server.app import create_server
from gpusizer.server.tool_results import answered, readable

CALLS = json.loads((Path(__file__).parent / "data" / "mcp_answer_calls.json").read_text())["calls"]
FAILING = [
    {"tool": "estimate_vram", "arguments": {"model": "no such model"}},
    {"tool": "estimate_vram", "arguments": {}},
    {"tool": "estimate_vram", "arguments": {"model": "llama 8b", "batch_size": 0}},
    {"tool": "rent_vs_buy", "arguments": {"gpu": "h100", "utilization": 1.5, "years": -1}},
    {"tool": "cloud_cost", "arguments": {"gpu": "H10", "hours": 5}},
    {"tool": "compare_gpus", "arguments": {"gpus": "h100"}},
]


def label(call: dict) -> str:
    return f"{call['tool']}:" + ",".join(f"{k}={v}" for k, v in call["arguments"].items())[:60]


async def outcome(call) -> dict:
    try:
        return (await call()).model_dump(mode="json", by_alias=True)
    except ToolError as error:
        return {"ToolError": str(error)}


@pytest.mark.parametrize("call", CALLS + FAILING, ids=label)
async def test_a_result_converted_once_is_what_the_sdk_and_the_answer_made_of_it(catalog, call):
    server = create_server(catalog)
    server.register_tools()
    name, arguments = call["tool"], call["arguments"]

    async def sdk_then_answer():
        try:
            return answered(await MCPServer.call_tool(server, name, arguments), name)
        except ToolError as error:
            raise readable(error, name) from error

    assert await outcome(lambda: server.call_tool(name, arguments)) == await outcome(sdk_then_answer)
