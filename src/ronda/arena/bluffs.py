"""Bluffs and challenges, priced: how often a level makes them and what each earns (issue 28, item 5).

A referee who sees every hand finds, in each decision of a game, the
announcement decisions that can move the game:

- ``bluff``: a declaration of a combination the hand as dealt does not hold
  (R8.2); the other choice was the truth;
- ``no_bluff``: the *bluff declined* — holding nothing, facing one opposing
  side whose declarations alone would win it the game at once
  (:func:`~ronda.bots.declarations.winning_side_before`), the seat declared
  ``none``; the other choice was the delaying bluff of the strongest kind that
  side declared;
- ``challenge``: a challenge (R8.8); the other choice was to play on;
- ``no_challenge``: the *challenge declined* — a live opposing declaration
  that would bring its side to the target (:func:`~ronda.bots.declarations.at_stake`)
  left unchallenged at the seat's first turn to play after it; the other
  choice was to challenge it.

What each decision *earns* is measured by duplicate play-outs from the real
position (the real hands and stock: the referee's counterfactual, not the
seat's guess): the decision and its other choice are each played on to the
end of the game ``playouts`` times by ``continuation`` bots on every seat,
paired (the same bot seeds and later decks for both), and the decision's gain
is the difference in the deciding side's share of games won, and in its
points minus the opponents' to the end of the round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots import Bot, make_bot
from ..bots.declarations import DELAY_REACH, at_stake, true_declaration, winning_side_before
from ..bots.winprob import game_win_probability
from ..engine.actions import DECLARES, Action, Challenge, Declare
from ..engine.combinations import NONE, Kind, hand_combination
from ..engine.deck import shuffled_deck
from ..engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ..engine.rules import Rules
from .announcements import Announcements, Referee
from .stats import mean_interval

KINDS = ("bluff", "no_bluff", "challenge", "no_challenge")
"""The announcement decisions priced, in the order reports list them."""


@dataclass(frozen=True)
class Decision:
    """One announcement decision a seat faced: what it did (``taken``) and the other choice."""

    kind: str
    seat: int
    taken: Action
    other: Action | None
    """The other choice; ``None`` for "play on without challenging" (the continuation bot picks the card)."""


def dealt_kind(game: Game, seat: int) -> Kind:
    """What ``seat``'s hand as dealt this deal holds, as a declaration (the referee sees every hand)."""
    combo = hand_combination(game.dealt_hand(seat).mask, game.rules.ace_high)
    return NONE if combo is None else combo.kind


def decisions(game: Game, seat: int, action: Action, declined: set[tuple[int, int, int, int]]) -> list[Decision]:
    """The announcement decisions in ``seat`` taking ``action`` in ``game`` (before it is applied).

    ``declined`` remembers the declined challenges already counted (round,
    deal, challenger, declarer), so that a declaration left alone is counted
    once per seat that could challenge it, not at every turn.
    """
    view = game.view(seat)
    rules = game.rules
    found: list[Decision] = []
    if game.phase == DECLARE and type(action) is Declare:
        truth = dealt_kind(game, seat)
        if action.declaration not in (NONE, truth):
            found.append(Decision("bluff", seat, action, DECLARES[truth]))
        elif not rules.auto_declare and action.declaration == NONE and true_declaration(view) == NONE:
            facing = winning_side_before(view, seat, view.scores)
            if facing is not None:
                found.append(Decision("no_bluff", seat, action, DECLARES[facing[1]]))
    elif game.phase == PLAY:
        if type(action) is Challenge:
            found.append(Decision("challenge", seat, action, None))
        else:
            for target in game.legal_actions():
                if type(target) is not Challenge:
                    continue
                key = (game.round, game.deal, seat, target.target)
                if key in declined or not at_stake(view, target.target):
                    continue
                declined.add(key)
                found.append(Decision("no_challenge", seat, action, target))
    return found


@dataclass
class Priced:
    """Every decision of one kind: its gain in games won (share) and in points, one number per decision."""

    wins: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    chances: list[float] = field(default_factory=list)
    """The deciding side's chance to win at the decision, by :func:`~ronda.bots.winprob.game_win_probability`."""

    near: list[bool] = field(default_factory=list)
    """Whether the deciding side was within :data:`~ronda.bots.declarations.DELAY_REACH` of the target."""

    def add(self, win_gain: float, point_gain: float, chance: float, near: bool = False) -> None:
        self.wins.append(win_gain)
        self.points.append(point_gain)
        self.chances.append(chance)
        self.near.append(near)


@dataclass
class LevelReport:
    """One level's games: counts per game and the decisions priced."""

    level: str
    players: int
    games: int = 0
    rounds: int = 0
    counts: Announcements = field(default_factory=Announcements)
    per_game: dict[str, list[int]] = field(default_factory=dict)
    priced: dict[str, Priced] = field(default_factory=lambda: {kind: Priced() for kind in KINDS})

    def count(self, name: str, values: dict[str, int]) -> None:
        self.per_game.setdefault(name, []).append(values[name])


def _play_on(
    game: Game, bots: Sequence[Bot], rng: random.Random, side: int, first: Callable[[Game, Sequence[Bot]], Action]
) -> tuple[bool, float]:
    """Play ``game`` (a light copy) to its end; ``first`` decides the next action. Returns (won, points this round)."""
    rules = game.rules
    start = list(game.scores)
    round_points: float | None = None
    decide: Callable[[Game, Sequence[Bot]], Action] | None = first
    while game.phase != OVER:
        if game.phase == WAITING:
            if round_points is None:
                round_points = _margin(game.scores, start, side)
            game.add_deck(shuffled_deck(rules, rng))
            continue
        seat = game.turn
        if decide is not None:
            action = decide(game, bots)
            decide = None
        else:
            action = bots[seat].choose(game.view(seat), game.legal_actions())
        game.apply(action, seat=seat)
    if round_points is None:
        round_points = _margin(game.scores, start, side)
    return game.winner == side, round_points


def _margin(scores: Sequence[int], start: Sequence[int], side: int) -> float:
    """The side's points since ``start`` minus the other sides' (their mean with three players)."""
    mine = scores[side] - start[side]
    theirs = sum(scores[s] - start[s] for s in range(len(scores)) if s != side)
    return mine - theirs / (len(scores) - 1)


def price(game: Game, decision: Decision, playouts: int, continuation: str, seed: int) -> tuple[float, float, float]:
    """The decision's gain over its other choice: (share of games won, points this round, model chance before).

    Both choices are played on from a copy of ``game`` ``playouts`` times, the
    ``i``-th play-out of each with the same bot seeds and later decks.
    """
    side = game.rules.side_of(decision.seat)
    chance = game_win_probability(game, side)
    legal = game.legal_actions()

    def taken(_: Game, __: Sequence[Bot]) -> Action:
        return decision.taken

    def other(g: Game, bots: Sequence[Bot]) -> Action:
        if decision.other is not None:
            return decision.other
        # play on without challenging: the continuation level's card among the plays
        plays = [a for a in legal if type(a) is not Challenge]
        return bots[decision.seat].choose(g.view(decision.seat), plays)

    win_gain = 0.0
    point_gain = 0.0
    for i in range(playouts):
        results = []
        for first in (taken, other):
            rng = random.Random(f"ronda-bluffs:{seed}:{i}")
            bots = [make_bot(continuation, seed=rng.getrandbits(32)) for _ in range(game.rules.players)]
            results.append(_play_on(game.copy(history=False), bots, rng, side, first))
        (won, points), (won_other, points_other) = results
        win_gain += won - won_other
        point_gain += points - points_other
    return win_gain / playouts, point_gain / playouts, chance


def start_game(rules: Rules, rng: random.Random, near: int) -> Game:
    """A game whose scores are drawn within ``near`` points below the target, with a random dealer."""
    scores = [rng.randrange(max(0, rules.target - near), rules.target) for _ in range(rules.sides)]
    return Game.from_scores(rules, scores, rng=random.Random(rng.getrandbits(64)), dealer=rng.randrange(rules.players))


COUNTED = ("declarations", "bluffs", "bluffs_challenged", "challenges", "challenges_won", "challenges_lost")
"""The referee's counts reported per game."""


def measure(
    level: str,
    rules: Rules,
    games: int,
    seed: int,
    *,
    near: int = 6,
    playouts: int = 20,
    continuation: str = "medium",
    on_game: Callable[[int], None] | None = None,
) -> LevelReport:
    """``level`` on every seat for ``games`` games started near the target: counts, and every decision priced.

    Each game is seeded by ``seed``, the level, the player count and its number, so a report reproduces exactly.
    """
    report = LevelReport(level, rules.players)
    for number in range(games):
        rng = random.Random(f"ronda-bluffs:{seed}:{rules.players}:{level}:{number}")
        game = start_game(rules, rng, near)
        bots = [make_bot(level, seed=rng.getrandbits(32)) for _ in range(rules.players)]
        referee = Referee(game, [0] * rules.players, 1)
        declined: set[tuple[int, int, int, int]] = set()
        first_round = game.round
        while game.phase != OVER:
            seat = game.turn
            action = bots[seat].choose(game.view(seat), game.legal_actions())
            for decision in decisions(game, seat, action, declined):
                wins, points, chance = price(game, decision, playouts, continuation, rng.getrandbits(32))
                close = game.scores[rules.side_of(seat)] >= rules.target - DELAY_REACH
                report.priced[decision.kind].add(wins, points, chance, close)
            events = game.apply(action, seat=seat)
            if type(action) is Declare:
                referee.declared(seat, action.declaration)
            referee.saw(events)
        report.games += 1
        report.rounds += game.round - first_round + 1
        counts = referee.counts[0]
        report.counts.add(counts)
        values = counts.to_json()
        for name in COUNTED:
            report.count(name, values)
        if on_game is not None:
            on_game(number + 1)
    return report


def summary_lines(report: LevelReport) -> list[str]:
    """The report as lines of text: counts per game with 95% intervals, then each kind of decision priced."""
    c = report.counts
    lines = [
        f"{report.level}, {report.players} players: {report.games} games, {report.rounds} rounds; "
        f"{c.declarations} declarations, {c.bluffs} bluffs ({c.bluffs_challenged} challenged, "
        f"{c.bluffs_exposed} exposed in all), {c.challenges} challenges ({c.challenges_won} won, "
        f"{c.challenges_lost} lost)"
    ]
    for name in ("bluffs", "challenges"):
        mean, low, high = mean_interval([float(v) for v in report.per_game.get(name, [])])
        lines.append(f"  {name} a game: {mean:.3f} [{low:.3f}, {high:.3f}]")
    for kind in KINDS:
        priced = report.priced[kind]
        n = len(priced.wins)
        if not n:
            lines.append(f"  {kind:<13} none")
            continue
        win, wlow, whigh = mean_interval(priced.wins)
        pts, plow, phigh = mean_interval(priced.points)
        chance = sum(priced.chances) / n
        lines.append(
            f"  {kind:<13} {n:>4} decisions (model chance {chance:.2f}): "
            f"games won {win:+.3f} [{wlow:+.3f}, {whigh:+.3f}], "
            f"points {pts:+.2f} [{plow:+.2f}, {phigh:+.2f}] against the other choice"
        )
        close = [w for w, near in zip(priced.wins, priced.near, strict=True) if near]
        if close and len(close) < n:
            win, wlow, whigh = mean_interval(close)
            lines.append(
                f"  {'':<13} {len(close):>4} of them within {DELAY_REACH} of the target: "
                f"games won {win:+.3f} [{wlow:+.3f}, {whigh:+.3f}]"
            )
    return lines


__all__ = ["COUNTED", "KINDS", "Decision", "LevelReport", "Priced", "decisions", "measure", "price", "summary_lines"]
