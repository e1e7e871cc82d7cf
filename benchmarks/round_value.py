"""Train the round model the expert values a deal's end by (:mod:`ronda.bots.roundvalue`, ``expert:horizon=deal``).

    PYTHONPATH=src nice -n 10 python3 benchmarks/round_value.py --rounds 200000 --seed 11 \\
        --out src/ronda/bots/round_value.json

(about eight minutes of one core to play the rounds, one to fit; needs the ``train`` extra for torch.)

Two players play whole rounds against themselves with the blind rollout
policy (:func:`~ronda.bots.rollout.blind_policy`, three plies, 5% random
cards: each seat reads only its own hand and the cards played, as a player
can). At the start of every deal, once the hands are declared truthfully, the
position is recorded from both sides (:func:`~ronda.bots.roundvalue.features`)
with the points each side goes on to score before the round ends (caidas,
missas, the card count; the declarations of that deal are already scored).
A small multilayer perceptron is fitted to them by least squares (Adam, the
last 5% of the rounds held out) and written as JSON, with this command and its
figures in the file: the held-out mean squared error of the predicted margin
against that of :func:`~ronda.bots.winprob.expected_round_end`, the hand-set
estimate a search used before, and of predicting no margin at all.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ronda.bots.endgame import declare_truthfully
from ronda.bots.rollout import blind_policy
from ronda.bots.roundvalue import FEATURES, features
from ronda.bots.winprob import expected_round_end
from ronda.engine.game import Game
from ronda.engine.rules import Rules

ROUNDS_A_GAME = 300
"""Rounds played in one game before a new one (the target is set out of reach: the scores only grow)."""


def play(rounds: int, seed: int) -> tuple[list[list[float]], list[tuple[float, float]], list[tuple[float, float]]]:
    """The positions at every deal's start of ``rounds`` rounds of self-play, their points to come and the
    hand-set estimate of them; rows are in round order, both sides of a position one after the other."""
    policy = blind_policy(3, 0.7, explore=0.05)
    rules = Rules(players=2, target=10_000)
    rng = random.Random(seed * 7 + 1)
    inputs: list[list[float]] = []
    future: list[tuple[float, float]] = []
    estimate: list[tuple[float, float]] = []
    started = time.perf_counter()
    game = Game(rules, seed=seed)
    for n in range(rounds):
        if n % ROUNDS_A_GAME == 0:
            game = Game(rules, seed=seed * 100_003 + n)
        starts = []
        round_now = game.round
        while game.round == round_now:
            declare_truthfully(game)
            scores = list(game.scores)
            guess = expected_round_end(game)
            for side in (0, 1):
                dense = [0.0] * FEATURES
                for index, value in features(game, side):
                    dense[index] = value
                starts.append((dense, side, scores, guess))
            game.playout(rng, deals=1, policy=policy, truthful=True)
        final = game.scores
        for dense, side, scores, guess in starts:
            inputs.append(dense)
            future.append((final[side] - scores[side], final[1 - side] - scores[1 - side]))
            estimate.append((guess[side] - scores[side], guess[1 - side] - scores[1 - side]))
        if (n + 1) % 10_000 == 0:
            print(f"  {n + 1:,} rounds, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return inputs, future, estimate


def fit(
    inputs: list[list[float]],
    future: list[tuple[float, float]],
    estimate: list[tuple[float, float]],
    hidden: Sequence[int],
    epochs: int,
    seed: int,
) -> tuple[list[dict[str, list[list[float]] | list[float]]], dict[str, float]]:
    """The fitted layers (weights as rows of outputs, biases) and the held-out figures."""
    import torch  # the train extra

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    x = torch.tensor(inputs, dtype=torch.float32)
    y = torch.tensor(future, dtype=torch.float32)
    cut = int(len(x) * 0.95) // 12 * 12  # whole rounds on each side (six deals, two sides each)
    layers: list[torch.nn.Module] = []
    width = FEATURES
    for size in hidden:
        layers += [torch.nn.Linear(width, size), torch.nn.ReLU()]
        width = size
    layers.append(torch.nn.Linear(width, 2))
    net = torch.nn.Sequential(*layers)
    optimiser = torch.optim.Adam(net.parameters(), lr=2e-3)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    train_x, train_y, held_x, held_y = x[:cut], y[:cut], x[cut:], y[cut:]
    for epoch in range(epochs):
        order = torch.randperm(len(train_x))
        for i in range(0, len(order), 2048):
            batch = order[i : i + 2048]
            loss = ((net(train_x[batch]) - train_y[batch]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()
        with torch.no_grad():
            predicted = net(held_x)
            error = (((predicted[:, 0] - predicted[:, 1]) - (held_y[:, 0] - held_y[:, 1])) ** 2).mean().item()
        print(f"  epoch {epoch + 1}/{epochs}: held-out margin error {error:.3f}", file=sys.stderr, flush=True)
    margin = held_y[:, 0] - held_y[:, 1]
    guess = torch.tensor(estimate[cut:], dtype=torch.float32)
    figures = {
        "held_out_positions": float(len(held_x)),
        "margin_variance": margin.var().item(),
        "model_error": error,
        "hand_set_error": ((guess[:, 0] - guess[:, 1] - margin) ** 2).mean().item(),
        "no_margin_error": (margin**2).mean().item(),
    }
    out = []
    for module in net:
        if isinstance(module, torch.nn.Linear):
            weights = [[round(float(w), 6) for w in row] for row in module.weight.detach().tolist()]
            out.append({"w": weights, "b": [round(float(b), 6) for b in module.bias.detach().tolist()]})
    return out, figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200_000, help="rounds of self-play (default 200,000)")
    parser.add_argument("--seed", type=int, default=11, help="the self-play's and the fit's seed (default 11)")
    parser.add_argument("--hidden", default="64,32", help="hidden layer widths (default 64,32)")
    parser.add_argument("--epochs", type=int, default=14, help="passes over the positions (default 14)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    args = parser.parse_args(argv)
    hidden = [int(width) for width in args.hidden.split(",")]
    command = "PYTHONPATH=src python3 benchmarks/round_value.py " + " ".join(
        f"--{name} {value}" for name, value in (("rounds", args.rounds), ("seed", args.seed), ("hidden", args.hidden))
    )
    print(f"playing {args.rounds:,} rounds (seed {args.seed})", file=sys.stderr)
    inputs, future, estimate = play(args.rounds, args.seed)
    print(f"fitting {len(inputs):,} positions", file=sys.stderr)
    layers, figures = fit(inputs, future, estimate, hidden, args.epochs, args.seed)
    about = {"command": command, "epochs": args.epochs, **figures}
    args.out.write_text(json.dumps({"about": about, "layers": layers}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(json.dumps(about, indent=1))
    print(f"({command})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
