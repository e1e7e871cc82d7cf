"""The limits of a server of several processes, kept in Redis so that none can be multiplied by the processes.

``ronda serve --redis URL`` runs every process against one Redis (issue 30):
a client that spreads its requests over the processes behind a load balancer
must meet the same limits as with one process. :func:`cluster_limits` builds
them, each behind the interface the routes already use:

- :class:`RedisBuckets` (:class:`~.rates.RateLimit`): the token bucket of
  :class:`~.rates.TokenBuckets`, its two numbers per key in a Redis hash,
  taken in one Lua script on Redis' own clock (atomic, whichever process asks).
- :class:`RedisCaps` (:class:`~.connections.AddressCaps`): the connections
  without a seat an address holds, counted per process in Redis hashes per
  address. Each process renews a short-lived *alive* key; the counts of a
  process whose key expired (it was killed) are dropped at the next check, so
  they do not stay forever.
- :class:`~.redis_pairing.RedisPairing`: the play-now queue.

The flood limit stays in each process: it is per connection, and a connection
lives in one process.

The scripts read keys they compute (a process's alive key), which one Redis
server (or a primary with replicas) allows; Redis Cluster would need hash tags.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from .accounts import ACCOUNT_LOGIN_RATE, LOGIN_RATE, Logins
from .connections import AddressCaps, Counted
from .pairing import LocalPairing, Pairing
from .rates import RateLimit, TokenBuckets, Verdict
from .redis_pairing import RedisPairing

log = logging.getLogger("ronda.web")

PREFIX = "ronda:"
ALIVE_SECONDS = 10.0
"""How long a process's counts outlive it: it renews its alive key every third of this."""

TAKE = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1e6
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(held[1]), tonumber(held[2])
if tokens == nil then tokens, at = burst, now end
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local admitted = 0
if tokens >= 1 then tokens = tokens - 1; admitted = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return {admitted, tostring(tokens)}
"""
"""One action of a key: its bucket refilled on Redis' clock, a token taken if there is one; kept until full again."""

COUNT = """
local cap, me, alive = tonumber(ARGV[1]), ARGV[2], ARGV[3]
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #counts, 2 do
  local process, n = counts[i], tonumber(counts[i + 1])
  if process == me or redis.call('EXISTS', alive .. process) == 1 then
    total = total + n
  else
    redis.call('HDEL', KEYS[1], process)
  end
end
if cap >= 0 and total >= cap then return {0, total} end
redis.call('HINCRBY', KEYS[1], me, 1)
redis.call('EXPIRE', KEYS[1], 86400)
return {1, total + 1}
"""
"""Count one more connection of an address for this process, unless the live processes' counts reach ``cap``
(``-1``: count it whatever the total); the total of the live processes after."""

UNCOUNT = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
"""


class RedisBuckets:
    """:class:`~.rates.RateLimit` in Redis: one bucket per key shared by every process (``name`` tells limits apart).

    The verdict's ``retry_after`` is computed as :class:`~.rates.TokenBuckets`
    does, from the tokens left.
    """

    def __init__(self, redis: Any, name: str, rate: float, burst: float) -> None:
        if rate <= 0 or burst <= 0:
            raise ValueError(f"a rate limit refills above zero a second into buckets above zero, not {rate}, {burst}")
        self.redis, self.name, self.rate, self.burst = redis, name, rate, burst
        self.script = redis.register_script(TAKE)

    @classmethod
    def per_minute(cls, redis: Any, name: str, actions: float) -> RedisBuckets:
        """``actions`` a minute on average, in bursts of as many (at least one), as ``TokenBuckets.per_minute``."""
        return cls(redis, name, actions / 60.0, max(1.0, actions))

    def _key(self, key: str) -> str:
        return f"{PREFIX}rate:{self.name}:{key}"

    async def hit(self, key: str) -> Verdict:
        admitted, left = await self.script(keys=[self._key(key)], args=[repr(self.rate), repr(self.burst)])
        tokens = float(left)
        if int(admitted):
            return Verdict(True, tokens, 0.0)
        return Verdict(False, tokens, (1 - tokens) / self.rate)

    async def forget(self, key: str) -> None:
        await self.redis.delete(self._key(key))


class RedisCaps(AddressCaps):
    """:class:`~.connections.AddressCaps` counted across every process in Redis.

    Each address has two hashes, its pending and its watching connections,
    counted under each process's id (:data:`COUNT`) while the process renews
    its alive key (:meth:`start`; :meth:`stop` takes its counts back). A
    spectator past the cap is refused wherever it connects. A new socket past
    the cap is never refused (as in one process): this process's oldest
    pending socket of the address is closed to make room, if it holds one; so
    an address spreading sockets over N processes holds at most the cap and
    one more per process. If Redis does not answer, a socket is counted in
    this process alone.
    """

    def __init__(self, redis: Any, cap: int, *, alive_seconds: float = ALIVE_SECONDS) -> None:
        super().__init__(cap)
        self.redis = redis
        self.me = secrets.token_hex(8)
        self.alive_seconds = alive_seconds
        self._count = redis.register_script(COUNT)
        self._uncount = redis.register_script(UNCOUNT)
        self._heart: asyncio.Task[None] | None = None
        self._releasing: set[asyncio.Task[None]] = set()

    def _key(self, kind: str, address: str) -> str:
        return f"{PREFIX}{kind}:{address}"

    @property
    def _alive_prefix(self) -> str:
        return f"{PREFIX}alive:"

    async def start(self) -> None:
        """Say this process is alive, and keep saying it (every third of ``alive_seconds``).

        A Redis that does not answer yet does not stop the server from starting:
        ``/readyz`` says it is not ready until Redis answers.
        """
        try:
            await self._beat()
        except Exception as error:
            log.warning("Redis does not answer (%s): not ready until it does", type(error).__name__)
        self._heart = asyncio.get_running_loop().create_task(self._beating())

    async def _beat(self) -> None:
        await self.redis.set(self._alive_prefix + self.me, "1", px=int(self.alive_seconds * 1000))

    async def _beating(self) -> None:
        while True:
            await asyncio.sleep(self.alive_seconds / 3)
            try:
                await self._beat()
            except Exception as error:  # Redis away a moment: the next beat tries again
                log.warning("could not renew this process's alive key in Redis (%s)", type(error).__name__)

    async def stop(self) -> None:
        """This process stops: its counts are taken back at once."""
        if self._heart is not None:
            self._heart.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heart
        if self._releasing:
            await asyncio.wait(self._releasing, timeout=5)
        with contextlib.suppress(Exception):
            for kind, addresses in (("pending", self.pending), ("watching", self.watching)):
                for address in list(addresses):
                    await self.redis.hdel(self._key(kind, address), self.me)
            await self.redis.delete(self._alive_prefix + self.me)

    async def open(self, address: str, evict: Callable[[], None]) -> Counted:
        try:
            _, total = await self._count(keys=[self._key("pending", address)], args=[-1, self.me, self._alive_prefix])
        except Exception as error:
            log.warning("Redis did not answer (%s): a socket is counted in this process alone", type(error).__name__)
            return await super().open(address, evict)
        waiting = self.pending.setdefault(address, [])
        if int(total) > self.cap and waiting:  # past the cap across the cluster: this process's oldest makes room
            oldest = waiting.pop(0)
            oldest.kind = "closed"
            oldest.evict()
            self._release("pending", address)
        counted = Counted(address, evict)
        waiting.append(counted)
        return counted

    async def watch(self, counted: Counted) -> bool:
        if counted.kind == "watching":
            return True
        admitted, _ = await self._count(
            keys=[self._key("watching", counted.address)], args=[self.cap, self.me, self._alive_prefix]
        )
        if not int(admitted):
            return False
        await super().settle(counted, None)  # counted as watching by the script already
        return True

    async def settle(self, counted: Counted, seat: int | None) -> None:
        if seat is None and counted.kind == "pending":  # watching without :meth:`watch` (a token holding no seat)
            await self.redis.hincrby(self._key("watching", counted.address), self.me, 1)
        await super().settle(counted, seat)

    async def close(self, counted: Counted) -> None:
        if counted.kind in ("pending", "watching"):
            self._release(counted.kind, counted.address)
        await super().close(counted)

    def _release(self, kind: str, address: str) -> None:
        """Take one connection of ``address`` back from ``kind``'s count, in a task of its own.

        The connection's handler may be being cancelled (the server stops, the
        test client goes): the count must still go, so it is not awaited there.
        """
        task = asyncio.get_running_loop().create_task(self._uncount_one(kind, address))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def _uncount_one(self, kind: str, address: str) -> None:
        try:
            await self._uncount(keys=[self._key(kind, address)], args=[self.me])
        except Exception as error:  # Redis away: the count goes when this process's alive key does
            log.warning("could not release a connection's count in Redis (%s)", type(error).__name__)


def cluster_client(url: str) -> Any:
    """An asyncio Redis client for ``url`` (``redis://host:port/db``); it connects at its first command."""
    from redis.asyncio import Redis

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"the Redis URL starts with redis://, rediss:// or unix://, not {url.split(':')[0]!r}")
    return Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5, health_check_interval=30)


Made = tuple[RateLimit, RateLimit, RateLimit, AddressCaps, Pairing]
"""A server's limits: ``(creating, joining, flood, caps, pairing)``, as :class:`~.site.Site` holds them."""


def local_limits(*, create_rate: float, join_rate: float, flood_rate: float, connections_per_client: int) -> Made:
    """The limits of a server of one process, kept in its memory (``create_app`` without ``redis_url``).

    ``create_rate`` and ``join_rate`` are a minute, ``flood_rate`` a second (as ``create_app``'s).
    """
    return (
        TokenBuckets.per_minute(create_rate),
        TokenBuckets.per_minute(join_rate),
        TokenBuckets(flood_rate, 2 * flood_rate),
        AddressCaps(connections_per_client),
        LocalPairing(),
    )


def cluster_limits(
    redis: Any, *, create_rate: float, join_rate: float, flood_rate: float, connections_per_client: int
) -> Made:
    """:func:`local_limits` for a cluster on ``redis`` (an asyncio client): the same limits, kept in Redis.

    The flood limit stays in the process (it is per connection).
    """
    return (
        RedisBuckets.per_minute(redis, "create", create_rate),
        RedisBuckets.per_minute(redis, "join", join_rate),
        TokenBuckets(flood_rate, 2 * flood_rate),
        RedisCaps(redis, connections_per_client),
        RedisPairing(redis),
    )


def server_limits(
    redis: Any | None, *, create_rate: float, join_rate: float, flood_rate: float, connections_per_client: int
) -> Made:
    """The cluster's limits on ``redis``, or with none this process's own (what ``create_app`` calls)."""
    if redis is None:
        return local_limits(
            create_rate=create_rate,
            join_rate=join_rate,
            flood_rate=flood_rate,
            connections_per_client=connections_per_client,
        )
    return cluster_limits(
        redis,
        create_rate=create_rate,
        join_rate=join_rate,
        flood_rate=flood_rate,
        connections_per_client=connections_per_client,
    )


def login_limits(redis: Any | None) -> Logins:
    """The limits on trying passwords: in Redis for a cluster (N processes must not allow N times the tries)."""
    if redis is None:
        return Logins()
    return Logins(
        RedisBuckets.per_minute(redis, "login", LOGIN_RATE),
        RedisBuckets.per_minute(redis, "login-account", ACCOUNT_LOGIN_RATE),
    )
