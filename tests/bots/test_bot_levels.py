"""Every level plays whole games legally, in every player count and variant.

Levels are mixed at one table so each meets the others' declarations and
plays; every decision must be one of the legal actions, and a level that only
challenges what counting proves false never loses a game by a failed challenge.
"""

from __future__ import annotations

import pytest
from bot_levels import QUICK

from decks import build_deck
from ronda.bots.rules_based import MediumBot, holds_rank_chance
from ronda.engine.actions import Declare, Play
from ronda.engine.cards import CardSet, parse_card
from ronda.engine.events import ChallengeMade, GameOver
from ronda.engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ronda.engine.rules import Rules

TABLES = [
    (Rules(players=2, target=25), ["hard", "medium"]),
    (Rules(players=2, target=25, auto_declare=True), ["expert", "easy"]),
    (Rules(players=3, target=25), ["medium", "hard", "random"]),
    (Rules(players=3, target=25, dealer_duty=True, chain_points=(1, 6, 15)), ["expert", "medium", "easy"]),
    (Rules(players=4, target=25), ["hard", "easy", "medium", "expert"]),
    (Rules(players=4, target=25, four_card_hands=True, ace_high=True), ["medium", "hard", "random", "expert"]),
    (Rules(players=2, target=25, four_card_hands=True), ["expert", "hard"]),
    (Rules(players=4, target=25, transfer_scoring=True, auto_declare=True), ["hard", "medium", "easy", "random"]),
    (Rules(players=3, target=25), ["medium", "expert", "hard"]),
]
BOTS = QUICK


@pytest.mark.parametrize(("rules", "seating"), TABLES, ids=[repr(r) for r, _ in TABLES])
def test_each_level_plays_whole_games_legally(rules: Rules, seating: list[str]) -> None:
    bots = [BOTS[level](seat) for seat, level in enumerate(seating)]
    game = Game(rules, seed=len(seating) * 100 + rules.target)
    decisions = 0
    while game.phase not in (OVER, WAITING):
        assert game.phase in (DECLARE, PLAY)
        seat = game.turn
        legal = game.legal_actions()
        if rules.auto_declare:
            assert game.phase == PLAY
        action = bots[seat].choose(game.view(seat), legal)
        assert action in legal, f"{seating[seat]} chose {action} from {legal}"
        for event in game.apply(action, seat):
            if isinstance(event, ChallengeMade) and seating[event.seat] == "medium":
                assert not event.truthful, "medium challenged a declaration counting did not prove false"
        decisions += 1
    assert game.phase == OVER and any(isinstance(e, GameOver) for e in game.events)
    assert decisions > 30


def test_medium_counts_cards_and_easy_does_not() -> None:
    """With three 5s already played, the fourth can be anywhere unseen for easy, nowhere else for medium."""
    rules = Rules(players=2)
    for seed in range(300):
        game = Game(rules, seed=seed)
        while game.phase != OVER and game.round == 0:
            view = game.view(game.turn)
            fives_played = sum(1 for _, c in view.plays if c >> 2 == 4)
            if fives_played == 4 and game.phase == PLAY and parse_card("5o") not in view.hand:
                assert holds_rank_chance(view, 1 - view.seat, 4, memory=True) == 0.0
                assert holds_rank_chance(view, 1 - view.seat, 4, memory=False) > 0.0
                return
            game.apply(MediumBot(seed).choose(view, game.legal_actions()))
    pytest.fail("no position with all four 5s played")


def test_medium_takes_a_caida_rather_than_drop() -> None:
    """Seat 1 can take the 5 just dropped with its run (R5.1): medium does, instead of dropping a card."""
    rules = Rules(players=2)
    deck = [parse_card(c) for c in build_deck(rules, deals=[{0: "5o 1c 2e", 1: "5c 12b 11b"}], table="7e 10e 4b 6c")]
    game = Game(rules, decks=[deck])
    game.apply(Declare("none"))
    game.apply(Declare("none"))
    game.apply(Play(parse_card("5o")))
    view = game.view(1)
    assert view.hand == CardSet.parse("5c 11b 12b")
    assert MediumBot(1).choose(view, game.legal_actions()) == Play(parse_card("5c"))


def test_the_cheating_bot_plays_legally_from_the_game_itself_and_is_no_level() -> None:
    from ronda.bots import levels
    from ronda.bots.cheating import CheatingBot

    cheater = CheatingBot(0, rollouts=3)
    assert "cheating" not in levels()
    game = Game(Rules(players=3, target=20), seed=8)
    medium = MediumBot(1)
    while game.phase != OVER and game.round < 2:
        seat = game.turn
        action = cheater.choose(game) if seat == 0 else medium.choose(game.view(seat), game.legal_actions())
        assert action in game.legal_actions()
        game.apply(action)
    assert game.round >= 1 or game.phase == OVER
