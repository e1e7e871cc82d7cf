"""Engine messages as a player reads them: without the rule ids written for engineers.

The engine's errors cite the rule they enforce ("… must play (R8.8)") so an
engineer can look it up in RULES.md; a player who meets one (a record that
cannot be resumed, a choice the start screen refuses) reads the sentence alone.

>>> for_players("action 4: seat 0 has already challenged this turn and must play (R8.8)")
'action 4: seat 0 has already challenged this turn and must play'
>>> for_players("a double ronda needs four-card hands (R8.1, R10).")
'a double ronda needs four-card hands.'
"""

from __future__ import annotations

import re

__all__ = ["for_players", "listed"]

_RULE_IDS = re.compile(r"\s*\((?:R\d+(?:\.\d+)?(?:,\s*)?)+\)")


def for_players(message: str) -> str:
    """``message`` with every parenthesis of rule ids — "(R8.2)", "(R8.1, R10)" — taken out."""
    return _RULE_IDS.sub("", message)


def listed(words: list[str]) -> str:
    """Words as a sentence lists them: "and" before the last one only ("seats 0, 1, 2 and 3").

    >>> listed(["0"]), listed(["0", "1"]), listed(["0", "1", "2", "3"])
    ('0', '0 and 1', '0, 1, 2 and 3')
    """
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)
