"""A position rebuilt from a view and the true hidden cards is the real game (Game.from_view, engine/position.py).

Search bots trust that the games they build from a view behave exactly like the
real one; here the real hidden cards are put back and both games are played on
with the same decisions: their event streams must be identical to the end.
"""

from __future__ import annotations

import random
import zlib

import pytest

from ronda.engine.actions import Challenge
from ronda.engine.cards import CardSet
from ronda.engine.deck import shuffled_deck
from ronda.engine.errors import PositionError
from ronda.engine.events import ChallengeMade, Event, Show
from ronda.engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ronda.engine.rules import Rules

VARIANTS = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=2, auto_declare=True),
    Rules(players=4, four_card_hands=True),
    Rules(players=2, four_card_hands=True, ace_high=True),
    Rules(players=3, dealer_duty=True, chain_points=(1, 6, 15), undeclared_ronda_penalty=5),
    Rules(players=4, target=25),
    Rules(players=2, transfer_scoring=True),
    Rules(players=3, transfer_scoring=True),
]


def _random_action(game: Game, rng: random.Random) -> object:
    legal = game.legal_actions()
    challenges = [a for a in legal if isinstance(a, Challenge)]
    if challenges and rng.random() < 0.15:
        return rng.choice(challenges)
    return rng.choice([a for a in legal if not isinstance(a, Challenge)])


def _true_position(game: Game, seat: int, decks: list[list[int]]) -> Game:
    """The game rebuilt from ``seat``'s view with the true hidden cards, dealing the same decks after this round."""
    hidden = {s: game.hand(s) for s in range(game.players) if s != seat}
    return Game.from_view(game.view(seat), hidden, game.stock_cards(), decks=decks[game.round + 1 :])


def _hands_sorted(events: list[Event]) -> list[Event]:
    """The events with each shown hand sorted: a game lists a hand shown as it was dealt, in the deck's order
    (RECORD.md); a position knows the hands of the deal it starts in but not the order they came in, and lists
    those sorted (the later deals it deals from the stock, in order)."""
    return [e._replace(hand=tuple(sorted(e.hand))) if isinstance(e, (ChallengeMade, Show)) else e for e in events]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r))
def test_position_with_the_true_cards_plays_on_exactly_like_the_game(rules: Rules) -> None:
    rng = random.Random(zlib.crc32(repr(rules).encode()))  # the same seed in every process
    checked = 0
    for game_no in range(40):
        if checked >= 30:
            break
        deck_rng = random.Random(game_no)
        decks = [shuffled_deck(rules, deck_rng) for _ in range(8)]
        game = Game(rules, decks=decks)
        steps = 0
        while game.phase not in (OVER, WAITING) and checked < 30:
            if game.phase in (DECLARE, PLAY) and rng.random() < 0.08:
                seat = rng.randrange(game.players)
                position = _true_position(game, seat, decks)
                assert position.legal_actions() == game.legal_actions()
                piles = [[g.pile(side) for side in range(rules.sides)] for g in (position, game)]
                if not rules.transfer_scoring:
                    assert piles[0] == piles[1]
                assert position.pile_sizes == game.pile_sizes
                real = game.copy()
                start = len(real.events)
                follow = random.Random(steps)
                for _ in range(60):
                    if real.phase in (OVER, WAITING):
                        break
                    action = _random_action(real, follow)
                    assert action in position.legal_actions()
                    real.apply(action)
                    position.apply(action)
                assert _hands_sorted(position.events) == _hands_sorted(real.events[start:])
                assert position.scores == real.scores
                checked += 1
            game.apply(_random_action(game, rng))
            steps += 1
    assert checked >= 30


def test_a_placement_that_contradicts_the_view_is_refused() -> None:
    game = Game(Rules(players=2), seed=5)
    view = game.view(0)
    builder = Game.positions(view)
    stock = game.stock_cards()
    hands = [game.hand(seat).mask for seat in range(2)]
    with pytest.raises(PositionError, match="seat 1 holds 3 cards"):
        builder.build({1: hands[1] & (hands[1] - 1)}, stock)
    with pytest.raises(PositionError, match="cannot be hidden"):
        builder.build({1: hands[0]}, stock)
    with pytest.raises(PositionError, match="seat 0's hand is known"):
        builder.build({0: hands[1], 1: hands[1]}, stock)
    with pytest.raises(PositionError, match="the stock holds"):
        builder.build({1: hands[1]}, stock[1:])
    with pytest.raises(PositionError, match="the stock holds"):
        Game.from_view(view, {1: game.hand(1)}, stock[1:])


def test_shown_hands_are_known_and_need_no_placement() -> None:
    rules = Rules(players=2)
    for seed in range(200):
        game = Game(rules, seed=seed)
        game.apply(game.legal_actions()[1])  # seat 0 declares ronda, true or not
        game.apply(game.legal_actions()[0])
        if game.phase == PLAY and game.turn == 0:
            break
    # seat 0 plays, then seat 1 challenges seat 0's ronda
    game.apply(game.legal_actions()[0])
    if game.phase == OVER or not any(isinstance(a, Challenge) for a in game.legal_actions()):
        pytest.skip("no challengeable position in these seeds")
    game.apply(Challenge(0))
    if game.phase == OVER:
        pytest.skip("the ronda was true")
    view = game.view(1)
    builder = Game.positions(view)
    assert builder.unknown_seats() == []
    assert CardSet(builder.hidden) == view.unseen()
    rebuilt = builder.build({}, game.stock_cards())
    assert [rebuilt.hand(seat) for seat in range(2)] == [game.hand(seat) for seat in range(2)]
