"""Rollouts that play as the expert plays (``benchmarks/rollout_imitation.py``): what a seat's card is described by,
the fit that weighs those numbers, and the policy the screen puts in the expert's rollouts."""

from __future__ import annotations

import math
import random
import sys

import numpy as np
import pytest

from benchmark_scripts import ROOT, run_benchmark
from ronda.bots.pimc import ExpertBot
from ronda.engine.actions import Play
from ronda.engine.game import OVER, Game
from ronda.engine.presets import preset_rules
from ronda.engine.rules import Rules

sys.path.insert(0, str(ROOT / "benchmarks"))
from rollout_imitation import NAMES, features, fit, imitating_policy


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def test_a_capture_that_clears_the_table_and_a_pair_dropped_are_described_by_what_they_take_and_risk() -> None:
    """The seat holds a 5 and two 3s; the table holds one 5. The 5 takes it, the table is empty: a missa, two
    cards, and nothing for the next seat to answer. A 3 is dropped: nothing taken, and the next seat (three cards
    from the 36 this seat has not seen, two of them 3s) holds a 3, to take it by caida, with chance
    1 - C(34,3)/C(36,3)."""
    hand = 1 << card(4, 0) | 1 << card(2, 0) | 1 << card(2, 1)
    other = 1 << card(0, 0) | 1 << card(0, 1) | 1 << card(0, 2)
    out = 1 << card(4, 1)  # the 5 on the table
    state = (0, (hand, other), 1 << 4, -1, -1, 0, 6, False, Rules(), out)
    described = {c >> 2: dict(zip(NAMES, numbers, strict=True)) for c, numbers in features(state)}
    assert set(described) == {2, 4}
    five, three = described[4], described[2]
    assert (five["points"], five["cards"], five["dropped"], five["exposed"]) == (1.0, 2.0, 0.0, 0.0)
    assert five["reply2"] == 0.0 and five["table_after"] == 0.0  # an empty table: every reply is a drop
    caida_chance = 1 - math.comb(34, 3) / math.comb(36, 3)
    assert (three["points"], three["cards"], three["dropped"], three["pair"]) == (0.0, 0.0, 1.0, 1.0)
    assert three["exposed"] == pytest.approx(caida_chance)
    assert three["reply2"] > 0  # a caida is open to the next seat
    assert (three["height"], three["unseen"], three["table_after"]) == (pytest.approx(2 / 9), 0.5, 0.2)


def test_the_fit_finds_the_weights_that_made_the_choices() -> None:
    """Choices drawn from softmax(w . f) with known weights: the maximum-likelihood fit recovers them."""
    rng = np.random.default_rng(3)
    truth = np.array([1.5, -2.0, 0.5])
    rows, chosen = [], []
    for _ in range(3000):
        x = rng.normal(size=(int(rng.integers(2, 5)), 3))
        p = np.exp(x @ truth)
        rows.append(x)
        chosen.append(int(rng.choice(len(x), p=p / p.sum())))
    w = fit(rows, np.array(chosen), ridge=0.0)
    assert np.abs(w - truth).max() < 0.15, w


@pytest.mark.parametrize("players", [2, 3])
def test_the_imitating_policy_plays_a_card_of_the_seat_s_hand_to_the_round_s_end(players: int) -> None:
    """Played for every seat through whole rounds, as the rollouts play it (three players: the blind rollout)."""
    policy = imitating_policy([1.7, 1.1, -0.4, 0.2, -1.8, 1.2, -0.6, -0.5, -1.0, -0.1])
    rand = random.Random(5).random
    for seed in range(3):
        game = Game(Rules(players=players, auto_declare=True), seed=seed)
        while game.round == 0 and game.phase != OVER:
            state = game.search_state()
            chosen = policy(state, rand)
            assert state.hands[state.seat] >> chosen & 1, "a card the seat holds"
            game.apply(Play(chosen), seat=state.seat)


def test_the_expert_with_imitating_rollouts_plays_a_legal_round() -> None:
    rules = preset_rules("classic", 2, target=10_000)
    game = Game(rules, seed=4)
    bots = [ExpertBot(1, samples=8, policy=imitating_policy([1.0] * len(NAMES))), ExpertBot(2, samples=8)]
    while game.round == 0 and game.phase != OVER:
        seat = game.turn
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat=seat)
    assert game.round == 1 or game.phase == OVER


def test_the_script_collects_fits_and_says_how_well_it_imitates() -> None:
    done = run_benchmark("rollout_imitation", "--units", "1", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fitted on (seed 9300)" in done.stdout and "held out, the expert's rank chosen first" in done.stdout
