"""Ronda, the Moroccan fishing card game: rules engine, bots, and ways to play.

>>> from ronda import Game, Rules
>>> game = Game(Rules(players=2), seed=42)
>>> game.phase
'declare'
"""

from .engine import *  # noqa: F403
from .engine import __all__ as _engine_all

__version__ = "0.1.0"
__all__ = [*_engine_all, "__version__"]
