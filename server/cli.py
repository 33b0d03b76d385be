"""`gpusizer-mcp`: serve the MCP server over stdio (default) or streamable HTTP."""
from __future__ import annotations

import argparse
import os
import sys


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gpusizer-mcp", description="gpusizer's MCP server: GPU sizing and cost tools "
                                     "for AI assistants. Serves stdio unless --http is given.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP at /mcp instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind with --http (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port with --http (default 8000)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME[:PORT]",
                        help="a Host header to accept besides loopback names (required for a non-loopback --host)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    # Imported after parsing so --help and argument errors stay instant.
    import anyio

    from .app import create_server
    from .http import TOKEN_VARIABLE, exposure_problem, serve_http
    from .stdio_wire import run_stdio

    server = create_server()
    if not arguments.http:
        anyio.run(run_stdio, server)
        return 0
    token = os.environ.get(TOKEN_VARIABLE) or None
    problem = exposure_problem(arguments.host, arguments.allowed_host, token)
    if problem:
        print(f"gpusizer-mcp: {problem}", file=sys.stderr)
        return 2
    print(f"gpusizer-mcp: serving streamable HTTP at http://{arguments.host}:{arguments.port}/mcp"
          + (" (bearer token required)" if token else ""), file=sys.stderr)
    try:
        anyio.run(serve_http, server, arguments.host, arguments.port, arguments.allowed_host, token)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
