"""Streamable HTTP: loopback by default with DNS-rebinding protection; other interfaces need allowed hosts and a token."""
from __future__ import annotations

import hmac
import ipaddress
import json

from mcp.server.transport_security import TransportSecuritySettings

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
    """DNS-rebinding protection always on: loopback names by default, plus the hosts the operator named."""
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    for name in allowed_hosts:
        has_port = ":" in name.rsplit("]", 1)[-1]
        hosts += [name] if has_port else [name, f"{name}:{port}", f"{name}:*"]
    origins = [f"http://{h}" for h in hosts] + [f"https://{h}" for h in hosts]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


class BearerTokenGate:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>` (compared in constant time)."""

    def __init__(self, app, token: str):
        self.app, self.expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = json.dumps({"error": "missing or wrong bearer token"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server, host: str, port: int, allowed_hosts: list[str], token: str | None):
    app = server.streamable_http_app(transport_security=security_settings(host, port, allowed_hosts), host=host)
    return BearerTokenGate(app, token) if token else app


async def serve_http(server, host: str, port: int, allowed_hosts: list[str], token: str | None) -> None:
    import uvicorn

    app = http_app(server, host, port, allowed_hosts, token)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve()
