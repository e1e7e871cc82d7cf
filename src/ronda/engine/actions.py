"""The three decisions of Ronda: declare (R8.2), play (R4.1) and challenge (R8.8).

Actions are small immutable values that compare by kind and content, and print
as code you can paste back. The engine keeps one instance of each possible
action so that generating legal actions allocates nothing.

>>> Play.parse("5o")
Play(card=16)
>>> str(Play.parse("5o")), str(Declare("ronda")), str(Challenge(1))
('play 5o', 'declare ronda', 'challenge 1')

A card is its id (R1.2, :mod:`~ronda.engine.cards`), so an action built from a
card's name is refused where it is built, pointing to the parsers, rather than
later by :meth:`~ronda.engine.game.Game.apply` or by ``str()``:

>>> Play("4c")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ronda.engine.errors.IllegalActionError: Play takes a card id from 0 to 39, not '4c': write Play.parse('4c') or ...

The engine builds each action once (:data:`PLAYS`, :data:`DECLARES`,
:data:`CHALLENGES`), so these checks cost its playouts nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .cards import NUM_CARDS, Card, card_name, parse_card
from .combinations import DECLARATIONS, Kind
from .errors import IllegalActionError, quoted


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from the hand (R4.1)."""

    card: Card

    def __post_init__(self) -> None:
        card: object = self.card
        if type(card) is not int or not 0 <= card < NUM_CARDS:
            if isinstance(card, str):
                hint = f": write Play.parse({quoted(card)}) or parse_action({quoted('play ' + card)})"
            elif type(card) not in (int, bool) and hasattr(card, "__index__"):  # numpy's integers
                hint = ": pass int(card)"
            else:
                hint = ""
            raise IllegalActionError(f"Play takes a card id from 0 to {NUM_CARDS - 1}, not {quoted(card)}{hint}")

    @classmethod
    def parse(cls, text: str) -> Play:
        """The play of a card written in R1.2 notation."""
        return PLAYS[parse_card(text)]

    def __str__(self) -> str:
        return f"play {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare ``none``, ``ronda``, ``tringa`` or ``double_ronda`` at the start of a deal (R8.2)."""

    declaration: Kind

    def __post_init__(self) -> None:
        if self.declaration not in DECLARATIONS:
            raise IllegalActionError(f"unknown declaration {quoted(self.declaration)} ({', '.join(DECLARATIONS)})")

    def __str__(self) -> str:
        return f"declare {self.declaration}"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the current declaration of the seat ``target`` before playing (R8.8)."""

    target: int

    def __post_init__(self) -> None:
        # Which seats exist depends on the game: Game.apply names a seat out of range.
        if type(self.target) is not int:
            raise IllegalActionError(f"Challenge takes the declarer's seat number, not {quoted(self.target)}")

    def __str__(self) -> str:
        return f"challenge {self.target}"


Action = Play | Declare | Challenge
"""One decision of the seat to act: what :meth:`~ronda.engine.game.Game.apply` takes."""

PLAYS: Final = tuple(Play(card) for card in range(NUM_CARDS))
"""``PLAYS[card]``: the play of each card, made once (legal actions are lists of these)."""
DECLARES: Final = {kind: Declare(kind) for kind in DECLARATIONS}
"""``DECLARES[kind]``: the declaration of each kind, made once."""
CHALLENGES: Final = tuple(Challenge(seat) for seat in range(4))
"""``CHALLENGES[seat]``: the challenge of each seat's declaration, made once."""


def action_to_record(seat: int, action: Action) -> dict[str, Any]:
    """The record form of an action (RECORD.md): ``{"seat": 0, "play": "5o"}``."""
    if isinstance(action, Play):
        return {"seat": seat, "play": card_name(action.card)}
    if isinstance(action, Declare):
        return {"seat": seat, "declare": action.declaration}
    return {"seat": seat, "challenge": action.target}


def action_from_record(entry: object) -> tuple[int, Action]:
    """Read one record action; raises :class:`IllegalActionError` naming what is wrong."""
    if not isinstance(entry, dict):
        raise IllegalActionError(f'an action must be an object like {{"seat": 0, "play": "5o"}}, not {quoted(entry)}')
    seat = entry.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalActionError(f'an action needs a whole-number "seat", got {quoted(seat)}')
    verbs = [key for key in ("declare", "play", "challenge") if key in entry]
    extra = sorted(set(entry) - {"seat", "declare", "play", "challenge"})
    if extra:
        raise IllegalActionError(f"unknown action key {quoted(extra[0])}")
    if len(verbs) != 1:
        raise IllegalActionError('an action must have exactly one of "declare", "play", "challenge"')
    value = entry[verbs[0]]
    if verbs[0] == "play":
        return seat, PLAYS[parse_card(value)]
    if verbs[0] == "declare":
        if value not in DECLARES:
            raise IllegalActionError(f"unknown declaration {quoted(value)} (none, ronda, tringa, double_ronda)")
        return seat, DECLARES[value]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 4:
        raise IllegalActionError(f"a challenge names the declarer's seat, not {quoted(value)}")
    return seat, CHALLENGES[value]


def parse_action(text: str) -> Action:
    """Parse the typed form used by the plain interfaces: ``play 5c``, ``declare ronda``, ``challenge 1``.

    >>> parse_action("PLAY 10c")
    Play(card=29)
    """
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] == "play":
        return Play.parse(words[1])
    if len(words) == 2 and words[0] == "declare":
        if words[1] not in DECLARES:
            raise IllegalActionError(f"unknown declaration {quoted(words[1])} (none, ronda, tringa, double_ronda)")
        return DECLARES[words[1]]
    if len(words) == 2 and words[0] == "challenge" and words[1].isdigit():
        seat = int(words[1])
        if seat >= 4:
            raise IllegalActionError(f"there is no seat {seat}")
        return CHALLENGES[seat]
    raise IllegalActionError(f"cannot read {quoted(text)}: say 'play 5c', 'declare ronda' or 'challenge 1'")
