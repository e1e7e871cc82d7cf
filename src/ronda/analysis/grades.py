"""A decision's class from its loss: how much of its chance to win the game it gave up against the best option.

As Lichess grades a chess move by the winning chances it loses rather than by
the engine's raw evaluation (its "inaccuracy", "mistake" and "blunder" are
drops of 10, 20 and 30 on a winning-chances scale from -1 to 1: 5, 10 and 15
percentage points of the chance to win), a decision here is graded by the
chance to win the game it gave up (:mod:`ronda.analysis.search`), never by the
points alone: by the win-probability model a point at 39-25 is worth almost
nothing, at 20-20 about 3 percentage points, at 0-0 about 2.2, and the card
that wins the game on the spot is worth the game. The thresholds are finer
than Lichess's because one decision of a card game moves the chances less than
one move of chess: at the start of a game a caida and a missa together are
worth about 5 percentage points (5.3 to 5.7 measured in the tests' positions),
a bluffed tringa's penalty (5 points) about 11 (11.7).

=============  =======================  ==============================================
class          chance to win lost       what it means at the table
=============  =======================  ==============================================
best           less than 1 point        as good as the best option, within the search's precision
good           1 to less than 2.5       a little less than the best: a point or less early in a game
inaccuracy     2.5 to less than 5       about two points given away early in a game
mistake        5 to less than 10        a caida and a missa, or a ronda hidden, given away
blunder        10 or more               more than that: a bluff's penalty, a round's swing, a
                                        challenge that may lose the game, a win passed over
=============  =======================  ==============================================

("points" here are percentage points of the chance to win: 0.05 is 5.) With
the default budget two seeds give a decision's difference between two options
about 1 percentage point apart on average (a standard error of about 0.8,
``benchmarks/coach_calibration.py``), so a best option may show a small loss
that is only the search's noise, and a decision near a threshold may fall on
either side of it; ``mistake`` and ``blunder`` are beyond the noise.

>>> grade(0.0), grade(0.015), grade(0.03), grade(0.099), grade(0.4)
('best', 'good', 'inaccuracy', 'mistake', 'blunder')
"""

from __future__ import annotations

from typing import Final, Literal

Grade = Literal["best", "good", "inaccuracy", "mistake", "blunder"]

GRADES: Final[tuple[Grade, ...]] = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The classes, from the best decision to the worst."""

THRESHOLDS: Final[dict[Grade, float]] = {"good": 0.01, "inaccuracy": 0.025, "mistake": 0.05, "blunder": 0.10}
"""The chance to win the game lost (0 to 1) from which a decision is in each class but ``best``."""


LOSS_DIGITS: Final = 3
"""A loss is kept to a tenth of a percentage point (3 decimals of the chance), the precision every text and
``--json`` shows it with: a loss shown as 5.0 is graded as 5.0, a mistake, not as the 4.996 behind it."""


def shown_loss(loss: float) -> float:
    """``loss`` as it is shown and graded: to a tenth of a percentage point.

    Graded unrounded, a loss of 0.04996 would read "inaccuracy (-5.0 percentage points)" under a header
    that says 5 is a mistake; rounded once, here, the class, the words and the JSON say the same number.

    >>> shown_loss(0.04996), grade(shown_loss(0.04996))
    (0.05, 'mistake')
    """
    return round(loss, LOSS_DIGITS)


def shown_chance(share: float) -> float:
    """A chance to win as it is shown: to a tenth of a percent, so that the loss of one option against another is
    the difference of their chances as shown (a learner's audit: 63.0% and 52.0% read "11.1 percentage points").

    >>> shown_chance(0.6305), shown_chance(0.5197), shown_loss(shown_chance(0.6305) - shown_chance(0.5197))
    (0.63, 0.52, 0.11)
    """
    return round(share, LOSS_DIGITS)


def grade(loss: float) -> Grade:
    """The class of a decision that gave up ``loss`` of its chance to win the game (0.05: 5 percentage points)."""
    found: Grade = "best"
    for name, floor in THRESHOLDS.items():
        if loss >= floor:
            found = name
    return found


def chance_points(share: float) -> str:
    """A chance, or a difference of chances, in percentage points: ``0.052`` is ``5.2``.

    >>> chance_points(0.052), chance_points(0.1)
    ('5.2', '10.0')
    """
    return f"{share * 100:.1f}"


def thresholds_text() -> str:
    """The thresholds in one line, for ``--help`` and summaries.

    >>> thresholds_text().split(" (")[0]
    'best < 1 ≤ good < 2.5 ≤ inaccuracy < 5 ≤ mistake < 10 ≤ blunder'
    """
    text = "best"
    for name, floor in THRESHOLDS.items():
        text += f" < {floor * 100:g} ≤ {name}"
    return text + " (percentage points of the chance to win the game lost against the best option)"


__all__ = [
    "GRADES",
    "LOSS_DIGITS",
    "THRESHOLDS",
    "Grade",
    "chance_points",
    "grade",
    "shown_chance",
    "shown_loss",
    "thresholds_text",
]
