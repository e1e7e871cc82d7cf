"""One table of the web server: the game, its seats, who is connected, the versions, the bots.

A :class:`Table` is where the server is authoritative. Every decision — a
person's over a websocket, a bot's, a stand-in's, an automatic declaration —
goes through :meth:`Table.decide`: checked against the engine, applied to a
*copy* of the game, stored (committed), and only then made the table's game
and sent out as one ``update`` per connection, each with that connection's
own view (R11). A decision the store cannot take in time is refused to its
sender with the retryable ``store_unavailable`` error and leaves the table
exactly as it was (game, version, events), so stored decisions are always
contiguous and every update a player saw is in the store. Events carry
consecutive per-table versions so a client that reconnects can ask for
exactly what it missed.

A store that was asked to commit a decision and never answered (the
connection dropped after the COMMIT left) leaves it unknown whether the
decision is stored. The table never guesses: it asks the store
(:func:`~.store.resolve_unknown_commit`) until the store says, and only then
tells anyone — everyone gets the update if it was stored, the sender alone a
truthful refusal if not. Meanwhile every other decision is answered with the
retryable ``pending`` error, so nothing is taken on top of an unknown.

A decision may carry the version it was made at (its id, docs/web-protocol.md):
a decision sent again once taken — after a reconnect, a refusal, a page that
retries by itself — gets that decision's outcome and is never applied twice;
a different decision for a version already taken is refused (``stale``) with
the table as it is.

Bots think in worker processes (:mod:`.workers`), one decision at a time per
table; the table only waits for the answer. Hints (:meth:`Table.hint`, when the
table allows them) are searched in the same workers from the asking seat's
view alone, sent to that seat's connections only, and stored with the game
(the record's ``hints`` extension). The server makes its automatic
decisions (bots, stand-ins, automatic declarations) only while someone is
connected to the table: a table nobody looks at costs no work. A person who
disconnects keeps the seat for a grace period; then the stand-in bot plays
for the seat until the person says hello again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, assert_never

from ...analysis.hints import hint_of, shown_options
from ...analysis.review import option_json
from ...analysis.search import Method, decision_seed
from ...engine.actions import Action, Declare, action_to_record
from ...engine.cards import card_name
from ...engine.deck import shuffled_deck
from ...engine.errors import RondaError
from ...engine.events import Event
from ...engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ...engine.rules import Rules
from ...engine.view import SeatView
from .connections import TOO_MANY
from .forms import HttpError, check_name
from .protocol import (
    Act,
    AskHint,
    AutoDeclare,
    ClientMessage,
    Hello,
    Ping,
    ProtocolError,
    Rematch,
    Settings,
    changed_from_preset,
    dumps,
    error_json,
    legal_json,
    public_view_json,
    rules_json,
    view_json,
)
from .ratings import rateable
from .ratings import unrated as why_unrated
from .replays import dealt_events
from .store import CommitUnknown, Decision, Journal, StoreConflict, StoreUnavailable, resolve_unknown_commit
from .workers import BotFailed, BotPool

log = logging.getLogger("ronda.web")

SECURE_RNG = random.SystemRandom()
"""Every deck the server deals is shuffled from the operating system's secure source: nobody can predict a deal."""

WAITING_STATUS, PLAYING, FINISHED, CLOSED = "waiting", "playing", "finished", "closed"

STORE_RETRY = "the game could not be saved just now, so this move was not taken: send it again in a moment"
PENDING = "the last move is being saved and the server is checking that it was: send yours again in a moment"
BOT_BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Pauses of a bot (or stand-in) whose decision failed (the store refused it, the bot failed), before it tries again.

After as many failures in a row the table reports that it cannot play for the seat (logged, and ``stalled`` in the
table's summary) and tries again only every :data:`STALLED_RETRY` seconds, or when someone says hello or acts."""
STALLED_RETRY = 30.0
DECLARE_SPREAD = 6.0
"""A person's automatic declaration waits between ``bot_delay`` and this many times it, at random
(0.6 to 3.6 s by default), as a person taking their time would (:meth:`Table._pause`)."""
STORE_GRACE = 10.0
"""Seconds a person is given to send again a decision the store could not take when their clock ran out meanwhile:
the failure was the server's."""
TIMEOUTS_TO_LEAVE = 3
"""Decisions in a row a connected person lets the clock make for them before they count as having left the game
(a rated game lost, as past the grace period): someone who stays connected and never moves has left in all but
name, and must not win a rated game by making the other give up and go."""
READING_TIME = 60.0
"""Seconds added to a person's turn clock for their first decision of each round after the first (:meth:`Table.
_reading_time`): the round's summary is on their page while the next deal's clock runs."""
SEAT_CONNECTIONS = 8
"""Connections one seat may hold at once (tabs, a phone and a laptop): past it, its oldest is closed. A seat holder
is never refused (the address caps do not count seats), so without this one token could open sockets without end,
each answered with a whole state at every hello."""


class TableMoved(Exception):
    """The table left memory (it is stored): open it again through the lobby to get the live one."""


class Client(Protocol):
    """A connection as a table sees it: something that queues text to send, in order, without blocking."""

    def send(self, text: str) -> None: ...


def hash_token(token: str) -> str:
    """The SHA-256 of a seat's token, the only form the server keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> tuple[str, str]:
    """A new seat token (32 random bytes, url-safe) and its hash."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def deck_names(deck: list[int]) -> list[str]:
    return [card_name(c) for c in deck]


@dataclass
class Seat:
    """One seat: a person (free until someone takes it) or a bot, and what the server does for it."""

    index: int
    kind: str
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    auto_declare: bool = False
    player: str | None = None
    """The player (docs/server.md, "Identity and accounts") who took the seat under their kept name, if one did."""
    stand_in: bool = False
    """The person is away past the grace period and the stand-in bot plays for the seat."""
    rematch: bool = False
    absence: asyncio.TimerHandle | None = None

    @property
    def human(self) -> bool:
        return self.kind == "human"

    @property
    def taken(self) -> bool:
        return not self.human or self.token_hash is not None


@dataclass
class ServerSettings:
    """The server's choices every table follows (``ronda serve`` options)."""

    grace: float = 60.0
    stand_in: str = "medium"
    bot_delay: float = 0.6
    close_after: float = 900.0
    """Seconds a table may stay with nobody connected: then it leaves memory (closed, if its people never came)."""
    linger: float = 30.0
    """Seconds a finished table with nobody connected stays in memory (for a quick rematch) before it leaves."""
    max_spectators: int = 64
    """Spectators' connections one table takes at once; a seat holder's connection is always let in."""
    turn_time: float = 120.0
    """Seconds a connected person has for each decision (``ronda serve --turn-time``; 0: no clock): then the stand-in
    makes that one decision for them (:meth:`Table._turn_over`)."""
    method: Method = field(default_factory=Method)
    """How hints and analyses are searched (``ronda serve --analysis-budget``): ``ronda analyse``'s defaults."""


@dataclass
class Table:
    """A table: seats, the current game (``number`` counts rematches), and every connection to it."""

    id: str
    created: str
    rules: Rules
    preset: str | None
    seats: list[Seat]
    journal: Journal
    settings: ServerSettings
    pool: BotPool
    status: str = WAITING_STATUS
    number: int = 0
    base_version: int = 0
    """The table's version before the current game's first event: versions run on across rematches."""
    results: dict[int, tuple[int | None, list[int]]] = field(default_factory=dict)
    """Winner and scores of this table's finished games, by game number."""
    bases: dict[int, int] = field(default_factory=lambda: {0: 0})
    """The base version of each of this table's games, by game number (replays number their events with it)."""
    clients: dict[Client, int | None] = field(default_factory=dict)
    game: Game | None = None
    """The current game as stored: only ever replaced by a game whose last decision is committed."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """The current game's events as sent (with their versions)."""
    public: bool = False
    """Listed in the lobby for anyone to join or watch; otherwise reachable only through the invite link."""
    spectators: bool = True
    """Whether people without a seat may watch (with the invite link, or from the list when public)."""
    creator: int = 0
    """The seat of the person who made the table: only they change who may find and watch it."""
    hints: bool = False
    """Whether the players may ask for hints on their decisions (off by default among people only)."""
    owner: str | None = None
    """Who created the table, as the server's limits count clients (not stored)."""
    ever_connected: bool = False
    """Someone with a seat has said hello at least once: the table's people came."""
    quiet_since: float = field(default_factory=time.monotonic)
    """When the last connection left (or the table was made): tables nobody visits leave memory."""
    on_finished: Callable[[Table], None] | None = None
    evicted: bool = False
    """The table left memory: this object is no longer the table; the lobby rebuilds it when it is opened."""
    _actions: int = 0
    _hints: int = 0
    """Hints stored for the current game (each is stored under its number)."""
    _hint: tuple[tuple[int, int], str] | None = None
    """The last hint sent: for which decision (game, decisions taken before it), and the message."""
    _hinting: set[tuple[int, int]] = field(default_factory=set)
    _made: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The current game's decisions (RECORD.md form, with the seat) by the version each was made at: resends are
    recognised by it."""
    made_for: dict[int, int] = field(default_factory=dict)
    """The current game's decisions that the computer made for a person's seat (their turn clock ran out, or the
    stand-in played it), by the version of the decision's first event, with the seat: that seat's own messages say
    so (``made_for_you``), and its play-by-play tells them as the computer's, not as moves of the person's own.

    Why: a person's page narrated "You play 4o, take 4c" for a move their clock let the computer make (an audit).
    Only the seat is told: a single turn let pass is nobody else's business. Stored with each decision
    (:attr:`~.store.Decision.made_for`, migration 0007), so a table rebuilt after a restart or a takeover tells
    them as this one did (:func:`adopt`)."""
    _pending: Decision | None = None
    """A decision whose COMMIT got no answer, while the store is asked whether it holds it: nothing else is taken."""
    inherited: int | None = None
    """The version at which the table was rebuilt from the store (a takeover, a restart): a bot's decision owed at
    that version was owed before, while its people waited through the rebuild, so it goes first in the bot queue
    and without the pause of ``bot_delay`` (:class:`~.workers.BotPool`)."""
    stalled: int | None = None
    """The seat whose bot or stand-in the server cannot play for just now (the store or the bot keeps failing)."""
    abandoned: set[int] = field(default_factory=set)
    """Seats whose players left the current game past the grace period: a rated game counts as lost for them, even
    if they come back.

    Stored with the next decision after a seat joins it (:attr:`.store.Decision.left`, with :attr:`idle`'s word for
    how), and read back by a table rebuilt after a restart or a takeover: a leaver back after the server was killed
    was rated by the score, as if they had stayed, while the table knew it only in memory (an audit's leftover).
    What a crash before that decision loses is the time since: the rebuilt table starts the person's grace period
    again."""
    left_stored: dict[int, str] = field(default_factory=dict)
    """:meth:`who_left` as last stored with a decision (or read back from the store): a decision carries who left only
    when it changed."""
    idle: set[int] = field(default_factory=set)
    """Seats of :attr:`abandoned` whose person came to count as having left by letting :data:`TIMEOUTS_TO_LEAVE`
    turns pass while connected, not by staying away past the grace period: their page says which (the summary's
    ``left``), as it tells them, once back, what counting as having left means."""
    ended_by_stand_in: set[int] = field(default_factory=set)
    """The people's seats the stand-in was playing when the current game ended (empty while it goes on).

    Why: a person counted as having left who came back and played on to the end made the moves that ended the game
    themself; the end screen credited the computer with reaching the target for every leaver's seat (an audit: "Your
    seat, played by the computer after you left, reached 11 first" above "Game over — you win" to a person who had
    been back for the whole end of the game). Taken when the game ends, not read from ``stand_in`` afterwards: a
    leaver who comes back after the end is no longer stood in for, and the stand-in still played their seat."""
    acted: set[int] = field(default_factory=set)
    """Seats whose person made a decision of their own in the current game (not their stand-in's; their automatic
    declaration is theirs, made while they are there), or was there when their turn clock ran out: a game with a
    person who never did is not rated.

    A seat joins it when such a decision is stored, and is stored with it (:attr:`.store.Decision.acted`, in the
    decision's transaction): a table rebuilt after a restart or after leaving memory reads it back and rates as this
    one would have, instead of trusting every seat, which let a second name that never played be rated. A game
    stored before that was recorded (before migration 0005) still counts every seat."""
    timeouts: dict[int, int] = field(default_factory=dict)
    """Each seat's decisions in a row made by the stand-in when the person's turn time ran out (a decision of their
    own, their automatic declaration included, ends the row)."""
    _clock: asyncio.TimerHandle | None = None
    """The turn clock's timer, running for the decision of :attr:`_deadline`."""
    _deadline: tuple[int, int, float] | None = None
    """The seat, version and event-loop time at which the person's decision owed now runs out: kept while the
    person is away, so that leaving and coming back never starts a fresh clock for the same decision."""
    _attempt: tuple[int, int] | None = None
    """The seat and version of a person's decision sent and being stored: the clock waits for its outcome."""
    _overdue: tuple[int, int] | None = None
    """The seat and version of a decision whose turn time ran out: the stand-in makes it."""
    _read: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Each seat's last (game, round) whose first decision got :data:`READING_TIME` more: once a round, no more."""
    ratings: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Each rated game's rating changes, by game number (:meth:`~.store.Store.game_ratings`)."""
    _tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _driver: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ queries

    def _game(self) -> Game:
        assert self.game is not None, "a table in memory always holds its game"
        return self.game

    def _public(self) -> SeatView:
        """The public facts of the game (phase, turn, scores, winner), from seat 0's view; never sent as is."""
        return self._game().view(0)

    @property
    def version(self) -> int:
        """The number of the table's latest event (0 before any)."""
        return self.base_version + len(self.events)

    @property
    def live(self) -> bool:
        """Whether the table holds a game that is not over (it counts toward the server's limit)."""
        return self.status in (WAITING_STATUS, PLAYING)

    def connected(self, seat: int) -> bool:
        return any(s == seat for s in self.clients.values())

    def watching(self) -> int:
        """Connections of spectators (no seat): the only ones a table's cap counts."""
        return sum(1 for s in self.clients.values() if s is None)

    def summary(self) -> dict[str, Any]:
        """The table summary of the protocol: what anyone who knows the table may know about it."""
        if self.game is not None:
            view = self._public()
            scores, winner = list(view.scores), view.winner
        else:
            winner, scores = self.results.get(self.number, (None, [0] * self.rules.sides))
        return {
            "table_id": self.id,
            "players": self.rules.players,
            "rules": rules_json(self.rules),
            "preset": self.preset,
            "changed": changed_from_preset(self.rules, self.preset),
            "status": self.status,
            "game": self.number,
            "public": self.public,
            "spectators": self.spectators,
            "hints": self.hints,
            "creator": self.creator,
            "seats": [
                {
                    "seat": s.index,
                    "kind": s.kind,
                    "name": s.name,
                    "level": s.level,
                    "connected": True if not s.human else self.connected(s.index),
                    "taken": s.taken,
                    "stand_in": s.stand_in,
                    "rematch": s.rematch,
                    "left": self._left(s.index),
                    "grace_left": self._grace_left(s),
                    "ended_by_stand_in": s.index in self.ended_by_stand_in,
                }
                for s in self.seats
            ],
            "scores": scores,
            "winner": winner,
            "created": self.created,
            "stalled": self.stalled,
            "turn_time": self.settings.turn_time,
            "grace": self.settings.grace,
            "rateable": rateable([(s.kind, s.player) for s in self.seats]),
            **({"ratings": self.ratings[self.number]} if self.number in self.ratings else {}),
            **({"unrated": reasons} if (reasons := self.unrated()) else {}),
        }

    def who_left(self) -> dict[int, str]:
        """Every seat whose person counts as having left the current game, with how (:meth:`_left`)."""
        return {seat: "turns" if seat in self.idle else "away" for seat in sorted(self.abandoned)}

    def _left(self, seat: int) -> str | None:
        """How the seat's person came to count as having left the current game: ``away`` past the grace period, or
        ``turns`` let pass (:data:`TIMEOUTS_TO_LEAVE` in a row); ``None`` while they have not.

        Why it is said while the game goes on: a person back after the grace period read an ordinary "Declare your
        hand", played on, reached the target, and only then read that the game counted as a loss for them (an
        audit). Their page says it the moment they are back; the others already saw the seat away, then played by
        the computer."""
        return self.who_left().get(seat)

    def _grace_left(self, seat: Seat) -> float | None:
        """Seconds left of the grace period of a person away during a game, before the stand-in plays for the seat;
        ``None`` when none runs (there, stood in for, or no game going on).

        Why: the others' pages showed a person away on their turn as thinking ("Eve is playing…", dots) while
        nobody played for the seat; they say instead how long the table waits for them (a page counts on from
        this, as it does from ``clock``)."""
        if seat.absence is None or self.status != PLAYING:
            return None
        return round(max(0.0, seat.absence.when() - asyncio.get_running_loop().time()), 1)

    def unrated(self) -> list[str]:
        """Why the current game, finished, is not rated (:func:`.ratings.unrated`), from the facts the store rated it
        with (the seats, who played, who left); empty while it goes on and once it is rated.

        The end screen says it: a game among people that showed no rating and no reason left them guessing (an
        audit: two guests, neither with a kept name). Who left is read back with a table rebuilt after a restart
        (:attr:`abandoned`); for a game stored before that was (migration 0006) nobody is known to have left.
        """
        if self.number not in self.results or self.number in self.ratings:
            return []
        seats = [(s.kind, s.player) for s in self.seats]
        return why_unrated(seats, self._unplayed(self.acted), self.abandoned)

    def seat_of_token(self, token: str) -> int | None:
        """The seat this token opens, comparing hashes in constant time; ``None`` when it opens none."""
        digest = hash_token(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = seat.index
        return found

    def events_json(self, since: int) -> list[dict[str, Any]]:
        """The current game's events after version ``since``, each with its version."""
        return self.events[since - self.base_version :]

    def _view(
        self, seat: int | None, game: Game | None = None, legal: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The VIEW of ``seat`` (``None``: a spectator's), ``proven`` worked out for the challenges in ``legal``."""
        game = game or self._game()
        if seat is None:
            return public_view_json(game)
        targets = [a["challenge"] for a in legal or () if "challenge" in a]
        return view_json(game.view(seat), targets)

    def _legal(self, seat: int | None, game: Game | None = None) -> list[dict[str, Any]]:
        if self.status != PLAYING:
            return []
        return legal_json(game or self._game(), seat)

    def _picture(self, seat: int | None, game: Game | None = None) -> dict[str, Any]:
        """The ``view`` and ``legal`` of a message to ``seat``."""
        legal = self._legal(seat, game)
        return {"view": self._view(seat, game, legal), "legal": legal}

    def state_message(self, seat: int | None, events: bool = False) -> dict[str, Any]:
        """The whole picture for ``seat``; ``events``: with the current game's events so far, to be told as they
        happen (a rematch's opening lines: the round's header and the first deal, as a reload tells them)."""
        return {
            "type": "state",
            "version": self.version,
            **self._picture(seat),
            "table": self.summary(),
            "clock": self._clock_left(),
            **({"events": self.events_json(self.base_version)} if events else {}),
        }

    def _clock_left(self) -> float | None:
        """Seconds left on the turn clock of the decision owed now, when a person's clock runs for it (a page that
        reloads or reconnects counts from this, not from a full clock)."""
        deadline = self._deadline
        if deadline is None or deadline[1] != self.version:
            return None
        return round(max(0.0, deadline[2] - asyncio.get_running_loop().time()), 1)

    def _made_for_you(self, seat: int | None, since: int) -> dict[str, Any]:
        """The ``made_for_you`` of a message to ``seat`` carrying the events after version ``since``: those that are
        the seat's decisions the computer made for it (:attr:`made_for`); nothing for a spectator, another seat, or
        none."""
        if seat is None or not self.made_for:
            return {}
        versions = sorted(v for v, s in self.made_for.items() if s == seat and v > since)
        return {"made_for_you": versions} if versions else {}

    def _catch_up(self, seat: int | None, since: int | None) -> dict[str, Any]:
        """What a connection holding version ``since`` needs: a ``catchup`` of this game's events after it, else the
        whole ``state`` (``since`` null, before this game, or ahead of the table)."""
        if since is not None and self.base_version <= since <= self.version:
            return {
                "type": "catchup",
                "version": self.version,
                "events": self.events_json(since),
                **self._picture(seat),
                "clock": self._clock_left(),
                **self._made_for_you(seat, since),
            }
        return self.state_message(seat)

    # --------------------------------------------------------- connections

    async def hello(
        self, client: Client, token: str | None, since: int | None, invite: dict[str, Any] | None = None
    ) -> None:
        """A connection says who it is: ``welcome``, then ``catchup`` with what it missed or the whole ``state``.

        ``invite`` (the table's link as this connection reached the server, and
        a note when friends elsewhere could not use it) goes in the welcome.
        """
        async with self._lock:
            if self.evicted:
                raise TableMoved(self.id)
            if self.status == CLOSED:
                raise ProtocolError("closed", "this table was closed: nobody came to play")
            seat = None
            if token is not None:
                seat = self.seat_of_token(token)
                if seat is None:
                    raise ProtocolError("bad_token", "this token opens no seat at this table")
            elif not self.spectators:
                raise ProtocolError("no_spectators", "the table's creator lets only its players watch")
            was = self.clients.get(client, -1)
            if seat is None and was is not None and self.watching() >= self.settings.max_spectators:
                raise ProtocolError(
                    "too_many_connections",
                    f"this table takes {self.settings.max_spectators} spectators at once: try again later",
                )
            newly_here = seat is not None and not self.connected(seat)
            self.clients[client] = seat
            if seat is not None:
                self._evict_oldest(seat)
            if seat is not None:
                self.ever_connected = True
            if was not in (-1, None, seat) and not self.connected(was):
                self._absent(was)
            changed = newly_here or was not in (-1, None, seat)
            if seat is not None:
                changed |= self._present(seat)
            auto = None if seat is None else self.seats[seat].auto_declare
            welcome = {"type": "welcome", "seat": seat, "table": self.summary(), "auto_declare": auto, **(invite or {})}
            client.send(dumps(welcome))
            if since == 0:
                # A client that holds nothing (a page just opened) gets the current game's play-by-play,
                # also after a rematch, when version 0 lies before this game.
                since = self.base_version
            # A decision's clock starts once its person is there: set it before the answer, which says how long
            # is left (the clock sent as null here, and in nothing later, let the page count from a full turn).
            self._arm_clock()
            client.send(dumps(self._catch_up(seat, since)))
            if changed:
                self._broadcast_seats()
            self._wake.set()  # someone is here: the server's own decisions may go on

    def _evict_oldest(self, seat: int) -> None:
        """Close the seat's oldest connections past :data:`SEAT_CONNECTIONS` (the newest, just welcomed, stays)."""
        mine = [c for c, s in self.clients.items() if s == seat]
        for old in mine[: max(0, len(mine) - SEAT_CONNECTIONS)]:
            message = f"this seat is open in {SEAT_CONNECTIONS} other places: the oldest is closed"
            self._drop_client(old, "seat_elsewhere", message, TOO_MANY)

    def _drop_client(self, client: Client, code: str, message: str, close_code: int) -> None:
        """Tell a connection why it is dropped, forget it, and close it once that is sent."""
        client.send(dumps(error_json(code, message)))
        self.clients.pop(client, None)
        close = getattr(client, "close_soon", None)
        if close is not None:
            close(close_code)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``work`` beside the table's messages, kept in :attr:`_tasks` until done (the loop keeps only a weak
        reference to a task: one nobody holds may be collected mid-way)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _send_seat(self, seat: int, text: str) -> None:
        """Send ``text`` to every connection of ``seat`` (its tabs and devices) and to nobody else."""
        for client, at in list(self.clients.items()):
            if at == seat:
                client.send(text)

    def leave(self, client: Client) -> None:
        """A connection closed; a person's seat stays theirs for the grace period."""
        if client not in self.clients:
            return
        seat = self.clients.pop(client)
        if not self.clients:
            self.quiet_since = time.monotonic()
        if seat is not None and not self.connected(seat):
            self._absent(seat)
            self._broadcast_seats()
            if self.status == FINISHED and any(s.rematch for s in self.seats):
                asyncio.get_running_loop().call_later(self.settings.grace, self._rematch_if_agreed)

    def _rematch_if_agreed(self) -> None:
        """Start the asked-for game if every person still there has asked, now that one who had not has gone.

        Play again starts when every person present has asked; a person who closed the page after the other
        asked left that one waiting for ever (an attacker's audit). Checked once the grace period has passed,
        not at the close: a reload is not leaving, and must not start a game its person did not ask for.
        """
        if self.status != FINISHED or self.evicted:
            return
        self._spawn(self._start_if_agreed())

    def _all_present_asked(self) -> bool:
        """Whether every person connected has asked for another game, and someone has (the rule of Play again)."""
        present = [s for s in self.seats if s.human and self.connected(s.index)]
        return bool(present) and all(s.rematch for s in present)

    async def _start_if_agreed(self) -> None:
        async with self._lock:
            if self.status != FINISHED or not self._all_present_asked():
                return
            try:
                await self._new_game()
            except StoreUnavailable:  # the request stands: the next ask, or the next check, tries again
                log.warning("table %s: the game asked for could not be saved just now", self.id)

    def _present(self, seat: int) -> bool:
        """The person of ``seat`` is back: the stand-in stops. Whether anything others see changed."""
        s = self.seats[seat]
        if s.absence is not None:
            s.absence.cancel()
            s.absence = None
        if s.stand_in:
            s.stand_in = False
            self._wake.set()
            return True
        return False

    def _arm_clock(self) -> None:
        """Run the turn clock while a connected person owes the decision now, else stop it.

        A decision has one deadline, set when it is first owed to a connected person and kept while they are
        away: leaving and coming back resumes the clock where it was (at once, if it ran out meanwhile), so
        reconnecting cannot put off a decision for ever.
        """
        at = self._owed_by_person()
        if at is None or self.settings.turn_time <= 0:
            self._stop_clock()
            return
        if self._deadline is not None and self._deadline[:2] == at:
            if self._clock is not None:
                return  # already running for this decision
        else:
            self._stop_clock()
            turn_time = self.settings.turn_time + self._reading_time(at[0])
            self._deadline = (*at, asyncio.get_running_loop().time() + turn_time)
        self._clock = asyncio.get_running_loop().call_at(self._deadline[2], self._turn_over, *at)

    def _reading_time(self, seat: int) -> float:
        """The extra seconds of ``seat``'s new deadline: :data:`READING_TIME` for its first decision in the first
        deal of a round after the first, else 0.

        Why: when a round ends the page shows its summary, and the next deal is dealt behind it at once, with the
        first decision's clock running: a person reading the scores lost their declaration to the stand-in, and the
        time-out counted toward :data:`TIMEOUTS_TO_LEAVE`. The clock is not paused until the summary is closed,
        because the server would then wait on the page's word (a page that never closed it would stall the game for
        ever); a fixed allowance once a round per seat, granted where the deadline is set, cannot be stretched: at
        most :data:`READING_TIME` more a round, and the page shows the clock on the summary (the deadline is sent
        with the update, ``clock``).
        """
        view = self._public()
        key = (self.number, view.round)
        if view.round == 0 or view.deal != 0 or self._read.get(seat) == key:
            return 0.0
        self._read[seat] = key
        return READING_TIME

    def _stop_clock(self) -> None:
        """Stop the clock's timer (the deadline of the decision is kept, :attr:`_deadline`)."""
        if self._clock is not None:
            self._clock.cancel()
        self._clock = None

    def _owed_by_person(self) -> tuple[int, int] | None:
        """The seat and version of the decision owed now by a connected person, if one is (not a bot's or a
        stand-in's).

        A person's automatic declaration is still theirs: its clock runs as for one made by hand, and everyone is
        sent it. Why: with no clock for it, the opponents and spectators read ``"clock": null`` at every deal where
        the seat owed its declaration, where a seat declaring by hand shows its turn time (an attacker's audit), and
        the choice, which tells them the declaration is true, is never public (:meth:`_pause`).
        """
        if self.status != PLAYING or self.game is None:
            return None
        automatic = self._automatic()
        if automatic is not None and automatic[1] is not None:
            return None  # a bot's or the stand-in's decision: nobody's clock
        view = self._public()
        if view.phase not in (DECLARE, PLAY):
            return None
        seat = self.seats[view.turn]
        if not seat.human or seat.stand_in or not self.connected(seat.index):
            return None  # away: the grace period is their clock
        return seat.index, self.version

    def _turn_over(self, seat: int, version: int) -> None:
        """A connected person let their turn time pass: the stand-in makes this one decision.

        Why: without a clock, a player losing on the board could stay connected and never move until the other
        gave up and left, who then lost the rated game as a leaver. After :data:`TIMEOUTS_TO_LEAVE` in a row
        the person counts as having left (a rated game lost); their next decision of their own ends the count.
        """
        self._clock = None
        if self.version != version or self._owed_by_person() != (seat, version):
            return
        if self._automatic() == (seat, None):
            return  # the server's declaration for them is on its way (:meth:`_pause`): no turn was let pass
        if self._pending is not None or self._attempt == (seat, version):
            # The person's decision is on its way to the store: its outcome decides, not the clock; a decision the
            # store refused leaves the person STORE_GRACE seconds to send it again.
            self._attempt = None
            self._deadline = (seat, version, asyncio.get_running_loop().time() + STORE_GRACE)
            self._arm_clock()
            return
        # There and let it pass: the person took part, as one who plays does. The stand-in's decision for this
        # overdue turn adds the seat to acted (decide), stored with it: a crash before that decision is stored
        # leaves the person's turn owed again, so nothing is counted that the store would not keep.
        self._overdue = (seat, version)
        self.timeouts[seat] = self.timeouts.get(seat, 0) + 1
        if self.timeouts[seat] >= TIMEOUTS_TO_LEAVE:
            # Left in all but connection: the stand-in plays on for them, at the table's pace, until the person
            # acts or says hello again; the game counts as abandoned by them.
            self.seats[seat].stand_in = True
            if seat not in self.abandoned:
                self.abandoned.add(seat)
                self.idle.add(seat)
                log.info(
                    "table %s: seat %d let %d turns pass; it counts as having left", self.id, seat, TIMEOUTS_TO_LEAVE
                )
            self._broadcast_seats()
        self._send_seat(seat, dumps({"type": "turn_over"}))  # its page says who made the move
        self._wake.set()

    def _unplayed(self, acted: set[int]) -> tuple[int, ...]:
        """The people's seats whose person has made no decision of their own in the current game (``acted``: the
        seats that have, :attr:`acted` with the decision being taken)."""
        return tuple(s.index for s in self.seats if s.human and s.index not in acted)

    def _absent(self, seat: int) -> None:
        """Start the grace period of a person with no connection, if a game is being played."""
        s = self.seats[seat]
        if not s.human or self.status != PLAYING or s.stand_in or s.absence is not None or self.connected(seat):
            return
        s.absence = asyncio.get_running_loop().call_later(self.settings.grace, self._grace_over, seat)

    def _grace_over(self, seat: int) -> None:
        s = self.seats[seat]
        s.absence = None
        if self.connected(seat) or self.status != PLAYING:
            return
        s.stand_in = True
        self.abandoned.add(seat)
        log.info("table %s: the stand-in bot plays for seat %d", self.id, seat)
        self._broadcast_seats()
        self._wake.set()

    def _broadcast_seats(self) -> None:
        self._send_all(dumps({"type": "seats", "table": self.summary()}))

    def _send_all(self, text: str) -> None:
        for client in list(self.clients):
            client.send(text)

    def _send_states(self, events: bool = False) -> None:
        """The whole picture to every connection: after a game starts or a rematch begins (``events``: with the new
        game's events, :meth:`state_message`)."""
        for client, seat in list(self.clients.items()):
            client.send(dumps(self.state_message(seat, events)))

    # ------------------------------------------------------------- seats

    def vacancy(self, name: str, seat: int | None, levels: list[str]) -> int:
        """The seat ``name`` would take (``seat``, or the first free one); refuses as :meth:`join` would.

        Asked before a name typed to join is kept (:mod:`.accounts`), so that a
        join refused for its seat or its name makes no player; :meth:`join` asks again.
        """
        if self.status == CLOSED:
            raise HttpError(410, "closed", "this table was closed: nobody came to play")
        if seat is None:
            free = [s.index for s in self.seats if not s.taken]
            if not free:
                raise HttpError(409, "seat_taken", "every seat at this table is taken")
            seat = free[0]
        if not 0 <= seat < len(self.seats):
            raise HttpError(400, "bad_request", f"this table has seats 0 to {len(self.seats) - 1}, not {seat}")
        target = self.seats[seat]
        if not target.human:
            raise HttpError(409, "seat_taken", f"seat {seat} is a bot's")
        if target.taken:
            raise HttpError(409, "seat_taken", f"seat {seat} is taken")
        check_name(name, [s.name for s in self.seats if s.human and s.name is not None], levels)
        return seat

    async def join(self, name: str, seat: int | None, levels: list[str], player: str | None = None) -> tuple[int, str]:
        """A person (the player ``player``, when known) takes a free seat; the game starts when every person's seat
        is taken."""
        async with self._lock:
            if self.evicted:
                raise TableMoved(self.id)
            seat = self.vacancy(name, seat, levels)
            target = self.seats[seat]
            token, digest = new_token()
            # A game its deal already won (automatic declarations, a tiny target) stays finished: the person
            # joins to see it and to ask for another, not to set it playing again with no move left to make.
            starts = self.status != FINISHED and all(s.taken for s in self.seats if s.index != seat)
            try:
                await self.journal.write(
                    self.journal.store.take_seat, self.id, seat, name, digest, PLAYING if starts else None, player
                )
            except StoreUnavailable:
                raise HttpError(503, "store_unavailable", "the server cannot save just now: try again") from None
            target.name, target.token_hash, target.player = name, digest, player
            if starts:
                self._begin()
            else:
                self._broadcast_seats()
            return seat, token

    def _begin(self) -> None:
        """Every person is seated (and it is stored): the game is on."""
        self.status = PLAYING
        for s in self.seats:
            self._absent(s.index)
        # The first decision's deadline, set now: the states say how long it has, and an automatic declaration
        # owed at once draws its pause within that clock (:meth:`_pause`), not before the clock is set.
        self._arm_clock()
        self._broadcast_seats()
        self._send_states()
        self._wake.set()

    # ------------------------------------------------------------ messages

    async def act(self, client: Client, action: Action, made_at: int | None = None) -> None:
        """A person's decision for the connection's own seat; errors go to that connection only.

        ``made_at`` is the version the decision was made at (``None``: now). A
        decision made at an earlier version is a resend or a stale one:
        :meth:`_answer_resend` answers it without taking anything.
        """
        seat = self.clients.get(client)
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: only a seated player can act")
        async with self._lock:
            self._refuse_while_pending()
            if made_at is not None and made_at != self.version:
                self._answer_resend(client, seat, action, made_at)
                return
            self.check(seat, action)
            if self.seats[seat].stand_in and self._present(seat):  # back from letting the clock play: theirs again
                self._broadcast_seats()
            self._attempt = (seat, self.version)
            try:
                await self.decide(seat, action, client)
            finally:
                if self._pending is None:
                    self._attempt = None

    def _refuse_while_pending(self) -> None:
        if self._pending is not None:
            raise ProtocolError("pending", PENDING)

    def _answer_resend(self, client: Client, seat: int, action: Action, made_at: int) -> None:
        """A decision made at version ``made_at``, which is not the table's: its outcome, or ``stale``; both with
        the events since ``made_at`` (a catchup: the sender may not have had them) or the whole state."""
        if self._made.get(made_at) == action_to_record(seat, action):
            client.send(dumps(self._catch_up(seat, made_at)))  # taken already: this is its outcome
            return
        client.send(
            dumps(
                error_json(
                    "stale",
                    f"this decision was made at version {made_at} and the table is at version {self.version}: "
                    "it was not taken; here is the table as it is",
                )
            )
        )
        client.send(dumps(self._catch_up(seat, made_at)))

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`ProtocolError` unless ``seat`` may take ``action`` now; changes nothing."""
        if self.status == WAITING_STATUS:
            raise ProtocolError("not_your_turn", "the game starts when every seat is taken")
        if self.status == CLOSED:
            raise ProtocolError("closed", "this table was closed")
        game = self._game()
        view = game.view(seat)
        if self.status == FINISHED or view.phase == OVER:
            raise ProtocolError("game_over", "the game is over")
        if view.phase not in (DECLARE, PLAY) or view.turn != seat:
            raise ProtocolError("not_your_turn", f"it is seat {view.turn}'s turn, not yours")
        if action in game.legal_actions():
            return
        try:
            game.copy(history=False).apply(action, seat=seat)
        except RondaError as error:
            # The engine's messages name only what the seat itself sent or may see (errors.py).
            raise ProtocolError("illegal", str(error)) from None
        raise ProtocolError("illegal", f"{action} is not legal now")

    async def decide(
        self, seat: int, action: Action, sender: Client | None = None, chosen: bool = False
    ) -> asyncio.Task[bool] | None:
        """Apply a checked decision to a copy, store it, then make it the table's and send the updates.

        Call with the lock held. When the store refuses or times out, raises
        ``ProtocolError("store_unavailable")`` and nothing has changed. When
        the store's answer to the COMMIT was lost, nobody is told anything yet:
        the decision is pending and the task returned (:meth:`_settle`) finds
        out from the store, then shows it or refuses it to ``sender``; its result
        says whether it was stored.

        ``chosen``: the seat's automatic declaration, which the server makes only while its person is there
        (:meth:`_automatic`). It is the person's own act, as one by hand is: it ends their turns let pass in a
        row and counts them as having played. Why: counted otherwise, the flag everyone sees after
        :data:`TIMEOUTS_TO_LEAVE` turns let pass came a declaration sooner, and the end of game of a person who
        declared and left read "a person never made a decision of their own" for them alone: both told the
        others that the seat declares automatically, which is never public. Nothing is lost by it: a person who
        never moves still lets every play of a deal pass, three at least in a row.
        """
        if sender is not None or chosen:
            self.timeouts.pop(seat, None)
        # The person's own decision (their automatic declaration included), or the stand-in's for a turn their clock
        # ran out on while they were there: either way the person played. Made the table's (and stored) with the
        # decision, not before: a decision the store refuses is no decision, and a rebuilt table must count exactly
        # what this one counts.
        own = sender is not None or chosen or self._overdue == (seat, self.version)
        acted = self.acted | {seat} if own else self.acted
        game = self._game().copy()
        round_index = game.view(seat).round
        scores_before = game.view(seat).scores
        events: list[Event] = game.apply(action, seat=seat)
        next_deck = None
        view = game.view(seat)
        if view.phase == WAITING:
            deck = shuffled_deck(self.rules, SECURE_RNG)
            events = events + game.add_deck(deck)
            next_deck = deck_names(deck)
            view = game.view(seat)
        result = (view.winner, list(view.scores)) if view.phase == OVER and view.winner is not None else None
        scores = list(view.scores) if view.scores != scores_before else None
        decision = Decision(
            self.id,
            self.number,
            self._actions,
            round_index,
            action_to_record(seat, action),
            next_deck,
            result,
            scores,
            tuple(sorted(self.abandoned)) if result is not None else (),
            self._unplayed(acted) if result is not None else (),
            acted=tuple(sorted(acted)) if acted != self.acted else None,
            left=left if (left := self.who_left()) != self.left_stored else None,
            # The computer's choice for a person's seat: the stand-in's, for a turn let pass or a person gone
            # (never their automatic declaration, their own choice).
            made_for=seat if sender is None and not chosen and self.seats[seat].human else None,
        )
        taken = _Taken(decision, game, events, result, self.version, sender)
        try:
            await self.journal.record(decision)
        except (CommitUnknown, StoreConflict) as error:
            # Stored or not, only the store knows: ask it before telling anyone anything.
            log.warning("table %s: decision %d may be stored (%s); the store is asked", self.id, self._actions, error)
            self._pending = decision
            task = self._spawn(self._settle(taken))
            return task
        except StoreUnavailable as error:
            log.warning("table %s: decision %d not stored (%s); refused", self.id, self._actions, error)
            raise ProtocolError("store_unavailable", STORE_RETRY) from None
        self._take(taken)
        return None

    async def _settle(self, taken: _Taken) -> bool:
        """A pending decision: ask the store whether it holds it (until it answers), then show it or refuse it."""
        decision = taken.decision
        try:
            stored = await resolve_unknown_commit(self.journal, self.journal.store.holds_decision, decision)
        except StoreConflict as error:
            # Another writer's decision is stored in its place: this table is not the stored one (never with one
            # server process). It is refused; the stored game is what a rebuild of the table shows.
            log.error("table %s: the store holds another decision (%s); decision refused", self.id, error)
            stored = False
        async with self._lock:
            self._pending = None
            if not self.evicted:
                if stored:
                    log.warning("table %s: decision %d was stored after all; it is shown", self.id, decision.number)
                    self._take(taken)
                else:
                    log.warning("table %s: decision %d was not stored; it is refused", self.id, decision.number)
                    if taken.sender is not None and taken.sender in self.clients:
                        taken.sender.send(dumps(error_json("store_unavailable", STORE_RETRY)))
            self._wake.set()
        return stored

    def _take(self, taken: _Taken) -> None:
        """The decision is stored: it becomes the table's game and is sent to every connection, each with its view."""
        assert self.version == taken.made_at, "nothing is taken while a decision is being stored"
        game, result = taken.game, taken.result
        self.game = game
        self._actions += 1
        self._made[taken.made_at] = taken.decision.action
        if taken.decision.acted is not None:
            self.acted = set(taken.decision.acted)
        if taken.decision.left is not None:
            self.left_stored = dict(taken.decision.left)
        before = self.version
        events_json = [{**e.to_json(), "version": before + i + 1} for i, e in enumerate(taken.events)]
        self.events.extend(events_json)
        if taken.decision.made_for is not None:
            self.made_for[before + 1] = taken.decision.made_for
        if result is not None:
            self.status = FINISHED
            self.results[self.number] = result
            self.ended_by_stand_in = {s.index for s in self.seats if s.human and s.stand_in}
        version = self.version
        self._arm_clock()  # the next decision's deadline, set now: the update says how long it has
        clock = self._clock_left()
        texts: dict[int | None, str] = {}
        for client, s in list(self.clients.items()):
            text = texts.get(s)
            if text is None:
                text = texts[s] = dumps(
                    {
                        "type": "update",
                        "version": version,
                        "events": events_json,
                        **self._picture(s, game),
                        "clock": clock,
                        **self._made_for_you(s, before),
                    }
                )
            client.send(text)
        if result is not None:
            self._broadcast_seats()
            self._show_ratings()
            if self.on_finished is not None:
                self.on_finished(self)
        self._wake.set()

    def _show_ratings(self) -> None:
        """Read the rating changes of the game just finished (stored with its end) and show them to everyone."""
        self._spawn(self.load_ratings(self.number, show=True))

    async def load_ratings(self, number: int, show: bool = False) -> None:
        """Read game ``number``'s rating changes, if it was rated; ``show``: send them (in the table's summary).

        A store that cannot answer just now leaves them unshown here; the
        players' own pages (``/api/players/{id}``) have them.
        """
        try:
            changes = await self.journal.read(self.journal.store.game_ratings, self.id, number)
        except StoreUnavailable:
            log.warning("table %s: the rating changes of game %d could not be read", self.id, number)
            return
        if changes is not None and not self.evicted:
            self.ratings[number] = changes
            if show:
                self._broadcast_seats()

    async def _write_known(
        self,
        stored: Callable[..., bool],
        question: tuple[Any, ...],
        fn: Callable[..., None],
        *args: Any,
        **kwargs: Any,
    ) -> None:
        """A write whose outcome is always known: one whose COMMIT got no answer is looked for in the store
        (``stored(*question)``) until it answers; not stored, or stored otherwise, it raises :class:`StoreUnavailable`.

        For writes that insert numbered rows (a game, a round's deck, a hint): sent again after a lost answer, they
        would find their own row and fail for ever. The caller's hold (the table's lock, for a rematch or a hint) is
        kept while the store is asked: these writes are rare, and the question is quick when the store answers.
        Decisions have their own path (:meth:`decide`), which lets the table answer meanwhile.
        """
        try:
            await self.journal.write(fn, *args, **kwargs)
        except (CommitUnknown, StoreConflict) as error:
            log.warning("table %s: a write may be stored (%s); the store is asked", self.id, type(error).__name__)
            try:
                found = await resolve_unknown_commit(self.journal, stored, *question)
            except StoreConflict as conflict:
                log.error("table %s: the store holds something else (%s)", self.id, conflict)
                found = False
            if not found:
                raise StoreUnavailable("not stored") from None

    async def set_auto_declare(self, client: Client, on: bool) -> None:
        seat = self.clients.get(client)
        if seat is None:
            raise ProtocolError("spectator", "spectators do not declare")
        async with self._lock:
            try:
                await self.journal.write(self.journal.store.set_auto_declare, self.id, seat, on)
            except StoreUnavailable:
                raise ProtocolError("store_unavailable", "the choice could not be saved just now: try again") from None
            self.seats[seat].auto_declare = on
            self._send_seat(seat, dumps({"type": "auto_declare", "on": on}))
            self._wake.set()

    async def set_access(
        self, client: Client, public: bool | None, spectators: bool | None, hints: bool | None = None
    ) -> None:
        """The creator lists the table or not, lets people without a seat watch or not, and allows hints or not."""
        seat = self.clients.get(client)
        if seat != self.creator:
            raise ProtocolError(
                "not_creator", "only the person who made the table chooses who may find and watch it, and hints"
            )
        async with self._lock:
            public = self.public if public is None else public
            spectators = self.spectators if spectators is None else spectators
            hints = self.hints if hints is None else hints
            try:
                await self.journal.write(self.journal.store.set_access, self.id, public, spectators, hints)
            except StoreUnavailable:
                raise ProtocolError("store_unavailable", "the choice could not be saved just now: try again") from None
            self.public, self.spectators, self.hints = public, spectators, hints
            if not spectators:
                for c, s in list(self.clients.items()):
                    if s is None:
                        self._drop_client(c, "no_spectators", "the table is now private", 4403)
            self._broadcast_seats()

    def hint(self, client: Client) -> None:
        """A hint on the asking seat's decision now, searched from that seat's view alone, stored, sent to it.

        The request is checked at once (an error raised here goes to the asker);
        the search runs in a bot worker while this connection goes on, so the
        player may still play meanwhile. One search per decision: a hint asked
        again (another tab, a double click) is the same message, and one asked
        while it is searched gets it with the first. A decision taken meanwhile
        makes the hint moot: it is neither stored nor sent.
        """
        seat = self.clients.get(client)
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: hints are for a player's own decision")
        if not self.hints:
            raise ProtocolError("hints_off", "hints are off at this table (the person who made it chooses)")
        if self.status != PLAYING:
            code = "game_over" if self.status == FINISHED else "not_your_turn"
            raise ProtocolError(code, "there is no decision to give a hint on")
        view = self._game().view(seat)
        if view.phase not in (DECLARE, PLAY) or view.turn != seat:
            raise ProtocolError("not_your_turn", f"a hint is for your own decision: it is seat {view.turn}'s turn")
        key = (self.number, self._actions)
        if self._hint is not None and self._hint[0] == key:
            client.send(self._hint[1])
            return
        if key in self._hinting:
            return  # being searched: the answer goes to every connection of the seat
        self._hinting.add(key)
        self._spawn(self._search_hint(client, seat, key))

    async def _search_hint(self, client: Client, seat: int, key: tuple[int, int]) -> None:
        game = self._game()
        view = game.view(seat)
        try:
            try:
                seed = decision_seed(view, game.actions_taken)
                evaluation = await self.pool.evaluate(view, game.legal_actions(), self.settings.method, seed)
            except BotFailed:
                raise ProtocolError("busy", "no hint could be worked out just now: ask again") from None
            finally:
                self._hinting.discard(key)
            async with self._lock:
                if (self.number, self._actions) != key or self.status != PLAYING or self.evicted:
                    return
                round_actions = len(self._game().to_record()["rounds"][-1]["actions"])
                hint = hint_of(evaluation, view.round, round_actions)
                try:
                    await self._write_known(
                        self.journal.store.holds_hint,
                        (self.id, self.number, self._hints, hint.to_json()),
                        self.journal.store.add_hint,
                        self.id,
                        self.number,
                        self._hints,
                        hint.to_json(),
                    )
                except StoreUnavailable:
                    raise ProtocolError(
                        "store_unavailable", "the hint could not be saved just now: ask again"
                    ) from None
                self._hints += 1
                text = dumps(
                    {
                        "type": "hint",
                        "version": self.version,
                        "guesses": evaluation.guesses,
                        "exact": evaluation.exact,
                        # False: one card, or cards of one rank: the page says there is nothing to choose.
                        "choice": evaluation.choice,
                        "options": [option_json(seat, option) for option in shown_options(evaluation)],
                    }
                )
                self._hint = (key, text)
                self._send_seat(seat, text)
        except ProtocolError as error:
            client.send(dumps(error.to_json()))

    async def rematch(self, client: Client, on: bool = True) -> None:
        """A player asks for another game (``on``); it starts when every person present has asked.

        ``on`` false takes the seat's request back (nothing changes for a seat that had not asked)."""
        seat = self.clients.get(client)
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for a rematch")
        async with self._lock:
            if self.status != FINISHED:
                raise ProtocolError(
                    "illegal", "a rematch comes after game over" if on else "no rematch to take back: the game is on"
                )
            if not on:
                if self.seats[seat].rematch:
                    self.seats[seat].rematch = False
                    self._broadcast_seats()
                return
            asked = self.seats[seat].rematch
            self.seats[seat].rematch = True
            if not self._all_present_asked():
                if not asked:  # a request made again changes nothing the others see: they are not sent it again
                    self._broadcast_seats()
                return
            try:
                await self._new_game()
            except StoreUnavailable:
                self.seats[seat].rematch = False
                raise ProtocolError(
                    "store_unavailable", "the new game could not be saved just now: ask again"
                ) from None

    async def _new_game(self) -> None:
        base = self.version
        number = self.number + 1
        n = self.rules.players
        dealer = (n - 1 + number) % n
        deck = shuffled_deck(self.rules, SECURE_RNG)
        game = Game(self.rules, decks=[deck], dealer=dealer)
        view = game.view(0)
        over = view.phase == OVER and view.winner is not None
        await self._write_known(
            self.journal.store.holds_deck,
            (self.id, number, 0, deck_names(deck)),
            self.journal.store.start_game,
            self.id,
            number,
            dealer=dealer,
            base_version=base,
            deck=deck_names(deck),
        )
        away = {s.index for s in self.seats if s.stand_in}  # still away: the stand-in plays this game too
        if over:  # a game won by its very first events (automatic declarations and a tiny target)
            # Nobody made a decision in it: not rated (every person's seat unplayed), or a second name asking for
            # game after game would farm the games its deal decides (an attacker's audit: 6-0 in 15 rematches).
            await self.journal.write(
                self.journal.store.finish_game,
                self.id,
                number,
                view.winner,
                list(view.scores),
                tuple(sorted(away)),
                self._unplayed(set()),
            )
        self.number, self.base_version = number, base
        self.bases[number] = base
        self.game, self._actions, self._hints, self._hint = game, 0, 0, None
        self._made = {}
        self.made_for = {}
        self.abandoned = away
        self.idle &= away  # still stood in for after letting turns pass: the reason stays
        self.left_stored = {}  # the new game's row holds nobody yet: its first decision stores who is still away
        self.ended_by_stand_in = set(away) if over else set()
        self.acted = set()
        self.timeouts = {}
        self._deadline = self._attempt = None
        self.events = [{**e.to_json(), "version": base + i + 1} for i, e in enumerate(dealt_events(game))]
        self.status = FINISHED if over else PLAYING
        if over:
            self.results[number] = (view.winner, list(view.scores))
        for s in self.seats:
            s.rematch = False
            self._absent(s.index)
        self._arm_clock()  # the first decision's deadline, set now: the states say how long it has
        self._broadcast_seats()
        self._send_states(events=True)
        if over:
            self._show_ratings()
        self._wake.set()

    # ---------------------------------------------------------------- bots

    async def deal_if_between_rounds(self) -> None:
        """A rebuilt game stopped between rounds gets its next deck (normally stored with the last card of a round)."""
        game = self._game()
        view = game.view(0)
        if view.phase == WAITING:
            deck = shuffled_deck(self.rules, SECURE_RNG)
            names = deck_names(deck)
            await self._write_known(
                self.journal.store.holds_deck,
                (self.id, self.number, view.round + 1, names),
                self.journal.store.add_round,
                self.id,
                self.number,
                view.round + 1,
                names,
            )
            before = self.version
            self.events.extend({**e.to_json(), "version": before + i + 1} for i, e in enumerate(game.add_deck(deck)))

    def start(self) -> None:
        """Start the table's bot driver (and the grace periods of absent people in a game being played)."""
        if self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"ronda-table-{self.id}")
        for s in self.seats:
            self._absent(s.index)
        self._wake.set()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self._stop_clock()
        for s in self.seats:
            if s.absence is not None:
                s.absence.cancel()
                s.absence = None
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver
            self._driver = None

    def _automatic(self) -> tuple[int, str | None] | None:
        """The decision the server takes now, if any: a bot's or stand-in's level, or ``None`` to declare truly.

        Nothing is automatic while nobody is connected to the table (bots do not
        play to an empty room), nor while a decision is pending. A person's
        automatic declaration waits while they are away, as one by hand would
        (then the grace period runs, and the stand-in declares): made for a seat
        shown away, it would tell the others that the seat declares
        automatically, which is never public.
        """
        if self.status != PLAYING or self.game is None or not self.clients or self._pending is not None:
            return None
        view = self._public()
        if view.phase not in (DECLARE, PLAY):
            return None
        seat = self.seats[view.turn]
        if not seat.human:
            return seat.index, seat.level or "medium"
        if seat.stand_in or self._overdue == (seat.index, self.version):
            return seat.index, self.settings.stand_in
        if seat.auto_declare and view.phase == DECLARE and self.connected(seat.index):
            return seat.index, None
        return None

    async def _drive(self) -> None:
        """The table's one bot task: whenever a decision is the server's, pause for the pace, think, apply.

        A decision that fails (refused by the store, a bot that failed) is tried
        again after a growing pause, :data:`BOT_BACKOFF`; after that many
        failures in a row the table reports that it cannot play for the seat
        (:meth:`_stall`) and tries again only every :data:`STALLED_RETRY`
        seconds or when woken (a hello, a person's decision).
        """
        failures = 0
        while True:
            self._arm_clock()
            if self.stalled is None:
                await self._wake.wait()
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), STALLED_RETRY)
            self._wake.clear()
            while (step := self._automatic()) is not None:
                try:
                    await self._automatic_step(step)
                except Exception as error:
                    failures += 1
                    # Only the kind of failure is logged: a message or traceback might name hidden cards.
                    why = error.code if isinstance(error, ProtocolError) else type(error).__name__
                    if failures >= len(BOT_BACKOFF):
                        self._stall(step[0], why)
                        break
                    log.warning("table %s: seat %d's decision failed (%s); it is tried again", self.id, step[0], why)
                    await asyncio.sleep(BOT_BACKOFF[failures - 1])
                else:
                    failures = 0
                    self._unstall()
            else:
                failures = 0
                self._unstall()  # nothing is the server's to play now (a person came back, the game ended)

    def _unstall(self) -> None:
        if self.stalled is not None:
            log.warning("table %s: the server no longer fails to play for seat %d", self.id, self.stalled)
            self.stalled = None
            self._broadcast_seats()

    def _stall(self, seat: int, why: str) -> None:
        """Report that the server cannot play for ``seat`` now: once in the log, and in the summary everyone sees."""
        if self.stalled != seat:
            log.error(
                "table %s: the server cannot play for seat %d (%s, %d times in a row); it tries again every %d s",
                self.id,
                seat,
                why,
                len(BOT_BACKOFF),
                STALLED_RETRY,
            )
            self.stalled = seat
            self._broadcast_seats()

    def _pause(self, step: tuple[int, str | None]) -> float:
        """Seconds before the server's decision: ``bot_delay``, or for a person's automatic declaration a pause drawn
        at random between it and :data:`DECLARE_SPREAD` times it.

        Why: an automatic declaration is true, so one that always came exactly ``bot_delay`` after the deal told
        the opponents that the hand holds what it declares (an audit measured 0.102 s at ``--bot-delay 0.1``): the
        choice is never public, and neither may its timing be. Its turn clock runs as for a declaration by hand
        (:meth:`_owed_by_person`), so it comes within the first half of the time left on it: a clock shorter than
        the pause (``--turn-time`` of a few seconds) must not run out on it, and the pause is still drawn from a
        range rather than always that half.
        """
        if step[1] is None:
            longest = self.settings.bot_delay * DECLARE_SPREAD
            deadline = self._deadline
            if deadline is not None and deadline[:2] == (step[0], self.version):
                longest = min(longest, max(0.0, deadline[2] - asyncio.get_running_loop().time()) / 2)
            return SECURE_RNG.uniform(min(self.settings.bot_delay, longest / DECLARE_SPREAD), longest)
        return self.settings.bot_delay

    async def _automatic_step(self, step: tuple[int, str | None]) -> None:
        """One decision of the server's, unless a person's decision or a return overtakes it meanwhile.

        It goes the way of a person's: made at a version, checked, stored; a
        decision whose store answer was lost is waited for, and one the store
        did not take raises ``store_unavailable`` like a refusal.
        """
        version = self.version
        if self.inherited != version:
            await asyncio.sleep(self._pause(step))
        if self.version != version or self._automatic() != step:
            return
        seat, level = step
        action = await self._think(seat, level)
        async with self._lock:
            if self.version != version or self._automatic() != step:
                return
            try:
                self.check(seat, action)
            except ProtocolError as error:
                log.error("table %s: seat %d's bot chose an illegal action (%s)", self.id, seat, error.code)
                action = self._game().legal_actions()[0]
            settling = await self.decide(seat, action, chosen=level is None)
        if settling is not None and not await settling:
            raise ProtocolError("store_unavailable", STORE_RETRY)

    async def _think(self, seat: int, level: str | None) -> Action:
        game = self._game()
        view, legal = game.view(seat), game.legal_actions()
        if level is None:
            # A truthful declaration: the engine's own reading of the hand as dealt.
            (kind,) = view.possible_kinds(seat)
            return next(a for a in legal if isinstance(a, Declare) and a.declaration == kind)
        try:
            inherited = self.inherited == self.version
            return await self.pool.choose(level, SECURE_RNG.randrange(2**32), view, legal, inherited=inherited)
        except BotFailed as error:
            log.error("table %s: seat %d's bot failed (%s); it plays a legal action", self.id, seat, error)
            return legal[0]

    # -------------------------------------------------------------- leaving

    async def close(self, status: str | None = None) -> None:
        """Stop the table's work; ``status`` ``closed`` also stores it (a table whose people never came)."""
        await self.stop()
        if status is not None:
            await self.journal.write(self.journal.store.set_status, self.id, status)
            self.status = status


async def answer(table: Table, client: Client, message: ClientMessage, invite: dict[str, Any] | None = None) -> None:
    """Do what one checked message of a connection asks at ``table`` (its owner); errors raise :class:`ProtocolError`.

    The websocket's own loop (:func:`.routes.sockets.serve_connection`) and the owner of a table
    in a cluster, for a connection that another process relays (:mod:`.cluster`),
    both answer through here.
    """
    match message:
        case Hello(token=token, since=since):
            await table.hello(client, token, since, invite)
        case Act(action=action, version=version):
            await table.act(client, action, version)
        case AutoDeclare(on=on):
            await table.set_auto_declare(client, on)
        case Rematch(on=on):
            await table.rematch(client, on)
        case Settings(public=public, spectators=spectators, hints=hints):
            await table.set_access(client, public, spectators, hints)
        case AskHint():
            table.hint(client)
        case Ping():
            client.send(dumps({"type": "pong"}))
        case _:
            assert_never(message)


def adopt(
    table: Table,
    game: Game,
    events: list[Event],
    made: list[tuple[int, dict[str, Any]]],
    hints: int = 0,
    made_for: Mapping[int, int] | None = None,
) -> None:
    """Give ``table`` its current game as stored: the game, its events so far, its decisions and its number of hints.

    ``made`` holds each decision (RECORD.md form) with the number of the game's events before it
    (:func:`~.replays.rebuild`), so a decision sent again after a restart is still recognised; ``made_for`` the
    decisions the computer made for a person's seat, by number (:attr:`~.store.StoredGame.made_for`).
    """
    table.game, table._actions, table._hints = game, len(made), hints
    table.events = [{**e.to_json(), "version": table.base_version + i + 1} for i, e in enumerate(events)]
    table._made = {table.base_version + before: action for before, action in made}
    first_versions = [table.base_version + before + 1 for before, _ in made]
    table.made_for = {first_versions[n]: seat for n, seat in (made_for or {}).items() if n < len(made)}


@dataclass
class _Taken:
    """A decision on its way to the store: the game after it, the events it caused, and who sent it."""

    decision: Decision
    game: Game
    events: list[Event]
    result: tuple[int, list[int]] | None
    made_at: int
    sender: Client | None


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
