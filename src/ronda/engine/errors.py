"""The engine's errors: one small hierarchy, all ``ValueError``.

Interfaces catch :class:`RondaError` and show its message; the message always
names the problem in the game's words, never internal state or hidden cards.
"""

from __future__ import annotations


class RondaError(ValueError):
    """Base of every error the engine raises on bad input."""


class CardError(RondaError):
    """A card that is not in the Spanish pack, or badly written."""


class RulesError(RondaError):
    """Rules that are unknown, out of range, or impossible together."""


class DeckError(RondaError):
    """A deck that is not 40 distinct cards or whose opening table breaks R3.4."""


class PositionError(RondaError):
    """A placement of hidden cards that does not fit the view it is meant to complete (:meth:`Game.from_view`)."""


class IllegalActionError(RondaError):
    """An action the rules do not allow at this point; the game is unchanged."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat whose decision it is not."""


class InputError(RondaError):
    """A file or message that cannot be read as JSON: unreadable, too large, nested too deep, or malformed.

    The message names the problem, never the file: whoever reads the file names it once.
    """


class RecordError(RondaError):
    """A game record that breaks RECORD.md; names the round and action at fault."""

    def __init__(self, message: str, round_index: int | None = None, action_index: int | None = None) -> None:
        self.problem = message
        self.round_index = round_index
        self.action_index = action_index
        where = []
        if round_index is not None:
            where.append(f"round {round_index}")
        if action_index is not None:
            where.append(f"action {action_index}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
