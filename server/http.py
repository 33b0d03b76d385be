"""Streamable HTTP: loopback by default with DNS-rebinding protection; other interfaces need allowed hosts and a token."""
from __future__ import annotations

import hmac
import ipaddress
import json
from dataclasses import dataclass

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

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
    origins = [f"http://{h}" for h in hosts] + [f"https://{h}" for h in hosts]
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
    behind any load balancer serve it. Stateful (the default, what most clients expect): at most max_sessions open
    sessions, each closed after idle_timeout_s without a request."""
    stateless: bool = False
    max_sessions: int = 256
    idle_timeout_s: float = 900.0


BODY_LIMIT_BYTES = 2**20  # a request gpusizer answers is a few hundred bytes (names <= 200 characters, lists <= 50): past a
# MiB it is refused with 413 before it is read or parsed, so a flood of large bodies costs the other clients nothing


def http_app(server: MCPServer, host: str, port: int, allowed_hosts: list[str], token: str | None,
             options: HttpOptions = HttpOptions()) -> ASGIApp:
    app = server.streamable_http_app(transport_security=security_settings(host, port, allowed_hosts), host=host,
                                     max_request_body_size=BODY_LIMIT_BYTES,
                                     stateless_http=options.stateless,
                                     max_sessions=None if options.stateless else options.max_sessions,
                                     session_idle_timeout=None if options.stateless else options.idle_timeout_s)
    return BearerTokenGate(app, token) if token else app


async def serve_http(server: MCPServer, host: str, port: int, allowed_hosts: list[str], token: str | None,
                     options: HttpOptions = HttpOptions()) -> None:
    import uvicorn

    app = http_app(server, host, port, allowed_hosts, token, options)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()
