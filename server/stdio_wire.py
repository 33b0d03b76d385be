"""stdio with JSON-RPC error replies for lines that are not valid messages.

The SDK's stdio transport drops a malformed line silently; a client then waits forever on a request it
believes was sent. Here such a line gets the JSON-RPC answer (-32700 parse error, or -32600 invalid request
carrying the line's id when it has one) and the server keeps serving.
"""
from __future__ import annotations

import json

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

INVALID_REQUEST = -32600


def error_reply(problem: Exception) -> SessionMessage:
    """The JSON-RPC error for a line the transport could not read as a message."""
    parsed, code, message = offending_value(problem), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"
    if isinstance(parsed, str):
        try:
            parsed = json.loads(parsed)
        except ValueError:
            code, message = types.PARSE_ERROR, "Parse error: the line is not valid JSON"
    request_id = parsed.get("id") if isinstance(parsed, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        request_id = None
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))
    return SessionMessage(error)


def offending_value(problem: Exception):
    errors = problem.errors() if isinstance(problem, ValidationError) else []
    return errors[0].get("input") if errors else None


async def run_stdio(server: MCPServer) -> None:
    lowlevel = server._lowlevel_server  # the same object MCPServer.run_stdio_async drives
    async with stdio_server() as (wire_in, wire_out):
        messages_in, messages = create_context_streams[SessionMessage | Exception](0)

        async def relay() -> None:
            async with messages_in:
                async for item in wire_in:
                    if isinstance(item, Exception):
                        await wire_out.send(error_reply(item))
                    else:
                        await messages_in.send(item)

        async with anyio.create_task_group() as group:
            group.start_soon(relay)
            await lowlevel.run(messages, wire_out, lowlevel.create_initialization_options())
