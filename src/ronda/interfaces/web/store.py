"""Persistence of tables with SQLAlchemy 2.0: what is needed to rebuild every game exactly, nothing more.

A game is stored the way RECORD.md writes it: the rules, the first dealer,
each round's deck (written when the round starts) and every decision in
order (written as it is taken). Rebuilding a table is replaying its record
through the engine (:func:`ronda.engine.record.replay`), so a restart loses
nothing and a stored game is judged by the same rules as a live one.

Seats keep their kind, name, bot level and the SHA-256 of their token (never
the token). SQLite is the default (a file in the data folder); any database
SQLAlchemy reaches works through ``DATABASE_URL``. Every method is
synchronous; write methods take the transaction's connection first. The
server runs them through :class:`Journal`, on one thread, in order, off the
event loop, and every write is bounded in time: a database that is locked,
stopped or unreachable makes the write fail with :class:`StoreUnavailable`
within about ``timeout`` seconds, never hang.

One failure leaves the outcome unknown: the database was asked to ``COMMIT``
and its answer never came (the connection dropped, a failover, a timeout
after the commit was sent). That write fails with :class:`CommitUnknown`, and
only the store can say what happened: :func:`resolve_unknown_commit` asks it
(for a decision, :meth:`Store.holds_decision`), again and again, until it
answers. Nothing is ever guessed.

>>> store = Store("sqlite://")
>>> store.write(store.add_table, StoredTable("t1", "2025-01-01T00:00:00+00:00", {"players": 2}, "classic",
...     "waiting", [StoredSeat(0, "human", "Amina", None, "ab" * 32), StoredSeat(1, "bot", "bot", "easy", None)]))
>>> store.write(store.start_game, "t1", 0, dealer=1, base_version=0, deck=["1o"] * 40)
>>> store.write(store.record_decisions, [Decision("t1", 0, 0, 0, {"seat": 0, "declare": "none"})])
>>> store.load_record("t1", 0)["rounds"][0]["actions"]
[{'seat': 0, 'declare': 'none'}]
>>> [t.status for t in store.load_tables()]
['playing']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, NoResultFound, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from . import migrations, ratings

log = logging.getLogger("ronda.web")

T = TypeVar("T")
P = ParamSpec("P")

STORE_TIMEOUT = 3.0
"""Seconds a write may wait for the database (a lock, a connection) before it is refused as unavailable."""

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
    Column("public", Boolean, nullable=False, default=False),
    Column("spectators", Boolean, nullable=False, default=True),
    Column("creator", Integer, nullable=False, default=0),
    Column("hints", Boolean, nullable=False, default=False),
    Column("lease_epoch", Integer, nullable=False, default=0, server_default="0"),
)
"""``lease_epoch``: the fencing number of the process that owns the table in a cluster (:mod:`.cluster`); every
write of that owner checks it in its own transaction, so a stale owner's writes are refused. 0 with one process."""

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
    Column("player_id", String(32), nullable=True, index=True),
)
"""``player_id`` is the player (``ronda_players``) who took a seat under their kept name; not a foreign key, so that
migration 0002 adds it to a database of before with SQLite's plain ``ADD COLUMN``."""

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
    Column("acted", Text, nullable=True),
    Column("left", Text, nullable=True),
)
"""``acted``: the seats (a JSON list) whose person made a decision of their own in the game, or was there when their
turn clock ran out (:attr:`.tables.Table.acted`), written in the transaction of the decision that adds a seat, so
that a table rebuilt after a restart does not rate a game in which a person never played. ``NULL``: not recorded (a
game stored before migration 0005): every seat is trusted, as before.

``left``: the seats whose person counts as having left the game, and how (a JSON object, seat to ``away`` or
``turns``: :meth:`.tables.Table.who_left`), written in the transaction of the first decision after a seat came to
count so, so that a table rebuilt after a restart still rates the game as lost for them. ``NULL``: nobody is known
to have left (migration 0006)."""

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
    Column("made_for", Integer, nullable=True),
)
"""``made_for``: the person's seat the computer made the decision for (their turn clock ran out, or the stand-in
played for them while they were gone), ``NULL`` for any other (migration 0007). Not part of the record: only that
seat is told (:attr:`~.tables.Table.made_for`)."""

hints_table = Table(
    "ronda_hints",
    metadata,
    Column("table_id", String(32), ForeignKey("ronda_tables.id"), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("hint", Text, nullable=False),
)
"""The hints shown at a table, each in the form of the record's ``hints`` extension (docs/RECORD.md), in order."""

analyses_table = Table(
    "ronda_analyses",
    metadata,
    Column("table_id", String(32), ForeignKey("ronda_tables.id"), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("analysis", Text, nullable=False),
)
"""The analysis of a finished game, searched once (a minute of work) and read by every replay after."""

players_table = Table(
    "ronda_players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", String(40), nullable=False),
    Column("name", String(80), nullable=False),
    Column("username", String(80), nullable=True, unique=True),
    Column("password_hash", Text, nullable=True),
)
"""A person who chose a name (docs/server.md, "Identity and accounts"); ``username`` and ``password_hash`` (Argon2)
once they made an account, the username case-folded."""

names_table = Table(
    "ronda_names",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("player_id", String(32), ForeignKey("ronda_players.id"), nullable=False),
)
"""Each look-alike key of each player's name (:func:`.forms.name_keys`): the key being the primary key, two players'
names can never look alike, whatever the servers in front of the database."""

sessions_table = Table(
    "ronda_sessions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), ForeignKey("ronda_players.id"), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", String(40), nullable=False),
    Column("last_seen", String(40), nullable=False),
    Column("agent", String(80), nullable=False),
    Column("address", String(64), nullable=False),
)
"""A browser holding a player's identity: the SHA-256 of its cookie's token (never the token), when it was made and
last seen, and what browser and address it was made from (shown to the player, to spot one that is not theirs)."""

ratings_table = Table(
    "ronda_ratings",
    metadata,
    Column("player_id", String(32), ForeignKey("ronda_players.id"), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
)
"""Each player's rating at each player count (:mod:`.ratings`), as of their last rated game."""

rated_table = Table(
    "ronda_rated",
    metadata,
    Column("table_id", String(32), ForeignKey("ronda_tables.id"), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), ForeignKey("ronda_players.id"), nullable=False, index=True),
    Column("players", Integer, nullable=False),
    Column("result", String(8), nullable=False),
    Column("abandoned", Boolean, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("finished", String(40), nullable=False),
)
"""Each rated game's seats: who held it, the result it counted as, the rating before and after (``games``: the
player's rated games at that player count, this one included). Written in the transaction that finishes the game."""


SYNC_MODES = {"full": "FULL", "normal": "NORMAL"}
"""How far a SQLite commit goes (see :class:`Store`): the mode's name, and SQLite's."""


class StoreUnavailable(Exception):
    """The database did not take a write in time (locked, stopped, unreachable): nothing of it was stored."""


class CommitUnknown(StoreUnavailable):
    """The database was asked to commit and no answer came: the write may be stored, or not.

    A subclass of :class:`StoreUnavailable` so that a caller that cannot
    resolve it refuses as before; a caller whose write matters (a decision)
    catches it first and asks the store with :func:`resolve_unknown_commit`.
    """


class Fenced(StoreUnavailable):
    """A write of a table's owner that is no longer its owner: another process took the table over (a newer lease
    epoch is stored), so the write was refused and nothing of its transaction stored. The stale owner drops the table.

    A :class:`StoreUnavailable`, so every caller refuses as it does for a store that is down (nothing was stored);
    the journal tells it apart (one fenced write fails alone, never its batch)."""

    def __init__(self, table_id: str, epoch: int) -> None:
        super().__init__(f"table {table_id}: the write of lease epoch {epoch} was refused, a newer owner holds it")
        self.table_id, self.epoch = table_id, epoch


class EpochBehind(Exception):
    """A takeover's epoch is not above the one stored (the lease counter restarted with Redis): the stored one."""

    def __init__(self, stored: int) -> None:
        super().__init__(f"the store holds lease epoch {stored}")
        self.stored = stored


class StoreConflict(Exception):
    """The database refused a write because of its rows (a key already taken): the caller's idea of what is stored
    is out of date. Only the kind of database error is kept (its message could hold a deck)."""


@dataclass
class StoredSeat:
    """One seat as stored: ``kind`` is ``human`` or ``bot``; a free human seat has no name and no token hash."""

    seat: int
    kind: str
    name: str | None
    level: str | None
    token_hash: str | None
    auto_declare: bool = False
    player_id: str | None = None
    """The player (``ronda_players``) who took the seat with a kept name; ``None`` for bots and anonymous seats."""


@dataclass
class StoredPlayer:
    """A player as stored: a stable id, when they first chose a name, that name, and their account if they made one."""

    id: str
    created: str
    name: str
    username: str | None = None
    password_hash: str | None = None


@dataclass
class StoredSession:
    """One browser's hold on a player: ``token_hash`` is the SHA-256 of its cookie's token."""

    id: str
    player_id: str
    token_hash: str
    created: str
    last_seen: str
    agent: str
    address: str


@dataclass(frozen=True)
class PlayerSeat:
    """A seat a player took (:meth:`Store.games_of`): the table, when it was made, the seat and the table's status."""

    table_id: str
    created: str
    seat: int
    status: str


@dataclass
class StoredGame:
    """One game of a table; ``base_version`` is the table's version before its first event.

    ``scores`` are the game's scores as last stored (kept up to date with every
    decision that scores), so a table can be listed without replaying it.
    """

    game: int
    dealer: int
    base_version: int
    finished: bool = False
    winner: int | None = None
    scores: list[int] | None = None
    acted: list[int] | None = None
    """The seats whose person played in the game (``ronda_games.acted``); ``None``: not recorded (stored before)."""
    left: dict[int, str] = field(default_factory=dict)
    """The seats whose person counts as having left the game, with how (``ronda_games.left``)."""
    made_for: dict[int, int] = field(default_factory=dict)
    """The decisions the computer made for a person's seat, by decision number, with the seat
    (``ronda_actions.made_for``): read for a table's current game by :meth:`Store.load_current`, which a rebuild
    reads; empty from :meth:`Store.load_tables`, which lists tables."""


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
    public: bool = False
    spectators: bool = True
    creator: int = 0
    hints: bool = False


@dataclass
class Decision:
    """One decision to store: its table, game, number in the game and round, and the action in RECORD.md form.

    ``next_deck`` is the deck of the round this decision's end of round started
    (``round + 1``); ``scores`` the game's scores after it when it scored;
    ``result`` the winner and scores when it ended the game.
    """

    table_id: str
    game: int
    number: int
    round: int
    action: dict[str, Any]
    next_deck: list[str] | None = None
    result: tuple[int, list[int]] | None = None
    scores: list[int] | None = None
    abandoned: tuple[int, ...] = ()
    """When it ended the game: the seats whose players left past the grace period (they lose a rated game)."""
    unplayed: tuple[int, ...] = ()
    """When it ended the game: the people's seats where the person made no decision of their own in it (the game
    is not rated: :meth:`Store.rate_game`)."""
    acted: tuple[int, ...] | None = None
    """When this decision is the first of its seat's person in the game (their own, or the stand-in's when their turn
    clock ran out): every seat whose person has played, this one included, stored with the decision so that a
    rebuilt table knows who played; ``None``: it adds nobody."""
    left: dict[int, str] | None = None
    """When a seat came to count as having left the game since the last decision stored: every seat that has, with
    how (``away``, ``turns``), stored with the decision so that a rebuilt table knows who left; ``None``: nobody
    new."""
    made_for: int | None = None
    """The person's seat the computer made this decision for (their turn clock ran out, or the stand-in played for
    them), so that a rebuilt table still tells that seat the move was not theirs; ``None``: a person's own decision,
    or a bot's."""


_SET_SCORES = (
    update(games_table)
    .where(games_table.c.table_id == bindparam("t"), games_table.c.game == bindparam("g"))
    .values(scores=bindparam("s"))
)
_SET_ACTED = (
    update(games_table)
    .where(
        games_table.c.table_id == bindparam("t"),
        games_table.c.game == bindparam("g"),
        games_table.c.acted.is_not(None),  # a game stored before 0005 stays unrecorded: who played then is unknown
    )
    .values(acted=bindparam("a"))
)
_SET_LEFT = (
    update(games_table)
    .where(games_table.c.table_id == bindparam("t"), games_table.c.game == bindparam("g"))
    .values(left=bindparam("l"))
)


def sqlalchemy_url(url: str) -> str:
    """The SQLAlchemy URL for a ``DATABASE_URL``: plain PostgreSQL URLs go through psycopg 3.

    Hosting services hand out ``postgres://`` and ``postgresql://`` URLs, which
    SQLAlchemy would open with psycopg2; the ``postgres`` extra installs psycopg 3.
    A URL that names its driver is left as it is.

    >>> sqlalchemy_url("postgres://ronda:pw@db.example/ronda")
    'postgresql+psycopg://ronda:pw@db.example/ronda'
    >>> sqlalchemy_url("postgresql+psycopg2://db.example/ronda")
    'postgresql+psycopg2://db.example/ronda'
    """
    for plain in ("postgres://", "postgresql://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


class Store:
    """The database: one SQLAlchemy engine, the schema brought to the newest migration when it opens.

    The tables below are what the queries use; every change to them is also a
    revision in :mod:`.migrations`, which creates or upgrades the database
    (``migrate=False`` leaves it as it is: a tool that only reads).

    ``timeout`` bounds every wait on the database: SQLite's busy timeout (a
    lock held by another process), and on PostgreSQL the connection, lock and
    statement timeouts and the pool's wait. ``hide_parameters`` keeps decks
    (hidden cards) out of database error messages and logs.

    ``sync`` is how far a commit goes before a decision counts as stored, on
    SQLite: ``"full"`` (the default) syncs the file at every group commit, so a
    decision the players saw survives a crash of the machine; ``"normal"``
    leaves the sync to the next checkpoint, so it survives a crash of the server
    (SIGKILL, a fault) but a power cut may take the last moments. On this
    project's machine the full sync is what made the slowest moves slow
    (``benchmarks/load.py``). PostgreSQL always commits in full: its own
    ``synchronous_commit=off`` would lose moves when the database server alone
    crashes.
    """

    def __init__(self, url: str, timeout: float = STORE_TIMEOUT, sync: str = "full", *, migrate: bool = True) -> None:
        if sync not in SYNC_MODES:
            raise ValueError(f"sync is one of {', '.join(SYNC_MODES)}, not {sync!r}")
        url = sqlalchemy_url(url)
        self.url = url
        self.timeout = timeout
        self.sync = sync
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            self.engine: Engine = create_engine(
                url,
                connect_args={"check_same_thread": False, "timeout": timeout},
                poolclass=StaticPool if memory else None,
                hide_parameters=True,
            )
            event.listen(self.engine, "connect", functools.partial(_sqlite_pragmas, sync=sync))
        else:
            milliseconds = max(1, int(timeout * 1000))
            connect_args: dict[str, Any] = {}
            if url.startswith("postgresql+psycopg"):
                connect_args = {
                    "connect_timeout": max(1, round(timeout)),
                    # A transaction left open by a client that stopped (SIGSTOP, a machine cut off) is ended by
                    # PostgreSQL, so the row locks it holds cannot keep another process from taking a table over.
                    "options": f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds} "
                    f"-c idle_in_transaction_session_timeout={milliseconds}",
                }
            self.engine = create_engine(
                url, pool_pre_ping=True, pool_timeout=timeout, hide_parameters=True, connect_args=connect_args
            )
        if migrate:
            migrations.migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def reading(self) -> Connection:
        """A connection for reads (``with store.reading() as db``): on PostgreSQL each statement on its own, in no
        transaction.

        A transaction left idle is ended by PostgreSQL after the store's
        timeout, so that a writer that stopped cannot hold its rows (the
        connection's ``idle_in_transaction_session_timeout``). A read inside a
        transaction was ended too whenever its process paused between two
        statements (a busy machine: a test server's startup listing failed so),
        and a read that locks a row to wait for a commit under way
        (:meth:`last_decision`) held that row until it ended. Outside a
        transaction each statement reads what is committed when it starts, which
        is what PostgreSQL's READ COMMITTED gives each statement of a
        transaction anyway, and holds nothing between statements. SQLite reads
        are kept as they were (no such timeout there).
        """
        if self.url.startswith("postgresql"):
            return self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        return self.engine.connect()

    # ------------------------------------------------------------- writes

    def write(self, fn: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        """Run one write method (``fn(db, ...)``) in a transaction of its own (startup, tests, scripts)."""
        with self.engine.begin() as db:
            fn(db, *args, **kwargs)

    def add_table(self, db: Connection, table: StoredTable) -> None:
        db.execute(
            insert(tables_table).values(
                id=table.id,
                created=table.created,
                rules=json.dumps(table.rules),
                preset=table.preset,
                status=table.status,
                game=0,
                public=table.public,
                spectators=table.spectators,
                creator=table.creator,
                hints=table.hints,
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
                    "player_id": s.player_id,
                }
                for s in table.seats
            ],
        )

    def new_table(self, db: Connection, table: StoredTable, *, dealer: int, deck: list[str]) -> None:
        """A table and its first game, in one transaction: a table is never stored without its deal."""
        self.add_table(db, table)
        self.start_game(db, table.id, 0, dealer=dealer, base_version=0, deck=deck, status=table.status)

    def take_seat(
        self,
        db: Connection,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        status: str | None = None,
        player_id: str | None = None,
    ) -> None:
        """A person (the player ``player_id``, when known) takes a seat; ``status`` is the table's new status when this
        seat starts the game."""
        db.execute(
            update(seats_table)
            .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat)
            .values(name=name, token_hash=token_hash, player_id=player_id)
        )
        if status is not None:
            self.set_status(db, table_id, status)

    def set_auto_declare(self, db: Connection, table_id: str, seat: int, on: bool) -> None:
        db.execute(
            update(seats_table)
            .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat)
            .values(auto_declare=on)
        )

    def claim(self, db: Connection, table_id: str, epoch: int) -> None:
        """A process takes the table over with lease epoch ``epoch``: stored, so that every write of an older owner
        is refused from now on (:meth:`check_fence`). :class:`EpochBehind` when the store holds ``epoch`` or more."""
        mine = tables_table.c.id == table_id
        done = db.execute(
            update(tables_table).where(mine, tables_table.c.lease_epoch < epoch).values(lease_epoch=epoch)
        )
        if done.rowcount == 0:
            stored = db.execute(select(tables_table.c.lease_epoch).where(mine)).scalar()
            if stored is None:
                raise StoreConflict(f"there is no table {table_id} to claim")
            raise EpochBehind(int(stored))

    def check_fence(self, db: Connection, table_id: str, epoch: int) -> None:
        """Raise :class:`Fenced` unless ``epoch`` is the table's stored lease epoch, holding the row meanwhile.

        ``FOR SHARE`` keeps a takeover's :meth:`claim` (an ``UPDATE`` of the row)
        waiting until this transaction ends: a write either commits before the
        takeover, and the new owner's rebuild reads it, or is refused after it.
        """
        held = db.execute(
            select(tables_table.c.id)
            .where(tables_table.c.id == table_id, tables_table.c.lease_epoch == epoch)
            .with_for_update(read=True)
        ).first()
        if held is None:
            raise Fenced(table_id, epoch)

    def set_status(self, db: Connection, table_id: str, status: str) -> None:
        db.execute(update(tables_table).where(tables_table.c.id == table_id).values(status=status))

    def set_access(self, db: Connection, table_id: str, public: bool, spectators: bool, hints: bool = False) -> None:
        """Whether the table is listed (public), whether people without a seat may watch it, and hints are on."""
        db.execute(
            update(tables_table)
            .where(tables_table.c.id == table_id)
            .values(public=public, spectators=spectators, hints=hints)
        )

    def add_hint(self, db: Connection, table_id: str, game: int, number: int, hint: dict[str, Any]) -> None:
        """A hint shown to a player (the record's ``hints`` form), the ``number``-th of the game."""
        db.execute(insert(hints_table).values(table_id=table_id, game=game, number=number, hint=json.dumps(hint)))

    def save_analysis(self, db: Connection, table_id: str, game: int, analysis: dict[str, Any]) -> None:
        """A finished game's analysis, kept so that it is searched once; it replaces one in an older format."""
        mine = (analyses_table.c.table_id == table_id) & (analyses_table.c.game == game)
        db.execute(delete(analyses_table).where(mine))
        db.execute(insert(analyses_table).values(table_id=table_id, game=game, analysis=json.dumps(analysis)))

    def load_analysis(self, table_id: str, game: int) -> dict[str, Any] | None:
        """A finished game's analysis if it was searched, else ``None``."""
        with self.reading() as db:
            text = db.execute(
                select(analyses_table.c.analysis).where(
                    analyses_table.c.table_id == table_id, analyses_table.c.game == game
                )
            ).scalar_one_or_none()
        return None if text is None else dict(json.loads(text))

    def start_game(
        self,
        db: Connection,
        table_id: str,
        game: int,
        *,
        dealer: int,
        base_version: int,
        deck: list[str],
        status: str = "playing",
    ) -> None:
        """A new game at the table (the first, or a rematch) with the deck of its first round; nobody has played in it
        yet (``acted``: an empty list, recorded from now on)."""
        db.execute(
            insert(games_table).values(
                table_id=table_id, game=game, dealer=dealer, base_version=base_version, finished=False, acted="[]"
            )
        )
        db.execute(insert(rounds_table).values(table_id=table_id, game=game, round=0, deck=json.dumps(deck)))
        db.execute(update(tables_table).where(tables_table.c.id == table_id).values(game=game, status=status))

    def record_decisions(self, db: Connection, decisions: list[Decision]) -> None:
        """Decisions with what they brought about (a next round's deck, new scores, a game's end), many in one go.

        Rows are written with one statement per table of the schema, whatever the
        number of decisions: under load the journal hands over every decision
        that arrived while the previous batch was being written.
        """
        db.execute(
            insert(actions_table),
            [
                {
                    "table_id": d.table_id,
                    "game": d.game,
                    "number": d.number,
                    "round": d.round,
                    "action": json.dumps(d.action),
                    "made_for": d.made_for,
                }
                for d in decisions
            ],
        )
        decks = [
            {"table_id": d.table_id, "game": d.game, "round": d.round + 1, "deck": json.dumps(d.next_deck)}
            for d in decisions
            if d.next_deck is not None
        ]
        if decks:
            db.execute(insert(rounds_table), decks)
        # Who has played, before the game's end is rated; a game's seats only grow, so its latest list is all of them.
        acted = {(d.table_id, d.game): d.acted for d in decisions if d.acted is not None}
        if acted:
            db.execute(
                _SET_ACTED,
                [{"t": table_id, "g": game, "a": json.dumps(seats)} for (table_id, game), seats in acted.items()],
            )
        # Who left, likewise: a game's leavers only grow, so its latest word holds them all.
        left = {(d.table_id, d.game): d.left for d in decisions if d.left is not None}
        if left:
            db.execute(
                _SET_LEFT,
                [
                    {"t": table_id, "g": game, "l": json.dumps({str(seat): how for seat, how in sorted(seats.items())})}
                    for (table_id, game), seats in left.items()
                ],
            )
        # Only each game's latest scores matter; one statement for all of them (a statement per decision
        # cost three times the rest of a batch of thirty).
        latest: dict[tuple[str, int], list[int]] = {}
        for d in decisions:
            if d.result is not None:
                latest.pop((d.table_id, d.game), None)
                self.finish_game(db, d.table_id, d.game, *d.result, d.abandoned, d.unplayed)
            elif d.scores is not None:
                latest[d.table_id, d.game] = d.scores
        if latest:
            db.execute(
                _SET_SCORES,
                [{"t": table_id, "g": game, "s": json.dumps(scores)} for (table_id, game), scores in latest.items()],
            )

    def add_round(self, db: Connection, table_id: str, game: int, round_index: int, deck: list[str]) -> None:
        """The deck of a round dealt on its own (a rebuilt game that stopped between rounds)."""
        db.execute(insert(rounds_table).values(table_id=table_id, game=game, round=round_index, deck=json.dumps(deck)))

    def finish_game(
        self,
        db: Connection,
        table_id: str,
        game: int,
        winner: int,
        scores: list[int],
        abandoned: tuple[int, ...] = (),
        unplayed: tuple[int, ...] = (),
    ) -> None:
        """The game is won: its result is kept, the table is finished, and a game among people is rated, all in the
        one transaction (``abandoned``: the seats whose players left it past the grace period; ``unplayed``: those
        whose players never played in it themselves)."""
        db.execute(
            update(games_table)
            .where(games_table.c.table_id == table_id, games_table.c.game == game)
            .values(finished=True, winner=winner, scores=json.dumps(scores))
        )
        db.execute(update(tables_table).where(tables_table.c.id == table_id).values(status="finished"))
        self.rate_game(db, table_id, game, winner, scores, abandoned, unplayed)

    def rate_game(
        self,
        db: Connection,
        table_id: str,
        game: int,
        winner: int,
        scores: list[int],
        abandoned: tuple[int, ...] = (),
        unplayed: tuple[int, ...] = (),
    ) -> None:
        """Rate a finished game if every seat is held by a person, each a different player; once only.

        A game already rated is left as it is (a write tried again never rates
        twice). A game with a bot's seat, or a seat without a player, is not
        rated. Nor is a game in which a person never made a decision of their
        own (``unplayed``: they never came, or were away for a whole rematch,
        and the stand-in played it all): no contest took place, and rating it
        as abandoned would let anyone farm rating points off a second name that
        joins and never connects. The reasons are :func:`.ratings.unrated`'s,
        which the table's summary also tells its players. The players' rows are locked (PostgreSQL) so
        that two servers finishing two games of one player rate them one after
        the other.
        """
        if unplayed:
            log.info("table %s: game %d is not rated: seats %s never played in it", table_id, game, list(unplayed))
            return
        mine = (rated_table.c.table_id == table_id) & (rated_table.c.game == game)
        if db.execute(select(rated_table.c.seat).where(mine).limit(1)).first() is not None:
            return
        seats = db.execute(
            select(seats_table.c.seat, seats_table.c.kind, seats_table.c.player_id)
            .where(seats_table.c.table_id == table_id)
            .order_by(seats_table.c.seat)
        ).all()
        players = len(seats)
        reasons = ratings.unrated([(s.kind, s.player_id) for s in seats], unplayed, set(abandoned))
        if ratings.ALL_LEFT in reasons:
            log.info("table %s: game %d is not rated: every side has a player who left it", table_id, game)
        if players not in ratings.PLAYER_COUNTS or reasons:
            return
        people = [s.player_id for s in seats]  # no reason above: each seat a person's, each a different player
        held = {
            r.player_id: ratings.Skill(r.mu, r.sigma, r.games)
            for r in db.execute(
                select(ratings_table)
                .where(ratings_table.c.player_id.in_(people), ratings_table.c.players == players)
                .with_for_update()
            )
        }
        before = [held.get(player, ratings.NEW) for player in people]
        try:
            after = ratings.rate(players, before, winner, scores, set(abandoned))
            placing = ratings.ranks_of(players, winner, scores, set(abandoned))
        except (ValueError, ArithmeticError) as error:
            # A rating that cannot be worked out must never keep a game from ending: it stays unrated, said loudly.
            log.error("table %s: game %d cannot be rated (%s); it is kept unrated", table_id, game, error)
            return
        finished = datetime.now(UTC).isoformat(timespec="seconds")
        for seat, player in enumerate(people):
            values = {"mu": after[seat].mu, "sigma": after[seat].sigma, "games": after[seat].games}
            won = int(placing[seat].result == ratings.WON)
            if player in held:
                db.execute(
                    update(ratings_table)
                    .where(ratings_table.c.player_id == player, ratings_table.c.players == players)
                    .values(**values, wins=ratings_table.c.wins + won)
                )
            else:
                db.execute(insert(ratings_table).values(player_id=player, players=players, **values, wins=won))
        db.execute(
            insert(rated_table),
            [
                {
                    "table_id": table_id,
                    "game": game,
                    "seat": seat,
                    "player_id": player,
                    "players": players,
                    "result": placing[seat].result,
                    "abandoned": placing[seat].abandoned,
                    "mu_before": before[seat].mu,
                    "sigma_before": before[seat].sigma,
                    "mu_after": after[seat].mu,
                    "sigma_after": after[seat].sigma,
                    "games": after[seat].games,
                    "finished": finished,
                }
                for seat, player in enumerate(people)
            ],
        )

    # -------------------------------------------------------------- reads

    def load_tables(self, table_ids: list[str] | None = None, *, newest_public: int | None = None) -> list[StoredTable]:
        """Every table (or those of ``table_ids``, or the ``newest_public`` public ones), oldest first, with its
        seats and games: three statements however many tables (a takeover reads the dead owner's tables
        together)."""
        with self.reading() as db:
            rows_query = select(tables_table).order_by(tables_table.c.created, tables_table.c.id)
            seats_query = select(seats_table).order_by(seats_table.c.table_id, seats_table.c.seat)
            games_query = select(games_table).order_by(games_table.c.table_id, games_table.c.game)
            if isinstance(table_ids, str):
                raise TypeError(f"load_tables takes a list of table ids, not the one id {table_ids!r}")
            ids = None if table_ids is None else list(table_ids)
            if newest_public is not None:
                newest = (
                    select(tables_table.c.id)
                    .where(tables_table.c.public.is_(True))
                    .order_by(tables_table.c.created.desc(), tables_table.c.id.desc())
                    .limit(newest_public)
                )
                ids = list(db.execute(newest).scalars())
            if ids is not None:
                rows_query = rows_query.where(tables_table.c.id.in_(ids))
                seats_query = seats_query.where(seats_table.c.table_id.in_(ids))
                games_query = games_query.where(games_table.c.table_id.in_(ids))
            rows = db.execute(rows_query).all()
            seats: dict[str, list[StoredSeat]] = {}
            for s in db.execute(seats_query):
                seats.setdefault(s.table_id, []).append(
                    StoredSeat(s.seat, s.kind, s.name, s.level, s.token_hash, bool(s.auto_declare), s.player_id)
                )
            games: dict[str, list[StoredGame]] = {}
            for g in db.execute(games_query):
                games.setdefault(g.table_id, []).append(
                    StoredGame(
                        g.game,
                        g.dealer,
                        g.base_version,
                        bool(g.finished),
                        g.winner,
                        None if g.scores is None else json.loads(g.scores),
                        None if g.acted is None else json.loads(g.acted),
                        {} if g.left is None else {int(seat): how for seat, how in json.loads(g.left).items()},
                    )
                )
        return [
            StoredTable(
                r.id,
                r.created,
                json.loads(r.rules),
                r.preset,
                r.status,
                seats.get(r.id, []),
                games.get(r.id, []),
                bool(r.public),
                bool(r.spectators),
                int(r.creator),
                bool(r.hints),
            )
            for r in rows
        ]

    def game_ratings(self, table_id: str, game: int) -> list[dict[str, Any]] | None:
        """Each seat's rating change in a rated game, in seat order (:func:`rating_change`); ``None``: not rated."""
        with self.reading() as db:
            rows = db.execute(
                select(rated_table)
                .where(rated_table.c.table_id == table_id, rated_table.c.game == game)
                .order_by(rated_table.c.seat)
            ).all()
        return [rating_change(row) for row in rows] or None

    def load_record(self, table_id: str, game: int) -> dict[str, Any]:
        """One game of a table as a RECORD.md record, as far as it has been played, with the hints shown."""
        found = self.load_records([(table_id, game)])
        if (table_id, game) not in found:
            raise NoResultFound(f"no game {game} of table {table_id!r}")
        return found[table_id, game]

    def load_current(self, table_ids: list[str]) -> dict[str, tuple[StoredTable, dict[str, Any] | None]]:
        """Tables (:meth:`load_tables`) with the record of each one's current game (its last; ``None`` before its
        first): what a table is rebuilt from, for many tables in one go (a takeover's)."""
        tables = self.load_tables(table_ids)
        current = {t.id: (t.games[-1].game if t.games else 0) for t in tables}
        records, made_for = self._load_records(list(current.items()))
        for t in tables:
            if t.games:
                t.games[-1].made_for = made_for.get((t.id, current[t.id]), {})
        return {t.id: (t, records.get((t.id, current[t.id]))) for t in tables}

    def load_records(self, games: Sequence[tuple[str, int]]) -> dict[tuple[str, int], dict[str, Any]]:
        """Games ``(table, game)`` as RECORD.md records (:meth:`load_record`), five statements however many: a
        takeover rebuilds the dead owner's tables from one read. A game not stored is left out."""
        return self._load_records(games)[0]

    def _load_records(
        self, games: Sequence[tuple[str, int]]
    ) -> tuple[dict[tuple[str, int], dict[str, Any]], dict[tuple[str, int], dict[int, int]]]:
        """:meth:`load_records`, with each game's decisions the computer made for a person's seat (by number, with
        the seat), read from the same rows: kept out of the record, which every seat and spectator may fetch."""
        wanted = sorted(set(games))
        if not wanted:
            return {}, {}
        with self.reading() as db:
            heads = db.execute(
                select(games_table.c.table_id, games_table.c.game, games_table.c.dealer, tables_table.c.rules)
                .join(tables_table, tables_table.c.id == games_table.c.table_id)
                .where(tuple_(games_table.c.table_id, games_table.c.game).in_(wanted))
            ).all()
            decks = db.execute(
                select(rounds_table.c.table_id, rounds_table.c.game, rounds_table.c.round, rounds_table.c.deck)
                .where(tuple_(rounds_table.c.table_id, rounds_table.c.game).in_(wanted))
                .order_by(rounds_table.c.table_id, rounds_table.c.game, rounds_table.c.round)
            ).all()
            actions = db.execute(
                select(
                    actions_table.c.table_id,
                    actions_table.c.game,
                    actions_table.c.round,
                    actions_table.c.action,
                    actions_table.c.number,
                    actions_table.c.made_for,
                )
                .where(tuple_(actions_table.c.table_id, actions_table.c.game).in_(wanted))
                .order_by(actions_table.c.table_id, actions_table.c.game, actions_table.c.number)
            ).all()
            hints = db.execute(
                select(hints_table.c.table_id, hints_table.c.game, hints_table.c.hint)
                .where(tuple_(hints_table.c.table_id, hints_table.c.game).in_(wanted))
                .order_by(hints_table.c.table_id, hints_table.c.game, hints_table.c.number)
            ).all()
        records: dict[tuple[str, int], dict[str, Any]] = {
            (h.table_id, h.game): {"format": "ronda/1", "rules": json.loads(h.rules), "dealer": h.dealer, "rounds": []}
            for h in heads
        }
        for d in decks:
            records[d.table_id, d.game]["rounds"].append({"deck": json.loads(d.deck), "actions": []})
        made_for: dict[tuple[str, int], dict[int, int]] = {}
        for a in actions:
            records[a.table_id, a.game]["rounds"][a.round]["actions"].append(json.loads(a.action))
            if a.made_for is not None:
                made_for.setdefault((a.table_id, a.game), {})[a.number] = a.made_for
        for h in hints:  # the record's extension (docs/RECORD.md)
            records[h.table_id, h.game].setdefault("hints", []).append(json.loads(h.hint))
        return records, made_for

    def last_decision(self, table_id: str, game: int) -> tuple[int, dict[str, Any]] | None:
        """The number and action of a game's last stored decision (``None`` before any), once no transaction that
        stores one of this table's decisions is still under way.

        On PostgreSQL the read first locks the table's row ``FOR UPDATE``: a
        transaction that stores a decision holds a ``FOR KEY SHARE`` lock on that
        row (its insert's foreign key check) until it ends, so a COMMIT that
        PostgreSQL received but had not finished is waited for (at most the
        store's lock timeout, then :class:`StoreUnavailable`) instead of being
        read as "not stored". SQLite has one writer and commits in the calling
        thread: there is nothing under way to wait for.
        """
        with self.reading() as db:
            db.execute(select(tables_table.c.id).where(tables_table.c.id == table_id).with_for_update())
            row = db.execute(
                select(actions_table.c.number, actions_table.c.action)
                .where(actions_table.c.table_id == table_id, actions_table.c.game == game)
                .order_by(actions_table.c.number.desc())
                .limit(1)
            ).first()
        return None if row is None else (int(row.number), json.loads(row.action))

    def holds_decision(self, decision: Decision) -> bool:
        """Whether ``decision`` is stored, from its table's last stored decision: that one, or the one before it.

        Raises :class:`StoreConflict` when the store holds something else at or
        after its number (another decision there, later ones): the table in
        memory is not the stored one.
        """
        last = self.last_decision(decision.table_id, decision.game)
        number = -1 if last is None else last[0]
        if number == decision.number - 1:
            return False
        if last is not None and number == decision.number and last[1] == decision.action:
            return True
        raise StoreConflict(
            f"table {decision.table_id}: decision {decision.number} was to be stored, the store's last is {number}"
        )

    def holds_deck(self, table_id: str, game: int, round_index: int, deck: list[str]) -> bool:
        """Whether the deck of that round is stored, as ``deck``: a new table, a rematch (round 0) or a round dealt
        on its own, whose commit got no answer (each is stored with its deck, in one transaction).

        Raises :class:`StoreConflict` when that round is stored with another deck.
        """
        with self.reading() as db:
            db.execute(select(tables_table.c.id).where(tables_table.c.id == table_id).with_for_update())
            stored = db.execute(
                select(rounds_table.c.deck).where(
                    rounds_table.c.table_id == table_id,
                    rounds_table.c.game == game,
                    rounds_table.c.round == round_index,
                )
            ).scalar()
        if stored is None:
            return False
        if json.loads(stored) == deck:
            return True
        raise StoreConflict(f"table {table_id}: round {round_index} of game {game} is stored with another deal")

    def holds_hint(self, table_id: str, game: int, number: int, hint: dict[str, Any]) -> bool:
        """Whether the ``number``-th hint of the game is stored, as ``hint``; :class:`StoreConflict` if another is."""
        with self.reading() as db:
            db.execute(select(tables_table.c.id).where(tables_table.c.id == table_id).with_for_update())
            stored = db.execute(
                select(hints_table.c.hint).where(
                    hints_table.c.table_id == table_id, hints_table.c.game == game, hints_table.c.number == number
                )
            ).scalar()
        if stored is None:
            return False
        if json.loads(stored) == hint:
            return True
        raise StoreConflict(f"table {table_id}: hint {number} of game {game} is another")

    def action_numbers(self, table_id: str, game: int) -> list[int]:
        """The numbers of a game's stored decisions, in order (a test of contiguity: 0, 1, 2, ...)."""
        with self.reading() as db:
            rows = db.execute(
                select(actions_table.c.number)
                .where(actions_table.c.table_id == table_id, actions_table.c.game == game)
                .order_by(actions_table.c.number)
            ).all()
        return [r.number for r in rows]

    # ------------------------------------------------------------ players

    def add_player(self, db: Connection, player: StoredPlayer, keys: frozenset[str], session: StoredSession) -> None:
        """A new player with their name's look-alike ``keys`` and their first session, in one transaction.

        A key another player's name holds makes the insert fail (:class:`StoreConflict` through the journal):
        two players never end up with names that look alike, even when two servers take them at once.
        """
        db.execute(insert(players_table).values(id=player.id, created=player.created, name=player.name))
        db.execute(insert(names_table), [{"key": key, "player_id": player.id} for key in sorted(keys)])
        self.add_session(db, session)

    def add_session(self, db: Connection, session: StoredSession) -> None:
        db.execute(
            insert(sessions_table).values(
                id=session.id,
                player_id=session.player_id,
                token_hash=session.token_hash,
                created=session.created,
                last_seen=session.last_seen,
                agent=session.agent,
                address=session.address,
            )
        )

    def end_session(self, db: Connection, player_id: str, session_id: str) -> None:
        """The session is over (logged out, revoked): its cookie is no identity any more."""
        db.execute(
            delete(sessions_table).where(sessions_table.c.id == session_id, sessions_table.c.player_id == player_id)
        )

    def touch_session(self, db: Connection, session_id: str, when: str) -> None:
        db.execute(update(sessions_table).where(sessions_table.c.id == session_id).values(last_seen=when))

    def set_account(self, db: Connection, player_id: str, username: str, password_hash: str) -> None:
        """The player's account: a case-folded ``username`` (unique: a taken one fails) and an Argon2 hash.

        Also how a hash is replaced by a stronger one (Argon2's parameters raised) after a login."""
        db.execute(
            update(players_table)
            .where(players_table.c.id == player_id)
            .values(username=username, password_hash=password_hash)
        )

    def session_of(self, token_hash: str) -> tuple[StoredSession, StoredPlayer] | None:
        """The session whose cookie token hashes to ``token_hash``, and its player; ``None``: no such session."""
        with self.reading() as db:
            row = db.execute(
                select(sessions_table, players_table.c.name, players_table.c.username)
                .join(players_table, players_table.c.id == sessions_table.c.player_id)
                .where(sessions_table.c.token_hash == token_hash)
            ).first()
        if row is None:
            return None
        session = StoredSession(
            row.id, row.player_id, row.token_hash, row.created, row.last_seen, row.agent, row.address
        )
        return session, StoredPlayer(row.player_id, "", row.name, row.username)

    def player_of(self, token_hash: str) -> StoredPlayer | None:
        """The player whose browser holds the cookie token hashing to ``token_hash`` (``None``: nobody's)."""
        found = self.session_of(token_hash)
        return None if found is None else self.player(found[1].id)

    def player(self, player_id: str) -> StoredPlayer | None:
        with self.reading() as db:
            row = db.execute(select(players_table).where(players_table.c.id == player_id)).first()
        return None if row is None else StoredPlayer(row.id, row.created, row.name, row.username, row.password_hash)

    def account(self, username: str) -> StoredPlayer | None:
        """The player whose account has the (case-folded) ``username``, with their password's hash."""
        with self.reading() as db:
            row = db.execute(select(players_table).where(players_table.c.username == username)).first()
        return None if row is None else StoredPlayer(row.id, row.created, row.name, row.username, row.password_hash)

    def name_holder(self, keys: frozenset[str]) -> StoredPlayer | None:
        """The player whose name shares a look-alike key with ``keys`` (:func:`.forms.name_keys`), if any."""
        with self.reading() as db:
            row = db.execute(
                select(players_table.c.id, players_table.c.created, players_table.c.name)
                .join(names_table, names_table.c.player_id == players_table.c.id)
                .where(names_table.c.key.in_(sorted(keys)))
                .limit(1)
            ).first()
        return None if row is None else StoredPlayer(row.id, row.created, row.name)

    def sessions_of(self, player_id: str) -> list[StoredSession]:
        """The player's sessions, oldest first."""
        with self.reading() as db:
            rows = db.execute(
                select(sessions_table)
                .where(sessions_table.c.player_id == player_id)
                .order_by(sessions_table.c.created, sessions_table.c.id)
            ).all()
        return [
            StoredSession(r.id, r.player_id, r.token_hash, r.created, r.last_seen, r.agent, r.address) for r in rows
        ]

    def games_of(self, player_id: str) -> list[PlayerSeat]:
        """Every seat the player took with their kept name, oldest table first: where a history or a rating starts.

        Each table's games (and who won them) are then :meth:`load_tables` ``([table_id])``'s, its records
        :meth:`load_record`'s.
        """
        with self.reading() as db:
            rows = db.execute(
                select(seats_table.c.table_id, seats_table.c.seat, tables_table.c.created, tables_table.c.status)
                .join(tables_table, tables_table.c.id == seats_table.c.table_id)
                .where(seats_table.c.player_id == player_id)
                .order_by(tables_table.c.created, tables_table.c.id)
            ).all()
        return [PlayerSeat(r.table_id, r.created, r.seat, r.status) for r in rows]


def rating_change(row: Any) -> dict[str, Any]:
    """A seat's part in a rated game as the protocol shows it (docs/web-protocol.md), from its ``ronda_rated`` row."""
    before = ratings.Skill(row.mu_before, row.sigma_before, row.games - 1)
    after = ratings.Skill(row.mu_after, row.sigma_after, row.games)
    return {
        "seat": row.seat,
        "player_id": row.player_id,
        "result": row.result,
        "abandoned": bool(row.abandoned),
        "before": ratings.shown(before),
        "after": ratings.shown(after),
        "change": ratings.shown(after) - ratings.shown(before),
        "games": row.games,
        "provisional": after.provisional,
        "finished": row.finished,
    }


def _sqlite_pragmas(connection: Any, _record: Any, sync: str = "full") -> None:
    """WAL, and by default a full sync on commit: a decision acknowledged to the players survives a crash of the
    machine too (``sync="normal"``: of the server; see :class:`Store`).

    Group commit (:class:`Journal`) shares one sync among every decision that
    arrived meanwhile, so the cost stays small under load.
    """
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={SYNC_MODES[sync]}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


RESOLVE_PAUSES = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
"""Pauses between the questions of :func:`resolve_unknown_commit` while the store does not answer (the last repeats)."""


async def resolve_unknown_commit(
    journal: Journal, stored: Callable[..., bool], *args: Any, pauses: tuple[float, ...] = RESOLVE_PAUSES
) -> bool:
    """Whether a write that failed with :class:`CommitUnknown` was committed, as the store itself says.

    ``stored(*args)`` is a read method of the store that answers the question
    for that write (:meth:`Store.holds_decision` for a decision). It is asked on
    the journal's thread, after every write asked for before it, and asked
    again with growing pauses (``pauses``, the last repeating) for as long as
    the store does not answer: this returns only with the store's answer, never
    a guess, so the caller may tell everyone the truth. Meanwhile the caller
    must take nothing that depends on the outcome (a table answers decisions
    with ``pending``). A :class:`StoreConflict` from ``stored`` is passed on.

    The question is one read, whatever the write was; a server that owns a
    table by a lease would ask the same question of its fenced rows.
    """
    tries = 0
    while True:
        try:
            return await journal.read(stored, *args)
        except StoreUnavailable as error:
            if tries in (0, 10) or tries % 60 == 0:
                log.warning("the store does not answer whether a commit was done (%s); asking again", error)
        await asyncio.sleep(pauses[min(tries, len(pauses) - 1)])
        tries += 1


def _unavailable(error: BaseException) -> bool:
    """Whether a failed write failed because of the database's state (locked, down) rather than its own rows."""
    if isinstance(error, Fenced):
        return False  # one stale owner's write: the other writes of its batch are written without it
    return (
        isinstance(error, StoreUnavailable)
        or (isinstance(error, SQLAlchemyError) and not isinstance(error, IntegrityError))
        or (isinstance(error, DBAPIError) and error.connection_invalidated)
    )


class Journal:
    """The store's one worker thread: writes in the order they are asked for, decisions batched.

    One thread keeps writes in the order the games took them (SQLite allows one
    writer anyway) and keeps the event loop free while the database works.
    Every write waiting when the thread comes round is done in one transaction,
    and waiting decisions in one statement: under load a commit serves many
    moves (group commit), with no delay when the server is quiet. The caller's
    await returns once its write is committed, so an update is only ever sent
    about a decision that a restart would keep.

    Every write has a deadline (the store's ``timeout`` from when it was
    asked): one still waiting past it is refused without being tried, and the
    database's own timeouts bound a write being tried, so every caller gets an
    answer — committed, or :class:`StoreUnavailable` with nothing written —
    within about twice the timeout, even while the database is locked or down.
    The one exception is a COMMIT sent without an answer back: then every
    write of that transaction fails with :class:`CommitUnknown`, and its caller
    asks the store (:func:`resolve_unknown_commit`). A write refused for its
    rows (a key already taken) fails with :class:`StoreConflict`.
    """

    fence: tuple[str, int] | None = None
    """The table and lease epoch every write through this journal is checked against (:meth:`fenced`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.timeout = store.timeout
        self.observe_write: Callable[[float], None] | None = None
        """Told how long each write took, from asked to committed or refused (the store latency metric)."""
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="ronda-store", daemon=True)
        self._thread.start()

    async def write(self, fn: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        """Run a store write method (``fn(db, ...)``) on the worker, committed before this returns."""
        await self._timed(self._submit(_Job("write", fn, args, kwargs)))

    async def record(self, decision: Decision) -> None:
        """Store one decision, committed before this returns; :class:`StoreUnavailable` when it could not be."""
        await self._timed(self._submit(_Job("decision", None, (decision,), {})))

    async def _timed(self, written: asyncio.Future[Any]) -> None:
        started = time.monotonic()
        try:
            await written
        finally:
            if self.observe_write is not None:
                self.observe_write(time.monotonic() - started)

    async def read(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a store read method on the worker, after every write asked for before it (its arguments checked
        against ``fn``'s by the type checker: the job runs on another thread, far from the call)."""
        result: T = await self._submit(_Job("read", fn, args, kwargs))
        return result

    def fenced(self, table_id: str, epoch: int, on_fenced: Callable[[], None] | None = None) -> Journal:
        """This journal, for the owner of ``table_id`` at lease epoch ``epoch`` (a cluster, :mod:`.cluster`): each
        write goes through the same worker, in a transaction that first checks the epoch (:meth:`Store.check_fence`)
        and fails with :class:`Fenced`, writing nothing, once another process took the table over; ``on_fenced`` is
        called then (the stale owner drops the table)."""
        return _FencedJournal(self, (table_id, epoch), on_fenced)

    def _submit(self, job: _Job) -> asyncio.Future[Any]:
        if job.kind != "read":
            job.fence = self.fence
        loop = asyncio.get_running_loop()
        job.loop, job.future = loop, loop.create_future()
        job.deadline = time.monotonic() + self.timeout
        self._jobs.put(job)
        return job.future

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=30)
        self.store.close()

    # ------------------------------------------------------------ the worker

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while True:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._run_batch(batch)
            if stop:
                return

    def _run_batch(self, batch: list[_Job]) -> None:
        now = time.monotonic()
        late = [j for j in batch if j.deadline < now]
        for job in late:
            job.fail(StoreUnavailable("the database did not answer in time"))
        batch = [j for j in batch if j.deadline >= now]
        writes = [j for j in batch if j.kind != "read"]
        if writes:
            try:
                self._transaction(writes)
            except CommitUnknown as error:
                # The COMMIT got no answer: every write of the batch may be stored, or none; each caller finds out.
                for job in writes:
                    job.fail(CommitUnknown(str(error)))
            except Exception as error:
                if _unavailable(error):
                    # The database itself is locked or down: every write of the batch fails alike, at once.
                    for job in writes:
                        job.fail(StoreUnavailable(type(error).__name__))
                else:
                    # One bad write must not lose the others: write them one by one, each failing alone.
                    for job in writes:
                        try:
                            self._transaction([job])
                        except Exception as one:
                            job.fail(_failure(one))
                        else:
                            job.done(None)
            else:
                for job in writes:
                    job.done(None)
        for job in batch:
            if job.kind == "read":
                try:
                    assert job.fn is not None
                    job.done(job.fn(*job.args, **job.kwargs))
                except Exception as error:
                    job.fail(_failure(error))

    def _transaction(self, jobs: list[_Job]) -> None:
        """Write ``jobs`` in one transaction; a COMMIT that fails (no answer came) raises :class:`CommitUnknown`.

        Only the COMMIT leaves the outcome unknown: a failure before it (a
        statement, the connection) leaves the transaction uncommitted, since a
        database never commits a transaction whose COMMIT it did not receive.
        """
        with self.store.engine.connect() as db:
            transaction = db.begin()
            try:
                self._write_all(db, jobs)
            except BaseException:
                with contextlib.suppress(Exception):  # a lost connection has nothing left to roll back
                    transaction.rollback()
                raise
            try:
                transaction.commit()
            except Exception as error:
                raise CommitUnknown(type(error).__name__) from error

    def _write_all(self, db: Connection, jobs: list[_Job]) -> None:
        decisions: list[Decision] = []
        checked: set[tuple[str, int]] = set()
        for job in jobs:
            if job.fence is not None and job.fence not in checked:
                self.store.check_fence(db, *job.fence)
                checked.add(job.fence)
            if job.kind == "decision":
                decisions.append(job.args[0])
                continue
            if decisions:
                self.store.record_decisions(db, decisions)
                decisions = []
            assert job.fn is not None
            job.fn(db, *job.args, **job.kwargs)
        if decisions:
            self.store.record_decisions(db, decisions)


class _FencedJournal(Journal):
    """A view of a :class:`Journal` whose writes carry a fence (:meth:`Journal.fenced`); it shares the worker."""

    def __init__(
        self, journal: Journal, fence: tuple[str, int], on_fenced: Callable[[], None] | None
    ) -> None:  # no thread of its own
        self.store, self.timeout, self.fence = journal.store, journal.timeout, fence
        self._jobs, self._thread = journal._jobs, journal._thread
        self.observe_write = journal.observe_write  # its writes are timed as the journal's are (/metrics)
        self.on_fenced = on_fenced

    async def write(self, fn: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        try:
            await super().write(fn, *args, **kwargs)
        except Fenced:
            self._refused()
            raise

    async def record(self, decision: Decision) -> None:
        try:
            await super().record(decision)
        except Fenced:
            self._refused()
            raise

    def _refused(self) -> None:
        if self.on_fenced is not None:
            self.on_fenced()

    def close(self) -> None:
        """The worker is the shared journal's: it closes with it."""


def _failure(error: Exception) -> Exception:
    """What a caller is told of a failed write or read: unavailable (retry), unknown commit, conflict, or the error."""
    if isinstance(error, (CommitUnknown, Fenced)):
        return error
    if _unavailable(error):
        return StoreUnavailable(type(error).__name__)
    if isinstance(error, IntegrityError):
        return StoreConflict(type(error).__name__)
    return error


@dataclass
class _Job:
    kind: str
    fn: Callable[..., Any] | None
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    loop: asyncio.AbstractEventLoop | None = None
    future: asyncio.Future[Any] | None = None
    deadline: float = float("inf")
    fence: tuple[str, int] | None = None

    def done(self, value: Any) -> None:
        self._tell(lambda future: future.set_result(value))

    def fail(self, error: BaseException) -> None:
        self._tell(lambda future: future.set_exception(error))

    def _tell(self, settle: Callable[[asyncio.Future[Any]], None]) -> None:
        """Settle the waiting future on its own loop (futures are not thread-safe)."""
        loop, future = self.loop, self.future
        if loop is None or future is None:
            return

        def on_loop() -> None:
            if not future.done():  # a waiter that was cancelled (shutdown) needs no answer
                settle(future)

        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(on_loop)
