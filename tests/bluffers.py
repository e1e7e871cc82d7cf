"""A test bot that bluffs on purpose, shared by the arena's announcement and bluff-pricing tests."""

from __future__ import annotations

from ronda.bots import register
from ronda.engine.actions import Action, Declare, Play
from ronda.engine.view import SeatView


class AlwaysTringa:
    """Declares a tringa on every deal and plays its lowest card: a bluff at nearly every deal."""

    name = "always-tringa"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        if view.phase == "declare":
            return Declare("tringa")
        return min((a for a in legal if isinstance(a, Play)), key=lambda a: a.card)


register("always-tringa", AlwaysTringa)
