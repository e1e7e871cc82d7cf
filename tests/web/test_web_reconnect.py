"""Coming back: a client reconnecting mid-deal catches up exactly; a restarted server goes on exactly."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from web_helpers import Client, new_table, play_out, random_chooser, seat_clients, server


def three_people(http: object) -> tuple[str, dict[int, str]]:
    """A three-person table with no bot, so nothing moves unless a test says so."""
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}, {"kind": "human"}]
    created = new_table(http, 3, seats)  # type: ignore[arg-type]
    table_id = created["table_id"]
    tokens = {0: created["token"]}
    for name in ("Youssef", "Khadija"):
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": name, "keep": False}).json()  # type: ignore[attr-defined]
        tokens[joined["seat"]] = joined["token"]
    return table_id, tokens


def seat_to_act(client: Client) -> int | None:
    return None if client.view is None else client.view["turn"]


def test_reconnecting_mid_deal_catches_up_with_exactly_the_missed_events(tmp_path: Path) -> None:
    rng = random.Random(11)
    choose = random_chooser(rng, challenge=0)
    with server(tmp_path) as http:
        table_id, tokens = three_people(http)
        clients = seat_clients(http, table_id, tokens)
        # Play into the middle of the first deal: declarations done, cards down, seat 1 to play.
        plays = 0

        def counted(client: Client) -> dict[str, object]:
            nonlocal plays
            action = choose(client)
            plays += "play" in action
            return action

        def mid_deal() -> bool:
            view = clients[1].view
            return plays >= 1 and bool(clients[1].legal) and view is not None and view["phase"] == "play"

        play_out(clients.values(), counted, until=mid_deal)
        amina = clients.pop(0)
        for client in clients.values():
            client.sync()
        since, view_then = amina.version, amina.view
        amina.close()
        # Seats 1 and 2 play on; seat 0 misses it all.
        play_out(clients.values(), choose, until=lambda: seat_to_act(clients[1]) == 0)
        for client in clients.values():
            client.sync()
        now = clients[1].version
        assert now > since
        back = Client(http, table_id, tokens[0])
        catchup = back.hello(since=since)
        assert catchup["type"] == "catchup" and catchup["version"] == now
        assert [e["version"] for e in catchup["events"]] == list(range(since + 1, now + 1))
        assert catchup["events"] == [clients[1].events[v] for v in range(since + 1, now + 1)]
        assert catchup["view"] != view_then and catchup["legal"]
        fresh = Client(http, table_id, tokens[0])
        state = fresh.hello(since=None)
        assert state["type"] == "state" and state["version"] == now
        assert state["view"] == catchup["view"] and state["legal"] == catchup["legal"]
        # Already up to date: an empty catchup; a version from the future: the whole state.
        again = Client(http, table_id, tokens[0])
        assert again.hello(since=now)["events"] == []
        assert again.hello(since=now + 50)["type"] == "state"
        for client in (back, fresh, again, *clients.values()):
            client.close()


def test_a_restarted_server_goes_on_exactly_where_it_stopped(tmp_path: Path, database_url: str) -> None:
    choose = random_chooser(random.Random(5), challenge=0)
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "medium"}, {"kind": "human"}]
    with server(tmp_path, database_url) as http:
        created = new_table(http, 3, seats, preset="short")
        table_id = created["table_id"]
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Omar", "keep": False}).json()
        tokens = {0: created["token"], 2: joined["token"]}
        waiting = new_table(http, 2, [{"kind": "human", "name": "A"}, {"kind": "human"}])
        clients = seat_clients(http, table_id, tokens)
        moves = 0

        def some_moves() -> bool:
            return moves >= 12 and any(c.legal for c in clients.values())

        def counted(client: Client) -> dict[str, object]:
            nonlocal moves
            moves += 1
            return choose(client)

        play_out(clients.values(), counted, until=some_moves)
        for client in clients.values():
            client.sync()
        before = {seat: (c.version, c.view, c.legal) for seat, c in clients.items()}
        events_before = dict(clients[0].events)
        for client in clients.values():
            client.close()
    # A new server on the same database.
    with server(tmp_path, database_url) as http:
        assert http.get(f"/api/tables/{table_id}").json()["status"] == "playing"
        assert http.get(f"/api/tables/{waiting['table_id']}").json()["status"] == "waiting"
        clients = {}
        for seat, token in tokens.items():
            client = Client(http, table_id, token)
            client.hello(since=None)
            assert (client.version, client.view, client.legal) == before[seat]
            clients[seat] = client
        catchup = Client(http, table_id, tokens[0]).hello(since=0)
        assert {e["version"]: e for e in catchup["events"]} | events_before == {
            e["version"]: e for e in catchup["events"]
        }
        play_out(clients.values(), choose)
        final = http.get(f"/api/tables/{table_id}").json()
        assert final["status"] == "finished" and final["winner"] is not None
        # The waiting table still takes its second player after the restart, and its game starts.
        joined = http.post(f"/api/tables/{waiting['table_id']}/join", json={"name": "B", "keep": False})
        assert joined.status_code == 200
        assert http.get(f"/api/tables/{waiting['table_id']}").json()["status"] == "playing"
        for client in clients.values():
            client.close()


def test_a_table_whose_record_breaks_the_rules_is_refused_and_the_others_served(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import sqlalchemy

    seats = [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "random"}]
    with server(tmp_path) as http:
        broken, fine = new_table(http, 2, seats), new_table(http, 2, seats)
        for created in (broken, fine):
            client = Client(http, created["table_id"], created["token"])
            client.hello()
            play_out([client], random_chooser(random.Random(1), challenge=0), until=lambda c=client: c.version > 10)
            client.sync()
    engine = sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'ronda.sqlite3'}")
    with engine.begin() as db:
        db.execute(
            sqlalchemy.text("UPDATE ronda_actions SET action = :a WHERE table_id = :t AND number = 0"),
            {"a": '{"seat": 0, "play": "1o"}', "t": broken["table_id"]},
        )
    engine.dispose()
    with server(tmp_path) as http:
        refused = Client(http, broken["table_id"], broken["token"])
        error = refused.recv()
        assert error["type"] == "error" and "cannot be rebuilt" in error["message"]
        assert refused.recv()["type"] == "closed"
        assert "rounds[0].actions[0]" in caplog.text and "1o" not in caplog.text  # where, never a card
        joined = http.post(f"/api/tables/{broken['table_id']}/join", json={"name": "Omar", "keep": False})
        assert joined.status_code == 500 and joined.json()["error"]["code"] == "damaged"
        assert Client(http, fine["table_id"], fine["token"]).hello()["type"] == "state"


SILENT_PAGE = """
import json, sys, time
from websockets.sync.client import connect

ws = connect(sys.argv[1], open_timeout=10)
ws.send(json.dumps({"type": "hello", "token": sys.argv[2], "since": None}))
while json.loads(ws.recv(timeout=10))["type"] not in ("state", "catchup"):
    pass
print("seated", flush=True)
time.sleep(600)
"""
"""A person's page in a process of its own: connected, then stopped (SIGSTOP) — it answers nothing, closes nothing."""


def test_a_page_that_falls_silent_is_seen_away_within_two_checks_and_its_seat_kept(tmp_path: Path) -> None:
    """A laptop shut or a network dropped without a word closes no connection: only the server's checks (pings)
    notice it. With uvicorn's own 20 s and 20 s, the other person's page showed Youssef there for up to 40 s after
    his page went silent; with ``--ping`` the server sees him away after a check goes unanswered, and his seat is
    kept for the grace period. The fault is real: his page's process is stopped (SIGSTOP), its socket left open."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from real_server import RealServer, SeatSocket

    with RealServer(tmp_path / "data", "--ping", "1", "--grace", "60") as served:
        table_id, tokens = served.two_people()
        amina = SeatSocket(served, table_id, tokens[0])
        amina.hello(None)
        page = subprocess.Popen(
            [sys.executable, "-c", SILENT_PAGE, f"ws://127.0.0.1:{served.port}/ws/{table_id}", tokens[1]],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert page.stdout is not None and page.stdout.readline().strip() == "seated"
            while not amina.wait_for("seats")["table"]["seats"][1]["connected"]:
                pass  # until Amina hears that Youssef is there
            os.kill(page.pid, signal.SIGSTOP)
            stopped = time.monotonic()
            while True:
                message = amina.wait_for("seats")
                youssef = message["table"]["seats"][1]
                if not youssef["connected"]:
                    break
            noticed = time.monotonic() - stopped
            assert noticed < 6, noticed  # a check every second, a second to answer: about 2 s, not 20 to 40
            assert youssef["taken"] and youssef["name"] == "Youssef" and youssef["left"] is None
            assert youssef["grace_left"] is not None and youssef["grace_left"] > 50  # his seat waits for him
            assert message["table"]["status"] == "playing" and not youssef["stand_in"]
        finally:
            os.kill(page.pid, signal.SIGCONT)
            page.kill()
            page.wait(timeout=10)
            amina.close()
