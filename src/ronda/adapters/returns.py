"""What an episode is worth to each side: the one returns helper of every research adapter.

Four rewards, chosen by name (``reward=`` in PettingZoo and Gymnasium, the
``reward`` parameter in OpenSpiel). ``T`` is the game's target (41 by
default), ``k`` the number of sides (2, or 3 with three players), and a side's
*margin* is its points minus the mean of the other sides' points, each side's
points first clipped to ``[0, T]``:

===========  ================  ==========================================================
reward       an episode is     return of each side
===========  ================  ==========================================================
``round``    one round         the margin of the points scored in the episode (each side's
                               points minus those it began with, clipped to ``[0, T]``).
                               When the game is decided inside the round (a failed
                               challenge R8.8, or a side at the target R9.3): ``(k-1)·T``
                               to the winning side and ``-T`` to each other side,
                               whatever the points.
``game``     a whole game      the final margin, plus ``2·T`` for the winning side and
                               ``-2·T/(k-1)`` for each other side. A game lost by a failed
                               challenge (R8.8) counts as forfeited: the challenger's side
                               at 0 points and every other side at ``T``.
``outcome``  a whole game      ``+1`` for the winning side, ``-1/(k-1)`` for each other side.
``chances``  one round         the change in the side's chance to win the game
                               (:func:`ronda.bots.winprob.win_probability`), from the
                               scores and dealer the episode began at (inside a round,
                               a record's later decision: the chance there as a search
                               values it, :func:`~ronda.bots.winprob.game_win_probability`)
                               to those it ends at (1 or 0 once the game is decided): a round's points
                               valued by what they do for the game, so a point at 39-25
                               is worth less than at 0-0 (the game is all but decided).
                               In ``[-1, 1]``.
===========  ================  ==========================================================

An episode may begin at given scores (:mod:`ronda.adapters.episode`):
``round`` then pays what the episode scored, ``game`` and ``outcome`` the
game's result, the points it began with included.

Why these, and what they promise (each checked by a property test):

- **Zero-sum for every player count**: margins sum to zero over the sides,
  and so do the outcome terms; partners (four players) share their side's
  return, so the seats' returns sum to zero too.
- **A lost game is never worth more than a won one**, however the points
  stood, and **a game thrown away by a failed challenge is worth the least
  there is** in ``round``, ``game`` and ``outcome`` (in ``chances``, the
  least from where the episode began: all the chance the side had, lost): seat 0 ahead 7-0 that challenges a true
  declaration and loses the game (R8.8) gets the lowest return, not +7 (in
  ``game``, ``-3·T`` with two sides, the forfeit's points). In ``round``, a
  won game is worth at least any round that is not decided and a lost game
  at most any: the margins lie in ``[-T, T]``, so ``(k-1)·T`` and ``-T``
  bound them. In ``game`` the result comes first and the margin second: a
  win is worth at least ``2·T - T = T``, a loss at most ``-2·T/(k-1) + T``,
  which is below ``T`` for 2 and 3 sides.
- **Bounded**: :func:`return_bounds` gives the true interval, used as
  OpenSpiel's utility bounds. Clipping the points to ``[0, T]`` is what
  makes them true: scores go above the target only in the step that wins or
  when sides tie at the target (R9.3), and never below zero.

An episode cut short before the game is decided (OpenSpiel's ``max_rounds``
limit) has no winner: ``round`` and ``game`` return the margin alone and
``outcome`` returns 0 to everyone.

>>> from ronda.engine.rules import Rules
>>> side_returns(Rules(players=2), "round", points=[7, 0], winner=1)  # seat 0 lost the game by a challenge
(-41.0, 41.0)
>>> side_returns(Rules(players=3), "outcome", points=[41, 12, 3], winner=0)
(1.0, -0.5, -0.5)
>>> side_returns(Rules(players=2), "round", points=[5, 2], winner=None)
(3.0, -3.0)
>>> side_returns(Rules(players=2), "round", points=[35, 22], winner=None, start=[30, 20])  # began at 30-20
(3.0, -3.0)
>>> side_returns(Rules(players=2), "game", points=[30, 2], winner=1, forfeit=0)  # 30-2, then a failed challenge
(-123.0, 123.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, get_args

from ..bots.winprob import win_probability
from ..engine.events import ChallengeMade, Event, GameOver
from ..engine.rules import Rules

Reward = Literal["round", "game", "outcome", "chances"]
REWARDS: tuple[str, ...] = get_args(Reward)
ROUND_REWARDS = ("round", "chances")
"""The rewards whose episode is one round (the others' is a whole game)."""


def check_reward(reward: object) -> Reward:
    """``reward`` if it names a reward; a ``ValueError`` naming the choices otherwise."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward  # type: ignore[return-value]


def margins(rules: Rules, points: Sequence[int]) -> tuple[float, ...]:
    """Each side's points (clipped to [0, target]) minus the mean of the other sides' points.

    >>> margins(Rules(players=3), [10, 4, 1])
    (7.5, -1.5, -6.0)
    """
    target = rules.target
    clipped = [min(max(p, 0), target) for p in points]
    total, others = sum(clipped), len(clipped) - 1
    return tuple(float(p - (total - p) / others) for p in clipped)


def outcome(rules: Rules, winner: int | None) -> tuple[float, ...]:
    """+1 to the winning side and -1/(k-1) to each other side; zeros when the game is not decided."""
    sides = rules.sides
    if winner is None:
        return (0.0,) * sides
    return tuple(1.0 if side == winner else -1.0 / (sides - 1) for side in range(sides))


def side_returns(
    rules: Rules,
    reward: Reward,
    points: Sequence[int],
    winner: int | None,
    *,
    start: Sequence[int] | None = None,
    forfeit: int | None = None,
    dealers: tuple[int, int] | None = None,
    before: Sequence[float] | None = None,
) -> tuple[float, ...]:
    """Each side's return for an episode that ended at ``points`` per side, won by ``winner`` (or not).

    ``start``: the points each side had when the episode began (0 each by
    default); ``round`` and ``chances`` read them. ``forfeit``: the side that
    lost the game by a failed challenge (R8.8), if it did
    (:func:`forfeiting_side`). ``dealers``: for ``chances``, the seat dealing
    when the episode began and the one to deal next when it ended (default:
    the last seat both times, R3.2); ``before``: for ``chances``, each side's
    chance to win where the episode began, when that is inside a round
    (:func:`ronda.bots.winprob.game_win_probability`; default: the chance at
    ``start`` between rounds, with the first dealer).
    """
    sides, target = rules.sides, float(rules.target)
    result = outcome(rules, winner)
    if reward == "outcome":
        return result
    if reward == "chances":
        first, then = dealers or (rules.players - 1, rules.players - 1)
        if before is None:
            before = win_probability(rules, start or [0] * sides, first)
        after = tuple(max(v, 0.0) for v in result) if winner is not None else win_probability(rules, points, then)
        return tuple(a - b for a, b in zip(after, before, strict=True))
    if reward == "round":
        if winner is not None:
            return tuple(value * (sides - 1) * target for value in result)
        if start is not None:
            points = [max(p - s, 0) for p, s in zip(points, start, strict=True)]
        return margins(rules, points)
    if forfeit is not None and winner is not None:
        points = [0 if side == forfeit else rules.target for side in range(sides)]
    return tuple(m + 2.0 * target * value for m, value in zip(margins(rules, points), result, strict=True))


def seat_returns(
    rules: Rules,
    reward: Reward,
    points: Sequence[int],
    winner: int | None,
    *,
    start: Sequence[int] | None = None,
    forfeit: int | None = None,
    dealers: tuple[int, int] | None = None,
    before: Sequence[float] | None = None,
) -> tuple[float, ...]:
    """:func:`side_returns` given to every seat: partners share their side's."""
    by_side = side_returns(rules, reward, points, winner, start=start, forfeit=forfeit, dealers=dealers, before=before)
    return tuple(by_side[rules.side_of(seat)] for seat in range(rules.players))


def forfeiting_side(rules: Rules, events: Iterable[Event]) -> int | None:
    """The side whose failed challenge ended the game (R8.8) in ``events``, or ``None``.

    ``events`` must hold the challenge and the end of the game (the events of
    the step that ended it will do): the challenger is the seat of the last
    challenge before a ``failed_challenge`` end.
    """
    challenger: int | None = None
    for event in events:
        if type(event) is ChallengeMade:
            challenger = event.seat
        elif type(event) is GameOver and event.reason == "failed_challenge" and challenger is not None:
            return rules.side_of(challenger)
    return None


def return_bounds(rules: Rules, reward: Reward) -> tuple[float, float]:
    """The lowest and the highest return any side can get (OpenSpiel's min and max utility).

    >>> return_bounds(Rules(players=2), "round"), return_bounds(Rules(players=3), "game")
    ((-41.0, 41.0), (-82.0, 123.0))
    """
    sides, target = rules.sides, float(rules.target)
    if reward == "outcome":
        return (-1.0 / (sides - 1), 1.0)
    if reward == "chances":
        return (-1.0, 1.0)
    if reward == "round":
        return (-target, (sides - 1) * target)
    return (-target - 2.0 * target / (sides - 1), 3.0 * target)


__all__ = [
    "REWARDS",
    "ROUND_REWARDS",
    "Reward",
    "check_reward",
    "forfeiting_side",
    "margins",
    "outcome",
    "return_bounds",
    "seat_returns",
    "side_returns",
]
