"""Limits that hold across the processes of a cluster (``create_app(redis_url=...)``, issue 30) on a real Redis.

Two apps built in this process on one Redis stand for two server processes
behind a load balancer: a client that spreads its requests over them must meet
the limits it would meet with one process — the rate limits, the caps on
spectators' connections and the play-now queue are Redis'. A killed process is
a real one (a child process counting spectators, then SIGKILLed): its counts
go when its alive key expires. What a process relaying a connection refuses
itself (a flood, a malformed message) is answered in the order the owner
would answer it, and costs Redis next to nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from real_server import free_port
from web_helpers import TEST_HOSTS, Client, Server, new_table

from ronda.interfaces.web.app import create_app
from ronda.interfaces.web.pairing import STALE

SRC = Path(__file__).resolve().parents[2] / "src"


_STORE: list[str] = []


@pytest.fixture(autouse=True)
def cluster_store(request: pytest.FixtureRequest) -> Iterator[None]:
    """One PostgreSQL database for the test's processes, as a cluster's share one (``--redis`` refuses SQLite)."""
    if "redis_url" in request.fixturenames:
        _STORE.append(request.getfixturevalue("postgres_database"))
    yield
    _STORE.clear()


def process(tmp_path: Path, redis_url: str, name: str, **options: Any) -> Server:
    """One server process of the cluster: an app of its own on the shared Redis and the test's shared store."""
    options.setdefault("bot_delay", 0)
    options.setdefault("bot_workers", 1)
    options.setdefault("flood_rate", 10_000.0)
    options.setdefault("tables_per_client", 1_000)
    options.setdefault("allowed_hosts", TEST_HOSTS)
    url = options.pop("database_url", None) or _STORE[-1]
    (tmp_path / name).mkdir(exist_ok=True)
    return Server(create_app(url, redis_url=redis_url, **options))


@contextlib.contextmanager
def two_processes(tmp_path: Path, redis_url: str, **options: Any) -> Iterator[tuple[Server, Server]]:
    with process(tmp_path, redis_url, "a", **options) as a, process(tmp_path, redis_url, "b", **options) as b:
        yield a, b


def create(http: Server) -> Any:
    return http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]})


def test_a_client_cannot_multiply_its_rate_limit_by_the_processes(tmp_path: Path, redis_url: str) -> None:
    with two_processes(tmp_path, redis_url, create_rate=2) as (a, b):
        assert create(a).status_code == 201
        assert create(b).status_code == 201
        for http in (a, b):  # the bucket of 2 a minute is spent, whichever process is asked
            refused = create(http)
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
            assert int(refused.headers["Retry-After"]) >= 1


def spectator(http: Server, table_id: str) -> tuple[Client, dict[str, Any]]:
    client = Client(http, table_id)
    client.send({"type": "hello", "token": None, "since": None})
    return client, client.recv()


def welcomed_once_released(http: Server, table_id: str, never: str) -> None:
    """A spectator's hello, refused until the count holding the address at the cap is released, then welcomed."""
    deadline = time.monotonic() + 15
    while (answer := spectator(http, table_id)[1])["type"] != "welcome":
        assert answer["code"] == "too_many_connections"
        assert time.monotonic() < deadline, never
        time.sleep(0.1)


def silent(http: Server, table_id: str) -> Client:
    """A socket that never says hello, once the server has counted it (it answers a first message)."""
    client = Client(http, table_id)
    client.send({"type": "ping"})
    assert client.recv()["code"] == "not_hello"
    return client


def test_sockets_that_never_say_hello_are_capped_across_processes(tmp_path: Path, redis_url: str) -> None:
    with two_processes(tmp_path, redis_url, connections_per_client=2) as (a, b):
        at_a = new_table(a, public=True)["table_id"]
        at_b = new_table(b, public=True)["table_id"]
        silent(a, at_a)
        older = silent(b, at_b)
        newer = silent(b, at_b)  # the third of the address across the cluster: b's oldest makes room
        evicted = older.recv()
        assert evicted["type"] == "error" and evicted["code"] == "too_many_connections"
        assert older.recv()["code"] == 4429
        newer.send({"type": "ping"})
        assert newer.recv()["code"] == "not_hello"  # the newest is kept


DYING_PROCESS = textwrap.dedent(
    """
    import asyncio, sys
    from redis.asyncio import Redis
    from ronda.interfaces.web.redis_limits import RedisCaps

    async def main():
        caps = RedisCaps(Redis.from_url(sys.argv[1]), cap=2, alive_seconds=1.0)
        await caps.start()
        for _ in range(2):
            assert await caps.watch(await caps.open("testclient", lambda: None))
        print("watching", flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


def test_spectator_caps_hold_across_processes_and_a_killed_ones_are_released(tmp_path: Path, redis_url: str) -> None:
    with two_processes(tmp_path, redis_url, connections_per_client=2) as (a, b):
        at_a = new_table(a, public=True)["table_id"]
        at_b = new_table(b, public=True)["table_id"]
        watching = [spectator(a, at_a) for _ in range(2)]
        assert [first["type"] for _, first in watching] == ["welcome", "welcome"]
        _, refused = spectator(b, at_b)  # the same address, through the other process: past the cap
        assert refused["type"] == "error" and refused["code"] == "too_many_connections"
        # Refused by a process relaying to the table's owner (a's table through b): counted where it was refused,
        # as the owner counts its own (an audit: the relaying processes counted none).
        _, relayed = spectator(b, at_a)
        assert relayed["type"] == "error" and relayed["code"] == "too_many_connections"
        registry = b.app.state.site.metrics.registry  # type: ignore[attr-defined]
        assert registry.get_sample_value("ronda_rate_limit_refusals_total", {"limit": "connections"}) == 2
        watching[0][0].close()  # one spectator leaves process a: the address may watch once more, anywhere
        welcomed_once_released(b, at_b, "the spectator who left was never released")
        watching[1][0].close()

    # A process killed while it counts two spectators of the address: its counts go with its alive key.
    with process(tmp_path, redis_url, "c", connections_per_client=2) as c:
        table_id = new_table(c, public=True)["table_id"]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
        dying = subprocess.Popen(
            [sys.executable, "-c", DYING_PROCESS, redis_url], stdout=subprocess.PIPE, text=True, env=env
        )
        try:
            assert dying.stdout is not None and dying.stdout.readline().strip() == "watching"
            _, first = spectator(c, table_id)
            assert first["code"] == "too_many_connections"  # the live process's two count
        finally:
            dying.send_signal(signal.SIGKILL)
            dying.wait(timeout=10)
        welcomed_once_released(c, table_id, "the killed process's spectators were never released")


HELLO = json.dumps({"type": "hello", "token": None, "since": None})
MALFORMED = ["{not json", json.dumps({"type": "shout"}), json.dumps({"type": "rematch", "on": "yes"})]
"""Garbage, an unknown type, a bad field: each refused by whichever process the connection reached."""


def answers(http: Server, table_id: str, frames: list[str], count: int) -> list[tuple[str, str | None]]:
    """Send ``frames`` at once on one new connection, and read the first ``count`` answers: their types and codes."""
    client = Client(http, table_id)
    for frame in frames:
        client.send_text(frame)
    read = [client.recv() for _ in range(count)]
    client.close()
    return [(m["type"], m.get("code")) for m in read]


def test_a_relayed_connection_reads_its_answers_in_the_order_of_its_messages_as_at_the_owner(
    tmp_path: Path, redis_url: str
) -> None:
    """An audit: the process relaying a connection refused a malformed message at once, while the answer to the hello
    sent just before it was still coming from the owner through Redis: the error came first. A client that pairs
    answers with its messages by their order must read the same order wherever its connection lands."""
    frames = [HELLO, *MALFORMED, json.dumps({"type": "ping"})]
    expected = [
        ("welcome", None),
        ("state", None),
        ("error", "bad_json"),
        ("error", "unknown_type"),
        ("error", "bad_message"),
        ("pong", None),
    ]
    with two_processes(tmp_path, redis_url) as (a, b):
        table_id = new_table(a, public=True)["table_id"]  # a owns it
        assert answers(a, table_id, frames, len(expected)) == expected
        for _ in range(3):  # the relayed connection, through b, again and again: never an error first
            assert answers(b, table_id, frames, len(expected)) == expected


def seated_answers(http: Server, table_id: str, token: str, frames: list[str]) -> list[str]:
    """Say hello with a seat's ``token`` on a new connection, send ``frames`` in one burst, and read the answer to each:
    an error's code or the type (``pong``); what the table sends meanwhile (``seats``) is not an answer."""
    client = Client(http, table_id, token)
    client.hello()

    def burst() -> None:  # in one go, as a client's socket writes them: the server reads them back to back
        for frame in frames:
            client.ws._receive_tx.send_nowait({"type": "websocket.receive", "text": frame})

    client.ws.portal.call(burst)
    read: list[str] = []
    while len(read) < len(frames):
        message = client.recv()
        if message["type"] in ("error", "pong"):
            read.append(message.get("code") or message["type"])
    client.close()
    return read


def test_a_seated_player_s_mix_of_refusals_and_decisions_is_answered_in_order_through_a_relay(
    tmp_path: Path, redis_url: str
) -> None:
    """An attacker's audit: through the process relaying his connection, Brahim (seat 1, not the creator, not his
    turn) sent garbage, a bad act, an act out of turn, an unknown type, settings and a ping. The relay held its own
    refusal of the unknown type for the owner's answers before it, but asked the owner about them only once the
    answer to the garbage had come back, behind the settings and the ping forwarded meanwhile: ``unknown_type`` came
    last. Wherever the connection lands, the answers come in the order of the messages."""
    act = json.dumps({"type": "act", "action": {"declare": "none"}})  # Amina declares first: not his turn
    sequences = {
        "garbage, act, unknown type, ping": (
            ["nope", act, json.dumps({"type": "cheat"}), json.dumps({"type": "ping"})],
            ["bad_json", "not_your_turn", "unknown_type", "pong"],
        ),
        "the audit's six": (
            [
                "nope",
                json.dumps({"type": "act", "action": {"play": "99x"}}),
                act,
                json.dumps({"type": "cheat"}),
                json.dumps({"type": "settings", "public": True}),
                json.dumps({"type": "ping"}),
            ],
            ["bad_json", "bad_message", "not_your_turn", "unknown_type", "not_creator", "pong"],
        ),
        "refusals between decisions": (
            [act, "nope", act, "nope", "nope", act, json.dumps({"type": "cheat"}), act, "nope"],
            [
                "not_your_turn",
                "bad_json",
                "not_your_turn",
                "bad_json",
                "bad_json",
                "not_your_turn",
                "unknown_type",
                "not_your_turn",
                "bad_json",
            ],
        ),
    }
    with two_processes(tmp_path, redis_url) as (a, b):
        created = new_table(a, 2, [{"kind": "human", "name": "Amina"}, {"kind": "human"}])  # a owns it
        table_id = created["table_id"]
        joined = a.post(f"/api/tables/{table_id}/join", json={"name": "Brahim", "keep": False})
        assert joined.status_code == 200, joined.text
        brahim = joined.json()["token"]
        for name, (frames, expected) in sequences.items():
            assert seated_answers(a, table_id, brahim, frames) == expected, name  # straight to the owner
            for _ in range(3):  # relayed by b, again and again
                assert seated_answers(b, table_id, brahim, frames) == expected, name
        assert table_id not in b.app.state.lobby.tables  # type: ignore[attr-defined]  # every answer came through a


def test_a_name_the_owner_refuses_reaches_the_joiner_on_another_process_with_its_reason_and_parameters(
    tmp_path: Path, redis_url: str
) -> None:
    """A seat at a table another process owns is taken by that owner (``Cluster.join_at``): when it refuses the name,
    the joiner's process must answer as the owner would, the ``reason`` and its parameters included, or a French or
    Arabic page shows the server's English message instead of its own words (i18n.js ``refusal``)."""
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    with two_processes(tmp_path, redis_url) as (a, b):
        table_id = new_table(a, 3, seats)["table_id"]  # a owns it
        refused = {
            "Amina": (409, {"reason": "name_at_table", "name": "Amina", "held": "Amina"}),
            "AMINA": (409, {"reason": "name_like_at_table", "name": "AMINA", "held": "Amina"}),
            "B\u043et 2": (400, {"reason": "name_like_bot", "name": "B\u043et 2"}),  # a Cyrillic o
        }
        for typed, (status, said) in refused.items():
            at_b = b.post(f"/api/tables/{table_id}/join", json={"name": typed, "keep": False})
            assert at_b.status_code == status, at_b.text
            error = at_b.json()["error"]
            assert {key: error.get(key) for key in said} == said, error
            at_a = a.post(f"/api/tables/{table_id}/join", json={"name": typed, "keep": False})
            assert (at_a.status_code, at_a.json()) == (status, at_b.json())  # word for word what the owner says
        assert table_id not in b.app.state.lobby.tables  # type: ignore[attr-defined]  # every answer came through a
        joined = b.post(f"/api/tables/{table_id}/join", json={"name": "Youssef", "keep": False})
        assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
        assert table_id not in b.app.state.lobby.tables  # type: ignore[attr-defined]


def test_a_relayed_connection_is_told_of_its_flood_after_the_answers_to_what_came_before(
    tmp_path: Path, redis_url: str
) -> None:
    """The flood limit stays the relaying process's (counted in its metrics), and its one ``flood`` error comes in its
    turn: after the owner's answers to the messages let through before it."""
    ping = json.dumps({"type": "ping"})
    expected = [("welcome", None), ("state", None), ("pong", None), ("error", "flood")]
    with two_processes(tmp_path, redis_url, flood_rate=1.0) as (a, b):  # bursts of 2: the third message floods
        table_id = new_table(a, public=True)["table_id"]
        assert answers(a, table_id, [HELLO, ping, ping, ping], len(expected)) == expected
        assert answers(b, table_id, [HELLO, ping, ping, ping], len(expected)) == expected
        registry = b.app.state.site.metrics.registry  # type: ignore[attr-defined]
        assert registry.get_sample_value("ronda_rate_limit_refusals_total", {"limit": "flood"}) == 2


def test_an_owner_that_never_says_done_does_not_keep_a_relayed_connection_s_errors_for_ever(
    tmp_path: Path, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An owner of an older version (a rolling upgrade) does not know the relaying process's question: the error
    held for it goes out once the question's time has run out, late rather than never."""
    from ronda.interfaces.web import cluster

    monkeypatch.setattr(cluster, "CALL_TIMEOUT", 0.3)
    with two_processes(tmp_path, redis_url) as (a, b):
        table_id = new_table(a, public=True)["table_id"]
        owner = a.app.state.cluster  # type: ignore[attr-defined]
        heard = owner._on
        monkeypatch.setattr(owner, "_on", lambda message: None if message.get("k") == "ask" else heard(message))
        expected = [("welcome", None), ("state", None), ("error", "bad_json")]
        assert answers(b, table_id, [HELLO, "{not json"], len(expected)) == expected


def publishes(redis_url: str) -> int:
    """Messages published on the Redis server so far (its own count, ``INFO commandstats``)."""
    import redis

    with contextlib.closing(redis.Redis.from_url(redis_url)) as client:
        stats = client.info("commandstats").get("cmdstat_publish", {"calls": 0})
    return int(stats["calls"])


def test_a_flood_of_garbage_on_a_relayed_connection_costs_redis_one_question_at_most(
    tmp_path: Path, redis_url: str
) -> None:
    """Answering a refused message in its turn asks the owner once whether it is done with what came before (two
    small messages), however much garbage follows: nothing of the garbage itself reaches Redis or the owner."""
    ping = json.dumps({"type": "ping"})
    with two_processes(tmp_path, redis_url) as (a, b):
        table_id = new_table(a, public=True)["table_id"]
        remotes = a.app.state.cluster.remotes  # type: ignore[attr-defined]

        def relayed(frames: list[str], count: int) -> tuple[list[tuple[str, str | None]], int]:
            """The answers, and the messages published for the connection, its ``gone`` at the owner included."""
            before = publishes(redis_url)
            read = answers(b, table_id, frames, count)
            deadline = time.monotonic() + 5
            while remotes:  # the owner heard it go: nothing of it is left to publish
                assert time.monotonic() < deadline, "the owner never heard the relayed connection go"
                time.sleep(0.01)
            return read, publishes(redis_url) - before

        read, clean = relayed([HELLO, ping], 3)  # the hello, its welcome and state, the ping, its pong, its going: 6
        assert read[-1] == ("pong", None)
        garbage = ["{not json" + "x" * 1000] * 30
        read, cost = relayed([HELLO, *garbage, ping], 3 + len(garbage))
        assert read[:2] == [("welcome", None), ("state", None)] and read[-1] == ("pong", None)
        assert set(read[2:-1]) == {("error", "bad_json")}
        assert cost <= clean + 2


def play(http: Server, **body: Any) -> Any:
    """Ask to play now; one test client asks for several strangers, so it keeps no name (``"keep": false``)."""
    return http.post("/api/play", json={"keep": False, **body})


def test_play_now_seats_two_people_asking_two_processes_together_once(tmp_path: Path, redis_url: str) -> None:
    with two_processes(tmp_path, redis_url) as (a, b):
        amina = play(a, players=2, name="Amina")
        assert amina.status_code == 202 and amina.json()["others"] == 0
        assert b.get(f"/api/play/{amina.json()['ticket']}").json()["status"] == "waiting"  # b sees a's queue
        brahim = play(b, players=2, name="Brahim")
        assert brahim.status_code == 200, brahim.text
        seated = brahim.json()
        look = a.get(f"/api/play/{amina.json()['ticket']}").json()
        assert look["status"] == "seated" and look["table_id"] == seated["table_id"]
        assert (look["seat"], seated["seat"]) == (0, 1) and look["token"] != seated["token"]
        # Never seated twice: asking again, on either process, gives back the same seat.
        for http in (a, b):
            again = play(http, players=2, name="Amina", ticket=amina.json()["ticket"])
            assert (again.json()["table_id"], again.json()["seat"]) == (seated["table_id"], 0)
        # A third person waits alone, and a cancel on the other process takes them out of the queue.
        driss = play(a, players=2, name="Driss").json()["ticket"]
        cancelled = b.delete(f"/api/play/{driss}")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        assert a.get(f"/api/play/{driss}").status_code == 404
        chama = play(b, players=2, name="Chama")
        assert chama.status_code == 202 and chama.json()["others"] == 0  # Driss no longer waits


def test_play_now_says_how_long_a_request_has_waited_on_whichever_process_it_is_asked(
    tmp_path: Path, redis_url: str
) -> None:
    """A page opened again counts the wait on from the server's ``waited`` (it restarted at 0): in a cluster, the
    queue's count (Redis' clock), whichever process answers, and asking again for the same game keeps it."""
    with two_processes(tmp_path, redis_url) as (a, b):
        ticket = play(a, players=2, name="Amina").json()["ticket"]
        deadline = time.monotonic() + 10
        while (waited := b.get(f"/api/play/{ticket}").json()["waited"]) < 0.5:
            assert time.monotonic() < deadline, "the wait was not counted"
            time.sleep(0.05)
        again = play(b, players=2, name="Amina", ticket=ticket, bots_after=60)  # bots ticked while waiting
        assert again.status_code == 202 and again.json()["ticket"] == ticket
        assert again.json()["waited"] >= waited and again.json()["bots_in"] > 59
        assert a.get(f"/api/play/{ticket}").json()["waited"] >= waited


def test_play_now_bots_come_for_a_wait_that_ended_on_any_process(tmp_path: Path, redis_url: str) -> None:
    with two_processes(tmp_path, redis_url) as (a, b):
        ticket = play(a, players=2, name="Amina", bots_after=0.2, level="easy").json()["ticket"]
        while (look := b.get(f"/api/play/{ticket}")).status_code == 202:
            time.sleep(0.05)
        seated = look.json()
        assert seated["status"] == "seated" and seated["seat"] == 0
        table = b.get(f"/api/tables/{seated['table_id']}").json()
        assert [s["kind"] for s in table["seats"]] == ["human", "bot"] and table["seats"][1]["level"] == "easy"


def test_play_now_one_browser_asking_on_two_processes_waits_once(tmp_path: Path, redis_url: str) -> None:
    """A player waits at most once across processes: their second tab's ask replaces the first, on any process."""
    with two_processes(tmp_path, redis_url) as (a, b):
        first = a.post("/api/play", json={"players": 2, "name": "Solo"})
        assert first.status_code == 202
        b.cookies.update(a.cookies)  # the same browser, its second tab's ask reaching the other process
        second = b.post("/api/play", json={"players": 2, "name": "Solo"})
        assert second.status_code == 202 and second.json()["others"] == 0, second.text
        assert a.get(f"/api/play/{first.json()['ticket']}").json()["error"]["code"] == "replaced"
        b.cookies.clear()  # a stranger
        brahim = play(b, players=2, name="Brahim")
        assert brahim.status_code == 200, brahim.text
        table = b.get(f"/api/tables/{brahim.json()['table_id']}").json()
        assert [s["name"] for s in table["seats"]] == ["Solo", "Brahim"]


def test_play_now_asks_nobody_looks_at_are_dropped_on_every_process(tmp_path: Path, redis_url: str) -> None:
    """Ghosts asked on one process are dropped by the next ask on the other, before it can seat anyone with them."""
    with two_processes(tmp_path, redis_url) as (a, b):
        for http in (a, b):
            http.app.state.site.pairing.stale = 0.5  # STALE is 10 s: a test does not wait that long
        ghosts = [play(a, players=3, preset="heavy", name=f"GhostG{n}").json()["ticket"] for n in (1, 2)]
        time.sleep(0.6)
        amina = play(b, players=3, preset="heavy", name="Amina")
        assert amina.status_code == 202 and amina.json()["others"] == 0, amina.text  # not seated with the ghosts
        for http in (a, b):
            http.app.state.site.pairing.stale = STALE  # from here on, no slow step of the test's own drops Amina
        assert a.get(f"/api/play/{ghosts[1]}").status_code == 404
        assert b.get(f"/api/play/{amina.json()['ticket']}").json()["status"] == "waiting"


def test_readiness_needs_the_redis_of_the_cluster(tmp_path: Path, redis_url: str) -> None:
    with process(tmp_path, redis_url, "up") as up:
        assert up.get("/readyz").json() == {"status": "ready"}
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with process(tmp_path, nowhere, "down") as down:
        answer = down.get("/readyz")
        assert answer.status_code == 503 and answer.json() == {"status": "not_ready", "not_answering": ["redis"]}
        assert down.get("/healthz").json() == {"status": "ok"}
        refused = create(down)  # the limits are Redis': a clear, retryable refusal rather than a crash
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "unavailable"


def test_the_lobby_of_every_process_lists_the_public_tables_made_on_another(tmp_path: Path, redis_url: str) -> None:
    with two_processes(tmp_path, redis_url) as (a, b):
        listed = new_table(b, public=True)["table_id"]
        private = new_table(b)["table_id"]
        ids = [t["table_id"] for t in a.get("/api/tables").json()["tables"]]
        assert listed in ids and private not in ids


def test_the_redis_queue_keeps_the_rules_of_play_now(redis_url: str) -> None:
    """The rules of pairing.py on Redis: bots only for those who accept them, a ticket waits once, per-client cap."""
    from redis.asyncio import Redis

    from ronda.interfaces.web.pairing import Ask, Game, TooManyWaiting
    from ronda.interfaces.web.redis_pairing import RedisPairing

    four = Game(4, "classic")

    async def scenario() -> None:
        redis = Redis.from_url(redis_url)
        pairing = RedisPairing(redis, per_client=2)
        try:
            assert await pairing.ask(Ask("amina", four, "Amina", "10.0.0.1", bots_after=600)) is None
            assert await pairing.ask(Ask("chama", four, "Chama", "10.0.0.3")) is None  # people only
            assert await pairing.ask(Ask("brahim", four, "Brahim", "10.0.0.2", bots_after=0, level="hard")) is None
            (match,) = await pairing.due()  # Brahim's wait is over: Amina accepts bots too, Chama does not
            assert [a.ticket for a in match.people] == ["amina", "brahim"] and (match.bots, match.level) == (2, "hard")
            seating = await pairing.seating("amina")
            assert seating is not None and seating.pending  # matched, its table being made
            waiting = await pairing.waiting("chama")
            assert waiting is not None and waiting.others == 0 and waiting.bots_in is None
            with pytest.raises(ValueError, match="was seated"):
                await pairing.ask(Ask("amina", four, "Amina", "10.0.0.1"))
            # Asking again replaces the one request; an address keeps at most two waiting.
            assert await pairing.ask(Ask("chama", Game(2, "short"), "Chama", "10.0.0.3")) is None
            assert await pairing.waiting("chama") is not None and (await pairing.due()) == []
            assert await pairing.ask(Ask("driss", four, "Driss", "10.0.0.3")) is None
            with pytest.raises(TooManyWaiting):
                await pairing.ask(Ask("farid", four, "Farid", "10.0.0.3"))
            assert await pairing.cancel("driss") and not await pairing.cancel("driss")
        finally:
            await redis.aclose()

    asyncio.run(scenario())


def test_passwords_tried_are_counted_across_the_processes(tmp_path: Path, redis_url: str) -> None:
    from ronda.interfaces.web.accounts import ACCOUNT_LOGIN_RATE

    guess = {"username": "amina", "password": "not her password"}
    with two_processes(tmp_path, redis_url) as (a, b):
        answers = [
            (a if n % 2 else b).post("/api/me/login", json=guess).status_code for n in range(int(ACCOUNT_LOGIN_RATE))
        ]
        assert set(answers) == {401}  # wrong, and each process let its share through
        for http in (a, b):  # the account's tries are spent, whichever process is asked
            refused = http.post("/api/me/login", json=guess)
            assert refused.status_code == 429 and "log in to this account" in refused.json()["error"]["message"]
