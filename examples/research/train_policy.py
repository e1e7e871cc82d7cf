"""Train a 2-player Ronda policy with sb3-contrib's MaskablePPO, then save it for numpy play (``policy:PATH``).

    pip install -e '.[train]'          # torch (a CPU build is enough), stable-baselines3, sb3-contrib
    nice -n 10 python examples/research/train_policy.py --steps 3000000 --out ronda-2p.npz
    ronda arena policy:ronda-2p.npz medium --units 200

What it trains: one seat of ``Ronda-v0`` (:mod:`ronda.adapters.gymnasium`)
with the flat observation and ``action_masks()``, ``reward="round"`` (a
round's points margin; a game lost inside the round, as by a failed
challenge, R8.8, is the worst return there is), against a mix of opponents
(``--opponents``: one per parallel environment, in turn). The first dealer
is drawn every episode, so the seat plays first and second alike.

Why MaskablePPO: Ronda has 48 actions of which 1 to 7 are legal, and
masking the others out of the policy is what makes policy gradients learn
here at all (an unmasked policy spends its updates on illegal actions);
sb3-contrib's MaskablePPO is the maintained, documented implementation of
exactly that, it runs on the Gymnasium environment as it is (it calls
``action_masks()``), and PPO is robust to the reward's scale and needs no
tuning per variant. A small multilayer perceptron is enough for a baseline,
and it exports to plain arrays: the saved ``.npz`` is played by
:class:`ronda.adapters.policy.Policy` with numpy alone, so the arena and
players never need torch.

Reproducible: ``--seed`` seeds torch, the environments and the opponents
(search opponents get a fixed budget); torch runs on one thread.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.policy import Policy


def make_env(opponent: str, reward: str, scale: float) -> Any:
    def build() -> gymnasium.Env[Any, Any]:
        env = RondaEnv(players=2, seat=0, opponents=opponent, reward=reward, observation="flat")
        return gymnasium.wrappers.TransformReward(env, lambda r: r / scale)

    return build


class Budget(BaseCallback):  # type: ignore[misc]
    """Stops training when the wall-clock budget is spent, and prints progress now and then."""

    def __init__(self, minutes: float, every: int = 100_000) -> None:
        super().__init__()
        self.deadline = time.perf_counter() + 60 * minutes
        self.every = every
        self.next_report = every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_report:
            self.next_report += self.every
            episodes = self.model.ep_info_buffer
            mean = np.mean([e["r"] for e in episodes]) if episodes else float("nan")
            print(f"{self.num_timesteps} steps, recent mean reward {mean:+.3f}", flush=True)
        return time.perf_counter() < self.deadline


def export(model: MaskablePPO, meta: dict[str, Any]) -> Policy:
    """The actor of a MaskablePPO MLP policy as plain arrays: the policy network, then the action head."""
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    layers = [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy()) for m in linears]
    return Policy(layers, meta)


def evaluate(policy: Policy, opponent: str, episodes: int, seed: int) -> float:
    """Mean round margin of the exported numpy policy against ``opponent`` (fixed seeds)."""
    env = RondaEnv(players=2, opponents=opponent, reward="round", observation="flat")
    total = 0.0
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        done, reward = False, 0.0
        while not done:
            observation, reward, done, _, _ = env.step(policy.act(observation, env.action_masks()))
        total += float(reward)
    return total / episodes


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1_600_000, help="agent decisions to train on (at most)")
    parser.add_argument("--minutes", type=float, default=None, help="stop earlier when this wall-clock budget is spent")
    parser.add_argument("--opponents", default="random,easy,medium,medium", help="one per environment, in turn")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--reward", default="round", choices=["round", "game", "outcome"])
    parser.add_argument("--hidden", default="128,128", help="widths of the hidden layers")
    parser.add_argument("--n-steps", type=int, default=1024, help="steps per environment between updates")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="ronda-2p.npz", help="where to save the policy (.npz)")
    parser.add_argument("--eval-episodes", type=int, default=400, help="rounds per opponent in the final check")
    return parser.parse_args(argv)


def train(args: argparse.Namespace) -> tuple[MaskablePPO, Policy, float]:
    """Train, export; returns the torch model, the numpy policy and the minutes spent."""
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    opponents = args.opponents.split(",")
    scale = 10.0 if args.reward != "outcome" else 1.0
    env = VecMonitor(
        DummyVecEnv([make_env(opponents[i % len(opponents)], args.reward, scale) for i in range(args.envs)])
    )
    env.seed(args.seed)
    hidden = [int(width) for width in args.hidden.split(",")]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=3e-4,
        n_steps=args.n_steps,
        batch_size=min(1024, args.n_steps * args.envs),
        n_epochs=4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}, "activation_fn": torch.nn.ReLU},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.perf_counter()
    budget = Budget(args.minutes if args.minutes is not None else float("inf"))
    model.learn(total_timesteps=args.steps, callback=budget, progress_bar=False)
    minutes = (time.perf_counter() - start) / 60
    args.steps = model.num_timesteps  # what was trained: --steps with this number reproduces it
    meta = {
        "activation": "relu",
        "players": 2,
        "made_by": "examples/research/train_policy.py",
        "arguments": vars(args),
        "trainer": "sb3-contrib MaskablePPO",
        "minutes": round(minutes, 1),
        "cpu_minutes": round(time.process_time() / 60, 1),
    }
    return model, export(model, meta), minutes


def agreement(
    model: MaskablePPO, policy: Policy, decisions: int = 200, seed: int = 0, opponent: str = "medium"
) -> tuple[int, int]:
    """On which of ``decisions`` real decisions the numpy policy picks what the torch model picks (deterministic)."""
    env = RondaEnv(players=2, opponents=opponent, reward="round", observation="flat")
    observation, _ = env.reset(seed=seed)
    same = 0
    for step in range(decisions):
        mask = env.action_masks()
        wanted, _ = model.predict(observation, action_masks=mask, deterministic=True)
        chosen = policy.act(observation, mask)
        same += int(wanted) == chosen
        observation, _, done, _, _ = env.step(chosen)
        if done:
            observation, _ = env.reset(seed=seed + step + 1)
    return same, decisions


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    model, policy, minutes = train(args)
    policy.save(args.out)
    print(f"trained {args.steps} steps in {minutes:.1f} min; saved {args.out} ({Path(args.out).stat().st_size} bytes)")
    same, total = agreement(model, Policy.load(args.out))
    print(f"the numpy policy chooses what the torch model chooses on {same}/{total} decisions")
    for opponent in ("random", "easy", "medium"):
        margin = evaluate(Policy.load(args.out), opponent, args.eval_episodes, seed=10_000)
        print(f"mean round margin against {opponent} over {args.eval_episodes} rounds: {margin:+.2f}")
    print(json.dumps(policy.meta))


if __name__ == "__main__":
    main()
