"""The settlement of a deal's declarations (R8.4, R8.5), without enumeration.

A naive check of R8.5 would try every choice of candidates for every
declaration (10**4 choices with four rondas) after every play. It is not
needed: the sum to share is fixed by the declared kinds, so only *which sides
hold the strongest declaration* can vary. Each side's best strength ranges over
``[max of its declarations' weakest candidates, max of their strongest]``, and
choices are independent, so the set of best sides is the same in every choice
exactly when

- one side's weakest best beats every other side's strongest best (a winner), or
- the tied sides' bests are fixed and equal and beat every other side (a split).

>>> # seat sides 0 and 1 each declared ronda; side 0's is known to be 12s
>>> settle([Active(0, "ronda", 9, 9), Active(1, "ronda", 0, 6)], sides=2)
(2, 0)
>>> settle([Active(0, "ronda", 0, 9), Active(1, "ronda", 0, 9)], sides=2) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .combinations import KIND_ORDER, KIND_VALUE, Kind


class Active(NamedTuple):
    """A declaration not yet exposed: its side, kind and candidate strength range."""

    side: int
    kind: Kind
    weakest: int
    strongest: int


def settle(active: Sequence[Active], sides: int) -> tuple[int, ...] | None:
    """Points per side if the settlement is decided (R8.5), else ``None``.

    Every active declaration is taken as true (R8.5); the side holding the
    strongest takes the sum of all of them, tied sides split it rounded down (R8.4).
    """
    points = [0] * sides
    if not active:
        return tuple(points)
    total = 0
    top_kind = 0
    for d in active:
        total += KIND_VALUE[d.kind]
        order = KIND_ORDER[d.kind]
        if order > top_kind:
            top_kind = order
    weakest_best = [-1] * sides
    strongest_best = [-1] * sides
    for d in active:
        if KIND_ORDER[d.kind] == top_kind:
            side = d.side
            if d.weakest > weakest_best[side]:
                weakest_best[side] = d.weakest
            if d.strongest > strongest_best[side]:
                strongest_best[side] = d.strongest
    floor = max(weakest_best)
    contenders = [side for side in range(sides) if strongest_best[side] >= floor]
    if len(contenders) == 1:
        points[contenders[0]] = total
        return tuple(points)
    if all(weakest_best[s] == strongest_best[s] == floor for s in contenders):
        share = total // len(contenders)
        for side in contenders:
            points[side] = share
        return tuple(points)
    return None
