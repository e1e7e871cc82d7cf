"""How soon a dead owner's tables move (issue 30, item 2: another process takes the table within 5 s), on a real Redis.

A process's channel loses its subscriber the moment the process dies; a lease whose holder's channel stays silent is
not waited out to its end, and the relayed connections to that holder are closed to reconnect at once. A holder that
still listens (alive, or stopped with its connections open) keeps its lease. The leases here last 30 s: a test that
waited them out would time out, so each passes only if the holder is found dead.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

pytest.importorskip("redis")

import redis.asyncio as aioredis
from web_helpers import Client, new_table, server

from ronda.interfaces.web import cluster as cluster_module
from ronda.interfaces.web import lobby as lobby_module
from ronda.interfaces.web.cluster import MOVED, Cluster, RemoteClient, channel, lease_key
from ronda.interfaces.web.lobby import Elsewhere, Lobby
from ronda.interfaces.web.replays import rebuild

LONG_LEASE_MS = 30_000


class Page:
    """A relayed connection as the cluster sees it: it only records how it was closed."""

    def __init__(self) -> None:
        self.closed: list[int] = []

    def send(self, text: str) -> None:
        pass

    def close_soon(self, code: int) -> None:
        self.closed.append(code)


async def holding(redis_url: str, table_id: str, holder: str) -> aioredis.Redis:
    """Another process's lease on ``table_id`` (value ``process:epoch``), for the long lease."""
    other: aioredis.Redis = aioredis.from_url(redis_url, decode_responses=True)
    await other.set(lease_key(table_id), f"{holder}:7", px=LONG_LEASE_MS)
    await other.set(f"ronda:epoch:{table_id}", 7)
    return other


def test_a_dead_owner_s_lease_is_broken_long_before_it_expires_and_a_living_owner_s_is_not(redis_url: str) -> None:
    async def scenario() -> tuple[int, str | None, str, bool]:
        other = await holding(redis_url, "deadowner", "dead-1-aa")
        await other.set(lease_key("liveowner"), "live-2-bb:3", px=LONG_LEASE_MS)
        listener = other.pubsub()
        await listener.subscribe(channel("live-2-bb"))  # the living owner listens on its channel
        cluster = Cluster(redis_url, lease_ms=LONG_LEASE_MS)
        try:
            lease = await asyncio.wait_for(cluster.acquire("deadowner"), 10)
            held = await other.get(lease_key("deadowner"))
            try:
                await asyncio.wait_for(cluster.acquire("liveowner"), 10)
                refused = False
            except Elsewhere:
                refused = True
            return lease.epoch, held, cluster.process, refused
        finally:
            await listener.aclose()  # type: ignore[no-untyped-call]
            await other.aclose()
            await cluster.redis.aclose()
            await cluster._listener_redis.aclose()

    epoch, held, process, refused = asyncio.run(scenario())
    assert epoch == 8  # the next epoch: the store's fence refuses the dead owner anything it might still send
    assert held == f"{process}:8"
    assert refused  # a listening owner keeps its table: the connection is relayed to it


def test_a_connection_relayed_to_a_dead_owner_is_closed_to_reconnect_before_the_lease_expires(redis_url: str) -> None:
    async def scenario() -> tuple[list[int], list[int]]:
        other = await holding(redis_url, "deadowner", "dead-1-aa")
        await other.set(lease_key("liveowner"), "live-2-bb:3", px=LONG_LEASE_MS)
        listener = other.pubsub()
        await listener.subscribe(channel("live-2-bb"))
        cluster = Cluster(redis_url, lease_ms=LONG_LEASE_MS)
        await cluster.start(cast(Lobby, SimpleNamespace(tables={})))
        to_dead, to_live = Page(), Page()
        try:
            cluster.relay(Elsewhere("dead-1-aa", "dead-1-aa:7"), "deadowner", cast(Any, to_dead), lambda seat: None)
            cluster.relay(Elsewhere("live-2-bb", "live-2-bb:3"), "liveowner", cast(Any, to_live), lambda seat: None)
            for _ in range(100):
                if to_dead.closed:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)  # a few more looks: the living owner's connection stays
            return to_dead.closed, to_live.closed
        finally:
            await listener.aclose()  # type: ignore[no-untyped-call]
            await other.aclose()
            await cluster.stop()

    to_dead, to_live = asyncio.run(scenario())
    assert to_dead == [MOVED]
    assert to_live == []


def test_tables_reopened_together_are_rebuilt_from_a_few_reads_of_the_store_each_as_stored(
    tmp_path: Path, database_url: str
) -> None:
    """A dead owner's pages reconnect together: their tables' rebuilds share reads of the store (one read per
    table, one after another on the store's one thread, took seconds in a 500-game takeover)."""
    with server(tmp_path, database_url) as http:
        table_ids = [new_table(http)["table_id"] for _ in range(8)]
    with server(tmp_path, database_url) as http:  # a new process: the tables are only listed, rebuilt when opened
        lobby = http.app.state.lobby  # type: ignore[attr-defined]
        store = lobby.journal.store
        reads: list[int] = []
        load_tables, load_records = store.load_tables, store.load_records

        def counted_tables(table_ids: Any) -> Any:
            reads.append(len(table_ids))
            return load_tables(table_ids)

        def counted_records(games: Any) -> Any:
            reads.append(len(games))
            return load_records(games)

        store.load_tables, store.load_records = counted_tables, counted_records
        store.load_record = lambda table_id, game: counted_records([(table_id, game)])[table_id, game]

        async def reopen() -> list[Any]:
            return list(await asyncio.gather(*(lobby.open(t) for t in table_ids)))

        tables = http.portal.call(reopen)  # type: ignore[union-attr]
        store.load_tables, store.load_records = load_tables, load_records
        del store.load_record
        for table in tables:
            _, events, _ = rebuild(store.load_record(table.id, table.number))
            assert [e["type"] for e in table.events] == [e.to_json()["type"] for e in events]
    assert len(reads) <= 4, reads  # 16 when each table read its own (two reads each)


def test_a_bot_turn_owed_when_its_table_is_rebuilt_is_played_without_the_pacing_pause(tmp_path: Path) -> None:
    """Its person waited through the takeover (or the restart) already: the bot does not pause again (here a pause of
    a minute, longer than the test waits)."""
    with server(tmp_path, bot_delay=60) as http:
        created = new_table(http)  # a person and a medium bot
        me = Client(http, created["table_id"], created["token"])
        me.hello()
        while me.view is not None and me.view.get("turn") != 1:  # until the bot owes a decision (it pauses here)
            me.act(me.legal[0], made_at=me.version)
            me.expect("update")
        owed_at = me.version
        me.close()
    with server(tmp_path, bot_delay=60) as http:  # the next process: the table is rebuilt when its page comes back
        me = Client(http, created["table_id"], created["token"])
        assert me.hello()["version"] == owed_at
        update = me.expect("update", timeout=20)
        assert [e["seat"] for e in update["events"]][:1] == [1]
        me.close()


def test_a_relayed_decision_whose_connection_leaves_while_it_is_stored_is_still_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the owner, a relayed connection that goes away (its process closed it, or died) in the middle of its
    decision's store write: the decision is taken to the end. Cancelled there, it would be stored and never taken,
    the table behind its store and every later decision refused (found by the end-of-run check of the cluster
    benchmark: a move stored, never shown)."""
    storing, stored = asyncio.Event(), asyncio.Event()
    taken: list[str] = []

    async def answer(table: Any, client: Any, message: Any, invite: Any) -> None:  # a decision, its write slow
        storing.set()
        await stored.wait()
        taken.append(message.type)

    async def scenario() -> list[str]:
        monkeypatch.setattr(cluster_module, "answer", answer)
        cluster = Cluster("redis://127.0.0.1:1/0")  # nothing here reaches Redis
        table = SimpleNamespace(evicted=False, leave=lambda client: None)
        cluster.lobby = cast(Lobby, SimpleNamespace(tables={"t": table}))
        remote = RemoteClient(cluster, "c1", "elsewhere", "t")
        remote.task = asyncio.get_running_loop().create_task(remote.serve())
        remote.inbox.put_nowait(('{"type": "ping"}', None))
        await storing.wait()
        remote.leave()  # the connection goes while its decision is being stored
        await asyncio.sleep(0.05)
        stored.set()
        await asyncio.wait_for(remote.task, 5)
        return taken

    assert asyncio.run(scenario()) == ["ping"]


def test_tables_reopened_together_are_replayed_one_at_a_time_beside_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replays of stored games hold the interpreter's lock: several at once would keep the event loop (its lease
    renewals, every connection) waiting for seconds when a takeover rebuilds tens of tables."""
    import threading
    import time

    running, most = 0, 0
    count = threading.Lock()

    def replay(record: Any) -> Any:
        nonlocal running, most
        with count:
            running += 1
            most = max(most, running)
        time.sleep(0.05)  # a long game's replay
        with count:
            running -= 1
        return rebuild(record)

    with server(tmp_path) as http:
        table_ids = [new_table(http)["table_id"] for _ in range(6)]
    monkeypatch.setattr(lobby_module, "rebuild", replay)
    with server(tmp_path) as http:
        lobby = http.app.state.lobby  # type: ignore[attr-defined]

        async def reopen() -> list[Any]:
            return list(await asyncio.gather(*(lobby.open(t) for t in table_ids)))

        assert len(http.portal.call(reopen)) == 6  # type: ignore[union-attr]
    assert most == 1
