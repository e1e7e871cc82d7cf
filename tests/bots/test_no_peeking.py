"""Bots never peek (R11): same view, same decision, whatever the cards the seat cannot see.

Twin games are built from explicit decks that differ only in the cards hidden
from one seat — the other hands' unplayed cards and the stock, shuffled among
themselves — and the same decisions are replayed in both. The seat's views are
equal; every level, for each of several seeds, must then decide the same.
"""

from __future__ import annotations

import gc
import random

import pytest
from bot_levels import QUICK

from decks import random_position
from ronda.bots import levels, make_bot
from ronda.engine.cards import card_name, parse_card
from ronda.engine.game import DECLARE, PLAY, Game
from ronda.engine.record import replay
from ronda.engine.rules import Rules
from ronda.engine.view import SeatView

RULES = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=2, auto_declare=True),
    Rules(players=4, four_card_hands=True),
]


def twin_games(rules: Rules, seed: int, steps: int) -> tuple[Game, Game] | None:
    """The game after some decisions, and a twin whose cards hidden from the seat to act are shuffled."""
    game = random_position(rules, seed, steps, challenge_rate=0.05)
    seat = game.turn
    hidden = list(game.view(seat).unseen())
    if len(hidden) < 2:
        return None
    rng = random.Random(seed)
    for _ in range(20):
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        swap = dict(zip(hidden, shuffled, strict=True))
        record = game.to_record()
        last = record["rounds"][-1]
        last["deck"] = [card_name(swap.get(parse_card(c), parse_card(c))) for c in last["deck"]]
        twin = replay(record)
        hands = [[g.hand(s) for s in range(rules.players)] for g in (game, twin)]
        if twin.view(seat) == game.view(seat) and hands[0] != hands[1]:
            return game, twin
    return None


BOTS = QUICK


@pytest.mark.parametrize("level", list(BOTS))
def test_same_view_same_decision_whatever_the_hidden_cards(level: str) -> None:
    compared = 0
    for case in range(40):
        rules = RULES[case % len(RULES)]
        twins = twin_games(rules, seed=case, steps=(case * 7) % 90)
        if twins is None:
            continue
        game, twin = twins
        seat = game.turn
        assert game.phase in (DECLARE, PLAY)
        for seed in range(3):
            first = BOTS[level](seed).choose(game.view(seat), game.legal_actions())
            second = BOTS[level](seed).choose(twin.view(seat), twin.legal_actions())
            assert first == second, f"{level} decided differently on hidden cards (case {case}, seed {seed})"
        compared += 1
    assert compared >= 25


def test_the_levels_are_the_named_ones_random_first() -> None:
    assert levels()[:5] == ["random", "easy", "medium", "hard", "expert"]
    assert "cheating" not in levels()
    for name in levels():
        assert make_bot(name, seed=1).name == name


def _reachable(root: object, limit: int = 20_000) -> list[object]:
    seen = {id(root)}
    todo = [root]
    found = []
    while todo and len(found) < limit:
        obj = todo.pop()
        found.append(obj)
        for ref in gc.get_referents(obj):
            if id(ref) not in seen and not isinstance(ref, type):
                seen.add(id(ref))
                todo.append(ref)
    return found


@pytest.mark.parametrize("level", list(BOTS))
def test_a_bot_is_given_a_view_that_leads_to_no_game(level: str) -> None:
    game = Game(Rules(players=3), seed=11)
    bot = BOTS[level](1)
    given: list[object] = []
    choose = bot.choose

    def spy(view: SeatView, legal: list[object]) -> object:
        given.append(view)
        return choose(view, legal)  # type: ignore[arg-type]

    for _ in range(12):
        view = game.view(game.turn)
        action = spy(view, game.legal_actions())
        game.apply(action)  # type: ignore[arg-type]
    assert all(type(v) is SeatView for v in given)
    # Nothing reachable from what the bot is given, nor from the bot itself afterwards, is a game.
    for root in (*given, bot):
        assert not any(isinstance(obj, Game) for obj in _reachable(root))
