"""Rondas, tringas and double rondas: what a hand holds and what it could hold (R8.1, R8.3, R8.5).

:func:`combination_of` is the one statement of R8.1 and R8.3 in the project:
every other question about combinations — a dealt hand given as cards
(:func:`hand_combination`), the candidates of a declaration (:func:`candidates`),
what a seat can tell of another hand (:meth:`~ronda.engine.view.SeatView.possible_kinds`),
the bots' guesses — asks it. Ranks here are rank indexes (0 for 1 … 9 for 12);
answers are cached, because the settlement asks after every play of a declarer.

A combination's *strength* is one int that orders combinations of one kind by
R8.3; kinds are compared first, by :data:`KIND_ORDER`.

>>> combination_of([4, 4, 9], four_card=False, ace_high=False)
('ronda', 4)
>>> sorted(candidates("tringa", (6,), hand_size=3, ace_high=False))
[6]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from itertools import combinations_with_replacement
from typing import Final, Literal, NamedTuple

from .cards import RANKS, Mask

Kind = Literal["none", "ronda", "tringa", "double_ronda"]
"""A declaration (R8.2), and what a hand as dealt holds: ``none`` stands for no combination."""

NONE: Final = "none"
RONDA: Final = "ronda"
TRINGA: Final = "tringa"
DOUBLE_RONDA: Final = "double_ronda"

DECLARATIONS: Final[tuple[Kind, ...]] = ("none", "ronda", "tringa", "double_ronda")
"""Every kind, in the order the engine offers them (R8.2; ``double_ronda`` only with four-card hands)."""

KIND_VALUE: Final[Mapping[Kind, int]] = {NONE: 0, RONDA: 1, DOUBLE_RONDA: 2, TRINGA: 5}
"""Points of each combination (R8.1)."""

KIND_ORDER: Final[Mapping[str, int]] = {NONE: 0, RONDA: 1, DOUBLE_RONDA: 2, TRINGA: 3}
"""R8.3: tringa beats double ronda beats ronda (keyed by ``str``: narration asks it of its own words too)."""


class Combination(NamedTuple):
    """The combination a dealt hand holds: its kind (never ``none``), strength, and the cards that make it.

    ``cards`` tells when all of them have been played (R8.7); it is a mask
    because the engine asks at every deal of every simulated round.
    """

    kind: Kind
    strength: int
    cards: Mask


def announcement_strength(rank_idx: int, ace_high: bool) -> int:
    """Place of a rank in the announcement order (R1.4): 12 high, 1 low; 1 high with ace_high.

    >>> announcement_strength(0, False), announcement_strength(0, True)
    (0, 10)
    """
    return 10 if ace_high and rank_idx == 0 else rank_idx


def _rank_of_strength(strength: int, ace_high: bool) -> int:
    """The rank index whose :func:`announcement_strength` is ``strength``."""
    return 0 if ace_high and strength == 10 else strength


def combination_of(ranks: Iterable[int], four_card: bool, ace_high: bool) -> tuple[Kind, int] | None:
    """The combination a dealt hand of these ranks holds (R8.1), as ``(kind, strength)``, or ``None``.

    Three of a rank is a tringa. With four-card hands two pairs, or four of one
    rank, are a double ronda whose strength orders the higher pair first (R8.3):
    ``high * 16 + low``.

    >>> combination_of([9, 9, 1, 1], four_card=True, ace_high=False)  # 12s and 2s: the 12s count first
    ('double_ronda', 145)
    >>> combination_of([0, 0, 9, 9], four_card=True, ace_high=True)  # ace high: the 1s count first
    ('double_ronda', 169)
    """
    return _combination_of_counts(Counter(ranks), four_card, ace_high)


def _combination_of_counts(counts: Mapping[int, int], four_card: bool, ace_high: bool) -> tuple[Kind, int] | None:
    """:func:`combination_of` from how many cards of each rank the hand holds (a hand holds at most four)."""
    high = low = -1  # the pairs' strengths, higher first
    for rank_idx, n in counts.items():
        if n < 2:
            continue
        strength = announcement_strength(rank_idx, ace_high)
        if n == 4:
            return (DOUBLE_RONDA, strength * 16 + strength) if four_card else None
        if n == 3:
            return (TRINGA, strength)
        if strength > high:
            high, low = strength, high
        else:
            low = strength
    if low >= 0:
        return (DOUBLE_RONDA, high * 16 + low)
    if high >= 0:
        return (RONDA, high)
    return None


_HAND_COMBINATIONS: dict[bool, dict[Mask, Combination | None]] = {False: {}, True: {}}


def hand_combinations_memo(ace_high: bool) -> dict[Mask, Combination | None]:
    """The memo :func:`hand_combination` fills, by hand mask, for one announcement order.

    The engine's dealing loop reads it directly and calls :func:`hand_combination` only on a miss.
    """
    return _HAND_COMBINATIONS[ace_high]


def hand_combination(hand: Mask, ace_high: bool) -> Combination | None:
    """The combination of a dealt hand given as a card mask (:attr:`~ronda.engine.cards.CardSet.mask`).

    :func:`combination_of` on the hand's ranks, with the cards that make the
    combination; a hand of four cards follows the four-card combinations of
    R8.1. Memoised by mask: every deal asks it for every hand.

    >>> hand_combination(0b0111 << 16, False)  # three 5s
    Combination(kind='tringa', strength=4, cards=458752)
    >>> hand_combination((0b11 << 36) | (0b11 << 4), False).strength  # 12s and 2s
    145
    """
    memo = _HAND_COMBINATIONS[ace_high]
    if hand in memo:
        return memo[hand]
    counts: dict[int, int] = {}
    m = hand
    while m:
        low = m & -m
        rank = (low.bit_length() - 1) >> 2
        counts[rank] = counts.get(rank, 0) + 1
        m ^= low
    found = _combination_of_counts(counts, hand.bit_count() == 4, ace_high)
    result = None
    if found is not None:
        kind, strength = found
        high, low = divmod(strength, 16) if kind == DOUBLE_RONDA else (strength, strength)
        ranks_mask = 0xF << (4 * _rank_of_strength(high, ace_high)) | 0xF << (4 * _rank_of_strength(low, ace_high))
        result = Combination(kind, strength, hand & ranks_mask)
    if len(memo) < 1 << 18:
        memo[hand] = result
    return result


@cache
def candidates(kind: Kind, played: tuple[int, ...], hand_size: int, ace_high: bool) -> frozenset[int]:
    """R8.5: strengths of the ``kind`` combinations a hand could hold.

    ``played`` are the rank indexes (sorted) the declarer has played from this
    hand in the deal; every way of giving ranks to the hand's other cards is
    tried. Only the declarer's own plays narrow it, so the answer is public.

    >>> sorted(candidates("ronda", (4, 6), hand_size=3, ace_high=False))
    [4, 6]
    >>> candidates("tringa", (4, 6), hand_size=3, ace_high=False)
    frozenset()
    """
    four_card = hand_size == 4
    unknown = hand_size - len(played)
    found = set()
    for rest in combinations_with_replacement(range(10), unknown):
        combo = combination_of(played + rest, four_card, ace_high)
        if combo is not None and combo[0] == kind:
            found.add(combo[1])
    return frozenset(found)


@cache
def candidate_range(kind: Kind, played: tuple[int, ...], hand_size: int, ace_high: bool) -> tuple[int, int] | None:
    """The weakest and strongest candidate of :func:`candidates`, or ``None`` if there is none."""
    found = candidates(kind, played, hand_size, ace_high)
    if not found:
        return None
    return (min(found), max(found))


def describe_strength(kind: str, strength: int, ace_high: bool) -> str:
    """Words for a combination: 'pair of 12s', 'three 5s', 'pairs of 12s and 3s'; 'nothing' for another word.

    >>> describe_strength("double_ronda", 9 * 16 + 2, False)
    'pairs of 12s and 3s'
    """

    def printed(s: int) -> int:
        return RANKS[_rank_of_strength(s, ace_high)]

    if kind == RONDA:
        return f"pair of {printed(strength)}s"
    if kind == TRINGA:
        return f"three {printed(strength)}s"
    if kind == DOUBLE_RONDA:
        high, low = divmod(strength, 16)
        if high == low:
            return f"four {printed(high)}s"
        return f"pairs of {printed(high)}s and {printed(low)}s"
    return "nothing"
