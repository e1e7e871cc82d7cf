"""Step-by-step replays of finished games: every decision with the events it caused and the state after it.

Once a game is over every hand may be shown (the doc's replay endpoint), so
each step's state is the public view plus ``hands``: what each seat held at
that moment. The steps come from replaying the stored record through the
engine, exactly as the live game went, including the next round's deal that
followed a round's last card.

>>> from ronda import Game, Rules
>>> game = Game(Rules(players=2, auto_declare=True, target=5), seed=4)
>>> while not game.finished:
...     _ = game.apply(game.legal_actions()[0])
>>> steps = replay_steps(game.to_record())
>>> steps[0]["action"] is None, steps[-1]["state"]["phase"]
(True, 'game_over')
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import action_from_record
from ...engine.cards import parse_card
from ...engine.game import WAITING, Game
from ...engine.rules import Rules
from .protocol import public_view_json


def replay_state_json(game: Game) -> dict[str, Any]:
    """The public view with every hand shown: for finished games only."""
    state = public_view_json(game)
    state["hands"] = [game.hand(seat).names() for seat in range(game.rules.players)]
    return state


def replay_steps(record: dict[str, Any], base_version: int = 0) -> list[dict[str, Any]]:
    """The steps of a finished game's record: the deal first (``action`` null), then one step per decision."""
    rules = Rules.from_dict(record["rules"])
    rounds = record["rounds"]
    decks = [[parse_card(card) for card in rnd["deck"]] for rnd in rounds]
    game = Game(rules, decks=[decks[0]], dealer=record.get("dealer", rules.players - 1))
    seen = 0

    def step(action: dict[str, Any] | None) -> dict[str, Any]:
        nonlocal seen
        events = game.events[seen:]
        first = base_version + seen + 1
        seen = len(game.events)
        return {
            "action": action,
            "events": [{**e.to_json(), "version": first + i} for i, e in enumerate(events)],
            "state": replay_state_json(game),
        }

    steps = [step(None)]
    for index, rnd in enumerate(rounds):
        for entry in rnd["actions"]:
            seat, action = action_from_record(entry)
            game.apply(action, seat=seat)
            if game.phase == WAITING and index + 1 < len(decks):
                game.add_deck(decks[index + 1])
            steps.append(step(entry))
    return steps
