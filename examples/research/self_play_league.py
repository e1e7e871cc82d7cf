"""Self-play against a growing league of past policies, evaluated on duplicate deals after every generation.

    pip install -e '.[train]'
    nice -n 10 python examples/research/self_play_league.py                       # small: about 25 s on 2 cores
    nice -n 10 python examples/research/self_play_league.py --generations 20 --steps 100000 --units 50

Each generation, sb3-contrib's MaskablePPO trains seat 0 of ``Ronda-v0``
for ``--steps`` steps; at every episode the other seat is drawn from the
league (the first member is ``--first`` — a level, or ``policy:ronda-2p`` —
then one frozen copy of the learner per generation). Episodes are single
rounds begun at scores drawn uniformly (``start={"scores": "uniform"}``), so
the learner meets positions near the target, where R9.5, the delaying bluff
and the risky challenge are, in every batch rather than once a game.
``--reward chances`` pays each round by the change in the learner's chance
to win the game (:mod:`ronda.adapters.returns`) instead of its points.

After each generation the learner is frozen (its numpy export,
:class:`ronda.adapters.policy.Policy`), evaluated with
:func:`ronda.adapters.evaluation.evaluate` against the whole league and
``--yardstick`` on the same duplicate deals every time, and added to the
league. The table shows, for each opponent, the share of rounds won with
its 95 % interval and the points margin per round.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import gymnasium

from ronda.adapters.evaluation import evaluate
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.policy import PolicyBot

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_policy import export  # the numpy export of a MaskablePPO actor, shared with the trainer


class League(gymnasium.Wrapper[Any, Any, Any, Any]):
    """``Ronda-v0`` whose opponent is drawn from the league at every reset (autoresets included)."""

    def __init__(self, env: RondaEnv, league: list[Any], rng: random.Random) -> None:
        super().__init__(env)
        self.league = league
        self.rng = rng

    def reset(self, **kwargs: Any) -> Any:
        self.env.unwrapped.opponents = {1: self.rng.choice(self.league)}
        return self.env.reset(**kwargs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generations", type=int, default=3)
    parser.add_argument("--steps", type=int, default=4096, help="training steps per generation")
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--units", type=int, default=8, help="duplicate units (two rounds each) per opponent")
    parser.add_argument("--first", default="easy", help="the league's first member: a level or policy:FILE")
    parser.add_argument("--yardstick", default="medium", help="an opponent outside the league, evaluated each time")
    parser.add_argument(
        "--reward", default="round", choices=["round", "chances"], help="points, or the change in winning chances"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    league: list[Any] = [args.first]

    def make(index: int) -> Any:
        def build() -> gymnasium.Env[Any, Any]:
            env = RondaEnv(opponents="random", reward=args.reward, observation="flat", start={"scores": "uniform"})
            env.reset(seed=args.seed * 1000 + index)
            return League(env, league, random.Random(rng.random()))

        return build

    model = MaskablePPO(
        "MlpPolicy", DummyVecEnv([make(i) for i in range(args.envs)]), n_steps=256, batch_size=256, seed=args.seed
    )
    # SB3's default logger makes an empty SB3-<time> folder in the system's temporary folder at each learn(); this
    # script prints its own tables, so the model logs nowhere (as train_policy.py's).
    model.set_logger(Logger(folder=None, output_formats=[]))
    for generation in range(1, args.generations + 1):
        model.learn(args.steps, reset_num_timesteps=False)
        frozen = PolicyBot(export(model, {"generation": generation}), name=f"generation {generation}")
        result = evaluate(frozen, [*league, args.yardstick], units=args.units, rounds_only=True, seed=args.seed)
        print(f"generation {generation} ({model.num_timesteps} steps), league of {len(league)}:")
        print(result.table())
        league.append(frozen)


if __name__ == "__main__":
    main()
