"""Calibration of the win-probability model: its chances against long self-play from the same scores.

    PYTHONPATH=src nice python benchmarks/winprob_calibration.py --players 2 --games 200 --seed 28

For each sample position (scores and dealer) ``--level`` (default ``medium``)
plays every seat for ``--games`` whole games from those scores
(:func:`ronda.bots.winprob.self_play_wins`); printed per position: the model's
chance that the first side wins, the measured share with its 95% Wilson
interval, and whether the model lies inside it. The last line sums the squared
gaps against what sampling alone would give (a chi-square with one degree of
freedom per position): a model that is calibrated gives about one per position.
"""

from __future__ import annotations

import argparse
import sys
import time

from ronda.arena.stats import wilson_interval
from ronda.bots.winprob import self_play_wins, win_probability
from ronda.engine.rules import Rules

POSITIONS: dict[int, list[tuple[list[int], int]]] = {
    2: [
        ([0, 0], 1),
        ([10, 0], 1),
        ([0, 10], 1),
        ([20, 20], 0),
        ([25, 15], 1),
        ([30, 20], 1),
        ([20, 30], 0),
        ([35, 35], 1),
        ([39, 25], 1),
        ([25, 39], 1),
        ([38, 38], 0),
        ([40, 36], 1),
        ([36, 40], 1),
        ([40, 40], 1),
    ],
    3: [([0, 0, 0], 2), ([20, 10, 10], 2), ([30, 30, 20], 0), ([38, 30, 35], 1)],
    4: [([0, 0], 3), ([20, 10], 3), ([30, 35], 0), ([39, 33], 1)],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=200, help="games played from each position")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--level", default="medium")
    args = parser.parse_args()
    rules = Rules(players=args.players)
    print(f"{args.players} players, {args.games} games of {args.level} from each position, seed {args.seed}")
    print(f"{'scores':<14}{'dealer':>7}{'model':>8}{'measured (95%)':>24}{'inside':>8}")
    chi = 0.0
    inside = 0
    start = time.process_time()
    for index, (scores, dealer) in enumerate(POSITIONS[args.players]):
        model = win_probability(rules, scores, dealer)[0]
        wins = self_play_wins(rules, scores, dealer, args.games, seed=args.seed + index, level=args.level)
        measured = wins[0] / args.games
        low, high = wilson_interval(wins[0], args.games)
        ok = low <= model <= high
        inside += ok
        if 0 < model < 1:
            chi += (measured - model) ** 2 / (model * (1 - model) / args.games)
        shown = "-".join(str(s) for s in scores)
        print(
            f"{shown:<14}{dealer:>7}{model:>8.3f}{measured:>10.3f} [{low:.3f}, {high:.3f}]{'yes' if ok else 'NO':>8}",
            flush=True,
        )
    count = len(POSITIONS[args.players])
    print(f"model inside the 95% interval at {inside} of {count} positions; chi-square {chi:.1f} on {count} positions")
    print(f"CPU {time.process_time() - start:.0f} s; command: {' '.join(['python', *sys.argv])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
