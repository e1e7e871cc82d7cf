"""Rate limits: how fast one client may create tables, take seats, or send websocket messages.

Every limit is a :class:`RateLimit`: token buckets by key (a client's address,
a connection), ``rate`` tokens a second refilling buckets of ``burst``; each
action takes one token, and an action finding less than one is refused. The
server's limits are all :class:`TokenBuckets`, kept in this process. The
interface is asynchronous and keyed by strings so that a cluster-wide one (a
script in Redis holding the same two numbers per key) can stand behind it
unchanged when the server runs as several processes (issue 30).

:class:`FloodWatch` turns a connection's verdicts into what the websocket
does: answer the first refused message of a flood, and drop the rest.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

FLOOD_RATE = 20.0
"""Messages one connection may send a second on average (in bursts of twice as many)."""
CREATE_RATE = 20.0
"""Tables one client may create a minute (in bursts of as many)."""
JOIN_RATE = 30.0
"""Seats one client may try to take a minute (in bursts of as many)."""
KEEP = 10_000
"""Buckets kept before those full again (as good as new) are forgotten."""


@dataclass(frozen=True)
class Verdict:
    """What a limit said of one action."""

    admitted: bool
    left: float
    """Tokens left in the key's bucket after this action."""
    retry_after: float
    """Seconds until the key's next action would be admitted (0 while a token is left)."""

    @property
    def retry_seconds(self) -> int:
        """:attr:`retry_after` in whole seconds, at least 1: a ``Retry-After`` header's value."""
        return max(1, math.ceil(self.retry_after))


class RateLimit(Protocol):
    """A rate limit by key: ``rate`` actions a second on average, in bursts of ``burst``."""

    rate: float
    burst: float

    async def hit(self, key: str) -> Verdict:
        """Count one action of ``key`` (when admitted) and say whether it is admitted."""
        ...

    async def forget(self, key: str) -> None:
        """``key`` is gone (a closed connection): its bucket need not be kept."""
        ...


class TokenBuckets:
    """:class:`RateLimit` kept in this process's memory: one ``(tokens, when)`` pair per key.

    >>> import asyncio
    >>> clock = iter([0.0, 0.0, 0.0, 30.0]).__next__
    >>> joins = TokenBuckets.per_minute(2, clock=clock)
    >>> [asyncio.run(joins.hit("1.2.3.4")).admitted for _ in range(4)]
    [True, True, False, True]
    """

    def __init__(
        self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic, keep: int = KEEP
    ) -> None:
        if rate <= 0 or burst <= 0:
            raise ValueError(f"a rate limit refills above zero a second into buckets above zero, not {rate}, {burst}")
        self.rate, self.burst, self.clock = rate, burst, clock
        self.buckets: dict[str, tuple[float, float]] = {}
        self.prune_at = keep

    @classmethod
    def per_minute(cls, actions: float, *, clock: Callable[[], float] = time.monotonic) -> TokenBuckets:
        """``actions`` a minute on average, in bursts of as many (at least one)."""
        return cls(actions / 60.0, max(1.0, actions), clock=clock)

    async def hit(self, key: str) -> Verdict:
        return self.take(key)

    def take(self, key: str) -> Verdict:
        """:meth:`hit`, for callers that are not coroutines."""
        now = self.clock()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self.buckets) > self.prune_at:
            self._prune(now)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return Verdict(False, tokens, (1 - tokens) / self.rate)
        self.buckets[key] = (tokens - 1, now)
        return Verdict(True, tokens - 1, 0.0)

    async def forget(self, key: str) -> None:
        self.buckets.pop(key, None)

    def _prune(self, now: float) -> None:
        """Forget the buckets full again; if many are still in use, wait till they double before looking again."""
        self.buckets = {k: v for k, v in self.buckets.items() if v[0] + (now - v[1]) * self.rate < self.burst}
        self.prune_at = max(self.prune_at, 2 * len(self.buckets))


class FloodWatch:
    """One connection's flood state over a shared :class:`RateLimit` (the connection's key in it).

    :meth:`admit` answers ``"ok"``, ``"flood"`` for the first refusal of a flood
    (the client is told once) or ``"drop"`` for the rest. The flood is over when
    the client has slowed down enough to fill half its bucket again.

    >>> import asyncio
    >>> clock = iter([0.0] * 4 + [1.0, 3.0]).__next__
    >>> watch = FloodWatch(TokenBuckets(rate=1, burst=2, clock=clock), "connection 1")
    >>> [asyncio.run(watch.admit()) for _ in range(6)]
    ['ok', 'ok', 'flood', 'drop', 'ok', 'ok']
    """

    def __init__(self, limit: RateLimit, key: str) -> None:
        self.limit, self.key = limit, key
        self.flooding = False

    async def admit(self) -> Literal["ok", "flood", "drop"]:
        verdict = await self.limit.hit(self.key)
        if verdict.admitted:
            if self.flooding and verdict.left >= self.limit.burst / 2:
                self.flooding = False
            return "ok"
        if self.flooding:
            return "drop"
        self.flooding = True
        return "flood"

    async def close(self) -> None:
        """The connection is gone: its bucket is forgotten."""
        await self.limit.forget(self.key)
