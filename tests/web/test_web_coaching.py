"""Hints and analyses in the browser's server (issue 16): a table setting, the seat's own view, worker processes.

A hint is searched in the bot workers from the asking seat's view alone, sent to
that seat's connections only, and stored with the game (the record's ``hints``
extension); a finished game's analysis is searched once, in the background,
and read by every replay after.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from web_helpers import Client, database, new_table, play_out, random_chooser, server

from ronda.analysis.hints import read_hints
from ronda.analysis.review import analyse
from ronda.analysis.search import Method
from ronda.engine.record import replay
from ronda.interfaces.web import analyses
from ronda.interfaces.web.protocol import AskHint, ProtocolError, Settings, read_client_message
from ronda.interfaces.web.store import Store

BUDGET = 6
"""Guesses a decision in these tests: what is shown and stored does not depend on the budget."""

PERSON = {"kind": "human", "name": "Amina"}
FRIEND = {"kind": "human"}


def quick(tmp_path: Path, **options: Any) -> Any:
    options.setdefault("analysis_budget", BUDGET)
    return server(tmp_path, **options)


def test_hints_are_on_against_the_computer_and_off_among_people_unless_chosen(tmp_path: Path) -> None:
    with quick(tmp_path) as http:
        with_bot = new_table(http, 2, [PERSON, {"kind": "bot", "level": "easy"}])
        people = new_table(http, 2, [PERSON, FRIEND])
        chosen = new_table(http, 2, [PERSON, FRIEND], hints=True)
        refused = new_table(http, 2, [PERSON, {"kind": "bot", "level": "easy"}], hints=False)
        summaries = [http.get(f"/api/tables/{t['table_id']}").json() for t in (with_bot, people, chosen, refused)]
        assert [s["hints"] for s in summaries] == [True, False, True, False]
        bad = http.post("/api/tables", json={"players": 2, "hints": "yes"})
        assert bad.status_code == 400 and bad.json()["error"]["message"] == "hints is true or false, not 'yes'"


def test_a_hint_comes_to_the_asking_seat_only_names_no_hidden_card_and_is_kept_with_the_game(tmp_path: Path) -> None:
    with quick(tmp_path) as http:
        created = new_table(http, 2, [PERSON, {"kind": "bot", "level": "easy"}], spectators=True)
        me = Client(http, created["table_id"], created["token"])
        watcher = Client(http, created["table_id"])
        me.hello()
        watcher.hello()
        play_out([me], random_chooser(random.Random(1), challenge=0), until=lambda: bool(me.legal))
        me.send({"type": "hint"})
        hint = me.expect("hint", timeout=60)
        assert hint["version"] == me.version and hint["guesses"] == BUDGET
        options = hint["options"]
        assert 1 <= len(options) <= 3
        assert hint["choice"] is (len(options) > 1)  # false: nothing to choose, which the page says first
        assert [o["chance"] for o in options] == sorted((o["chance"] for o in options), reverse=True)  # best first
        legal = [{k: v for k, v in a.items()} for a in me.legal]
        assert all({k: v for k, v in o.items() if k in ("play", "declare", "challenge")} in legal for o in options)
        assert all(o["facts"]["kind"] in ("play", "declare", "challenge") for o in options)
        # R11: the hint names only cards its seat sees (its hand, the table, cards played).
        seen = (
            set(me.view["hand"])
            | set(me.view["table"])
            | {e["card"] for e in me.events.values() if e["type"] in ("drop", "capture", "raise")}
        )
        for event in me.events.values():
            seen |= set(event.get("cards", []))
        named = {o.get("play") for o in options} | {c for o in options for c in o["facts"].get("taken", [])}
        assert named - {None} <= seen
        me.send({"type": "hint"})  # asked again: the same hint, not a second search
        assert me.expect("hint", timeout=10) == hint
        assert [m for m in watcher.sync() if m["type"] == "hint"] == []
        store = Store(database(tmp_path))
        stored = store.load_record(created["table_id"], 0)
        store.close()
        (kept,) = read_hints(stored)
        assert kept.seat == 0 and kept.guesses == BUDGET
        assert [{"expected": round(e, 2), "chance": round(c or 0, 4)} for _, e, c in kept.options] == [
            {"expected": round(o["expected"], 2), "chance": o["chance"]} for o in options
        ]
        assert replay(stored).actions_taken == sum(len(r["actions"]) for r in stored["rounds"])  # still a valid record


@pytest.mark.parametrize(
    ("who", "code"),
    [("watcher", "spectator"), ("off", "hints_off"), ("waiting", "not_your_turn")],
)
def test_a_hint_is_refused_to_a_spectator_at_a_table_without_hints_and_out_of_turn(
    tmp_path: Path, who: str, code: str
) -> None:
    with quick(tmp_path) as http:
        hints = who != "off"
        created = new_table(http, 2, [{"kind": "bot", "level": "easy"}, PERSON], me=1, hints=hints)
        client = Client(http, created["table_id"], None if who == "watcher" else created["token"])
        client.hello()
        if who == "waiting":
            assert not client.legal
        else:
            play_out(
                [client],
                random_chooser(random.Random(2), challenge=0),
                until=lambda: bool(client.legal) or who == "watcher",
            )
        client.send({"type": "hint"})
        errors = [m for m in client.sync() if m["type"] == "error"]
        assert [e["code"] for e in errors] == [code]


def test_only_the_creator_turns_hints_on_at_a_table_of_people(tmp_path: Path) -> None:
    with quick(tmp_path) as http:
        created = new_table(http, 2, [PERSON, FRIEND])
        joined = http.post(f"/api/tables/{created['table_id']}/join", json={"name": "Youssef", "keep": False}).json()
        me = Client(http, created["table_id"], created["token"])
        friend = Client(http, created["table_id"], joined["token"])
        me.hello()
        friend.hello()
        friend.send({"type": "settings", "hints": True})
        assert [m["code"] for m in friend.sync() if m["type"] == "error"] == ["not_creator"]
        me.send({"type": "settings", "hints": True})
        assert friend.expect("seats")["table"]["hints"] is True
        assert http.get(f"/api/tables/{created['table_id']}").json()["hints"] is True


def test_protocol_reads_hint_and_settings_messages() -> None:
    assert read_client_message('{"type": "hint"}') == AskHint()
    assert read_client_message('{"type": "settings", "hints": false}') == Settings(hints=False)
    for text, message in [
        ('{"type": "hint", "action": 1}', "a hint message has no field 'action'"),
        ('{"type": "settings", "hints": 1}', 'settings: "hints" is true or false, not 1'),
    ]:
        with pytest.raises(ProtocolError, match=message):
            read_client_message(text)


def finished_table(http: Any, seed: int) -> dict[str, Any]:
    created = new_table(http, 2, [PERSON, {"kind": "bot", "level": "easy"}], target=5)
    me = Client(http, created["table_id"], created["token"])
    me.hello()
    play_out([me], random_chooser(random.Random(seed), challenge=0))
    me.close()
    return created


def wait_for_analysis(http: Any, table_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        answer = http.get(f"/api/tables/{table_id}/analysis")
        if answer.status_code == 200:
            return dict(answer.json())
        assert answer.status_code == 202, answer.text
        body = answer.json()
        assert body["status"] == "running" and 0 <= body["done"] <= body["total"]
        assert time.monotonic() < deadline, "the analysis never finished"
        time.sleep(0.1)


def test_a_finished_games_analysis_is_the_command_lines_searched_once_and_kept(tmp_path: Path) -> None:
    with quick(tmp_path) as http:
        live = new_table(http, 2, [PERSON, {"kind": "bot", "level": "easy"}])
        assert http.get(f"/api/tables/{live['table_id']}/analysis").json()["error"]["code"] == "not_finished"
        created = finished_table(http, 3)
        table_id = created["table_id"]
        first = http.get(f"/api/tables/{table_id}/analysis")
        assert first.status_code == 202 and first.json()["status"] == "running"
        done = wait_for_analysis(http, table_id)
        analysis = done["analysis"]
        record = http.get(f"/api/tables/{table_id}/replay").json()["record"]
        expected = analyse(record, method=Method(guesses=BUDGET)).to_json()
        assert analysis == expected  # the same numbers as `ronda analyse --budget 6`
        assert {d["class"] for d in analysis["decisions"]} <= {"best", "good", "inaccuracy", "mistake", "blunder"}
        assert [s["seat"] for s in analysis["seats"]] == [0, 1]
        moves = [sum(1 for r in record["rounds"] for a in r["actions"] if a["seat"] == seat) for seat in (0, 1)]
        assert [s["moves"] for s in analysis["seats"]] == moves  # what the page counts the decisions "of"
        steps = http.get(f"/api/tables/{table_id}/replay").json()["steps"]
        for decision in analysis["decisions"]:
            action = steps[decision["index"] + 1]["action"]
            assert action["seat"] == decision["seat"]
            assert {k: v for k, v in action.items() if k != "seat"} == decision["taken"]
    with quick(tmp_path) as http:  # a restart: read from the store at once
        again = http.get(f"/api/tables/{table_id}/analysis")
        assert again.status_code == 200 and again.json()["analysis"] == analysis
    # An analysis kept in the format of before issue 28 (points, no chances), or of before the chances were given as
    # shown (a fourth place, which the loss beside them was not the difference of), is searched again, and replaced:
    # the server's answer stays the command line's.
    for old in ("ronda-analysis/1", "ronda-analysis/2"):
        store = Store(database(tmp_path))
        store.write(store.save_analysis, table_id, 0, {**analysis, "format": old})
        store.close()
        with quick(tmp_path) as http:
            assert http.get(f"/api/tables/{table_id}/analysis").status_code == 202
            assert wait_for_analysis(http, table_id)["analysis"] == analysis


def test_a_server_analyses_few_games_at_once_and_says_when_to_ask_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyses, "RUNNING", 1)
    with quick(tmp_path, analysis_budget=400) as http:
        first, second = finished_table(http, 4), finished_table(http, 5)
        assert http.get(f"/api/tables/{first['table_id']}/analysis").status_code == 202
        busy = http.get(f"/api/tables/{second['table_id']}/analysis")
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"
        assert busy.headers["retry-after"] == str(analyses.BUSY_RETRY)
        assert http.get(f"/api/tables/{second['table_id']}").status_code == 200  # the rest of the server answers
