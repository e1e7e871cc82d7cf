"""The lobby: every table of the server — creating them, finding them, rebuilding them after a restart.

On startup :meth:`Lobby.load` reads every table from the store and rebuilds
each unfinished game by replaying its record through the engine; finished
games are rebuilt only when someone looks at them. Nothing is kept only in
memory that a restart would need.
"""

from __future__ import annotations

import secrets
from typing import Any

from ...engine.deck import shuffled_deck
from ...engine.errors import RecordError, RondaError
from ...engine.game import Game
from ...engine.rules import Rules
from .forms import HttpError, TableSpec
from .store import Journal, StoredSeat, StoredTable
from .tables import (
    FINISHED,
    PLAYING,
    SECURE_RNG,
    WAITING_STATUS,
    Seat,
    ServerSettings,
    Table,
    deck_names,
    log,
    new_token,
    now,
)


class Lobby:
    """All tables by id, with the server settings they share."""

    def __init__(self, journal: Journal, settings: ServerSettings) -> None:
        self.journal = journal
        self.settings = settings
        self.tables: dict[str, Table] = {}

    def load(self) -> None:
        """Rebuild every stored table (call before serving; synchronous, the loop is not serving yet).

        A table whose record the engine refuses (a database edited by hand, a
        write lost to a failing disk) is left out and logged, and the others
        are served: one bad table must not keep the server down.
        """
        for stored in self.journal.store.load_tables():
            try:
                table = self._table_from_store(stored)
            except RondaError as error:
                # Where, not what: the engine's message could name a card of a hand.
                where = (
                    f"round {error.round_index}, action {error.action_index}" if isinstance(error, RecordError) else ""
                )
                log.error("table %s cannot be rebuilt (%s %s); it is left out", stored.id, type(error).__name__, where)
                continue
            self.tables[table.id] = table

    def _table_from_store(self, stored: StoredTable) -> Table:
        rules = Rules.from_dict(stored.rules)
        seats = [Seat(s.seat, s.kind, s.name, s.level, s.token_hash, s.auto_declare) for s in stored.seats]
        table = Table(stored.id, stored.created, rules, stored.preset, seats, self.journal, self.settings)
        table.status = stored.status
        for g in stored.games:
            table.bases[g.game] = g.base_version
            if g.finished:
                table.results[g.game] = (g.winner, g.scores or [0] * rules.sides)
        if stored.games:
            current = stored.games[-1]
            table.number, table.base_version = current.game, current.base_version
            if not current.finished:
                table.game  # noqa: B018 - replays the record now, so a broken one shows at startup
        return table

    async def start(self) -> None:
        """Start every table's bot driver and the grace periods of everyone absent (nobody is connected yet)."""
        for table in self.tables.values():
            if table.status != FINISHED:
                await table.deal_if_between_rounds()
                table.start()

    async def stop(self) -> None:
        for table in self.tables.values():
            await table.stop()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise HttpError(404, "not_found", f"there is no table {table_id[:40]!r}")
        return table

    def summaries(self, limit: int) -> list[dict[str, Any]]:
        """Table summaries, newest first."""
        newest = sorted(self.tables.values(), key=lambda t: t.created, reverse=True)
        return [t.summary() for t in newest[:limit]]

    async def create(self, spec: TableSpec) -> tuple[Table, str]:
        """A new table from a creator's choices; the creator takes seat ``spec.me``. Returns the table and the token."""
        table_id = secrets.token_urlsafe(8)
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(8)
        token, digest = new_token()
        seats = []
        for index, s in enumerate(spec.seats):
            if s.kind == "bot":
                seats.append(Seat(index, "bot", f"{s.level} bot", s.level))
            elif index == spec.me:
                seats.append(Seat(index, "human", s.name, None, digest))
            else:
                seats.append(Seat(index, "human"))
        status = PLAYING if all(s.taken for s in seats) else WAITING_STATUS
        rules = spec.rules
        dealer = rules.players - 1
        deck = shuffled_deck(rules, SECURE_RNG)
        stored = StoredTable(
            table_id,
            now(),
            rules.to_dict(),
            spec.preset,
            status,
            [StoredSeat(s.index, s.kind, s.name, s.level, s.token_hash) for s in seats],
        )
        await self.journal.write(self.journal.store.add_table, stored)
        await self.journal.write(
            self.journal.store.start_game,
            table_id,
            0,
            dealer=dealer,
            base_version=0,
            deck=deck_names(deck),
            status=status,
        )
        table = Table(table_id, stored.created, rules, spec.preset, seats, self.journal, self.settings, status=status)
        table.current = Game(rules, decks=[deck], dealer=dealer)
        await table.settle_start()
        self.tables[table_id] = table
        table.start()
        return table, token
