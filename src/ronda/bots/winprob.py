"""The chance that each side wins the game, from the scores between rounds: what the search bots maximise.

Points are a means; the game is won by the first side to reach the target
(R9.1, R9.3). One point at 39-25 is worth far more than at 0-0, and a caida
that wins on the spot is worth more than any margin. This module turns scores
into winning chances, so a search can value the end of its horizon by them.

**The model.** A round is summarised, from the dealer's side's point of view
(sides numbered from the dealer's side in the order of play, as the deal
passes: R3.2), by two vectors: the net points each side scored *during play*
(caida, chain, missa, announcements, penalties, dealer duty) and the points
each scored by the *card count* at the end (R7.2). Their distribution is
counted in self-play of the ``medium`` level (cheap, and close enough in
style to the stronger levels): the points during play jointly, and the card
count for each leader of the play (:class:`RoundTable`). It is shipped as package data
(``winprob_rounds.json``; :func:`main` regenerates it, command and seed in the
file). Given that distribution the chance to win from every score is exact, by
dynamic programming over the grid of scores below the target, from the scores
closest to it down:

- a side whose points during play bring it to the target wins *inside* the
  round (R9.3) — before the card count, and before a side that needs more. When
  several sides would get there, the order of their points during the round
  decides: it is taken as a uniformly random interleaving of single points
  (the chance that one side's ``x``-th point comes before another's ``y``-th is
  then hypergeometric). So at 39 any caida and missa wins (the case of the
  delaying bluff: R9.5 lets a declaration's points win only once shown true);
- otherwise the card count is scored in one step (the highest side at or above
  the target wins; equal highest sides share), else the next round starts
  with the next dealer (R3.2), from the new scores.

What the model ignores, knowingly: that players change their play near the
target (the table is measured from play far from it), the order of points
within a round beyond the random interleaving, points taken back inside a
round (they count net), and a failed challenge's lost game (R8.8; ``medium``
challenges only what counting proves false). :mod:`benchmarks/winprob_calibration.py`
compares the model with long self-play from sample scores.

Tables are shipped for the presets' rule sets (``ronda rules``) with 2, 3 and
4 players; the target and ``ace_high`` do not change a round, so one table
serves every target. Rules with no shipped table use the nearest one
(:data:`FALLBACK_ORDER`), or, when none is near, get one computed on first
use (:data:`ON_DEMAND_ROUNDS` rounds of self-play, seeded, some seconds) and
kept for the process. The exact programme is for two sides (2 or 4 players)
with at most :data:`EXACT_STATES` score vectors (targets up to 141). Three
players, and longer targets, use an approximation: each side's number of
rounds to reach the target is taken as normal (mean and variance from the
table), the sides independent — without the dealer's edge or wins inside a
round.

>>> from ronda.engine.rules import Rules
>>> rules = Rules(players=2)
>>> start = win_probability(rules, [0, 0], dealer=1)
>>> round(sum(start), 9), 0.4 < start[0] < 0.6
(1.0, True)
>>> near = win_probability(rules, [39, 25], dealer=1)
>>> near[0] > 0.85
True
>>> win_probability(rules, [41, 25], dealer=1)  # a game already won stays won (R9.4)
(1.0, 0.0)
"""

from __future__ import annotations

import json
import math
import operator
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..engine.errors import BotError
from ..engine.events import Score
from ..engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ..engine.rules import Rules
from .base import Bot, RandomBot
from .rules_based import EasyBot, MediumBot

TABLES = "winprob_rounds.json"
"""The package data file of round-outcome tables, next to this module."""

EXACT_STATES = 20_000
"""The most score vectors below the target the exact dynamic programme walks: two sides up to a target of 141
(41: 1,681 vectors, a quarter of a second). Three sides are left to the normal approximation: their table has
hundreds of outcomes a round and 41 points make 68,921 vectors, minutes of pure Python."""

ON_DEMAND_ROUNDS = 2_000
"""Rounds of self-play that estimate a table for rules without a shipped one."""

ON_DEMAND_SEED = 0


@dataclass(frozen=True)
class RoundTable:
    """The distribution of a round's outcome under some rules, as counted in self-play.

    ``plays``: each vector of net points scored during play (per side, from
    the dealer's side) and how many rounds had it. ``cards``: for each *leader*
    of the play (the side with the most points during play, or ``-1`` when
    sides tie for it), each vector of card-count points and how often. The
    card count is taken as depending on the play only through its leader: a
    side that takes more caidas and missas tends to take more cards too.
    """

    sides: int
    plays: tuple[tuple[tuple[int, ...], int], ...]
    cards: dict[int, tuple[tuple[tuple[int, ...], int], ...]]

    @property
    def rounds(self) -> int:
        return sum(count for _, count in self.plays)

    def outcomes(self) -> list[tuple[float, tuple[int, ...], tuple[int, ...]]]:
        """Every (probability, points during play, card-count points) the model gives a round."""
        total = self.rounds
        out = []
        for plays, count in self.plays:
            cards = self.cards_after(plays)
            seen = sum(c for _, c in cards)
            for card_points, c in cards:
                out.append((count / total * c / seen, plays, card_points))
        return out

    def cards_after(self, plays: Sequence[int]) -> tuple[tuple[tuple[int, ...], int], ...]:
        """The card-count outcomes counted after a play with this leader (all of them if none was seen)."""
        found = self.cards.get(leader(plays))
        if found:
            return found
        merged: Counter[tuple[int, ...]] = Counter()
        for rows in self.cards.values():
            for card_points, count in rows:
                merged[card_points] += count
        return tuple(merged.items())


def leader(plays: Sequence[int]) -> int:
    """The side with the most points during play, or -1 when several share the most.

    >>> leader([3, 1]), leader([2, 2, 0])
    (0, -1)
    """
    best = max(plays)
    return plays.index(best) if list(plays).count(best) == 1 else -1


# ----------------------------------------------------------------- the tables


NOT_IN_KEY = ("target", "ace_high")
"""The variants that do not change a round's points (the target is the win probability's own input; ``ace_high``
only ranks announcements of one kind): no table is kept for them."""


def table_key(rules: Rules) -> str:
    """The rules that change a round, as a key: every variant but :data:`NOT_IN_KEY`'s.

    >>> table_key(Rules(players=3, target=25))
    'players=3'
    >>> table_key(Rules(players=2, dealer_duty=True))
    'players=2,dealer_duty=true'
    """
    default = Rules()
    data = rules.replace(**{name: getattr(default, name) for name in NOT_IN_KEY}).to_dict()
    return ",".join(f"{key}={json.dumps(value, separators=(',', ':'))}" for key, value in data.items())


def _rows(data: list[list[int]]) -> tuple[tuple[tuple[int, ...], int], ...]:
    return tuple((tuple(int(x) for x in row[:-1]), int(row[-1])) for row in data)


def _decode(data: dict[str, Any]) -> RoundTable:
    cards = {int(key): _rows(rows) for key, rows in data["cards"].items()}
    return RoundTable(int(data["sides"]), _rows(data["plays"]), cards)


def encode_table(table: RoundTable) -> dict[str, Any]:
    """A table as JSON data: rows of points per side then a count, most frequent first."""

    def rows(items: Sequence[tuple[tuple[int, ...], int]]) -> list[list[int]]:
        return [[*points, count] for points, count in sorted(items, key=lambda item: (-item[1], item[0]))]

    return {
        "sides": table.sides,
        "rounds": table.rounds,
        "plays": rows(table.plays),
        "cards": {str(key): rows(value) for key, value in sorted(table.cards.items())},
    }


@lru_cache(maxsize=1)
def _shipped() -> dict[str, Any]:
    try:
        text = resources.files(__package__ or "ronda.bots").joinpath(TABLES).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {"tables": {}}
    data: dict[str, Any] = json.loads(text)
    return data


_computed: dict[str, RoundTable] = {}


FALLBACK_ORDER = ("auto_declare", "undeclared_ronda_penalty", "chain_points", "dealer_duty")
"""The variants set aside, in this order, to find a shipped table for rules that have none: the least
change to a round's points first."""

NEVER_SET_ASIDE = ("four_card_hands", "transfer_scoring")
"""The variants that change a round too much to borrow another rule set's table (the hand sizes, the scoring): rules
with one of them that no shipped table covers have one computed when first asked (:data:`ON_DEMAND_ROUNDS` rounds).
Every variant is in :data:`NOT_IN_KEY`, :data:`FALLBACK_ORDER` or here (``tests/test_variant_lists.py``)."""


def round_table(rules: Rules) -> RoundTable:
    """The round-outcome table for ``rules``.

    The shipped one; else the shipped one of the nearest rules (setting aside
    :data:`FALLBACK_ORDER`'s variants one by one); else one computed now by
    :func:`sample_round_table` (:data:`ON_DEMAND_ROUNDS` rounds, seeded) and
    kept for the process.
    """
    return _resolve(rules)[1]


@lru_cache(maxsize=64)
def _resolve(rules: Rules) -> tuple[str, RoundTable]:
    """The key of the table :func:`round_table` uses for ``rules``, and the table."""
    tables = _shipped()["tables"]
    nearer = rules
    for variant in (None, *FALLBACK_ORDER):
        if variant is not None:
            nearer = nearer.replace(**{variant: getattr(Rules(), variant)})
        key = table_key(nearer)
        if key in tables:
            return key, _decoded(key)
    key = table_key(rules)
    table = _computed.get(key)
    if table is None:
        table = _computed[key] = sample_round_table(rules, ON_DEMAND_ROUNDS, ON_DEMAND_SEED)
    return key, table


@lru_cache(maxsize=64)
def _decoded(key: str) -> RoundTable:
    return _decode(_shipped()["tables"][key])


SELF_PLAY_LEVELS: dict[str, type[RandomBot] | type[EasyBot] | type[MediumBot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
}
"""The levels the model may be built from: those that do not value positions by it (hard and expert do)."""


def _self_play_bot(level: str, seed: int) -> Bot:
    """A bot of ``level`` for self-play; a level that itself reads this model would make it its own source."""
    try:
        return SELF_PLAY_LEVELS[level](seed)
    except KeyError:
        raise BotError(
            f"the win-probability model is built from bots that do not use it ({', '.join(SELF_PLAY_LEVELS)}), "
            f"not {level!r}"
        ) from None


def sample_round_table(rules: Rules, rounds: int, seed: int, level: str = "medium") -> RoundTable:
    """Play ``rounds`` single rounds of ``level`` against itself and count their outcomes.

    Each round is a fresh game (far from any target, so no one plays for it)
    dealt by a seat that turns with the round number, every seat's bot seeded
    from ``seed``. A round ended by a failed challenge (R8.8) is left out.
    """
    far = rules.replace(target=10_000)
    n = rules.players
    sides = far.sides
    rng = random.Random(seed)
    plays_seen: Counter[tuple[int, ...]] = Counter()
    cards_seen: dict[int, Counter[tuple[int, ...]]] = {}
    for index in range(rounds):
        dealer = index % n
        game = Game(far, rng=random.Random(rng.getrandbits(64)), dealer=dealer)
        bots = [_self_play_bot(level, seed=rng.getrandbits(32)) for _ in range(n)]
        while game.phase in (DECLARE, PLAY) and game.round == 0:
            seat = game.turn
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat=seat)
        if game.phase == OVER:
            continue
        dealer_side = far.side_of(dealer)
        plays = [0] * sides
        cards = [0] * sides
        for event in game.events:
            if type(event) is Score:
                side = (event.side - dealer_side) % sides
                if event.reason == "cards":
                    cards[side] += event.points
                else:
                    plays[side] += event.points
        plays_seen[tuple(plays)] += 1
        cards_seen.setdefault(leader(plays), Counter())[tuple(cards)] += 1
    return RoundTable(
        sides, tuple(plays_seen.items()), {key: tuple(counter.items()) for key, counter in cards_seen.items()}
    )


# ------------------------------------------------------------ the public API


def win_probability(rules: Rules, scores: Sequence[int], dealer: int) -> tuple[float, ...]:
    """The chance that each side wins the game, from ``scores`` with ``dealer`` to deal the next round.

    ``scores`` has one entry per side (R2.2); ``dealer`` is the seat that
    deals the round about to start (a game waiting between rounds has already
    passed the deal on: :attr:`Game.dealer <ronda.engine.game.Game.dealer>`).
    A won game (one side alone highest at or above the target) is certain.
    The chances sum to 1. Raises ``ValueError`` naming a wrong argument.
    """
    sides = rules.sides
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise ValueError(f"scores must be a sequence of whole numbers, one per side, not {scores!r}")
    if len(scores) != sides:
        raise ValueError(f"win_probability needs {sides} scores, one per side, not {len(scores)}")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise ValueError(f"the dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
    points = [_whole_score(s, scores) for s in scores]
    if any(s < 0 for s in points):
        raise ValueError(f"scores cannot be negative: {points}")
    target = rules.target
    best = max(points)
    if best >= target:
        leaders = [s for s in range(sides) if points[s] == best]
        if len(leaders) == 1:
            return tuple(1.0 if s == leaders[0] else 0.0 for s in range(sides))
        # equal leaders at or above the target play on (R9.3): counted as just below it
        points = [min(s, target - 1) for s in points]
    first = rules.side_of(dealer)
    relative = tuple(points[(first + j) % sides] for j in range(sides))
    chances = _solver(rules).chances(relative)
    return tuple(chances[(s - first) % sides] for s in range(sides))


def _whole_score(score: object, scores: Sequence[object]) -> int:
    """``score`` as an int: an int or numpy integer, never a bool or a float, which the model would round silently."""
    if type(score) is int:
        return score
    if not isinstance(score, bool):
        try:
            return operator.index(score)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"scores must be whole numbers, one per side, not {list(scores)!r}")


def game_win_probability(game: Game, side: int) -> float:
    """The chance that ``side`` wins ``game`` from where it stands: how a search values a leaf.

    A won game is 1 or 0; between rounds (the game waits for a deck) it is
    :func:`win_probability` with the next dealer; inside a round — a rollout
    stopped at its horizon — it is the model at the scores the round is
    expected to end with (:func:`expected_round_end`), read linearly between
    the whole scores around them. It reads only the scores, the piles and the
    dealer, which a game built from a guess holds like the real one.
    """
    winner = game.winner
    if winner is not None:
        return 1.0 if winner == side else 0.0
    rules = game.rules
    if game.phase == WAITING:
        return win_probability(rules, game.scores, game.dealer)[side]
    return win_probability_at(game, expected_round_end(game), side)


def win_probability_at(game: Game, scores: Sequence[float], side: int) -> float:
    """The chance that ``side`` wins ``game`` if its round ends with ``scores`` (real-valued: an expectation),
    read linearly between the whole scores around them; the next round is dealt by the next dealer."""
    rules = game.rules
    return _interpolated(rules, scores, (game.dealer + 1) % rules.players, side)


def expected_round_end(game: Game) -> list[float]:
    """The scores ``game``'s round is expected to end with, per side.

    The points so far; plus the table's mean points during play, scaled by the
    share of the pack not yet captured; plus the card count (R7.2) of the
    piles with the cards not yet captured shared evenly.
    """
    rules = game.rules
    sides = rules.sides
    table = round_table(rules)
    piles = list(game.pile_sizes)
    left = 40 - sum(piles)
    first = rules.side_of(game.dealer)
    total = table.rounds
    plays = [0.0] * sides
    for points, count in table.plays:
        for j in range(sides):
            plays[(first + j) % sides] += points[j] * count / total
    expected = [game.scores[s] + plays[s] * left / 40 for s in range(sides)]
    final = [piles[s] + left / sides for s in range(sides)]
    half = 13 if rules.players == 3 else 20  # R7.2: points for every card above it
    extra = [max(0.0, f - half) for f in final]
    return [e + x for e, x in zip(expected, extra, strict=True)]


def _interpolated(rules: Rules, scores: Sequence[float], dealer: int, side: int) -> float:
    """:func:`win_probability` at real-valued scores, linearly between the whole scores around them."""
    target = rules.target
    sides = len(scores)
    floors = [min(math.floor(s), target) for s in scores]
    fractions = [min(max(s - f, 0.0), 1.0) if f < target else 0.0 for s, f in zip(scores, floors, strict=True)]
    value = 0.0
    for corner in range(1 << sides):
        weight = 1.0
        point = []
        for j in range(sides):
            up = corner >> j & 1
            weight *= fractions[j] if up else 1.0 - fractions[j]
            point.append(floors[j] + up)
        if weight:
            value += weight * win_probability(rules, point, dealer)[side]
    return value


# ------------------------------------------------------------ the solvers


def _race(needs: tuple[int, ...], totals: tuple[int, ...]) -> tuple[float, ...]:
    """Which side gets its ``needs[i]``-th point first when ``totals[i]`` points of each come in random order."""
    if len(needs) == 2:
        return _race2(needs[0], needs[1], totals[0], totals[1])
    return _race_many(needs, totals)


@lru_cache(maxsize=100_000)
def _race2(x: int, y: int, a: int, b: int) -> tuple[float, float]:
    """Side 0 is first iff at least ``x`` of the first ``x + y - 1`` points are its own: hypergeometric.

    >>> _race2(1, 1, 1, 1)
    (0.5, 0.5)
    >>> _race2(1, 2, 1, 2)[0]  # side 0 needs its one point before side 1's two: 2 orders of 3
    0.6666666666666666
    """
    n = x + y - 1
    whole = math.comb(a + b, n)
    first = sum(math.comb(a, k) * math.comb(b, n - k) for k in range(x, min(a, n) + 1)) / whole
    return (first, 1.0 - first)


@lru_cache(maxsize=100_000)
def _race_many(needs: tuple[int, ...], totals: tuple[int, ...]) -> tuple[float, ...]:
    sides = len(needs)
    left = sum(totals)
    out = [0.0] * sides
    for i in range(sides):
        if not totals[i]:
            continue
        p = totals[i] / left
        if needs[i] == 1:
            out[i] += p
            continue
        sub = _race_many(
            tuple(n - 1 if j == i else n for j, n in enumerate(needs)),
            tuple(t - 1 if j == i else t for j, t in enumerate(totals)),
        )
        for j in range(sides):
            out[j] += p * sub[j]
    return tuple(out)


class _Solver:
    def chances(self, relative: tuple[int, ...]) -> tuple[float, ...]:
        """Chances per side, sides numbered from the side that deals next; every score below the target."""
        raise NotImplementedError


_solvers: dict[tuple[str, int], _Solver] = {}


@lru_cache(maxsize=64)
def _solver(rules: Rules) -> _Solver:
    """The solver of ``rules``: one per table and target, built on first use and kept for the process."""
    key, table = _resolve(rules)
    solver = _solvers.get((key, rules.target))
    if solver is None:
        if table.sides == 2 and rules.target**2 <= EXACT_STATES:
            solver = _ExactSolver(table, rules.target)
        else:
            solver = _NormalSolver(table, rules.target)
        _solvers[key, rules.target] = solver
    return solver


class _ExactSolver(_Solver):
    """The dynamic programme over every score vector, in the frame of the side that deals next.

    ``values[j][cell]``: the chance that side j (counted from the side that
    deals next) wins, from the scores ``x`` whose cell is
    ``sum(x[i] * size**i)``. Cells with a score at or above the target hold the
    game's result at the card count (the highest side wins; equal highest
    share), so the sum over a round's outcomes needs no test. After a round the
    deal passes on (R3.2) and the frame turns by one side: the new scores'
    cell is a linear function of the old scores plus one offset per outcome.
    States are solved from the highest total score down, since every round but
    a pointless one adds points; a round without a point passes the deal and
    comes back to the same scores after ``sides`` of them (solved in closed form).
    """

    def __init__(self, table: RoundTable, target: int) -> None:
        self.sides = k = table.sides
        self.target = t = target
        outcomes = table.outcomes()
        finals = [tuple(max(0, p + c) for p, c in zip(plays, cards, strict=True)) for _, plays, cards in outcomes]
        reach = max([max(max(f), max(plays)) for f, (_, plays, _) in zip(finals, outcomes, strict=True)] or [0])
        self.size = size = t + reach + 1
        self.values = values = [[0.0] * size**k for _ in range(k)]
        for cell in range(size**k):
            x = [cell // size**i % size for i in range(k)]
            best = max(x)
            if best >= t:
                leaders = [j for j in range(k) if x[j] == best]
                for j in leaders:
                    values[j][cell] = 1.0 / len(leaders)
        zero = 0.0
        merged: dict[int, float] = {}
        by_plays: dict[tuple[int, ...], list[tuple[float, int]]] = {}
        plays_prob: dict[tuple[int, ...], float] = {}
        for (p, plays, _), final in zip(outcomes, finals, strict=True):
            if not any(final) and not any(plays):
                zero += p
                continue
            offset = self._turned(final)
            merged[offset] = merged.get(offset, 0.0) + p
            by_plays.setdefault(plays, []).append((p, offset))
            plays_prob[plays] = plays_prob.get(plays, 0.0) + p
        self.zero = zero
        self.merged = list(merged.items())
        self.by_plays = [(plays, plays_prob[plays], rows) for plays, rows in by_plays.items()]
        self.most = [max([plays[j] for plays in by_plays] or [0]) for j in range(k)]
        self._solve()

    def _turned(self, x: Sequence[int]) -> int:
        """The cell, in the next dealer's frame, of scores ``x`` given in this frame."""
        k, size = self.sides, self.size
        return sum(x[(i + 1) % k] * size**i for i in range(k))

    def _part(self, scores: tuple[int, ...]) -> list[float]:
        """The chances from ``scores`` over every round outcome but the pointless one.

        They sum to the chance of a round with a point, so the last side's is what the others leave.
        """
        k, t = self.sides, self.target
        values = self.values
        base = self._turned(scores)
        merged = self.merged
        part = [sum(p * values[(j - 1) % k][base + offset] for offset, p in merged) for j in range(k - 1)]
        part.append(0.0)
        needs = [t - s for s in scores]
        if any(needs[j] <= self.most[j] for j in range(k)):
            for plays, weight, rows in self.by_plays:
                reached = [j for j in range(k) if plays[j] >= needs[j]]
                if not reached:
                    continue
                # a side reached the target during play (R9.3): the card count never comes
                for j in range(k - 1):
                    column = values[(j - 1) % k]
                    part[j] -= sum(p * column[base + offset] for p, offset in rows)
                if len(reached) == 1:
                    part[reached[0]] += weight
                else:
                    race = _race(tuple(needs[j] for j in reached), tuple(plays[j] for j in reached))
                    for j, chance in zip(reached, race, strict=True):
                        part[j] += weight * chance
        part[k - 1] = 0.0
        part[k - 1] = 1.0 - self.zero - sum(part)
        return part

    def _solve(self) -> None:
        k, t, size = self.sides, self.target, self.size
        levels: dict[int, list[tuple[int, ...]]] = {}
        for index in range(t**k):
            scores = tuple(index // t**i % t for i in range(k))
            levels.setdefault(sum(scores), []).append(scores)
        zero = self.zero
        values = self.values
        for level in sorted(levels, reverse=True):
            parts = {scores: self._part(scores) for scores in levels[level]}
            for scores, part in parts.items():
                chances = list(part)
                if zero:
                    weight = 1.0
                    turned = scores
                    for m in range(1, k):
                        weight *= zero
                        turned = turned[1:] + turned[:1]
                        other = parts[turned]
                        for j in range(k):
                            chances[j] += weight * other[(j - m) % k]
                    chances = [c / (1.0 - zero**k) for c in chances]
                norm = sum(chances)
                cell = sum(scores[i] * size**i for i in range(k))
                for j in range(k):
                    values[j][cell] = chances[j] / norm

    def chances(self, relative: tuple[int, ...]) -> tuple[float, ...]:
        cell = sum(s * self.size**i for i, s in enumerate(relative))
        return tuple(self.values[j][cell] for j in range(self.sides))


STEPS = 32
"""Points of the normal approximation's integral (midpoint rule, spectrally accurate on normal densities: 32 agree
with 2000 to 1e-9)."""


class _NormalSolver(_Solver):
    """Far targets: each side's number of rounds to reach the target as an independent normal variable.

    From the mean ``m`` and variance ``v`` of a side's points in a round
    (averaged over the seats it deals from), a side that needs ``x`` points
    takes about ``x / m`` rounds, with variance ``x v / m**3`` (the
    first-passage time of a sum of rounds). The side that needs the fewest
    rounds wins; the chance is integrated numerically.
    """

    def __init__(self, table: RoundTable, target: int) -> None:
        self.sides = k = table.sides
        self.target = target
        outcomes = table.outcomes()
        means = [sum(p * (plays[j] + cards[j]) for p, plays, cards in outcomes) for j in range(k)]
        squares = [sum(p * (plays[j] + cards[j]) ** 2 for p, plays, cards in outcomes) for j in range(k)]
        self.mean = max(sum(means) / k, 1e-9)
        self.variance = max(sum(squares) / k - self.mean**2, 1e-9)

    @lru_cache(maxsize=65536)  # noqa: B019 - one solver per rules, kept for the process anyway
    def chances(self, relative: tuple[int, ...]) -> tuple[float, ...]:
        m, v = self.mean, self.variance
        sides = self.sides
        mus = [(self.target - s) / m for s in relative]
        sds = [math.sqrt(max((self.target - s) * v / m**3, 1e-6)) for s in relative]
        # past the earliest side's certain finish no one else can be first: integrate up to there
        low = min(mu - 6 * sd for mu, sd in zip(mus, sds, strict=True))
        high = min(mu + 6 * sd for mu, sd in zip(mus, sds, strict=True))
        steps = STEPS
        width = (high - low) / steps
        scaled = [sd * math.sqrt(2) for sd in sds]
        out = [0.0] * sides
        for i in range(steps):
            x = low + (i + 0.5) * width
            density = [math.exp(-0.5 * ((x - mu) / sd) ** 2) / sd for mu, sd in zip(mus, sds, strict=True)]
            later = [0.5 * math.erfc((x - mu) / r) for mu, r in zip(mus, scaled, strict=True)]
            for j in range(sides):
                rest = density[j]
                for o in range(sides):
                    if o != j:
                        rest *= later[o]
                out[j] += rest
        norm = sum(out) or 1.0
        return tuple(x / norm for x in out)


# ------------------------------------------------------------ checking the model


def with_scores(game: Game, scores: Sequence[int], rng: random.Random | None = None) -> Game:
    """A copy of ``game`` at the same point of its round, the scores replaced; later rounds shuffled by ``rng``.

    The engine starts every game at 0 points; a game at chosen scores is built
    the way searches build games, from a seat's view (here with the scores
    changed) and the game's hidden cards. For checking the model by
    self-play, and for tests of positions near the target. Without ``rng``
    the copy waits at the end of the round.
    """
    from ..engine.view import SeatView

    view = game.view(0)
    values = list(view)
    # a view is a tuple read by one property per field: the scores' property, read from the positions, says where
    where: int = SeatView.scores.fget(range(len(values)))  # type: ignore[attr-defined]
    values[where] = tuple(int(s) for s in scores)
    moved = tuple.__new__(SeatView, values)
    hidden = {seat: game.hand(seat) for seat in range(1, game.rules.players)}
    return Game.from_view(moved, hidden, game.stock_cards(), rng=rng)


def game_at(rules: Rules, scores: Sequence[int], dealer: int, rng: random.Random) -> Game:
    """A new game whose first round starts at ``scores`` with ``dealer`` dealing, shuffled by ``rng``."""
    return with_scores(Game(rules, rng=rng, dealer=dealer), scores, rng)


def self_play_wins(
    rules: Rules, scores: Sequence[int], dealer: int, games: int, seed: int, level: str = "medium"
) -> list[int]:
    """Games won by each side when ``level`` plays every seat from ``scores`` to the end, ``games`` times."""
    rng = random.Random(seed)
    wins = [0] * rules.sides
    for _ in range(games):
        game = game_at(rules, scores, dealer, random.Random(rng.getrandbits(64)))
        bots = [_self_play_bot(level, seed=rng.getrandbits(32)) for _ in range(rules.players)]
        while game.phase != OVER:
            seat = game.turn
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat=seat)
        assert game.winner is not None
        wins[game.winner] += 1
    return wins


# ------------------------------------------------------------ regenerating the tables


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the shipped tables: ``python -m ronda.bots.winprob --rounds 4000 --seed 28 OUT``."""
    import argparse

    from ..engine.presets import PRESETS, preset_rules
    from ..engine.record import write_atomically

    parser = argparse.ArgumentParser(description="Regenerate the round-outcome tables of the win-probability model.")
    parser.add_argument("out", help="the JSON file to write (src/ronda/bots/winprob_rounds.json)")
    parser.add_argument("--rounds", type=int, default=4000, help="rounds of self-play per table")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--level", default="medium", choices=sorted(SELF_PLAY_LEVELS))
    args = parser.parse_args(argv)
    tables: dict[str, Any] = {}
    for name, preset in PRESETS.items():
        for players in preset.players:
            rules = preset_rules(name, players)
            key = table_key(rules)
            if key in tables:
                continue
            print(f"{key}: {args.rounds} rounds", file=sys.stderr)
            tables[key] = encode_table(sample_round_table(rules, args.rounds, args.seed, args.level))
    data = {
        "about": "round outcomes of self-play for ronda.bots.winprob: per side from the dealer's side, "
        "net points during play, then card-count points, then how many rounds ended so",
        "command": f"python -m ronda.bots.winprob --rounds {args.rounds} --seed {args.seed} --level {args.level} OUT",
        "level": args.level,
        "seed": args.seed,
        "tables": tables,
    }
    text = json.dumps(data, separators=(",", ":"))
    write_atomically(args.out, text.encode("utf-8"))
    return 0


__all__ = [
    "win_probability_at",
    "RoundTable",
    "expected_round_end",
    "game_at",
    "game_win_probability",
    "round_table",
    "sample_round_table",
    "self_play_wins",
    "table_key",
    "with_scores",
    "win_probability",
]

if __name__ == "__main__":
    raise SystemExit(main())
