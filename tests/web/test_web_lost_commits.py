"""A COMMIT whose answer is lost (issue 29), done for real, and decisions sent again.

A TCP proxy (:mod:`pg_proxy`) sits between the server and a real PostgreSQL:
it passes a ``COMMIT`` and throws its answer away, so the decision is stored
but the server hears only that its connection dropped; or it cuts the
connection instead of passing the ``COMMIT``, so the decision is surely not
stored. The server must find out from the store which it was before it tells
anyone anything: stored, everyone is shown it and its sender gets it as
taken; not stored, its sender alone is told so. Meanwhile other decisions
are answered ``pending``; the game goes on without a restart, and after a
SIGKILL and a restart every stored event is one the players were shown.

A decision carries the version it was made at: sent again, it gets its
outcome and is never applied twice; another decision for a version already
taken is refused (``stale``) with the table as it is.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from pg_proxy import PgProxy, proxy_for
from test_web_faults import LOCKER, Locker, assert_store_is_what_clients_saw, some_moves, to_act, two_people
from web_helpers import Client, play_out, random_chooser, server
from web_helpers import new_table as create_table

from ronda.interfaces.web import tables
from ronda.interfaces.web.store import Store

TIMEOUT = 0.5
"""The store timeout of these tests (seconds)."""


def new_table(http: Any, *args: Any, **body: Any) -> dict[str, Any]:
    """Create a table before any fault is armed, asking again as the page does when the answer is 503
    ``store_unavailable`` ("try again"): with a store timeout this short, a loaded machine's first reads may miss it
    (once in CI, the name check's), and the faults these tests arm come later."""
    for attempt in range(4):
        try:
            return create_table(http, *args, **body)
        except AssertionError as error:
            if "store_unavailable" not in str(error) or attempt == 3:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


class ReadyLocker(Locker):
    """A :class:`Locker` started beforehand that takes the lock only when told (:meth:`lock`): within milliseconds."""

    def __init__(self, path: Path) -> None:
        script = "import sys\nsys.stdin.readline()\n" + LOCKER
        self.process = subprocess.Popen(
            [sys.executable, "-c", script, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def lock(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("lock\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "locked"


def stored_decisions(url: str, table_id: str) -> int:
    store = Store(url)
    try:
        return len(store.action_numbers(table_id, 0))
    finally:
        store.close()


@pytest.fixture
def proxied(postgres_server: str, postgres_database: str) -> Iterator[tuple[PgProxy, str, str]]:
    """A fresh PostgreSQL database, reached through a proxy: the proxy, the URL through it, the direct URL."""
    direct = postgres_database
    # The schema is made here, at the store's own timeout: the tests' short store timeout is for the game's
    # commits, and a migration's statements paused past it on a busy machine were ended by PostgreSQL.
    Store(direct).close()
    proxy = proxy_for(postgres_server)
    try:
        yield proxy, proxy.url(direct.rsplit("/", 1)[1]), direct
    finally:
        proxy.close()


def test_a_person_s_move_whose_commit_answer_is_lost_is_shown_as_taken_and_the_game_goes_on(
    tmp_path: Path, proxied: tuple[PgProxy, str, str]
) -> None:
    proxy, url, direct = proxied
    with server(tmp_path, url, store_timeout=TIMEOUT) as http:
        table_id, clients = two_people(http, target=12)
        some_moves(clients, 5, seed=11)
        mover, other = to_act(clients)
        stored = stored_decisions(direct, table_id)
        proxy.lose_answer()
        mover.act(mover.legal[0])
        reply = mover.expect("update", "error")
        assert proxy.faults == ["answer lost"]
        assert reply["type"] == "update", f"the stored move was refused to its sender: {reply}"
        assert other.expect("update")["version"] == reply["version"]
        assert stored_decisions(direct, table_id) == stored + 1

        # A COMMIT that never reached the database: refused to its sender, truthfully; the same move is taken after.
        for client in clients.values():
            client.sync()
        mover, other = to_act(clients)
        version, view, action = mover.version, mover.view, mover.legal[0]
        proxy.lose_commit()
        mover.act(action)
        error = mover.expect("error", "update")
        assert proxy.faults == ["answer lost", "commit lost"]
        assert error["type"] == "error" and error["code"] == "store_unavailable" and error["retry"] is True, error
        assert other.sync() == [] and mover.view == view and mover.version == version
        assert stored_decisions(direct, table_id) == stored + 1
        mover.act(action, made_at=version)  # sent again, as the page does: taken now, without a restart
        assert mover.expect("update")["version"] > version
        play_out(clients.values(), random_chooser(random.Random(12)), timeout=30)
        assert [m for c in clients.values() for m in c.errors() if m["code"] != "store_unavailable"] == []
        assert_store_is_what_clients_saw(direct, table_id, clients)


def test_a_bot_s_move_whose_commit_answer_is_lost_is_shown_and_the_bot_plays_on(
    tmp_path: Path, proxied: tuple[PgProxy, str, str]
) -> None:
    proxy, url, direct = proxied
    # The bot waits half a second before it moves: time enough to arm the fault for its COMMIT.
    with server(tmp_path, url, store_timeout=TIMEOUT, bot_delay=0.5) as http:
        created = new_table(http, 2, target=12)
        table_id = created["table_id"]
        me = Client(http, table_id, created["token"])
        me.hello(since=0)
        rng = random.Random(13)
        while True:  # play until a decision of mine leaves the bot to move
            if me.legal and me.acted_at != me.version:
                me.acted_at = me.version
                me.act(rng.choice([a for a in me.legal if "challenge" not in a]))
            message = me.recv()
            assert message["type"] != "error", message
            if message["type"] == "update" and me.view is not None and me.view["turn"] == 1:
                break
        stored = stored_decisions(direct, table_id)
        proxy.lose_answer()  # the next COMMIT is the bot's decision
        shown = me.expect("update", "error")
        assert proxy.faults == ["answer lost"]
        assert shown["type"] == "update", f"the bot's stored move was not shown: {shown}"
        assert shown["events"][0].get("seat") == 1, "the update is the bot's decision"
        assert stored_decisions(direct, table_id) == stored + 1
        # The bot plays on, without a restart: a few more of its decisions (half a second each), stored and shown.
        play_out(
            [me],
            random_chooser(random.Random(14)),
            until=lambda: me.over or me.version >= shown["version"] + 8,
            timeout=30,
        )
        assert me.errors() == []
        assert_store_is_what_clients_saw(direct, table_id, {0: me})


def test_a_pending_decision_is_resolved_from_the_store_and_a_killed_server_shows_exactly_what_is_stored(
    tmp_path: Path, proxied: tuple[PgProxy, str, str]
) -> None:
    """A real `ronda serve` on PostgreSQL through the proxy: a lost answer; then a lost answer with the database
    unreachable after it (the decision pending: a resend is answered ``pending``), SIGKILL, restart."""
    from real_server import RealServer, SeatSocket, assert_shown_equals_stored

    proxy, url, direct = proxied
    data = tmp_path / "data"
    rng = random.Random(15)

    def move(sockets: dict[int, SeatSocket]) -> SeatSocket:
        mover = next(s for s in sockets.values() if s.legal)
        mover.act(rng.choice([a for a in mover.legal if "challenge" not in a]))
        return mover

    with RealServer(data, "--store-timeout", str(TIMEOUT), database_url=url) as first:
        table_id, tokens = first.two_people()
        sockets = {seat: SeatSocket(first, table_id, token) for seat, token in tokens.items()}
        for sock in sockets.values():
            sock.hello(0)
        for _ in range(6):
            mover = move(sockets)
            for sock in (mover, *sockets.values()):
                sock.settle()
        proxy.lose_answer()
        version = next(s for s in sockets.values() if s.legal).version
        move(sockets)
        for sock in sockets.values():  # the answer comes once the store has said (after the pong, maybe)
            sock.wait_for("update", "error")
        assert proxy.faults == ["answer lost"]
        assert all(s.version > version for s in sockets.values()), "the stored move is shown to everyone"
        assert not [m for s in sockets.values() for m in s.received if m["type"] == "error"]

        # Now the answer is lost and the database stays out of reach: the decision is pending.
        proxy.block_after_fault = True
        proxy.lose_answer()
        shown = {seat: (s.version, s.view) for seat, s in sockets.items()}
        mover = next(s for s in sockets.values() if s.legal)
        action, version = rng.choice([a for a in mover.legal if "challenge" not in a]), mover.version
        mover.act(action, made_at=version)  # as the page sends it
        deadline = time.monotonic() + 10
        while proxy.faults != ["answer lost", "answer lost"]:
            assert time.monotonic() < deadline, "the decision's COMMIT never came"
            time.sleep(0.01)
        mover.settle()  # the connection answers while the store is asked
        mover.act(action, made_at=version)  # sent again meanwhile
        pending = mover.wait_for("error")
        assert pending["code"] == "pending" and pending["retry"] is True, pending
        for seat, sock in sockets.items():
            sock.settle()
            assert (sock.version, sock.view) == shown[seat], "nothing is shown while the outcome is unknown"
        assert [m["code"] for s in sockets.values() for m in s.received if m["type"] == "error"] == ["pending"]
        first.kill()
        for sock in sockets.values():
            sock.close()
    proxy.unblock()
    assert stored_decisions(direct, table_id) == 8, "the pending decision was committed"
    with RealServer(data, database_url=direct) as second:
        back = {seat: SeatSocket(second, table_id, token) for seat, token in tokens.items()}
        for seat, sock in back.items():
            catchup = sock.hello(shown[seat][0])
            assert catchup["type"] == "catchup" and catchup["events"], "the stored decision is shown now"
        while not all(s.over for s in back.values()):
            mover = move(back)
            for sock in (mover, *back.values()):
                sock.settle()
        second.stop()
    assert_shown_equals_stored(direct, table_id, sockets, back)


def test_a_decision_sent_again_is_not_taken_twice_and_another_at_a_taken_version_is_refused(
    tmp_path: Path, database_url: str
) -> None:
    with server(tmp_path, database_url) as http:
        table_id, clients = two_people(http, target=12)
        some_moves(clients, 4, seed=21)
        mover, other = to_act(clients)
        made_at, legal = mover.version, list(mover.legal)
        assert len(legal) >= 2
        first, second = legal[0], legal[1]
        mover.act(first, made_at=made_at)
        update = mover.expect("update")
        assert other.expect("update")["events"] == update["events"]
        stored = stored_decisions(database_url, table_id)

        mover.act(first, made_at=made_at)  # the same decision again (a page that retried, a resend after reconnect)
        again = mover.expect("catchup", "error")
        assert again["type"] == "catchup", again
        assert again["version"] == update["version"] and again["events"] == update["events"]
        assert other.sync() == [] and stored_decisions(database_url, table_id) == stored

        mover.act(second, made_at=made_at)  # another decision for the version already taken
        refused = mover.expect("error")
        assert refused["code"] == "stale" and "retry" not in refused
        assert f"version {made_at}" in refused["message"]
        current = mover.expect("catchup")
        assert current["version"] == update["version"] and current["view"] == update["view"]
        assert other.sync() == [] and stored_decisions(database_url, table_id) == stored

    with server(tmp_path, database_url) as http:  # a restart: the decisions are known from the store
        back = Client(http, table_id, mover.token)
        back.hello(since=update["version"])
        back.act(first, made_at=made_at)
        again = back.expect("catchup", "error")
        assert again["type"] == "catchup" and again["events"] == update["events"]
        back.act(second, made_at=made_at)
        assert back.expect("error")["code"] == "stale"
        assert stored_decisions(database_url, table_id) == stored


def test_a_bot_the_store_keeps_refusing_is_reported_and_plays_once_the_store_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "BOT_BACKOFF", (0.05,) * len(tables.BOT_BACKOFF))  # as many tries, shorter pauses
    path = tmp_path / "ronda.sqlite3"
    locker = ReadyLocker(path)
    try:
        with server(tmp_path, f"sqlite:///{path}", store_timeout=0.2, bot_delay=0.3) as http:
            created = new_table(http, 2, target=12)
            me = Client(http, created["table_id"], created["token"])
            me.hello(since=0)
            while not me.legal:
                me.recv()
            assert me.table is not None and me.table["stalled"] is None
            while True:  # play until a decision of mine leaves the bot to move
                if me.legal and me.acted_at != me.version:
                    me.acted_at = me.version
                    me.act(me.legal[0], made_at=me.version)
                message = me.recv()
                if message["type"] == "update" and me.view is not None and me.view["turn"] == 1:
                    break
            locker.lock()  # within the bot's pace: its decision, and each try after it, finds the file locked
            version = me.version
            while True:
                message = me.recv(timeout=30)
                assert message["type"] == "seats", f"nothing but the report may come: {message}"
                if message["table"]["stalled"] == 1:
                    break
            assert me.version == version
            locker.release()
            me.hello(since=me.version)  # someone comes back: the server tries again at once
            assert me.expect("update")["events"][0].get("seat") == 1
            while (message := me.recv())["type"] != "seats" or message["table"]["stalled"] is not None:
                pass
    finally:
        locker.release()


def test_a_decision_number_already_stored_by_another_writer_never_closes_the_connection(tmp_path: Path) -> None:
    """The store holds a row at the number the table's next decision takes (another writer put it there): the
    move is refused, retryably, the connection stays open and nobody is shown anything."""
    from ronda.interfaces.web.store import Decision

    url = f"sqlite:///{tmp_path / 'ronda.sqlite3'}"
    with server(tmp_path, url, store_timeout=TIMEOUT) as http:
        table_id, clients = two_people(http, target=12)
        some_moves(clients, 3, seed=31)
        mover, other = to_act(clients)
        stored = stored_decisions(url, table_id)
        store = Store(url)
        try:  # a decision of the other seat's, under the number the mover's decision will take
            store.write(store.record_decisions, [Decision(table_id, 0, stored, 0, {"seat": other.seat, "play": "1o"})])
        finally:
            store.close()
        version = mover.version
        mover.act(mover.legal[0])
        refused = mover.expect("error")
        assert refused["code"] == "store_unavailable" and refused["retry"] is True
        assert other.sync() == [] and mover.sync() == [] and mover.version == version  # still connected, unchanged


def test_a_rematch_whose_commit_answer_is_lost_starts_the_new_game(
    tmp_path: Path, proxied: tuple[PgProxy, str, str]
) -> None:
    proxy, url, _ = proxied
    with server(tmp_path, url, store_timeout=TIMEOUT) as http:
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "easy"}], target=5)
        me = Client(http, created["table_id"], created["token"])
        me.hello(since=0)
        play_out([me], random_chooser(random.Random(41)), timeout=30)
        proxy.lose_answer()  # the next COMMIT is the new game's
        me.send({"type": "rematch"})
        state = me.expect("state", "error")
        assert proxy.faults == ["answer lost"]
        assert state["type"] == "state" and state["table"]["game"] == 1, f"the stored new game was refused: {state}"
        started = me.version
        # A game to 5 may be over within six events (a declaration scores at once, R8.5): that too is going on.
        choose = random_chooser(random.Random(42))
        play_out([me], choose, until=lambda: me.over or me.version >= started + 6, timeout=30)
        assert me.version > started and me.errors() == []


def test_a_new_table_whose_commit_answer_is_lost_is_given_to_its_creator(
    tmp_path: Path, proxied: tuple[PgProxy, str, str]
) -> None:
    proxy, url, direct = proxied
    with server(tmp_path, url, store_timeout=TIMEOUT) as http:
        proxy.lose_answer()  # the next COMMIT is the new table's
        response = http.post("/api/tables", json={"players": 2, "target": 12})
        assert proxy.faults == ["answer lost"]
        assert response.status_code == 201, f"the stored table was refused to its creator: {response.text}"
        table_id = response.json()["table_id"]
        me = Client(http, table_id, response.json()["token"])
        assert me.hello(since=0)["type"] == "catchup"
    store = Store(direct)
    try:
        assert [t.id for t in store.load_tables()] == [table_id], "one table, the one its creator holds"
    finally:
        store.close()
