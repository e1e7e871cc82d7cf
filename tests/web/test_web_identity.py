"""A name you keep, without signing up: a browser chooses a name once, a cookie keeps it, every seat it takes
records the player, and no other person can take a name that looks like it (or like a bot's).

Each ``TestClient`` is one browser: it keeps the cookies the server sets; clearing them is another browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from web_helpers import new_table, server

from ronda.interfaces.web.accounts import COOKIE
from ronda.interfaces.web.forms import name_keys
from ronda.interfaces.web.store import (
    PlayerSeat,
    Store,
    StoredPlayer,
    StoredSeat,
    StoredSession,
    StoredTable,
    names_table,
    players_table,
    sessions_table,
)

BOT = {"kind": "bot", "level": "random"}
EVIL = {"Origin": "https://evil.example"}


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def choose(http: Any, name: str) -> Any:
    return http.post("/api/me", json={"name": name})


def store_of(http: Any) -> Any:
    return http.app.state.lobby.journal.store


def rows(http: Any, table: Any) -> list[Any]:
    with store_of(http).engine.connect() as db:
        return list(db.execute(select(table)).all())


def test_a_name_is_chosen_once_and_kept_by_an_httponly_cookie(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        assert http.get("/api/me").json() == {"id": None, "name": None, "account": False, "username": None}
        chosen = choose(http, "Amina")
        assert chosen.status_code == 201, chosen.text
        me = chosen.json()
        assert me["name"] == "Amina" and me["account"] is False and me["id"]
        cookie = chosen.headers["set-cookie"]
        attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
        assert {"httponly", "path", "max-age"} <= attributes and "secure" not in attributes  # plain http here
        assert "samesite=lax" in cookie.lower() and "path=/" in cookie.lower()
        assert http.get("/api/me").json() == me  # the cookie is who I am
        again = choose(http, "Brahim")
        assert "you already play as 'Amina'" in error_of(again, 409, "name_kept")
        assert http.get("/api/me").json()["name"] == "Amina"
        token = http.cookies[COOKIE]
        (session,) = rows(http, sessions_table)
        assert token not in str(session) and len(session.token_hash) == 64  # only the token's hash is stored
        assert [p.name for p in rows(http, players_table)] == ["Amina"]


def test_over_https_the_cookie_is_secure(tmp_path: Path) -> None:
    with server(tmp_path, forwarded=True) as http:
        chosen = http.post("/api/me", json={"name": "Amina"}, headers={"X-Forwarded-Proto": "https"})
        assert chosen.status_code == 201, chosen.text
        assert "secure" in chosen.headers["set-cookie"].lower()


def test_every_seat_a_player_takes_records_them_under_the_name_they_keep(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        other = new_table(http, 3, [{"kind": "human", "name": "Stranger"}, {"kind": "human"}, BOT])
        me = choose(http, "Amina").json()
        created = new_table(http, 2, [{"kind": "human", "name": "Someone else"}, BOT])  # the kept name wins
        assert created["name"] == "Amina"
        joined = http.post(f"/api/tables/{other['table_id']}/join", json={"name": "Zineb"})
        assert joined.json()["name"] == "Amina"  # a seat joined at a stranger's table
        played = http.post("/api/play", json={"players": 2, "bots_after": 0})
        assert played.status_code == 200, played.text
        seats = store_of(http).games_of(me["id"])
        tables = {created["table_id"], other["table_id"], played.json()["table_id"]}
        assert {s.table_id for s in seats} == tables and len(seats) == 3
        for seat in seats:
            summary = http.get(f"/api/tables/{seat.table_id}").json()
            assert summary["seats"][seat.seat]["name"] == "Amina"
        assert store_of(http).player_of("0" * 64) is None
        http.cookies.clear()  # another browser, without a name: its seats are nobody's
        new_table(http, 2, [{"kind": "human", "name": "Brahim"}, BOT])
        assert len(store_of(http).games_of(me["id"])) == 3


LOOKALIKES = [
    ("B\u043et 2", 400, "bad_request", "could be taken for a bot"),  # the Cyrillic o
    ("medium", 400, "bad_request", "could be taken for a bot"),  # the stand-in's level
    ("Guest 3", 400, "bad_request", "play now calls people without a name"),
    ("Guest 1", 400, "bad_request", "play now calls people without a name"),  # the first nameless seat's name
    ("GUEST l", 400, "bad_request", "play now calls people without a name"),  # a small L for the 1
    ("\u0410mina", 409, "name_taken", "already called 'Amina'"),  # a Cyrillic capital A
    ("AMINA", 409, "name_taken", "already called 'Amina'"),
    ("Ami\u200dna", 409, "name_taken", "already called 'Amina'"),  # a zero-width joiner
    ("Amina\u2800", 409, "name_taken", "already called 'Amina'"),  # a Braille blank, drawn as nothing
    ("Ami\u0307na", 409, "name_taken", "already called 'Amina'"),  # a combining dot above
    ("Guest 1\u2800", 400, "bad_request", "play now calls people without a name"),
    ("Guest ab12", 400, "bad_request", "play now calls people without a name"),  # play now's other fallback name
    ("Guest #1", 400, "bad_request", "play now calls people without a name"),
    ("Guest-1", 400, "bad_request", "play now calls people without a name"),
    ("Seat: 2", 400, "bad_request", "could be taken for a bot"),
]


@pytest.mark.parametrize(("name", "status", "code", "words"), LOOKALIKES)
def test_a_name_that_looks_like_a_bots_or_a_players_is_refused_and_nothing_is_kept(
    tmp_path: Path, name: str, status: int, code: str, words: str
) -> None:
    with server(tmp_path) as http:
        choose(http, "Amina")
        http.cookies.clear()
        assert words in error_of(choose(http, name), status, code)
        assert http.get("/api/me").json()["id"] is None and COOKIE not in http.cookies
        assert [p.name for p in rows(http, players_table)] == ["Amina"]


@pytest.mark.parametrize("name", ["Guestan", "Guests", "Youssef", "Robotnik", "Jean-Luc"])
def test_a_name_that_only_contains_a_reserved_word_can_be_kept(tmp_path: Path, name: str) -> None:
    with server(tmp_path) as http:
        chosen = choose(http, name)
        assert chosen.status_code in (200, 201), chosen.text
        assert http.get("/api/me").json()["name"] == name


def test_a_name_with_a_tatweel_kept_before_tatweels_were_folded_is_still_nobody_elses(tmp_path: Path) -> None:
    """A player kept "محـمد" when its only key kept the tatweel: typed again, the same name is still theirs."""
    stretched = "\u0645\u062d\u0640\u0645\u062f"
    with server(tmp_path) as http:
        store = store_of(http)
        store.write(
            store.add_player,
            StoredPlayer("p1", "2026-01-01T00:00:00+00:00", stretched),
            frozenset({stretched}),  # the key that name had then: the tatweel kept
            session("s1", "p1"),
        )
        refused = choose(http, stretched)
        assert f"a player on this server is already called {stretched!r}" in error_of(refused, 409, "name_taken")
        assert [p.name for p in rows(http, players_table)] == [stretched]


def test_a_person_without_a_kept_name_cannot_sit_under_a_players_name(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        choose(http, "Amina")
        http.cookies.clear()
        created = http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human", "name": "\u0430mina"}, BOT]})
        assert "a player on this server is already called 'Amina'" in error_of(created, 409, "name_taken")
        table_id = new_table(http, 3, [{"kind": "human", "name": "Brahim"}, {"kind": "human"}, BOT])["table_id"]
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "AMINA"})
        error_of(joined, 409, "name_taken")
        assert http.get(f"/api/tables/{table_id}").json()["seats"][1]["taken"] is False
        error_of(http.post("/api/play", json={"players": 2, "name": "Amina"}), 409, "name_taken")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": 5}, "a player's name is text, not 5"),
        ({}, 'choosing a name needs a "name"'),
        ({"name": "Amina", "admin": True}, "unknown field 'admin'"),
        ([1, 2], "the body must be a JSON object"),
        ({"name": "x" * 25}, "a name is 24 letters at most: 'xxxxxxxxxxxxxxxxxxxxxxxxx' has 25"),
        ({"name": "\u200d\u3164"}, "type a name: 1 to 24 letters"),
    ],
)
def test_a_bad_name_body_is_refused_naming_the_problem(tmp_path: Path, body: Any, words: str) -> None:
    with server(tmp_path) as http:
        assert words in error_of(http.post("/api/me", json=body), 400, "bad_request")
        assert not rows(http, players_table) and not rows(http, names_table)
        error_of(
            http.post("/api/me", content=b"{not json", headers={"Content-Type": "application/json"}), 400, "bad_json"
        )


def test_a_cookie_that_is_no_session_is_no_identity(tmp_path: Path) -> None:
    """A guessed, stolen-then-ended or garbage cookie gets 401, never a stranger's seat or a new name."""
    with server(tmp_path) as http:
        http.cookies.set(COOKIE, "made-up-token")
        assert "log in again, or continue as a new guest" in error_of(http.get("/api/me"), 401, "session_ended")
        made = http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human", "name": "Amina"}, BOT]})
        error_of(made, 401, "session_ended")
        error_of(http.post("/api/play", json={"players": 2}), 401, "session_ended")
        assert not http.app.state.lobby.tables and not rows(http, players_table)


def test_another_sites_page_cannot_choose_a_name(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        error_of(http.post("/api/me", json={"name": "Amina"}, headers=EVIL), 403, "bad_origin")
        assert http.get("/api/me").json()["id"] is None and not rows(http, players_table)


def test_two_players_names_that_look_alike_cannot_both_be_stored(database_url: str) -> None:
    """The store itself refuses a second look-alike name (its keys are primary keys): two servers choosing names at
    once cannot both take "Amina" and "AMINA" — on SQLite and PostgreSQL alike; and a seat records its player."""
    store = Store(database_url)
    try:
        first = StoredPlayer("p1", "2026-01-01T00:00:00+00:00", "Amina")
        store.write(store.add_player, first, name_keys("Amina"), session("s1", "p1"))
        second = StoredPlayer("p2", "2026-01-01T00:00:01+00:00", "AMINA")
        with pytest.raises(IntegrityError):
            store.write(store.add_player, second, name_keys("AMINA"), session("s2", "p2"))
        assert store.name_holder(name_keys("\u0410mina")) == StoredPlayer("p1", first.created, "Amina")
        assert store.player_of("s1" * 32) == first and store.player_of("s2" * 32) is None
        seats = [
            StoredSeat(0, "human", "Amina", None, "ab" * 32, player_id="p1"),
            StoredSeat(1, "bot", "bot", "easy", None),
        ]
        store.write(store.add_table, StoredTable("t1", first.created, {"players": 2}, "classic", "waiting", seats))
        assert store.games_of("p1") == [PlayerSeat("t1", first.created, 0, "waiting")] and store.games_of("p2") == []
    finally:
        store.close()


def session(session_id: str, player_id: str) -> StoredSession:
    when = "2026-01-01T00:00:00+00:00"
    return StoredSession(session_id, player_id, session_id * 32, when, when, "Firefox on Linux", "10.0.0.1")


# ------------------------------------------------ the name typed the first time is kept

HOSTED = [{"kind": "human", "name": "Host"}, {"kind": "human"}, BOT]


def first_seat(http: Any, how: str, name: str) -> Any:
    """A browser without a name takes its first seat by ``how``, typing ``name`` (join: at a script's table)."""
    if how == "create":
        return http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human", "name": name}, BOT]})
    if how == "join":
        table_id = new_table(http, 3, HOSTED)["table_id"]  # the host keeps no name: no cookie
        return http.post(f"/api/tables/{table_id}/join", json={"name": name})
    return http.post("/api/play", json={"players": 2, "name": name, "bots_after": 0})


@pytest.mark.parametrize("how", ["create", "join", "play"])
def test_the_name_typed_for_a_first_seat_is_kept_and_used_for_every_seat_after(tmp_path: Path, how: str) -> None:
    with server(tmp_path) as http:
        first = first_seat(http, how, "Amina")
        assert first.status_code in (200, 201), first.text
        cookie = first.headers["set-cookie"]
        assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower() and COOKIE in http.cookies
        me = http.get("/api/me").json()
        assert me["name"] == "Amina" and me["id"] and me["account"] is False
        # A second table with no name typed: the seat is the kept name's, and the player's.
        second = http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}, BOT]})
        assert second.status_code == 201 and second.json()["name"] == "Amina"
        assert len(store_of(http).games_of(me["id"])) == 2
        assert [p.name for p in rows(http, players_table)] == ["Amina"]
        http.cookies.clear()  # another browser typing a look-alike of the name kept that first time
        assert "already called 'Amina'" in error_of(first_seat(http, how, "AMINA"), 409, "name_taken")


@pytest.mark.parametrize("how", ["create", "join", "play"])
@pytest.mark.parametrize(
    ("name", "status", "code", "words"),
    [
        ("\u0410mina", 409, "name_taken", "already called 'Amina', and '\u0410mina' looks the same"),
        ("B\u043et 2", 400, "bad_request", "could be taken for a bot"),
    ],
)
def test_a_first_name_like_a_kept_one_or_a_bots_is_refused_and_nothing_is_made(
    tmp_path: Path, how: str, name: str, status: int, code: str, words: str
) -> None:
    with server(tmp_path) as http:
        choose(http, "Amina")
        http.cookies.clear()
        host = new_table(http, 3, HOSTED)  # for the join; made before, by a script
        tables = set(http.app.state.lobby.tables)
        if how == "join":
            refused = http.post(f"/api/tables/{host['table_id']}/join", json={"name": name})
        else:
            refused = first_seat(http, how, name)
        assert words in error_of(refused, status, code)
        assert "set-cookie" not in refused.headers and http.get("/api/me").json()["id"] is None
        assert [p.name for p in rows(http, players_table)] == ["Amina"]  # no player
        assert set(http.app.state.lobby.tables) == tables  # no table
        assert http.get(f"/api/tables/{host['table_id']}").json()["seats"][1]["taken"] is False  # no seat
        waiting = http.post("/api/play", json={"players": 2, "name": "Zineb", "keep": False}).json()
        assert waiting["status"] == "waiting" and waiting["others"] == 0  # no ticket left waiting


def test_a_browser_keeping_a_name_joins_without_typing_one_as_it_creates(tmp_path: Path) -> None:
    """A join asked for a "name" it then did not use: with a kept name, a join needs none, as a create does; a name
    typed is read as create reads it ("Bot 2" is refused at both), and the answer says the name the seat took."""
    with server(tmp_path) as http:
        bodies: list[dict[str, Any]] = [{}, {"seat": 1}, {"name": None}]
        tables = [new_table(http, 3, HOSTED)["table_id"] for _ in range(len(bodies) + 1)]
        choose(http, "Amina")
        for table_id, body in zip(tables, bodies, strict=False):  # the last table is left for the refusals
            joined = http.post(f"/api/tables/{table_id}/join", json=body)
            assert joined.status_code == 200 and joined.json()["name"] == "Amina", (body, joined.text)
            assert http.get(f"/api/tables/{table_id}").json()["seats"][1]["name"] == "Amina"
        made = http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human", "name": "Bot 2"}, BOT]})
        assert "could be taken for a bot" in error_of(made, 400, "bad_request")
        joined = http.post(f"/api/tables/{tables[3]}/join", json={"name": "Bot 2"})
        assert "could be taken for a bot" in error_of(joined, 400, "bad_request")
        assert http.get(f"/api/tables/{tables[3]}").json()["seats"][1]["taken"] is False
        http.cookies.clear()  # a browser that keeps no name must type one
        nameless = http.post(f"/api/tables/{tables[3]}/join", json={"seat": 1})
        assert error_of(nameless, 400, "bad_request") == 'a join needs your "name"'
        assert "set-cookie" not in nameless.headers
        assert http.get(f"/api/tables/{tables[3]}").json()["seats"][1]["taken"] is False
        assert [p.name for p in rows(http, players_table)] == ["Amina"]


def test_a_join_refused_for_its_seat_keeps_no_name(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        table_id = new_table(http, 3, HOSTED)["table_id"]
        join = f"/api/tables/{table_id}/join"
        assert "seats 0 to 2" in error_of(http.post(join, json={"name": "Amina", "seat": 7}), 400, "bad_request")
        assert "bot" in error_of(http.post(join, json={"name": "Amina", "seat": 2}), 409, "seat_taken")
        assert "already called 'Host'" in error_of(http.post(join, json={"name": "HOST"}), 409, "name_taken")
        error_of(http.post("/api/tables/nothing/join", json={"name": "Amina"}), 404, "not_found")
        assert not rows(http, players_table) and COOKIE not in http.cookies


def test_a_script_saying_keep_false_sits_under_a_name_for_that_table_only(tmp_path: Path) -> None:
    """``"keep": false``: what benchmarks/load.py sends, so that its thousands of tables reserve no names."""
    with server(tmp_path) as http:
        seats = [{"kind": "human", "name": "Load 0"}, BOT]
        for _ in range(2):
            made = http.post("/api/tables", json={"players": 2, "seats": seats, "keep": False})
            assert made.status_code == 201 and made.json()["name"] == "Load 0"
            assert "set-cookie" not in made.headers
        assert not rows(http, players_table) and http.get("/api/me").json()["id"] is None
        bad = http.post("/api/tables", json={"players": 2, "seats": seats, "keep": "no"})
        assert "keep is true or false, not 'no'" in error_of(bad, 400, "bad_request")
        choose(http, "Amina")
        http.cookies.clear()
        refused = http.post(
            "/api/tables", json={"players": 2, "seats": [{"kind": "human", "name": "AMINA"}, BOT], "keep": False}
        )
        error_of(refused, 409, "name_taken")  # a kept name is still nobody else's, kept or not
