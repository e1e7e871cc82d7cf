"""A ronda bot drives the agent's seat of the Gymnasium environment, against other bots.

python examples/research/gymnasium_bot.py --agent easy --opponents medium --episodes 5
"""

from __future__ import annotations

import argparse

from ronda.adapters.encoding import action_id
from ronda.adapters.gymnasium import RondaEnv
from ronda.bots import make_bot


def run(agent_level: str, opponents: str, episodes: int, seed: int) -> list[float]:
    environment = RondaEnv(players=2, opponents=opponents)
    agent = make_bot(agent_level, seed=seed)
    rewards = []
    for episode in range(episodes):
        environment.reset(seed=seed + episode)
        done = False
        reward = 0.0
        while not done:
            game = environment.game
            assert game is not None
            # the agent reads only its seat's view, exactly what the observation encodes
            choice = agent.choose(game.view(environment.seat), game.legal_actions())
            _, reward, done, _, _ = environment.step(action_id(choice))
        rewards.append(reward)
    return rewards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--opponents", default="medium")
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rewards = run(args.agent, args.opponents, args.episodes, args.seed)
    print(f"{args.agent} against {args.opponents}: rewards {rewards}")


if __name__ == "__main__":
    main()
