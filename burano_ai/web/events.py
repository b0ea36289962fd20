"""Server-sent event streams that push on change, end with what they watch and are capped per server.

A `Changes` is told (`notify()`, from any thread: a bot's, an analysis's, a request's) that what it guards
changed; every stream waiting on it wakes at once (no polling). A stream sends the whole current payload
on each change, a keep-alive comment when nothing changed for `KEEPALIVE` seconds, and ends when its
`read()` says the thing is finished (an analysis done, a game forgotten) or the client goes away.
`StreamCounter` caps the streams open on the server (`ServerLimits.max_streams`).
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, Callable

from fastapi.responses import StreamingResponse
from starlette.background import BackgroundTask

from burano_ai.web.guard import Busy

#: Seconds between keep-alive comments in an event stream.
KEEPALIVE = 15.0


class Changes:
    """Wakes the event streams of one game or analysis when it changes (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def notify(self) -> None:
        with self._lock:
            waiters = list(self._waiters)
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:   # the loop is closed (server shutting down)
                pass

    def watch(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.add(waiter)
        return waiter

    def unwatch(self, waiter: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        with self._lock:
            self._waiters.discard(waiter)

    @property
    def watchers(self) -> int:
        with self._lock:
            return len(self._waiters)


class StreamCounter:
    """The event streams open on one server, at most `limit`, and at most `per_client` of one client."""

    def __init__(self, limit: int, per_client: int | None = None) -> None:
        self.limit = limit
        self.per_client = per_client if per_client is not None else limit
        self.open = 0
        self.by_client: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str = "") -> None:
        with self._lock:
            if self.by_client.get(client, 0) >= self.per_client:
                raise Busy(f"you have {self.per_client} event streams open on this server (its limit per client): "
                           f"close a page or try again later")
            if self.open >= self.limit:
                raise Busy(f"{self.limit} event streams are open on this server (its limit): close a page "
                           f"or try again later")
            self.open += 1
            self.by_client[client] = self.by_client.get(client, 0) + 1

    def give_back(self, client: str = "") -> None:
        with self._lock:
            self.open -= 1
            left = self.by_client.get(client, 0) - 1
            if left > 0:
                self.by_client[client] = left
            else:
                self.by_client.pop(client, None)


def event_stream(counter: StreamCounter, changes: Changes, read: Callable[[], tuple[Any, Any, bool]],
                 on_close: Callable[[bool], None] | None = None, client: str = "") -> StreamingResponse:
    """A server-sent event stream of `read()` -> (version, payload, finished), woken by `changes`; a payload
    may come as JSON text already (a game's snapshots are encoded once for all their readers).

    `on_close(finished)` runs when the stream ends: finished True when `read` said so, False when the
    client went away (or the server stopped). Raises Busy when the server's streams, or `client`'s share of
    them, are all taken.
    """
    counter.take(client)
    waiter: list[Any] = []
    closed = threading.Event()

    def close(finished: bool) -> None:   # once: from the stream's end, or after a stream that never began
        if closed.is_set():
            return
        closed.set()
        if waiter:
            changes.unwatch(waiter[0])
        counter.give_back(client)
        if on_close is not None:
            on_close(finished)

    async def stream():
        waiter.append(changes.watch())
        wake = waiter[0][1]
        finished = False
        try:
            last = None
            while True:
                wake.clear()   # before reading: a change after the read wakes the wait below
                version, payload, finished = read()
                if version != last:
                    last = version
                    yield f"data: {payload if isinstance(payload, str) else json.dumps(payload)}\n\n"
                if finished:
                    return
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"
        finally:
            close(finished)

    return StreamingResponse(stream(), media_type="text/event-stream", background=BackgroundTask(close, False),
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
