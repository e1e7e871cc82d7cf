"""Persistence of tables with SQLAlchemy 2.0: what is needed to rebuild every game exactly, nothing more.

A game is stored the way RECORD.md writes it: the rules, the first dealer,
each round's deck (written when the round starts) and every decision in
order (written as it is taken). Rebuilding a table is replaying its record
through the engine (:func:`ronda.engine.record.replay`), so a restart loses
nothing and a stored game is judged by the same rules as a live one.

Seats keep their kind, name, bot level and the SHA-256 of their token (never
the token). SQLite is the default (a file in the data folder); any database
SQLAlchemy reaches works through ``DATABASE_URL``. Every method is
synchronous and is run by :class:`Journal` on one thread, in order, off the
event loop.

>>> store = Store("sqlite://")
>>> store.add_table(StoredTable("t1", "2025-01-01T00:00:00+00:00", {"players": 2}, "classic", "waiting",
...     [StoredSeat(0, "human", "Amina", None, "ab" * 32), StoredSeat(1, "bot", "medium bot", "medium", None)]))
>>> store.start_game("t1", 0, dealer=1, base_version=0, deck=["1o"] * 40)
>>> store.record_action("t1", 0, 0, 0, {"seat": 0, "declare": "none"})
>>> store.load_record("t1", 0)["rounds"][0]["actions"]
[{'seat': 0, 'declare': 'none'}]
>>> [t.status for t in store.load_tables()]
['playing']
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.pool import StaticPool

T = TypeVar("T")

metadata = MetaData()

tables_table = Table(
    "ronda_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", String(40), nullable=False),
    Column("rules", Text, nullable=False),
    Column("preset", String(40), nullable=True),
    Column("status", String(16), nullable=False),
    Column("game", Integer, nullable=False, default=0),
)

seats_table = Table(
    "ronda_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ronda_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(80), nullable=True),
    Column("level", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("auto_declare", Boolean, nullable=False, default=False),
)

games_table = Table(
    "ronda_games",
    metadata,
    Column("table_id", String(32), ForeignKey("ronda_tables.id"), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("dealer", Integer, nullable=False),
    Column("base_version", Integer, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("winner", Integer, nullable=True),
    Column("scores", Text, nullable=True),
)

rounds_table = Table(
    "ronda_rounds",
    metadata,
    Column("table_id", String(32), ForeignKey("ronda_tables.id"), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("deck", Text, nullable=False),
)

actions_table = Table(
    "ronda_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("ronda_tables.id"), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("round", Integer, nullable=False),
    Column("action", Text, nullable=False),
)


@dataclass
class StoredSeat:
    """One seat as stored: ``kind`` is ``human`` or ``bot``; a free human seat has no name and no token hash."""

    seat: int
    kind: str
    name: str | None
    level: str | None
    token_hash: str | None
    auto_declare: bool = False


@dataclass
class StoredGame:
    """One game of a table; ``base_version`` is the table's version before its first event."""

    game: int
    dealer: int
    base_version: int
    finished: bool = False
    winner: int | None = None
    scores: list[int] | None = None


@dataclass
class StoredTable:
    """A table as stored, with its seats and its games (oldest first)."""

    id: str
    created: str
    rules: dict[str, Any]
    preset: str | None
    status: str
    seats: list[StoredSeat]
    games: list[StoredGame] = field(default_factory=list)


class Store:
    """The database: one SQLAlchemy engine, the schema created on first use.

    ``hide_parameters`` keeps decks (hidden cards) out of database error messages and logs.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            self.engine: Engine = create_engine(
                url,
                connect_args={"check_same_thread": False},
                poolclass=StaticPool if memory else None,
                hide_parameters=True,
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_pre_ping=True, hide_parameters=True)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------- writes

    def add_table(self, table: StoredTable) -> None:
        with self.engine.begin() as db:
            db.execute(
                insert(tables_table).values(
                    id=table.id,
                    created=table.created,
                    rules=json.dumps(table.rules),
                    preset=table.preset,
                    status=table.status,
                    game=0,
                )
            )
            db.execute(
                insert(seats_table),
                [
                    {
                        "table_id": table.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "level": s.level,
                        "token_hash": s.token_hash,
                        "auto_declare": s.auto_declare,
                    }
                    for s in table.seats
                ],
            )

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(seats_table)
                .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat)
                .values(name=name, token_hash=token_hash)
            )

    def set_auto_declare(self, table_id: str, seat: int, on: bool) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(seats_table)
                .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat)
                .values(auto_declare=on)
            )

    def set_status(self, table_id: str, status: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(tables_table).where(tables_table.c.id == table_id).values(status=status))

    def start_game(
        self, table_id: str, game: int, *, dealer: int, base_version: int, deck: list[str], status: str = "playing"
    ) -> None:
        """A new game at the table (the first, or a rematch) with the deck of its first round."""
        with self.engine.begin() as db:
            db.execute(
                insert(games_table).values(
                    table_id=table_id, game=game, dealer=dealer, base_version=base_version, finished=False
                )
            )
            db.execute(insert(rounds_table).values(table_id=table_id, game=game, round=0, deck=json.dumps(deck)))
            db.execute(update(tables_table).where(tables_table.c.id == table_id).values(game=game, status=status))

    def record_action(
        self,
        table_id: str,
        game: int,
        number: int,
        round_index: int,
        action: dict[str, Any],
        *,
        next_deck: list[str] | None = None,
        result: tuple[int, list[int]] | None = None,
    ) -> None:
        """One decision, with what it brought about, in one transaction.

        ``next_deck`` is the deck of the round this decision's end of round
        started (``round_index + 1``); ``result`` the winner and scores when
        it ended the game.
        """
        with self.engine.begin() as db:
            db.execute(
                insert(actions_table).values(
                    table_id=table_id, game=game, number=number, round=round_index, action=json.dumps(action)
                )
            )
            if next_deck is not None:
                db.execute(
                    insert(rounds_table).values(
                        table_id=table_id, game=game, round=round_index + 1, deck=json.dumps(next_deck)
                    )
                )
            if result is not None:
                _finish(db, table_id, game, *result)

    def add_round(self, table_id: str, game: int, round_index: int, deck: list[str]) -> None:
        """The deck of a round dealt on its own (a rebuilt game that stopped between rounds)."""
        with self.engine.begin() as db:
            db.execute(
                insert(rounds_table).values(table_id=table_id, game=game, round=round_index, deck=json.dumps(deck))
            )

    def finish_game(self, table_id: str, game: int, winner: int, scores: list[int]) -> None:
        """A game won before any decision (its first deal decided it): the table is finished."""
        with self.engine.begin() as db:
            _finish(db, table_id, game, winner, scores)

    # -------------------------------------------------------------- reads

    def load_tables(self) -> list[StoredTable]:
        """Every table, oldest first, with its seats and games."""
        with self.engine.connect() as db:
            rows = db.execute(select(tables_table).order_by(tables_table.c.created, tables_table.c.id)).all()
            seats: dict[str, list[StoredSeat]] = {}
            for s in db.execute(select(seats_table).order_by(seats_table.c.table_id, seats_table.c.seat)):
                seats.setdefault(s.table_id, []).append(
                    StoredSeat(s.seat, s.kind, s.name, s.level, s.token_hash, bool(s.auto_declare))
                )
            games: dict[str, list[StoredGame]] = {}
            for g in db.execute(select(games_table).order_by(games_table.c.table_id, games_table.c.game)):
                games.setdefault(g.table_id, []).append(
                    StoredGame(
                        g.game,
                        g.dealer,
                        g.base_version,
                        bool(g.finished),
                        g.winner,
                        None if g.scores is None else json.loads(g.scores),
                    )
                )
        return [
            StoredTable(
                r.id, r.created, json.loads(r.rules), r.preset, r.status, seats.get(r.id, []), games.get(r.id, [])
            )
            for r in rows
        ]

    def load_record(self, table_id: str, game: int) -> dict[str, Any]:
        """One game of a table as a RECORD.md record, as far as it has been played."""
        with self.engine.connect() as db:
            rules = db.execute(select(tables_table.c.rules).where(tables_table.c.id == table_id)).scalar_one()
            dealer = db.execute(
                select(games_table.c.dealer).where(games_table.c.table_id == table_id, games_table.c.game == game)
            ).scalar_one()
            decks = db.execute(
                select(rounds_table.c.round, rounds_table.c.deck)
                .where(rounds_table.c.table_id == table_id, rounds_table.c.game == game)
                .order_by(rounds_table.c.round)
            ).all()
            actions = db.execute(
                select(actions_table.c.round, actions_table.c.action)
                .where(actions_table.c.table_id == table_id, actions_table.c.game == game)
                .order_by(actions_table.c.number)
            ).all()
        rounds: list[dict[str, Any]] = [{"deck": json.loads(d.deck), "actions": []} for d in decks]
        for a in actions:
            rounds[a.round]["actions"].append(json.loads(a.action))
        return {"format": "ronda/1", "rules": json.loads(rules), "dealer": dealer, "rounds": rounds}


def _finish(db: Connection, table_id: str, game: int, winner: int, scores: list[int]) -> None:
    db.execute(
        update(games_table)
        .where(games_table.c.table_id == table_id, games_table.c.game == game)
        .values(finished=True, winner=winner, scores=json.dumps(scores))
    )
    db.execute(update(tables_table).where(tables_table.c.id == table_id).values(status="finished"))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL and normal sync: a commit per move stays cheap, and a crash loses at most the last moves, never the file."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Journal:
    """Runs the store's methods on one worker thread, in the order they are asked for.

    One thread keeps writes in the order the games took them (SQLite allows one
    writer anyway) and keeps the event loop free while the database works.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ronda-store")

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(*args, **kwargs))

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.store.close()
