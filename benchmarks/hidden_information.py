"""What knowing the hidden cards is worth to a search level: a ceiling for issue 28's expert.

    PYTHONPATH=src python benchmarks/hidden_information.py hard hard --units 200 --seed 4245 --jobs 2
    PYTHONPATH=src python benchmarks/hidden_information.py expert hard --units 200 --seed 4245 --know hands,all

The first level plays single rounds against the second on the arena's
duplicate decks (``ronda arena FIRST SECOND --rounds``: the same decks, the
same bot seeds, both seatings) twice: once as itself (*honest*: these are the
arena's numbers exactly) and once *told*: the same bot with every guess of the
hidden cards replaced by the truth — the other hands (``--know hands``, the
default; the stock's order still guessed), or the other hands and the stock's
order too (``--know all``), or the other hand only once it has played a card
in the deal, honest guesses before (``--know played``: the most that reading
the plays could tell it), or each in turn (``--know hands,all``). Nothing
else changes: the same search, rollouts, race and budget. The difference, unit by unit, is what the hidden cards cost
that search: about the most that better guessing (reading plays and
declarations) could ever bring it. A told bot breaks R11 on purpose: it lives here, is not a
level, and no interface can seat it.

Printed: the margin a round over the second level, honest and told, and the
paired difference, with 95% intervals; ``--json`` for one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ronda.arena.match import MatchSpec, play_seated, seat_bots, unit_deck
from ronda.arena.stats import mean_interval
from ronda.bots import Bot, make_bot
from ronda.bots.determinize import Determinizer, Placement
from ronda.bots.search import SearchBot
from ronda.cli.progress import progress_bar
from ronda.engine.cards import cards_of
from ronda.engine.game import Game
from ronda.engine.presets import preset_rules
from ronda.engine.view import SeatView


class Told(Determinizer):
    """Guesses that are the truth: the other seats' real hands, and the real stock with ``stock``."""

    def __init__(self, view: SeatView, truth: Game, stock: bool) -> None:
        super().__init__(view)
        self.truth = truth
        self.stock = stock

    def sample(self, rng: random.Random) -> Placement:
        hands = {seat: self.truth.hand(seat).mask for seat in self.builder.unknown_seats()}
        if self.stock:
            return Placement(hands, self.truth.stock_cards())
        left = self.builder.hidden
        for hand in hands.values():
            left &= ~hand
        stock = cards_of(left)
        rng.shuffle(stock)
        return Placement(hands, stock)


def told(bot: Bot, game: Game, know: str) -> Bot:
    """``bot``, its guesses replaced by the truth of ``game`` (which the caller keeps playing), as ``know`` says."""
    if not isinstance(bot, SearchBot):
        raise SystemExit(f"{bot.name} does not guess hidden cards: give a search level (hard, expert, ...)")
    honest = bot.guesses

    def guesses(view: SeatView) -> Determinizer:
        if know == "played" and not any(
            view.played_this_deal(seat) for seat in range(view.rules.players) if seat != view.seat
        ):
            return honest(view)
        return Told(view, game, stock=know == "all")

    bot.guesses = guesses  # type: ignore[method-assign]
    return bot


KNOWING = ("hands", "all", "played")
"""What a told search may know: the other hands (the stock's order still guessed), the stock's order too, or the
other hands only once another seat has played in the deal (honest guesses before): the most that reading the plays
could tell it."""


def unit_margins(spec: MatchSpec, unit: int, knowing: tuple[str, ...]) -> dict[str, float]:
    """Unit ``unit``'s margin a round (first entrant minus second, over both seatings): ``honest``, and told each
    of ``knowing``."""
    margins = {"honest": 0.0}
    for index in range(len(spec.seatings())):
        _, result = play_seated(spec, unit, index)
        margins["honest"] += (result.round_points[0][0] - result.round_points[0][1]) / 2
    for know in knowing:
        margins[know] = 0.0
        for index, seating in enumerate(spec.seatings()):
            game = Game(spec.rules, decks=[unit_deck(spec.rules, spec.seed, unit, 0)])
            bots = seat_bots(spec, unit, index)
            for seat, entrant in enumerate(seating):
                if entrant == 0:
                    bots[seat] = told(bots[seat], game, know)
            _, result = play_seated(spec, unit, index, bots=bots, game=game)
            margins[know] += (result.round_points[0][0] - result.round_points[0][1]) / 2
    return margins


def _work(args: tuple[MatchSpec, int, tuple[str, ...]]) -> dict[str, float]:
    return unit_margins(*args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="the search level told the cards (hard, expert, expert:horizon=deal, ...)")
    parser.add_argument("second", help="the level it plays against, honest")
    parser.add_argument("--units", type=int, default=50, help="duplicate single-round units (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="the arena's seed: decks and bots (default 0)")
    parser.add_argument(
        "--know",
        default="hands",
        help="what the told search knows: hands, all (the stock's order too), played (the hands once they have played"
        " in the deal), or several: hands,all",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    knowing = tuple(dict.fromkeys(part.strip() for part in args.know.split(",")))
    if not knowing or any(know not in KNOWING for know in knowing):
        parser.error(f"--know is one or more of {', '.join(KNOWING)} (hands,all), not {args.know!r}")
    if args.units < 1 or args.jobs < 1:
        parser.error("--units and --jobs are whole numbers from 1")
    # As `ronda arena --rounds`: a target no round reaches, so that a single round is never cut short by a win.
    rules = preset_rules("classic", 2, target=10_000)
    spec = MatchSpec((args.first, args.second), rules, rounds_only=True, seed=args.seed)
    for name in spec.entrants:
        try:
            make_bot(name)  # an unknown level fails here, before any work
        except ValueError as error:
            parser.error(str(error))
    told(make_bot(args.first), Game(rules, seed=0), "hands")
    update, stop = progress_bar("units", args.units, "units", sys.stderr.isatty() and not args.json)
    results: list[dict[str, float]] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for margins in pool.map(_work, [(spec, unit, knowing) for unit in range(args.units)]):
            results.append(margins)
            update(len(results))
    stop()
    report: dict[str, Any] = {
        "first": args.first,
        "second": args.second,
        "units": args.units,
        "seed": args.seed,
        "honest": mean_interval([m["honest"] for m in results]),
    }
    for know in knowing:
        report[f"told_{know}"] = mean_interval([m[know] for m in results])
        report[f"gain_{know}"] = mean_interval([m[know] - m["honest"] for m in results])
    command = (
        f"PYTHONPATH=src python benchmarks/hidden_information.py {args.first} {args.second} --units {args.units} "
        f"--seed {args.seed} --know {','.join(knowing)} --jobs {args.jobs}"
    )
    if args.json:
        print(json.dumps({**report, "command": command}))
        return 0
    lines = [("honest", "honest")]
    for know in knowing:
        lines += [(f"told_{know}", f"told ({know})"), (f"gain_{know}", f"told ({know}) minus honest")]
    for key, label in lines:
        mean, low, high = report[key]
        print(f"{label:>26}: {mean:+.3f} a round [{low:+.3f}, {high:+.3f}]")
    print(f"({args.first} over {args.second}, {args.units} single-round units, seed {args.seed})")
    print(f"({command})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
