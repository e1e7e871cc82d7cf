"""Rollouts that respect what each seat can see (issue 28, item 4: an expert worth its cost).

A rollout policy that reads the guessed hands plays every seat as if the cards were face up; the blind
policy judges the next seat's reply by the chance that it holds each rank, counted from the cards the
seat to play has not seen: the other hands and the stock, never the guess's hand itself.
"""

from __future__ import annotations

import random

import pytest

from ronda.bots.rollout import blind_policy, greedy_policy, lookahead_policy
from ronda.engine.cards import ALL_CARDS, CardSet
from ronda.engine.game import PLAY, Game, Policy, SearchState
from ronda.engine.rules import Rules


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


def _state(next_hand: str) -> SearchState:
    """Two players, seat 0 to play 3o or 6o onto a table holding 11o; 6e and 6b are taken already.

    Whichever card seat 0 drops, the next seat takes it by caida if it holds that rank. Three 3s are
    unseen by seat 0, one 6: a 3 is the likelier caida."""
    return SearchState(
        seat=0,
        hands=(_mask("3o 6o"), _mask(next_hand)),
        table=1 << 8,  # the rank of 11
        drop=-1,
        chain=-1,
        chain_count=0,
        cards_left=4,
        last_deal=False,
        rules=Rules(players=2),
        out=_mask("11o 6e 6b"),
    )


def _choice(policy: Policy, state: SearchState) -> str:
    return str(CardSet([policy(state, lambda: 0.5)]))


@pytest.mark.parametrize("depth", [2, 3])
def test_the_blind_rollout_fears_the_likelier_caida_not_the_guessed_one(depth: int) -> None:
    """The guess gives the next seat the one unseen 6: reading it, the policy of the same depth keeps the 6 and
    drops the 3. Blind to that hand, the seat drops the 6, the rank the next seat is least likely to hold,
    and it does so whatever the guess holds."""
    reading = greedy_policy(0.7, explore=0.0) if depth == 2 else lookahead_policy(3, 0.7, explore=0.0)
    blind = blind_policy(depth, 0.7, explore=0.0)
    assert _choice(reading, _state("6c 12e")) == "3o"
    assert _choice(blind, _state("6c 12e")) == "6o"
    assert _choice(blind, _state("3c 12e")) == "6o"


def test_the_cards_out_are_those_played_this_round() -> None:
    """SearchState.out is what a seat has seen beyond its hand: every card neither in a hand nor in the stock."""
    game = Game(Rules(players=2, auto_declare=True), seed=5)
    rng = random.Random(5)
    plays = 0
    while game.round == 0 and plays < 30:
        if game.phase == PLAY:
            state = game.search_state()
            hidden = CardSet(game.stock_cards()).mask
            for hand in state.hands:
                hidden |= hand
            assert state.out == ALL_CARDS & ~hidden
            plays += 1
        game.apply(rng.choice(game.legal_actions()))
    assert plays == 30
