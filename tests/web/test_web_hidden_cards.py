"""R11 over the wire: no message to a seat ever names a card that seat may not know at that moment.

Many seeded games with people (random legal choices, challenges included),
bots, a spectator and a reconnection. Afterwards the stored record is replayed
through the engine to learn, for every version, which cards were hidden from
whom — the other hands and the stock, less the hands shown by challenges —
and every text frame each client received is searched for those card names.
A card hidden from a seat at one version may be public later (played, turned
up, shown), so each frame is judged at its own version.
"""

from __future__ import annotations

import bisect
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from web_helpers import Client, new_table, play_out, random_chooser, server

from ronda.engine.actions import action_from_record
from ronda.engine.cards import card_name, cards_of, parse_card
from ronda.engine.game import WAITING, Game
from ronda.engine.rules import Rules
from ronda.interfaces.web.tables import Table

CARD = re.compile(r'"((?:1[012]|[1-7])[oceb])"')
"""A card name as a JSON string: "5o", "12e" (never matches inside longer strings)."""


def hidden_cards(game: Game, seat: int | None) -> set[str]:
    """What ``seat`` (``None``: a spectator) may not know now: other hands and the stock, less shown hands."""
    mask = 0
    for other in range(game.rules.players):
        if other != seat:
            mask |= game.hand(other).mask
    for card in game.stock_cards():
        mask |= 1 << card
    for shown in game.public_view().shown:
        if shown is not None:
            mask &= ~shown.mask
    return {card_name(card) for card in cards_of(mask)}


def hidden_by_version(record: dict[str, Any], seats: list[int | None]) -> dict[int, dict[int | None, set[str]]]:
    """For every version the game passed through, the hidden cards of each of ``seats``, from the engine."""
    rules = Rules.from_dict(record["rules"])
    decks = [[parse_card(c) for c in rnd["deck"]] for rnd in record["rounds"]]
    game = Game(rules, decks=[decks[0]], dealer=record.get("dealer", rules.players - 1))
    out = {len(game.events): {seat: hidden_cards(game, seat) for seat in seats}}
    for index, rnd in enumerate(record["rounds"]):
        for entry in rnd["actions"]:
            seat, action = action_from_record(entry)
            game.apply(action, seat=seat)
            if game.phase == WAITING and index + 1 < len(decks):
                # The round's end is judged before the next deck is dealt: its cards go back into a stock.
                out[len(game.events)] = {s: hidden_cards(game, s) for s in seats}
                game.add_deck(decks[index + 1])
            out[len(game.events)] = {s: hidden_cards(game, s) for s in seats}
    assert game.finished
    return out


def check_frames(client: Client, seat: int | None, hidden: dict[int, dict[int | None, set[str]]]) -> int:
    """Every frame this client received names only cards its seat knew at the frame's version.

    An update or catch-up can span a round's end, after which the round's cards
    are shuffled into the next stock: each event is judged at its own version
    (the state right after the decision that caused it), the rest at the frame's.
    """
    known_at = sorted(hidden)

    def judged_at(version: int) -> set[str]:
        return hidden[known_at[bisect.bisect_left(known_at, version)]][seat]

    checked = 0
    for text, message in zip(client.texts, client.messages, strict=True):
        if "version" not in message:
            named = set(CARD.findall(text))
            assert not named, (message["type"], sorted(named))  # welcome, seats, pong... name no card at all
            continue
        for event in message.get("events", []):
            leaked = set(CARD.findall(json.dumps(event))) & judged_at(event["version"])
            assert not leaked, (seat, event, sorted(leaked))
        rest = json.dumps({k: v for k, v in message.items() if k != "events"})
        leaked = set(CARD.findall(rest)) & judged_at(message["version"])
        assert not leaked, (seat, message["type"], message["version"], sorted(leaked))
        assert set(CARD.findall(text)) == set(CARD.findall(rest)).union(
            *(CARD.findall(json.dumps(e)) for e in message.get("events", []))
        )
        checked += 1
    return checked


CONFIGS = [
    # players, seats (h = person, otherwise a bot level), extra body
    (2, "hh", {"target": 12}),
    (2, "h", {"target": 12, "preset": "four-card"}),
    (3, "hhh", {"target": 10}),
    (3, "h", {"target": 10, "preset": "cards"}),
    (4, "hhhh", {"target": 10}),
    (4, "hh", {"target": 10, "preset": "four-card"}),
    (2, "hh", {"target": 10, "variants": {"auto_declare": True}}),
    (4, "hhh", {"target": 8, "preset": "heavy"}),
]


def play_and_check(tmp_path: Path, seed: int, config: tuple[Any, ...]) -> None:
    players, people, body = config
    rng = random.Random(seed)
    bot_levels = ["random", "easy", "medium"]
    seats = [
        {"kind": "human", "name": f"P{s}"} if s < len(people) else {"kind": "bot", "level": bot_levels[s % 3]}
        for s in range(players)
    ]
    with server(tmp_path) as http:
        created = new_table(http, players, seats, **body)
        table_id = created["table_id"]
        tokens = {0: created["token"]}
        for s in range(1, len(people)):
            tokens[s] = http.post(f"/api/tables/{table_id}/join", json={"name": f"P{s}", "keep": False}).json()["token"]
        clients: dict[int | None, list[Client]] = {}
        for seat, token in tokens.items():
            client = Client(http, table_id, token)
            client.hello(since=0)
            clients[seat] = [client]
        watcher = Client(http, table_id)
        watcher.hello(since=0)
        clients[None] = [watcher]
        choose = random_chooser(rng, challenge=0.3)
        moves = 0

        def counted(client: Client) -> dict[str, Any]:
            nonlocal moves
            moves += 1
            return choose(client)

        def active() -> list[Client]:
            return [group[-1] for group in clients.values()]

        # Seat 0 drops out mid-game and comes back with what it holds: its catch-up is checked too.
        stop = rng.randrange(5, 30)
        play_out(active(), counted, until=lambda: moves >= stop or all(c.over for c in active()))
        first = clients[0][-1]
        first.sync()
        first.close()
        back = Client(http, table_id, tokens[0])
        back.hello(since=first.version)
        clients[0].append(back)
        play_out(active(), counted)
        record = http.get(f"/api/tables/{table_id}/replay").json()["record"]
        hidden = hidden_by_version(record, list(clients))
        checked = 0
        for seat, group in clients.items():
            for client in group:
                checked += check_frames(client, seat, hidden)
        assert checked >= 3


@pytest.mark.parametrize("repeat", range(3))
@pytest.mark.parametrize(("index", "config"), list(enumerate(CONFIGS)))
def test_no_message_names_a_card_its_seat_may_not_know(
    tmp_path: Path, index: int, config: tuple[Any, ...], repeat: int
) -> None:
    play_and_check(tmp_path, 1000 * repeat + index, config)


def test_the_check_catches_a_server_that_leaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that let one seat see the next seat's hand fails the check above."""
    honest = Table._view

    def leaky(self: Table, seat: int | None, game: Any = None, legal: Any = None) -> dict[str, Any]:
        game = game or self.game
        view = honest(self, seat, game, legal)
        if seat is not None:
            view["next_hand"] = game.view((seat + 1) % self.rules.players).hand.names()
        return view

    monkeypatch.setattr(Table, "_view", leaky)
    with pytest.raises(AssertionError, match=r"update|state|catchup"):
        play_and_check(tmp_path, 1, CONFIGS[0])


def test_the_check_itself_sees_a_leak() -> None:
    """The searcher finds card names in frames: a frame naming another seat's card fails the check."""
    game = Game(Rules(players=2), seed=3)
    other = game.hand(1).names()[0]
    assert other in hidden_cards(game, 0) and other not in hidden_cards(game, 1)
    assert CARD.findall(f'{{"hand": ["{other}"], "x": "11o5o"}}') == [other]
