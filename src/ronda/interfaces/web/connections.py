"""Websocket connections: each one's outbox, and the caps on connections without a seat per client address.

Each websocket connection has an outbox drained by its own task: a table
never waits for a slow client, and a client that stops reading is closed
(it can reconnect and catch up) rather than holding memory without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import WebSocket
from starlette.websockets import WebSocketState

log = logging.getLogger("ronda.web")

OUTBOX = 512
"""Messages queued for one connection before it is deemed not to be reading and is closed."""
CONNECTIONS_PER_CLIENT = 32
"""Connections without a seat (spectators, and sockets yet to say hello) one client may hold across the server."""
TOO_MANY = 4429
"""Close code of a connection refused by a cap on connections (after a ``too_many_connections`` error)."""


@dataclass(eq=False)
class Counted:
    """One websocket as :class:`AddressCaps` counts it: its client's address and what it is now."""

    address: str
    evict: Callable[[], None]
    """Closes the connection (with ``too_many_connections``) when a newer one of its address takes its place."""
    kind: str = "pending"
    """``pending`` until its hello is answered, then ``watching`` or ``seated``; ``closed`` once gone."""


class AddressCaps:
    """Connections without a seat, counted by client address across the whole server, each kind up to ``cap``.

    A connection is *pending* from its upgrade until its hello is answered,
    then *watching* (a spectator) or *seated*. Pending and watching connections
    are what one address could open without end — the invite link, or a
    public table, is all it takes — so each is capped per address; seated
    connections are never counted. A seat holder always gets in: a new socket
    is never refused (past the cap, the oldest pending socket of its address is
    closed instead, so sockets that never say hello cannot keep a player out),
    and a hello with a seat's token is never refused for these caps.

    :meth:`open`, :meth:`watch`, :meth:`settle` and :meth:`close` are coroutines so that a
    cluster's caps (:class:`~.redis_limits.RedisCaps`, counting in Redis) can
    stand in for these, kept in this process.

    >>> import asyncio
    >>> caps, closed = AddressCaps(cap=2), []
    >>> first, second = (asyncio.run(caps.open("1.2.3.4", lambda: closed.append("first"))) for _ in range(2))
    >>> third = asyncio.run(caps.open("1.2.3.4", lambda: closed.append("third")))
    >>> closed, first.kind  # the oldest socket that has not said hello makes room
    (['first'], 'closed')
    >>> asyncio.run(caps.watch(second)), asyncio.run(caps.watch(third))  # both watch now
    (True, True)
    >>> fourth = asyncio.run(caps.open("1.2.3.4", lambda: None))
    >>> asyncio.run(caps.watch(fourth))  # the address already watches with 2 connections
    False
    >>> asyncio.run(caps.settle(fourth, 0))  # it holds seat 0 instead: seated connections are never counted
    >>> fourth.kind, caps.watching["1.2.3.4"]
    ('seated', 2)
    """

    def __init__(self, cap: int = CONNECTIONS_PER_CLIENT) -> None:
        self.cap = cap
        self.pending: dict[str, list[Counted]] = {}
        """Each address's sockets yet to say hello, oldest first."""
        self.watching: dict[str, int] = {}

    async def open(self, address: str, evict: Callable[[], None]) -> Counted:
        """Count a new socket of ``address`` as pending; past the cap, the address's oldest pending one is evicted."""
        waiting = self.pending.setdefault(address, [])
        if len(waiting) >= self.cap:
            oldest = waiting.pop(0)
            oldest.kind = "closed"
            oldest.evict()
        counted = Counted(address, evict)
        waiting.append(counted)
        return counted

    async def watch(self, counted: Counted) -> bool:
        """Count ``counted`` as a spectator before its hello; ``False`` when its address watches at the cap.

        Counted before the table answers, so that two hellos at once cannot both take the last place.
        """
        if counted.kind == "watching":
            return True
        if self.watching.get(counted.address, 0) >= self.cap:
            return False
        await self.settle(counted, None)
        return True

    async def settle(self, counted: Counted, seat: int | None) -> None:
        """The hello was answered: the connection now holds ``seat`` (``None``: it watches)."""
        kind = "watching" if seat is None else "seated"
        if counted.kind not in (kind, "closed"):
            await self.close(counted)
            counted.kind = kind
            if kind == "watching":
                self.watching[counted.address] = self.watching.get(counted.address, 0) + 1

    async def close(self, counted: Counted) -> None:
        """The connection is gone (or changes kind): it no longer counts."""
        if counted.kind == "pending":
            waiting = self.pending.get(counted.address, [])
            if counted in waiting:
                waiting.remove(counted)
            if not waiting:
                self.pending.pop(counted.address, None)
        elif counted.kind == "watching":
            left = self.watching.get(counted.address, 0) - 1
            if left > 0:
                self.watching[counted.address] = left
            else:
                self.watching.pop(counted.address, None)
        counted.kind = "closed"


class Connection:
    """One websocket as a table sees it: :meth:`send` queues without blocking; :meth:`pump` writes in order."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.outbox: asyncio.Queue[str | int | None] = asyncio.Queue(maxsize=OUTBOX)
        self.overflowed = False
        self.closing: int | None = None
        """The close code asked for by :meth:`close_soon`, once asked."""

    def send(self, text: str) -> None:
        if self.overflowed or self.closing is not None:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            log.warning("a connection stopped reading; closing it")
            asyncio.get_running_loop().create_task(self._close(1013))

    def close_soon(self, code: int) -> None:
        """Close with ``code`` once what is queued is sent (the client is told why first)."""
        if self.closing is None and not self.overflowed:
            self.closing = code
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(code)

    async def pump(self) -> None:
        while (item := await self.outbox.get()) is not None:
            if isinstance(item, int):
                await self._close(item)
                return
            await self.websocket.send_text(item)

    async def finish(self, pump: asyncio.Task[None], code: int = 1000) -> None:
        """Send what is queued, then close."""
        if not self.overflowed:
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)
            try:
                await asyncio.wait_for(pump, timeout=5)
            except Exception:
                pump.cancel()
        else:
            pump.cancel()
        await self._close(self.closing or code)

    async def _close(self, code: int) -> None:
        try:
            if self.websocket.application_state != WebSocketState.DISCONNECTED:
                await self.websocket.close(code)
        except Exception:
            pass
