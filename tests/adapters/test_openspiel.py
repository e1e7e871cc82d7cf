"""OpenSpiel: parameters that survive every round trip, true bounds, perfect recall, and the users' own algorithms."""

from __future__ import annotations

from extras import require

require("research")

import pickle
import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from ronda.adapters import openspiel as ronda_openspiel
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.openspiel import INFORMATION_STATE_SIZE, RondaBot, Stateless
from ronda.adapters.pettingzoo import env
from ronda.engine.cards import card_name

ROOT = Path(__file__).resolve().parents[2]

VARIANTS = [
    {},
    {"players": 3, "reward": "round"},
    {"players": 4, "reward": "game", "max_rounds": 2, "dealer_duty": True},
    {"players": 3, "chain_points": "1,6,15", "undeclared_ronda_penalty": 5},
    {"four_card_hands": True, "ace_high": True},
    {"players": 4, "four_card_hands": True},
    {"auto_declare": True, "reward": "outcome", "max_rounds": 3, "target": 11},
    {"players": 3, "transfer_scoring": True},
]


def _random_state(game: pyspiel.Game, seed: int, decisions: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            made += 1
    return state


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_every_variant_survives_the_game_string_pickling_and_serialization(params: dict) -> None:
    game = pyspiel.load_game("python_ronda", params)
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = _random_state(game, seed=3, decisions=25)
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and str(again) == str(state)
    game_2, state_2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(game_2) == str(game)
    for player in range(game.num_players()):
        assert state_2.information_state_string(player) == state.information_state_string(player)
        assert state_2.information_state_tensor(player) == state.information_state_tensor(player)
        assert state_2.observation_tensor(player) == state.observation_tensor(player)
    clone = state.clone()
    if not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0] if not clone.is_chance_node() else clone.chance_outcomes()[0][0])
        assert clone.history() != state.history() and str(pickle.loads(pickle.dumps(state))) == str(state)


def test_the_default_game_string_is_short_and_chain_points_has_no_comma() -> None:
    assert str(pyspiel.load_game("python_ronda")) == "python_ronda()"
    assert str(pyspiel.load_game("python_ronda", {"chain_points": "1,6,15"})) == "python_ronda(chain_points=1_6_15)"
    assert str(pyspiel.load_game("python_ronda(chain_points=1_6_15,players=3)")).count(",") == 1


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4, not 5"),
        ({"chain_points": "1,2,3"}, "chain_points must be 1_5_10 or 1_6_15"),
        ({"reward": "points"}, "reward must be one of round, game, outcome"),
        ({"max_rounds": 0}, "max_rounds must be a whole number from 1 to 1000"),
        ({"players": 3, "four_card_hands": True}, "four_card_hands is played by 2 or 4 players"),
        ({"target": 0}, "target must be a whole number of points"),
        ({"speed": 1}, "Unknown parameter 'speed'"),
    ],
)
def test_a_bad_parameter_is_a_spiel_error_naming_it(params: dict, message: str) -> None:
    with pytest.raises(pyspiel.SpielError, match=message):
        pyspiel.load_game("python_ronda", params)


@pytest.mark.parametrize("params", VARIANTS[:4], ids=["2p", "3p", "4p game", "3p heavy"])
def test_returns_and_lengths_stay_within_the_game_s_bounds_and_sum_to_zero(params: dict) -> None:
    game = pyspiel.load_game("python_ronda", params)
    for seed in range(4):
        state = _random_state(game, seed, decisions=10_000)
        decisions = sum(1 for entry in state.full_history() if entry.player >= 0)
        assert decisions <= game.max_game_length()
        returns = state.returns()
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        assert sum(returns) == pytest.approx(0.0)


def test_left_at_their_defaults_the_three_libraries_pay_for_the_same_thing_a_whole_game_won() -> None:
    """A researcher comparing PettingZoo, Gymnasium and OpenSpiel without naming a reward compares one objective."""
    game = pyspiel.load_game("python_ronda")
    assert game.get_type().parameter_specification["reward"] == "outcome"
    assert env().reward_mode == RondaEnv(opponents="random").reward_mode == "outcome"
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    rounds = set()
    for seed in range(6):
        state = _random_state(game, seed, decisions=10_000)
        assert state.is_terminal() and sorted(state.returns()) == [-1.0, 1.0]
        rounds.add(state.engine.round)
    assert max(rounds) > 0  # the episode went on past its first round


def test_the_utility_bounds_are_the_returns_helper_s() -> None:
    one_round = pyspiel.load_game("python_ronda(reward=round)")
    assert (one_round.min_utility(), one_round.max_utility()) == (-41.0, 41.0)
    outcome = pyspiel.load_game("python_ronda(players=3,reward=outcome)")
    assert (outcome.min_utility(), outcome.max_utility()) == (-0.5, 1.0)
    assert pyspiel.load_game("python_ronda(auto_declare=True,reward=round)").max_game_length() == 36
    assert pyspiel.load_game("python_ronda(auto_declare=True,max_rounds=3)").max_game_length() == 3 * 36


def test_the_information_state_recalls_the_order_of_play_and_the_observation_does_not() -> None:
    """Two histories with the same cards played in another order: the same observation, other information states."""
    game = pyspiel.load_game("python_ronda", {"auto_declare": True})
    deck = [
        4,
        21,
        38,
        5,
        22,
        39,
        0,
        13,
        26,
        33,
        *[c for c in range(40) if c not in (4, 21, 38, 5, 22, 39, 0, 13, 26, 33)],
    ]
    states = []
    for order in ((4, 5, 21, 22), (21, 22, 4, 5)):
        state = game.new_initial_state()
        for card in deck:
            state.apply_action(card)
        for card in order:
            state.apply_action(card)
        states.append(state)
    first, second = states
    # seat 0 holds 2o 6c 12e and plays 2o and 6c, each taken by seat 1's 2c and 6e as a caida: only the order differs
    assert [card_name(c) for c in (4, 21, 38, 5, 22)] == ["2o", "6c", "12e", "2c", "6e"]
    assert first.observation_tensor(0) == second.observation_tensor(0)
    assert first.information_state_tensor(0) != second.information_state_tensor(0)
    assert first.information_state_string(0) != second.information_state_string(0)
    assert first.information_state_string(0) != first.observation_string(0)
    assert len(first.information_state_tensor(0)) == INFORMATION_STATE_SIZE


def test_R11_swapping_a_card_of_another_hand_with_a_stock_card_changes_no_information_state() -> None:
    """The chance history with two unseen cards exchanged: player 0 knows and sees exactly the same."""
    game = pyspiel.load_game("python_ronda", {"players": 3})
    swapped = 0
    for seed in range(10):
        state = _random_state(game, seed, decisions=8 + 3 * seed)
        if state.is_terminal() or state.is_chance_node():
            continue
        engine = state.engine
        view = engine.view(0)
        unshown = [seat for seat in (1, 2) if view.shown[seat] is None and engine.hand(seat)]
        if not unshown:
            continue
        opponent = unshown[0]
        hidden = list(engine.hand(opponent))
        stock = [c for c in view.unseen() if c not in engine.hand(1) and c not in engine.hand(2)]
        if not hidden or not stock:
            continue
        a, b = hidden[0], stock[seed % len(stock)]
        twin = game.new_initial_state()
        for entry in state.full_history():
            action = entry.action
            if entry.player == pyspiel.PlayerId.CHANCE:
                action = b if action == a else a if action == b else action
            twin.apply_action(action)
        assert twin.engine.hand(opponent) != engine.hand(opponent)
        assert twin.information_state_string(0) == state.information_state_string(0)
        assert twin.information_state_tensor(0) == state.information_state_tensor(0)
        assert twin.observation_string(0) == state.observation_string(0)
        assert twin.information_state_string(opponent) != state.information_state_string(opponent)
        swapped += 1
    assert swapped >= 5


def test_resampled_states_keep_the_information_state_and_the_legal_actions() -> None:
    game = pyspiel.load_game("python_ronda", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_ismcts_and_evaluate_bots_play_a_round_against_a_ronda_bot() -> None:
    game = pyspiel.load_game("python_ronda", {"players": 2, "reward": "round"})
    rng = np.random.RandomState(4)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [Stateless(searcher), RondaBot(1, "easy", 3)], rng)
    assert len(returns) == 2 and sum(returns) == pytest.approx(0.0)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):  # why the wrapper is there
        evaluate_bots.evaluate_bots(game.new_initial_state(), [searcher, RondaBot(1, "easy", 3)], rng)


def test_openspiel_chance_never_breaks_the_opening_table() -> None:
    game = pyspiel.load_game("python_ronda", {"players": 2})
    for seed in range(5):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            dealt = state.episode.deck
            if 6 <= len(dealt) < 10:
                assert all(o >> 2 not in {c >> 2 for c in dealt[6:]} for o in outcomes)
            state.apply_action(outcomes[rng.randrange(len(outcomes))])
        assert state.engine is not None  # the engine accepted the deck: R3.4 holds


def test_openspiel_golden_playthrough() -> None:
    golden = (ROOT / "tests" / "adapters" / "golden" / "python_ronda_2p.txt").read_text()
    assert ronda_openspiel.playthrough() == golden, (
        "regenerate with: python -m ronda.adapters.openspiel > tests/adapters/golden/python_ronda_2p.txt"
    )
