"""`python -m gpusizer.server.saved_listing [--check]`: writes (or checks) server/tool_listing.json, the tools/list
answer the server gives before it has registered the calculators."""
from __future__ import annotations

import sys

import anyio

from .app import GpusizerServer, create_server
from .tool_listing import LISTING, listing_text


def declared_listing() -> str:
    """What the tools declare now: the listing the server builds when it registers them."""
    server = create_server()
    assert isinstance(server, GpusizerServer)
    server.register_tools()
    server._listed = None
    return listing_text(anyio.run(server.list_tools))


def main(argv: list[str]) -> int:
    declared = declared_listing()
    if "--check" in argv:
        current = LISTING.read_text(encoding="utf-8") if LISTING.exists() else ""
        if current != declared:
            print(f"{LISTING.name} is stale: run python -m gpusizer.server.saved_listing", file=sys.stderr)
            return 1
        return 0
    LISTING.write_text(declared, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
