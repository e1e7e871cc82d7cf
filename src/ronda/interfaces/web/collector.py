"""Python's full garbage collections, on the server's schedule instead of the heap's.

Why: almost everything the server frees goes at once by reference counting;
the cyclic collector is there for the few cycles (exceptions with their
tracebacks, connection objects). Its young collections are short (what was
allocated since the last one), but a full collection, which Python starts
whenever the old generation has grown by a quarter, scans every live object
of every game in memory. At 300 games in ``benchmarks/load.py`` full
collections stopped the event loop for up to 555 ms, twice in 30 s, and made
the p99 from a person's move to its update 205 ms against 68 ms with the
collector off (30 s runs on the shared 2-core machine; the pauses measured
with ``gc.callbacks``).

So while ``ronda serve`` runs, Python still collects the young generations
by itself, but a full collection happens only every ``full`` seconds: one
pause every ten minutes instead of several a minute. A cycle that outlived
the young collections waits at most that long to be freed. Bots think in
worker processes, which keep Python's defaults.

The middle generation is collected at every other young collection instead
of every eleventh: it holds what survived the young collections since its
last one (each move's new game copy, the websockets' coroutines), so
collecting it more often makes each pause smaller for the same total work.
At 500 games in ``benchmarks/load.py`` its pauses went from 14 to 27 ms every
two seconds to 7 to 15 ms (``gc.callbacks``, shared machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc

FULL_EVERY = 600.0
"""Seconds between full collections: how long a long-lived cycle may wait to be freed."""

MIDDLE = 1
"""Young collections between two collections of the middle generation (Python's default is 10)."""

NEVER = 2**31 - 1
"""A young-collection count the old generation never reaches: Python starts no full collection itself."""


class Collector:
    """Full collections on a schedule while the server runs (see the module docstring)."""

    def __init__(self, full: float = FULL_EVERY) -> None:
        if not full > 0:
            raise ValueError(f"full collections need an interval above zero seconds, not {full}")
        self.full = full
        self._task: asyncio.Task[None] | None = None
        self._thresholds = gc.get_threshold()

    async def start(self) -> None:
        """Take full collections over from Python (they are given back by :meth:`stop`)."""
        self._thresholds = gc.get_threshold()
        young, _, _ = self._thresholds
        gc.set_threshold(young, MIDDLE, NEVER)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="ronda-collector")

    async def stop(self) -> None:
        """Stop the schedule, collect once and give Python its own thresholds back."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.set_threshold(*self._thresholds)
        gc.collect()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.full)
            gc.collect()
