"""stdio that answers every line: JSON-RPC errors for what is not a valid message, and it never dies of a line.

The SDK's stdio transport drops a malformed line silently (a client then waits forever), reads a request whose id
is null, a float or an object as a notification (no reply at all), and a line nested ~1,000 levels deep crashed
this relay. Here every line is screened before the SDK sees it: a line that is not JSON (or not UTF-8) gets -32700,
a request whose id is not a string or an integer gets -32600 (MCP forbids null ids), a number longer than the JSON
parsers read gets -32602, anything else the SDK cannot read gets -32600 with the line's id when it has a usable one,
and the server keeps serving. At end of input the requests still in flight are answered before it exits.
"""
from __future__ import annotations

import io
import json
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
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
MAX_NUMBER_CHARACTERS = 4300  # Python's int-string limit, and about where pydantic-core's JSON parser stops too
DRAIN_SECONDS = 60.0  # at end of input, how long the answers still in flight may take before the server exits


def reply(request_id: Any, code: int, message: str) -> SessionMessage:
    usable = request_id if isinstance(request_id, (int, str)) and not isinstance(request_id, bool) else None
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=usable, error=types.ErrorData(code=code, message=message)))


def parse_json(text: str) -> tuple[Any, int]:
    """The text's JSON value, and the length of its longest number past MAX_NUMBER_CHARACTERS (0 when none: such a
    number is read as None, so a 5,000-digit integer costs no quadratic conversion and is answered as invalid params)."""
    too_long: list[int] = []

    def number(kind: Callable[[str], Any]) -> Callable[[str], Any]:
        def parse(digits: str) -> Any:
            if len(digits) > MAX_NUMBER_CHARACTERS:
                too_long.append(len(digits))
                return None
            return kind(digits)
        return parse

    parsed = json.loads(text, parse_int=number(int), parse_float=number(float))
    return parsed, max(too_long, default=0)


def is_utf8(text: str) -> bool:
    """False for a line read with errors="surrogateescape" that held bytes which are not UTF-8 (they became lone
    surrogates); such a line was read as U+FFFD before, so 'Llama-3.1-8B\\xff' silently named Llama-3.1-8B."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def inspect(text: str) -> tuple[SessionMessage | None, Any]:
    """The error reply a raw message deserves before the SDK reads it and None, or None and its JSON to pass it on."""
    if len(text) > MAX_LINE_CHARACTERS:
        return reply(None, INVALID_REQUEST, f"Invalid Request: a line of {len(text):,} characters (at most {MAX_LINE_CHARACTERS:,})"), None
    if not is_utf8(text):
        return reply(None, types.PARSE_ERROR, "Parse error: the message is not valid UTF-8"), None
    try:
        parsed, long_number = parse_json(text)
    except (ValueError, RecursionError):
        return reply(None, types.PARSE_ERROR, "Parse error: not valid JSON (or nested too deeply)"), None
    request_id = parsed.get("id") if isinstance(parsed, dict) else None
    if isinstance(parsed, dict) and "method" in parsed and "id" in parsed:
        if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
            return reply(None, INVALID_REQUEST, "Invalid Request: the id must be a string or an integer (MCP forbids null)"), None
    if long_number:
        return reply(request_id, types.INVALID_PARAMS, f"Invalid params: a number of {long_number:,} characters "
                     f"(at most {MAX_NUMBER_CHARACTERS:,})"), None
    try:
        types.jsonrpc_message_adapter.validate_python(parsed, by_name=False)
    except Exception:  # noqa: BLE001 - any shape the SDK cannot read is an invalid request, answered with its id
        return reply(request_id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"), None
    return None, parsed


def screen(line: str) -> SessionMessage | None:
    """The error reply a raw line deserves before the SDK reads it, or None to pass it on."""
    return inspect(line)[0]


class InFlight:
    """The requests passed to the server and not answered yet, so that end of input waits for their answers."""

    def __init__(self) -> None:
        self.open: Counter[tuple[str, Any]] = Counter()
        self.idle = anyio.Event()
        self.idle.set()

    @staticmethod
    def key(request_id: Any) -> tuple[str, Any]:
        return type(request_id).__name__, request_id  # 1 and "1" are two ids

    def started(self, request_id: Any) -> None:
        self.open[self.key(request_id)] += 1
        if self.idle.is_set():
            self.idle = anyio.Event()

    def finished(self, request_id: Any) -> None:
        key = self.key(request_id)
        if self.open[key] > 1:
            self.open[key] -= 1
        else:
            self.open.pop(key, None)
        if not self.open:
            self.idle.set()

    def passed_on(self, message: Any) -> None:
        """Count a request the server will answer; a cancelled one will not be answered (MCP says so)."""
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            return
        if "id" in message:
            self.started(message["id"])
        elif message["method"] == "notifications/cancelled" and isinstance(message.get("params"), dict):
            cancelled = message["params"].get("requestId")
            if isinstance(cancelled, (int, str)):
                self.finished(cancelled)

    def answered(self, message: SessionMessage) -> None:
        if isinstance(message.message, (types.JSONRPCResponse, types.JSONRPCError)) and isinstance(message.message.id, (int, str)):
            self.finished(message.message.id)

    async def drained(self, seconds: float) -> None:
        with anyio.move_on_after(seconds):
            while self.open:
                await self.idle.wait()


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
    """stdin as the SDK reads it, minus the lines `screen` answered (their replies go to `replies`); at end of input it
    ends only once the requests in flight are answered (or after DRAIN_SECONDS), as the SDK cancels them when it ends."""

    def __init__(self, source: Any, replies: MemoryObjectSendStream[SessionMessage], in_flight: InFlight):
        self.source, self.replies, self.in_flight = source, replies, in_flight

    def __aiter__(self) -> AsyncIterator[str]:
        return self.lines()

    async def lines(self) -> AsyncIterator[str]:
        async with self.replies:
            async for line in self.source:
                if not line.strip():
                    continue
                answer, message = inspect(line)
                if answer is not None:
                    await self.replies.send(answer)
                else:
                    self.in_flight.passed_on(message)
                    yield line
            await self.in_flight.drained(DRAIN_SECONDS)


async def run_stdio(server: MCPServer, stdin: Any = None, stdout: Any = None) -> None:
    lowlevel = server._lowlevel_server  # the same object MCPServer.run_stdio_async drives
    # surrogateescape, not replace: bytes that are not UTF-8 reach `screen` as such and get -32700
    raw_in = stdin or anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape"))
    replies_in, replies_out = anyio.create_memory_object_stream[SessionMessage](64)
    in_flight = InFlight()
    screened = cast(Any, ScreenedLines(raw_in, replies_in, in_flight))  # the SDK only iterates it, as it iterates a file
    async with stdio_server(stdin=screened, stdout=stdout) as (wire_in, wire_out):
        messages_in, messages = create_context_streams[SessionMessage | Exception](0)
        # The server writes to its own stream: the wire stays open until the screened lines' replies are out too.
        server_out, from_server = create_context_streams[SessionMessage](0)

        async def send(message: SessionMessage) -> None:
            await wire_out.send(message)
            in_flight.answered(message)

        async def relay() -> None:
            async with messages_in:
                async for item in wire_in:
                    if isinstance(item, Exception):
                        await send(error_reply(item))
                    else:
                        await messages_in.send(item)

        async def forward(source: Any) -> None:
            async with source:
                async for message in source:
                    await send(message)

        async with wire_out, anyio.create_task_group() as group:  # the SDK's writer ends when wire_out closes
            group.start_soon(relay)
            group.start_soon(forward, replies_out)
            group.start_soon(forward, from_server)
            async with server_out:
                await lowlevel.run(messages, server_out, lowlevel.create_initialization_options())
