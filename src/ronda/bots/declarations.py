"""Declaring, bluffing and challenging: the announcement decisions every bot level shares.

The policy, in the order a bot applies it:

**Declare** (R8.2). Every level declares what its hand holds (``none``,
``ronda``, ``tringa``, ``double_ronda``) — truthfully — unless it may bluff
(``hard`` and ``expert``) and this situation holds:

*The delaying bluff* (the seeds' tactic near the target). It holds no
combination, every declaration so far comes from one opposing side, and
that side would reach the target the moment its declarations are settled.
Declaring nothing loses the game at once; a false declaration of the
strongest kind the opponents declared keeps the settlement undecided until
the cards show whose is best, and the bot may win by caida or missa first.
If it is found out, the opponents score the penalty — in a game already lost.

There is no *winning bluff*: a false declaration that would bring its side to
the target is shown and exposed before the award (R9.5), so a declaration wins
the game only when it is true — which is the truthful declaration.

**Challenge** (R8.8), before playing. A level that counts cards (``medium``
and up) challenges an opponent's live declaration

1. when counting *proves* it false: no hand made of the declarer's played
   cards and cards this seat has not seen holds the declared kind. The
   challenge cannot fail, and the penalty comes at once instead of at R8.5's
   exposure (which only looks at the declarer's own plays);
2. (``hard``, ``expert``) when the game is at stake — the settlement is not
   decided and the declarer's side would reach the target if it took every
   declared point — and the declaration is more likely false than
   ``at_stake_threshold`` (the posterior of :class:`~ronda.bots.determinize.Determinizer`,
   which believes declarations but allows bluffs). Otherwise waiting is free:
   a false declaration is exposed by itself when its cards are played (R8.9).

A bot never challenges a declaration it could only guess about when nothing is
at stake: a failed challenge loses the game (R8.8).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import CHALLENGES, DECLARES, Action, Challenge, Declare
from ..engine.combinations import (
    DOUBLE_RONDA,
    KIND_VALUE,
    NONE,
    TRINGA,
    Kind,
    candidate_range,
    hand_combination,
)
from ..engine.settlement import Active, settle
from ..engine.view import SeatView
from .determinize import Determinizer


def true_declaration(view: SeatView) -> Kind:
    """What the seat's hand as dealt holds (R8.1), as a declaration."""
    combo = hand_combination(view.hand.mask | view.played_this_deal(view.seat), view.rules.ace_high)
    return NONE if combo is None else combo.kind


def _settled_points(view: SeatView, declarations: Sequence[Kind | None]) -> tuple[int, ...] | None:
    """R8.5 with every live declaration taken as true: each side's points, or ``None`` if undecided."""
    rules = view.rules
    size = rules.deal_sizes()[view.deal]
    played: list[list[int]] = [[] for _ in range(rules.players)]
    for seat, card in view.plays[view.deal_start :]:
        played[seat].append(card >> 2)
    active = []
    for seat, declared in enumerate(declarations):
        if declared is None or declared == NONE or view.exposed[seat]:
            continue
        rng = candidate_range(declared, tuple(sorted(played[seat])), size, rules.ace_high)
        if rng is not None:
            active.append(Active(rules.side_of(seat), declared, rng[0], rng[1]))
    return settle(active, rules.sides)


def _winner(scores: Sequence[int], target: int) -> int | None:
    best = max(scores)
    if best >= target and list(scores).count(best) == 1:
        return list(scores).index(best)
    return None


def delaying_bluff(view: SeatView) -> Kind | None:
    """The delaying bluff: contest an opposing side whose declarations alone would win it the game."""
    if view.rules.auto_declare or true_declaration(view) != NONE:
        return None
    rules = view.rules
    declaring = {rules.side_of(s) for s, d in enumerate(view.declarations) if d not in (None, NONE)}
    if len(declaring) != 1:
        return None
    (side,) = declaring
    if side == view.side:
        return None
    total = sum(KIND_VALUE[d] for d in view.declarations if d is not None)
    scores = list(view.scores)
    scores[side] += total
    if _winner(scores, rules.target) != side:
        return None
    strongest = max(
        (d for d in view.declarations if d not in (None, NONE)),
        key=lambda d: (d == TRINGA, d == DOUBLE_RONDA),
    )
    return strongest


def declaration(view: SeatView, may_bluff: bool) -> Declare:
    """The declaration this policy makes for the seat to declare."""
    if may_bluff:
        kind = delaying_bluff(view)
        if kind is not None:
            return DECLARES[kind]
    return DECLARES[true_declaration(view)]


def at_stake(view: SeatView, seat: int) -> bool:
    """Whether ``seat``'s side would reach the target if the undecided settlement gave it every declared point."""
    if _settled_points(view, view.declarations) is not None:
        return False
    side = view.rules.side_of(seat)
    total = sum(KIND_VALUE[d] for s, d in enumerate(view.declarations) if d not in (None, NONE) and not view.exposed[s])
    return view.scores[side] - view.settlement_given[side] + total >= view.rules.target


def _live_opponent_declarations(view: SeatView) -> list[int]:
    return [
        s
        for s, d in enumerate(view.declarations)
        if d not in (None, NONE) and not view.exposed[s] and view.is_opponent(s) and view.shown[s] is None
    ]


def challenge(
    view: SeatView,
    legal: Sequence[Action],
    *,
    counts_cards: bool = True,
    at_stake_threshold: float | None = None,
    determinizer: Determinizer | None = None,
) -> Challenge | None:
    """The challenge this policy makes now, or ``None`` to play on."""
    if not counts_cards or view.challenged_this_turn or not any(type(a) is Challenge for a in legal):
        return None
    targets = _live_opponent_declarations(view)
    if not targets:
        return None
    for seat in targets:
        if view.declarations[seat] not in view.possible_kinds(seat) and CHALLENGES[seat] in legal:
            return CHALLENGES[seat]  # counting proves it false: the challenge cannot fail
    if at_stake_threshold is None:
        return None
    sampler = determinizer or Determinizer(view)
    for seat in targets:
        if not at_stake(view, seat) or CHALLENGES[seat] not in legal:
            continue
        declared = view.declarations[seat]
        assert declared is not None
        if 1.0 - sampler.kind_probabilities(seat)[declared] >= at_stake_threshold:
            return CHALLENGES[seat]
    return None


__all__ = ["at_stake", "challenge", "declaration", "delaying_bluff", "true_declaration"]
