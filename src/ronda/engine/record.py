"""Game records (RECORD.md): save any game, load and replay any record exactly.

Replaying never shuffles: every round's deck is dealt as written, and every
action is checked by the same :meth:`Game.apply` that live play uses, so a
record written anywhere is judged by the rules and nothing else.

>>> game = Game(Rules(players=2, auto_declare=True), seed=3)
>>> for _ in range(5):
...     _ = game.apply(game.legal_actions()[0])
>>> again = replay(game.to_record())
>>> [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
True
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .actions import action_from_record
from .cards import NUM_CARDS, card_name, parse_card
from .errors import CardError, InputError, RecordError, RondaError, json_kind, quoted
from .game import OVER, WAITING, Game
from .jsontext import read_json
from .rules import Rules

FORMAT = "ronda/1"

EXTENSIONS = ("hints",)
"""Top-level keys a record may carry beside the game, which replaying skips (docs/RECORD.md, *Extensions*).

``hints``: the hints a player was shown while playing (:mod:`ronda.analysis.hints`).
Any other key is still an error, so a misspelt ``rounds`` or ``dealer`` is caught.
"""


MAX_RECORD_BYTES = 16 * 2**20
"""The largest record file read: a long four-player game with every hint is a few hundred kilobytes."""

MAX_RECORD_DEPTH = 32
"""The deepest nesting of arrays and objects read in a record: the format itself needs five."""


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file as JSON; raises :class:`RecordError` for a file that is not a JSON object.

    The file's size and nesting are bounded before it is parsed (:func:`~.jsontext.read_json`).
    The message never names the file: the caller does, once (``ronda replay: game.json: …``).
    """
    try:
        data = read_json(path, what="a record", max_bytes=MAX_RECORD_BYTES, max_depth=MAX_RECORD_DEPTH)
    except InputError as error:
        raise RecordError(str(error)) from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {json_kind(data)}")
    return data


def save_record(game: Game, path: str | Path) -> None:
    """Write ``game`` as a record file (pretty JSON, one action a line), whole or not at all."""
    write_atomically(path, dumps_record(game.to_record()).encode("utf-8"))


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that the file is, at every moment, the old one or the new one, whole.

    Saving over a game record (or a policy) that a crash, a kill or a full
    disk interrupts must not leave half a file where a whole game was: the
    bytes go to a fresh file beside it, reach the disk, and only then take
    its name (a rename within one directory, which the system does at once).
    The fresh file is created with the usual permissions (the umask applies).
    A process killed mid-write may leave its ``.part`` file behind, never a
    broken ``path``.
    """
    target = Path(path)
    part = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")
    descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def dumps_record(record: Mapping[str, Any]) -> str:
    """A record as readable JSON: one action or deck a line, so diffs of records stay small.

    Extensions (:data:`EXTENSIONS`) come after the rounds, one entry a line.
    """
    head = {k: v for k, v in record.items() if k != "rounds" and k not in EXTENSIONS}
    extensions = {k: v for k, v in record.items() if k in EXTENSIONS}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "rounds": [')
    rounds = record.get("rounds", [])
    for i, rnd in enumerate(rounds):
        lines.append("    {")
        lines.append(f'      "deck": {json.dumps(rnd["deck"])},')
        actions = rnd["actions"]
        if actions:
            lines.append('      "actions": [')
            lines.extend(f"        {json.dumps(a)}{',' if j < len(actions) - 1 else ''}" for j, a in enumerate(actions))
            lines.append("      ]")
        else:
            lines.append('      "actions": []')
        lines.append("    }" + ("," if i < len(rounds) - 1 else ""))
    lines.append("  ]" + ("," if extensions else ""))
    for number, (key, value) in enumerate(extensions.items()):
        comma = "," if number < len(extensions) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            lines.extend(f"    {json.dumps(v)}{',' if j < len(value) - 1 else ''}" for j, v in enumerate(value))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _read_rules(record: Mapping[str, Any]) -> Rules:
    """The record's rules, after its ``format`` and top-level keys are checked.

    RECORD.md shows ``"format": "ronda/1"`` but does not say the key may be left
    out. ronda's choice (docs/RECORD.md): a record without it is read as
    ``ronda/1``, the only version there is, so records of programs that leave it
    out still replay; any other value is refused, naming it.
    """
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown record format {quoted(record.get('format'))} (this engine reads {FORMAT!r})")
    unknown = sorted(set(record) - {"format", "rules", "dealer", "rounds", *EXTENSIONS})
    if unknown:
        raise RecordError(f"unknown record key {quoted(unknown[0])}")
    if "rules" not in record:
        raise RecordError("the record has no rules")
    try:
        return Rules.from_dict(record["rules"])
    except RondaError as error:
        raise RecordError(str(error)) from None
    except TypeError as error:
        raise RecordError(f"bad rules: {error}") from None


def _read_deck(deck: object, round_index: int) -> list[int]:
    """The round's deck as card ids; a card that is unknown or given twice is refused at its place, ``deck[5]``,
    as an action is at ``actions[7]``: in a list of 40 a person needs the place, not the card alone."""
    if not isinstance(deck, list):
        raise RecordError("a round's deck must be a list of 40 cards", round_index)
    cards: list[int] = []
    for place, name in enumerate(deck):
        try:
            cards.append(parse_card(name))
        except CardError as error:
            raise RecordError(str(error), round_index, deck_index=place) from None
    if len(cards) == NUM_CARDS:  # a deck of another size is refused for its size first (check_deck)
        first: dict[int, int] = {}
        for place, card in enumerate(cards):
            if card in first:
                problem = f"the deck holds {card_name(card)} twice (first at deck[{first[card]}])"
                raise RecordError(problem, round_index, deck_index=place)
            first[card] = place
    return cards


def replay(record: Mapping[str, Any]) -> Game:
    """The game a record describes, replayed action by action through the engine.

    Raises :class:`RecordError` naming the round and action index at fault.
    """
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {json_kind(record)}")
    rules = _read_rules(record)
    dealer = record.get("dealer", rules.players - 1)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise RecordError(f"the dealer must be a seat from 0 to {rules.players - 1}, not {quoted(dealer)}")
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("a record needs a non-empty list of rounds")
    game: Game | None = None
    for index, rnd in enumerate(rounds):
        if not isinstance(rnd, dict) or "deck" not in rnd:
            raise RecordError("a round must be an object with a deck and actions", index)
        unknown = sorted(set(rnd) - {"deck", "actions"})
        if unknown:
            raise RecordError(f"unknown round key {quoted(unknown[0])} (a round has a deck and actions)", index)
        deck = _read_deck(rnd["deck"], index)
        try:
            if game is None:
                game = Game(rules, decks=[deck], dealer=dealer)
            elif game.phase == WAITING:
                game.add_deck(deck)
            else:
                raise RecordError(
                    "this round starts before the previous one has ended"
                    if game.phase != OVER
                    else "this round comes after the game was won",
                    index,
                )
        except RecordError:
            raise
        except RondaError as error:
            raise RecordError(str(error), index) from None
        actions = rnd.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError("a round's actions must be a list", index)
        for number, entry in enumerate(actions):
            if game.phase == OVER:
                raise RecordError("action after the game was won", index, number)
            if game.phase == WAITING:
                raise RecordError("action after the round has ended", index, number)
            try:
                seat, action = action_from_record(entry)
                if seat != game.turn:
                    raise RondaError(f"seat {seat} acts, but the decision is seat {game.turn}'s")
                game.apply(action)
            except RondaError as error:
                raise RecordError(str(error), index, number) from None
    assert game is not None
    return game


def replay_result(game: Game) -> dict[str, Any]:
    """The result object of ``ronda replay FILE --json`` (RECORD.md)."""
    return {
        "scores": list(game.scores),
        "winner": game.winner,
        "finished": game.finished,
        "events": [event.to_json() for event in game.events],
    }
