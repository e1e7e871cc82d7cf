"""The statistics of the arena: intervals for win rates and margins, and a sequential test.

Small pure functions on numbers, so that every claim the arena prints ("hard
beats medium by +1.3 points a round, interval +0.9 to +1.7") is checkable.

>>> low, high = wilson_interval(60, 100)
>>> round(low, 3), round(high, 3)
(0.502, 0.691)
>>> mean_interval([1.0, 2.0, 3.0, 4.0])
(2.5, 1.235, 3.765)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.errors import MatchError

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion; sound for small counts and rates near 0 or 1."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its 95 % interval (normal approximation over independent values), rounded to 3 places."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (round(mean, 3), round(mean, 3), round(mean, 3))
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (round(mean, 3), round(mean - half, 3), round(mean + half, 3))


def interval(values: Sequence[float], z: float = Z95) -> list[float] | None:
    """The 95 % interval of the mean of ``values`` (:func:`mean_interval`), or None from fewer than two: one value
    has no spread to measure, and an interval of no width would read as certainty (an audit of ``--units 1``)."""
    if len(values) < 2:
        return None
    _, low, high = mean_interval(values, z)
    return [low, high]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Sprt:
    """Wald's sequential probability ratio test on A's win probability: H0 p = p0 against H1 p = p1.

    After each result, :meth:`verdict` says ``"H1"`` (A beats B as claimed), ``"H0"`` (it does not)
    or ``None`` (keep playing). ``alpha`` and ``beta`` are the error rates of the two verdicts.

    >>> test = Sprt(p0=0.5, p1=0.6)
    >>> test.verdict(wins=80, losses=20), test.verdict(wins=10, losses=10), test.verdict(wins=20, losses=60)
    ('H1', None, 'H0')
    """

    p0: float = 0.5
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise MatchError(f"the SPRT needs 0 < p0 < p1 < 1, not p0={self.p0}, p1={self.p1}")

    def llr(self, wins: int, losses: int) -> float:
        """Log-likelihood ratio of H1 against H0 after ``wins`` and ``losses``."""
        return wins * math.log(self.p1 / self.p0) + losses * math.log((1 - self.p1) / (1 - self.p0))

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 below the lower, H1 above the upper."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def verdict(self, wins: int, losses: int) -> str | None:
        lower, upper = self.bounds
        value = self.llr(wins, losses)
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


def parse_sprt(text: str) -> Sprt:
    """``"0.5,0.55"`` (probabilities) or ``"0,35"`` (Elo differences) as an :class:`Sprt`.

    >>> parse_sprt("0.5,0.6").p1
    0.6
    >>> round(parse_sprt("0,35").p1, 3)
    0.55
    """
    try:
        first, second = (float(part) for part in text.split(","))
    except ValueError:
        raise MatchError(f"--sprt takes two numbers like 0.5,0.55 or 0,35 (Elo), not {text!r}") from None
    if not (0 < first < 1 and 0 < second < 1):  # Elo differences, not probabilities
        first, second = (1 / (1 + 10 ** (-elo / 400)) for elo in (first, second))
    return Sprt(p0=first, p1=second)
