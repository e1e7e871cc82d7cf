"""The one bot interface: a seat's view and the legal actions in, an action out.

A bot never receives the game. :class:`SeatView` (R11) is an immutable copy of
what its seat may know, so a bot cannot reach another seat's hidden cards even
by accident; this is the structure that makes "bots never peek" true.

>>> from ronda import Game, Rules
>>> game = Game(Rules(players=2), seed=1)
>>> bot = RandomBot(seed=5)
>>> bot.choose(game.view(game.turn), game.legal_actions()) in game.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..engine.actions import Action, Challenge
from ..engine.view import SeatView


@runtime_checkable
class Bot(Protocol):
    """Anything that chooses an action from a seat's view and the legal actions."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``. Must not mutate anything it is given."""
        ...


class RandomBot:
    """Uniformly random legal plays and declarations; never challenges. For testing only."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        options: list[Action] = [a for a in legal if not isinstance(a, Challenge)] or list(legal)
        return options[self.rng.randrange(len(options))]
