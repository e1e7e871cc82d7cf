"""Stored games replayed through the engine: a live table rebuilt, and step-by-step replays of finished games.

Both walk a stored record the same way, decision by decision, with the
engine's public calls only (``Game(rules, decks=..., dealer=...)``,
``apply``, ``add_deck``, ``view``), so a rebuilt table holds exactly the
events its players were sent, and a replay shows exactly what happened,
including the next round's deal that followed a round's last card.

Once a game is over every hand may be shown (the doc's replay endpoint), so
each replay step's state is the public view plus ``hands``: what each seat
held at that moment.

>>> from ronda import Game, Rules
>>> from ronda.engine.record import replay, replay_result
>>> game = Game(Rules(players=2, auto_declare=True, target=5), seed=4)
>>> while game.legal_actions():
...     _ = game.apply(game.legal_actions()[0])
>>> record = game.to_record()
>>> steps = replay_steps(record)
>>> steps[0]["action"] is None, steps[-1]["state"]["phase"]
(True, 'game_over')
>>> rebuilt, events, made = rebuild(record)
>>> [e.to_json() for e in events] == replay_result(replay(record))["events"], len(made) == len(steps) - 1
(True, True)
>>> made[0] == (len(steps[0]["events"]), record["rounds"][0]["actions"][0])
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ...engine.actions import action_from_record
from ...engine.cards import parse_card
from ...engine.errors import RecordError, RondaError
from ...engine.events import Event
from ...engine.game import WAITING, Game
from ...engine.rules import Rules
from .protocol import public_view_json


def dealt_events(game: Game) -> list[Event]:
    """The events of a game just made: its first deal (the one place the server reads a game's event log)."""
    return list(game.events)


def _steps(record: Mapping[str, Any]) -> Iterator[tuple[Game, dict[str, Any] | None, list[Event]]]:
    """The game after its deal (no action), then after each decision: the game, the action, the events it caused.

    Raises :class:`RecordError` naming the round and action at fault, or what keeps the record from starting a
    game, in words (not Python's ``KeyError``: an audit):

    >>> next(_steps({"rules": {"players": 2}}))
    Traceback (most recent call last):
    ...
    ronda.engine.errors.RecordError: the record cannot start a game: it has no 'rounds'
    >>> next(_steps({"rules": {"players": 2}, "rounds": []}))
    Traceback (most recent call last):
    ...
    ronda.engine.errors.RecordError: the record cannot start a game: no rules or first deck as RECORD.md has them
    """
    try:
        rules = Rules.from_dict(record["rules"])
        rounds = record["rounds"]
        decks = [[parse_card(card) for card in rnd["deck"]] for rnd in rounds]
        game = Game(rules, decks=[decks[0]], dealer=record.get("dealer", rules.players - 1))
        dealt = dealt_events(game)
    except RondaError as error:
        raise RecordError(f"the record cannot start a game: {error}") from None
    except KeyError as error:
        raise RecordError(f"the record cannot start a game: it has no {error.args[0]!r}") from None
    except (TypeError, IndexError):
        raise RecordError("the record cannot start a game: no rules or first deck as RECORD.md has them") from None
    yield game, None, dealt
    for index, rnd in enumerate(rounds):
        for number, entry in enumerate(rnd["actions"]):
            try:
                seat, action = action_from_record(entry)
                events = game.apply(action, seat=seat)
                if game.view(0).phase == WAITING and index + 1 < len(decks):
                    events = events + game.add_deck(decks[index + 1])
            except RondaError as error:
                raise RecordError(str(error), index, number) from None
            yield game, entry, events


def rebuild(record: Mapping[str, Any]) -> tuple[Game, list[Event], list[tuple[int, dict[str, Any]]]]:
    """A stored game as it stands: the game, every event in order, and its decisions.

    Each decision comes with the number of the game's events before it: the
    version it was made at, less the game's base version (a resent decision is
    recognised by it, docs/web-protocol.md).
    """
    last: Game | None = None
    events: list[Event] = []
    made: list[tuple[int, dict[str, Any]]] = []
    for game, action, new in _steps(record):
        last = game
        if action is not None:
            made.append((len(events), action))
        events.extend(new)
    assert last is not None
    return last, events, made


def replay_state_json(game: Game) -> dict[str, Any]:
    """The public view with every hand shown: for finished games only."""
    state = public_view_json(game)
    state["hands"] = [game.view(seat).hand.names() for seat in range(len(state["hand_sizes"]))]
    return state


def replay_steps(
    record: Mapping[str, Any], base_version: int = 0, state: Callable[[Game], dict[str, Any]] = replay_state_json
) -> list[dict[str, Any]]:
    """The steps of a finished game's record: the deal first (``action`` null), then one step per decision."""
    steps = []
    version = base_version
    for game, action, events in _steps(record):
        steps.append(
            {
                "action": action,
                "events": [{**e.to_json(), "version": version + i + 1} for i, e in enumerate(events)],
                "state": state(game),
            }
        )
        version += len(events)
    return steps
