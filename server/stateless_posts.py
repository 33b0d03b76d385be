"""Stateless POSTs answered in the request's own task, with the SDK's own request kernel and the SDK's exact JSON.

The SDK serves one stateless JSON POST by building a StreamableHTTPServerTransport, starting a server task in the
session manager's task group, a JSONRPCDispatcher over memory streams and a message router, then routing the answer
back through the streams: about 1 ms of CPU per call, more than half of what a tools/call costs besides the tool.
Here the message goes straight to the same kernel the dispatcher calls (mcp.server.runner.serve_one: a born-ready
Connection, the server's middleware, surface validation, the handler, the result sieve), exceptions become the
JSON-RPC errors the dispatcher writes, and the body is the reply serialised as the transport serialises it.

Only the common case is taken: a POST of one valid JSON-RPC message, at a handshake-era protocol version (or none),
whose Accept and Content-Type headers the SDK accepts, read whole in one piece. Anything else (the 2026 era, a header
the SDK refuses, a body that does not parse or validate, a client that went away) goes to the SDK unchanged, so its
answer is the SDK's own. tests/test_server_stateless_posts.py holds both paths to the same bytes.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import anyio
import pydantic_core
from mcp.server.connection import Connection
from mcp.server.runner import ServerRunner, aclose_shielded, serve_one
from mcp.server.streamable_http import CONTENT_TYPE_JSON, check_accept_headers
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.dispatcher import CallOptions
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp.shared.jsonrpc_dispatcher import handler_exception_to_error_data
from mcp.shared.message import MessageMetadata, ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import (
    DEFAULT_NEGOTIATED_VERSION,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    RequestId,
    jsonrpc_message_adapter,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The dispatcher's logger: an unexpected handler exception is logged where the SDK path logs it.
dispatcher_log = logging.getLogger("mcp.shared.jsonrpc_dispatcher")

STATELESS_TRANSPORT = TransportContext(kind="streamable-http", can_send_request=False)  # what the SDK's stateless
# path builds for every message: no session, so a server-to-client request has nowhere for its reply to land


@dataclass
class AnswerOnly:
    """The DispatchContext of a stateless JSON POST. Its body carries the answer alone, so, as in the SDK's
    JSON-response mode, a server-to-client request raises NoBackChannelError and notifications (progress, log
    messages) are dropped."""

    request_id: RequestId | None
    message_metadata: MessageMetadata
    transport: TransportContext = STATELESS_TRANSPORT
    cancel_requested: anyio.Event = field(default_factory=anyio.Event)

    @property
    def can_send_request(self) -> bool:
        return False

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None,
                               opts: CallOptions | None = None) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None) -> None:
        return None

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        return None


def error_data(problem: Exception, method: str) -> ErrorData:
    """The error JSONRPCDispatcher writes for a handler exception (code 0 and the text for an unexpected one, as the
    SDK pins for compatibility)."""
    error = handler_exception_to_error_data(problem)
    if error is None:
        dispatcher_log.exception("handler for %r raised", method)
        error = ErrorData(code=0, message=str(problem))
    return error


def json_response(message: JSONRPCMessage | None, status: int = HTTPStatus.OK) -> Response:
    """StreamableHTTPServerTransport._create_json_response without a session id."""
    body = message.model_dump_json(by_alias=True, exclude_unset=True) if message is not None else None
    return Response(body, status_code=status, headers={"Content-Type": CONTENT_TYPE_JSON})


def takes_json(request: Request) -> bool:
    """The transport's Content-Type test (stricter than the security check's prefix match)."""
    content_type = request.headers.get("content-type", "")
    return any(part.strip() == CONTENT_TYPE_JSON for part in content_type.split(";")[0].split(","))


def one_message(first: Message) -> JSONRPCMessage | None:
    """The one JSON-RPC message of a body that came whole, parsed and validated as the transport does, or None."""
    if first["type"] != "http.request" or first.get("more_body", False):
        return None
    try:
        return jsonrpc_message_adapter.validate_python(pydantic_core.from_json(first.get("body", b"")), by_name=False)
    except ValueError:  # pydantic's ValidationError is a ValueError too
        return None


class StatelessPosts:
    """ASGI middleware in front of the SDK's stateless app: answers the common POST itself (see the module's
    docstring) and hands every other request to the SDK. It sits behind ScreenedBodies, which has already applied the
    SDK's Host, Origin and Content-Type checks and the body's size and time limits."""

    def __init__(self, app: ASGIApp, manager: StreamableHTTPSessionManager):
        self.app, self.manager = app, manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or self.manager._task_group is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        version = request.headers.get(MCP_PROTOCOL_VERSION_HEADER)
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS \
                or not check_accept_headers(request)[0] or not takes_json(request):
            await self.app(scope, receive, send)
            return
        first = await receive()
        replay = [first]

        async def replayed() -> Message:  # the body again, for the SDK or for a handler reading its request
            return replay.pop() if replay else await receive()

        message = one_message(first)
        if message is None:
            await self.app(scope, replayed, send)
            return
        request = Request(scope, replayed)
        protocol_version = version if version is not None else DEFAULT_NEGOTIATED_VERSION
        if isinstance(message, JSONRPCRequest):
            await json_response(await self.answer(message, request, protocol_version))(scope, receive, send)
            return
        await json_response(None, HTTPStatus.ACCEPTED)(scope, receive, send)
        if isinstance(message, JSONRPCNotification):  # processed after the 202, as the transport does
            await self.notified(message, request, protocol_version)

    async def answer(self, message: JSONRPCRequest, request: Request, protocol_version: str) -> JSONRPCMessage:
        """What JSONRPCDispatcher._handle_request writes for the request, from serve_one (ServerRunner.on_request)."""
        context = AnswerOnly(message.id, ServerMessageMetadata(request_context=request, can_send_request=False))
        connection = Connection.from_envelope(protocol_version, None, None)
        try:
            result = await serve_one(self.manager.app, context, message.method, message.params,
                                     connection=connection, lifespan_state=self.manager._lifespan_state)
        except Exception as problem:  # noqa: BLE001 - every handler failure is an answer, as in the dispatcher
            return JSONRPCError(jsonrpc="2.0", id=message.id, error=error_data(problem, message.method))
        return JSONRPCResponse(jsonrpc="2.0", id=message.id, result=result)

    async def notified(self, message: JSONRPCNotification, request: Request, protocol_version: str) -> None:
        context = AnswerOnly(None, ServerMessageMetadata(request_context=request, can_send_request=False))
        connection = Connection.from_envelope(protocol_version, None, None)
        runner = ServerRunner(self.manager.app, connection, self.manager._lifespan_state)
        try:
            await runner.on_notify(context, message.method, message.params)
        finally:
            await aclose_shielded(connection)
