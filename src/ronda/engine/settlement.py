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

from .combinations import KIND_ORDER, KIND_VALUE


class Active(NamedTuple):
    """A declaration not yet exposed: its side, kind and candidate strength range."""

    side: int
    kind: str
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
    total = sum(KIND_VALUE[d.kind] for d in active)
    top_kind = max(KIND_ORDER[d.kind] for d in active)
    weakest_best: dict[int, int] = {}
    strongest_best: dict[int, int] = {}
    for d in active:
        if KIND_ORDER[d.kind] != top_kind:
            continue
        weakest_best[d.side] = max(weakest_best.get(d.side, -1), d.weakest)
        strongest_best[d.side] = max(strongest_best.get(d.side, -1), d.strongest)
    floor = max(weakest_best.values())
    contenders = [side for side, best in strongest_best.items() if best >= floor]
    if len(contenders) == 1:
        points[contenders[0]] = total
        return tuple(points)
    if all(weakest_best[s] == strongest_best[s] == floor for s in contenders):
        share = total // len(contenders)
        for side in contenders:
            points[side] = share
        return tuple(points)
    return None
