"""Round summaries computed once from the events: every point of a round in its group, adding up to the scores."""

from __future__ import annotations

import random

from decks import run, start
from ronda.engine.actions import Challenge
from ronda.engine.events import RoundEnd, Score, Transfer
from ronda.engine.game import OVER, Game
from ronda.engine.rules import Rules
from ronda.presentation.summary import Tally, category_of, tally_rounds


def random_game(rules: Rules, seed: int, rounds: int = 3) -> Game:
    """A seeded game of random choices (bluffs, a few challenges) for ``rounds`` rounds or until it is won."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while game.phase != OVER and sum(isinstance(e, RoundEnd) for e in game.events) < rounds:
        legal = game.legal_actions()
        challenges = [a for a in legal if isinstance(a, Challenge)]
        if challenges and rng.random() < 0.05:
            game.apply(rng.choice(challenges))
        else:
            game.apply(rng.choice([a for a in legal if not isinstance(a, Challenge)]))
    return game


def test_R9_every_round_s_breakdown_adds_up_to_the_engine_s_scores():
    for players in (2, 3, 4):
        for seed in range(6):
            rules = Rules(players=players, target=60, dealer_duty=seed % 2 == 1)
            game = random_game(rules, seed)
            rounds = tally_rounds(game.events, players)
            before = [0] * rules.sides
            for tally in rounds:
                for side in range(rules.sides):
                    assert sum(points for _, points in tally.breakdown(side)) == tally.round_points(side)
                    assert tally.totals[side] == before[side] + tally.round_points(side)
                before = tally.totals
            assert rounds[-1].totals == list(game.scores)
            scored = {(e.side, category_of(e.reason)) for e in game.events if isinstance(e, Score) and e.points}
            told = {(side, group) for t in rounds for side in range(rules.sides) for group, _ in t.breakdown(side)}
            assert told <= scored  # every group told was scored (groups netting to 0 in a round are left out)


def test_R8_6_a_round_s_groups_from_an_explicit_deal():
    """Seat 0 bluffs a ronda (+1 at once), is challenged (seat 1 +1 penalty, the +1 taken back), seat 1's caida."""
    game = start(Rules(players=2), [{0: "5o 6c 3e", 1: "5c 11o 2b"}], table="7e 10e 4b 1c")
    run(game, "declare ronda; declare none; play 5o; challenge 0; play 5c")
    tally = Tally(players=2)
    assert tally.feed(game.events) == []  # no round has ended
    (current,) = tally.rounds
    assert current.points == [{"announcement": 0}, {"false_announcement": 1, "caida": 1}]
    assert current.breakdown(0) == [] and current.breakdown(1) == [("caida", 1), ("penalties", 1)]
    assert current.lines(players=2, me=1) == [
        "— Round 1, not played out —",
        "  Seat 0: +0 this round, 0 in all",
        "    nothing scored",
        "  You: +2 this round, 2 in all",
        "    caida +1 · penalties +1",
    ]


def test_R9_3_a_game_won_mid_round_ends_with_a_round_not_played_out():
    game = random_game(Rules(players=2, target=3), seed=1, rounds=99)
    assert game.phase == OVER and not any(isinstance(e, RoundEnd) for e in game.events)  # won in round 1
    (last,) = tally_rounds(game.events, 2)
    assert not last.finished and last.piles is None
    assert last.totals == list(game.scores)
    assert last.lines(players=2)[0] == "— Round 1, not played out —"


def test_transfer_scoring_tallies_the_cards_each_reason_moved():
    game = random_game(Rules(players=3, transfer_scoring=True, target=200), seed=4, rounds=1)
    tally = tally_rounds(game.events, 3)[0]
    moved = [e for e in game.events if isinstance(e, Transfer) and e.cards]
    assert moved  # points were paid in cards
    for reason in {e.reason for e in moved}:
        assert sum(tally.moved[side].get(reason, 0) for side in range(3)) == 0  # every card paid was received
        paid = sum(e.cards for e in moved if e.reason == reason)
        assert sum(max(0, tally.moved[side].get(reason, 0)) for side in range(3)) <= paid
    assert all(set(by_reason) <= {"cards"} for by_reason in tally.points)  # only the card count adds to scores
    assert any("cards moved by points:" in line for line in tally.lines(players=3))
