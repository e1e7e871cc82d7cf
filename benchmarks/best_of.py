"""Rounds a second of the engine on the path (``PYTHONPATH=TREE/src``), the best of several short runs.

    PYTHONPATH=src python benchmarks/best_of.py --runs 5 --rounds 400

It has its own loop rather than calling ``ronda bench``'s (``ronda.cli.bench.random_rounds``): it times the
engine of whichever tree is on the path, an older one too, whose command may lack what this loop does (CPU time,
a new game once one is won), so two trees are timed by the same code.

The best run is the one least disturbed by other work on the machine: on a
shared machine it moves less than a median. Lines: two players with
``auto_declare`` through ``Game.playout`` and through ``legal_actions`` +
``apply``, and with random declarations through ``Game.playout`` (CPU time).
"""

from __future__ import annotations

import argparse
import random
import time

from ronda.engine.actions import Challenge
from ronda.engine.game import Game
from ronda.engine.rules import Rules


def rate(auto: bool, api: bool, rounds: int, runs: int) -> tuple[float, int]:
    """The best rounds a second over ``runs`` runs of ``rounds`` rounds, and the games a run dealt.

    A game to 10,000 is won after about 600 rounds; a won game plays nothing more, so the next rounds are a new
    game's (timing a won game's no-ops made a run past 600 rounds look faster than the engine is). The round in
    which a game is won ends early and is not counted.
    """
    best = float("inf")
    rules = Rules(players=2, auto_declare=auto, target=10_000)
    for run in range(runs):
        rng = random.Random(run)
        game = Game(rules, seed=run)
        done, games = 0, 0
        start = time.process_time()
        while done < rounds:
            if game.finished:
                games += 1
                game = Game(rules, seed=run + games * runs)
            current = game.round
            if not api:
                game.playout(rng)
            else:
                while game.round == current and not game.finished:
                    actions = game.legal_actions()  # as ``ronda bench --api`` chooses
                    if type(actions[-1]) is Challenge:
                        actions = [a for a in actions if type(a) is not Challenge]
                    game.apply(actions[int(rng.random() * len(actions))])
            if not game.finished:
                done += 1
        best = min(best, (time.process_time() - start) / rounds)
    return 1 / best, games + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=400)
    args = parser.parse_args()
    import ronda.engine.game as module

    print(f"engine: {module.__file__}")
    for label, auto, api in (
        ("auto_declare playout", True, False),
        ("auto_declare api", True, True),
        ("random declarations playout", False, False),
    ):
        per_second, games = rate(auto, api, args.rounds, args.runs)
        print(f"  {label:28s} {per_second:7,.0f} rounds/s  ({games} game{'s' if games > 1 else ''} dealt a run)")


if __name__ == "__main__":
    main()
