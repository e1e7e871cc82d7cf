"""How well :class:`~ronda.bots.inference.PlayModel` predicts the cards the search bots really play.

    PYTHONPATH=src nice -n 10 python3 benchmarks/play_model_fit.py --units 20 --reply

(about five minutes of one core: four of playing, one of fitting; ``--cache FILE`` keeps the decisions.)

``expert`` reads the other seats' plays by a model of how they choose a card
(:mod:`ronda.bots.inference`): the chance of a rank is the softmax of its
one-ply worth with ``sharpness``, mixed with a uniform ``noise``. This
measures that model against real decisions. ``--units`` single rounds of two
players of ``hard`` against ``expert`` and as many of ``hard`` against
``hard`` (both seatings, the arena's decks and bot seeds) are played on each
of two seeds; every card play records what
:class:`~ronda.bots.inference.PlayEvidence` reads (the public moment, the
ranks the seat held, the rank it chose) and what the seat itself could count
(the cards unseen by it, the next seat's hand size: never a card it could not
see, R11).

The model is fitted by maximum likelihood over a grid of sharpness and noise
on the first seed's decisions, with :meth:`PlayModel.chance` itself (the
likelihood the expert weighs its guesses by), and the log-likelihood per
decision with a choice (two ranks or more held) is printed on both seeds, for
a uniform chooser, the default model (sharpness 2, noise 0.25, no reply),
:data:`~ronda.bots.inference.FITTED` and the best fit without reply. ``--reply`` also grids the
model's ``reply``, which reads what a card gives away: a rank's score is
``sharpness`` times what it takes minus ``reply`` times the next seat's expected
best answer (:func:`~ronda.bots.inference.answer`), each rank's chance to be in
that hand counted from the cards unseen by the playing seat
(:func:`~ronda.bots.tactics.no_card_chance`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ronda.arena.match import MatchSpec, bot_name, play_seated
from ronda.bots import make_bot
from ronda.bots.base import Bot
from ronda.bots.inference import FITTED, Moment, PlayModel, answer, moments, play_chance, worths
from ronda.engine.actions import Action, Play
from ronda.engine.presets import preset_rules
from ronda.engine.table import last_turn
from ronda.engine.view import SeatView

SHARPNESS = [0.0, 0.1] + [0.25 * i for i in range(1, 17)] + [4.5 + 0.5 * i for i in range(8)]
REPLIES = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
NOISE = [0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6]


class Recorder:
    """A bot that plays as ``bot`` does and keeps the view of each card it plays (the referee's record)."""

    def __init__(self, bot: Bot, level: str, out: list[tuple[str, SeatView, int]]) -> None:
        self.bot, self.level, self.out = bot, level, out
        self.name = bot.name

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        if type(action) is Play:
            self.out.append((self.level, view, action.card))
        return action


@dataclass
class Decision:
    """One card play: what :func:`~ronda.bots.inference.play_chance` reads of it."""

    level: str
    held: int  # the seat's hand (card mask) before the play
    moment: Moment
    missa: bool
    next_missa: bool
    seen: list[int]  # per rank, the cards face up before the play
    next_size: int  # the next seat's hand size


def collect(seed: int, units: int) -> list[Decision]:
    """Every card play of ``units`` single rounds of hard-expert and hard-hard on ``seed``."""
    rules = preset_rules("classic", 2, target=10_000)
    found: list[Decision] = []
    for entrants in (("hard", "expert"), ("hard", "hard")):
        spec = MatchSpec(entrants, rules, rounds_only=True, seed=seed)
        for unit in range(units):
            for index, seating in enumerate(spec.seatings()):
                out: list[tuple[str, SeatView, int]] = []
                bots: list[Bot] = []
                for seat, entrant in enumerate(seating):
                    level = bot_name(entrants[entrant], seat)
                    bot = make_bot(level, seed=hash((seed, unit, index, seat)) & 0xFFFFFFFF)
                    bots.append(Recorder(bot, level, out))
                game, _ = play_seated(spec, unit, index, bots)
                everything = moments(game.view(0))
                for level, view, card in out:
                    moment = everything[len(view.plays)]
                    assert moment.card == card and moment.seat == view.seat
                    left = sum(view.hand_sizes)
                    last_deal = view.stock == 0
                    seen = [0] * 10
                    for face_up in [*view.opening_table, *(c for _, c in view.plays)]:
                        seen[face_up >> 2] += 1
                    found.append(
                        Decision(
                            level,
                            view.hand.mask,
                            moment,
                            not last_turn(left, last_deal),
                            not last_turn(left - 1, last_deal),
                            seen,
                            view.hand_sizes[(view.seat + 1) % rules.players],
                        )
                    )
    return found


Row = tuple[int, dict[int, float], dict[int, float]]
"""A decision with a choice: the rank played, each held rank's worth, and the next seat's expected answer to it."""


def log_likelihood(model: PlayModel, rows: list[Row]) -> float:
    """Mean log-chance of the chosen ranks, over the decisions with a choice (:meth:`PlayModel.chance`, with the
    worths of :func:`~ronda.bots.inference.play_chance` computed once)."""
    total = 0.0
    for played, now, answers in rows:
        total += math.log(model.chance(played, now, answers))
    return total / len(rows)


def prepared(decisions: list[Decision], level: str | None) -> tuple[list[Row], list[Decision]]:
    """The decisions of ``level`` (all with None) where the seat held two ranks or more, as rows and as they came."""
    chain_points = preset_rules("classic", 2).chain_points
    rows, kept = [], []
    for d in decisions:
        ranks = 0
        for r in range(10):
            if d.held >> (4 * r) & 0xF:
                ranks |= 1 << r
        if bin(ranks).count("1") < 2 or (level is not None and d.level != level):
            continue
        unseen = [4 - d.seen[r] - bin(d.held >> (4 * r) & 0xF).count("1") for r in range(10)]
        now = worths(d.moment, ranks, d.missa, chain_points, False)
        answers = {r: answer(d.moment, r, d.missa, d.next_missa, unseen, d.next_size, chain_points, False) for r in now}
        rows.append((d.moment.card >> 2, now, answers))
        kept.append(d)
    return rows, kept


def exact(model: PlayModel, decisions: list[Decision]) -> float:
    """The same mean by :func:`~ronda.bots.inference.play_chance` itself, what the expert computes."""
    chain_points = preset_rules("classic", 2).chain_points
    total = 0.0
    for d in decisions:
        total += math.log(
            play_chance(model, d.moment, d.held, d.missa, d.next_missa, d.seen, d.next_size, chain_points, False)
        )
    return total / len(decisions)


def fit(rows: list[Row], replies: list[float]) -> tuple[float, PlayModel]:
    """The (log-likelihood, model) of the grid's best point."""
    best: tuple[float, PlayModel] = (-math.inf, PlayModel())
    for reply in replies:
        for sharpness in SHARPNESS:
            for noise in NOISE:
                model = PlayModel(sharpness, noise, reply)
                ll = log_likelihood(model, rows)
                if ll > best[0]:
                    best = (ll, model)
    return best


def to_json(decisions: list[Decision]) -> list[dict[str, Any]]:
    return [{**d.__dict__, "moment": list(d.moment)} for d in decisions]


def from_json(data: list[dict[str, Any]]) -> list[Decision]:
    return [Decision(**{**d, "moment": Moment(*d["moment"])}) for d in data]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", type=int, default=20, help="single-round units per matchup and seed (default 20)")
    parser.add_argument("--fit-seed", type=int, default=9101, help="seed of the games fitted on")
    parser.add_argument("--test-seed", type=int, default=9102, help="seed of the held-out games")
    parser.add_argument("--reply", action="store_true", help="also grid the reply-aware worth (0.25 to 10)")
    parser.add_argument("--cache", help="JSON file keeping the collected decisions (read if it exists)")
    args = parser.parse_args(argv)
    command = "PYTHONPATH=src nice -n 10 python3 benchmarks/play_model_fit.py " + " ".join(sys.argv[1:])
    start = time.process_time()
    if args.cache and Path(args.cache).exists():
        data = json.loads(Path(args.cache).read_text())
        train, test = from_json(data["fit"]), from_json(data["test"])
    else:
        train, test = collect(args.fit_seed, args.units), collect(args.test_seed, args.units)
        if args.cache:
            Path(args.cache).write_text(json.dumps({"fit": to_json(train), "test": to_json(test)}))
    print(f"# {command}")
    print(f"card plays: {len(train)} fitted on (seed {args.fit_seed}), {len(test)} held out (seed {args.test_seed})")
    print(f"collected in {time.process_time() - start:.0f} s CPU")
    before, uniform = PlayModel(), PlayModel(0.0, 1.0, 0.0)
    for level in (None, "hard", "expert"):
        (rows, _), (held, held_kept) = prepared(train, level), prepared(test, level)
        print(f"{level or 'all'}: {len(rows)} choices fitted on, {len(held)} held out; log-likelihood a choice:")
        models = [("uniform", uniform), ("default", before), ("fitted (FITTED)", FITTED)]
        models.append(("fit, no reply", fit(rows, [0.0])[1]))
        if args.reply:
            models.append(("fit, reply-aware", fit(rows, REPLIES)[1]))
        for name, model in models:
            print(
                f"  {name:16} sharpness {model.sharpness:5.2f} noise {model.noise:5.3f} reply {model.reply:4.2f}: "
                f"{log_likelihood(model, rows):.4f} fitted, {log_likelihood(model, held):.4f} held out"
            )
            check = exact(model, held_kept)
            assert abs(check - log_likelihood(model, held)) < 1e-9, (check, log_likelihood(model, held))
    print(f"in all {time.process_time() - start:.0f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
