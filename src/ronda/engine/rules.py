"""The rules a game is played under: players and the variants of R10.

:class:`Rules` is an immutable value validated on construction, so an engine
never runs under rules that make no sense; a record's ``rules`` object maps
onto it key for key (RECORD.md), and an unknown key is an error.

>>> Rules(players=4, target=25)
Rules(players=4, target=25)
>>> Rules.from_dict({"players": 3, "four_card_hands": True})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ronda.engine.errors.RulesError: four_card_hands is played by 2 or 4 players, not 3: ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .errors import RulesError, json_kind, quoted

MAX_TARGET = 10_000
"""The highest target a game may be played to (``ronda arena --rounds`` plays to it: no round cut short)."""

CHAIN_POINTS_CHOICES = ((1, 5, 10), (1, 6, 15))
"""R10 chain_points: what the 2nd, 3rd and 4th card of one rank score in a chain."""

UNDECLARED_RONDA_PENALTIES = (1, 5)


@dataclass(frozen=True, slots=True)
class Rules:
    """Players and variants (R2.1, R10). Every variant is off by default.

    The field names are the R10 names and the record's ``rules`` keys.
    """

    players: int = 2
    target: int = 41
    auto_declare: bool = False
    ace_high: bool = False
    chain_points: tuple[int, int, int] = (1, 5, 10)
    undeclared_ronda_penalty: int = 1
    dealer_duty: bool = False
    four_card_hands: bool = False
    transfer_scoring: bool = False

    def __post_init__(self) -> None:
        _require_int("players", self.players)
        if self.players not in (2, 3, 4):
            raise RulesError(f"players must be 2, 3 or 4, not {self.players}")
        _require_int("target", self.target)
        if not 1 <= self.target <= MAX_TARGET:
            raise RulesError(f"target must be a whole number of points from 1 to {MAX_TARGET}, not {self.target}")
        for name in ("auto_declare", "ace_high", "dealer_duty", "four_card_hands", "transfer_scoring"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {quoted(getattr(self, name))}")
        chain = self.chain_points
        if isinstance(chain, list):
            chain = tuple(chain)
            object.__setattr__(self, "chain_points", chain)
        if chain not in CHAIN_POINTS_CHOICES:
            shown = list(chain) if isinstance(chain, tuple) else chain
            raise RulesError(f"chain_points must be [1, 5, 10] or [1, 6, 15], not {quoted(shown)}")
        _require_int("undeclared_ronda_penalty", self.undeclared_ronda_penalty)
        if self.undeclared_ronda_penalty not in UNDECLARED_RONDA_PENALTIES:
            raise RulesError(f"undeclared_ronda_penalty must be 1 or 5, not {self.undeclared_ronda_penalty}")
        if self.four_card_hands and self.players == 3:
            raise RulesError(
                "four_card_hands is played by 2 or 4 players, not 3: with three hands of four "
                "there is no deal that shares out 40 cards"
            )

    @property
    def sides(self) -> int:
        """Number of sides (R2.2): partners share a side with four players."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        """The side of a seat (R2.2): seats 0 and 2 against 1 and 3 with four players."""
        return seat % 2 if self.players == 4 else seat

    def deal_sizes(self) -> tuple[int, ...]:
        """Cards given to each hand in each deal of a round (R3.5, R10 four_card_hands).

        >>> Rules(players=3).deal_sizes()
        (3, 3, 3, 3)
        >>> Rules(players=4, four_card_hands=True).deal_sizes()
        (4, 3, 3)
        """
        if self.four_card_hands:
            return (4, 3, 3) if self.players == 4 else (4, 4, 4, 4, 4)
        return (3,) * (36 // (3 * self.players))

    @property
    def missa_points(self) -> int:
        """R6.1: what a missa scores. No variant of R10 changes it, but the engine and the bots ask the rules for it
        as for every other point (``chain_points``), so that it is written once: a variant that changed it would
        replace this property by a field of the same name. (The rollouts' fast path, ``bots.tactics``, is given no
        rules: it reads the default once, and such a variant would pass it in.)

        >>> Rules().missa_points
        1
        """
        return 1

    @property
    def opening_table_size(self) -> int:
        """Cards turned up at the start of a round (R3.3); none with four-card hands."""
        return 0 if self.four_card_hands else 4

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a record's ``rules`` object; unknown keys are errors (RECORD.md)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, not {json_kind(data)}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rule {quoted(unknown[0])} (known: {', '.join(sorted(known))})")
        if "players" not in data:
            raise RulesError("rules must name the number of players")
        values = dict(data)
        for f in fields(cls):  # a record writes a tuple (chain_points) as a list
            if isinstance(f.default, tuple) and isinstance(values.get(f.name), list):
                values[f.name] = tuple(values[f.name])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The record's ``rules`` object: players and every variant that is not default."""
        out: dict[str, Any] = {"players": self.players}
        default = Rules(players=self.players)
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "players" and value != getattr(default, f.name):
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed, validated again."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return Rules.from_dict(values)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())
        return f"Rules({args})"


def _require_int(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{name} must be a whole number, not {quoted(value)}")
