"""Rollouts that play as the expert plays: a rollout policy fitted to ``expert``'s own card choices, then screened.

    PYTHONPATH=src nice -n 10 python3 benchmarks/rollout_imitation.py --units 45 --screen 100 --seed 7001 --jobs 2

(about four minutes of two cores to collect and fit, then a screen of 100 single-round units of five to seven minutes
with ``--jobs 2``; ``--sharpness`` scales the fitted weights, ``--cache FILE`` keeps the choices collected.)

Issue 28 (item 4) suggests better rollouts rather than more guesses: a rollout policy learned from the expert's own
decisions. This fits one and plays it. ``expert``'s rollouts play every seat by a three-ply lookahead that reads the
guessed hands, as if they were face up; the imitating policy plays each seat by what it can see (its own hand, the
cards out, the next hand's size), as the expert itself must, and chooses as the expert chose.

**The choices.** ``--units`` single rounds of ``expert`` against ``hard`` (two players, both seatings, the arena's
decks and bot seeds) on each of the seeds ``--fit-seeds`` (default 9300 and 9301, which no line of docs/bots.md
uses); every card play of the expert's with two ranks or more to choose from is kept with the engine's search state
at that moment (:meth:`~ronda.engine.game.Game.search_state`, of which only what the seat may see is read).

**The policy.** Each rank the seat holds is described by ten numbers a rollout can compute fast, from the seat's own
view (:func:`features`): the points it takes now (caida, missa), the cards it takes, whether it is dropped, the next
seat's expected best reply two and three plays deep (as :func:`~ronda.bots.rollout.blind_policy` reckons it: the
chance that the next hand holds each rank, from the cards unseen), the chance the next seat holds the rank dropped,
whether the seat holds a pair of it, its height, the unseen cards of its rank, the ranks left on the table. The
policy plays rank ``r`` with chance ``softmax(sharpness * w . f(r))``, ``w`` fitted by maximum likelihood (Newton's
method, a small ridge) to the first seed's choices; the second seed's are held out. With three or four players the
rollouts keep :func:`~ronda.bots.rollout.blind_policy` (the features are two players' only).

**The screen.** ``expert`` with that policy in its rollouts, everything else its own, against ``hard``: the arena's
own match (``ronda arena expert hard --rounds --units N --seed S`` with the rollout replaced), so the same decks and
bot seeds as that line, and a result that reproduces exactly from ``--seed``, ``--units`` and the fit.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from expert_screen import describe, screen

from ronda.arena.match import MatchSpec, play_seated, seat_bots, unit_deck
from ronda.bots.base import Bot
from ronda.bots.pimc import ExpertBot
from ronda.bots.rollout import _NONE, _expected_best, blind_policy
from ronda.bots.tactics import take
from ronda.engine.actions import Action, Play
from ronda.engine.cards import ALL_CARDS
from ronda.engine.game import Game, SearchState
from ronda.engine.presets import preset_rules
from ronda.engine.table import last_turn
from ronda.engine.view import SeatView

NAMES = ["points", "cards", "dropped", "reply2", "reply3", "exposed", "pair", "height", "unseen", "table_after"]
CARD_VALUE = 0.7
"""A card's worth in the replies' reckoning, as in the expert's own rollouts (``ROLLOUTS`` in ronda.bots)."""

Choice = tuple[tuple[Any, ...], int]
"""A search state without its rules (two players, classic) and the card the expert played."""


def features(state: Sequence[Any]) -> list[tuple[int, list[float]]]:
    """Each rank the seat to play holds (its lowest card) with its ten numbers (:data:`NAMES`), two players."""
    seat, hands, table_ranks, drop_rank, _chain, _count, left, last_deal = state[:8]
    out = state[-1]
    hand = hands[seat]
    size = hands[(seat + 1) % len(hands)].bit_count()
    missa = not last_turn(left, last_deal)
    missa_next = not last_turn(left - 1, last_deal)
    missa_mine = not last_turn(left - 2, last_deal)
    unseen = ALL_CARDS & ~(hand | out)
    base = unseen.bit_count() * 45 + min(size, 8) * 5
    counts = [(unseen >> (4 * r) & 0xF).bit_count() for r in range(10)]
    chances = [1.0 - _NONE[base + counts[r]] for r in range(10)]
    replies_open = [t for t in range(10) if chances[t]] if size and left > 1 else []
    found = []
    for r in range(10):
        cards = hand >> (4 * r) & 0xF
        if not cards:
            continue
        points, table_after = take(table_ranks, drop_rank, r, missa, 0.0)
        captured = table_after != table_ranks | 1 << r
        taken = take(table_ranks, drop_rank, r, missa, 1.0)[0] - points if captured else 0.0
        drop_after = -1 if captured else r
        rest = hand & ~((cards & -cards) << (4 * r))
        mine = [u for u in range(10) if rest >> (4 * u) & 0xF] if left > 2 else []
        two, three = [], []
        for t in replies_open:
            reply, table_2 = take(table_after, drop_after, t, missa_next, CARD_VALUE)
            two.append((reply, chances[t]))
            if mine:
                drop_2 = t if table_2 == table_after | 1 << t else -1
                reply -= max(take(table_2, drop_2, u, missa_mine, CARD_VALUE)[0] for u in mine)
            three.append((reply, chances[t]))
        found.append(
            (
                (cards & -cards).bit_length() - 1 + 4 * r,
                [
                    points,
                    taken,
                    0.0 if captured else 1.0,
                    _expected_best(two) if two else 0.0,
                    _expected_best(three) if three else 0.0,
                    0.0 if captured else chances[r],
                    1.0 if cards.bit_count() >= 2 else 0.0,
                    r / 9,
                    counts[r] / 4,
                    table_after.bit_count() / 10,
                ],
            )
        )
    return found


def imitating_policy(weights: Sequence[float]) -> Callable[[SearchState, Callable[[], float]], int]:
    """Each seat plays a rank with chance ``softmax(weights . features)`` (Gumbel's trick: the best of the scores
    each with a Gumbel draw added); three or four players: :func:`~ronda.bots.rollout.blind_policy`."""
    w = [float(x) for x in weights]
    more = blind_policy(3, card_value=CARD_VALUE, explore=0.1)
    log = math.log

    def policy(state: SearchState, rand: Callable[[], float]) -> int:
        if len(state.hands) > 2:
            return more(state, rand)
        best, best_card = -math.inf, -1
        for card, numbers in features(state):
            score = sum(a * b for a, b in zip(w, numbers, strict=True)) - log(-log(rand() * 0.999999 + 1e-9))
            if score > best:
                best, best_card = score, card
        return best_card

    return policy


class _Recorder:
    """Plays as ``bot`` does; keeps the search state of each card play with a choice (the real game's: only the
    seat's own hand, the cards out and the hands' sizes are read)."""

    def __init__(self, bot: Bot, game: Game, out: list[Choice] | None) -> None:
        self.bot, self.game, self.out, self.name = bot, game, out, bot.name

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        if self.out is not None and type(action) is Play and len({a.card >> 2 for a in legal if type(a) is Play}) > 1:
            state = self.game.search_state()
            self.out.append(((*state[:8], state.out), action.card))
        return action


def collect(seed: int, units: int) -> list[Choice]:
    """The expert's card choices in ``units`` single rounds against ``hard`` on ``seed`` (both seatings)."""
    rules = preset_rules("classic", 2, target=10_000)
    spec = MatchSpec(("expert", "hard"), rules, rounds_only=True, seed=seed)
    found: list[Choice] = []
    for unit in range(units):
        for index, seating in enumerate(spec.seatings()):
            game = Game(rules, decks=[unit_deck(rules, seed, unit, 0)])
            bots = seat_bots(spec, unit, index)
            kept = [_Recorder(bot, game, found if seating[seat] == 0 else None) for seat, bot in enumerate(bots)]
            play_seated(spec, unit, index, kept, game)
        print(f"  seed {seed}: unit {unit + 1}/{units}, {len(found)} choices", file=sys.stderr, flush=True)
    return found


def design(choices: Sequence[Choice]) -> tuple[list[np.ndarray], np.ndarray]:
    """Each choice's matrix of features (a row a rank held) and the row the expert played."""
    rows, chosen = [], []
    for state, card in choices:
        ranked = features(state)
        rows.append(np.array([numbers for _, numbers in ranked]))
        chosen.append([c >> 2 for c, _ in ranked].index(card >> 2))
    return rows, np.array(chosen)


def log_likelihood(w: np.ndarray, rows: Sequence[np.ndarray], chosen: np.ndarray) -> float:
    """The mean log-chance of the expert's choices under ``softmax(w . f)``."""
    total = 0.0
    for x, y in zip(rows, chosen, strict=True):
        scores = x @ w
        top = scores.max()
        total += scores[y] - top - math.log(np.exp(scores - top).sum())
    return total / len(rows)


def fit(rows: Sequence[np.ndarray], chosen: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Maximum likelihood of the conditional logit by Newton's method (concave: it converges from zero)."""
    w = np.zeros(rows[0].shape[1])
    for _ in range(steps):
        gradient = -2 * ridge * w * len(rows)
        hessian = -2 * ridge * np.eye(len(w)) * len(rows)
        for x, y in zip(rows, chosen, strict=True):
            p = np.exp(x @ w - (x @ w).max())
            p /= p.sum()
            mean = p @ x
            gradient += x[y] - mean
            hessian -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def agreement(score: Callable[[np.ndarray], np.ndarray], rows: Sequence[np.ndarray], chosen: np.ndarray) -> float:
    """The share of choices whose best-scored rank is the one the expert played."""
    return float(np.mean([int(np.argmax(score(x))) == y for x, y in zip(rows, chosen, strict=True)]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=45, help="single-round units a fitting seed (default 45)")
    parser.add_argument("--fit-seeds", default="9300,9301", help="the seed fitted on, then the one held out")
    parser.add_argument("--cache", type=Path, help="keep the collected choices in this file (read if there)")
    parser.add_argument("--sharpness", type=float, default=1.0, help="the fitted weights times this (default 1)")
    parser.add_argument("--screen", type=int, default=0, help="then play this many units against hard (0: none)")
    parser.add_argument("--seed", type=int, default=7001, help="the screen's arena seed (default 7001)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--json", action="store_true", help="print the screen's arena JSON")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.fit_seeds.split(",")]
    if len(seeds) != 2:
        parser.error("--fit-seeds is two seeds: the one fitted on, then the one held out")
    if args.cache is not None and args.cache.exists():
        collected = pickle.loads(args.cache.read_bytes())
    else:
        with ProcessPoolExecutor(max_workers=max(1, min(args.jobs, 2))) as pool:
            collected = list(pool.map(collect, seeds, [args.units] * 2))
        if args.cache is not None:
            args.cache.write_bytes(pickle.dumps(collected))
    (train, train_chosen), (held, held_chosen) = (design(c) for c in collected)
    w = fit(train, train_chosen)
    print(f"choices: {len(train)} fitted on (seed {seeds[0]}), {len(held)} held out (seed {seeds[1]})")
    print("weights: " + ", ".join(f"{name} {value:+.3f}" for name, value in zip(NAMES, w, strict=True)))
    uniform = float(np.mean([-math.log(len(x)) for x in held]))
    print(
        f"held out, log-likelihood a choice: uniform {uniform:.3f}, fitted {log_likelihood(w, held, held_chosen):.3f}"
    )
    blind3 = np.array([1, CARD_VALUE, 0, 0, -1, 0, 0, 0, 0, 0], dtype=float)
    blind2 = np.array([1, CARD_VALUE, 0, -1, 0, 0, 0, 0, 0, 0], dtype=float)
    print(
        "held out, the expert's rank chosen first: "
        f"fitted {agreement(lambda x: x @ w, held, held_chosen):.1%}, "
        f"blind three-ply {agreement(lambda x: x @ blind3, held, held_chosen):.1%}, "
        f"blind two-ply {agreement(lambda x: x @ blind2, held, held_chosen):.1%}"
    )
    if not args.screen:
        return 0
    weights = list(args.sharpness * w)
    name = f"imitating:sharpness={args.sharpness:g}"
    result = screen(name, lambda _argument, seed: _imitating_expert(weights, seed), args.screen, args.seed, args.jobs)
    if args.json:
        print(json.dumps(result))
    print(f"screen, {describe(result)}")
    return 0


def _imitating_expert(weights: Sequence[float], seed: int | None) -> Bot:
    return ExpertBot(seed, policy=imitating_policy(weights))


if __name__ == "__main__":
    raise SystemExit(main())
