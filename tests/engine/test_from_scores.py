"""A game that begins at given scores: positions near the target without the rounds before them."""

from __future__ import annotations

import pytest

from decks import build_deck, of, run
from ronda.engine.cards import parse_card
from ronda.engine.errors import RondaError
from ronda.engine.game import OVER, Game
from ronda.engine.rules import Rules

RULES = Rules(players=2)


def _deck(deals: list[dict[int, str]], table: str, dealer: int) -> list[int]:
    return [parse_card(c) for c in build_deck(RULES, deals, table=table, dealer=dealer)]


def test_R9_3_R9_5_a_true_tringa_declared_at_38_is_shown_and_wins_the_game() -> None:
    deck = _deck([{0: "5o 5c 5e", 1: "7o 3c 1e"}], "2b 4o 10o 11c", dealer=1)
    game = Game.from_scores(RULES, [38, 12], round=3, decks=[deck], dealer=1)
    assert (game.scores, game.round, game.dealer, game.turn) == ([38, 12], 3, 1, 0)
    events = run(game, "declare tringa; declare none")
    assert of(events, "show", "score", "game_over") == [
        {"type": "show", "seat": 0, "hand": ["5o", "5c", "5e"]},
        {"type": "score", "side": 0, "points": 5, "reason": "announcement", "seat": None},
        {"type": "game_over", "winner": 0, "reason": "target"},
    ]
    assert game.phase == OVER and game.winner == 0 and game.scores == [43, 12]


def test_the_same_tringa_at_0_0_wins_nothing_yet() -> None:
    deck = _deck([{0: "5o 5c 5e", 1: "7o 3c 1e"}], "2b 4o 10o 11c", dealer=1)
    game = Game.from_scores(RULES, [0, 0], decks=[deck], dealer=1)
    run(game, "declare tringa; declare none")
    assert game.phase != OVER and game.scores == [5, 0]
    assert game.to_record()["rounds"][0]["actions"] == [
        {"seat": 0, "declare": "tringa"},
        {"seat": 1, "declare": "none"},
    ]  # 0-0 in round 0 is an ordinary game, with its record


def test_the_next_round_is_numbered_on_and_dealt_by_the_next_seat() -> None:
    game = Game.from_scores(Rules(players=3), [1, 2, 3], round=5, seed=4, dealer=0)
    first = game.round
    while game.round == first and game.phase != OVER:
        game.apply(game.legal_actions()[0])
    assert game.phase != OVER and (game.round, game.dealer) == (6, 1)


def test_a_game_begun_at_scores_has_no_record() -> None:
    game = Game.from_scores(RULES, [30, 2], seed=1)
    with pytest.raises(RondaError, match=r"began at scores \[30, 2\] in round 0"):
        game.to_record()


@pytest.mark.parametrize(
    ("scores", "round_", "problem"),
    [
        ([41, 0], 0, r"side 0's score must be a whole number from 0 to 40 \(at 41 the game is won"),
        ([0, -1], 0, "side 1's score"),
        ([3, 4, 5], 0, r"one number per side \(2 sides\)"),
        ("12", 0, "one number per side"),
        ([3, 4], -1, "the round must be a whole number from 0"),
    ],
)
def test_bad_scores_or_round_are_named(scores: object, round_: int, problem: str) -> None:
    with pytest.raises(RondaError, match=problem):
        Game.from_scores(RULES, scores, round=round_, seed=1)  # type: ignore[arg-type]
