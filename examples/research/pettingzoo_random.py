"""A random agent plays the PettingZoo environment ronda_v0 for a few games.

python examples/research/pettingzoo_random.py --players 3 --games 5
"""

from __future__ import annotations

import argparse

import numpy as np

from ronda.adapters.pettingzoo import env


def play(players: int, games: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    environment = env(players=players)
    totals: dict[str, float] = {}
    for game in range(games):
        environment.reset(seed=seed + game)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            totals[agent] = totals.get(agent, 0.0) + reward
            done = terminated or truncated
            environment.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    environment.close()
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"total rewards over {args.games} games: {play(args.players, args.games, args.seed)}")


if __name__ == "__main__":
    main()
