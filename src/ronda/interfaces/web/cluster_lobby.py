"""The lobby's list of public tables in a cluster: read from the store every process shares, not from memory.

A process's :class:`~.lobby.Lobby` lists the tables it holds and those it
found in the store when it started; in a cluster (``--redis``), a table made
by another process since would be missing. The store already holds every
table with its ``public`` flag, so the listing needs no Redis:
:class:`SharedListing` reads the newest public tables from it (one query of
each kind, at most once every :data:`FRESH` seconds, however many pages ask)
and shows, for the tables this process holds, their live summary instead
(who is connected now).
"""

from __future__ import annotations

import functools
import time
from typing import Any

from .lobby import Lobby, stored_summary
from .store import StoredTable, StoreUnavailable

FRESH = 1.0
"""Seconds a listing read from the store is shown again (a new public table appears elsewhere within this)."""


class SharedListing:
    """The public tables of every process of a cluster, newest first (``GET /api/tables``)."""

    def __init__(self, lobby: Lobby, *, fresh: float = FRESH) -> None:
        self.lobby, self.fresh = lobby, fresh
        self._read: tuple[float, int, list[StoredTable]] | None = None

    async def summaries(self, limit: int) -> list[dict[str, Any]]:
        try:
            stored = await self._stored(limit)
        except StoreUnavailable:
            return self.lobby.summaries(limit)  # what this process knows, rather than nothing
        shown: dict[str, dict[str, Any]] = {}
        for table in stored:
            live = self.lobby.tables.get(table.id)
            if live is None:
                shown[table.id] = self.lobby.as_stored(stored_summary(table))
            elif live.public:
                shown[table.id] = live.summary()
        for summary in self.lobby.summaries(limit):  # made here since the last read
            shown.setdefault(summary["table_id"], summary)
        return sorted(shown.values(), key=lambda s: s["created"], reverse=True)[:limit]

    async def _stored(self, limit: int) -> list[StoredTable]:
        now = time.monotonic()
        if self._read is not None and now - self._read[0] < self.fresh and self._read[1] >= limit:
            return self._read[2]
        journal = self.lobby.journal
        stored = await journal.read(functools.partial(journal.store.load_tables, newest_public=limit))
        self._read = (now, limit, stored)
        return stored
