"""stdio that answers every line: JSON-RPC errors for what is not a valid message, and it never dies of a line.

The SDK's stdio transport drops a malformed line silently (a client then waits forever), reads a request whose id
is null, a float or an object as a notification (no reply at all), and a line nested ~1,000 levels deep crashed
this relay. Here every line is screened before the SDK sees it: a line that is not JSON gets -32700, a request whose
id is not a string or an integer gets -32600 (MCP forbids null ids), anything else the SDK cannot read gets -32600
with the line's id when it has a usable one, and the server keeps serving.
"""
from __future__ import annotations

import io
import json
import sys
from collections.abc import AsyncIterator
from typing import Any, cast

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

INVALID_REQUEST = -32600
MAX_LINE_CHARACTERS = 16 * 2**20  # a tool call is a few hundred bytes; 16 MB leaves room for any honest client


def reply(request_id: Any, code: int, message: str) -> SessionMessage:
    usable = request_id if isinstance(request_id, (int, str)) and not isinstance(request_id, bool) else None
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=usable, error=types.ErrorData(code=code, message=message)))


def screen(line: str) -> SessionMessage | None:
    """The error reply a raw line deserves before the SDK reads it, or None to pass it on."""
    if len(line) > MAX_LINE_CHARACTERS:
        return reply(None, INVALID_REQUEST, f"Invalid Request: a line of {len(line):,} characters (at most {MAX_LINE_CHARACTERS:,})")
    try:
        parsed = json.loads(line)
    except (ValueError, RecursionError):
        return reply(None, types.PARSE_ERROR, "Parse error: the line is not valid JSON (or is nested too deeply)")
    if isinstance(parsed, dict) and "method" in parsed and "id" in parsed:
        request_id = parsed["id"]
        if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
            return reply(None, INVALID_REQUEST, "Invalid Request: the id must be a string or an integer (MCP forbids null)")
    try:
        types.jsonrpc_message_adapter.validate_python(parsed, by_name=False)
    except Exception:  # noqa: BLE001 - any shape the SDK cannot read is an invalid request, answered with its id
        return reply(parsed.get("id") if isinstance(parsed, dict) else None, INVALID_REQUEST,
                     "Invalid Request: not a JSON-RPC 2.0 message")
    return None


def error_reply(problem: Exception) -> SessionMessage:
    """The JSON-RPC error for a line the SDK could not read as a message (it passed json.loads in `screen`)."""
    parsed = offending_value(problem)
    try:
        parsed = json.loads(parsed) if isinstance(parsed, str) else parsed
    except (ValueError, RecursionError):
        return reply(None, types.PARSE_ERROR, "Parse error: the line is not valid JSON")
    request_id = parsed.get("id") if isinstance(parsed, dict) else None
    return reply(request_id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


def offending_value(problem: Exception) -> Any:
    try:
        errors = problem.errors() if isinstance(problem, ValidationError) else []
    except Exception:  # noqa: BLE001 - reading a broken error must not end the relay
        return None
    return errors[0].get("input") if errors else None


class ScreenedLines:
    """stdin as the SDK reads it, minus the lines `screen` answered (their replies go to `replies`)."""

    def __init__(self, source: Any, replies: MemoryObjectSendStream[SessionMessage]):
        self.source, self.replies = source, replies

    def __aiter__(self) -> AsyncIterator[str]:
        return self.lines()

    async def lines(self) -> AsyncIterator[str]:
        async with self.replies:
            async for line in self.source:
                if not line.strip():
                    continue
                answer = screen(line)
                if answer is None:
                    yield line
                else:
                    await self.replies.send(answer)


async def run_stdio(server: MCPServer, stdin: Any = None, stdout: Any = None) -> None:
    lowlevel = server._lowlevel_server  # the same object MCPServer.run_stdio_async drives
    raw_in = stdin or anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    replies_in, replies_out = anyio.create_memory_object_stream[SessionMessage](64)
    screened = cast(Any, ScreenedLines(raw_in, replies_in))  # the SDK only iterates it, as it iterates a file
    async with stdio_server(stdin=screened, stdout=stdout) as (wire_in, wire_out):
        messages_in, messages = create_context_streams[SessionMessage | Exception](0)
        # The server writes to its own stream: the wire stays open until the screened lines' replies are out too.
        server_out, from_server = create_context_streams[SessionMessage](0)

        async def relay() -> None:
            async with messages_in:
                async for item in wire_in:
                    if isinstance(item, Exception):
                        await wire_out.send(error_reply(item))
                    else:
                        await messages_in.send(item)

        async def forward(source: Any) -> None:
            async with source:
                async for message in source:
                    await wire_out.send(message)

        async with wire_out, anyio.create_task_group() as group:  # the SDK's writer ends when wire_out closes
            group.start_soon(relay)
            group.start_soon(forward, replies_out)
            group.start_soon(forward, from_server)
            async with server_out:
                await lowlevel.run(messages, server_out, lowlevel.create_initialization_options())
