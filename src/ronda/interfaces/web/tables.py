"""One table of the web server: the game, its seats, who is connected, the versions, the bots.

A :class:`Table` is where the server is authoritative. Every decision — a
person's over a websocket, a bot's, a stand-in's, an automatic declaration —
goes through :meth:`Table.decide`: checked against the engine, applied, stored,
then sent out as one ``update`` per connection, each with that connection's
own view (R11). Events carry consecutive per-table versions so a client that
reconnects can ask for exactly what it missed.

Bots run with the arena's code (:func:`ronda.bots.make_bot`) on worker
threads, one driving task per table, so the event loop never waits for a bot.
A person who disconnects keeps the seat for a grace period; then the
stand-in bot plays for the seat until the person says hello again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import anyio

from ...bots import make_bot
from ...bots.base import Bot
from ...engine.actions import DECLARES, Action, action_to_record
from ...engine.cards import card_name
from ...engine.combinations import NONE, hand_combination
from ...engine.deck import shuffled_deck
from ...engine.errors import RondaError
from ...engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ...engine.record import replay
from ...engine.rules import Rules
from .forms import HttpError
from .protocol import (
    ProtocolError,
    changed_from_preset,
    dumps,
    legal_json,
    public_view_json,
    rules_json,
    view_json,
)
from .store import Decision, Journal

log = logging.getLogger("ronda.web")

SECURE_RNG = random.SystemRandom()
"""Every deck the server deals is shuffled from the operating system's secure source: nobody can predict a deal."""

WAITING_STATUS, PLAYING, FINISHED = "waiting", "playing", "finished"


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
    stand_in: bool = False
    """The person is away past the grace period and the stand-in bot plays for the seat."""
    rematch: bool = False
    bot: Bot | None = None
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
    status: str = WAITING_STATUS
    number: int = 0
    base_version: int = 0
    """The table's version before the current game's first event: versions run on across rematches."""
    results: dict[int, tuple[int | None, list[int]]] = field(default_factory=dict)
    """Winner and scores of this table's finished games, by game number."""
    bases: dict[int, int] = field(default_factory=lambda: {0: 0})
    """The base version of each of this table's games, by game number (replays number their events with it)."""
    clients: dict[Client, int | None] = field(default_factory=dict)
    current: Game | None = None
    """The current game once dealt or rebuilt; read it through :attr:`game`, which rebuilds it from the store."""
    _actions: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _driver: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ queries

    @property
    def game(self) -> Game:
        if self.current is None:
            self.current = replay(self.journal.store.load_record(self.id, self.number))
            self._actions = _count_actions(self.current)
        return self.current

    async def load(self) -> Game:
        """The current game, rebuilt off the event loop if it is not in memory (a finished table after a restart)."""
        if self.current is None:
            record = await self.journal.read(self.journal.store.load_record, self.id, self.number)
            game = await anyio.to_thread.run_sync(replay, record)
            if self.current is None:
                self.current, self._actions = game, _count_actions(game)
        return self.current

    @property
    def version(self) -> int:
        """The number of the table's latest event (0 before any)."""
        return self.base_version + len(self.game.events)

    def connected(self, seat: int) -> bool:
        return any(s == seat for s in self.clients.values())

    def summary(self) -> dict[str, Any]:
        """The table summary of the protocol: what anyone may know about the table."""
        if self.current is not None:
            scores, winner = list(self.current.scores), self.current.winner
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
                }
                for s in self.seats
            ],
            "scores": scores,
            "winner": winner,
            "created": self.created,
        }

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
        start = since - self.base_version
        events = self.game.events
        return [{**events[i].to_json(), "version": self.base_version + i + 1} for i in range(start, len(events))]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return public_view_json(self.game) if seat is None else view_json(self.game.view(seat))

    def _legal(self, seat: int | None) -> list[dict[str, Any]]:
        if self.status != PLAYING:
            return []
        return legal_json(self.game, seat)

    def state_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "state",
            "version": self.version,
            "view": self._view(seat),
            "legal": self._legal(seat),
            "table": self.summary(),
        }

    # --------------------------------------------------------- connections

    async def hello(self, client: Client, token: str | None, since: int | None) -> None:
        """A connection says who it is: ``welcome``, then ``catchup`` with what it missed or the whole ``state``."""
        async with self._lock:
            await self.load()
            seat = None
            if token is not None:
                seat = self.seat_of_token(token)
                if seat is None:
                    raise ProtocolError("bad_token", "this token opens no seat at this table")
            was = self.clients.get(client, -1)
            newly_here = seat is not None and not self.connected(seat)
            self.clients[client] = seat
            if was not in (-1, None, seat) and not self.connected(was):
                self._absent(was)
            changed = newly_here or was not in (-1, None, seat)
            if seat is not None:
                changed |= self._present(seat)
            version = self.version
            auto = None if seat is None else self.seats[seat].auto_declare
            client.send(dumps({"type": "welcome", "seat": seat, "table": self.summary(), "auto_declare": auto}))
            if since == 0:
                # A client that holds nothing (a page just opened) gets the current game's play-by-play,
                # also after a rematch, when version 0 lies before this game.
                since = self.base_version
            if since is not None and self.base_version <= since <= version:
                client.send(
                    dumps(
                        {
                            "type": "catchup",
                            "version": version,
                            "events": self.events_json(since),
                            "view": self._view(seat),
                            "legal": self._legal(seat),
                        }
                    )
                )
            else:
                client.send(dumps(self.state_message(seat)))
            if changed:
                self._broadcast_seats()

    def leave(self, client: Client) -> None:
        """A connection closed; a person's seat stays theirs for the grace period."""
        seat = self.clients.pop(client, None)
        if seat is not None and not self.connected(seat):
            self._absent(seat)
            self._broadcast_seats()

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

    def _absent(self, seat: int) -> None:
        """Start the grace period of a person with no connection, if a game is being played."""
        s = self.seats[seat]
        if not s.human or self.status != PLAYING or s.stand_in or s.absence is not None or self.connected(seat):
            return
        s.absence = asyncio.get_running_loop().call_later(self.settings.grace, self._grace_over, seat)

    def _grace_over(self, seat: int) -> None:
        s = self.seats[seat]
        s.absence = None
        if self.connected(seat) or self.status == WAITING_STATUS:
            return
        s.stand_in = True
        log.info("table %s: the stand-in bot plays for seat %d", self.id, seat)
        self._broadcast_seats()
        self._wake.set()

    def _broadcast_seats(self) -> None:
        self._send_all(dumps({"type": "seats", "table": self.summary()}))

    def _send_all(self, text: str) -> None:
        for client in list(self.clients):
            client.send(text)

    def _send_states(self) -> None:
        """The whole picture to every connection: after a game starts or a rematch begins."""
        for client, seat in list(self.clients.items()):
            client.send(dumps(self.state_message(seat)))

    # ------------------------------------------------------------- seats

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """A person takes a free seat; the game starts when every person's seat is taken."""
        async with self._lock:
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
            token, digest = new_token()
            await self.journal.write(self.journal.store.take_seat, self.id, seat, name, digest)
            target.name, target.token_hash = name, digest
            if all(s.taken for s in self.seats):
                await self._begin()
            else:
                self._broadcast_seats()
            return seat, token

    async def _begin(self) -> None:
        """Every person is seated: the game is on."""
        await self.journal.write(self.journal.store.set_status, self.id, PLAYING)
        self.status = PLAYING
        for s in self.seats:
            self._absent(s.index)
        self._broadcast_seats()
        self._send_states()
        self._wake.set()

    # ------------------------------------------------------------ messages

    async def act(self, client: Client, action: Action) -> None:
        """A person's decision for the connection's own seat; errors go to that connection only."""
        seat = self.clients.get(client)
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: only a seated player can act")
        async with self._lock:
            self.check(seat, action)
            await self.decide(seat, action)

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`ProtocolError` unless ``seat`` may take ``action`` now; changes nothing."""
        if self.status == WAITING_STATUS:
            raise ProtocolError("not_your_turn", "the game starts when every seat is taken")
        game = self.game
        if self.status == FINISHED or game.phase == OVER:
            raise ProtocolError("game_over", "the game is over")
        if game.phase not in (DECLARE, PLAY) or game.turn != seat:
            raise ProtocolError("not_your_turn", f"it is seat {game.turn}'s turn, not yours")
        if action in game.legal_actions():
            return
        try:
            game.copy(history=False).apply(action, seat=seat)
        except RondaError as error:
            # The engine's messages name only what the seat itself sent or may see (errors.py).
            raise ProtocolError("illegal", str(error)) from None
        raise ProtocolError("illegal", f"{action} is not legal now")

    async def decide(self, seat: int, action: Action) -> None:
        """Apply a checked decision, store it, and send every connection its update. Call with the lock held."""
        game = self.game
        before = self.version
        round_index = game.round
        events = game.apply(action, seat=seat)
        next_deck = None
        if game.phase == WAITING:
            deck = shuffled_deck(self.rules, SECURE_RNG)
            events = events + game.add_deck(deck)
            next_deck = deck_names(deck)
        result = (game.winner, list(game.scores)) if game.phase == OVER and game.winner is not None else None
        number = self._actions
        self._actions += 1
        try:
            await self.journal.record(
                Decision(self.id, self.number, number, round_index, action_to_record(seat, action), next_deck, result)
            )
        except Exception as error:
            log.error("table %s: could not store decision %d (%s)", self.id, number, type(error).__name__)
        if result is not None:
            self.status = FINISHED
            self.results[self.number] = result
        events_json = [{**e.to_json(), "version": before + i + 1} for i, e in enumerate(events)]
        version = before + len(events)
        views: dict[int | None, str] = {}
        for client, s in list(self.clients.items()):
            text = views.get(s)
            if text is None:
                text = views[s] = dumps(
                    {
                        "type": "update",
                        "version": version,
                        "events": events_json,
                        "view": self._view(s),
                        "legal": self._legal(s),
                    }
                )
            client.send(text)
        if result is not None:
            self._broadcast_seats()
        self._wake.set()

    async def set_auto_declare(self, client: Client, on: bool) -> None:
        seat = self.clients.get(client)
        if seat is None:
            raise ProtocolError("spectator", "spectators do not declare")
        async with self._lock:
            await self.journal.write(self.journal.store.set_auto_declare, self.id, seat, on)
            self.seats[seat].auto_declare = on
            text = dumps({"type": "auto_declare", "on": on})
            for c, s in list(self.clients.items()):
                if s == seat:
                    c.send(text)
            self._wake.set()

    async def rematch(self, client: Client) -> None:
        """A player asks for another game; it starts when every person present has asked."""
        seat = self.clients.get(client)
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for a rematch")
        async with self._lock:
            if self.status != FINISHED:
                raise ProtocolError("illegal", "a rematch comes after game over")
            self.seats[seat].rematch = True
            waiting_for = [s for s in self.seats if s.human and not s.rematch and self.connected(s.index)]
            if waiting_for:
                self._broadcast_seats()
                return
            await self._new_game()

    async def _new_game(self) -> None:
        base = self.version
        number = self.number + 1
        n = self.rules.players
        dealer = (n - 1 + number) % n
        deck = shuffled_deck(self.rules, SECURE_RNG)
        await self.journal.write(
            self.journal.store.start_game, self.id, number, dealer=dealer, base_version=base, deck=deck_names(deck)
        )
        self.number, self.base_version = number, base
        self.bases[number] = base
        self.current = Game(self.rules, decks=[deck], dealer=dealer)
        self._actions = 0
        self.status = PLAYING
        for s in self.seats:
            s.rematch = False
            self._absent(s.index)
        await self.settle_start()
        self._broadcast_seats()
        self._send_states()
        self._wake.set()

    async def settle_start(self) -> None:
        """A game can be won by its very first events (auto_declare and a tiny target): record that."""
        game = self.game
        if game.phase == OVER and game.winner is not None:
            self.status = FINISHED
            self.results[self.number] = (game.winner, list(game.scores))
            await self.journal.write(
                self.journal.store.finish_game, self.id, self.number, game.winner, list(game.scores)
            )

    # ---------------------------------------------------------------- bots

    async def deal_if_between_rounds(self) -> None:
        """A rebuilt game stopped between rounds gets its next deck (normally stored with the last card of a round)."""
        game = self.game
        if game.phase == WAITING:
            deck = shuffled_deck(self.rules, SECURE_RNG)
            await self.journal.write(
                self.journal.store.add_round, self.id, self.number, game.round + 1, deck_names(deck)
            )
            game.add_deck(deck)

    def start(self) -> None:
        """Start the table's bot driver (and the grace periods of absent people in a game being played)."""
        if self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"ronda-table-{self.id}")
        for s in self.seats:
            self._absent(s.index)
        self._wake.set()

    async def stop(self) -> None:
        for s in self.seats:
            if s.absence is not None:
                s.absence.cancel()
                s.absence = None
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver
            self._driver = None

    def _automatic(self) -> tuple[int, Bot | None] | None:
        """The decision the server takes now, if any: a bot's, a stand-in's, or an automatic declaration (no bot)."""
        if self.status != PLAYING or self.current is None:
            return None
        game = self.current
        if game.phase not in (DECLARE, PLAY):
            return None
        seat = self.seats[game.turn]
        if not seat.human:
            return seat.index, self._bot(seat, seat.level or "medium")
        if seat.stand_in:
            return seat.index, self._bot(seat, self.settings.stand_in)
        if seat.auto_declare and game.phase == DECLARE:
            return seat.index, None
        return None

    @staticmethod
    def _bot(seat: Seat, level: str) -> Bot:
        """The seat's bot (a bot seat's own, or a person's stand-in), made on first use."""
        if seat.bot is None:
            seat.bot = make_bot(level, seed=SECURE_RNG.randrange(2**32))
        return seat.bot

    async def _drive(self) -> None:
        """The table's one bot task: whenever a decision is the server's, pause for the pace, think, apply."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while (step := self._automatic()) is not None:
                try:
                    await self._automatic_step(step)
                except Exception as error:
                    # Only the kind of failure is logged: a message or traceback might name hidden cards.
                    log.error("table %s: the bot driver failed (%s); it tries again", self.id, type(error).__name__)
                    await asyncio.sleep(1.0)

    async def _automatic_step(self, step: tuple[int, Bot | None]) -> None:
        """One decision of the server's, unless a person's decision or a return overtakes it meanwhile."""
        version = self.version
        await asyncio.sleep(self.settings.bot_delay)
        if self.version != version or self._automatic() != step:
            return
        seat, bot = step
        action = await self._think(seat, bot)
        async with self._lock:
            if self.version != version or self._automatic() != step:
                return
            try:
                self.check(seat, action)
            except ProtocolError as error:
                log.error("table %s: seat %d's bot chose an illegal action (%s)", self.id, seat, error.code)
                action = self.game.legal_actions()[0]
            await self.decide(seat, action)

    async def _think(self, seat: int, bot: Bot | None) -> Action:
        game = self.game
        view, legal = game.view(seat), game.legal_actions()
        if bot is None:
            combo = hand_combination(view.hand.mask, self.rules.ace_high)
            return DECLARES[NONE] if combo is None else DECLARES[combo.kind]
        choose: Callable[[], Action] = lambda: bot.choose(view, legal)  # noqa: E731
        try:
            return await anyio.to_thread.run_sync(choose)
        except Exception as error:
            log.error(
                "table %s: seat %d's bot failed (%s); it plays a legal action", self.id, seat, type(error).__name__
            )
            return legal[0]


def _count_actions(game: Game) -> int:
    return game.actions_taken


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
