"""The research adapters pass their libraries' own checks and see only a seat's view."""

from __future__ import annotations

from extras import require

require("research")

import runpy
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from ronda.adapters import openspiel as ronda_openspiel
from ronda.adapters.encoding import NUM_ACTIONS, action_id, id_action, observe
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.pettingzoo import env
from ronda.engine.cards import parse_card
from ronda.engine.errors import IllegalActionError
from ronda.engine.game import Game
from ronda.engine.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


def test_every_action_id_round_trips_and_bad_ids_are_refused() -> None:
    assert [action_id(id_action(i)) for i in range(NUM_ACTIONS)] == list(range(NUM_ACTIONS))
    for bad in (-1, 48, 3.5, "5o"):
        with pytest.raises(IllegalActionError):
            id_action(bad)  # type: ignore[arg-type]


def test_an_observation_does_not_change_with_cards_the_seat_cannot_see() -> None:
    """R11: two deals that differ only in seat 1's hand and the stock look the same to seat 0."""
    from decks import build_deck

    rules = Rules(players=2)
    first = build_deck(rules, [{0: "5o 7c 12e", 1: "1b 2b 3b"}], table="4o 6o 10o 11c")
    second = build_deck(rules, [{0: "5o 7c 12e", 1: "1c 2c 3c"}], table="4o 6o 10o 11c")
    games = [Game(rules, decks=[[parse_card(c) for c in deck]]) for deck in (first, second)]
    for game in games:
        game.apply(id_action(40))  # seat 0 declares none
    assert np.array_equal(observe(games[0].view(0)), observe(games[1].view(0)))
    assert not np.array_equal(observe(games[0].view(1)), observe(games[1].view(1)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(env(players=players), num_cycles=300, verbose_progress=False)


def test_pettingzoo_round_rewards_and_variants_and_seed_test() -> None:
    api_test(env(players=3, reward="round", dealer_duty=True, chain_points=(1, 6, 15)), num_cycles=200)
    seed_test(lambda: env(players=2), num_cycles=200)


def test_pettingzoo_rewards_are_zero_sum_at_the_end() -> None:
    environment = env(players=3, reward="round")
    environment.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    assert sum(totals.values()) == pytest.approx(0.0) and any(totals.values())


def test_gymnasium_check_env_and_refused_illegal_actions() -> None:
    check_env(RondaEnv(opponents="random"), skip_render_check=True)
    check_env(RondaEnv(players=4, seat=2, opponents=["random", "random", "random"]), skip_render_check=True)
    environment = RondaEnv(opponents="random")
    observation, info = environment.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = environment.game.to_record()
    _, reward, terminated, _, info = environment.step(illegal)
    assert reward == -1.0 and not terminated and "illegal" in info
    assert environment.game.to_record() == before
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        RondaEnv(opponents="grandmaster")


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3}, {"players": 4, "rounds": 2, "dealer_duty": True}])
def test_openspiel_random_sim_test(params: dict) -> None:
    game = pyspiel.load_game("python_ronda", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_chance_never_breaks_the_opening_table() -> None:
    game = pyspiel.load_game("python_ronda", {"players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        if len(state.deck) in range(6, 10):
            up = {c >> 2 for c in state.deck[6:]}
            assert all(o >> 2 not in up for o in outcomes)
        state.apply_action(int(rng.choice(outcomes)))
    assert state.engine is not None  # the engine accepted the deck: R3.4 holds


def test_openspiel_resampled_states_keep_the_information_state() -> None:
    game = pyspiel.load_game("python_ronda", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    sampler = lambda: rng.uniform()  # noqa: E731
    for _ in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_golden_playthrough() -> None:
    golden = (ROOT / "tests" / "adapters" / "golden" / "python_ronda_2p.txt").read_text()
    assert ronda_openspiel.playthrough() == golden, (
        "regenerate with: python -m ronda.adapters.openspiel > tests/adapters/golden/python_ronda_2p.txt"
    )


@pytest.mark.parametrize(
    ("script", "argv"),
    [
        ("pettingzoo_random.py", ["--games", "1"]),
        ("gymnasium_bot.py", ["--episodes", "1"]),
        ("openspiel_ismcts.py", ["--simulations", "5"]),
    ],
)
def test_example_scripts_run(script: str, argv: list[str], monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "argv", [script, *argv])
    runpy.run_path(str(ROOT / "examples" / "research" / script), run_name="__main__")
    assert capsys.readouterr().out.strip()
