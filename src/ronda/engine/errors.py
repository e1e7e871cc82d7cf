"""The package's errors for bad input and misuse: one small hierarchy, all ``ValueError``.

Interfaces catch :class:`RondaError` and show its message; the message always
names the problem in the game's words, never internal state or hidden cards.
The engine's errors come first; the bots' (:class:`BotError`) and the arena's
(:class:`MatchError`, :class:`MissingExtraError`) live here too, since every
layer may import the engine and none the layers above it. The interfaces keep
errors of their own protocols beside them (``ronda.interfaces.web``).
"""

from __future__ import annotations

import shlex
import sys

QUOTED_LENGTH = 40
"""How much of a bad value an error message quotes: enough to recognise it, never a whole file on one line."""


def quoted(value: object) -> str:
    """``repr(value)`` for an error message, cut to :data:`QUOTED_LENGTH` characters with how much was left out.

    A record may hold a million-card "deck" or a card written as a 100,000-letter
    string; the one line that refuses it names the value, not all of it.

    >>> quoted("5o")
    "'5o'"
    >>> quoted("Z" * 100)
    "'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ… (102 characters)"

    ``null``, ``true`` and ``false`` are written as a record (JSON) writes them: "not True" named Python's value to
    a person who wrote ``true`` in a file or on a page.

    >>> quoted(True), quoted(None)
    ('true', 'null')
    """
    if value is None or isinstance(value, bool):
        return json_kind(value)
    text = repr(value)
    if len(text) <= QUOTED_LENGTH:
        return text
    return f"{text[: QUOTED_LENGTH - 1]}… ({len(text)} characters)"


def json_kind(value: object) -> str:
    """What a value is, in a record's (JSON's) words, for a message that refuses it: never a Python type name.

    "rules must be an object, not NoneType" named the Python type; a person wrote ``null`` (or left a key out).

    >>> json_kind(None), json_kind(False), json_kind("5o"), json_kind(3), json_kind([1]), json_kind({})
    ('null', 'false', 'a string', 'a number', 'a list', 'an object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"  # only from Python (a set, a Game): there the type's name is the word


class RondaError(ValueError):
    """Base of every error the package raises on bad input or misuse."""


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


class BotError(RondaError):
    """A bot level that does not exist, or a bot's setting out of range (:func:`ronda.bots.make_bot`)."""


class MatchError(RondaError):
    """A match or a test of strength set up wrongly: entrants for the players, SPRT bounds (:mod:`ronda.arena`)."""


class MissingExtraError(RondaError, RuntimeError):
    """What was asked for needs an optional extra that is not installed; the message names the extra."""


def install_hint(extra: str) -> str:
    """The command that installs an optional extra into the Python running ronda, for every message that asks.

    A bare ``pip install`` may be another Python's: with the README's ``.venv`` not activated, it installs where
    this ``ronda`` never looks, and the same message comes back.

    >>> install_hint("web").endswith(" -m pip install 'ronda[web]'")
    True
    """
    return f"{shlex.quote(sys.executable)} -m pip install 'ronda[{extra}]'"


class RecordError(RondaError):
    """A game record that breaks RECORD.md; names the round and action at fault.

    Where is said as the record's own indices (``rounds[1].actions[4]``, from 0 as in the JSON), never as
    "round 1, action 4": a person reads "round 1" as the first round, as the coach and the game count them.

    >>> str(RecordError("seat 1 does not hold 5c", 0, 7))
    'rounds[0].actions[7]: seat 1 does not hold 5c'
    >>> RecordError("the record has no rules").where
    ''
    >>> str(RecordError("the deck holds 5e twice (first at deck[2])", 0, deck_index=5))
    'rounds[0].deck[5]: the deck holds 5e twice (first at deck[2])'
    """

    def __init__(
        self,
        message: str,
        round_index: int | None = None,
        action_index: int | None = None,
        *,
        deck_index: int | None = None,
    ) -> None:
        self.problem = message
        self.round_index = round_index
        self.action_index = action_index
        self.deck_index = deck_index
        super().__init__(f"{self.where}: {message}" if self.where else message)

    @property
    def where(self) -> str:
        """The place in the record, ``rounds[R].actions[A]``, ``rounds[R].deck[D]`` or ``rounds[R]``; empty for the
        whole record."""
        if self.round_index is None:
            return ""
        if self.action_index is not None:
            return f"rounds[{self.round_index}].actions[{self.action_index}]"
        if self.deck_index is not None:
            return f"rounds[{self.round_index}].deck[{self.deck_index}]"
        return f"rounds[{self.round_index}]"
