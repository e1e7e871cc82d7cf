"""Bluffs and challenges, priced: how often each level makes them and what they earn (issue 28, item 5).

    PYTHONPATH=src nice python benchmarks/bluffs.py --players 2 --levels easy,medium,hard --games 40 --seed 28

Each level plays every seat of ``--games`` games that start with each side's
score drawn from the ``--near`` points below the target (where announcements
decide games; far from it a bluff cannot help, R9.5). Printed per level: the
referee's counts (declarations, bluffs and how they were exposed, challenges
won and lost) with the bluffs and challenges a game and their 95% intervals;
then every announcement decision (:mod:`ronda.arena.bluffs`: a bluff made or
declined, a challenge made or declined at stake) priced against its other
choice by ``--playouts`` paired play-outs to the end of the game by
``--continuation`` bots: the gain in the share of games won and in points to
the end of the round, each with its 95% interval over the decisions. A
positive gain says the level's choice was right on average; a declined kind
with a positive gain is a decision the level gets wrong.

Everything is seeded by ``--seed``: the same command prints the same numbers.
"""

from __future__ import annotations

import argparse
import sys
import time

from ronda.arena.bluffs import measure, summary_lines
from ronda.cli.progress import progress_bar
from ronda.engine.rules import Rules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--levels", default="easy,medium,hard", help="comma-separated bot levels")
    parser.add_argument("--games", type=int, default=40, help="games per level")
    parser.add_argument("--near", type=int, default=6, help="scores start this many points below the target or closer")
    parser.add_argument("--playouts", type=int, default=20, help="paired play-outs pricing each decision")
    parser.add_argument("--continuation", default="medium", help="the level that plays the play-outs on")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args()
    rules = Rules(players=args.players)
    print(
        f"{args.players} players, {args.games} games a level from scores within {args.near} of {rules.target}, "
        f"{args.playouts} play-outs by {args.continuation} a decision, seed {args.seed}",
        flush=True,
    )
    for level in args.levels.split(","):
        start = time.process_time()
        update, stop = progress_bar(level, args.games, "games", not args.no_progress and sys.stderr.isatty())
        update(0)
        try:
            report = measure(
                level,
                rules,
                args.games,
                args.seed,
                near=args.near,
                playouts=args.playouts,
                continuation=args.continuation,
                on_game=update,
            )
        finally:
            stop()
        for line in summary_lines(report):
            print(line)
        print(f"  (CPU {time.process_time() - start:.0f} s)", flush=True)
    print(f"command: {' '.join(['python', *sys.argv])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
