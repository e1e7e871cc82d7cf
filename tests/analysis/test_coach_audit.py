"""The coach audit's items 4, 5, 7, 8, 9 and 10: what a learner reads is what the numbers say.

Each test fails without its fix: a class graded on a loss other than the one shown, a last-capture note that
points the wrong way, words like "a 11" and "1 decisions", a traceback where one line should say the output
could not be written, a forced progress bar that draws nothing off a terminal, a record of ``--rounds`` graded
as if every decision were best without a word.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ronda.analysis.grades import THRESHOLDS, chance_points
from ronda.analysis.review import Decision


def _decision(loss: float) -> Decision:
    """A decision whose option taken gave up ``loss`` of the chance to win, no more built than the grade reads."""
    evaluation: Any = SimpleNamespace(loss=lambda action: loss)
    moment: Any = SimpleNamespace(taken=None)
    return Decision(moment, evaluation)


def test_audit_7_a_loss_shown_as_5_0_is_a_mistake_as_the_header_says() -> None:
    decision = _decision(0.04996)
    assert chance_points(decision.loss) == "5.0"
    assert decision.loss >= THRESHOLDS["mistake"]
    assert decision.grade == "mistake"
    assert _decision(0.0249).grade == "inaccuracy"  # 2.5 shown, 2.5 graded
    assert _decision(0.0094).grade == "best"  # 0.9 shown: under the 1 of "good"
