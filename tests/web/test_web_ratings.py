"""Ratings through the server (docs/server.md, "Ratings"): real games played to their end over websockets.

A game among people is rated once, when its end is stored, and each player
sees their change; a game with a bot is not rated; a player who left past the
grace period loses; the leaderboard ranks; a player's page lists their games
but never another player's games at private tables to anyone else.

Each ``TestClient`` is one browser: its cookie is who it is (``person`` gives
it a kept name; ``be`` switches to another person's cookie).
"""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import func, select
from web_helpers import Client, new_table, play_out, random_chooser, seat_clients, server

from ronda.interfaces.web.accounts import COOKIE
from ronda.interfaces.web.store import rated_table

BOT = {"kind": "bot", "level": "random"}


def person(http: Any, name: str) -> tuple[str, str]:
    """A new browser choosing the name ``name``: its cookie and its player id."""
    http.cookies.clear()
    chosen = http.post("/api/me", json={"name": name})
    assert chosen.status_code == 201, chosen.text
    return str(http.cookies[COOKIE]), str(chosen.json()["id"])


def be(http: Any, cookie: str | None) -> None:
    """Ask as the browser holding ``cookie`` (``None``: one without a name)."""
    http.cookies.clear()
    if cookie is not None:
        http.cookies.set(COOKIE, cookie)


def seat_two(http: Any, public: bool = False, target: int = 3) -> tuple[str, dict[str, str], dict[int, str]]:
    """Amina makes a table of two for a friend and Brahim joins: the table, their cookies by name, the tokens."""
    amina, _ = person(http, "Amina")
    created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, {"kind": "human"}], target=target, public=public)
    brahim, _ = person(http, "Brahim")
    joined = http.post(f"/api/tables/{created['table_id']}/join", json={"name": "Brahim"})
    assert joined.status_code == 200, joined.text
    return created["table_id"], {"Amina": amina, "Brahim": brahim}, {0: created["token"], 1: joined.json()["token"]}


def rated(client: Client, timeout: float = 10.0) -> list[dict[str, Any]]:
    """The rating changes the table sends once the game's end is stored (read until they come)."""
    deadline = time.monotonic() + timeout
    while client.table is None or "ratings" not in client.table:
        assert time.monotonic() < deadline, "no rating change was sent"
        client.recv(timeout)
    return list(client.table["ratings"])


def play_two(http: Any, table_id: str, tokens: dict[int, str], seed: int = 3) -> dict[int, Client]:
    clients = seat_clients(http, table_id, tokens)
    play_out(clients.values(), random_chooser(random.Random(seed), challenge=0))
    return clients


def page_of(http: Any, who: str, cookie: str | None) -> dict[str, Any]:
    be(http, cookie)
    answer = http.get(f"/api/players/{who}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_game_between_two_people_rates_both_once_and_each_sees_the_change(tmp_path: Path, database_url: str) -> None:
    with server(tmp_path, database_url) as http:
        table_id, cookies, tokens = seat_two(http)
        clients = play_two(http, table_id, tokens)
        winner = clients[0].view["winner"]  # type: ignore[index]
        changes = rated(clients[0])
        assert rated(clients[1]) == changes  # both players are sent the same changes
        assert [c["seat"] for c in changes] == [0, 1]
        won, lost = changes[winner], changes[1 - winner]
        assert (won["result"], lost["result"]) == ("won", "lost")
        assert won["change"] > 0 > lost["change"] and won["after"] == won["before"] + won["change"]
        assert won["games"] == lost["games"] == 1 and won["provisional"] and not won["abandoned"]
        amina = page_of(http, "Amina", cookies["Amina"])
        (game,) = amina["games"]
        assert game["rated"] and game["rating"] == changes[0] and game["table_id"] == table_id
        assert game["replay"] == f"/t/{table_id}?replay&game=0"
        wins = int(changes[0]["result"] == "won")  # the rated games' wins and losses, as the leaderboard counts them
        standing = {"players": 2, "rating": changes[0]["after"], "provisional": True, "games": 1}
        assert amina["ratings"] == [{**standing, "wins": wins, "losses": 1 - wins}]
        # The write of the game's end sent again (a retry after a lost answer) rates nothing twice.
        store = http.app.state.lobby.journal.store
        scores = clients[0].view["scores"]  # type: ignore[index]
        store.write(store.finish_game, table_id, 0, winner, scores)
        with store.engine.connect() as db:
            assert db.execute(select(func.count()).select_from(rated_table)).scalar() == 2
    with server(tmp_path, database_url) as http:  # a restart: the same ratings, shown again at the finished table
        assert page_of(http, "Amina", None)["ratings"][0]["games"] == 1
        board = http.get("/api/leaderboard?players=2").json()
        names = ["Amina", "Brahim"]
        assert [p["name"] for p in board["provisional"]] == [names[winner], names[1 - winner]]  # the winner first
        assert board["ranked"] == []
        again = Client(http, table_id, tokens[0])
        again.hello()
        assert again.table is not None and again.table["ratings"] == changes


def test_a_game_with_a_bot_is_not_rated(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        cookie, _ = person(http, "Amina")
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, BOT], target=3, public=True)
        (me,) = seat_clients(http, created["table_id"], {0: created["token"]}).values()
        play_out([me], random_chooser(random.Random(5), challenge=0))
        me.sync()
        assert me.table is not None and "ratings" not in me.table
        (game,) = page_of(http, "Amina", cookie)["games"]
        assert game["rated"] is False and game["rating"] is None
        assert [s["kind"] for s in game["seats"]] == ["human", "bot"]
        board = http.get("/api/leaderboard?players=2").json()
        assert board["ranked"] == board["provisional"] == []


def test_a_player_who_left_past_the_grace_period_loses_the_rated_game(tmp_path: Path) -> None:
    with server(tmp_path, grace=0.5, stand_in="random") as http:
        person(http, "Amina")
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, {"kind": "human"}], target=11)
        table_id = created["table_id"]
        (me,) = seat_clients(http, table_id, {0: created["token"]}).values()
        person(http, "Brahim")
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Brahim"})
        assert joined.status_code == 200, joined.text
        (brahim,) = seat_clients(http, table_id, {1: joined.json()["token"]}).values()
        chooser = random_chooser(random.Random(11), challenge=0)
        # Brahim plays his first decision, then leaves: past the grace period the stand-in plays his seat to the
        # end, win or lose.
        play_out([me, brahim], chooser, until=lambda: brahim.acted_at >= 0)
        brahim.sync()
        brahim.close()
        play_out([me], chooser)
        changes = rated(me)
        assert [(c["result"], c["abandoned"]) for c in changes] == [("won", False), ("lost", True)]
        assert changes[1]["change"] < 0 < changes[0]["change"]
        # The computer was playing his seat as the game ended: the end screens may say so.
        assert me.table is not None and me.table["seats"][1]["left"] == "away"
        assert [s["ended_by_stand_in"] for s in me.table["seats"]] == [False, True]


def test_a_player_back_after_the_grace_period_is_told_so_and_the_end_says_he_played_his_seat(tmp_path: Path) -> None:
    """A newcomer's audit: Brahim closed his page past the grace period and came back. Meanwhile Amina's page
    could not tell that nobody played for him; back, his page could not tell him that the game counted as left by
    him; and the end screens credited the computer with his seat's last moves, his own. The summary says each: how
    long the table waits for him while he is away (``grace_left``), that the game counts as left by him once the
    grace period is over (``left``, also after he is back), and whether the computer was playing his seat when the
    game ended (``ended_by_stand_in``): not, since he played on to the end."""
    grace = 0.5
    with server(tmp_path, grace=grace, stand_in="random") as http:
        table_id, _, tokens = seat_two(http, target=11)
        clients = seat_clients(http, table_id, tokens)
        amina, brahim = clients[0], clients[1]
        chooser = random_chooser(random.Random(11), challenge=0)
        play_out([amina, brahim], chooser, until=lambda: brahim.acted_at >= 0)
        brahim.sync()
        amina.sync()
        assert amina.table is not None and (amina.table["rateable"], amina.table["grace"]) == (True, grace)
        here = amina.table["seats"][1]
        assert (here["left"], here["grace_left"], here["ended_by_stand_in"]) == (None, None, False)
        brahim.close()
        away = amina.expect("seats")["table"]["seats"][1]
        assert (away["connected"], away["stand_in"], away["left"]) == (False, False, None)
        assert 0 < away["grace_left"] <= grace  # the table waits for him: nobody plays for him yet
        gone = amina.expect("seats", timeout=5)["table"]["seats"][1]
        assert (gone["stand_in"], gone["left"], gone["grace_left"]) == (True, "away", None)
        back = Client(http, table_id, tokens[1])
        back.hello()
        assert back.table is not None
        mine = back.table["seats"][1]
        assert (mine["connected"], mine["stand_in"], mine["left"]) == (True, False, "away")  # said at once
        play_out([amina, back], chooser)  # he plays himself to the end
        amina.sync()
        assert [(c["result"], c["abandoned"]) for c in rated(amina)] == [("won", False), ("lost", True)]
        end = amina.table["seats"][1]
        assert (end["left"], end["ended_by_stand_in"]) == ("away", False)


def test_a_second_name_that_never_plays_earns_its_opponent_nothing(tmp_path: Path) -> None:
    """The audit's farm: a person seats a throwaway name that never connects and lets the stand-in lose for it,
    again and again by rematch. A game in which a person never made a decision of their own is no contest: unrated,
    for both, whoever wins on the board."""
    with server(tmp_path, grace=0, stand_in="random") as http:
        table_id, cookies, tokens = seat_two(http)
        (me,) = seat_clients(http, table_id, {0: tokens[0]}).values()
        chooser = random_chooser(random.Random(11), challenge=0)
        play_out([me], chooser)
        me.sync()
        assert me.table is not None and "ratings" not in me.table
        me.send({"type": "rematch"})  # the throwaway is away: the rematch starts at once, and is no contest either
        me.expect("state")
        play_out([me], chooser)
        me.sync()
        assert me.table is not None and "ratings" not in me.table
        games = page_of(http, "Amina", cookies["Amina"])["games"]
        assert len(games) == 2 and not any(game["rated"] for game in games)
        assert http.get("/api/leaderboard?players=2").json()["provisional"] == []
        store = http.app.state.lobby.journal.store
        with store.engine.connect() as db:
            assert db.execute(select(func.count()).select_from(rated_table)).scalar() == 0


def test_the_leaderboard_ranks_players_past_their_provisional_games_best_first(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        table_id, _, tokens = seat_two(http)
        play_two(http, table_id, tokens)
        store = http.app.state.lobby.journal.store
        for game in range(1, 10):  # nine more results of the same two players, all won by Brahim (seat 1)
            store.write(store.rate_game, table_id, game, 1, [0, 3])
        board = http.get("/api/leaderboard?players=2").json()
        assert [p["name"] for p in board["ranked"]] == ["Brahim", "Amina"]
        assert [p["rank"] for p in board["ranked"]] == [1, 2] and board["provisional"] == []
        first, second = board["ranked"]
        assert first["rating"] > second["rating"] and first["games"] == 10 and not first["provisional"]
        assert first["wins"] + first["losses"] == 10 and first["wins"] >= 9
        assert http.get("/api/leaderboard?players=3").json()["ranked"] == []


def test_a_players_page_hides_their_private_games_from_everyone_else(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        private_id, cookies, tokens = seat_two(http, public=False)
        play_two(http, private_id, tokens)
        be(http, cookies["Amina"])
        public = new_table(http, 2, [{"kind": "human", "name": "Amina"}, BOT], target=3, public=True)
        (me,) = seat_clients(http, public["table_id"], {0: public["token"]}).values()
        play_out([me], random_chooser(random.Random(2), challenge=0))
        chama, _ = person(http, "Chama")
        mine = page_of(http, "Amina", cookies["Amina"])
        assert mine["you"] and {g["table_id"] for g in mine["games"]} == {private_id, public["table_id"]}
        assert sum(r["wins"] + r["losses"] for r in mine["record"]) == 2
        for other in (chama, cookies["Brahim"], None):  # a stranger, the opponent of that game, nobody known
            be(http, other)
            answer = http.get("/api/players/Amina")
            assert answer.status_code == 200
            assert private_id not in answer.text and "Brahim" not in answer.text
            shown = answer.json()
            assert not shown["you"] and [g["table_id"] for g in shown["games"]] == [public["table_id"]]
            assert sum(r["wins"] + r["losses"] for r in shown["record"]) == 1


def test_an_unknown_player_and_a_bad_player_count_are_refused_naming_the_problem(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        _, amina = person(http, "Amina")
        missing = http.get("/api/players/Nobody")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        assert "there is no player 'Nobody'" in missing.json()["error"]["message"]
        assert http.get("/api/players/AMINA").json()["player_id"] == amina  # a name, ignoring case
        for garbage in ("5", "two", "", "2;drop"):
            refused = http.get(f"/api/leaderboard?players={garbage}")
            assert refused.status_code == 400, refused.text
            assert "players is 2, 3 or 4" in refused.json()["error"]["message"]


def test_two_strangers_who_only_typed_their_names_in_play_now_play_a_rated_game(tmp_path: Path) -> None:
    """Nobody chose a name in the "You" panel: the names typed to play now are kept, so the game is rated."""
    with server(tmp_path) as http:
        asked = http.post("/api/play", json={"players": 2, "preset": "short", "name": "Amina"})
        assert asked.status_code == 202, asked.text
        amina = http.cookies[COOKIE]
        http.cookies.clear()  # another browser
        seated = http.post("/api/play", json={"players": 2, "preset": "short", "name": "Brahim"})
        assert seated.status_code == 200, seated.text
        brahim = http.cookies[COOKIE]
        be(http, amina)
        mine = http.get(f"/api/play/{asked.json()['ticket']}").json()
        table_id = seated.json()["table_id"]
        clients = play_two(http, table_id, {mine["seat"]: mine["token"], seated.json()["seat"]: seated.json()["token"]})
        changes = rated(clients[0])
        assert [c["seat"] for c in changes] == [0, 1] and {c["result"] for c in changes} == {"won", "lost"}
        for name, cookie in (("Amina", amina), ("Brahim", brahim)):
            (game,) = page_of(http, name, cookie)["games"]
            assert game["rated"] and game["table_id"] == table_id


def test_a_player_who_stays_connected_and_never_moves_cannot_win_by_stalling(tmp_path: Path) -> None:
    """The audit's stall: Brahim, losing, stays connected and never moves, so that Amina gives up and leaves and
    loses as a leaver. With a turn clock, the stand-in makes each decision he lets pass; three in a row and he
    counts as having left: the game goes on for Amina, and he loses it rated."""
    with server(tmp_path, grace=30, turn_time=0.05, stand_in="random") as http:
        table_id, _, tokens = seat_two(http, target=6)
        clients = seat_clients(http, table_id, tokens)
        amina, brahim = clients[0], clients[1]
        play_out([amina, brahim], random_chooser(random.Random(4), challenge=0), until=lambda: brahim.acted_at >= 0)
        play_out([amina], random_chooser(random.Random(5), challenge=0))  # Brahim, connected, moves no more
        brahim.sync()
        assert brahim.over and not brahim.closed
        changes = rated(amina)
        assert [(c["result"], c["abandoned"]) for c in changes] == [("won", False), ("lost", True)]
        summary = http.get(f"/api/tables/{table_id}").json()
        assert [seat["connected"] for seat in summary["seats"]] == [True, True]
        # Left by letting turns pass, not by going away; the computer played his seat to the end.
        assert [(seat["left"], seat["ended_by_stand_in"]) for seat in summary["seats"]] == [
            (None, False), ("turns", True),
        ]  # fmt: skip


def test_a_player_who_never_moves_at_all_loses_the_rated_game_and_the_stand_in_plays_on(tmp_path: Path) -> None:
    """An audit voided rated games by staying connected and never moving (a game with a seat that never played
    was unrated) and kept the other waiting a whole turn time for every decision. Now a person there when their
    time runs out took part; after three in a row the stand-in plays on for them at the table's pace."""
    with server(tmp_path, grace=30, turn_time=0.3, stand_in="random") as http:
        # To 15: before the dodger's third decision Amina can score 9 at most (a tringa taking a ronda's point too,
        # a missa, then a caida and a missa); to 6 a random deck let her win first, and the dodger's clock ran out
        # twice only (a CI run).
        table_id, _, tokens = seat_two(http, target=15)
        clients = seat_clients(http, table_id, tokens)
        amina, dodger = clients[0], clients[1]
        started = time.monotonic()
        play_out([amina], random_chooser(random.Random(8), challenge=0), timeout=60)
        dodger.sync()
        assert dodger.over and sum(m["type"] == "turn_over" for m in dodger.messages) == 3  # then the stand-in
        assert time.monotonic() - started < 20  # not 0.3 s for each of the dodger's decisions of the game
        changes = rated(amina)
        assert [(c["result"], c["abandoned"]) for c in changes] == [("won", False), ("lost", True)]


def test_leaving_and_coming_back_does_not_start_a_fresh_clock_for_the_same_decision(tmp_path: Path) -> None:
    """An audit put off its decision for ever by disconnecting just before its time ran out and coming back: each
    hello started a full clock. A decision has one deadline; coming back after it, the stand-in moves at once."""
    with server(tmp_path, grace=30, turn_time=1.0, stand_in="random") as http:
        table_id, _, tokens = seat_two(http, target=6)
        clients = seat_clients(http, table_id, tokens)
        seat, owed = next((s, c) for s, c in clients.items() if c.legal)
        at, owed_since = owed.version, time.monotonic()
        owed.close()
        time.sleep(1.3)  # away past the decision's deadline (the grace period is far longer)
        back = Client(http, table_id, tokens[seat])
        returned = time.monotonic()
        state = back.hello()
        assert state["version"] == at and state["clock"] == 0.0  # the page is told the time is up
        assert back.expect("turn_over", timeout=3)["type"] == "turn_over"
        assert time.monotonic() - returned < 0.8 < time.monotonic() - owed_since  # at once: no fresh 1 s clock
        assert back.expect("update")["version"] == at + 1  # the stand-in made the decision


def test_a_turn_let_pass_once_is_played_for_the_player_who_then_plays_on(tmp_path: Path) -> None:
    with server(tmp_path, grace=30, turn_time=0.5, stand_in="random") as http:
        table_id, _, tokens = seat_two(http, target=6)
        clients = seat_clients(http, table_id, tokens)
        owed = next(c for c in clients.values() if c.legal)
        at = owed.version
        deadline = time.monotonic() + 10
        while owed.version == at:  # nobody moves: the clock makes that one decision
            assert time.monotonic() < deadline, "the clock made no decision"
            owed.recv()
        other = next(c for c in clients.values() if c is not owed)
        other.sync()
        assert {"type": "turn_over"} in owed.messages  # told to the seat whose time ran out, to it alone
        assert not any(m["type"] == "turn_over" for m in other.messages)
        play_out(clients.values(), random_chooser(random.Random(6), challenge=0))
        for client in clients.values():
            assert not client.errors()
        changes = rated(clients[0])
        assert not any(c["abandoned"] for c in changes)  # one turn let pass is no leaving


def test_a_table_that_left_memory_still_knows_who_never_played_in_its_game(
    tmp_path: Path, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The farm across an idle table: Amina plays, the second name never comes, and the table leaves memory
    (nobody there past ``--close-after``). Opened again, it is rebuilt from the store, which kept who played: the
    game is still no contest, not rated as the rebuilt table once rated every game (every seat trusted).

    A grace period, not 0: the rebuilt table starts Amina's before her hello arrives, and her leaving too would
    leave the game unrated for another reason (no side stayed)."""
    caplog.set_level(logging.INFO, logger="ronda.web")
    # Idle a second, not less: a table nobody has connected to yet leaves memory too, and on a loaded machine
    # Amina's first hello came after 0.2 s (the page reconnects to a moved table; this test's client does not).
    with server(tmp_path, database_url, grace=1, stand_in="random", close_after=1.0) as http:
        table_id, _, tokens = seat_two(http, target=12)
        (me,) = seat_clients(http, table_id, {0: tokens[0]}).values()
        chooser = random_chooser(random.Random(13), challenge=0)
        play_out([me], chooser, until=lambda: me.acted_at >= 0)
        me.sync()
        me.close()
        deadline = time.monotonic() + 10
        while table_id in http.app.state.lobby.tables:
            assert time.monotonic() < deadline, "the table stayed in memory"
            time.sleep(0.05)
        back = Client(http, table_id, tokens[0])  # rebuilt from the store
        assert back.hello()["view"]["phase"] != "game_over"
        play_out([back], chooser)
        back.sync()
        assert back.table is not None and "ratings" not in back.table
        store = http.app.state.lobby.journal.store
        assert store.game_ratings(table_id, 0) is None
        assert store.load_tables([table_id])[0].games[0].acted == [0]
    assert f"table {table_id}: game 0 is not rated: seats [1] never played in it" in caplog.text


def _deck_won_by_its_deal(players: int = 2) -> list[int]:
    """A deck whose first deal decides a game to 1 point with automatic declarations, whoever deals: one hand
    holds a ronda, the other nothing (R8.2, R8.5, R9.3)."""
    from ronda import Game, Rules
    from ronda.engine.deck import shuffled_deck

    rules = Rules(players=players, target=1, auto_declare=True)
    for seed in range(100_000):
        deck = shuffled_deck(rules, random.Random(seed))
        if all(Game(rules, decks=[deck], dealer=d).view(0).winner is not None for d in range(players)):
            return deck
    raise AssertionError("no such deck")


def test_games_their_deal_wins_are_not_rated_and_their_table_stays_finished_for_play_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attacker's audit: with automatic declarations and a target of 1, a deal can win the game before anyone
    decides anything. Such games were rated — a second name asking for Play again farmed 6-0 in 15 rematches —
    and a table whose first game its deal won before the friend joined was set playing again, with no move to
    make and Play again refused, for good. Now neither game is rated, and the table plays again."""
    import ronda.interfaces.web.lobby as lobby_module
    import ronda.interfaces.web.tables as tables_module

    deck = _deck_won_by_its_deal()
    monkeypatch.setattr(lobby_module, "shuffled_deck", lambda rules, rng: list(deck))
    monkeypatch.setattr(tables_module, "shuffled_deck", lambda rules, rng: list(deck))
    with server(tmp_path) as http:
        amina, _ = person(http, "Amina")
        seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}]
        created = new_table(http, 2, seats, target=1, variants={"auto_declare": True})
        table_id = created["table_id"]
        assert http.get(f"/api/tables/{table_id}").json()["status"] == "finished"  # won by its deal
        brahim, _ = person(http, "Brahim")
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Brahim"})
        assert joined.status_code == 200, joined.text
        summary = http.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "finished" and summary["winner"] is not None  # not set playing with no move
        clients = seat_clients(http, table_id, {0: created["token"], 1: joined.json()["token"]})
        for client in clients.values():
            client.send({"type": "rematch"})
        for client in clients.values():
            while client.table is None or client.table.get("game") != 1:
                message = client.recv()
                assert message["type"] != "error", message
        assert http.get(f"/api/tables/{table_id}").json()["winner"] is not None  # the rematch's deal won it too
        for name, cookie in (("Amina", amina), ("Brahim", brahim)):
            page = page_of(http, name, cookie)
            assert all(entry["games"] == 0 for entry in page["ratings"]), page["ratings"]  # neither game rated


def test_a_person_who_connects_when_their_decision_is_due_is_told_their_clock_at_once(tmp_path: Path) -> None:
    """An attacker's audit: the clock of a decision starts when its person is there, so the hello of a person whose
    decision was waiting for them was answered before the deadline was set (``clock`` null), no later message said
    it, and the page counted down from the turn time while the server allowed its own (60 s more at a round's
    first decision). The state that answers the hello carries the clock now."""
    with server(tmp_path, grace=30, turn_time=40, stand_in="random") as http:
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, BOT])
        client = Client(http, created["table_id"], created["token"])
        answer = client.hello()
        assert answer["type"] == "state" and client.legal, answer  # her declaration is due (seat 0 speaks first)
        assert answer["clock"] is not None and 35 <= answer["clock"] <= 40, answer["clock"]
        client.close()
