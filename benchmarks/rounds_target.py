"""What ``ronda arena --rounds`` changes for a search bot: its target is 10,000, not 41 (docs/bots.md).

    PYTHONPATH=src python benchmarks/rounds_target.py --seeds 12

``--rounds`` plays each game's first round with the target raised to 10,000,
so no round's points end the game; the search bots then value their choices
by the chance to win a game to 10,000 instead of the first round of a game to
41. This asks a seeded bot (``hard`` by default) the same first-round
positions under both targets, in games dealt from seeds 0 to N-1, and counts
the decisions with more than one legal action whose choice differs. The play
goes on with the choice under target 41, so both are asked the same
positions; every number reproduces from the seeds (the bot's seed is the
decision's index).
"""

from __future__ import annotations

import argparse
import time

from ronda.bots import make_bot
from ronda.cli.arena import ROUNDS_TARGET
from ronda.engine.game import Game
from ronda.engine.rules import Rules


def compare(level: str, seeds: int) -> tuple[int, list[tuple[int, int, str, str]]]:
    """Decisions asked, and each that differs: (deck seed, decision index, choice at 41, choice at 10,000)."""
    asked = 0
    differ: list[tuple[int, int, str, str]] = []
    for seed in range(seeds):
        game = Game(Rules(players=2), seed=seed)
        twin = Game(Rules(players=2, target=ROUNDS_TARGET), seed=seed)
        index = 0
        while game.round == 0 and not game.finished:
            legal = game.legal_actions()
            choice = legal[0]
            if len(legal) > 1:
                choice = make_bot(level, seed=index).choose(game.view(game.turn), legal)
                other = make_bot(level, seed=index).choose(twin.view(twin.turn), twin.legal_actions())
                asked += 1
                if choice != other:
                    differ.append((seed, index, str(choice), str(other)))
            game.apply(choice)
            twin.apply(choice)
            index += 1
    return asked, differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="hard", help="the bot level asked (default hard)")
    parser.add_argument("--seeds", type=int, default=12, help="games, dealt from seeds 0 to N-1 (default 12)")
    args = parser.parse_args()
    start = time.perf_counter()
    asked, differ = compare(args.level, args.seeds)
    print(
        f"{args.level}, first rounds from 0-0 of {args.seeds} games: {asked} decisions with a choice, "
        f"{len(differ)} differ between target 41 and target {ROUNDS_TARGET} ({time.perf_counter() - start:.0f} s)"
    )
    for seed, index, at_41, at_far in differ:
        print(f"  seed {seed}, decision {index}: {at_41} at 41, {at_far} at {ROUNDS_TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
