"""Streamable HTTP: loopback by default with DNS-rebinding protection; other interfaces need allowed hosts and a token.

Hostile clients meet the same answers as on stdio (a body that is not one valid JSON-RPC message gets its JSON-RPC
error, never a 202 and silence), deadlines for headers and bodies, GET streams that end, and a full session table
that makes room (the least recently used idle session of the client holding the most goes) instead of refusing.
"""
from __future__ import annotations

import gc
import hmac
import ipaddress
import json
import os
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server.auth.middleware.bearer_auth import AuthorizationContext
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http import GET_STREAM_KEY, MCP_SESSION_ID_HEADER, StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .http_connections import HEADER_TIMEOUT_S, HeaderDeadline
from .stateless_posts import StatelessPosts
from .stdio_wire import inspect
from .worker_sockets import REUSE_PORT, WorkerSockets

if TYPE_CHECKING:
    import uvicorn

LOOPBACK_NAMES = {"localhost"}
TOKEN_VARIABLE = "GPUSIZER_MCP_TOKEN"


def is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure_problem(host: str, allowed_hosts: list[str], token: str | None) -> str | None:
    """Why serving on `host` would be unsafe, or None."""
    if is_loopback(host):
        return None
    missing = []
    if not allowed_hosts:
        missing.append("--allowed-host NAME[:PORT] (the Host header clients will send; repeatable)")
    if not token:
        missing.append(f"a bearer token in the {TOKEN_VARIABLE} environment variable")
    if missing:
        return f"refusing to serve on non-loopback interface {host}: also give " + " and ".join(missing)
    return None


def security_settings(host: str, port: int, allowed_hosts: list[str]) -> TransportSecuritySettings:
    """DNS-rebinding protection always on: loopback names by default, the interface it serves on (127.0.0.2 is
    loopback too), plus the hosts the operator named."""
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    if is_loopback(host) and f"{host}:*" not in hosts:
        hosts.append(f"[{host.strip('[]')}]:*" if ":" in host.strip("[]") else f"{host}:*")
    for name in allowed_hosts:
        has_port = ":" in name.rsplit("]", 1)[-1]
        hosts += [name] if has_port else [name, f"{name}:{port}", f"{name}:*"]
    # A browser page's Origin is its own scheme, host and port: a page served from another local port (any dev server
    # or local app) is another site, so loopback origins are this server's port only; named hosts keep theirs.
    served = [h.replace(":*", f":{port}") if port else h for h in hosts]
    origins = [f"http://{h}" for h in served] + [f"https://{h}" for h in served]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


class BearerTokenGate:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>` (the scheme is case-insensitive,
    as RFC 7235 says; the token is compared in constant time)."""

    def __init__(self, app: ASGIApp, token: str):
        self.app, self.expected = app, token.encode()

    def accepts(self, header: bytes) -> bool:
        scheme, _, token = header.strip().partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(token.strip(), self.expected)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not self.accepts(given):
                body = json.dumps({"error": "missing or wrong bearer token"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


@dataclass(frozen=True)
class HttpOptions:
    """How sessions are kept. Stateless: every request stands alone (the tools are pure functions), so replicas
    behind any load balancer serve it, and each answer is one JSON body (no SSE stream: a stateless request has nothing
    to stream besides its answer). Stateful (the default, what most clients expect): at most max_sessions open
    sessions, each closed after idle_timeout_s without a request; a new one past max_sessions closes the least recently
    used idle session (of the client holding the most) instead of being refused. A GET stream ends after
    stream_lifetime_s (clients reconnect); headers and a body must arrive within header_timeout_s and body_timeout_s.
    workers > 1: that many processes share the port, which implies stateless (a session lives in one process, and
    the kernel hands each connection to any of them)."""
    stateless: bool = False
    max_sessions: int = 256
    idle_timeout_s: float = 900.0
    stream_lifetime_s: float = 300.0
    header_timeout_s: float = HEADER_TIMEOUT_S
    body_timeout_s: float = 10.0
    workers: int = 1

    def __post_init__(self) -> None:
        if self.workers > 1:
            object.__setattr__(self, "stateless", True)


BODY_LIMIT_BYTES = 2**20  # a request gpusizer answers is a few hundred bytes (names <= 200 characters, lists <= 50): past a
# MiB it is refused with 413 before it is read or parsed, so a flood of large bodies costs the other clients nothing


def json_response(status: int, body: str | bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def rpc_error(status: int, code: int, message: str) -> Response:
    return json_response(status, json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}))


class ScreenedBodies:
    """ASGI middleware for POSTs: the SDK's own Host/Origin/Content-Type checks first, then the body read within a
    deadline and at most BODY_LIMIT_BYTES, then screened as stdio screens a line: a batch, a request whose id is null,
    a float, a bool, an object or a list, a number too long to read, text that is not UTF-8 or JSON get the JSON-RPC
    error stdio gives, with status 400 (the SDK answered such ids 202 and never replied, and a batch -32602 with a
    pydantic dump). A message that passes reaches the SDK with its body replayed."""

    def __init__(self, app: ASGIApp, security: TransportSecuritySettings, body_timeout_s: float):
        self.app, self.security, self.body_timeout_s = app, TransportSecurityMiddleware(security), body_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        refusal = await self.security.validate_request(Request(scope), is_post=True)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > BODY_LIMIT_BYTES:
            await rpc_error(413, -32600, f"Request body too large (at most {BODY_LIMIT_BYTES:,} bytes)")(scope, receive, send)
            return
        body = bytearray()
        trailing: list[Message] = []
        with anyio.move_on_after(self.body_timeout_s) as deadline:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    trailing.append(message)  # the client went away: the SDK sees it as it would have
                    break
                body += message.get("body", b"")
                if len(body) > BODY_LIMIT_BYTES:
                    await rpc_error(413, -32600, f"Request body too large (at most {BODY_LIMIT_BYTES:,} bytes)")(
                        scope, receive, send)
                    return
                if not message.get("more_body", False):
                    break
        if deadline.cancelled_caught:
            await rpc_error(408, -32600, f"Request body not received within {self.body_timeout_s:g} s")(scope, receive, send)
            return
        if not trailing:
            answer, _ = inspect(bytes(body).decode("utf-8", errors="surrogateescape"))
            if answer is not None:
                text = answer.message.model_dump_json(by_alias=True, exclude_unset=True)
                await json_response(400, text)(scope, receive, send)
                return
        replay: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": False}, *trailing]

        async def replayed() -> Message:
            return replay.pop(0) if replay else await receive()

        await self.app(scope, replayed, send)


class BoundedStreams:
    """ASGI middleware for GET /mcp: stateless mode offers no stream (405, as the spec allows: the SDK held it open
    forever with nothing to send); a stateful GET stream ends cleanly after `lifetime_s` (the client reconnects)."""

    def __init__(self, app: ASGIApp, stateless: bool, lifetime_s: float):
        self.app, self.stateless, self.lifetime_s = app, stateless, lifetime_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        if self.stateless:
            await rpc_error(405, -32600, "Method Not Allowed: a stateless server offers no GET stream; POST requests")(
                scope, receive, send)
            return
        state = {"started": False, "ended": False}

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                state["ended"] = True
            await send(message)

        with anyio.move_on_after(self.lifetime_s):
            await self.app(scope, receive, watched)
        if state["started"] and not state["ended"]:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


class FairSessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager, except that a new session past max_sessions closes an idle one instead of getting
    503 (256 initializes without DELETE locked every new client out for up to the idle timeout): among the sessions
    with no request in flight (an open GET stream does not count), one of the client address holding the most, the
    least recently used first. A session still opening is never chosen; when every session is busy it is still 503."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._clients: dict[str, str] = {}
        self._last_used: dict[str, float] = {}
        self._opening: set[str] = set()

    async def _handle_stateful_request(self, scope: Scope, receive: Receive, send: Send) -> None:
        session_id = Headers(scope=scope).get(MCP_SESSION_ID_HEADER)
        if session_id is not None and session_id in self._last_used:
            self._last_used[session_id] = anyio.current_time()
        await super()._handle_stateful_request(scope, receive, send)

    def _admit_session(self, requestor: AuthorizationContext | None) -> StreamableHTTPServerTransport | None:
        if self.max_sessions is not None and len(self._server_instances) >= self.max_sessions:
            self._close_one_idle_session()
        transport = super()._admit_session(requestor)
        if transport is not None and transport.mcp_session_id is not None:
            self._opening.add(transport.mcp_session_id)
            self._last_used[transport.mcp_session_id] = anyio.current_time()
        return transport

    async def _serve_opening_request(self, http_transport: StreamableHTTPServerTransport, scope: Scope,
                                     receive: Receive, send: Send) -> None:
        session_id = http_transport.mcp_session_id or ""
        client = scope.get("client")
        self._clients[session_id] = str(client[0]) if client else ""
        try:
            await super()._serve_opening_request(http_transport, scope, receive, send)
        finally:
            self._opening.discard(session_id)

    async def _discard_session(self, session_id: str, transport: StreamableHTTPServerTransport) -> None:
        self._forget(session_id)
        await super()._discard_session(session_id, transport)

    def _forget(self, session_id: str) -> None:
        self._clients.pop(session_id, None)
        self._last_used.pop(session_id, None)
        self._opening.discard(session_id)

    def _close_one_idle_session(self) -> None:
        held = Counter(self._clients.get(session_id, "") for session_id in self._server_instances)
        idle = [(-held[self._clients.get(session_id, "")], self._last_used.get(session_id, 0.0), session_id)
                for session_id, transport in self._server_instances.items()
                if session_id not in self._opening and not busy(transport)]
        if not idle or self._task_group is None:
            return
        session_id = min(idle)[2]
        transport = self._server_instances.pop(session_id)  # forgotten now: room for the new session at once
        self._session_owners.pop(session_id, None)
        self._forget(session_id)
        self._task_group.start_soon(self._discard_session, session_id, transport)


def busy(transport: StreamableHTTPServerTransport) -> bool:
    """A request is being served on it (its standalone GET stream, if open, does not count)."""
    in_flight = transport._requests_in_flight - (1 if GET_STREAM_KEY in transport._request_streams else 0)
    return in_flight > 0


def http_app(server: MCPServer, host: str, port: int, allowed_hosts: list[str], token: str | None,
             options: HttpOptions = HttpOptions(), *, answer_in_process: bool = True) -> ASGIApp:
    """The SDK's streamable HTTP app (as MCPServer.streamable_http_app builds it, without auth routes, which gpusizer
    does not use) with FairSessionManager, GET streams bounded and bodies screened. Stateless, the common POST is
    answered in process by StatelessPosts (the SDK's kernel without its per-request transport); answer_in_process=False
    leaves every request to the SDK (tests compare the two)."""
    security = security_settings(host, port, allowed_hosts)
    manager = FairSessionManager(app=server._lowlevel_server, stateless=options.stateless, security_settings=security,
                                 json_response=options.stateless,
                                 max_request_body_size=BODY_LIMIT_BYTES,
                                 max_sessions=None if options.stateless else options.max_sessions,
                                 session_idle_timeout=None if options.stateless else options.idle_timeout_s)
    sdk: ASGIApp = StreamableHTTPASGIApp(manager)
    if options.stateless and answer_in_process:
        sdk = StatelessPosts(sdk, manager)
    endpoint = BoundedStreams(ScreenedBodies(sdk, security, options.body_timeout_s), options.stateless,
                              options.stream_lifetime_s)
    app: ASGIApp = Starlette(routes=[Route("/mcp", endpoint=endpoint)], lifespan=lambda app: manager.run())
    return BearerTokenGate(app, token) if token else app


def uvicorn_config(app: ASGIApp | str, host: str, port: int, options: HttpOptions, **extra: Any) -> uvicorn.Config:
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on", http=HeaderDeadline,
                            timeout_keep_alive=5, access_log=False, **extra)  # a line per request nobody reads
    config.header_timeout_s = options.header_timeout_s  # type: ignore[attr-defined]  # read by HeaderDeadline.arm
    return config


def http_config(server: MCPServer, host: str, port: int, allowed_hosts: list[str], token: str | None,
                options: HttpOptions = HttpOptions()) -> uvicorn.Config:
    return uvicorn_config(http_app(server, host, port, allowed_hosts, token, options), host, port, options)


async def serve_http(server: MCPServer, host: str, port: int, allowed_hosts: list[str], token: str | None,
                     options: HttpOptions = HttpOptions()) -> None:
    import uvicorn

    await uvicorn.Server(http_config(server, host, port, allowed_hosts, token, options)).serve()


WORKER_VARIABLE = "GPUSIZER_MCP_WORKER"  # how the supervisor hands host, port and options to its worker processes


def serve_workers(host: str, port: int, allowed_hosts: list[str], options: HttpOptions) -> None:
    """options.workers processes (uvicorn's supervisor: it restarts a worker that dies, and stops them all on
    SIGINT/SIGTERM), each building its own stateless server with worker_app and listening on its own socket
    (worker_sockets: the kernel spreads connections evenly). They share nothing: a request is served whole by
    whichever process the kernel handed its connection to."""
    from uvicorn.supervisors import Multiprocess

    os.environ[WORKER_VARIABLE] = json.dumps({"host": host, "port": port, "allowed_hosts": allowed_hosts,
                                              "options": vars(options)})
    config = uvicorn_config("gpusizer.server.http:worker_app", host, port, options, factory=True, workers=options.workers)
    try:
        listening = WorkerSockets.reserve(host, port) if REUSE_PORT is not None else config.bind_socket()
    except OSError as error:
        raise SystemExit(f"gpusizer-mcp: cannot serve on {host}:{port}: {error.strerror}") from None
    Multiprocess(config, sockets=[listening]).run()


def worker_app() -> ASGIApp:
    """One worker's app (uvicorn calls it in each process, before the worker listens): the server and the token built
    there, from the same environment as the supervisor's, with the tools registered and the catalog loaded first. A
    worker that left them to its first call (as a stdio server does, for a quick start) kept the first clients the
    kernel handed it waiting about a second."""
    from gpusizer.settings import settings

    from .app import create_server, default_catalog

    handed = json.loads(os.environ[WORKER_VARIABLE])
    options = HttpOptions(**handed["options"])
    server = create_server()
    server.register_tools()
    default_catalog()
    app = http_app(server, handed["host"], handed["port"], handed["allowed_hosts"], settings().mcp_token, options)
    gc.freeze()  # the catalog and the tools live as long as the worker: full collections need not walk them again
    return app
