"""Several `ronda serve --redis` processes over one PostgreSQL and one Redis, with real faults (issue 30).

Every test starts real server processes (tests/web/real_server.py) on a throwaway
PostgreSQL database and a throwaway ``redis-server``, and plays a two-person table
with a fast scripted client per seat. The seats are connected to *different*
processes, so one of them is always relayed to the table's owner through Redis.
Then a process is killed (SIGKILL), stopped past its lease (SIGSTOP/SIGCONT),
Redis itself is killed and started again, or every process is restarted one by
one; the players' clients reconnect by themselves as the page does (to the next
process when theirs is gone), and the game is played to its end. At the end the
stored game replays through the engine to exactly the events every seat was
shown (``assert_shown_equals_stored``): nothing lost, nothing applied twice.
"""

from __future__ import annotations

import contextlib
import json
import random
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("redis")

from pg_proxy import proxy_for
from real_server import RealServer, assert_shown_equals_stored
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

OPTIONS = ("--grace", "60")


class Player:
    """One seat's scripted client: it plays, and when its connection closes it reconnects (to the next process
    in ``servers`` that runs, as a load balancer would) and asks for what it missed, as the page does."""

    def __init__(self, servers: list[RealServer], at: int, table_id: str, token: str | None, seat: int) -> None:
        self.servers, self.at, self.table_id, self.token, self.seat = servers, at, table_id, token, seat
        self.ws: ClientConnection | None = None
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.events: dict[int, dict[str, Any]] = {}
        self.errors: list[str] = []
        self.welcomes = 0
        self.avoid: set[int] = set()
        """Processes not to reconnect to (stopped ones: a load balancer's health check would skip them)."""

    @property
    def server(self) -> RealServer:
        return self.servers[self.at]

    def connect(self, deadline: float = 30) -> None:
        """Connect to the current process, else the next running one; say hello from the version held."""
        until = time.monotonic() + deadline
        while True:
            server = self.servers[self.at]
            if server.process.poll() is None and self.at not in self.avoid:
                try:
                    self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/{self.table_id}", open_timeout=5)
                    self.ws.send(json.dumps({"type": "hello", "token": self.token, "since": self.version}))
                    while self._read(10)["type"] not in ("state", "catchup"):
                        pass
                    return
                except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
                    self.ws = None
            if time.monotonic() > until:
                raise AssertionError(f"seat {self.seat} could not reconnect to any process")
            self.at = (self.at + 1) % len(self.servers)
            time.sleep(0.05)

    def _read(self, timeout: float) -> dict[str, Any]:
        assert self.ws is not None
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        kind = message["type"]
        if kind == "welcome":
            self.welcomes += 1
        if kind in ("state", "update", "catchup"):
            self.version, self.view, self.legal = message["version"], message["view"], message["legal"]
            for event in message.get("events", []):
                self.events[event["version"]] = event
        if kind == "error":
            self.errors.append(message["code"])
        return message

    def pump(self, timeout: float = 0.05) -> dict[str, Any] | None:
        """Read one message if one comes within ``timeout``; reconnect when the connection closed."""
        try:
            return self._read(timeout)
        except TimeoutError:
            return None
        except (ConnectionClosed, OSError):
            self.connect()
            return None

    def act(self, action: dict[str, Any]) -> None:
        """Send a decision made at the version held (its id); a closed connection reconnects and the page's
        resend is left to the next turn of :func:`play` (a decision taken meanwhile is not asked twice)."""
        assert self.ws is not None
        self.legal = []
        try:
            self.ws.send(json.dumps({"type": "act", "action": action, "version": self.version}))
        except (ConnectionClosed, OSError):
            self.connect()

    @property
    def over(self) -> bool:
        return self.view is not None and self.view["phase"] == "game_over"

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def play(
    players: list[Player],
    rng: random.Random,
    moves: int | None = None,
    *,
    on_move: Callable[[int], None] | None = None,
    timeout: float = 90,
) -> int:
    """Play until game over (or ``moves`` decisions sent): the seat with legal actions picks one at random.

    A decision refused as retryable, or lost with its connection, is simply made again from what the seat holds
    after it reconnected. Returns the number of decisions sent.
    """
    sent = 0
    deadline = time.monotonic() + timeout
    while not all(p.over for p in players) and (moves is None or sent < moves):
        assert time.monotonic() < deadline, "the game did not go on"
        mover = next((p for p in players if p.legal), None)
        if mover is None:
            for p in players:
                p.pump()
            continue
        plays = [a for a in mover.legal if "challenge" not in a]
        mover.act(rng.choice(plays))
        sent += 1
        if on_move is not None:
            on_move(sent)
        for p in players:
            p.pump(0.01)
    return sent


@pytest.fixture
def cluster_db(postgres_server: str) -> str:
    from conftest import _fresh_postgres_database

    return _fresh_postgres_database(postgres_server)


def start(tmp_path: Path, database_url: str, redis_url: str, count: int = 2) -> list[RealServer]:
    return [
        RealServer(tmp_path / f"p{i}", "--redis", redis_url, *OPTIONS, database_url=database_url) for i in range(count)
    ]


@pytest.fixture
def servers(tmp_path: Path, cluster_db: str, redis_server: Any) -> Iterator[list[RealServer]]:
    running = start(tmp_path, cluster_db, redis_server.url)
    try:
        yield running
    finally:
        for server in running:
            if server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()


def table_across(servers: list[RealServer], keep: bool = False) -> tuple[str, list[Player]]:
    """A two-person table made at the first process (its owner) and joined through the second; seat 0 connects
    to the first process, seat 1 to the second. ``keep``: both keep their names, so the game is rated."""
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}]
    created = httpx.post(
        f"{servers[0].base}/api/tables", json={"players": 2, "seats": seats, "target": 12, "keep": keep}
    ).json()
    table_id = created["table_id"]
    joined = httpx.post(f"{servers[1].base}/api/tables/{table_id}/join", json={"name": "Youssef", "keep": keep})
    assert joined.status_code == 200, joined.text
    players = [
        Player(servers, 0, table_id, created["token"], 0),
        Player(servers, 1, table_id, joined.json()["token"], 1),
    ]
    for p in players:
        p.connect()
    return table_id, players


def test_two_players_on_two_processes_play_a_whole_game(servers: list[RealServer], cluster_db: str) -> None:
    table_id, players = table_across(servers, keep=True)
    # The table's summary is the same whichever process is asked (the second reads it from the store), but for
    # who is connected, which only the owner knows: the other says it does not know, not "away".
    here, there = (httpx.get(f"{server.base}/api/tables/{table_id}").json() for server in servers)
    assert here["status"] == there["status"] == "playing" and here["turn_time"] == there["turn_time"]
    assert [s["connected"] for s in here["seats"]] == [True, True]
    assert [s["connected"] for s in there["seats"]] == [None, None]
    # The same in the other process's list of public tables.
    seats = [{"kind": "human", "name": "Karima"}, {"kind": "bot", "level": "easy"}]
    public = httpx.post(f"{servers[0].base}/api/tables", json={"players": 2, "seats": seats, "public": True}).json()
    listed = httpx.get(f"{servers[1].base}/api/tables").json()["tables"]
    shown = next(t for t in listed if t["table_id"] == public["table_id"])
    assert [s["connected"] for s in shown["seats"]] == [None, True] and shown["turn_time"] == here["turn_time"]
    spectator = Player(servers, 1, table_id, None, -1)  # watches through the process that does not own the table
    spectator.connect()
    play([*players, spectator], random.Random(1))
    assert all(p.over for p in players)
    spectator.pump(0.5)
    assert spectator.events == players[0].events and spectator.over  # every event, as the players saw them...
    assert spectator.view is not None and spectator.view["hand"] == [] and spectator.legal == []  # ...no hand
    assert players[0].view is not None and players[1].view is not None
    assert players[0].view["winner"] == players[1].view["winner"] is not None
    assert [p.errors for p in players] == [[], []]
    assert_shown_equals_stored(cluster_db, table_id, {p.seat: p for p in players})  # type: ignore[dict-item]
    # The game was rated: every process's summary says how (the audit: only the owner's did, and only at once).
    summaries = [httpx.get(f"{server.base}/api/tables/{table_id}").json() for server in servers]
    assert summaries[0].get("ratings") is not None and summaries[1].get("ratings") == summaries[0]["ratings"]


def test_sigkill_of_the_owner_mid_game_another_process_takes_the_table(
    servers: list[RealServer], cluster_db: str
) -> None:
    table_id, players = table_across(servers)
    rng = random.Random(2)
    play(players, rng, moves=8)
    for p in players:
        p.pump(0.2)
    held = players[0].version
    servers[0].kill()  # the owner: seat 0's connection drops, seat 1's relay loses its owner
    play(players, rng)
    assert all(p.over for p in players) and held < players[0].version
    assert all(p.server is servers[1] for p in players)  # both play at the process that took the table over
    assert_shown_equals_stored(cluster_db, table_id, {p.seat: p for p in players})  # type: ignore[dict-item]


def choices(player: Player) -> list[dict[str, Any]]:
    return [a for a in player.legal if "challenge" not in a]


def to_seat(players: list[Player], seat: int, rng: random.Random) -> None:
    """Play on until it is ``seat``'s turn, with more than one decision to choose from."""
    deadline = time.monotonic() + 30
    while len(choices(players[seat])) < 2:
        assert time.monotonic() < deadline, f"seat {seat} was not asked to choose between two cards"
        ended = [p.view for p in players if p.over]
        assert not ended, f"the game ended before seat {seat} had a choice of two: {ended}"
        other = next((p for p in players if p.legal), None)
        if other is not None:
            other.act(rng.choice(choices(other)))
        for p in players:
            p.pump()


def stored_actions(url: str, table_id: str) -> list[dict[str, Any]]:
    from ronda.interfaces.web.store import Store

    store = Store(url, migrate=False)
    try:
        record = store.load_record(table_id, 0)
    finally:
        store.close()
    return [action for r in record["rounds"] for action in r["actions"]]


def test_an_owner_stopped_past_its_lease_cannot_write_and_the_game_goes_on_at_the_new_owner(
    tmp_path: Path, postgres_server: str, cluster_db: str, redis_server: Any
) -> None:
    """SIGSTOP of the owner while a decision's write is on its way to the database (held by a proxy); another
    process takes the table over; SIGCONT, and the write arrives late: the store refuses it (fencing), the player
    is told, and the game goes on at the new owner with another decision in its place."""
    proxy = proxy_for(postgres_server)
    name = cluster_db.rsplit("/", 1)[1]
    stale = RealServer(tmp_path / "a", "--redis", redis_server.url, *OPTIONS, database_url=proxy.url(name))
    other = RealServer(tmp_path / "b", "--redis", redis_server.url, *OPTIONS, database_url=cluster_db)
    servers = [stale, other]
    try:
        table_id, players = table_across(servers)
        rng = random.Random(3)
        play(players, rng, moves=6)
        to_seat(players, 0, rng)
        late = choices(players[0])[0]
        proxy.hold()
        players[0].act(late)  # to the owner, which sends its write to the database: held on the way
        deadline = time.monotonic() + 10
        while proxy.held == 0:
            assert time.monotonic() < deadline, "the owner did not write"
            time.sleep(0.01)
        stale.process.send_signal(signal.SIGSTOP)
        welcomed = players[1].welcomes
        deadline = time.monotonic() + 20
        while players[1].welcomes == welcomed:  # its relay closes once the lease expired; it reconnects...
            assert time.monotonic() < deadline, "the stopped owner's table was not taken over"
            players[1].pump()
        assert players[1].server is other  # ...to the process that took the table over
        players[0].avoid = {0}  # a stopped process fails a load balancer's health check
        stale.process.send_signal(signal.SIGCONT)
        proxy.release()  # the stale owner's write reaches the database now
        version = players[0].version
        deadline = time.monotonic() + 20
        while not players[0].legal or players[0].version != version:
            assert time.monotonic() < deadline, "seat 0 was not asked to decide again"
            players[0].pump()
        assert players[0].legal  # the late decision was not taken: seat 0 decides again, at the new owner
        players[0].act(next(a for a in choices(players[0]) if a != late))
        play(players, rng)
        assert all(p.over for p in players)
        assert_shown_equals_stored(cluster_db, table_id, {p.seat: p for p in players})  # type: ignore[dict-item]
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()
        proxy.close()


def test_redis_restarted_mid_game_play_resumes_and_nothing_is_lost(
    servers: list[RealServer], cluster_db: str, redis_server: Any
) -> None:
    table_id, players = table_across(servers)
    rng = random.Random(4)
    play(players, rng, moves=8)
    redis_server.kill()  # leases, epochs and subscriptions are gone with it
    redis_server.start()
    play(players, rng)
    assert all(p.over for p in players)
    assert_shown_equals_stored(cluster_db, table_id, {p.seat: p for p in players})  # type: ignore[dict-item]


def test_a_relaying_process_deaf_for_a_moment_closes_its_relays_and_the_seat_misses_nothing(
    servers: list[RealServer], cluster_db: str, redis_server: Any
) -> None:
    """Redis drops every subscriber's connection (as a blip of the network would) just as the owner sends the relayed
    seat the other seat's move: published while the relaying process was not listening, it is lost to it. That
    process closes its relayed connections (1012) once it listens again, and the seat reconnects and catches up.

    Before, the subscription came back by itself inside the Redis client, unnoticed: the owner, heard by nobody, let
    the relayed connection go, while the relaying process kept it open, and the seat waited for ever for a move it
    had missed (the first cause found of a cluster game that did not go on after Redis restarted)."""
    import redis

    table_id, players = table_across(servers)
    rng = random.Random(8)
    with contextlib.closing(redis.Redis.from_url(redis_server.url)) as client:
        play(players, rng, moves=4)
        client.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # a drop while nothing is sent: seat 1's
        welcomes, deadline = players[1].welcomes, time.monotonic() + 10  # connection is closed all the same, and
        while players[1].welcomes == welcomes:  # reconnects (nobody moves meanwhile)
            assert time.monotonic() < deadline, "the relayed connection was not closed after the drop"
            for p in players:
                p.pump()
        to_seat(players, 0, rng)  # seat 0, at the owner, is to move; seat 1 is relayed through the other process
        client.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
        players[0].act(choices(players[0])[0])  # published to the relaying process while it does not listen
    play(players, rng, timeout=30)
    assert all(p.over for p in players)
    assert_shown_equals_stored(cluster_db, table_id, {p.seat: p for p in players})  # type: ignore[dict-item]
    # Nothing of the connections closed for the drops lingers at the owner: once the seat's page goes, the seat is
    # away, not kept connected by a connection nobody holds (no grace period would start for its person).
    players[1].close()
    deadline = time.monotonic() + 10
    while httpx.get(f"{servers[0].base}/api/tables/{table_id}").json()["seats"][1]["connected"]:
        assert time.monotonic() < deadline, "the seat stays connected after its page went"
        time.sleep(0.1)


def test_a_rolling_restart_of_every_process_during_play_stops_no_game(
    tmp_path: Path, servers: list[RealServer], cluster_db: str, redis_server: Any
) -> None:
    table_id, players = table_across(servers)
    rng = random.Random(5)
    play(players, rng, moves=6)
    for index in range(len(servers)):
        servers[index].stop()  # SIGTERM: it gives its tables back; their people reconnect to another process
        play(players, rng, moves=4)
        servers[index] = RealServer(
            tmp_path / f"again{index}", "--redis", redis_server.url, *OPTIONS, database_url=cluster_db
        )
        play(players, rng, moves=4)
    play(players, rng)
    assert all(p.over for p in players)
    assert_shown_equals_stored(cluster_db, table_id, {p.seat: p for p in players})  # type: ignore[dict-item]


def test_a_bots_turns_go_on_at_the_new_owner_after_a_sigkill_none_lost_none_twice(
    servers: list[RealServer], cluster_db: str
) -> None:
    """A person against a bot, connected to the process that does not own the table (relayed): the owner, where
    the bot thinks, is killed just after the person's decision; the process that takes the table over decides the
    bot's move again from the stored game."""
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "easy"}]
    # To 21: a random player's declarations, bluffs included, are scored at once (R8.5) and can end a game to 12
    # within two deals; one did, before seat 0 had a choice of two cards.
    created = httpx.post(
        f"{servers[0].base}/api/tables", json={"players": 2, "seats": seats, "target": 21, "keep": False}
    ).json()
    table_id = created["table_id"]
    person = Player(servers, 1, table_id, created["token"], 0)
    person.connect()
    rng = random.Random(6)
    play([person], rng, moves=5)
    to_seat([person], 0, rng)
    person.act(choices(person)[0])
    servers[0].kill()  # the owner dies with the bot's answer to that decision thinking, sent, or stored
    play([person], rng)
    assert person.over
    assert_shown_equals_stored(cluster_db, table_id, {0: person})  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("database", "redis", "words"),
    [
        (None, "redis://127.0.0.1:6379/0", "DATABASE_URL=postgresql://"),
        ("postgresql://ronda@127.0.0.1:1/ronda", "127.0.0.1:6379", "--redis is a redis:// URL"),
    ],
)
def test_several_processes_need_postgresql_and_a_redis_url_else_exit_2_saying_so(
    database: str | None,
    redis: str,
    words: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ronda.cli.main import main

    if database is None:
        monkeypatch.delenv("DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("DATABASE_URL", database)
    assert main(["serve", "--data", str(tmp_path), "--redis", redis]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_the_store_refuses_a_stale_owner_s_writes_and_only_those(postgres_database: str) -> None:
    """Fencing in the store alone: once another process claimed table ``a`` with a newer epoch, the old owner's
    decision and seat change are refused with nothing stored, while a write for table ``b`` made in the same
    batch is stored; an epoch not newer than the stored one cannot be claimed."""
    import asyncio

    from ronda.interfaces.web.store import Decision, EpochBehind, Fenced, Journal, Store, StoredSeat, StoredTable

    store = Store(postgres_database)
    for table_id in ("a", "b"):
        seats = [StoredSeat(0, "human", "Ana", None, None), StoredSeat(1, "human", "Badr", None, None)]
        store.write(
            store.new_table,
            StoredTable(table_id, "2026-11-26", {"players": 2}, None, "playing", seats),
            dealer=0,
            deck=["1o"] * 40,
        )
    store.write(store.claim, "a", 1)
    store.write(store.claim, "b", 1)
    play = {"seat": 0, "play": "1o"}

    async def stale_owner() -> tuple[list[BaseException | None], list[str]]:
        journal = Journal(store)
        fenced: list[str] = []
        old = journal.fenced("a", 1, lambda: fenced.append("a"))
        other = journal.fenced("b", 1)
        await old.record(Decision("a", 0, 0, 0, play))  # still the owner: stored
        store.write(store.claim, "a", 2)  # another process takes table a over
        outcomes = await asyncio.gather(
            old.record(Decision("a", 0, 1, 0, play)),
            old.write(store.set_auto_declare, "a", 0, True),
            other.record(Decision("b", 0, 0, 0, play)),
            return_exceptions=True,
        )
        journal._jobs.put(None)  # the worker stops; the store stays open for the checks below
        return [o if isinstance(o, BaseException) else None for o in outcomes], fenced

    try:
        outcomes, fenced = asyncio.run(stale_owner())
        assert [type(o) for o in outcomes] == [Fenced, Fenced, type(None)]
        assert fenced == ["a", "a"]
        assert store.action_numbers("a", 0) == [0] and store.action_numbers("b", 0) == [0]
        assert not store.load_tables(["a"])[0].seats[0].auto_declare
        with pytest.raises(EpochBehind) as behind:
            store.write(store.claim, "a", 2)
        assert behind.value.stored == 2
    finally:
        store.close()


def test_an_owner_stopped_in_the_middle_of_a_write_does_not_keep_the_table_from_being_taken_over(
    postgres_database: str,
) -> None:
    """The stale owner's transaction holds the table's row (its fence) and goes silent, as a process stopped
    there would: PostgreSQL ends it after the store's timeout, and the takeover's claim goes through."""
    from sqlalchemy import text

    from ronda.interfaces.web.store import Store, StoredSeat, StoredTable

    stale, newer = Store(postgres_database, timeout=0.5), Store(postgres_database, timeout=3)
    try:
        seats = [StoredSeat(0, "human", "Ana", None, None), StoredSeat(1, "human", "Badr", None, None)]
        table = StoredTable("a", "2026-11-26", {"players": 2}, None, "playing", seats)
        stale.write(stale.new_table, table, dealer=0, deck=["1o"] * 40)
        stale.write(stale.claim, "a", 1)
        silent = stale.engine.connect()
        silent.begin()
        stale.check_fence(silent, "a", 1)  # the row is held; then nothing more comes from this owner
        newer.write(newer.claim, "a", 2)  # waits for the row, at most the newer store's lock timeout
        with newer.engine.connect() as db:
            assert db.execute(text("SELECT lease_epoch FROM ronda_tables WHERE id = 'a'")).scalar() == 2
        with contextlib.suppress(Exception):  # PostgreSQL ended that session: nothing to roll back
            silent.close()
    finally:
        stale.close()
        newer.close()


def test_while_redis_is_away_the_log_says_so_once_and_once_more_when_it_is_back(
    tmp_path: Path, cluster_db: str, redis_server: Any
) -> None:
    """The audit: five warnings a second while Redis was down (about 18,000 an hour), each saying the channel was
    subscribed again when it was not."""
    log = tmp_path / "serve.log"
    with open(log, "wb") as sink:
        server = RealServer(tmp_path / "p", "--redis", redis_server.url, *OPTIONS, database_url=cluster_db, stderr=sink)
        try:
            time.sleep(0.5)
            redis_server.kill()
            time.sleep(3)  # fifteen tries at the old pace
            redis_server.start()
            deadline = time.monotonic() + 10
            while "subscribed again" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            server.stop()
    text = log.read_text()
    assert text.count("the cluster's channel dropped") == 1, text
    assert text.count("the cluster's channel is subscribed again") == 1, text
