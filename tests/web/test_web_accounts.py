"""An optional account keeps a player's name across devices: a username and a password (Argon2), logins limited
per address and per username, sessions listed and revocable, logout; every bad input refused, naming the problem.

Each ``TestClient`` keeps the cookies the server sets, as one browser does; a second browser is a second
``TestClient`` on the same app (:func:`second_browser`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import httpx
from sqlalchemy import select
from test_web_identity import BOT, EVIL, choose, error_of, rows, store_of
from web_helpers import Server, server

from ronda.interfaces.web.accounts import ACCOUNT_LOGIN_RATE, COOKIE, LOGIN_RATE, Logins
from ronda.interfaces.web.rates import TokenBuckets
from ronda.interfaces.web.store import players_table, sessions_table

PASSWORD = "correct horse battery"


class Browser:
    """Another browser on the same running server: a cookie jar (and headers) of its own, swapped in for each request.

    (A second ``TestClient`` would start the app a second time.)
    """

    def __init__(self, http: Server, headers: dict[str, str]) -> None:
        self.http, self.headers, self.cookies = http, headers, httpx.Cookies()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        pass

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        saved = httpx.Cookies(self.http.cookies)
        self.http.cookies = self.cookies
        try:
            headers = {**self.headers, **kwargs.pop("headers", {})}
            return self.http.request(method, url, headers=headers, **kwargs)
        finally:
            self.cookies = httpx.Cookies(self.http.cookies)
            self.http.cookies = saved

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        return self.request("POST", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> Any:
        return self.request("DELETE", url, **kwargs)


def second_browser(http: Server, **headers: str) -> Browser:
    return Browser(http, headers)


@pytest.fixture
def amina(tmp_path: Path) -> Iterator[Server]:
    """A server where this browser chose "Amina" and made the account "amina"."""
    with server(tmp_path, forwarded=True) as http:
        choose(http, "Amina")
        made = http.post("/api/me/account", json={"username": "Amina", "password": PASSWORD})
        assert made.status_code == 201, made.text
        yield http


def login(http: Any, username: str = "amina", password: str = PASSWORD, **headers: str) -> Any:
    return http.post("/api/me/login", json={"username": username, "password": password}, headers=headers)


def test_an_account_keeps_the_name_and_stores_only_an_argon2_hash(amina: Server) -> None:
    me = amina.get("/api/me").json()
    assert me["name"] == "Amina" and me["account"] is True and me["username"] == "amina"
    (player,) = rows(amina, players_table)
    assert player.password_hash.startswith("$argon2id$") and PASSWORD not in player.password_hash
    again = amina.post("/api/me/account", json={"username": "other", "password": PASSWORD})
    assert "you already have an account, 'amina'" in error_of(again, 409, "has_account")
    with second_browser(amina) as other:
        choose(other, "Brahim")
        taken = other.post("/api/me/account", json={"username": "AMINA", "password": PASSWORD})
        assert "the username 'amina' is taken" in error_of(taken, 409, "username_taken")
        assert other.get("/api/me").json()["account"] is False


def test_logging_in_on_another_device_is_the_same_player_and_its_seats_are_theirs(
    amina: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # everything any logger says while passwords go by
    me = amina.get("/api/me").json()
    with second_browser(amina) as phone:
        wrong = login(phone, password="not the password")
        assert error_of(wrong, 401, "wrong_password") == "no account has this username and password"
        unknown = login(phone, username="nobody")
        assert error_of(unknown, 401, "wrong_password") == "no account has this username and password"
        assert phone.get("/api/me").json()["id"] is None
        logged = login(phone, username="AMINA")  # usernames ignore case
        assert logged.status_code == 200, logged.text
        assert logged.json() == me
        assert phone.get("/api/me").json() == me and phone.cookies[COOKIE] != amina.cookies[COOKIE]
        made = phone.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}, BOT]})
        assert made.json()["name"] == "Amina"
        assert [s.table_id for s in store_of(amina).games_of(me["id"])] == [made.json()["table_id"]]
    assert caplog.records and PASSWORD not in caplog.text and "not the password" not in caplog.text


def test_sessions_are_listed_and_a_revoked_one_is_no_identity(amina: Server) -> None:
    phone_headers = {"User-Agent": "Mozilla/5.0 (Android 14) Firefox/120.0", "X-Forwarded-For": "10.9.8.7"}
    with second_browser(amina, **phone_headers) as phone:
        login(phone)
        listed = amina.get("/api/me/sessions").json()["sessions"]
        assert [s["current"] for s in listed] == [True, False]
        assert listed[1]["browser"] == "Firefox on Android" and listed[1]["address"] == "10.9.8.7"
        assert {"created", "last_seen", "id"} <= listed[1].keys()
        assert [s["current"] for s in phone.get("/api/me/sessions").json()["sessions"]] == [False, True]
        ended = amina.delete(f"/api/me/sessions/{listed[1]['id']}")
        assert ended.status_code == 200, ended.text
        assert "log in again, or continue as a new guest" in error_of(phone.get("/api/me"), 401, "session_ended")
        made = phone.post("/api/tables", json={"players": 2, "seats": [{"kind": "human", "name": "Amina"}, BOT]})
        error_of(made, 401, "session_ended")  # not a stranger's seat under the kept name, either
        error_of(phone.get("/api/me/sessions"), 401, "session_ended")
        assert [s["current"] for s in amina.get("/api/me/sessions").json()["sessions"]] == [True]
        gone = amina.delete(f"/api/me/sessions/{listed[1]['id']}")
        assert error_of(gone, 404, "no_session") == "you have no session with this id"
        assert phone.post("/api/me/logout").status_code == 200  # continue as a new guest: the cookie goes
        assert phone.get("/api/me").json()["id"] is None


def test_a_stolen_session_id_or_another_players_session_cannot_be_revoked(amina: Server) -> None:
    mine = amina.get("/api/me/sessions").json()["sessions"][0]["id"]
    with second_browser(amina) as other:
        error_of(other.delete(f"/api/me/sessions/{mine}"), 401, "no_identity")
        choose(other, "Brahim")
        error_of(other.delete(f"/api/me/sessions/{mine}"), 404, "no_session")
    assert amina.get("/api/me").json()["name"] == "Amina"


def test_logout_ends_this_session_and_a_guest_is_not_let_lose_their_name(amina: Server) -> None:
    old = amina.cookies[COOKIE]
    assert amina.post("/api/me/logout").json() == {"status": "logged_out"}
    assert amina.get("/api/me").json()["id"] is None
    amina.cookies.set(COOKIE, old)  # the cookie kept (or stolen) after logging out
    error_of(amina.get("/api/me"), 401, "session_ended")
    with second_browser(amina) as guest:
        error_of(guest.post("/api/me/logout"), 401, "no_identity")
        choose(guest, "Brahim")
        refused = guest.post("/api/me/logout")
        assert "logging out would lose your name for good" in error_of(refused, 409, "no_account")
        (own,) = guest.get("/api/me/sessions").json()["sessions"]
        error_of(guest.delete(f"/api/me/sessions/{own['id']}"), 409, "no_account")  # nor by ending its own session
        assert guest.get("/api/me").json()["name"] == "Brahim"


def test_logins_are_limited_per_address_and_per_username(amina: Server) -> None:
    stopped = lambda: 0.0  # noqa: E731 - the buckets' clock stands still: no token comes back however slow Argon2 is
    site = amina.app.state.site
    by_address = TokenBuckets.per_minute(LOGIN_RATE, clock=stopped)
    logins = Logins(by_address, TokenBuckets.per_minute(ACCOUNT_LOGIN_RATE, clock=stopped))
    amina.app.state.site = dataclasses.replace(site, logins=logins)
    tries = int(LOGIN_RATE)
    with second_browser(amina, **{"X-Forwarded-For": "10.0.0.1"}) as guesser:  # many usernames from one address
        answers = [login(guesser, username=f"user{n:02}").status_code for n in range(tries)]
        assert answers == [401] * tries
        refused = login(guesser)  # even the right password: this address must wait
        assert "too many tries to log in from here" in error_of(refused, 429, "rate_limited")
        assert int(refused.headers["Retry-After"]) >= 1
    per_account = int(ACCOUNT_LOGIN_RATE)
    for n in range(per_account):  # one username from many addresses
        with second_browser(amina, **{"X-Forwarded-For": f"10.0.1.{n}"}) as guesser:
            assert login(guesser, password=f"guess {n:04}").status_code == 401
    with second_browser(amina, **{"X-Forwarded-For": "10.0.2.1"}) as elsewhere:
        refused = login(elsewhere)
        assert "too many tries to log in to this account" in error_of(refused, 429, "rate_limited")
        assert elsewhere.get("/api/me").json()["id"] is None
        choose(elsewhere, "Chama")
        assert elsewhere.post("/api/me/account", json={"username": "chama", "password": PASSWORD}).status_code == 201
        elsewhere.cookies.clear()
        assert login(elsewhere, username="chama").status_code == 200  # another account is not locked


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        ({"username": "amina"}, 400, "bad_request", 'an account needs a "password"'),
        ({"username": "amina", "password": 12345678}, 400, "bad_request", "a password is text"),
        ({"username": "amina", "password": "short"}, 400, "bad_password", "a password is 8 to 128 characters, not 5"),
        ({"username": "amina", "password": "x" * 129}, 400, "bad_password", "8 to 128 characters, not 129"),
        ({"username": "a b", "password": PASSWORD}, 400, "bad_username", "a username is 3 to 32 letters"),
        ({"username": "am", "password": PASSWORD}, 400, "bad_username", "not 'am'"),
        ({"username": ["amina"], "password": PASSWORD}, 400, "bad_request", "a username is text"),
        ({"username": "amina", "password": PASSWORD, "admin": True}, 400, "bad_request", "unknown field 'admin'"),
        ("amina", 400, "bad_request", "the body must be a JSON object"),
    ],
)
def test_a_bad_login_or_account_body_is_refused_naming_the_problem_and_never_echoes_a_password(
    amina: Server, body: Any, status: int, code: str, words: str
) -> None:
    with second_browser(amina) as other:
        message = error_of(other.post("/api/me/login", json=body), status, code)
        assert words in message and "short" not in message and "x" * 20 not in message
        assert other.get("/api/me").json()["id"] is None
        choose(other, "Brahim")
        message = error_of(other.post("/api/me/account", json=body), status, code)
        assert words in message and "short" not in message and "x" * 20 not in message
        assert other.get("/api/me").json()["account"] is False
    assert amina.get("/api/me").json()["username"] == "amina"


def test_a_password_with_a_lone_surrogate_is_refused_as_a_bad_password_not_a_server_error(
    amina: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """ "\\ud800" is legal JSON but no character: Argon2 could not hash it, and registering or logging in with it
    answered 500 with a traceback in the log (an audit). Refused as a bad password, naming the problem."""

    def sent(username: str) -> dict[str, Any]:
        body = b'{"username": "%s", "password": "abc\\ud800defgh"}' % username.encode()
        return {"content": body, "headers": {"Content-Type": "application/json"}}

    with second_browser(amina) as other:
        choose(other, "Brahim")
        for path, username in (("/api/me/login", "amina"), ("/api/me/login", "nobody"), ("/api/me/account", "brahim")):
            refused = other.post(path, **sent(username))
            assert "lone surrogate" in error_of(refused, 400, "bad_password"), path
            assert refused.json()["error"]["reason"] == "password_not_unicode"
        assert other.get("/api/me").json()["account"] is False
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_a_huge_password_body_is_refused_before_any_hashing(amina: Server) -> None:
    huge = amina.post("/api/me/login", json={"username": "amina", "password": "x" * 20_000})
    error_of(huge, 413, "too_large")
    garbage = amina.post("/api/me/login", content=b"\xff\xfe", headers={"Content-Type": "application/json"})
    error_of(garbage, 400, "bad_json")
    form = amina.post("/api/me/login", data={"username": "amina", "password": PASSWORD})
    error_of(form, 415, "bad_content_type")


def test_another_sites_page_cannot_log_in_log_out_register_or_revoke(amina: Server) -> None:
    mine = amina.get("/api/me/sessions").json()["sessions"][0]["id"]
    for method, path, body in [
        ("POST", "/api/me/login", {"username": "amina", "password": PASSWORD}),
        ("POST", "/api/me/logout", None),
        ("POST", "/api/me/account", {"username": "x" * 5, "password": PASSWORD}),
        ("DELETE", f"/api/me/sessions/{mine}", None),
    ]:
        refused = amina.request(method, path, json=body, headers=EVIL)
        error_of(refused, 403, "bad_origin")
    assert amina.get("/api/me").json()["username"] == "amina"
    with store_of(amina).engine.connect() as db:
        assert len(db.execute(select(sessions_table)).all()) == 1
