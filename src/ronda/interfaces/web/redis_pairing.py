"""Play now across every process of a cluster: the queue of :mod:`.pairing` kept in Redis (issue 30).

:class:`RedisPairing` keeps :class:`~.pairing.LocalPairing`'s rules — a ticket
waits at most once and so does a player, a request not looked at for
:data:`~.pairing.STALE` seconds is dropped before any group is formed, a group
is seated as soon as it is complete, bots only for those who accepted them, a
seated ticket is done — with the queue in Redis, so that two people whose
requests reach two different processes are seated together. Each change of the
queue, and each look (which keeps a request alive), is one Lua script, run by
Redis alone (atomic): two processes completing the same group at once cannot
both take a ticket, so a person is never seated twice, and a request dropped
as stale by one process cannot be seated by another. Waits and looks are
measured on Redis' clock, the same for every process (a test may pass a clock
of its own instead).

Keys (under ``ronda:pair:``): ``q:{game}`` the tickets waiting for a game in
the order they asked (a sorted set on a counter), ``bots:{game}`` those that
accept bots by the time their bots are due, ``ask:{ticket}`` each request,
``client:{address}`` the tickets an address has waiting, ``player:{id}`` the
one ticket a player has waiting, ``seen`` every waiting ticket by when it was
last asked or looked at, ``games`` the games with someone waiting, and
``seat:{ticket}`` where a matched ticket sits (empty while its table is being
made), kept :data:`KEEP_SEATING` seconds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from .pairing import KEEP_REPLACED, STALE, WAITING_PER_CLIENT, Ask, Game, Match, Seating, TooManyWaiting, Waiting

PREFIX = "ronda:pair:"
KEEP_SEATING = 86_400
"""Seconds a matched ticket's seat is remembered (asking again gives it back): far longer than any game."""

COMMON = """
local P, NOW, STALE = KEYS[1], ARGV[1], tonumber(ARGV[2])
local function now()
  if NOW ~= '' then return tonumber(NOW) end
  local clock = redis.call('TIME')
  return tonumber(clock[1]) + tonumber(clock[2]) / 1e6
end
local function drop(ticket)
  local held = redis.call('HMGET', P .. 'ask:' .. ticket, 'game', 'client', 'player')
  local game, client, player = held[1], held[2], held[3]
  if not game then return 0 end
  redis.call('ZREM', P .. 'q:' .. game, ticket)
  redis.call('ZREM', P .. 'bots:' .. game, ticket)
  redis.call('ZREM', P .. 'seen', ticket)
  redis.call('SREM', P .. 'client:' .. client, ticket)
  if player and player ~= '' and redis.call('GET', P .. 'player:' .. player) == ticket then
    redis.call('DEL', P .. 'player:' .. player)
  end
  redis.call('DEL', P .. 'ask:' .. ticket)
  if redis.call('ZCARD', P .. 'q:' .. game) == 0 then redis.call('SREM', P .. 'games', game) end
  return 1
end
-- Requests nobody has asked or looked at for STALE seconds are gone (their clients went away): dropped
-- before anything else is done, so that no group is ever formed with them.
local function sweep(at)
  for _, ticket in ipairs(redis.call('ZRANGEBYSCORE', P .. 'seen', '-inf', at - STALE)) do drop(ticket) end
end
local function take(tickets, keep)
  local asks = {}
  for _, ticket in ipairs(tickets) do
    table.insert(asks, redis.call('HGET', P .. 'ask:' .. ticket, 'ask'))
    drop(ticket)
    redis.call('SET', P .. 'seat:' .. ticket, '', 'EX', keep)
  end
  return asks
end
"""

ASK = (
    COMMON
    + """
local ticket, game, ask, client = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local per_client, players, bots_after, level, keep = tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9], ARGV[10], ARGV[11]
local player = ARGV[12]
if redis.call('EXISTS', P .. 'seat:' .. ticket) == 1 then return {'seated'} end
local since = now()
sweep(since)
-- The ticket asking again for the same game (another bots' wait) has waited since it first asked: kept.
local held = redis.call('HMGET', P .. 'ask:' .. ticket, 'game', 'began')
local began = since
if held[1] == game and held[2] then began = tonumber(held[2]) end
drop(ticket)
if player ~= '' then
  local earlier = redis.call('GET', P .. 'player:' .. player)
  if earlier and earlier ~= ticket then
    drop(earlier)
    redis.call('SET', P .. 'replaced:' .. earlier, '1', 'EX', ARGV[13])
  end
end
if redis.call('SCARD', P .. 'client:' .. client) >= per_client then return {'too_many'} end
redis.call('ZADD', P .. 'q:' .. game, redis.call('INCR', P .. 'order'), ticket)
redis.call('HSET', P .. 'ask:' .. ticket, 'ask', ask, 'game', game, 'client', client, 'since', tostring(since),
  'level', level, 'bots_after', bots_after, 'player', player, 'began', tostring(began))
redis.call('ZADD', P .. 'seen', since, ticket)
redis.call('SADD', P .. 'client:' .. client, ticket)
if player ~= '' then redis.call('SET', P .. 'player:' .. player, ticket) end
redis.call('SADD', P .. 'games', game)
if bots_after ~= '' then redis.call('ZADD', P .. 'bots:' .. game, since + tonumber(bots_after), ticket) end
if redis.call('ZCARD', P .. 'q:' .. game) >= players then
  return {'match', take(redis.call('ZRANGE', P .. 'q:' .. game, 0, players - 1), keep)}
end
return {'waiting'}
"""
)
"""Queue a request (replacing the ticket's or the player's earlier one); the asks of the group it completes, if any."""

DUE = (
    COMMON
    + """
local keep, at, found = ARGV[3], now(), {}
sweep(at)
for _, game in ipairs(redis.call('SMEMBERS', P .. 'games')) do
  local players = tonumber(string.match(game, '^(%d+):'))
  while true do
    local ended = redis.call('ZRANGEBYSCORE', P .. 'bots:' .. game, '-inf', at, 'LIMIT', 0, 1)
    if #ended == 0 then break end
    local first, people, willing = ended[1], {}, 0
    for _, ticket in ipairs(redis.call('ZRANGE', P .. 'q:' .. game, 0, -1)) do
      if ticket == first then
        table.insert(people, ticket)
      elseif willing < players - 1 and redis.call('ZSCORE', P .. 'bots:' .. game, ticket) then
        table.insert(people, ticket)
        willing = willing + 1
      end
    end
    local level = redis.call('HGET', P .. 'ask:' .. first, 'level')
    table.insert(found, {game, players - #people, level, take(people, keep)})
  end
end
return found
"""
)
"""Every group whose bots are due, taken out of the queue: (game, bots, level, the people's asks in queue order)."""

CANCEL = COMMON + "\nsweep(now())\nreturn drop(ARGV[3])\n"

LOOK = (
    COMMON
    + """
local ticket, at = ARGV[3], now()
sweep(at)
local held = redis.call('HMGET', P .. 'ask:' .. ticket, 'ask', 'game', 'since', 'bots_after', 'began')
if not held[1] then return false end
redis.call('ZADD', P .. 'seen', at, ticket)
local bots_in = ''
if held[4] ~= '' then bots_in = tostring(math.max(0, tonumber(held[3]) + tonumber(held[4]) - at)) end
local began = tonumber(held[5] or held[3])
return {held[1], redis.call('ZCARD', P .. 'q:' .. held[2]) - 1, bots_in, tostring(at - began)}
"""
)
"""A look at a waiting request, which keeps it waiting: (its ask, how many others wait for the game, bots in, the
seconds its ticket has waited for the game; a request queued before ``began`` was kept counts from its ask)."""


def _game_key(game: Game) -> str:
    return f"{game.players}:{game.preset}"


def _ask_json(ask: Ask) -> str:
    return json.dumps(asdict(ask))


def _ask_of(text: str | bytes) -> Ask:
    fields = json.loads(text)
    return Ask(**{**fields, "game": Game(**fields["game"])})


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisPairing:
    """:class:`~.pairing.Pairing` in Redis, shared by every process whose client is on the same server.

    ``redis`` is a ``redis.asyncio.Redis`` client. Times are Redis' (``TIME``), one clock for every process;
    ``clock`` replaces it (a test's fake clock, so that waits and staleness are tested without sleeping).
    """

    def __init__(
        self,
        redis: Any,
        *,
        per_client: int = WAITING_PER_CLIENT,
        prefix: str = PREFIX,
        stale: float = STALE,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.redis, self.per_client, self.prefix, self.stale, self.clock = redis, per_client, prefix, stale, clock
        self._ask = redis.register_script(ASK)
        self._due = redis.register_script(DUE)
        self._cancel = redis.register_script(CANCEL)
        self._look = redis.register_script(LOOK)

    async def _run(self, script: Any, *args: Any) -> Any:
        """Run one of the scripts: every one takes the time (empty: Redis' own) and the staleness first."""
        at = "" if self.clock is None else repr(float(self.clock()))
        return await script(keys=[self.prefix], args=[at, repr(float(self.stale)), *args])

    async def ask(self, ask: Ask) -> Match | None:
        bots_after = "" if ask.bots_after is None else repr(float(ask.bots_after))
        args = [
            ask.ticket,
            _game_key(ask.game),
            _ask_json(ask),
            ask.client,
            self.per_client,
            ask.game.players,
            bots_after,
            ask.level,
            KEEP_SEATING,
            ask.player or "",
            KEEP_REPLACED,
        ]
        answer = await self._run(self._ask, *args)
        verdict = _text(answer[0])
        if verdict == "seated":
            raise ValueError(f"ticket {ask.ticket[:8]}… was seated: it is done")
        if verdict == "too_many":
            raise TooManyWaiting(ask.client)
        if verdict == "match":
            return Match(ask.game, tuple(_ask_of(a) for a in answer[1]))
        return None

    async def replaced(self, ticket: str) -> bool:
        return bool(await self.redis.exists(f"{self.prefix}replaced:{ticket}"))

    async def cancel(self, ticket: str) -> bool:
        return bool(int(await self._run(self._cancel, ticket)))

    async def waiting(self, ticket: str) -> Waiting | None:
        held = await self._run(self._look, ticket)
        if not held:
            return None
        ask_text, others, bots_in, waited = held
        bots = float(_text(bots_in)) if _text(bots_in) else None
        return Waiting(_ask_of(ask_text), int(others), bots, float(_text(waited)))

    async def due(self) -> list[Match]:
        found = await self._run(self._due, KEEP_SEATING)
        matches = []
        for _game, bots, level, asks in found:
            people = tuple(_ask_of(a) for a in asks)
            matches.append(Match(people[0].game, people, int(bots), _text(level)))
        return matches

    async def seat(self, ticket: str, seating: Seating) -> None:
        await self.redis.set(f"{self.prefix}seat:{ticket}", json.dumps(asdict(seating)), ex=KEEP_SEATING)

    async def seating(self, ticket: str) -> Seating | None:
        held = await self.redis.get(f"{self.prefix}seat:{ticket}")
        if held is None:
            return None
        text = _text(held)
        if not text:
            return Seating()  # matched, its table being made
        fields = json.loads(text)
        error = fields.get("error")
        refusal = (int(error[0]), str(error[1]), str(error[2])) if error else None
        return Seating(fields["table_id"], fields["seat"], fields["token"], refusal)
