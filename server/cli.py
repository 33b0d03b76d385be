"""`gpusizer-mcp`: serve the MCP server over stdio (default) or streamable HTTP."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

Number = TypeVar("Number", int, float)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gpusizer-mcp", description="gpusizer's MCP server: GPU sizing and cost tools "
                                     "for AI assistants. Serves stdio unless --http is given.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP at /mcp instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind with --http (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port with --http (default 8000)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME[:PORT]",
                        help="a Host header to accept besides loopback names (required for a non-loopback --host)")
    parser.add_argument("--stateless", action="store_true",
                        help="with --http: no sessions, every request stands alone and is answered with one JSON body "
                        "(replicas behind a load balancer)")
    parser.add_argument("--workers", type=positive(int), default=1, metavar="N",
                        help="with --http: N processes share the port, so one machine uses every core (try one per core); "
                        "more than one implies --stateless, since a session lives in one process")
    parser.add_argument("--max-sessions", type=positive(int), default=256, metavar="N",
                        help="with --http: open sessions at most (default 256); past that a new one closes the least "
                        "recently used idle session")
    parser.add_argument("--session-idle-timeout", type=positive(float), default=900.0, metavar="SECONDS",
                        help="with --http: close a session after this long without a request (default 900)")
    return parser.parse_args(argv)


def positive(kind: Callable[[str], Number]) -> Callable[[str], Number]:
    def parse(text: str) -> Number:
        value = kind(text)
        if not 0 < value < 1e9:
            raise argparse.ArgumentTypeError(f"must be positive (got {text})")
        return value
    return parse


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    # Imported after parsing so --help and argument errors stay instant; the HTTP transport only with --http.
    import anyio

    from gpusizer.catalog import SizingError
    from gpusizer.settings import ConfigError, settings

    from .app import create_server

    try:
        token = settings().mcp_token  # a wrong setting stops here, with its variable named, not mid-session
        server = create_server()
    except (ConfigError, SizingError) as error:
        print(f"gpusizer-mcp: {error}", file=sys.stderr)
        return 2
    if not arguments.http:
        from .stdio_wire import run_stdio

        anyio.run(run_stdio, server)
        return 0
    return serve(arguments, server, token)


def serve(arguments: argparse.Namespace, server: MCPServer, token: str | None) -> int:
    import anyio

    from .http import HttpOptions, exposure_problem, serve_http, serve_workers

    problem = exposure_problem(arguments.host, arguments.allowed_host, token)
    if problem:
        print(f"gpusizer-mcp: {problem}", file=sys.stderr)
        return 2
    options = HttpOptions(arguments.stateless, arguments.max_sessions, arguments.session_idle_timeout,
                          workers=arguments.workers)
    print(f"gpusizer-mcp: serving streamable HTTP at http://{arguments.host}:{arguments.port}/mcp"
          + (" (bearer token required)" if token else "")
          + (f" with {options.workers} stateless workers" if options.workers > 1 else
             " (stateless)" if options.stateless else ""), file=sys.stderr)
    try:
        if options.workers > 1:
            serve_workers(arguments.host, arguments.port, arguments.allowed_host, options)
        else:
            anyio.run(serve_http, server, arguments.host, arguments.port, arguments.allowed_host, token, options)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
