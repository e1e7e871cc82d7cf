"""A decision's class from its loss: how many points less than the best option it was worth.

The thresholds are in expected points (see :mod:`ronda.analysis.search` for
what a point of value means), chosen against what the game pays: a caida or a
missa is one point, a card captured rather than left about half a point, a
ronda one point and a tringa five, a won game ten.

=============  =======================  ==============================================
class          loss (points)            what it means at the table
=============  =======================  ==============================================
best           less than 0.2            as good as the best option, within the search's precision
good           0.2 to less than 0.5     a little less than the best: a card or so
inaccuracy     0.5 to less than 1.0     up to a point given away
mistake        1.0 to less than 2.0     a caida, a missa or a few cards given away
blunder        2.0 or more              more than that: a likely caida and missa, a bluff's
                                        penalty, a challenge that may lose the game
=============  =======================  ==============================================

With the default budget the differences between options are measured to
about ±0.15 point, so a best option may show a small loss (below 0.2) that is
only the search's noise; the classes above it are not noise.

>>> grade(0.0), grade(0.3), grade(0.5), grade(1.99), grade(7.0)
('best', 'good', 'inaccuracy', 'mistake', 'blunder')
"""

from __future__ import annotations

from typing import Final, Literal

Grade = Literal["best", "good", "inaccuracy", "mistake", "blunder"]

GRADES: Final[tuple[Grade, ...]] = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The classes, from the best decision to the worst."""

THRESHOLDS: Final[dict[Grade, float]] = {"good": 0.2, "inaccuracy": 0.5, "mistake": 1.0, "blunder": 2.0}
"""The loss, in points, from which a decision is in each class but ``best``."""


def grade(loss: float) -> Grade:
    """The class of a decision that was worth ``loss`` points less than the best option."""
    found: Grade = "best"
    for name, floor in THRESHOLDS.items():
        if loss >= floor:
            found = name
    return found


def thresholds_text() -> str:
    """The thresholds in one line, for ``--help`` and summaries.

    >>> thresholds_text()
    'best < 0.2 ≤ good < 0.5 ≤ inaccuracy < 1.0 ≤ mistake < 2.0 ≤ blunder (points lost against the best option)'
    """
    text = "best"
    for name, floor in THRESHOLDS.items():
        text += f" < {floor:.1f} ≤ {name}"
    return text + " (points lost against the best option)"


__all__ = ["GRADES", "THRESHOLDS", "Grade", "grade", "thresholds_text"]
