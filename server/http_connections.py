"""One HTTP/1.1 connection as uvicorn's h11 protocol serves it, with a deadline for each request's headers."""
from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0  # the default of HttpOptions.header_timeout_s


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (uvicorn has none: a client trickling header
    bytes, or sending one byte after each response, held its connection forever; h11 already caps their size). The
    deadline is the config's `header_timeout_s` (set by http_config); a module-level class, so worker processes can
    unpickle the config that names it."""

    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self.disarm()  # the headers are in: the request is the app's now

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)

    def arm(self) -> None:
        self.disarm()
        seconds = float(getattr(self.config, "header_timeout_s", HEADER_TIMEOUT_S))
        self.header_timer = self.loop.call_later(seconds, self.headers_too_slow)

    def disarm(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def headers_too_slow(self) -> None:
        self.header_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.transport.close()
