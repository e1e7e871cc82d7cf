"""Several ``ronda serve`` processes over one PostgreSQL and one Redis (``ronda serve --redis URL``).

Each table has one *owner* process at a time, the only one that holds it in
memory and applies its decisions (:class:`~.tables.Table`, as with one
process). Ownership is a lease in Redis: the key ``ronda:lease:{table}`` set
with ``SET NX PX`` to a value unique to the process and the lease's *epoch*
(a number from ``INCR ronda:epoch:{table}``), renewed every
:data:`RENEW_EVERY` seconds by a Lua compare-and-extend, released by a Lua
compare-and-delete. Nothing else decides who owns what: no consensus of our own.

Fencing: a process that takes a table stores its epoch in the table's row
(:meth:`~.store.Store.claim`, refused unless it is newer than the stored one),
and every write it makes for the table checks that epoch in the same
transaction (:meth:`~.store.Journal.fenced`). A stale owner (stopped past its
lease, cut off from Redis) has its writes refused with
:class:`~.store.Fenced`, and drops the table. A renewal that fails, or Redis
out of reach for a whole lease, drops it too.

Connections: a websocket may land on any process. At the owner it is served
as with one process. Elsewhere it is *relayed*: each frame (after that
process's flood limit and checks) is published to the owner's channel
``ronda:process:{id}``, where the owner answers it for a :class:`RemoteClient`
standing for the connection; everything the table sends that connection (its
own seat's view, R11) is published back to the relaying process's channel and
written to the websocket. What the relaying process answers itself (a frame
it refused: garbage, a flood, a message before hello) goes out in the order the
frames came, after the owner's answers to the frames forwarded before it: see
:meth:`Cluster.answer_here`. A relayed connection whose owner goes away (its
lease changes or vanishes, nobody listens on its channel) is closed with 1012,
and the page reconnects by itself (docs/web-protocol.md); the process it lands
on takes the table over once the old lease has expired, rebuilding it from
the store (:meth:`~.lobby.Lobby.open`). So is every connection a process
relays when its own channel dropped (Redis restarted, the network cut): what
was published to it meanwhile is lost, and the page catches up on reconnecting.

A dead owner is not waited out to the end of its lease: a process's channel
loses its subscriber the moment the process dies (Redis sees its connections
close), so an owner whose channel has had no subscriber at every look for
:data:`GONE_AFTER` seconds is taken for dead: its relayed connections are
closed, and its lease is broken (compare-and-delete of the value seen) by the
process that takes the table. Taking a live owner for dead (its subscription
lost for a second while it still runs) costs it the table, nothing more:
fencing refuses its writes and it drops the table, as when a starved owner's
lease expires. An owner stopped (SIGSTOP) or cut off keeps its connections
open at Redis and is waited out to the end of its lease, as before.

Bots think where the owner is; after a takeover the new owner decides again
from the stored game (first in its bot queue: :class:`~.workers.BotPool`),
and the versions of decisions (their ids) keep anything from being applied
twice.

Where the rest of the cluster plugs in: :class:`Cluster` is made by
:func:`~.app.create_app` when ``redis_url`` is given and kept in
``app.state.cluster``; its :attr:`Cluster.redis` is the process's Redis client,
for the cluster-wide lobby listing, pairing, rate limits and connection caps
(:mod:`.rates`, :mod:`.pairing`, :mod:`.connections`), and
:attr:`Cluster.takeovers` counts the leases this process took from a process that had died.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from ...bots import levels
from .connections import OUTBOX
from .forms import HttpError
from .lobby import Elsewhere
from .protocol import ProtocolError, dumps, error_json, read_client_message
from .tables import TableMoved, answer

if TYPE_CHECKING:
    from .connections import Connection
    from .lobby import Lobby

log = logging.getLogger("ronda.web")

LISTEN_RETRY_FIRST = 0.2
"""Seconds before the channel is subscribed again after it dropped; doubled at each failed try."""
LISTEN_RETRY_MOST = 2.0
"""The longest wait between tries to subscribe while Redis is away (so, once it is back, the longest deafness)."""

LEASE_MS = 3000
"""How long a lease lasts without renewal: a dead owner's tables are taken over this long after it died, at most."""
RENEW_EVERY = 1.0
"""Seconds between renewals of the leases a process holds (three chances before one expires)."""
GONE_AFTER = 1.0
"""Seconds a lease holder's channel must have had no subscriber, at every look, before the holder is taken for dead
(a process's channel loses its subscriber when it dies; a live one that lost its subscription subscribes again
within a few tenths of a second)."""
LOOK_EVERY = 0.05
"""Seconds between looks at a silent holder's channel (the tables of one dead owner share each look)."""
LOOKS_APART = 0.5
"""Looks at a silent channel further apart than this start the count of :data:`GONE_AFTER` again."""
WATCH_EVERY = 0.25
"""Seconds between looks at the leases of the tables a process relays connections to."""
CALL_TIMEOUT = 5.0
"""Seconds a request to another process (a seat taken through a process that is not the owner) waits for its answer."""
MOVED = 1012
"""The close code of a connection whose table changed owner: "service restart", the page reconnects by itself."""

RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i] then
    kept[i] = redis.call('pexpire', key, ARGV[#KEYS + 1])
  else
    kept[i] = 0
  end
end
return kept
"""
"""Extend each lease (``KEYS``, their values in ``ARGV``, then the length) only if it is still this owner's
(compare-and-extend); 1 for each kept, 0 for each lost."""
RENEW_BATCH = 500
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""
"""Delete the lease only if it is still this owner's (compare-and-delete)."""
RAISE_TO = """
local now = tonumber(redis.call('get', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then
  redis.call('set', KEYS[1], ARGV[1])
end
return 1
"""
"""Bring an epoch counter up to the store's (a Redis that restarted empty counts from 0 again)."""


def lease_key(table_id: str) -> str:
    return f"ronda:lease:{table_id}"


def epoch_key(table_id: str) -> str:
    return f"ronda:epoch:{table_id}"


def channel(process: str) -> str:
    return f"ronda:process:{process}"


@dataclass
class Lease:
    """A lease this process holds: its value in Redis, its epoch, and when it was last renewed (monotonic)."""

    table_id: str
    value: str
    epoch: int
    renewed: float
    taken_over: bool = False
    """Taken from a holder that had died (its lease waited out or broken), not free."""


@dataclass
class Relay:
    """A websocket at this process whose table another process owns: what it needs to reach and watch the owner."""

    id: str
    table_id: str
    owner: str
    lease: str
    connection: Connection
    on_seat: Callable[[int | None], None]
    """Told the seat the owner's welcome gave (the process's connection caps count it)."""
    forwarded: int = 0
    """The number of the last frame forwarded to the owner (frames count from 1)."""
    answered: int = 0
    """The owner has answered every frame up to this one, as far as this process knows (its last ``done``)."""
    asked: int = 0
    """The last frame the owner was asked to say it is done with (``ask``); above :attr:`answered` while a question
    is on its way. Every held answer waits for a frame at or before it: each has its question out."""
    held: deque[tuple[int, str | int]] = field(default_factory=deque)
    """Answers given here (a text, or a close code), each with the last frame forwarded before it: sent once the owner
    has answered that frame, so that the client reads its answers in the order of its frames."""
    closing: bool = False
    """An answer given here closes the connection once sent: the frames after it are not read (as at the owner)."""


@dataclass(eq=False)
class RemoteClient:
    """At the owner, a connection that another process relays: a :class:`~.tables.Client` whose sends go over Redis.

    Its frames are answered one after another, in the order they were sent. Its inbox also holds the relaying
    process's questions (a frame's number, :meth:`Cluster.answer_here`): reached in turn, each is answered ``done``,
    behind everything sent for the frames before it.
    """

    cluster: Cluster
    id: str
    process: str
    table_id: str
    inbox: asyncio.Queue[tuple[str, dict[str, Any] | None] | int] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    gone: bool = False

    def send(self, text: str) -> None:
        if not self.gone:
            self.cluster.post(self.process, {"k": "out", "c": self.id, "x": text}, self.leave)

    def close_soon(self, code: int) -> None:
        if not self.gone:
            self.cluster.post(self.process, {"k": "close", "c": self.id, "code": code})
            self.leave()

    def leave(self) -> None:
        """The connection is gone (closed, or its process unreachable): it leaves the table.

        Its frames not yet answered are dropped, but the one being answered is answered to the end, not cancelled:
        a decision cancelled while its store write is under way would be stored and never taken, leaving the table
        behind its store (every later decision refused) until it was rebuilt.
        """
        if self.gone:
            return
        self.gone = True
        self.cluster.remotes.pop(self.id, None)
        lobby = self.cluster.lobby
        table = lobby.tables.get(self.table_id) if lobby is not None else None
        if table is not None:
            table.leave(self)
        self.inbox.put_nowait(("", None))  # wakes :meth:`serve` to end, once the frame it answers (if any) is done

    async def serve(self) -> None:
        while True:
            item = await self.inbox.get()
            if self.gone:
                return
            if isinstance(item, int):  # every frame before it is answered: the relaying process may answer its own
                self.cluster.post(self.process, {"k": "done", "c": self.id, "n": item})
                continue
            text, invite = item
            lobby = self.cluster.lobby
            table = lobby.tables.get(self.table_id) if lobby is not None else None
            if table is None or table.evicted:
                self.close_soon(MOVED)  # not the owner any more: the page reconnects to the one that is
                return
            try:
                await answer(table, self, read_client_message(text), invite)
            except TableMoved:
                self.close_soon(MOVED)
                return
            except ProtocolError as error:
                self.send(dumps(error.to_json()))
                if error.code in ("closed", "no_spectators", "too_many_connections"):
                    self.close_soon({"closed": 4410, "no_spectators": 4403}.get(error.code, 4429))
                    return
            except Exception as error:  # the kind only: a message could name a card
                log.error("table %s: a relayed message failed (%s)", self.table_id, type(error).__name__)
                self.send(dumps(error_json("store_unavailable", "this could not be done just now: try again")))


class Cluster:
    """This process's part in a cluster: its leases, the connections it relays, and the ones relayed to it."""

    def __init__(
        self, url: str, *, lease_ms: int = LEASE_MS, renew_every: float = RENEW_EVERY, process: str | None = None
    ) -> None:
        self.url = url
        self.redis: aioredis.Redis = aioredis.from_url(
            url, decode_responses=True, socket_timeout=1.0, socket_connect_timeout=1.0
        )
        """This process's Redis client (shared: the cluster-wide limits and pairing may use it too)."""
        # No retries inside the client for the channel: its own reconnection subscribed again unnoticed, and what was
        # published meanwhile was lost without anyone knowing (:meth:`_listen` must see every drop).
        self._listener_redis: aioredis.Redis = aioredis.from_url(
            url, decode_responses=True, socket_connect_timeout=1.0, socket_keepalive=True, retry=Retry(NoBackoff(), 0)
        )
        self.lease_ms, self.renew_every = lease_ms, renew_every
        self.process = process or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        self.leases: dict[str, Lease] = {}
        self.relays: dict[str, Relay] = {}
        self.remotes: dict[str, RemoteClient] = {}
        self.lobby: Lobby | None = None
        self.takeovers = 0
        """Leases this process took after waiting out a holder that had died (for the operators' metrics)."""
        self.on_takeover: Callable[[], None] = lambda: None
        """Called at each such takeover (``create_app`` counts them in ``/metrics``)."""
        self._relays = 0
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, str, Callable[[], None] | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._joins: set[asyncio.Task[None]] = set()
        self._listening = asyncio.Event()
        self._silent: dict[str, tuple[float, float]] = {}
        """Processes whose channel had no subscriber at the last look: since when, and when that look was."""

    # ------------------------------------------------------------ life

    async def start(self, lobby: Lobby) -> None:
        """Listen on this process's channel, and keep its leases and its relays up to date."""
        self.lobby = lobby
        loop = asyncio.get_running_loop()
        for work, name in (
            (self._listen, "listen"),
            (self._send, "send"),
            (self._renew, "renew"),
            (self._watch, "watch"),
        ):
            self._tasks.append(loop.create_task(work(), name=f"ronda-cluster-{name}"))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), 5)

    async def stop(self) -> None:
        """Give every table back (a rolling restart): its connections reconnect to the process that takes it."""
        if self.lobby is not None:
            for table_id in list(self.lobby.tables):
                await self.lobby.drop(table_id, release=True)
        with contextlib.suppress(TimeoutError):  # what is queued (closes, last updates) goes out first
            await asyncio.wait_for(self._drain(), 2)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for remote in list(self.remotes.values()):
            remote.leave()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
            await self._listener_redis.aclose()

    async def _drain(self) -> None:
        while not self._outbox.empty():
            await asyncio.sleep(0.01)

    # ------------------------------------------------------------ leases

    async def acquire(self, table_id: str) -> Lease:
        """This process's new lease on ``table_id``; :class:`Elsewhere` when a live process holds it.

        A lease held by a process that no longer listens (killed) is waited out,
        at most one lease's length. Redis out of reach: a 503 for the caller.
        """
        deadline = time.monotonic() + self.lease_ms / 1000 + 1
        waited_out = False
        try:
            while True:
                holder = await self._get(lease_key(table_id))
                if holder is None:
                    started = time.monotonic()
                    epoch = int(await self.redis.incr(epoch_key(table_id)))
                    value = f"{self.process}:{epoch}"
                    if await self.redis.set(lease_key(table_id), value, nx=True, px=self.lease_ms):
                        lease = Lease(table_id, value, epoch, started, waited_out)
                        self.leases[table_id] = lease
                        if waited_out:
                            self.takeovers += 1
                            self.on_takeover()
                        log.info("table %s: this process owns it (lease epoch %d)", table_id, epoch)
                        return lease
                    continue
                owner = holder.rsplit(":", 1)[0]
                if owner == self.process:  # a lease of ours for a table we let go of: given back, taken anew
                    await self.redis.eval(RELEASE, 1, lease_key(table_id), holder)
                    continue
                silent = await self.silent_for(owner)
                if time.monotonic() > deadline or silent is None:
                    raise Elsewhere(owner, holder)
                waited_out = True  # its holder died: the lease is broken (or it expires), then taken
                if silent >= GONE_AFTER:
                    log.info("table %s: its owner %s is gone; its lease is broken", table_id, owner)
                    await self.redis.eval(RELEASE, 1, lease_key(table_id), holder)
                    continue
                await asyncio.sleep(min(WATCH_EVERY, max(LOOK_EVERY, GONE_AFTER - silent)))
        except RedisError as error:
            log.warning("table %s: Redis does not answer (%s)", table_id, type(error).__name__)
            raise HttpError(
                503, "store_unavailable", "the server cannot reach its cluster just now: try again"
            ) from None

    async def _get(self, key: str) -> str | None:
        value = await self.redis.get(key)
        return None if value is None else str(value)

    async def raise_epoch(self, table_id: str, stored: int) -> None:
        """The store holds a newer epoch than Redis counted (Redis restarted empty): count on from the store's."""
        await self.redis.eval(RAISE_TO, 1, epoch_key(table_id), str(stored))

    async def release(self, table_id: str) -> None:
        """Give the lease back, if it is still ours (compare-and-delete): another process may take the table at once."""
        lease = self.leases.pop(table_id, None)
        if lease is not None:
            with contextlib.suppress(RedisError):
                await self.redis.eval(RELEASE, 1, lease_key(table_id), lease.value)

    async def listening(self, process: str) -> bool:
        """Whether ``process`` is subscribed to its channel (a killed process's subscription ends with it)."""
        answer = await self.redis.pubsub_numsub(channel(process))
        return bool(answer) and int(answer[0][1]) > 0

    async def silent_for(self, process: str) -> float | None:
        """``None`` while ``process`` listens on its channel; else for how long its channel has had no subscriber at
        every look (by anyone in this process, the looks at most :data:`LOOKS_APART` apart): :data:`GONE_AFTER` or
        more, it is taken for dead."""
        now = time.monotonic()
        since, last = self._silent.get(process, (now, now))
        if process in self._silent and now - last < LOOK_EVERY:
            return now - since  # looked at just now (the many tables of one dead owner ask together)
        if await self.listening(process):
            self._silent.pop(process, None)
            return None
        if now - last > LOOKS_APART:
            since = now
        if len(self._silent) > 1000:  # dead processes long forgotten
            self._silent = {p: t for p, t in self._silent.items() if now - t[1] <= LOOKS_APART}
        self._silent[process] = (since, now)
        return now - since

    async def _renew(self) -> None:
        """Extend every lease held; drop a table whose lease is lost, or could not be renewed for a whole lease.

        One script renews up to :data:`RENEW_BATCH` leases: a process holding many tables costs Redis a few calls a
        second, not one per table.
        """
        while True:
            await asyncio.sleep(self.renew_every)
            held = list(self.leases.values())
            for first in range(0, len(held), RENEW_BATCH):
                batch = held[first : first + RENEW_BATCH]
                started = time.monotonic()
                keys = [lease_key(lease.table_id) for lease in batch]
                try:
                    answer = await self.redis.eval(
                        RENEW, len(keys), *keys, *(lease.value for lease in batch), str(self.lease_ms)
                    )
                    kept, renewed = [bool(int(k)) for k in answer], True
                except RedisError:  # kept while it may still hold: until a whole lease passed since its renewal
                    kept, renewed = [started - lease.renewed < self.lease_ms / 1000 for lease in batch], False
                for lease, still in zip(batch, kept, strict=True):
                    if still:
                        if renewed:
                            lease.renewed = started
                    elif self.leases.get(lease.table_id) is lease and self.lobby is not None:
                        log.warning("table %s: its lease was lost; the table is dropped", lease.table_id)
                        self.leases.pop(lease.table_id, None)
                        await self.lobby.drop(lease.table_id)

    # ------------------------------------------------------------ messages

    def post(self, process: str, message: dict[str, Any], on_nobody: Callable[[], None] | None = None) -> None:
        """Publish ``message`` to ``process``'s channel, in order after what was posted before; ``on_nobody`` is
        called when no process listens there (it is gone) or Redis is out of reach."""
        self._outbox.put_nowait((channel(process), json.dumps(message), on_nobody))

    async def _send(self) -> None:
        while True:
            where, text, on_nobody = await self._outbox.get()
            try:
                heard = int(await self.redis.publish(where, text))
            except RedisError:
                heard = 0
            if heard == 0 and on_nobody is not None:
                on_nobody()

    async def _listen(self) -> None:
        """Read this process's channel for ever, subscribing again after Redis comes back.

        While Redis is away the tries back off (0.2 s doubling to :data:`LISTEN_RETRY_MOST`), and the log says so
        once when the channel drops and once when it is back, not at every try (an audit: five lines a second,
        each claiming a subscription that was not made, about 18,000 an hour of outage).

        What was published to the channel while it was down is lost: an owner's news for a connection relayed here
        (heard by nobody, the owner let that connection go), a close. So once it is back every relayed connection is
        closed (1012), to reconnect and catch up from the version it holds, as after a change of owner: kept, a
        relayed seat waited for ever for a move it had missed (a cluster game that did not go on after Redis was
        restarted).
        """
        wait, lost = LISTEN_RETRY_FIRST, False
        while True:
            pubsub = self._listener_redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.process))
                self._listening.set()
                if lost:
                    log.warning("the cluster's channel is subscribed again")
                    self._close_relays()
                wait, lost = LISTEN_RETRY_FIRST, False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        self._on(json.loads(message["data"]))
            except (RedisError, OSError) as error:
                if not lost:
                    log.warning(
                        "the cluster's channel dropped (%s); trying again until Redis answers", type(error).__name__
                    )
                lost = True
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            self._listening.clear()
            await asyncio.sleep(wait)
            wait = min(2 * wait, LISTEN_RETRY_MOST)

    def _on(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "frame":
            remote = self.remotes.get(message["c"])
            if remote is None:
                remote = RemoteClient(self, message["c"], message["p"], message["t"])
                self.remotes[remote.id] = remote
                remote.task = asyncio.get_running_loop().create_task(remote.serve())
            remote.inbox.put_nowait((message["x"], message.get("i")))
        elif kind == "ask":
            if (remote := self.remotes.get(message["c"])) is not None:
                remote.inbox.put_nowait(int(message["n"]))
            else:  # it left (and its relay is closing): nothing of it is left to answer
                self.post(message["p"], {"k": "done", "c": message["c"], "n": message["n"]})
        elif kind == "done":
            if (relay := self.relays.get(message["c"])) is not None:
                self._answered(relay, int(message["n"]))
        elif kind == "gone":
            if (remote := self.remotes.get(message["c"])) is not None:
                remote.leave()
        elif kind == "out":
            if (relay := self.relays.get(message["c"])) is not None:
                text = message["x"]
                if text.startswith('{"type":"welcome"'):
                    relay.on_seat(json.loads(text).get("seat"))
                relay.connection.send(text)
        elif kind == "close":
            if (relay := self.relays.get(message["c"])) is not None:
                relay.connection.close_soon(int(message["code"]))
        elif kind == "join":
            task = asyncio.get_running_loop().create_task(self._join(message))
            self._joins.add(task)  # held: the loop keeps only a weak reference to a task
            task.add_done_callback(self._joins.discard)
        elif kind == "reply":
            future = self._calls.pop(message["r"], None)
            if future is not None and not future.done():
                future.set_result(message)

    # ------------------------------------------------------------ relays

    def relay(
        self, elsewhere: Elsewhere, table_id: str, connection: Connection, on_seat: Callable[[int | None], None]
    ) -> Relay:
        """Start relaying ``connection`` to the table's owner (see :meth:`forward`); :meth:`unrelay` ends it."""
        self._relays += 1
        relay = Relay(f"{self.process}/{self._relays}", table_id, elsewhere.owner, elsewhere.lease, connection, on_seat)
        self.relays[relay.id] = relay
        log.info("table %s: a connection is relayed to its owner %s", table_id, elsewhere.owner)
        return relay

    def forward(self, relay: Relay, text: str, invite: dict[str, Any] | None) -> None:
        """One checked frame of a relayed connection, to the owner; the connection closes if nobody is there."""
        message: dict[str, Any] = {"k": "frame", "c": relay.id, "p": self.process, "t": relay.table_id, "x": text}
        if invite is not None:
            message["i"] = invite
        relay.forwarded += 1
        self.post(relay.owner, message, lambda: relay.connection.close_soon(MOVED))

    def answer_here(self, relay: Relay, text: str, close: int | None = None) -> None:
        """Answer a frame of a relayed connection here (then close it with ``close``, if given), yet in its turn.

        The owner answers the frames forwarded before this one through Redis: sent at once, this answer would overtake
        theirs (an audit: garbage sent right after a hello was refused before the welcome came), and a client that
        pairs answers with its messages by their order would pair them wrongly. So it waits until the owner says it
        has answered them: a question (``ask``, the last frame's number) goes behind those frames into the
        connection's queue at the owner, which says ``done`` when it reaches it.

        The question is posted now, with the frame it follows, not once an earlier question is answered: asked later,
        it would queue at the owner behind the frames forwarded meanwhile and the answer would wait for theirs too
        (an attacker's audit: garbage, an act, an unknown type, a ping, answered ``bad_json``, ``not_your_turn``,
        ``pong``, ``unknown_type``).

        Refusing stays cheap: nothing of the refused frame reaches Redis or the owner, and a question is asked only
        when frames were forwarded since the last one, so a flood of garbage costs at most one question (two small
        messages) for each frame forwarded before it, whatever its length; a connection that sends only well-formed
        messages never asks. What waits is bounded as a connection's outbox is (:data:`~.connections.OUTBOX`): past
        it, the client is sending faster than its answers can go, and it is closed as one that does not read (1013).
        """
        items: list[str | int] = [text] if close is None else [text, close]
        relay.closing = relay.closing or close is not None
        if not relay.held and relay.answered >= relay.forwarded:
            self._deliver(relay, items)
            return
        if len(relay.held) + len(items) > OUTBOX:
            relay.held.clear()
            relay.connection.close_soon(1013)
            return
        relay.held.extend((relay.forwarded, item) for item in items)
        self._ask(relay)

    def _ask(self, relay: Relay) -> None:
        """Ask the owner to say when it has answered the frames the last held answer waits for (unless already asked:
        questions may be on their way for earlier ones, each answered in turn).

        An owner that never says ``done`` (one of an older version, during a rolling upgrade, does not know the
        question) keeps them :data:`CALL_TIMEOUT` seconds at most: then they go out anyway, out of turn rather than
        never.
        """
        if relay.held and relay.held[-1][0] > relay.asked:
            relay.asked = relay.held[-1][0]
            message = {"k": "ask", "c": relay.id, "p": self.process, "n": relay.asked}
            self.post(relay.owner, message, lambda: relay.connection.close_soon(MOVED))
            asyncio.get_running_loop().call_later(CALL_TIMEOUT, self._answered, relay, relay.asked)

    def _answered(self, relay: Relay, frame: int) -> None:
        """The owner has answered every frame up to ``frame`` (or was waited for long enough): the answers given here
        after those go out."""
        if frame <= relay.answered:
            return  # said already (a question's time running out after its ``done`` came)
        relay.answered = frame
        ready: list[str | int] = []
        while relay.held and relay.held[0][0] <= relay.answered:
            ready.append(relay.held.popleft()[1])
        self._deliver(relay, ready)  # the answers held after these have their questions out already (:meth:`_ask`)

    @staticmethod
    def _deliver(relay: Relay, items: list[str | int]) -> None:
        for item in items:
            if isinstance(item, int):
                relay.connection.close_soon(item)
            else:
                relay.connection.send(item)

    def _close_relays(self) -> None:
        """Close every connection relayed from here (1012): each reconnects and says hello from the version it holds.
        Each owner is told (``gone``), as when a page closes its connection: it may still hold its side of it."""
        for relay in list(self.relays.values()):
            self.unrelay(relay)
            relay.connection.close_soon(MOVED)

    def unrelay(self, relay: Relay) -> None:
        if self.relays.pop(relay.id, None) is not None:
            self.post(relay.owner, {"k": "gone", "c": relay.id})

    async def _watch(self) -> None:
        """Close the relayed connections of a table whose owner changed or went (its lease changed, or its channel has
        been silent for :data:`GONE_AFTER`): they reconnect, and the process they land on takes the table."""
        unreachable_since: float | None = None
        while True:
            await asyncio.sleep(WATCH_EVERY)
            tables = {r.table_id for r in self.relays.values()}
            if not tables:
                continue
            gone: set[str] = set()
            try:
                keys = sorted(tables)
                values = await self.redis.mget([lease_key(t) for t in keys])
                for owner in {r.owner for r in self.relays.values()}:
                    silent = await self.silent_for(owner)
                    if silent is not None and silent >= GONE_AFTER:
                        gone.add(owner)
                unreachable_since = None
            except RedisError:
                unreachable_since = unreachable_since or time.monotonic()
                if time.monotonic() - unreachable_since < self.lease_ms / 1000:
                    continue
                values = [None] * len(keys)
            now = dict(zip(keys, values, strict=True))
            for relay in list(self.relays.values()):
                if now.get(relay.table_id) != relay.lease or relay.owner in gone:
                    self.relays.pop(relay.id, None)
                    relay.connection.close_soon(MOVED)

    # ------------------------------------------------------------ seats

    async def join_at(
        self, owner: str, table_id: str, name: str, seat: int | None, player: str | None = None
    ) -> tuple[int, str]:
        """Take a seat at a table another process owns: the owner does it (its table holds the seats)."""
        call = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call] = future
        unreachable = HttpError(503, "store_unavailable", "the table's server does not answer just now: try again")

        def nobody() -> None:
            if not future.done():
                future.set_exception(unreachable)

        self.post(
            owner,
            {"k": "join", "t": table_id, "name": name, "seat": seat, "pl": player, "r": call, "p": self.process},
            nobody,
        )
        try:
            answer = await asyncio.wait_for(future, CALL_TIMEOUT)
        except TimeoutError:
            raise unreachable from None
        finally:
            self._calls.pop(call, None)
        if "err" in answer:
            status, code, text = answer["err"]
            reason, params = answer.get("why") or (None, None)  # a name's refusal, for the page's own words
            raise HttpError(int(status), str(code), str(text), reason=reason, params=params)
        return int(answer["seat"]), str(answer["token"])

    async def _join(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"k": "reply", "r": message["r"]}
        try:
            assert self.lobby is not None
            table = self.lobby.tables.get(message["t"])
            if table is None or table.evicted:
                raise HttpError(503, "store_unavailable", "the table is changing servers: try again")
            seat, token = await table.join(message["name"], message["seat"], levels(), message.get("pl"))
            reply.update(seat=seat, token=token)
        except HttpError as error:
            reply["err"] = [error.status, error.code, error.message]
            if error.reason is not None:  # apart from "err", which a process of an older version unpacks in three
                reply["why"] = [error.reason, error.params]
        self.post(message["p"], reply)
