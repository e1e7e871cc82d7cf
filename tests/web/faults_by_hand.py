"""Faults of issue 29 done by hand on a real `ronda serve` and a real PostgreSQL, each printed with what it got.

Not a test (nothing is asserted): a script to see, and to time, what the
server does when a COMMIT's answer is lost. It starts a throwaway PostgreSQL
cluster (tests/web/conftest.py), a proxy that loses COMMITs or their answers
(tests/web/pg_proxy.py) and `ronda serve` through it, then for each fault
prints what the sender and the other player received, how long the sender
waited and the stored decisions before and after. Last, it counts the
PostgreSQL messages that 20 decisions cost (a lost answer must add nothing
to the normal path). Run from the repository root::

    PYTHONPATH=src:tests/web:tests python3 tests/web/faults_by_hand.py
"""

from __future__ import annotations

import asyncio
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from conftest import Cluster
from pg_proxy import PgProxy, proxy_for
from real_server import RealServer, SeatSocket

from ronda.interfaces.web.store import Decision, Journal, Store, StoredSeat, StoredTable


def stored(url: str, table_id: str) -> int:
    store = Store(url)
    try:
        return len(store.action_numbers(table_id, 0))
    finally:
        store.close()


def received(sock: SeatSocket) -> list[str]:
    return [m["type"] + ("/" + m["code"] if m["type"] == "error" else "") for m in sock.received]


def trials(cluster: Cluster, proxy: PgProxy, direct: str, servers: list[RealServer]) -> None:
    url = proxy.url(direct.rsplit("/", 1)[1])
    data = Path(tempfile.mkdtemp())
    server = RealServer(data, "--store-timeout", "1", database_url=url)
    servers.append(server)
    table_id, tokens = server.two_people()
    socks = {seat: SeatSocket(server, table_id, token) for seat, token in tokens.items()}
    for sock in socks.values():
        sock.hello(0)

    def settle() -> None:
        for sock in socks.values():
            sock.settle()

    def mover() -> SeatSocket:
        return next(s for s in socks.values() if s.legal)

    def trial(
        name: str,
        arm: Callable[[], None],
        send: Callable[[SeatSocket, int], None],
        wait: Callable[[SeatSocket], Any] = lambda m: m.wait_for("update", "error"),
    ) -> tuple[SeatSocket, int]:
        for sock in socks.values():
            sock.received.clear()
        m = mover()
        other = next(s for s in socks.values() if s is not m)
        before, version = stored(direct, table_id), m.version
        arm()
        started = time.monotonic()
        send(m, version)
        wait(m)
        waited = time.monotonic() - started
        m.settle()
        other.settle()
        print(
            f"{name}: sender got {received(m)} after {waited:.2f} s; other got {received(other)}; "
            f"stored decisions {before} -> {stored(direct, table_id)}"
        )
        return m, version

    for _ in range(4):
        m = mover()
        m.act(m.legal[0], made_at=m.version)
        m.wait_for("update")
        settle()
    trial("1 answer lost", proxy.lose_answer, lambda m, v: m.act(m.legal[0], made_at=v))
    held: dict[str, Any] = {}

    def remember(m: SeatSocket, v: int) -> None:
        held["action"] = m.legal[0]
        m.act(held["action"], made_at=v)

    m, v = trial("2 COMMIT lost", proxy.lose_commit, remember)
    m.act(held["action"], made_at=v)
    m.wait_for("update")
    settle()

    def two_cards(m: SeatSocket, v: int) -> None:  # the repro: the page of old sends another card at once
        first, second = m.legal[0], m.legal[-1]
        m.act(first)
        m.act(second)

    trial(
        "3 answer lost, a second card sent at once (no version)",
        proxy.lose_answer,
        two_cards,
        wait=lambda m: (m.wait_for("update", "error"), m.wait_for("update", "error")),
    )

    def unreachable(m: SeatSocket, v: int) -> None:
        action = m.legal[0]
        m.act(action, made_at=v)
        while len(proxy.faults) < 4:
            time.sleep(0.01)
        time.sleep(0.3)
        m.act(action, made_at=v)
        threading.Timer(3.0, proxy.unblock).start()

    proxy.block_after_fault = True
    trial(
        "4 answer lost, database out of reach 3 s, resent meanwhile",
        proxy.lose_answer,
        unreachable,
        wait=lambda m: m.wait_for("update"),
    )
    proxy.block_after_fault = False

    def stopped(m: SeatSocket, v: int) -> None:
        m.act(m.legal[0], made_at=v)
        while len(proxy.faults) < 5:
            time.sleep(0.01)
        cluster.stop()
        time.sleep(3)
        cluster.start()

    m, v = trial("5 answer lost, then pg_ctl stop -m immediate for 3 s", proxy.lose_answer, stopped)
    m.act({"play": "1o"}, made_at=v)
    error = m.wait_for("error")
    m.wait_for("catchup", "state")
    print(f"6 another decision at a taken version: {error['code']}: {error['message']}")
    server.stop()

    server = RealServer(data, "--store-timeout", "1", "--bot-delay", "0.5", database_url=url)
    servers.append(server)
    created = httpx.post(f"{server.base}/api/tables", json={"players": 2, "target": 12}).json()
    me = SeatSocket(server, created["table_id"], created["token"])
    me.hello(0)
    while True:
        if me.legal:
            me.act(me.legal[0], made_at=me.version)
        message = me.wait_for("update", "state", "catchup")
        if message["type"] == "update" and me.view is not None and me.view["turn"] == 1:
            break
    before = stored(direct, created["table_id"])
    proxy.lose_answer()
    started = time.monotonic()
    message = me.wait_for("update", "error")
    seat = message.get("events", [{}])[0].get("seat")
    print(
        f"7 a bot's decision, answer lost: the person got {message['type']} (seat {seat}'s decision) after "
        f"{time.monotonic() - started:.2f} s (0.5 s of it the bot's pace); stored {before} -> "
        f"{stored(direct, created['table_id'])}"
    )
    server.stop()
    print("faults done:", proxy.faults)


def messages_per_decision(cluster: Cluster) -> None:
    direct = cluster.database()
    proxy = proxy_for(cluster.url)
    store = Store(proxy.url(direct.rsplit("/", 1)[1]), timeout=1)
    seats = [StoredSeat(0, "human", "A", None, None), StoredSeat(1, "human", "B", None, None)]
    store.write(
        store.new_table, StoredTable("t1", "now", {"players": 2}, None, "playing", seats), dealer=1, deck=["1o"] * 40
    )
    journal = Journal(store)

    async def decide() -> None:
        await journal.record(Decision("t1", 0, 0, 0, {"seat": 0, "declare": "none"}))
        proxy.sent.clear()
        for number in range(1, 21):
            await journal.record(Decision("t1", 0, number, 0, {"seat": number % 2, "declare": "none"}))

    asyncio.run(decide())
    queries = sorted({payload[:12] for kind, payload in proxy.sent if kind in (b"Q", b"P")})
    print(f"20 decisions one by one: {len(proxy.sent)} PostgreSQL messages; statements {queries}")
    journal.close()
    proxy.close()


def main() -> None:
    cluster = Cluster()
    servers: list[RealServer] = []
    proxy = proxy_for(cluster.url)
    try:
        trials(cluster, proxy, cluster.database(), servers)
        messages_per_decision(cluster)
    finally:
        for server in servers:
            server.kill()
        proxy.close()
        cluster.remove()


if __name__ == "__main__":
    main()
