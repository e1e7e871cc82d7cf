"""Bad input of every kind: an error to the sender only, the game unchanged, the connection kept.

Two people sit at a table (seat 0 declares first); every bad message is sent
by one of them and we check that exactly one ``error`` came back to it,
nothing at all reached the other, and a catch-up from the version before
shows no new event and the very same view.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from web_helpers import Client, new_table, play_out, random_chooser, server

from ronda.interfaces.web.app import STATIC


@pytest.fixture
def duel(tmp_path: Path) -> Any:
    """A server with a two-person table, both connected: (http, table_id, amina, youssef, tokens)."""
    with server(tmp_path) as http:
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, {"kind": "human"}])
        table_id = created["table_id"]
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Youssef", "keep": False}).json()
        amina = Client(http, table_id, created["token"])
        amina.hello()
        youssef = Client(http, table_id, joined["token"])
        youssef.hello()
        amina.sync()
        youssef.sync()
        yield http, table_id, amina, youssef, {0: created["token"], 1: joined["token"]}


def attempt(client: Client, action: dict[str, Any]) -> None:
    """Send a decision that should be refused, keeping what the client holds as the "before"."""
    client.send({"type": "act", "action": action})


def snapshot(client: Client) -> tuple[int, Any, Any]:
    return client.version, client.view, client.legal


def assert_one_error_and_nothing_changed(bad: Client, others: list[Client], code: str) -> str:
    """The sender got exactly one error of ``code``; nobody else got anything; the game is as it was.

    Call it right after sending: the sender's last version, view and legal actions are the "before".
    """
    before = snapshot(bad)
    error = bad.recv()
    assert error["type"] == "error" and error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    assert bad.sync() == []
    for other in others:
        assert other.sync() == []
    version, view, legal = before
    catchup = bad.hello(since=version)
    assert catchup["type"] == "catchup" and catchup["events"] == [] and catchup["version"] == version
    assert catchup["view"] == view and catchup["legal"] == legal
    return str(error["message"])


BAD_FRAMES = [
    ("not json at all", "bad_json"),
    ("{", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('"hello"', "bad_message"),
    ("{}", "bad_message"),
    ('{"type": 7}', "bad_message"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "hello", "token": 5, "since": null}', "bad_message"),
    ('{"type": "hello", "token": null, "since": "x"}', "bad_message"),
    ('{"type": "hello", "token": null, "since": -1}', "bad_message"),
    ('{"type": "hello", "token": null, "since": true}', "bad_message"),
    ('{"type": "hello", "seat": 1}', "bad_message"),
    ('{"type": "act"}', "bad_message"),
    ('{"type": "act", "action": "play 5o"}', "bad_message"),
    ('{"type": "act", "action": {}}', "bad_message"),
    ('{"type": "act", "action": {"play": "5o", "seat": 1}}', "bad_message"),
    ('{"type": "act", "action": {"play": "13x"}}', "bad_message"),
    ('{"type": "act", "action": {"play": 5}}', "bad_message"),
    ('{"type": "act", "action": {"declare": "quadruple"}}', "bad_message"),
    ('{"type": "act", "action": {"challenge": 9}}', "bad_message"),
    ('{"type": "act", "action": {"challenge": "1"}}', "bad_message"),
    ('{"type": "act", "action": {"steal": "5o"}}', "bad_message"),
    ('{"type": "act", "action": {"declare": "none"}, "extra": 1}', "bad_message"),
    ('{"type": "auto_declare"}', "bad_message"),
    ('{"type": "auto_declare", "on": "yes"}', "bad_message"),
    ('{"type": "rematch", "now": true}', "bad_message"),
    ('{"type": "rematch", "on": "no"}', "bad_message"),
    ('{"type": "rematch", "on": null}', "bad_message"),
    ('{"type": "ping", "x": 1}', "bad_message"),
]


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
def test_a_malformed_message_gets_an_error_and_changes_nothing(duel: Any, frame: str, code: str) -> None:
    _, _, amina, youssef, _ = duel
    amina.send_text(frame)
    assert_one_error_and_nothing_changed(amina, [youssef], code)


def test_oversized_and_binary_frames(duel: Any) -> None:
    _, _, amina, youssef, _ = duel
    amina.send({"type": "ping", "pad": "x" * 5000})
    assert_one_error_and_nothing_changed(amina, [youssef], "too_large")
    amina.send_text('{"type": "ping"}' + " " * 4100)  # valid JSON, still too large
    assert_one_error_and_nothing_changed(amina, [youssef], "too_large")
    amina.ws.send_bytes(b'{"type": "ping"}')
    assert_one_error_and_nothing_changed(amina, [youssef], "bad_message")


def test_out_of_turn_and_illegal_decisions(duel: Any) -> None:
    _, _, amina, youssef, _ = duel
    assert amina.legal and not youssef.legal  # seat 0 declares first
    attempt(youssef, {"declare": "none"})
    message = assert_one_error_and_nothing_changed(youssef, [amina], "not_your_turn")
    assert "seat 0" in message
    hand = amina.view["hand"]
    attempt(amina, {"play": hand[0]})  # a play during the declarations
    assert_one_error_and_nothing_changed(amina, [youssef], "illegal")
    attempt(amina, {"declare": "double_ronda"})  # only with four-card hands
    assert_one_error_and_nothing_changed(amina, [youssef], "illegal")
    attempt(amina, {"challenge": 1})  # nobody has declared
    assert_one_error_and_nothing_changed(amina, [youssef], "illegal")
    # Into the play phase: a card seat 0 does not hold is refused, naming only the card it sent.
    attempt(amina, {"declare": "none"})
    youssef.expect("update")
    amina.expect("update")
    attempt(youssef, {"declare": "none"})
    amina.expect("update")
    youssef.expect("update")
    assert amina.view["phase"] == "play" and amina.legal
    not_mine = next(card for card in ("1o", "2o", "3o", "4o", "5o") if card not in amina.view["hand"])
    attempt(amina, {"play": not_mine})
    message = assert_one_error_and_nothing_changed(amina, [youssef], "illegal")
    assert not_mine in message
    attempt(youssef, {"play": youssef.view["hand"][0]})
    assert_one_error_and_nothing_changed(youssef, [amina], "not_your_turn")


def test_hello_first_and_tokens(duel: Any) -> None:
    http, table_id, amina, youssef, tokens = duel
    before = snapshot(amina)
    stranger = Client(http, table_id)
    stranger.send({"type": "ping"})
    assert stranger.recv()["code"] == "not_hello"
    attempt(stranger, {"declare": "none"})
    assert stranger.recv()["code"] == "not_hello"
    stranger.send({"type": "hello", "token": "not-a-token", "since": None})
    assert stranger.recv()["code"] == "bad_token"
    stranger.send({"type": "hello", "token": tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B"), "since": None})
    assert stranger.recv()["code"] == "bad_token"
    assert amina.sync() == [] and youssef.sync() == []
    # The same connection may still say hello properly: as a spectator, it cannot act.
    state = stranger.hello(token=None)
    assert stranger.seat is None and state["view"]["hand"] == [] and state["legal"] == []
    for message in ({"type": "act", "action": {"declare": "none"}}, {"type": "auto_declare", "on": True}):
        stranger.send(message)
        assert stranger.recv()["code"] == "spectator"
    stranger.send({"type": "rematch"})
    assert stranger.recv()["code"] == "spectator"
    assert amina.sync() == [] and youssef.sync() == []
    assert snapshot(amina) == before
    amina.send({"type": "rematch"})
    assert_one_error_and_nothing_changed(amina, [youssef], "illegal")


def test_no_table_no_game(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        lost = Client(http, "no-such-table")
        error = lost.recv()
        assert error["type"] == "error" and error["code"] == "not_found"
        assert lost.recv()["type"] == "closed"
        # Before every seat is taken nobody plays; after game over nobody plays.
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, {"kind": "human"}])
        early = Client(http, created["table_id"], created["token"])
        before = early.hello()
        early.sync()
        attempt(early, {"declare": "none"})
        assert_one_error_and_nothing_changed(early, [], "not_your_turn")
        assert before["table"]["status"] == "waiting"
        quick = new_table(http, 2, [{"kind": "human", "name": "A"}, {"kind": "bot", "level": "random"}], target=1)
        me = Client(http, quick["table_id"], quick["token"])
        me.hello()
        play_out([me], random_chooser(random.Random(1)))
        attempt(me, {"declare": "none"})
        assert_one_error_and_nothing_changed(me, [], "game_over")


def test_a_flood_is_answered_once_and_ignored(tmp_path: Path) -> None:
    with server(tmp_path, flood_rate=20.0) as http:  # the real limit
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, {"kind": "human"}])
        table_id = created["table_id"]
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Youssef", "keep": False}).json()
        amina, youssef = Client(http, table_id, created["token"]), Client(http, table_id, joined["token"])
        amina.hello()
        youssef.hello()
        time.sleep(0.2)
        before = snapshot(amina)
        for _ in range(150):
            amina.send({"type": "act", "action": {"declare": "none"}})
        replies = []
        while (message := amina.recv(timeout=5))["type"] != "error" or message["code"] != "flood":
            replies.append(message)
        assert len(replies) >= 1  # the first came through: seat 0 declared
        # One limit keeps every connection's bucket: Amina's flood costs Youssef's connection nothing.
        youssef.send({"type": "ping"})
        while (message := youssef.recv(timeout=5))["type"] != "pong":
            assert message["type"] != "error", message
        floods = 1
        time.sleep(1.2)  # the client calms down: half the bucket fills again
        amina.send({"type": "ping"})
        while (message := amina.recv())["type"] != "pong":
            floods += message["type"] == "error" and message["code"] == "flood"
            assert message["type"] in ("error", "update", "seats"), message
        assert floods == 1
        errors = [m for m in replies if m["type"] == "error"]
        assert all(m["code"] == "not_your_turn" for m in errors)  # every later copy: no longer seat 0's turn
        assert amina.version == before[0] + 1  # one declaration, nothing else
        youssef.sync()
        assert youssef.version == amina.version


# ------------------------------------------------------------------- fuzzing


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=8) | st.sampled_from(["5o", "12e", "ronda"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "auto_declare", "rematch", "ping", "dance", ""])},
    optional={
        "action": json_values
        | st.fixed_dictionaries({}, optional={"play": json_values, "declare": json_values, "challenge": json_values}),
        "on": json_values,
        "token": json_values,
        "since": json_values,
    },
)


def test_random_messages_from_the_seat_not_to_act_never_change_the_game(duel: Any) -> None:
    _, _, amina, youssef, _ = duel
    before = snapshot(amina)
    allowed = {"error", "pong", "auto_declare"}

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(message=messages)
    def send_one(message: dict[str, Any]) -> None:
        youssef.send_text(json.dumps(message))
        replies = youssef.sync()
        assert len(replies) <= 1 and all(r["type"] in allowed for r in replies), replies

    send_one()
    assert amina.sync() == []
    catchup = amina.hello(since=before[0])
    assert catchup["events"] == [] and catchup["view"] == before[1]


# ---------------------------------------------------------------------- HTTP


def error_of(response: Any, status: int, code: str | None = None) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    # Beyond its code and message, an error carries only a refusal's reason and what the page words it with
    # (docs/web-protocol.md, "Names refused").
    assert set(body["error"]) == {"code", "message"} or "reason" in body["error"], body
    if code is not None:
        assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


JSON = {"Content-Type": "application/json"}
GOOD = {"players": 2, "seats": [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "easy"}]}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ([1, 2], "object"),
        ({**GOOD, "players": 5}, "players"),
        ({**GOOD, "players": "2"}, "players"),
        ({**GOOD, "preset": "nonsense"}, "preset"),
        ({**GOOD, "variants": {"flying": True}}, "flying"),
        ({**GOOD, "variants": {"dealer_duty": "yes"}}, "dealer_duty"),
        ({**GOOD, "variants": []}, "variants"),
        ({**GOOD, "target": "x"}, "target"),
        ({**GOOD, "target": 0}, "target"),
        ({**GOOD, "seats": [{"kind": "human"}]}, "seats"),
        ({**GOOD, "seats": [{"kind": "human"}, {"kind": "alien"}]}, "kind"),
        ({**GOOD, "seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}]}, "godlike"),
        ({**GOOD, "seats": [{"kind": "bot"}, {"kind": "bot"}]}, "at least one"),
        ({**GOOD, "seats": [{"kind": "human", "name": "x" * 80}, {"kind": "bot"}]}, "name"),
        ({**GOOD, "seats": [{"kind": "human", "name": 7}, {"kind": "bot"}]}, "name"),
        ({**GOOD, "seats": [{"kind": "human", "hat": 1}, {"kind": "bot"}]}, "hat"),
        ({**GOOD, "me": 1}, "bot"),
        ({**GOOD, "me": 9}, "me"),
        ({**GOOD, "colour": "red"}, "colour"),
        ({**GOOD, "players": 3, "preset": "four-card", "seats": [{"kind": "human"}] * 3}, "four"),
    ],
)
def test_creating_a_table_with_bad_fields(tmp_path: Path, body: Any, words: str) -> None:
    with server(tmp_path) as http:
        message = error_of(http.post("/api/tables", json=body), 400, "bad_request")
        assert words in message
        assert http.get("/api/tables").json()["tables"] == []


def test_http_errors_name_the_problem(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        error_of(http.post("/api/tables", content=b"{nope", headers=JSON), 400, "bad_json")
        huge = b'{"players": 2, "x": "' + b"y" * 20000 + b'"}'
        error_of(http.post("/api/tables", content=huge, headers=JSON), 413, "too_large")
        error_of(http.get("/api/tables/nothing"), 404, "not_found")
        error_of(http.post("/api/tables/nothing/join", json={"name": "A"}), 404, "not_found")
        error_of(http.get("/api/tables/nothing/replay"), 404, "not_found")
        error_of(http.get("/api/nowhere"), 404, "not_found")
        error_of(http.delete("/api/tables"), 405)
        created = new_table(http, 3, [{"kind": "human", "name": "Amina"}, {"kind": "human"}, {"kind": "bot"}])
        table_id = created["table_id"]
        join = f"/api/tables/{table_id}/join"
        assert "name" in error_of(http.post(join, json={}), 400, "bad_request")
        assert "name" in error_of(http.post(join, json={"name": ""}), 400, "bad_request")
        assert "name" in error_of(http.post(join, json={"name": "\u0000\u0007"}), 400, "bad_request")
        assert "seat" in error_of(http.post(join, json={"name": "B", "seat": "one"}), 400, "bad_request")
        assert "seats 0 to 2" in error_of(http.post(join, json={"name": "B", "seat": 7}), 400, "bad_request")
        assert "taken" in error_of(http.post(join, json={"name": "B", "seat": 0}), 409, "seat_taken")
        assert "bot" in error_of(http.post(join, json={"name": "B", "seat": 2}), 409, "seat_taken")
        error_of(http.post(join, content=b"[]", headers=JSON), 400, "bad_request")
        error_of(http.post(join, json={"name": "B", "hat": 1}), 400, "bad_request")
        assert http.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
        assert "over" in error_of(http.get(f"/api/tables/{table_id}/replay"), 403, "not_finished")
        error_of(http.get(f"/api/tables/{table_id}/replay?game=3"), 404, "not_found")
        error_of(http.get(f"/api/tables/{table_id}/replay?game=abc"), 400, "bad_request")
        assert http.post(join, json={"name": "Youssef"}).json()["seat"] == 1
        assert "every seat" in error_of(http.post(join, json={"name": "Late"}), 409, "seat_taken")
        assert http.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_the_page_is_served(tmp_path: Path) -> None:
    page = STATIC / "index.html"
    with server(tmp_path) as http:
        for path in ("/", "/t/some-table"):
            response = http.get(path)
            assert response.status_code == (200 if page.is_file() else 404)
            assert response.headers["content-type"].startswith("text/html")
            if page.is_file():
                assert response.text == page.read_text(encoding="utf-8")
        for asset in sorted(STATIC.rglob("*.js"))[:3]:
            response = http.get("/static/" + asset.relative_to(STATIC).as_posix())
            assert response.status_code == 200 and "javascript" in response.headers["content-type"]
        assert http.get("/static/nothing-here.js").status_code == 404
        meta = http.get("/api/meta").json()
        assert "medium" in meta["levels"] and "classic" in meta["presets"] and meta["variants"]["target"] == 41
