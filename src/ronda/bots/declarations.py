"""Declaring, bluffing and challenging: the announcement decisions every bot level shares.

The policy, in the order a bot applies it:

**Declare** (R8.2). Every level declares what its hand holds (``none``,
``ronda``, ``tringa``, ``double_ronda``) — truthfully — unless it may bluff
(``hard`` and ``expert``) and this situation holds:

*The delaying bluff* (the seeds' tactic near the target). It holds no
combination, every declaration so far comes from one opposing side, that
side would reach the target the moment its declarations are settled, and the
bluffer's own side is within :data:`DELAY_REACH` points of the target.
Declaring nothing loses the game at once (if the opponents' declarations are
true); a false declaration of the strongest kind the opponents declared keeps
the settlement undecided until the cards show whose is best, and the bot may
win by caida or missa first. Far from the target it could not win meanwhile,
and a bluff would only make things worse: declaring nothing lets R9.5 show the
opponents' hands, and a false one among them is exposed for free.

There is no *winning bluff*: a false declaration that would bring its side to
the target is shown and exposed before the award (R9.5), so a declaration wins
the game only when it is true — which is the truthful declaration.

**Challenge** (R8.8), before playing. A level that counts cards (``medium``
and up) challenges an opponent's live declaration when counting *proves* it
false: no hand made of the declarer's played cards and cards this seat has not
seen holds the declared kind (:meth:`~ronda.engine.view.SeatView.possible_kinds`).
The challenge cannot fail, and the penalty comes at once instead of at R8.5's
exposure (which only looks at the declarer's own plays).

``hard`` and ``expert`` also *weigh* a challenge that may fail, near the
target, of a declaration made where a bluff was in its declarer's interest
(:func:`gamble_targets`): a failed challenge loses the game (R8.8),
and far from the target waiting is free, since a false declaration is exposed
by itself when its cards are played (R8.9). The chance that the declaration
is false comes from the view alone: counting (the hands the unseen cards can
make, :meth:`~ronda.bots.determinize.Determinizer.kind_probabilities`) and what
is known of bluffing at that score (:func:`declaration_models`: a declaration
made where the delaying bluff was in the declarer's own interest is most
likely that bluff). The search then plays the position on in guesses of the
hidden cards drawn from that belief, once with the challenge and once without
(a true declaration challenged ends the game in the guess, lost), and
challenges when that pays (:meth:`~ronda.bots.pimc.PimcBot.weigh`).
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
from .determinize import TRUSTING, DeclarationModel, Determinizer

DELAY_REACH = 2
"""How far from the target the bluffing side may be for the delaying bluff: a caida with a missa (two points)."""

DELAYING = DeclarationModel(conceal=TRUSTING.conceal, bluff=0.9, misdeclare=0.3)
"""How a seat is believed to declare where the delaying bluff is in its interest and would let it win meanwhile:
holding nothing it bluffs (``hard`` and ``expert`` always do; people often)."""

DESPERATE = DeclarationModel(conceal=TRUSTING.conceal, bluff=0.3, misdeclare=0.1)
"""Where declaring nothing would lose at once but the seat is too far from the target to win meanwhile:
the bots' policy declares the truth there, and people may still bluff."""

NEAR_TARGET = 10
"""A challenge that may fail is weighed only when some side is this close to the target: farther,
the game cannot end before a false declaration is exposed by its own cards, and waiting is free."""

GAMBLE_FLOOR = 0.25
"""A challenge is weighed only on a declaration at least this likely false: a failed one loses the game."""


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


def _strongest(kinds: Sequence[Kind]) -> Kind:
    return max(kinds, key=lambda d: (d == TRINGA, d == DOUBLE_RONDA))


def declaring_order(view: SeatView) -> list[int]:
    """The seats in the order they declare this deal: from the seat after the dealer (R8.2)."""
    n = view.rules.players
    return [(view.dealer + 1 + i) % n for i in range(n)]


def scores_when_declared(view: SeatView) -> list[int]:
    """The scores as they stood in this deal's declaration phase, as far as the view tells.

    The settlement's points given since are taken off (``settlement_given``);
    a caida, missa or penalty scored since is not (the view keeps no score
    history): near the target that makes a declaration look a little more
    pressed than it was, never less.
    """
    return [score - given for score, given in zip(view.scores, view.settlement_given, strict=True)]


def winning_side_before(view: SeatView, seat: int, scores: Sequence[int]) -> tuple[int, Kind] | None:
    """The opposing side that ``seat`` faced when it came to declare, if declaring nothing lost the game at once.

    That is: every declaration made before ``seat``'s (in declaring order)
    comes from one side opposing ``seat``, and that side, taking their points,
    would reach the target with ``scores`` as they stood. Returns the side and
    the strongest kind it declared.
    """
    rules = view.rules
    own = rules.side_of(seat)
    before = []
    for other in declaring_order(view):
        if other == seat:
            break
        declared = view.declarations[other]
        if declared not in (None, NONE):
            before.append((other, declared))
    sides = {rules.side_of(other) for other, _ in before}
    if len(sides) != 1:
        return None
    (side,) = sides
    if side == own:
        return None
    after = list(scores)
    after[side] += sum(KIND_VALUE[d] for _, d in before if d is not None)
    if _winner(after, rules.target) != side:
        return None
    return side, _strongest([d for _, d in before if d is not None])


def delaying_bluff(view: SeatView) -> Kind | None:
    """The delaying bluff: contest an opposing side whose declarations alone would win it the game."""
    if view.rules.auto_declare or true_declaration(view) != NONE:
        return None
    facing = winning_side_before(view, view.seat, view.scores)
    if facing is None or view.scores[view.side] < view.rules.target - DELAY_REACH:
        return None
    return facing[1]


def declaration(view: SeatView, may_bluff: bool) -> Declare:
    """The declaration this policy makes for the seat to declare."""
    if may_bluff:
        kind = delaying_bluff(view)
        if kind is not None:
            return DECLARES[kind]
    return DECLARES[true_declaration(view)]


def declaration_models(view: SeatView) -> dict[int, DeclarationModel]:
    """How far to believe each other seat's declaration this deal, from what was in its interest to declare.

    A seat that declared the kind of an opposing side whose declarations
    would otherwise have won the game at once made, if it held nothing, the
    delaying bluff: :data:`DELAYING` when its side was close enough to the
    target to win meanwhile, :data:`DESPERATE` when not. Every other
    declaration is believed as people usually are (:data:`~ronda.bots.determinize.TRUSTING`).
    """
    models: dict[int, DeclarationModel] = {}
    if view.rules.auto_declare:
        return models
    scores = scores_when_declared(view)
    for seat, declared in enumerate(view.declarations):
        if seat == view.seat or declared in (None, NONE):
            continue
        facing = winning_side_before(view, seat, scores)
        if facing is None or facing[1] != declared:
            continue
        near = scores[view.rules.side_of(seat)] >= view.rules.target - DELAY_REACH
        models[seat] = DELAYING if near else DESPERATE
    return models


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


def challenge(view: SeatView, legal: Sequence[Action], *, counts_cards: bool = True) -> Challenge | None:
    """The challenge that cannot fail now (counting proves the declaration false), or ``None``."""
    if not counts_cards or view.challenged_this_turn or not any(type(a) is Challenge for a in legal):
        return None
    for seat in _live_opponent_declarations(view):
        if view.proof(seat) == "false" and CHALLENGES[seat] in legal:
            return CHALLENGES[seat]
    return None


def gamble_targets(view: SeatView, legal: Sequence[Action], sampler: Determinizer) -> list[int]:
    """The opponents' declarations on which a challenge that may fail is worth weighing now.

    Near the target only (:data:`NEAR_TARGET`), made where a bluff was in
    the declarer's interest (``sampler``'s :func:`declaration_models`), not
    proven true (the challenge would surely lose the game), and at least
    :data:`GAMBLE_FLOOR` likely false by ``sampler``'s belief.

    A declaration without that motive is not gambled on: counting alone
    says little there, since a combination is rare in a dealt hand (a tringa
    in about one hand of 250), so even a few bluffers in a hundred would make
    a true tringa look most likely false. Such gambles were measured losing
    every time against ``medium``, which never bluffs; those declarations are
    challenged only once counting proves them false (:func:`challenge`).
    """
    if view.challenged_this_turn or max(view.scores) < view.rules.target - NEAR_TARGET:
        return []
    targets = []
    for seat in _live_opponent_declarations(view):
        declared = view.declarations[seat]
        assert declared is not None
        if seat not in sampler.models or CHALLENGES[seat] not in legal or view.proof(seat) == "true":
            continue
        if 1.0 - sampler.kind_probabilities(seat)[declared] >= GAMBLE_FLOOR:
            targets.append(seat)
    return targets


__all__ = [
    "DELAYING",
    "DELAY_REACH",
    "DESPERATE",
    "GAMBLE_FLOOR",
    "NEAR_TARGET",
    "at_stake",
    "challenge",
    "declaration",
    "declaration_models",
    "declaring_order",
    "delaying_bluff",
    "gamble_targets",
    "scores_when_declared",
    "true_declaration",
    "winning_side_before",
]
