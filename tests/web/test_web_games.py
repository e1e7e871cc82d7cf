"""Whole games through the web server: people on websockets and bots, to game over, checked against the engine.

Every event a client was sent is compared with the engine's replay of the
stored record, and the scores in the messages with the engine's scoring.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from web_helpers import Client, new_table, play_out, random_chooser, seat_clients, server

from ronda.engine.cards import card_name
from ronda.engine.presets import preset_rules
from ronda.engine.record import replay


def engine_game_of(http: Any, table_id: str) -> Any:
    response = http.get(f"/api/tables/{table_id}/replay")
    assert response.status_code == 200, response.text
    return replay(response.json()["record"])


def assert_matches_engine(http: Any, table_id: str, client: Client) -> None:
    """The client's events are the engine's, version for version, and its scores are the engine's scores."""
    game = engine_game_of(http, table_id)
    assert game.finished
    received = [{k: v for k, v in client.events[n].items() if k != "version"} for n in sorted(client.events)]
    assert sorted(client.events) == list(range(1, len(game.events) + 1))
    assert received == [event.to_json() for event in game.events]
    assert client.view is not None
    assert client.view["scores"] == list(game.scores)
    assert client.view["winner"] == game.winner
    if not game.rules.transfer_scoring:
        totals = [0] * game.rules.sides
        for event in received:
            if event["type"] == "score":
                totals[event["side"]] += event["points"]
        assert totals == list(game.scores)


@pytest.mark.parametrize(
    ("players", "levels", "body"),
    [
        (2, ["medium"], {}),
        (3, ["easy", "random"], {"preset": "short"}),
        (4, ["random", "easy", "random"], {"preset": "four-card", "target": 15}),
    ],
)
def test_a_person_against_bots_to_game_over(
    tmp_path: Path, players: int, levels: list[str], body: dict[str, Any]
) -> None:
    seats = [{"kind": "human", "name": "Amina"}] + [{"kind": "bot", "level": level} for level in levels]
    with server(tmp_path) as http:
        created = new_table(http, players, seats, **body)
        assert created["invite"] == f"http://testserver/t/{created['table_id']}"
        me = Client(http, created["table_id"], created["token"])
        first = me.hello(since=0)  # a catchup of every event from the first
        assert first["type"] == "catchup" and me.seat == 0
        play_out([me], random_chooser(random.Random(players)))
        assert_matches_engine(http, created["table_id"], me)
        summary = http.get(f"/api/tables/{created['table_id']}").json()
        assert summary["status"] == "finished" and summary["winner"] == me.view["winner"]
        me.close()


def test_house_rules_on_top_of_a_preset_are_the_rules_played_and_shown(tmp_path: Path) -> None:
    variants = {"ace_high": True, "dealer_duty": False, "chain_points": [1, 6, 15]}
    with server(tmp_path) as http:
        created = new_table(http, 2, preset="advanced", variants=variants, target=25, public=True)
        summary = http.get(f"/api/tables/{created['table_id']}").json()
        assert summary["preset"] == "advanced" and summary["changed"] == variants
        assert summary["rules"]["target"] == 25 and summary["rules"]["dealer_duty"] is False
        listed = http.get("/api/tables").json()["tables"]
        assert [t["changed"] for t in listed] == [variants]  # the list names the house rules too
        me = Client(http, created["table_id"], created["token"])
        me.hello(since=0)
        play_out([me], random_chooser(random.Random(4)))
        game = engine_game_of(http, created["table_id"])
        house = {"ace_high": True, "dealer_duty": False, "chain_points": (1, 6, 15), "target": 25}
        assert game.rules == preset_rules("advanced", 2, **house)
        assert_matches_engine(http, created["table_id"], me)
        plain = new_table(http, 2, preset="advanced")
        assert http.get(f"/api/tables/{plain['table_id']}").json()["changed"] == {}
        me.close()


def test_people_join_by_invite_and_play_with_a_bot_and_a_spectator(tmp_path: Path) -> None:
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]
    with server(tmp_path) as http:
        created = new_table(http, 3, seats, preset="short")
        table_id = created["table_id"]
        assert http.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
        amina = Client(http, table_id, created["token"])
        state = amina.hello(since=0)
        assert state["legal"] == []  # nobody plays before every seat is taken
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Youssef", "keep": False}).json()
        assert joined["seat"] == 1
        started = amina.expect("state")  # the game starts: the whole picture again, now with decisions
        assert started["table"]["status"] == "playing"
        youssef = Client(http, table_id, joined["token"])
        youssef.hello(since=0)
        watcher = Client(http, table_id)
        watcher.hello(since=0)
        assert watcher.seat is None and watcher.view is not None and watcher.view["hand"] == []
        play_out([amina, youssef, watcher], random_chooser(random.Random(7)))
        for client in (amina, youssef, watcher):
            assert_matches_engine(http, table_id, client)
        own = ("seat", "side", "hand", "combination", "proven")  # what a seat works out from its own hand
        public = {k: v for k, v in amina.view.items() if k not in own}
        assert {k: v for k, v in watcher.view.items() if k not in own} == public
        for client in (amina, youssef, watcher):
            client.close()


def test_four_people_as_partners(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        seats = [{"kind": "human", "name": "Amina"}] + [{"kind": "human"}] * 3
        created = new_table(http, 4, seats, preset="short", variants={"auto_declare": True})
        table_id = created["table_id"]
        tokens = {0: created["token"]}
        for name in ("Youssef", "Khadija", "Omar"):
            joined = http.post(f"/api/tables/{table_id}/join", json={"name": name, "keep": False}).json()
            tokens[joined["seat"]] = joined["token"]
        clients = seat_clients(http, table_id, tokens)
        for client in clients.values():
            client.hello(since=0)
        play_out(clients.values(), random_chooser(random.Random(4)))
        for seat, client in clients.items():
            assert client.view is not None and client.view["side"] == seat % 2
            assert_matches_engine(http, table_id, client)
            client.close()


def test_every_deck_is_shuffled_by_the_secure_generator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round of every game, first and later ones, is dealt from a deck shuffled by SystemRandom."""
    import ronda.interfaces.web.lobby as lobby_module
    import ronda.interfaces.web.tables as tables_module

    shuffles: list[list[str]] = []
    honest = tables_module.shuffled_deck

    def watched(rules: Any, rng: Any) -> list[int]:
        assert isinstance(rng, random.SystemRandom)
        deck = honest(rules, rng)
        shuffles.append([card_name(c) for c in deck])
        return deck

    monkeypatch.setattr(tables_module, "shuffled_deck", watched)
    monkeypatch.setattr(lobby_module, "shuffled_deck", watched)
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "random"}]
    with server(tmp_path) as http:
        created = new_table(http, 2, seats, variants={"auto_declare": True})  # no bluffs: several rounds
        me = Client(http, created["table_id"], created["token"])
        me.hello()
        play_out([me], random_chooser(random.Random(3), challenge=0))
        record = http.get(f"/api/tables/{created['table_id']}/replay").json()["record"]
    assert len(record["rounds"]) >= 2
    assert [r["deck"] for r in record["rounds"]] == shuffles
