"""Rondas, tringas and double rondas: what a hand holds and what it could hold.

Pure functions of ranks, cached, because the settlement (R8.5) asks them after
every play of a declarer. Ranks here are rank indexes (0 for 1 … 9 for 12).

A combination's *strength* is one int that orders combinations of one kind by
R8.3; kinds are compared first, by :data:`KIND_ORDER`.

>>> combination_of([4, 4, 9], four_card=False, ace_high=False)
('ronda', 4)
>>> sorted(candidates("tringa", (6,), hand_size=3, ace_high=False))
[6]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from itertools import combinations_with_replacement
from typing import Final, Literal

NONE: Final = "none"
RONDA: Final = "ronda"
TRINGA: Final = "tringa"
DOUBLE_RONDA: Final = "double_ronda"

Kind = Literal["none", "ronda", "tringa", "double_ronda"]
DECLARATIONS: Final[tuple[Kind, ...]] = ("none", "ronda", "tringa", "double_ronda")

KIND_VALUE: Final[dict[str, int]] = {NONE: 0, RONDA: 1, DOUBLE_RONDA: 2, TRINGA: 5}
"""Points of each combination (R8.1)."""

KIND_ORDER: Final[dict[str, int]] = {NONE: 0, RONDA: 1, DOUBLE_RONDA: 2, TRINGA: 3}
"""R8.3: tringa beats double ronda beats ronda."""


def announcement_strength(rank_idx: int, ace_high: bool) -> int:
    """Place of a rank in the announcement order (R1.4): 12 high, 1 low; 1 high with ace_high.

    >>> announcement_strength(0, False), announcement_strength(0, True)
    (0, 10)
    """
    return 10 if ace_high and rank_idx == 0 else rank_idx


def combination_of(ranks: Iterable[int], four_card: bool, ace_high: bool) -> tuple[str, int] | None:
    """The combination a dealt hand holds (R8.1), as ``(kind, strength)``, or ``None``.

    With four-card hands two pairs, or four of one rank, are a double ronda whose
    strength orders the higher pair first (R8.3); three of a rank is a tringa.
    """
    counts = Counter(ranks)
    pairs = sorted(
        (announcement_strength(r, ace_high) for r, n in counts.items() if n == 2),
        reverse=True,
    )
    for rank_idx, n in counts.items():
        strength = announcement_strength(rank_idx, ace_high)
        if n == 4:
            return (DOUBLE_RONDA, strength * 16 + strength) if four_card else None
        if n == 3:
            return (TRINGA, strength)
    if len(pairs) == 2:
        return (DOUBLE_RONDA, pairs[0] * 16 + pairs[1])
    if len(pairs) == 1:
        return (RONDA, pairs[0])
    return None


def combination_ranks(ranks: Iterable[int], four_card: bool) -> list[int]:
    """The rank indexes of the cards that make up a hand's combination (R8.7).

    ``[4, 4]`` for a ronda of 5s; ``[]`` when the hand holds none.
    """
    counts = Counter(ranks)
    del four_card  # a 3-card hand cannot hold four of a rank; a 4-card one counts it as a double ronda
    return sorted(r for r, n in counts.items() for _ in range(n) if n >= 2)


@cache
def candidates(kind: str, played: tuple[int, ...], hand_size: int, ace_high: bool) -> frozenset[int]:
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
def candidate_range(kind: str, played: tuple[int, ...], hand_size: int, ace_high: bool) -> tuple[int, int] | None:
    """The weakest and strongest candidate of :func:`candidates`, or ``None`` if there is none."""
    found = candidates(kind, played, hand_size, ace_high)
    if not found:
        return None
    return (min(found), max(found))


def describe_strength(kind: str, strength: int, ace_high: bool) -> str:
    """Words for a combination: 'pair of 12s', 'three 5s', 'pairs of 12s and 3s'.

    >>> describe_strength("double_ronda", 9 * 16 + 2, False)
    'pairs of 12s and 3s'
    """
    from .cards import RANKS

    def printed(s: int) -> int:
        return 1 if (ace_high and s == 10) else RANKS[s]

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


HandCombinations = dict[int, "tuple[str, int, int] | None"]
_HAND_COMBINATIONS: dict[bool, HandCombinations] = {False: {}, True: {}}


def hand_combinations_memo(ace_high: bool) -> HandCombinations:
    """The memo :func:`hand_combination` fills, by hand mask, for one announcement order.

    The engine reads it directly in its dealing loop and calls
    :func:`hand_combination` only on a miss.
    """
    return _HAND_COMBINATIONS[ace_high]


def hand_combination(hand: int, ace_high: bool) -> tuple[str, int, int] | None:
    """The combination of a dealt hand given as a card mask: ``(kind, strength, cards mask)``.

    Every deal asks it for every hand, so it reads rank counts straight off the
    mask (each rank is four bits of it) and memoises by mask. A hand of four
    cards follows the four-card combinations of R8.1. The mask of the
    combination's cards tells when all of them have been played (R8.7).

    >>> hand_combination(0b0111 << 16, False)  # three 5s
    ('tringa', 4, 458752)
    """
    memo = _HAND_COMBINATIONS[ace_high]
    found = memo.get(hand, False)
    if found is not False:
        return found  # type: ignore[return-value]
    ranks = []
    m = hand
    while m:
        low = m & -m
        ranks.append((low.bit_length() - 1) >> 2)
        m ^= low
    # ranks ascend because card ids do; runs of equal ranks are the combination
    result: tuple[str, int, int] | None = None
    groups: list[tuple[int, int]] = []  # (rank, count) of repeated ranks
    i = 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[i]:
            j += 1
        if j > i:
            groups.append((ranks[i], j - i + 1))
        i = j + 1
    if groups:
        four_card = len(ranks) == 4
        if len(groups) == 2:
            (low_rank, _), (high_rank, _) = sorted(groups, key=lambda g: announcement_strength(g[0], ace_high))
            low = announcement_strength(low_rank, ace_high)
            high = announcement_strength(high_rank, ace_high)
            cards = hand & ((0xF << (4 * low_rank)) | (0xF << (4 * high_rank)))
            result = (DOUBLE_RONDA, high * 16 + low, cards)
        else:
            rank_idx, n = groups[0]
            strength = announcement_strength(rank_idx, ace_high)
            cards = hand & (0xF << (4 * rank_idx))
            if n == 4:
                result = (DOUBLE_RONDA, strength * 16 + strength, cards) if four_card else None
            elif n == 3:
                result = (TRINGA, strength, cards)
            else:
                result = (RONDA, strength, cards)
    if len(memo) < 1 << 18:
        memo[hand] = result
    return result
