"""Who played in a game survives a crash: a rebuilt table rates exactly as the live one would have.

A game in which a person never made a decision of their own is not rated
(docs/server.md, "What is rated"), so that a second name that never plays
farms nothing. The table knew who played only in memory, and a table rebuilt
after a restart trusted every seat: the farm worked again across a restart.
Here a real ``ronda serve`` (SQLite, and PostgreSQL) is killed with SIGKILL in
the middle of three games between two kept names, and started again on the
same data: the game in which Brahim never played stays unrated; the game in
which he made a decision of his own, and the one in which he was there when
his turn clock ran out, are rated, as they would have been without the crash.
Who *left* a game survives it too: a leaver back after the restart still loses
the rated game. At the store, who played and who left are written in the
transaction of the decision that makes it so.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import httpx
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from ronda.interfaces.web.store import Decision, Store, StoredSeat, StoredTable, games_table

OPTIONS = ("--grace", "2", "--turn-time", "2", "--stand-in", "random")
"""A person away 2 s has left (the stand-in plays), and a person there lets a turn pass in 2 s. Not a grace of 0:
a rebuilt table starts the grace period of everyone before the hello of the connection that opened it arrives,
and Amina, counted as having left too, would make every game unrated (no side stayed)."""


def kept_name(base: str, name: str) -> httpx.Client:
    """A browser that chose the name ``name`` (its cookie makes every seat it takes that player's)."""
    browser = httpx.Client(base_url=base, timeout=10)
    chosen = browser.post("/api/me", json={"name": name})
    assert chosen.status_code == 201, chosen.text
    return browser


def seat_two(amina: httpx.Client, brahim: httpx.Client) -> tuple[str, dict[int, str]]:
    """Amina makes a table of two for a friend and Brahim takes the other seat: the table and the seats' tokens."""
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}]
    created = amina.post("/api/tables", json={"players": 2, "seats": seats, "target": 12, "keep": False})
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    joined = brahim.post(f"/api/tables/{table_id}/join", json={"name": "Brahim"})
    assert joined.status_code == 200, joined.text
    return table_id, {0: created.json()["token"], 1: joined.json()["token"]}


def drain(sock: Any) -> None:
    """Read whatever the socket has been sent, without waiting for more."""
    while True:
        try:
            sock._read(timeout=0.01)
        except TimeoutError:
            return


def act(sock: Any, rng: random.Random) -> None:
    sock.act(rng.choice([a for a in sock.legal if "challenge" not in a]))


def play(amina: Any, brahim: Any | None, rng: random.Random, done: Any, brahim_plays: bool = True) -> None:
    """Both sockets read as they go; Amina acts whenever she may, Brahim too if he plays; until ``done()``."""
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, "the game did not get there"
        for sock in (amina, brahim):
            if sock is not None:
                drain(sock)
        if amina.legal:
            act(amina, rng)
            amina.moves += 1
        if brahim is not None and brahim_plays and brahim.legal:
            act(brahim, rng)
            brahim.moves += 1


def connect(server: Any, table_id: str, token: str) -> Any:
    from real_server import SeatSocket

    sock = SeatSocket(server, table_id, token)
    sock.moves = 0
    sock.hello(0)
    return sock


def ran_out(brahim: Any) -> bool:
    """Brahim's turn clock ran out and the stand-in's decision for that turn was shown to him (stored)."""
    kinds = [m["type"] for m in brahim.received]
    return "turn_over" in kinds and "update" in kinds[kinds.index("turn_over") :]


def test_a_server_killed_mid_game_rates_only_the_games_both_people_played(tmp_path: Path, database_url: str) -> None:
    from real_server import RealServer

    data = tmp_path / "data"
    rng = random.Random(12)
    with RealServer(data, *OPTIONS, database_url=database_url) as first:
        amina_browser, brahim_browser = kept_name(first.base, "Amina"), kept_name(first.base, "Brahim")
        # Each table is made when its people come: seated and away past the grace period, a person counts as having
        # left the game (and who left is kept across a crash too: the next test).
        tables = {"never": seat_two(amina_browser, brahim_browser)}

        # Brahim never comes: the stand-in plays his seat while Amina plays hers.
        never, tokens = tables["never"]
        amina = connect(first, never, tokens[0])
        play(amina, None, rng, lambda: amina.moves >= 2)
        amina.settle()
        amina.close()  # nobody is there: nothing more is played until the restart

        # Brahim is there and makes no decision: his turn clock runs out once, and the stand-in makes it.
        clock, tokens = tables["clock"] = seat_two(amina_browser, brahim_browser)
        brahim = connect(first, clock, tokens[1])
        amina = connect(first, clock, tokens[0])
        play(amina, brahim, rng, lambda: amina.moves >= 1 and ran_out(brahim), brahim_plays=False)
        assert brahim.moves == 0
        still_there = [amina, brahim]  # until the crash, before Brahim lets two more turns pass (he would leave)

        # Brahim comes first (so the stand-in makes none of his decisions) and makes one decision of his own.
        played, tokens = tables["played"] = seat_two(amina_browser, brahim_browser)
        brahim = connect(first, played, tokens[1])
        amina = connect(first, played, tokens[0])
        play(amina, brahim, rng, lambda: amina.moves >= 1 and brahim.moves >= 1)
        for sock in (*still_there, amina, brahim):
            sock.settle()
            sock.close()
        first.kill()  # SIGKILL: nothing of the tables in memory is kept but what the store holds

    store = Store(database_url, migrate=False)
    try:
        stored = {t.id: t for t in store.load_tables([table_id for table_id, _ in tables.values()])}
        for how, seats in (("never", [0]), ("played", [0, 1]), ("clock", [0, 1])):
            (game,) = stored[tables[how][0]].games
            assert not game.finished and game.acted == seats, how  # stored with the decisions, across the crash
    finally:
        store.close()

    with RealServer(data, *OPTIONS, database_url=database_url) as second:
        for table_id, tokens in tables.values():  # Amina alone comes back; the stand-in plays for Brahim, away
            back = connect(second, table_id, tokens[0])
            play(back, None, rng, lambda sock=back: bool(sock.over))
            back.close()
        second.stop()

    store = Store(database_url, migrate=False)
    try:
        assert store.game_ratings(tables["never"][0], 0) is None, "Brahim never played: no contest"
        for how in ("played", "clock"):  # he played before the crash, then left: he loses it, rated
            changes = store.game_ratings(tables[how][0], 0)
            assert changes is not None, f"{how}: a game both people played is rated after a restart"
            assert [(c["result"], c["abandoned"]) for c in changes] == [("won", False), ("lost", True)], how
    finally:
        store.close()


def test_who_left_a_game_survives_a_crash_and_their_rated_game_is_still_a_loss_for_them(
    tmp_path: Path, database_url: str
) -> None:
    """Brahim plays, then leaves past the grace period (the stand-in plays for him), and the server is killed. Back
    after the restart, and first there, he plays the game on to its end with Amina: he still counts as having left
    (his page says so), and the rated game is a loss for him whatever the score, as it would have been without the
    crash. Before who left was stored the rebuilt table forgot it, and rated the game by its score. His page is
    told which moves the stand-in made for him, after the crash as before it: before that was stored (migration
    0007) the rebuilt table told them as his own."""
    from real_server import RealServer, SeatSocket

    data = tmp_path / "data"
    rng = random.Random(7)
    with RealServer(data, *OPTIONS, database_url=database_url) as first:
        amina_browser, brahim_browser = kept_name(first.base, "Amina"), kept_name(first.base, "Brahim")
        table_id, tokens = seat_two(amina_browser, brahim_browser)
        brahim = connect(first, table_id, tokens[1])
        amina = connect(first, table_id, tokens[0])
        play(amina, brahim, rng, lambda: amina.moves >= 1 and brahim.moves >= 1)
        brahim.settle()
        brahim.close()  # past the grace period (2 s) he has left; the stand-in plays for him

        def stood_in_for() -> bool:
            seat = httpx.get(f"{first.base}/api/tables/{table_id}").json()["seats"][1]
            return bool(seat["left"] == "away" and amina.moves >= 3)

        play(amina, None, rng, stood_in_for)
        amina.settle()
        amina.close()
        # What his page is told the computer played for him, by the table that did it (a page of his opened now).
        looking = SeatSocket(first, table_id, tokens[1])
        made_for_him = looking.hello(0).get("made_for_you", [])
        looking.close()
        assert made_for_him, "the stand-in played for him"
        first.kill()  # SIGKILL, with decisions of the stand-in's stored after he left

    store = Store(database_url, migrate=False)
    try:
        (game,) = store.load_tables([table_id])[0].games
        assert not game.finished and game.left == {1: "away"}  # stored with a decision, across the crash
    finally:
        store.close()

    with RealServer(data, *OPTIONS, database_url=database_url) as second:
        seats = httpx.get(f"{second.base}/api/tables/{table_id}").json()["seats"]  # not yet rebuilt: as stored
        assert [s["left"] for s in seats] == [None, "away"], "the stored table says who left"
        brahim = SeatSocket(second, table_id, tokens[1])
        brahim.moves = 0
        told = brahim.hello(0)  # his hello rebuilds the table: he is there, not away
        # ... and his page still tells the stand-in's moves as the computer's, not as his own (migration 0007).
        assert told.get("made_for_you") == made_for_him, "the rebuilt table tells him what it played for him"
        assert {e["version"]: e.get("seat") for e in told["events"] if e["version"] in made_for_him} == dict.fromkeys(
            made_for_him, 1
        ), "each is a move of his seat"
        amina = connect(second, table_id, tokens[0])
        seats = httpx.get(f"{second.base}/api/tables/{table_id}").json()["seats"]
        assert [s["left"] for s in seats] == [None, "away"], "the rebuilt table knows who left"
        play(amina, brahim, rng, lambda: bool(amina.over))
        for sock in (amina, brahim):
            sock.close()
        second.stop()

    store = Store(database_url, migrate=False)
    try:
        changes = store.game_ratings(table_id, 0)
        assert changes is not None, "both played: the game is rated"
        assert [(c["result"], c["abandoned"]) for c in changes] == [("won", False), ("lost", True)]
    finally:
        store.close()


def test_who_played_is_stored_in_the_transaction_of_the_decision_that_makes_it_so(database_url: str) -> None:
    """Both or neither: a decision whose write fails takes who played (and who left) with it, so a crash between the
    two cannot leave a seat counted for a decision that is not stored (or a decision stored without its seat
    counted). A game stored before who played was kept stays unknown, never half known."""
    store = Store(database_url)
    try:
        seats = [StoredSeat(0, "human", "Amina", None, "ab" * 32), StoredSeat(1, "human", "Brahim", None, "cd" * 32)]
        for table_id in ("t1", "t2"):
            table = StoredTable(table_id, "2025-01-01T00:00:00+00:00", {"players": 2}, "classic", "playing", seats)
            store.write(store.new_table, table, dealer=1, deck=["1o"] * 40)
        declare = {"seat": 0, "declare": "none"}
        taken = Decision("t1", 0, 0, 0, declare, acted=(0,), left={1: "turns"})
        clash = Decision("t1", 0, 0, 0, declare)  # the same number again: the transaction fails
        with pytest.raises(IntegrityError):
            store.write(store.record_decisions, [taken, clash])
        (game,) = store.load_tables(["t1"])[0].games
        assert (game.acted, game.left) == ([], {}) and store.action_numbers("t1", 0) == []
        store.write(store.record_decisions, [taken])
        (game,) = store.load_tables(["t1"])[0].games
        assert (game.acted, game.left) == ([0], {1: "turns"})  # who left, and how: by letting turns pass

        with store.engine.begin() as db:  # t2's game as a server before migration 0005 left it
            db.execute(update(games_table).where(games_table.c.table_id == "t2").values(acted=None))
        store.write(store.record_decisions, [Decision("t2", 0, 0, 0, declare, acted=(0,))])
        assert store.load_tables(["t2"])[0].games[0].acted is None
    finally:
        store.close()
