"""The one returns helper: zero-sum for every player count, and a lost game never worth more than a won one."""

from __future__ import annotations

from extras import require

require("research")

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks import run, start
from ronda.adapters.returns import REWARDS, forfeiting_side, return_bounds, seat_returns, side_returns
from ronda.bots.winprob import win_probability
from ronda.engine.game import OVER
from ronda.engine.rules import Rules

episodes = st.builds(
    lambda players, target, points, winner, reward: (Rules(players=players, target=target), points, winner, reward),
    st.sampled_from([2, 3, 4]),
    st.sampled_from([5, 25, 41, 101]),
    st.lists(st.integers(0, 160), min_size=3, max_size=3),
    st.sampled_from([None, 0, 1, 2]),
    st.sampled_from([reward for reward in REWARDS if reward != "chances"]),  # chances: its own tests below
)


@given(episodes)
def test_returns_are_zero_sum_for_sides_and_for_seats(episode: tuple) -> None:
    rules, points, winner, reward = episode
    points = points[: rules.sides]
    winner = None if winner is None else winner % rules.sides
    assert sum(side_returns(rules, reward, points, winner)) == pytest.approx(0.0, abs=1e-9)
    assert sum(seat_returns(rules, reward, points, winner)) == pytest.approx(0.0, abs=1e-9)


@given(episodes, st.lists(st.integers(0, 160), min_size=3, max_size=3), st.integers(0, 2))
def test_a_lost_game_never_returns_more_than_a_won_one_or_than_a_round_not_decided(
    episode: tuple, other_points: list[int], side: int
) -> None:
    """Whatever the points: a side that lost the game gets no more than for winning it, or for any undecided one."""
    rules, points, _, reward = episode
    side %= rules.sides
    loser = (side + 1) % rules.sides
    won = side_returns(rules, reward, points[: rules.sides], side)[side]
    lost = side_returns(rules, reward, other_points[: rules.sides], loser)[side]
    low, high = return_bounds(rules, reward)
    assert low <= lost < won <= high
    if reward == "round":
        assert lost == low and won == high  # a decided game is the best and the worst a round can be
        undecided = side_returns(rules, reward, other_points[: rules.sides], None)[side]
        assert lost <= undecided <= won


@given(episodes, st.lists(st.integers(0, 160), min_size=3, max_size=3), st.integers(0, 2))
def test_every_return_lies_within_the_bounds_from_any_start_and_sums_to_zero(
    episode: tuple, start: list[int], forfeit: int
) -> None:
    """Whatever the scores an episode began at, and a game thrown away by a failed challenge too."""
    rules, points, winner, reward = episode
    winner = None if winner is None else winner % rules.sides
    low, high = return_bounds(rules, reward)
    points, start = points[: rules.sides], [min(s, rules.target - 1) for s in start[: rules.sides]]
    assert all(low <= value <= high for value in side_returns(rules, reward, points, winner))
    began = side_returns(rules, reward, points, winner, start=start)
    assert all(low <= value <= high for value in began) and sum(began) == pytest.approx(0.0, abs=1e-9)
    if winner is not None and forfeit % rules.sides != winner:
        thrown = side_returns(rules, reward, points, winner, forfeit=forfeit % rules.sides)
        assert thrown[forfeit % rules.sides] == low and sum(thrown) == pytest.approx(0.0, abs=1e-9)


def test_R8_8_ahead_6_0_a_failed_challenge_returns_the_least_there_is_in_every_reward() -> None:
    """Seat 0 scores a true tringa (6-0 with the ronda it beats), challenges seat 1's true ronda, loses the game."""
    rules = Rules(players=2)
    game = start(rules, [{0: "5o 5c 5e", 1: "7o 7c 1e"}], table="2b 4o 10o 11c", dealer=1)
    run(game, "declare tringa; declare ronda")
    assert game.scores == [6, 0]  # R8.4: the tringa takes the points of both declarations
    run(game, "challenge 1")
    assert game.phase == OVER and game.winner == 1
    assert seat_returns(rules, "round", game.scores, game.winner) == (-41.0, 41.0)
    assert seat_returns(rules, "outcome", game.scores, game.winner) == (-1.0, 1.0)
    forfeit = forfeiting_side(rules, game.events)
    assert forfeit == 0
    assert seat_returns(rules, "game", game.scores, game.winner, forfeit=forfeit) == return_bounds(rules, "game")
    assert seat_returns(rules, "game", game.scores, game.winner) == (6.0 - 82.0, 82.0 - 6.0)  # a game lost at 6-41


def test_three_players_outcome_and_round_pay_the_winner_what_the_others_lose() -> None:
    rules = Rules(players=3)
    assert side_returns(rules, "outcome", [41, 40, 0], 0) == (1.0, -0.5, -0.5)
    assert side_returns(rules, "round", [3, 40, 0], 0) == (82.0, -41.0, -41.0)
    assert side_returns(rules, "round", [9, 3, 0], None) == (7.5, -1.5, -6.0)
    # side 2 challenged side 0's true declaration: the least there is for it, zero-sum all the same
    assert side_returns(rules, "game", [12, 30, 38], 0, forfeit=2) == (102.5, -20.5, -82.0)
    assert side_returns(rules, "game", [12, 30, 38], 0, forfeit=2)[2] == return_bounds(rules, "game")[0]
    # a win with the others close behind is still worth more than second place far ahead of the third
    assert side_returns(rules, "game", [41, 40, 40], 0)[0] > side_returns(rules, "game", [41, 40, 0], 0)[1]


def test_four_players_partners_share_their_side_s_return() -> None:
    assert seat_returns(Rules(players=4), "round", [8, 3], None) == (5.0, -5.0, 5.0, -5.0)


@settings(deadline=None, max_examples=60)
@given(
    st.sampled_from([Rules(players=2), Rules(players=3), Rules(players=4, target=25)]),
    st.lists(st.integers(0, 60), min_size=3, max_size=3),
    st.lists(st.integers(0, 40), min_size=3, max_size=3),
    st.sampled_from([None, 0, 1, 2]),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_chances_pay_the_change_in_the_chance_to_win_zero_sum_and_within_their_bounds(
    rules: Rules, points: list[int], start: list[int], winner: int | None, first: int, then: int
) -> None:
    sides = rules.sides
    start = [min(s, rules.target - 1) for s in start[:sides]]
    points = [max(p, s) for p, s in zip(points[:sides], start, strict=False)]
    winner = None if winner is None else winner % sides
    if winner is None:
        points = [min(p, rules.target - 1) for p in points]  # a game not decided has no side at the target
    dealers = (first % rules.players, then % rules.players)
    paid = side_returns(rules, "chances", points, winner, start=start, dealers=dealers)
    before = win_probability(rules, start, dealers[0])
    after = win_probability(rules, points, dealers[1]) if winner is None else [float(s == winner) for s in range(sides)]
    assert paid == pytest.approx([a - b for a, b in zip(after, before, strict=True)])
    assert sum(paid) == pytest.approx(0.0, abs=1e-9) and all(-1.0 <= value <= 1.0 for value in paid)
    if winner is not None:  # a won game is worth the most the start allowed, a lost one the least
        assert paid[winner] == pytest.approx(1.0 - before[winner])
        assert all(paid[s] == pytest.approx(-before[s]) for s in range(sides) if s != winner)
