"""The lobby: every table of the server — creating them, finding them, rebuilding them, letting them go.

Only tables in use are held in memory. At startup the lobby reads a listing
of every stored table (one query, no replay) and rebuilds a table — by
replaying its record through the engine, off the event loop — when someone
opens it. A table leaves memory when nobody has been connected to it for a
while (``linger`` once finished, ``close_after`` otherwise) and is then
still stored, listed and replayable; a table whose people never came (no
one with a seat ever connected, or a seat never taken) is *closed* instead:
stored as closed, it takes no seat and no connection any more.

Limits: at most ``max_tables`` tables not yet finished in memory, and
``tables_per_client`` of them created by one client; beyond that a new table
is refused with a clear error (the page shows it).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import time
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ...engine.deck import shuffled_deck
from ...engine.errors import RecordError, RondaError
from ...engine.game import Game
from ...engine.rules import Rules
from .forms import HttpError, TableSpec
from .protocol import changed_from_preset, rules_json
from .ratings import rateable
from .replays import dealt_events, rebuild
from .store import (
    CommitUnknown,
    EpochBehind,
    Journal,
    StoredSeat,
    StoredTable,
    StoreUnavailable,
    resolve_unknown_commit,
)
from .tables import (
    CLOSED,
    FINISHED,
    PLAYING,
    SECURE_RNG,
    WAITING_STATUS,
    Seat,
    ServerSettings,
    Table,
    adopt,
    deck_names,
    log,
    new_token,
    now,
)
from .workers import BotPool

TABLE_ID_BYTES = 12
"""Random bytes of a table id (96 bits): the invite link is the key to a private table, so it cannot be guessed."""


class Lease(Protocol):
    """A lease on a table held by this process: its epoch is the fencing number of every write it makes."""

    @property
    def epoch(self) -> int: ...

    @property
    def taken_over(self) -> bool:
        """Taken from a holder that had died (its lease waited out or broken), not free."""
        ...


class Ownership(Protocol):
    """What the lobby asks of the cluster when there are several processes (:class:`.cluster.Cluster` does it)."""

    async def acquire(self, table_id: str) -> Lease:
        """A new lease on the table for this process; :class:`Elsewhere` when a live process holds it."""
        ...

    async def release(self, table_id: str) -> None: ...

    async def raise_epoch(self, table_id: str, stored: int) -> None: ...

    async def stop(self) -> None: ...


class Elsewhere(Exception):
    """With several processes (:mod:`.cluster`): another live process owns the table; a connection to it is relayed
    there, a seat is taken there."""

    def __init__(self, owner: str, lease: str) -> None:
        super().__init__(f"the table is owned by process {owner}")
        self.owner, self.lease = owner, lease


@dataclass(frozen=True)
class Limits:
    """How much one server takes on (``ronda serve`` options)."""

    max_tables: int = 1000
    """Tables not yet finished held at once, over every client."""
    tables_per_client: int = 10
    """Tables not yet finished that one client (an address) may have created and still hold."""


@dataclass
class Listing:
    """A stored table that is not in memory: what the lobby shows of it without rebuilding it."""

    summary: dict[str, Any]
    public: bool
    spectators: bool
    status: str


def stored_summary(stored: StoredTable) -> dict[str, Any]:
    """The protocol's table summary of a stored table, from its stored facts alone (nobody is connected)."""
    rules = Rules.from_dict(stored.rules)
    last = stored.games[-1] if stored.games else None
    return {
        "table_id": stored.id,
        "players": rules.players,
        "rules": rules_json(rules),
        "preset": stored.preset,
        "changed": changed_from_preset(rules, stored.preset),
        "status": stored.status,
        "game": last.game if last else 0,
        "public": stored.public,
        "spectators": stored.spectators,
        "hints": stored.hints,
        "creator": stored.creator,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "level": s.level,
                "connected": s.kind != "human",
                "taken": s.kind != "human" or s.token_hash is not None,
                "stand_in": False,
                "rematch": False,
                "left": last.left.get(s.seat) if last else None,  # stored with the game, as the live table says
                "grace_left": None,
                "ended_by_stand_in": False,
            }
            for s in stored.seats
        ],
        "scores": (last.scores if last and last.scores else [0] * rules.sides),
        "winner": last.winner if last and last.finished else None,
        "created": stored.created,
        "stalled": None,
        "rateable": rateable([(s.kind, s.player_id) for s in stored.seats]),
    }


REBUILDS = ThreadPoolExecutor(1, thread_name_prefix="ronda-rebuild")
"""Where stored games are replayed to rebuild their tables: one thread, one game at a time. A takeover rebuilds
tens of tables at once; replayed on several threads together, they would hold the interpreter's lock against the
event loop for seconds (its lease renewals late, every connection waiting), for no gain (one lock)."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Gathered(Generic[K, V]):
    """Reads of one kind, gathered: those asked for while one is under way are made together when it ends.

    The first ask is read at once, alone (no delay on a quiet server); asks that
    come while it runs wait for the next read, which takes them all. When an
    owner dies, its tables' pages reconnect together and their rebuilds share a
    few reads of the store instead of each making its own, one after another, on
    the store's one thread (a 500-game takeover spent about 3 s there).
    """

    def __init__(self, read: Callable[[list[K]], Awaitable[dict[K, V]]]) -> None:
        self._read = read
        self._asked: dict[K, list[asyncio.Future[V | None]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def get(self, key: K) -> V | None:
        """What the read found for ``key`` (``None``: nothing); the read's error, if it failed."""
        future: asyncio.Future[V | None] = asyncio.get_running_loop().create_future()
        self._asked.setdefault(key, []).append(future)
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read_all())
        return await future  # cancelled (a page gone): the read goes on for the others

    async def _read_all(self) -> None:
        try:
            while self._asked:
                asked, self._asked = self._asked, {}
                try:
                    found = await self._read(list(asked))
                except Exception as error:
                    for futures in asked.values():
                        for future in futures:
                            if not future.done():
                                future.set_exception(error)
                    continue
                for key, futures in asked.items():
                    for future in futures:
                        if not future.done():
                            future.set_result(found.get(key))
        finally:
            self._reader = None


class Lobby:
    """All tables by id — in memory or only listed — with the server settings and bot workers they share."""

    def __init__(
        self,
        journal: Journal,
        settings: ServerSettings,
        pool: BotPool,
        limits: Limits | None = None,
        cluster: Ownership | None = None,
    ) -> None:
        self.journal = journal
        self.cluster = cluster
        """Several processes (:mod:`.cluster`): tables held here are the ones whose lease this process holds."""
        self.settings = settings
        self.pool = pool
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.listings: dict[str, Listing] = {}
        self._opening: dict[str, asyncio.Future[Table]] = {}
        self._janitor: asyncio.Task[None] | None = None
        self._dropping: set[asyncio.Task[None]] = set()
        self._stored: Gathered[str, StoredTable] = Gathered(self._read_tables)
        """Tables as stored, read together when many are asked for at once (a takeover's reconnections)."""
        self._current: Gathered[str, tuple[StoredTable, dict[str, Any] | None]] = Gathered(self._read_current)
        """Tables with their current game's record (:meth:`~.store.Store.load_current`), read together likewise:
        what the tables reopened together are rebuilt from, in one read of the store's thread."""

    async def _read_tables(self, table_ids: list[str]) -> dict[str, StoredTable]:
        found = await self.journal.read(self.journal.store.load_tables, table_ids)
        return {stored.id: stored for stored in found}

    async def _read_current(self, table_ids: list[str]) -> dict[str, tuple[StoredTable, dict[str, Any] | None]]:
        return await self.journal.read(self.journal.store.load_current, table_ids)

    # ------------------------------------------------------------ startup

    def load(self) -> None:
        """List every stored table (call before serving; one read, no replay: tables are rebuilt when opened)."""
        for stored in self.journal.store.load_tables():
            try:
                summary = stored_summary(stored)
            except RondaError as error:
                log.error("table %s cannot be listed (%s); it is left out", stored.id, type(error).__name__)
                continue
            self.listings[stored.id] = Listing(summary, stored.public, stored.spectators, stored.status)

    async def start(self) -> None:
        self._janitor = asyncio.get_running_loop().create_task(self._sweep(), name="ronda-janitor")

    async def stop(self) -> None:
        if self._janitor is not None:
            self._janitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._janitor
        if self.cluster is not None:
            await self.cluster.stop()  # gives every table back first: its people reconnect to the next owner
        for table in self.tables.values():
            await table.stop()

    async def drop(self, table_id: str, *, release: bool = False) -> None:
        """Let go of a table this process no longer owns (a lease lost, a write fenced) or gives back (``release``,
        a shutdown): its work stops and every connection to it is closed to reconnect (1012), to the next owner."""
        table = self.tables.pop(table_id, None)
        self.listings.pop(table_id, None)  # read again from the store when asked: another process changes it now
        if table is None:
            return
        table.evicted = True
        for client in list(table.clients):
            close = getattr(client, "close_soon", None)
            if close is not None:
                close(1012)
        table.clients.clear()
        await table.stop()
        if self.cluster is not None and release:
            await self.cluster.release(table_id)

    def _fenced(self, table_id: str, epoch: int) -> None:
        """A write of the table at lease ``epoch`` was refused by its fence (another process took it over): drop it."""
        table = self.tables.get(table_id)
        if table is not None and table.journal.fence == (table_id, epoch):
            log.warning("table %s: another process owns it now; it is dropped here", table_id)
            task = asyncio.get_running_loop().create_task(self.drop(table_id))
            self._dropping.add(task)  # held: the loop keeps only a weak reference to a task
            task.add_done_callback(self._dropping.discard)

    # ------------------------------------------------------------ finding

    def known(self, table_id: str) -> Table | Listing:
        """The table in memory, or its listing; 404 when there is no such table."""
        table = self.tables.get(table_id) or self.listings.get(table_id)
        if table is None:
            raise HttpError(404, "not_found", f"there is no table {table_id[:40]!r}")
        return table

    def summary(self, table_id: str) -> dict[str, Any]:
        found = self.known(table_id)
        return found.summary() if isinstance(found, Table) else found.summary

    async def open(self, table_id: str) -> Table:
        """The table, rebuilt from the store if it is not in memory; 404 for none, 410 for a closed one."""
        if self.cluster is not None and table_id not in self.tables:
            await self._list_from_store(table_id)  # made, or changed, by another process
        found = self.known(table_id)
        if isinstance(found, Table):
            return found
        if found.status == CLOSED:
            raise HttpError(410, "closed", "this table was closed: nobody came to play")
        pending = self._opening.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._opening[table_id] = pending
            try:
                table = await self._rebuild(table_id)
            except BaseException as error:
                pending.set_exception(error)
                pending.exception()  # read: nobody else may be waiting
                raise
            finally:
                self._opening.pop(table_id, None)
            pending.set_result(table)
            return table
        return await asyncio.shield(pending)

    async def _list_from_store(self, table_id: str) -> None:
        """List ``table_id`` as the store holds it now (nothing listed when there is no such table)."""
        try:
            stored = await self._stored.get(table_id)
        except StoreUnavailable:
            raise HttpError(503, "store_unavailable", "the server cannot read its games just now: try again") from None
        if stored is not None:
            self.listings[stored.id] = Listing(stored_summary(stored), stored.public, stored.spectators, stored.status)

    async def find_summary(self, table_id: str) -> dict[str, Any]:
        """The table's summary; with several processes, from the store when another process holds the table.

        A table not in this process's memory (another process holds it, or it left memory) is summarised from the
        store, and said as a live one is where the store knows (a cluster audit: every other process left out the
        turn clock and a finished game's ratings, and called both players of a game going on elsewhere
        disconnected): the turn clock is the server's, the ratings are read, and whether a person is connected to
        a game another process holds is ``None``, not known here.
        """
        if self.cluster is not None and table_id not in self.tables:
            await self._list_from_store(table_id)
        summary = self.summary(table_id)
        if table_id in self.tables:
            return summary
        summary = self.as_stored(summary)
        if summary["status"] == FINISHED and summary["winner"] is not None:
            with contextlib.suppress(StoreUnavailable):  # the players' own pages have them too
                ratings = await self.journal.read(self.journal.store.game_ratings, table_id, summary["game"])
                if ratings is not None:
                    summary["ratings"] = ratings
        return summary

    def as_stored(self, summary: dict[str, Any]) -> dict[str, Any]:
        """The summary of a table this process does not hold, from its stored facts (:func:`stored_summary`), with
        what is known here: the server's turn clock and grace period, and, with several processes, ``connected:
        None`` (unknown) for the people of a game that may be going on at another process (:meth:`find_summary`)."""
        summary = {**summary, "turn_time": self.settings.turn_time, "grace": self.settings.grace}
        if self.cluster is not None and summary["status"] in (WAITING_STATUS, PLAYING):
            summary["seats"] = [
                {**seat, "connected": None} if seat["kind"] == "human" else seat for seat in summary["seats"]
            ]
        return summary

    async def read_only(self, table_id: str) -> Table:
        """The table to read (its finished games' replays): the live one if this process holds it, else as stored,
        not started (with several processes, another one may own it)."""
        if self.cluster is None or table_id in self.tables:
            return await self.open(table_id)
        await self._list_from_store(table_id)
        self.known(table_id)  # 404 for none
        try:
            (stored,) = await self.journal.read(self.journal.store.load_tables, [table_id])
        except StoreUnavailable:
            raise HttpError(503, "store_unavailable", "the server cannot read its games just now: try again") from None
        return self._table_from_store(stored)

    async def _own(self, table_id: str) -> tuple[Journal, Lease]:
        """Take the table's lease and store its epoch (:mod:`.cluster`): the journal its writes go through, fenced.

        :class:`~.cluster.Elsewhere` when a live process owns it.
        """
        assert self.cluster is not None
        for _ in range(3):
            lease = await self.cluster.acquire(table_id)
            try:
                await self.journal.write(self.journal.store.claim, table_id, lease.epoch)
            except EpochBehind as behind:  # Redis restarted empty: its counter runs on from the store's
                await self.cluster.release(table_id)
                await self.cluster.raise_epoch(table_id, behind.stored)
                continue
            except BaseException:
                await self.cluster.release(table_id)
                raise
            fenced = self.journal.fenced(table_id, lease.epoch, functools.partial(self._fenced, table_id, lease.epoch))
            return fenced, lease
        raise HttpError(503, "store_unavailable", "the server cannot take this table just now: try again")

    async def _rebuild(self, table_id: str) -> Table:
        journal, lease = self.journal, None
        asked = time.monotonic()
        if self.cluster is not None:
            try:
                journal, lease = await self._own(table_id)
            except StoreUnavailable:
                raise HttpError(503, "store_unavailable", "the server cannot save just now: try again") from None
        owned = time.monotonic()
        try:
            table = await self._rebuild_owned(table_id, journal)
        except BaseException:
            if self.cluster is not None:
                await self.cluster.release(table_id)
            raise
        if lease is not None and lease.taken_over:  # how long its people waited here (benchmarks/cluster_load.py)
            log.info(
                "table %s: taken over in %.3f s (lease and claim %.3f s, rebuilt from the store %.3f s)",
                table_id,
                time.monotonic() - asked,
                owned - asked,
                time.monotonic() - owned,
            )
        return table

    async def _rebuild_owned(self, table_id: str, journal: Journal) -> Table:
        try:
            # Read after the claim: the stored game is whole (the old owner can add nothing since).
            found = await self._current.get(table_id)
            if found is None:
                raise HttpError(404, "not_found", f"there is no table {table_id[:40]!r}")
            stored, record = found
            table = self._table_from_store(stored, journal)
            if record is None:
                raise StoreUnavailable("the table's game is not stored")
            game, events, made = await asyncio.get_running_loop().run_in_executor(REBUILDS, rebuild, record)
        except StoreUnavailable:
            raise HttpError(503, "store_unavailable", "the server cannot read its games just now: try again") from None
        except RondaError as error:
            # Where, not what: the engine's message could name a card of a hand.
            where = error.where if isinstance(error, RecordError) else ""
            log.error("table %s cannot be rebuilt (%s %s)", table_id, type(error).__name__, where)
            raise HttpError(
                500, "damaged", "this table's stored game cannot be rebuilt (the server's log says where)"
            ) from None
        made_for = stored.games[-1].made_for if stored.games else {}
        adopt(table, game, events, made, len(record.get("hints", [])), made_for)
        if table_id in self.tables:  # rebuilt meanwhile by another path
            return self.tables[table_id]
        if table.status != FINISHED:
            with contextlib.suppress(StoreUnavailable):
                await table.deal_if_between_rounds()
        else:
            await table.load_ratings(table.number)
        table.ever_connected = True  # a stored table's people came once: idle, it leaves memory, it is not closed
        table.inherited = table.version  # a bot's turn owed now was owed before the rebuild: it goes first
        self.tables[table_id] = table
        self.listings.pop(table_id, None)
        table.start()
        return table

    def _table_from_store(self, stored: StoredTable, journal: Journal | None = None) -> Table:
        rules = Rules.from_dict(stored.rules)
        seats = [Seat(s.seat, s.kind, s.name, s.level, s.token_hash, s.auto_declare, s.player_id) for s in stored.seats]
        journal = journal or self.journal
        table = Table(stored.id, stored.created, rules, stored.preset, seats, journal, self.settings, self.pool)
        table.status = stored.status
        table.public, table.spectators, table.creator = stored.public, stored.spectators, stored.creator
        table.hints = stored.hints
        for g in stored.games:
            table.bases[g.game] = g.base_version
            if g.finished:
                table.results[g.game] = (g.winner, g.scores or [0] * rules.sides)
        if stored.games:
            current = stored.games[-1]
            table.number, table.base_version = current.game, current.base_version
            # Who played in the current game, as stored with their decisions; a game stored before that was
            # recorded (migration 0005) trusts every seat, as every rebuilt table once did.
            table.acted = set(range(len(seats))) if current.acted is None else set(current.acted)
            # Who left it, as stored: they still count as having left, and the stand-in plays for them until they
            # are back (their hello), as before the restart.
            table.abandoned = set(current.left)
            table.idle = {seat for seat, how in current.left.items() if how == "turns"}
            table.left_stored = dict(current.left)
            for seat in current.left:
                seats[seat].stand_in = True
        table.on_finished = self._finished
        return table

    def summaries(self, limit: int) -> list[dict[str, Any]]:
        """The public tables' summaries, newest first: a private table is found only through its invite."""
        shown = [t.summary() for t in self.tables.values() if t.public]
        shown += [listing.summary for listing in self.listings.values() if listing.public]
        shown.sort(key=lambda s: s["created"], reverse=True)
        return shown[:limit]

    # ----------------------------------------------------------- creating

    async def create(self, spec: TableSpec, owner: str | None = None, player: str | None = None) -> tuple[Table, str]:
        """A new table from a creator's choices; the creator (the player ``player``, when known) takes seat
        ``spec.me``. Returns the table and the token."""
        live = [t for t in self.tables.values() if t.live]
        if len(live) >= self.limits.max_tables:
            raise HttpError(503, "server_full", "the server has as many games going as it can take: try again later")
        if owner is not None and sum(t.owner == owner for t in live) >= self.limits.tables_per_client:
            raise HttpError(
                429,
                "too_many_tables",
                f"you already have {self.limits.tables_per_client} tables going: finish or leave one first",
            )
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        while table_id in self.tables or table_id in self.listings:
            table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        token, digest = new_token()
        seats = []
        for index, s in enumerate(spec.seats):
            if s.kind == "bot":
                seats.append(Seat(index, "bot", f"{s.level} bot", s.level))
            elif index == spec.me:
                seats.append(Seat(index, "human", s.name, None, digest, player=player))
            else:
                seats.append(Seat(index, "human"))
        status = PLAYING if all(s.taken for s in seats) else WAITING_STATUS
        rules = spec.rules
        dealer = rules.players - 1
        deck = shuffled_deck(rules, SECURE_RNG)
        game = Game(rules, decks=[deck], dealer=dealer)
        view = game.view(0)
        over = view.winner is not None  # won by its very first events (automatic declarations, a tiny target)
        stored = StoredTable(
            table_id,
            now(),
            rules.to_dict(),
            spec.preset,
            status,
            [StoredSeat(s.index, s.kind, s.name, s.level, s.token_hash, player_id=s.player) for s in seats],
            public=spec.public,
            spectators=spec.spectators,
            creator=spec.me,
            hints=spec.hints,
        )
        try:
            try:
                await self.journal.write(self.journal.store.new_table, stored, dealer=dealer, deck=deck_names(deck))
            except CommitUnknown:
                # The table may be stored: a creator told 503 would make a second one. The store says which.
                if not await resolve_unknown_commit(
                    self.journal, self.journal.store.holds_deck, table_id, 0, 0, deck_names(deck)
                ):
                    raise
            if over:  # nobody made a decision in it: not rated (every person's seat unplayed)
                unplayed = tuple(s.index for s in seats if s.human)
                await self.journal.write(
                    self.journal.store.finish_game, table_id, 0, view.winner, list(view.scores), (), unplayed
                )
        except StoreUnavailable:
            raise HttpError(503, "store_unavailable", "the server cannot save just now: try again") from None
        journal = self.journal
        if self.cluster is not None:  # the process that made the table owns it first
            try:
                journal, _ = await self._own(table_id)
            except StoreUnavailable:
                raise HttpError(503, "store_unavailable", "the server cannot save just now: try again") from None
        table = Table(
            table_id, stored.created, rules, spec.preset, seats, journal, self.settings, self.pool, status=status
        )
        table.public, table.spectators, table.creator, table.owner = spec.public, spec.spectators, spec.me, owner
        table.hints = spec.hints
        table.on_finished = self._finished
        adopt(table, game, dealt_events(game), [])
        if over:
            table.status = FINISHED
            table.results[0] = (view.winner, list(view.scores))
        self.tables[table_id] = table
        table.start()
        return table, token

    # ------------------------------------------------------------ letting go

    def _finished(self, table: Table) -> None:
        """A game ended: the table leaves memory once nobody has been connected for ``linger`` seconds."""
        if not table.clients:
            table.quiet_since = time.monotonic()

    async def sweep(self) -> None:
        """Let go of the tables nobody uses: finished ones after ``linger``, others after ``close_after``."""
        clock = time.monotonic()
        for table in list(self.tables.values()):
            if table.clients or table._lock.locked():
                continue
            quiet = clock - table.quiet_since
            if table.status == FINISHED and quiet >= self.settings.linger:
                await self._evict(table)
            elif quiet >= self.settings.close_after:
                never_came = not table.ever_connected or table.status == WAITING_STATUS
                try:
                    await self._evict(table, CLOSED if never_came else None)
                except StoreUnavailable:
                    continue  # tried again at the next sweep

    async def _evict(self, table: Table, status: str | None = None) -> None:
        async with table._lock:  # no hello or join is half done
            if table.clients:
                return
            table.evicted = True
        await table.close(status)
        self.tables.pop(table.id, None)
        self.listings[table.id] = Listing(table.summary(), table.public, table.spectators, table.status)
        if self.cluster is not None:
            await self.cluster.release(table.id)

    async def _sweep(self) -> None:
        pause = max(0.05, min(30.0, self.settings.linger / 2, self.settings.close_after / 2))
        while True:
            await asyncio.sleep(pause)
            try:
                await self.sweep()
            except Exception as error:
                log.error("the lobby's sweep failed (%s); it runs again later", type(error).__name__)
