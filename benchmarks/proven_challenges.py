"""How often a seat faces a challenge its own cards prove would fail, and how often that alone made a "choice".

    PYTHONPATH=src python benchmarks/proven_challenges.py --games 150

A declaration the seat's view proves true (``SeatView.proof``) can only be
challenged to lose the game (R8.8): the terminal and the page never offer that
challenge, and since the fix of the coach's hint it makes no choice
(``ronda.analysis.search.offered``). This plays whole games of one level
against itself (``medium`` by default, games dealt from seeds 0 to N-1, bot
seeds from them) with 2, 3 and 4 players and counts every decision (a
declaration or a card), those beside such a challenge, and those that were a
choice only by it — a last card, or cards of one rank — where the hint used
to say "your best options" and the analysis graded the move. Every number
reproduces from the seeds.
"""

from __future__ import annotations

import argparse
import time

from ronda.analysis.search import has_choice, offered
from ronda.bots import make_bot
from ronda.engine.game import Game
from ronda.engine.rules import Rules


def count(players: int, games: int, level: str) -> tuple[int, int, int]:
    """Decisions, those beside a challenge proven to fail, those a choice only by it."""
    decisions = facing = only = 0
    for seed in range(games):
        game = Game(Rules(players=players), seed=seed)
        bots = [make_bot(level, seed=seed * 10 + s) for s in range(players)]
        while game.winner is None:
            seat = game.turn
            view, legal = game.view(seat), game.legal_actions()
            decisions += 1
            kept = offered(view, legal)
            if len(kept) < len(legal):
                facing += 1
                only += has_choice(legal) and not has_choice(kept)
            game.apply(bots[seat].choose(view, legal))
    return decisions, facing, only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games for each player count (default 150)")
    parser.add_argument("--level", default="medium", help="the bot level playing every seat (default medium)")
    args = parser.parse_args()
    started = time.perf_counter()
    for players in (2, 3, 4):
        decisions, facing, only = count(players, args.games, args.level)
        print(
            f"{players} players, {args.games} games of {args.level}: {decisions} decisions, {facing} beside a challenge"
            f" proven to fail ({100 * facing / decisions:.1f}%), {only} a choice only by it"
            f" ({100 * only / decisions:.1f}%)"
        )
    command = f"PYTHONPATH=src python benchmarks/proven_challenges.py --games {args.games} --level {args.level}"
    print(f"{time.perf_counter() - started:.0f} s; {command}")


if __name__ == "__main__":
    main()
