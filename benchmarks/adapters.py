"""Random games per second through the bare engine and through each research adapter, in one run.

    python benchmarks/adapters.py --games 200

Every path plays uniformly random legal actions for whole single rounds (2 players);
the adapters' cost is what they add: observations, masks and their libraries' bookkeeping.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel

import ronda.adapters.openspiel  # noqa: F401 - registers python_ronda
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.pettingzoo import env
from ronda.engine.game import OVER, WAITING, Game
from ronda.engine.rules import Rules


def bare_engine(games: int) -> None:
    rng = random.Random(0)
    rules = Rules(players=2, target=10_000)
    for seed in range(games):
        game = Game(rules, seed=seed)
        while game.round == 0 and game.phase not in (WAITING, OVER):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


def pettingzoo(games: int) -> None:
    rng = np.random.default_rng(0)
    environment = env(players=2, reward="round")
    for seed in range(games):
        environment.reset(seed=seed)
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            done = terminated or truncated
            environment.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def gymnasium(games: int) -> None:
    rng = np.random.default_rng(0)
    environment = RondaEnv(players=2, opponents="random", reward="round")
    for seed in range(games):
        observation, _ = environment.reset(seed=seed)
        done = False
        while not done:
            observation, _, done, _, _ = environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def openspiel(games: int) -> None:
    rng = np.random.RandomState(0)
    game = pyspiel.load_game("python_ronda", {"players": 2})
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="single-round games per path (default 200)")
    args = parser.parse_args()
    results = []
    for name, run in (
        ("bare engine", bare_engine),
        ("PettingZoo", pettingzoo),
        ("Gymnasium", gymnasium),
        ("OpenSpiel", openspiel),
    ):
        start = time.perf_counter()
        run(args.games)
        seconds = time.perf_counter() - start
        results.append((name, args.games / seconds))
    base = results[0][1]
    print(f"{'path':<14}{'rounds/s':>10}{'vs engine':>11}")
    for name, rate in results:
        print(f"{name:<14}{rate:>10.0f}{rate / base:>10.2f}x")
    print(f"(python benchmarks/adapters.py --games {args.games}; 2 players, one round per game, random legal play)")


if __name__ == "__main__":
    main()
