"""What each card choice loses for not seeing the other hand: a quick, low-noise screen of how a level reads it.

    PYTHONPATH=src python benchmarks/reading_regret.py hard expert expert:sharpness=0.25,noise=0.2,reply=8 --jobs 2

An arena line needs 800 units and half an hour of both cores to tell two
experts apart by 0.15 a round; most of its noise is the luck of the deals that
both share. This screen asks a narrower question, choice by choice. The
positions are the card choices (two ranks or more) of ``hard`` against
``hard`` in single two-player rounds on the arena's decks of ``--seed``. For
each, every card's worth is estimated *told*: a search that knows the other
hand (the stock's order still guessed, ``hidden_information.py``'s ``--know
hands``) rolls each card out ``--reference`` times with the expert's three-ply
rollouts and counts the points of the round. Each level then chooses from the
seat's view alone (R11: the view and the legal actions, nothing else), and its
*regret* is the best card's worth minus its card's, in points of the round.

Split by what a reading of plays could use: choices made *after* the other
seat has played a card of the deal (it holds one or two more), and *before*
(nothing of its hand shown). Printed per level: the mean regret of each, with
95% intervals, and the difference from the first level, paired position by
position. A level that reads the other hand better loses less after; none can
do better before, but by luck. The regret is measured by rollouts, not solved
exactly: a screen for what to measure in the arena, never a strength figure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hidden_information import Told

from ronda.arena.match import unit_deck
from ronda.arena.stats import mean_interval
from ronda.bots import make_bot
from ronda.bots.determinize import Determinizer, Placement
from ronda.bots.inference import PlayModel
from ronda.bots.pimc import PimcBot
from ronda.bots.rollout import lookahead_policy
from ronda.bots.search import distinct_plays
from ronda.cli.progress import progress_bar
from ronda.engine.actions import Action, Play
from ronda.engine.game import OVER, PLAY, WAITING, Game
from ronda.engine.presets import preset_rules

RULES = preset_rules("classic", 2, target=10_000)  # as `ronda arena --rounds`: no round is cut short by a win


def card_choices(seed: int, unit: int, actions: list[Action] | None = None) -> Iterator[tuple[Game, bool]]:
    """The card choices (two ranks or more, no challenge among them) of one ``hard`` against ``hard`` round on the
    arena's deck: the game as it stands (the live one, moved on after: copy it to keep it) and whether the other
    seat had played a card of the deal. Every action taken is appended to ``actions`` when given."""
    game = Game(RULES, decks=[unit_deck(RULES, seed, unit, 0)])
    bots = [make_bot("hard", seed=seed * 1000 + unit * 2 + seat) for seat in range(2)]
    while game.phase not in (OVER, WAITING):
        seat = game.turn
        view = game.view(seat)
        legal = game.legal_actions()
        if game.phase == PLAY and len(distinct_plays(legal)) > 1 and all(type(a) is Play for a in legal):
            yield game, bool(view.played_this_deal(1 - seat))
        action = bots[seat].choose(view, legal)
        game.apply(action, seat=seat)
        if actions is not None:
            actions.append(action)


def positions(seed: int, unit: int) -> list[tuple[Game, bool]]:
    """Each card choice of :func:`card_choices`, the game copied."""
    return [(game.copy(), after) for game, after in card_choices(seed, unit)]


def worths(game: Game, reference: int, seed: int, *, honest: bool = False) -> dict[int, float]:
    """Each rank's worth in points of the round to the seat to play, the other hand known — or with ``honest``,
    guessed as the expert guesses it (its reading of plays and declarations), the same rollouts otherwise."""
    view = game.view(game.turn)
    plays = distinct_plays(game.legal_actions())
    search = PimcBot(
        seed,
        samples=reference,
        policy=lookahead_policy(3, card_value=0.7),
        value="points",
        gamble=False,
        play_model=PlayModel(),  # read by the honest guesses only (SearchBot.guesses)
    )
    guesses = _Counted(search.guesses(view) if honest else Told(view, game, stock=False))
    totals = search.evaluate(view, plays, guesses)
    return {play.card >> 2: total / guesses.calls for play, total in zip(plays, totals, strict=True)}


class _Counted(Determinizer):
    """A determinizer's guesses, counted: the search's totals are sums over them."""

    def __init__(self, inner: Determinizer) -> None:
        self.__dict__.update(inner.__dict__)  # the same view and builder, for what the search asks besides guesses
        self.inner = inner
        self.calls = 0

    def sample(self, rng: random.Random) -> Placement:
        self.calls += 1
        return self.inner.sample(rng)


def _unit(args: tuple[int, int, tuple[str, ...], int]) -> list[tuple[bool, list[float]]]:
    seed, unit, levels, reference = args
    rows = []
    for index, (game, after) in enumerate(positions(seed, unit)):
        worth = worths(game, reference, seed * 7919 + unit * 101 + index)
        best = max(worth.values())
        regrets = []
        view, legal = game.view(game.turn), game.legal_actions()
        for level in levels:
            bot = make_bot(level, seed=seed * 31 + unit * 7 + index)
            choice = bot.choose(view, legal)
            assert type(choice) is Play  # positions with a challenge among the legal actions are left out
            regrets.append(best - worth[choice.card >> 2])
        rows.append((after, regrets))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("levels", nargs="+", help="the levels to screen (hard, expert, expert:noise=0.1, ...)")
    parser.add_argument("--units", type=int, default=40, help="hard-against-hard rounds to take positions from")
    parser.add_argument("--seed", type=int, default=9201, help="the arena's decks to play them on (default 9201)")
    parser.add_argument("--reference", type=int, default=300, help="told rollouts a card (default 300)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.units < 1 or args.jobs < 1 or args.reference < 1:
        parser.error("--units, --jobs and --reference are whole numbers from 1")
    for level in args.levels:
        try:
            make_bot(level)
        except ValueError as error:
            parser.error(str(error))
    levels = tuple(args.levels)
    update, stop = progress_bar("rounds", args.units, "rounds", sys.stderr.isatty() and not args.json)
    rows: list[tuple[bool, list[float]]] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        work = [(args.seed, unit, levels, args.reference) for unit in range(args.units)]
        for done, found in enumerate(pool.map(_unit, work), start=1):
            rows.extend(found)
            update(done)
    stop()
    report: dict[str, Any] = {"levels": list(levels), "units": args.units, "seed": args.seed}
    for name, when in (("after", True), ("before", False)):
        chosen = [regrets for after, regrets in rows if after == when]
        part: dict[str, Any] = {"choices": len(chosen)}
        for i, level in enumerate(levels):
            part[level] = {"regret": mean_interval([r[i] for r in chosen])}
            if i:
                part[level]["minus_first"] = mean_interval([r[i] - r[0] for r in chosen])
        report[name] = part
    command = (
        f"PYTHONPATH=src python benchmarks/reading_regret.py {' '.join(levels)} --units {args.units} "
        f"--seed {args.seed} --reference {args.reference} --jobs {args.jobs}"
    )
    if args.json:
        print(json.dumps({**report, "command": command}))
        return 0
    for name, words in (("after", "after the other seat has played"), ("before", "before it has")):
        part = report[name]
        print(f"{part['choices']} choices {words}: regret in points of the round, 95% interval")
        for level in levels:
            mean, low, high = part[level]["regret"]
            line = f"  {level:>40}: {mean:.3f} [{low:.3f}, {high:.3f}]"
            if "minus_first" in part[level]:
                mean, low, high = part[level]["minus_first"]
                line += f"; minus {levels[0]}'s {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
            print(line)
    print(f"({command})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
