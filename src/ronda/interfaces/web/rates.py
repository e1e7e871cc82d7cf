"""Rate limits: how fast one client may create tables, take seats, or send websocket messages."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

FLOOD_RATE = 20.0
FLOOD_BURST = 40.0
MAX_BODY_DEPTH = 8
"""Deepest nesting of arrays and objects read in a request body (a new table's is 3 deep)."""
CREATE_RATE = 20.0
"""Tables one client may create a minute (in bursts of as many)."""
JOIN_RATE = 30.0
"""Seats one client may try to take a minute (in bursts of as many)."""


class RateGate:
    """Token buckets by client: ``per_minute`` actions a minute on average, in bursts of as many.

    >>> clock = iter([0.0, 0.0, 0.0, 30.0]).__next__
    >>> gate = RateGate(per_minute=2, clock=clock)
    >>> [gate.admit("1.2.3.4") for _ in range(4)]
    [True, True, False, True]
    """

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = per_minute / 60.0, max(1.0, per_minute), clock
        self.buckets: dict[str, tuple[float, float]] = {}

    def admit(self, client: str) -> bool:
        now = self.clock()
        tokens, last = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self.buckets) > 10_000:  # forget the clients whose buckets are full again
            self.buckets = {k: v for k, v in self.buckets.items() if v[0] + (now - v[1]) * self.rate < self.burst}
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return False
        self.buckets[client] = (tokens - 1, now)
        return True

    def wait(self, client: str) -> int:
        """Whole seconds until ``client`` may act again (for a ``Retry-After`` header)."""
        tokens, _ = self.buckets.get(client, (self.burst, 0.0))
        return max(1, int((1 - tokens) / self.rate + 0.999))


class FloodGate:
    """A token bucket per connection: ``rate`` messages a second on average, bursts up to ``burst``.

    :meth:`admit` answers ``"ok"``, ``"flood"`` for the first refusal of a flood
    (the client is told once) or ``"drop"`` for the rest. The flood is over when
    the client has slowed down enough to fill half the bucket again.

    >>> clock = iter([0.0] * 5 + [1.0, 3.0]).__next__
    >>> gate = FloodGate(rate=1, burst=2, clock=clock)
    >>> [gate.admit() for _ in range(6)]
    ['ok', 'ok', 'flood', 'drop', 'ok', 'ok']
    """

    def __init__(self, rate: float = FLOOD_RATE, burst: float = FLOOD_BURST, clock: Any = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()
        self.flooding = False

    def admit(self) -> str:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            if self.flooding and self.tokens >= self.burst / 2:
                self.flooding = False
            return "ok"
        if self.flooding:
            return "drop"
        self.flooding = True
        return "flood"
