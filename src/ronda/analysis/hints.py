"""Hints given while playing, kept with the game in the record's ``hints`` extension (docs/RECORD.md).

A record is a fixed contract (RECORD.md) that other programs replay, so a hint
never touches ``rounds``: it is one entry of the top-level ``hints`` list,
which ``ronda replay`` accepts and skips (as any reader that does not know the
extension may). Each entry says which decision it was given for — the round,
and the index in that round's ``actions`` of the action that answered it
(equal to their number when the record stops before the answer) — whose it was,
the guesses searched, and the options shown with their chance to win the game
and their expected points, best first::

    "hints": [
      {"round": 0, "action": 7, "seat": 0, "guesses": 200,
       "options": [{"play": "3c", "chance": 0.62, "expected": 0.8}, {"play": "5o", "chance": 0.58, "expected": -0.1}]}
    ]

(``chance`` since issue 28: hints kept before it have ``expected`` alone.)

So a game can be replayed with what its player was told, and an analysis can
mark the decisions taken after a hint.

>>> hint = Hint(0, 7, 0, 200, ((Play.parse("3c"), 0.8, 0.62), (Play.parse("5o"), -0.1, 0.58)))
>>> hint.to_json()["options"]
[{'play': '3c', 'chance': 0.62, 'expected': 0.8}, {'play': '5o', 'chance': 0.58, 'expected': -0.1}]
>>> read_hints({"rounds": [{"deck": [], "actions": [{"seat": 0}] * 8}], "hints": [hint.to_json()]}) == [hint]
True
>>> read_hints({"rounds": [{"deck": [], "actions": []}], "hints": [hint.to_json()]})
Traceback (most recent call last):
...
ronda.engine.errors.RecordError: hints[0]: rounds[0] has no actions[7]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Play, action_from_record, action_to_record
from ..engine.errors import RecordError, RondaError, quoted
from .grades import shown_chance
from .search import Evaluation, Option

HINT_OPTIONS = 3
"""A hint shows the best few options: enough to compare, few enough to read at a glance."""


@dataclass(frozen=True, slots=True)
class Hint:
    """One hint: the decision it was for (round, index of the answering action), the seat, the options shown.

    Each option: its action, its expected points, and its chance to win the
    game (``None`` in a hint kept before chances were shown).
    """

    round: int
    action: int
    seat: int
    guesses: int
    options: tuple[tuple[Action, float, float | None], ...]

    def to_json(self) -> dict[str, Any]:
        options = []
        for action, expected, chance in self.options:
            entry = action_to_record(self.seat, action)
            del entry["seat"]
            if chance is not None:
                entry["chance"] = shown_chance(chance)  # as the hint showed it, as the analysis gives it
            entry["expected"] = round(expected, 2)
            options.append(entry)
        return {
            "round": self.round,
            "action": self.action,
            "seat": self.seat,
            "guesses": self.guesses,
            "options": options,
        }


def shown_options(evaluation: Evaluation, shown: int = HINT_OPTIONS) -> list[Option]:
    """The options a hint shows: the best ``shown`` of those offered (:attr:`Option.offered`: never a challenge the
    seat's cards prove would fail), one card of each rank (two 5s play alike, R1.1)."""
    options: list[Option] = []
    ranks: set[int] = set()
    for option in evaluation.options:
        if not option.offered:
            continue
        action = option.action
        if isinstance(action, Play):
            if action.card >> 2 in ranks:
                continue
            ranks.add(action.card >> 2)
        options.append(option)
        if len(options) == shown:
            break
    return options


def hint_of(evaluation: Evaluation, round_index: int, action_index: int, shown: int = HINT_OPTIONS) -> Hint:
    """The hint that shows an evaluation's best ``shown`` options (:func:`shown_options`)."""
    options = tuple((o.action, o.expected, o.chance) for o in shown_options(evaluation, shown))
    return Hint(round_index, action_index, evaluation.seat, evaluation.guesses, options)


def read_hints(record: Mapping[str, Any]) -> list[Hint]:
    """The hints of a record, checked; raises :class:`RecordError` naming the hint and what is wrong with it.

    A record without the extension has no hints. Each hint must name a round of
    the record and an action of that round (or the end of its actions), and
    when that action is there, be the hint of the seat that took it.
    """
    entries = record.get("hints", [])
    if not isinstance(entries, list):
        raise RecordError('"hints" must be a list of hints (docs/RECORD.md)')
    rounds = record.get("rounds")
    rounds = rounds if isinstance(rounds, list) else []
    return [_read_hint(entry, number, rounds) for number, entry in enumerate(entries)]


def _read_hint(entry: object, number: int, rounds: Sequence[Any]) -> Hint:
    def bad(problem: str) -> RecordError:
        return RecordError(f"hints[{number}]: {problem}")

    if not isinstance(entry, dict):
        raise bad('a hint is an object like {"round": 0, "action": 7, "seat": 0, "guesses": 200, "options": [...]}')
    unknown = sorted(set(entry) - {"round", "action", "seat", "guesses", "options"})
    if unknown:
        raise bad(f"unknown key {unknown[0]!r}")
    values = {}
    for key in ("round", "action", "seat", "guesses"):
        value = entry.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise bad(f'"{key}" must be a whole number, 0 or more, not {quoted(value)}')
        values[key] = value
    round_index, action_index, seat = values["round"], values["action"], values["seat"]
    if round_index >= len(rounds):
        raise bad(f"rounds[{round_index}] is not in the record")
    actions = rounds[round_index].get("actions", []) if isinstance(rounds[round_index], dict) else []
    if not isinstance(actions, list) or action_index > len(actions):
        raise bad(f"rounds[{round_index}] has no actions[{action_index}]")
    if action_index < len(actions):
        taken = actions[action_index]
        if isinstance(taken, dict) and taken.get("seat") != seat:
            raise bad(f"rounds[{round_index}].actions[{action_index}] is seat {taken.get('seat')}'s, not seat {seat}'s")
    options = entry.get("options")
    if not isinstance(options, list) or not options:
        raise bad('"options" must be a non-empty list')
    read: list[tuple[Action, float, float | None]] = []
    for option in options:
        if not isinstance(option, dict):
            raise bad(
                f'an option is an object like {{"play": "3c", "chance": 0.62, "expected": 0.8}}, not {quoted(option)}'
            )
        expected = option.get("expected")
        if not isinstance(expected, (int, float)) or isinstance(expected, bool) or not math.isfinite(expected):
            raise bad(f'an option\'s "expected" must be a number of points, not {quoted(expected)}')
        chance = option.get("chance")
        if chance is not None and (
            not isinstance(chance, (int, float)) or isinstance(chance, bool) or not 0.0 <= chance <= 1.0
        ):
            raise bad(f'an option\'s "chance" must be a chance from 0 to 1, not {quoted(chance)}')
        try:
            action_keys = {k: v for k, v in option.items() if k not in ("expected", "chance")}
            _, action = action_from_record({"seat": seat, **action_keys})
        except RondaError as error:
            raise bad(str(error)) from None
        read.append((action, float(expected), None if chance is None else float(chance)))
    return Hint(round_index, action_index, seat, values["guesses"], tuple(read))


__all__ = ["HINT_OPTIONS", "Hint", "hint_of", "read_hints", "shown_options"]
