"""A listening socket of its own for each worker process, so that connections are spread evenly among them.

uvicorn's supervisor binds one socket and every worker accepts on it; the worker that wakes first accepts every
connection waiting, so 50 clients connecting at once to 2 workers came out 49 and 1, 50 and 0, 38 and 12: one worker
served nearly everyone while the other idled. With SO_REUSEPORT each worker listens on a socket of its own, all bound
to the same address, and the kernel hands each new connection to one of them by a hash of its addresses (the same
test: 30 and 20, 24 and 26, 25 and 25).

The supervisor binds a WorkerSockets (reserving the address) without listening on it; each worker process, on
receiving it, binds a fresh socket to the same address, so a worker restarted after a crash gets one too. Where the
system has no SO_REUSEPORT (Windows), serve_workers keeps uvicorn's one shared socket.
"""
from __future__ import annotations

import socket
from typing import Any

REUSE_PORT = getattr(socket, "SO_REUSEPORT", None)


def reuse_port_socket(family: int, address: tuple[Any, ...]) -> socket.socket:
    """A socket bound to `address` that shares it with the other workers' (the caller listens on it)."""
    own = socket.socket(family, socket.SOCK_STREAM)
    own.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if REUSE_PORT is not None:
        own.setsockopt(socket.SOL_SOCKET, REUSE_PORT, 1)
    own.bind(address)
    own.set_inheritable(True)
    return own


class WorkerSockets(socket.socket):
    """The supervisor's socket: bound with SO_REUSEPORT, never listening (a listening one would be handed
    connections that nobody accepts); pickled for a worker process, it becomes that worker's own socket."""

    @classmethod
    def reserve(cls, host: str, port: int) -> WorkerSockets:
        """Bound to host:port; a port something else serves (another gpusizer-mcp included) is refused, not shared."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:  # binds only if no socket holds the port
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host.strip("[]"), port))
            port = probe.getsockname()[1]  # port 0: the one the system chose
        reserved = cls(family, socket.SOCK_STREAM)
        reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        reserved.setsockopt(socket.SOL_SOCKET, REUSE_PORT or 0, 1)
        reserved.bind((host.strip("[]"), port))
        return reserved

    def __reduce__(self) -> tuple[Any, ...]:
        return reuse_port_socket, (int(self.family), self.getsockname())
