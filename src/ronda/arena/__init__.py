"""The arena: bots against bots on duplicate deals, with statistics that say how sure a result is.

``ronda arena hard medium`` is the command; :func:`run_match` and :func:`summary`
are the same thing from Python.
"""

from .match import MatchSpec, play_game, play_unit, seatings
from .runner import MatchOutcome, Tally, run_match, summary
from .stats import Sprt, mean_interval, parse_sprt, wilson_interval

__all__ = [
    "MatchOutcome",
    "MatchSpec",
    "Sprt",
    "Tally",
    "mean_interval",
    "parse_sprt",
    "play_game",
    "play_unit",
    "run_match",
    "seatings",
    "summary",
    "wilson_interval",
]
