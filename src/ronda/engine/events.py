"""Events: every public happening of a game, in the order it happened.

Events are what interfaces narrate, what records replay to, and what the web
server sends; they hold only what every seat may know (R11): a deal event says
how many cards each hand got, never which. Each is a ``NamedTuple`` (cheap to
create in the engine's hot path) with a ``to_json()`` in the shape of RECORD.md.
Cards are ids inside the engine and names in JSON.

>>> Score(side=1, points=1, reason="caida", seat=1).to_json()
{'type': 'score', 'side': 1, 'points': 1, 'reason': 'caida', 'seat': 1}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from .cards import Card, card_name
from .combinations import Kind

Reason = Literal["caida", "chain", "missa", "announcement", "false_announcement", "undeclared", "cards", "dealer_duty"]
"""Why a side scores (RECORD.md): the reasons of :class:`Score` events."""

TransferReason = Reason | Literal["debt"]
"""Why cards move with transfer_scoring (R10): a reason of :data:`Reason`, or a ``debt`` paid."""

Ending = Literal["target", "failed_challenge"]
"""How a game is won: a side reached the target (R9.3), or a challenge failed (R8.8)."""


def _names(cards: tuple[Card, ...]) -> list[str]:
    return [card_name(c) for c in cards]


_AS_JSON: dict[str, Callable[[Any], Any]] = {"Card": card_name, "tuple[Card, ...]": _names, "tuple[int, ...]": list}
"""How a field is written in JSON, by its annotation: cards by name (R1.2), tuples as lists; others as they are."""

_NOT_IN_JSON = {("Show", "declaration")}
"""Fields an event keeps for the interfaces that RECORD.md's JSON does not have."""

_JSON_FIELDS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def _to_json(event: Any) -> dict[str, Any]:
    """An event in the shape of RECORD.md: ``type``, then its fields in order, made from their annotations."""
    cls = type(event)
    fields = _JSON_FIELDS.get(cls)
    if fields is None:
        name = cls.__name__
        # NamedTuple keeps each annotation as a ForwardRef (this module has postponed annotations): its text
        kinds = {field: str(getattr(note, "__forward_arg__", note)) for field, note in cls.__annotations__.items()}
        fields = _JSON_FIELDS[cls] = tuple(
            (field, _AS_JSON.get(kinds[field])) for field in cls._fields if (name, field) not in _NOT_IN_JSON
        )
    out: dict[str, Any] = {"type": event.TYPE}
    for field, convert in fields:
        value = getattr(event, field)
        out[field] = value if convert is None else convert(value)
    return out


class RoundStart(NamedTuple):
    """A round begins (R3.1); ``dealer`` deals it."""

    round: int
    dealer: int

    @property
    def TYPE(self) -> str:
        return "round_start"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Deal(NamedTuple):
    """Each hand is given ``hand_size`` cards (R3.3, R3.5); the first deal also turns up ``table``."""

    round: int
    deal: int
    hand_size: int
    table: tuple[Card, ...]
    stock: int
    last: bool

    @property
    def TYPE(self) -> str:
        return "deal"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Declaration(NamedTuple):
    """A seat declares a kind, never a rank (R8.2)."""

    seat: int
    declaration: Kind

    @property
    def TYPE(self) -> str:
        return "declare"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Capture(NamedTuple):
    """``seat`` plays ``card`` and takes ``cards`` from the table (R4.2); ``caida`` per R5.1."""

    seat: int
    card: Card
    cards: tuple[Card, ...]
    caida: bool

    @property
    def TYPE(self) -> str:
        return "capture"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Drop(NamedTuple):
    """``seat`` plays ``card`` and it stays on the table (R4.3)."""

    seat: int
    card: Card

    @property
    def TYPE(self) -> str:
        return "drop"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Raise(NamedTuple):
    """``seat`` plays ``card`` on an open chain and takes the open capture ``cards`` (R5.3)."""

    seat: int
    card: Card
    cards: tuple[Card, ...]

    @property
    def TYPE(self) -> str:
        return "raise"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Score(NamedTuple):
    """Points to a side, with the reason of RECORD.md; ``points`` may be negative (taken back)."""

    side: int
    points: int
    reason: Reason
    seat: int | None

    @property
    def TYPE(self) -> str:
        return "score"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Transfer(NamedTuple):
    """transfer_scoring (R10): ``cards`` cards move from the payer's pile to the scorer's; ``owed`` stays as a debt."""

    payer: int
    payee: int
    cards: int
    owed: int
    reason: TransferReason

    @property
    def TYPE(self) -> str:
        return "transfer"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Exposure(NamedTuple):
    """A declaration is shown to be false (R8.5 no candidate left, or R8.8 challenge)."""

    seat: int
    declaration: Kind

    @property
    def TYPE(self) -> str:
        return "exposure"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class ChallengeMade(NamedTuple):
    """``seat`` challenges ``target``; the target's hand as dealt is shown to all (R8.8)."""

    seat: int
    target: int
    hand: tuple[Card, ...]
    truthful: bool

    @property
    def TYPE(self) -> str:
        return "challenge"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class Show(NamedTuple):
    """``seat``'s hand as dealt is shown before a settlement would win the game with its declaration (R9.5).

    ``declaration`` is the kind it declared (public since the declaration
    phase), kept so the hand can be told against it ("no tringa"); the JSON
    is RECORD.md's ``{"type": "show", "seat", "hand"}``.
    """

    seat: int
    hand: tuple[Card, ...]
    declaration: Kind

    @property
    def TYPE(self) -> str:
        return "show"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class TableTaken(NamedTuple):
    """After the last turn the table's cards go to the last capturer's side (R7.1)."""

    side: int
    cards: tuple[Card, ...]

    @property
    def TYPE(self) -> str:
        return "table_taken"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class RoundEnd(NamedTuple):
    """A round is over; ``piles`` holds each side's number of captured cards (R7.2)."""

    round: int
    piles: tuple[int, ...]

    @property
    def TYPE(self) -> str:
        return "round_end"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


class GameOver(NamedTuple):
    """The game is won (R9.3, R8.8); ``reason`` is ``target`` or ``failed_challenge``."""

    winner: int
    reason: Ending

    @property
    def TYPE(self) -> str:
        return "game_over"

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)


Event = (
    RoundStart
    | Deal
    | Declaration
    | Capture
    | Drop
    | Raise
    | Score
    | Transfer
    | Exposure
    | ChallengeMade
    | Show
    | TableTaken
    | RoundEnd
    | GameOver
)
"""Any event; ``event.TYPE`` names its kind as ``to_json()`` does, so a reader may dispatch on either."""
