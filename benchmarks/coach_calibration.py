"""Calibration of the coach: the winning chances it says a costly decision gave up, against games played out.

    PYTHONPATH=src nice python benchmarks/coach_calibration.py --games 4 --decisions 12 --playouts 300 --seed 28

``--games`` games of ``--levels`` (default ``hard`` against ``medium``, seats
swapped every other game) are played from seeded decks. Every decision with a
choice is analysed as ``ronda analyse`` does with ``--select-guesses``, and
the ``--decisions`` costliest (classed ``inaccuracy`` or worse) are kept: the
sample of decisions the coach rates as costly. Each is then

- analysed again with two fresh seeds and ``--guesses`` guesses (fresh, so
  that picking the decisions that looked costliest does not bias the number:
  the winner's curse): the coach's difference between the chance to win after
  the best option and after the option taken, and how far its two seeds are
  apart (the coach's own precision);
- played out from both options to the end of the game ``--playouts`` times by
  ``--playout-level`` (default ``medium``) on every seat, later rounds
  shuffled afresh; with ``--hidden guessed`` (the default) each game starts
  from the hidden hands and stock drawn from the deciding seat's view, as the
  coach draws its guesses — so the measured difference is what the coach's
  number estimates, and what is tested is its horizon, its rollouts and the
  win-probability model against whole games played out — and with ``--hidden
  real`` from the real ones (the truth, one draw of what the seat could not
  see: single decisions then differ from the coach by the luck of the cards,
  and only the mean over the sample is comparable). Both options meet the same
  hidden cards, shuffles and bots' random numbers, so their difference is
  measured far more precisely than either win rate.

Printed per decision: where it is, the option taken and the best, the coach's
difference in percentage points of the chance to win (its two seeds), the
measured difference with its 95% interval, and whether the coach's number lies
inside; the last lines compare the coach's mean difference with the measured
mean and its interval.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from ronda.analysis.grades import THRESHOLDS
from ronda.analysis.review import Moment, analyse
from ronda.analysis.search import Method, decision_seed, evaluate
from ronda.bots import make_bot
from ronda.bots.determinize import Determinizer
from ronda.bots.inference import PlayModel
from ronda.bots.winprob import with_scores
from ronda.engine.actions import Action, action_from_record
from ronda.engine.cards import parse_card
from ronda.engine.game import OVER, WAITING, Game
from ronda.engine.record import replay
from ronda.engine.rules import Rules

Z95 = 1.96


@dataclass(frozen=True)
class Costly:
    """A decision the coach rated costly: the game it is in, the moment, the two options to compare."""

    game: int
    moment: Moment
    position: Game
    taken: Action
    best: Action
    selected_loss: float


def play_game(rules: Rules, levels: tuple[str, str], seed: int) -> Game:
    """One whole game of two levels from seeded decks, every decision recorded."""
    game = Game(rules, seed=seed)
    bots = [make_bot(level, seed=seed * 10 + seat) for seat, level in enumerate(levels)]
    while game.phase != OVER:
        seat = game.turn
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat=seat)
    return game


def positions(record: dict[str, Any]) -> dict[int, Game]:
    """The game just before each action of a record, by the action's index in the record (as analyses count)."""
    replay(record)
    rules = Rules.from_dict(record["rules"])
    decks = [[parse_card(c) for c in rnd["deck"]] for rnd in record["rounds"]]
    game = Game(rules, decks=decks[:1], dealer=record.get("dealer", rules.players - 1))
    found: dict[int, Game] = {}
    index = 0
    for round_index, rnd in enumerate(record["rounds"]):
        if round_index:
            assert game.phase == WAITING
            game.add_deck(decks[round_index])
        for entry in rnd["actions"]:
            seat, action = action_from_record(entry)
            found[index] = game.copy()
            game.apply(action, seat=seat)
            index += 1
    return found


def starts(item: Costly, hidden: str, playouts: int, seed: int) -> list[Game]:
    """The games the options are played out from, later rounds shuffled afresh in each.

    ``real``: the real position (the real hands and stock). ``guessed``: the hidden cards drawn from the
    deciding seat's view, by the coach's own determinizer (plays read), one placement a game: what the seat
    could know, so the coach's number is an estimate of exactly what is measured.
    """
    rng = random.Random(seed)
    if hidden == "real":
        return [
            with_scores(item.position, item.position.scores, random.Random(rng.getrandbits(64)))
            for _ in range(playouts)
        ]
    sampler = Determinizer(item.moment.view, play_model=PlayModel())
    return [sampler.sample_game(rng, game_rng=random.Random(rng.getrandbits(64))) for _ in range(playouts)]


def play_out(start: Game, action: Action, side: int, seed: int, level: str) -> bool:
    """Whether ``side`` wins after ``action`` from a copy of ``start``, ``level`` on every seat."""
    rng = random.Random(seed)
    game = start.copy()
    game.apply(action)
    bots = [make_bot(level, seed=rng.getrandbits(32)) for _ in range(game.rules.players)]
    while game.phase != OVER:
        seat = game.turn
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat=seat)
    return game.winner == side


def paired_interval(paired: list[float]) -> tuple[float, float]:
    """95% interval of a difference of paired win rates (Agresti and Min: half a game added to each discordant cell).

    ``paired``: +1 where only the best option won, -1 where only the option taken won, 0 where both or neither
    did. Sound when few pairs disagree, where the plain interval would shrink to nothing.
    """
    n = len(paired) + 2
    only_best = sum(1 for x in paired if x > 0) + 0.5
    only_taken = sum(1 for x in paired if x < 0) + 0.5
    difference = (only_best - only_taken) / n
    variance = ((only_best + only_taken) - (only_best - only_taken) ** 2 / n) / n**2
    half = Z95 * math.sqrt(variance)
    return max(-1.0, difference - half), min(1.0, difference + half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games the decisions are drawn from")
    parser.add_argument("--levels", default="hard,medium", help="the two levels that play them (seat 0, seat 1)")
    parser.add_argument("--decisions", type=int, default=12, help="costly decisions checked")
    parser.add_argument("--select-guesses", type=int, default=60, help="guesses of the analysis that picks them")
    parser.add_argument("--guesses", type=int, default=200, help="guesses of the coach's number (two seeds)")
    parser.add_argument("--playouts", type=int, default=300, help="games played out from each option")
    parser.add_argument("--playout-level", default="medium")
    parser.add_argument(
        "--hidden",
        choices=("guessed", "real"),
        default="guessed",
        help="play out from the hidden cards drawn from the seat's view (default) or from the real ones",
    )
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    rules = Rules(players=2)
    first, second = args.levels.split(",")
    start = time.process_time()

    costly: list[Costly] = []
    for number in range(args.games):
        levels = (first, second) if number % 2 == 0 else (second, first)
        game = play_game(rules, levels, seed=args.seed * 1000 + number)
        record = game.to_record()
        review = analyse(record, method=Method(guesses=args.select_guesses), seed=args.seed)
        at = positions(record)
        for decision in review.decisions:
            if decision.loss >= THRESHOLDS["inaccuracy"]:
                moment = decision.moment
                best = decision.evaluation.best.action
                costly.append(Costly(number, moment, at[moment.index], moment.taken, best, decision.loss))
    costly.sort(key=lambda c: -c.selected_loss)
    sample = costly[: args.decisions]
    print(
        f"{args.games} games of {first} against {second} (seed {args.seed}): {len(costly)} decisions rated"
        f" inaccuracy or worse with {args.select_guesses} guesses; the {len(sample)} costliest checked"
    )
    print(
        f"coach: {args.guesses} guesses, two fresh seeds; measured: {args.playouts} games played out from each option"
        f" by {args.playout_level}, the hidden cards {args.hidden}; differences in percentage points of the chance"
        " to win (best minus taken)"
    )
    header = f"{'game':>4} {'round':>5} {'deal':>4} {'seat':>4}  {'taken':<16}{'best':<16}"
    print(f"{header}{'coach (2 seeds)':>18}{'measured [95%]':>26}{'inside':>8}")
    coach_sum = 0.0
    measured_all: list[float] = []
    inside = 0
    for item in sample:
        moment = item.moment
        differences = []
        for extra in (1, 2):
            seed = decision_seed(moment.view, moment.index, args.seed + 1000 * extra)
            evaluation = evaluate(moment.view, moment.legal, Method(guesses=args.guesses), seed=seed)
            differences.append(evaluation.option(item.best).chance - evaluation.option(item.taken).chance)
        coach = sum(differences) / 2
        side = moment.view.side
        paired = []
        base = args.seed * 1_000_003 + moment.index * 7919
        for k, origin in enumerate(starts(item, args.hidden, args.playouts, base)):
            won_best = play_out(origin, item.best, side, base + k, args.playout_level)
            won_taken = play_out(origin, item.taken, side, base + k, args.playout_level)
            paired.append(float(won_best) - float(won_taken))
        mean = sum(paired) / len(paired)
        low, high = paired_interval(paired)
        ok = low <= coach <= high
        inside += ok
        coach_sum += coach
        measured_all.extend(paired)
        seeds = f"{100 * coach:+.1f} ({100 * differences[0]:+.1f} {100 * differences[1]:+.1f})"
        measured = f"{100 * mean:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"
        print(
            f"{item.game:>4} {moment.round + 1:>5} {moment.deal + 1:>4} {moment.seat:>4}  {item.taken!s:<16}"
            f"{item.best!s:<16}{seeds:>18}{measured:>26}{'yes' if ok else 'NO':>8}",
            flush=True,
        )
    if not sample:
        print("no decision was rated inaccuracy or worse: play more games")
        return 0
    count = len(sample)
    coach_mean = coach_sum / count
    mean = sum(measured_all) / len(measured_all)
    # The interval of the mean over decisions: each decision's playouts are one unit, so the spread is between them.
    per = [sum(measured_all[i * args.playouts : (i + 1) * args.playouts]) / args.playouts for i in range(count)]
    between = math.sqrt(sum((x - mean) ** 2 for x in per) / max(1, count - 1))
    half = Z95 * between / math.sqrt(count)
    print(
        f"mean over the {count} decisions: coach {100 * coach_mean:+.1f}, measured {100 * mean:+.1f}"
        f" [{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]; the coach's number inside the measured"
        f" interval at {inside} of {count} decisions"
    )
    print(f"CPU {time.process_time() - start:.0f} s; command: {' '.join(['python', *sys.argv])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
