"""Play now: people asking for the same game (players, preset) are seated together.

This module is the queue alone — who waits for what, and when a group is
complete — with no table, HTTP or store in it: the route
(:mod:`.routes.pairing`) makes a table for each :class:`Match` it hands out.
:class:`Pairing` is the interface, asynchronous and keyed by strings, so that a
cluster-wide queue (Redis, issue 30) can stand behind it unchanged;
:class:`LocalPairing` keeps the queue in this process's memory: a restart
forgets everyone waiting (they ask again), and several server processes would
each pair only their own people.

The rules it keeps:

- A person is their *ticket* (a secret the server draws at the first ask, until
  issue 26 item 2 gives people a durable identity). Asking again with a ticket
  still waiting replaces that one request (another game, another wait): a
  ticket waits at most once. For the same game, the time it has waited
  counts on (:attr:`Waiting.waited`: what a page opened again shows).
- A *player* (a kept name, :attr:`Ask.player`) waits at most once too: their
  new ask replaces their earlier waiting request, whatever its ticket. Two
  tabs of one browser send two tickets but one player, and without this rule
  the second tab's ask completed the first's group: one person seated against
  themselves ("Solo" and "Solo 2", one player at both seats). People without a
  kept name (``player`` None) are told apart by ticket alone, and nobody is by
  address: two people behind one NAT are two people.
- A request is kept only while someone looks at it: asking, or looking
  (:meth:`Pairing.waiting`, which the waiting page sends every second). One not
  looked at for :data:`STALE` seconds is dropped before any group is formed, so
  that a client who asked and went away (a closed tab, or a script leaving
  ghosts on purpose) is never seated in a real person's game, where a stand-in
  bot would play their seat. Its ticket is then unknown, like a cancelled one:
  a page that was still showing the wait (a background tab looks seldom) asks
  again by itself, with the same choices.
- A group is seated as soon as ``players`` people wait for the same game, first
  come first seated.
- A person who chose bots (``bots_after`` seconds, and a level) is seated when
  that wait ends, with everyone else then waiting for the same game who also
  accepts bots (first come first), bots of the chosen level filling the rest.
  Nobody who refused bots is ever seated with one by someone else's choice.
- A seated ticket is done: it never waits or is seated again. Asking again with
  it gives back the same seat while its game goes on (the route's part).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

WAITING_PER_CLIENT = 8
"""Requests one client (an address) may have waiting at once: a flood does not fill the queue."""
STALE = 10.0
"""Seconds a waiting request is kept without a look (the page looks every second): then it is dropped as gone."""
KEEP_REPLACED = 600
"""Seconds a request replaced by the same player's newer one is remembered as replaced: its page, on another
device, is told so and stops, instead of asking again and replacing the newer one in turn (they looped)."""
KEEP_SEATINGS = 100_000
"""Seated tickets remembered (so that asking again gives back the seat); the oldest half goes past it."""


@dataclass(frozen=True)
class Game:
    """What a person asks for: a table of ``players`` with ``preset``'s rules."""

    players: int
    preset: str


@dataclass(frozen=True)
class Ask:
    """One person's request: the game, the name to sit under, and whether bots may fill seats after a wait."""

    ticket: str
    game: Game
    name: str
    client: str
    """Who the limits count (an address)."""
    bots_after: float | None = None
    """Seconds after which bots fill the empty seats; ``None``: wait for people only."""
    level: str = "medium"
    """The bots' level when they fill the seats."""
    player: str | None = None
    """The player asking, when they keep a name (docs/server.md, "Identity and accounts"): their seat records it."""


@dataclass(frozen=True)
class Match:
    """A group to seat at a new table: the people in seating order and the bots that complete it."""

    game: Game
    people: tuple[Ask, ...]
    bots: int = 0
    level: str | None = None
    """The bots' level: that of the person whose wait ended."""


@dataclass(frozen=True)
class Waiting:
    """A request still waiting: what it asked for, how many wait for the same game, and when bots come."""

    ask: Ask
    others: int
    """Other people waiting for the same game."""
    bots_in: float | None
    """Seconds left before bots fill the seats (``None``: no bots)."""
    waited: float
    """Seconds since the person began waiting for this game: a page opened again (a reload) counts on from there,
    not from 0. Asking again with the same ticket for the same game (another bots' wait) keeps it."""


@dataclass(frozen=True)
class Seating:
    """Where a ticket was seated (``table_id``, ``seat``, ``token``), or why its table could not be made."""

    table_id: str | None = None
    seat: int | None = None
    token: str | None = None
    error: tuple[int, str, str] | None = None
    """The refusal (status, code, message) when the table could not be made (a full server, the store down)."""

    @property
    def pending(self) -> bool:
        """Matched, its table not made yet: neither a seat nor a refusal."""
        return self.table_id is None and self.error is None


class TooManyWaiting(Exception):
    """A client already has as many requests waiting as it may."""


class Pairing(Protocol):
    """The play-now queue, as a server of one process or of many would keep it."""

    async def ask(self, ask: Ask) -> Match | None:
        """Queue ``ask`` (replacing the ticket's or the player's earlier request); the group it completes, or None.

        The group's tickets are pending from then on; requests not looked at for :data:`STALE` seconds are dropped
        first, so they are never part of it.
        """
        ...

    async def cancel(self, ticket: str) -> bool:
        """Take the ticket's request out of the queue; whether it was waiting."""
        ...

    async def waiting(self, ticket: str) -> Waiting | None:
        """The ticket's request, if it is waiting; looking keeps it waiting another :data:`STALE` seconds."""
        ...

    async def replaced(self, ticket: str) -> bool:
        """Whether the ticket's request was replaced by a newer one of the same player (in the last
        :data:`KEEP_REPLACED` seconds)."""
        ...

    async def due(self) -> list[Match]:
        """The groups whose bots are due now (waits that have ended), taken out of the queue (their tickets pending)."""
        ...

    async def seat(self, ticket: str, seating: Seating) -> None:
        """Keep where a matched ticket was seated, for its next ask or look (it is pending from its match on)."""
        ...

    async def seating(self, ticket: str) -> Seating | None:
        """Where the ticket was seated, if it was."""
        ...


@dataclass
class _Entry:
    ask: Ask
    since: float
    """When this request was made: its bots' wait counts from here."""
    seen: float
    """When the request was last asked or looked at: :data:`STALE` seconds later it is dropped."""
    began: float
    """When its ticket began waiting for this game (:attr:`Waiting.waited`): kept when the ticket asks again."""


class LocalPairing:
    """:class:`Pairing` in this process's memory: one queue per game, in the order people asked.

    >>> import asyncio
    >>> clock = iter([0.0, 1.0, 2.0]).__next__
    >>> pairing = LocalPairing(clock=clock)
    >>> two = Game(2, "classic")
    >>> asyncio.run(pairing.ask(Ask("a", two, "Amina", "1.2.3.4"))) is None
    True
    >>> [p.name for p in asyncio.run(pairing.ask(Ask("b", two, "Brahim", "5.6.7.8"))).people]
    ['Amina', 'Brahim']
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        per_client: int = WAITING_PER_CLIENT,
        stale: float = STALE,
    ) -> None:
        self.clock = clock
        self.per_client = per_client
        self.stale = stale
        self.queues: dict[Game, list[_Entry]] = {}
        self.where: dict[str, Game] = {}
        self.players: dict[str, str] = {}
        """The ticket each player (a kept name) has waiting: one at most."""
        self.replacements: dict[str, float] = {}
        """Tickets replaced by their player's newer request, and when (:meth:`replaced`)."""
        self.seatings: dict[str, Seating] = {}

    async def ask(self, ask: Ask) -> Match | None:
        if ask.ticket in self.seatings:
            raise ValueError(f"ticket {ask.ticket[:8]}… was seated: it is done")
        now = self._sweep()
        held = self._entry(ask.ticket)
        began = held.began if held is not None and held.ask.game == ask.game else now
        self._drop(ask.ticket)
        if ask.player is not None and (earlier := self.players.get(ask.player)) not in (None, ask.ticket):
            assert earlier is not None
            self._drop(earlier)  # the player's other tab, or an earlier ask: never a group with themselves
            self.replacements = {t: at for t, at in self.replacements.items() if at + KEEP_REPLACED > now}
            self.replacements[earlier] = now
        mine = sum(e.ask.client == ask.client for q in self.queues.values() for e in q)
        if mine >= self.per_client:
            raise TooManyWaiting(ask.client)
        queue = self.queues.setdefault(ask.game, [])
        queue.append(_Entry(ask, now, now, began))
        self.where[ask.ticket] = ask.game
        if ask.player is not None:
            self.players[ask.player] = ask.ticket
        if len(queue) >= ask.game.players:
            group = queue[: ask.game.players]
            return self._take(ask.game, [e.ask for e in group], 0, None)
        return None

    async def cancel(self, ticket: str) -> bool:
        self._sweep()
        return self._drop(ticket)

    async def replaced(self, ticket: str) -> bool:
        at = self.replacements.get(ticket)
        return at is not None and at + KEEP_REPLACED > self.clock()

    async def waiting(self, ticket: str) -> Waiting | None:
        now = self._sweep()
        entry = self._entry(ticket)
        if entry is None:
            return None
        entry.seen = now
        bots_in = None
        if entry.ask.bots_after is not None:
            bots_in = max(0.0, entry.since + entry.ask.bots_after - now)
        return Waiting(entry.ask, len(self.queues[entry.ask.game]) - 1, bots_in, now - entry.began)

    async def due(self) -> list[Match]:
        now = self._sweep()
        matches = []
        for game in list(self.queues):
            while True:
                queue = self.queues.get(game, [])
                ended = [e for e in queue if e.ask.bots_after is not None and e.since + e.ask.bots_after <= now]
                if not ended:
                    break
                first = min(ended, key=lambda e: e.since + (e.ask.bots_after or 0.0))
                willing = [e.ask for e in queue if e.ask.bots_after is not None and e is not first]
                people = [first.ask, *willing[: game.players - 1]]
                people.sort(key=lambda a: next(i for i, e in enumerate(queue) if e.ask is a))
                matches.append(self._take(game, people, game.players - len(people), first.ask.level))
        return matches

    async def seat(self, ticket: str, seating: Seating) -> None:
        if len(self.seatings) >= KEEP_SEATINGS:  # the oldest are forgotten: their games are long over
            for old in list(self.seatings)[: KEEP_SEATINGS // 2]:
                del self.seatings[old]
        self.seatings[ticket] = seating

    async def seating(self, ticket: str) -> Seating | None:
        return self.seatings.get(ticket)

    def _take(self, game: Game, people: list[Ask], bots: int, level: str | None) -> Match:
        for ask in people:
            self._drop(ask.ticket)
            self.seatings[ask.ticket] = Seating()  # pending, in the same step: a look meanwhile finds it matched
        return Match(game, tuple(people), bots, level)

    def _entry(self, ticket: str) -> _Entry | None:
        """The ticket's waiting request, if it has one."""
        game = self.where.get(ticket)
        if game is None:
            return None
        return next(e for e in self.queues[game] if e.ask.ticket == ticket)

    def _sweep(self) -> float:
        """Drop every request not looked at for :attr:`stale` seconds (their clients went away); the time now."""
        now = self.clock()
        gone = [e.ask.ticket for q in self.queues.values() for e in q if e.seen + self.stale <= now]
        for ticket in gone:
            self._drop(ticket)
        return now

    def _drop(self, ticket: str) -> bool:
        game = self.where.pop(ticket, None)
        if game is None:
            return False
        queue = self.queues[game]
        for entry in queue:
            player = entry.ask.player
            if entry.ask.ticket == ticket and player is not None and self.players.get(player) == ticket:
                del self.players[player]
        self.queues[game] = [e for e in queue if e.ask.ticket != ticket]
        if not self.queues[game]:
            del self.queues[game]
        return True
