"""The messages of docs/web-protocol.md: reading what clients send, writing views and actions.

Everything a client sends is untrusted: :func:`read_client_message` turns one
websocket frame into a small typed message or raises :class:`ProtocolError`
with an error code of the protocol and a message in plain words. The message
only ever repeats what the client itself sent, so it can never hold a hidden
card.

Everything the server sends about the game goes through :func:`view_json`
(one seat's :class:`~ronda.engine.view.SeatView`, R11) or
:func:`public_view_json` (the spectator's view: no hand at all). Those two are
the only places where game state becomes JSON, which keeps R11 checkable.

>>> read_client_message('{"type": "act", "action": {"play": "5o"}, "version": 12}')
Act(type='act', action=Play(card=16), version=12)
>>> read_client_message('{"type": "dance"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ronda.interfaces.web.protocol.ProtocolError: unknown message type 'dance' (hello, act, auto_declare, rematch, ...)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import fields
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ...engine.actions import CHALLENGES, DECLARES, PLAYS, Action, Challenge, Declare, Play
from ...engine.cards import RANKS, CardSet, card_name, parse_card
from ...engine.errors import CardError, RulesError
from ...engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ...engine.jsontext import json_depth
from ...engine.presets import preset_rules
from ...engine.rules import Rules
from ...engine.view import SeatView
from ...presentation.challenge import Verdict, challenge_options

MAX_MESSAGE_BYTES = 4096
"""Largest client message read (the doc's limit): nothing legitimate comes near it."""
MAX_MESSAGE_DEPTH = 6
"""Deepest nesting of arrays and objects read in a client message (an act is 2 deep)."""

PHASES = {DECLARE: "declare", PLAY: "play", WAITING: "round_over", OVER: "game_over"}
"""Engine phases in the protocol's words."""

ERROR_CODES = (
    "bad_json",
    "too_large",
    "bad_message",
    "unknown_type",
    "not_hello",
    "bad_token",
    "not_your_turn",
    "illegal",
    "spectator",
    "game_over",
    "flood",
    "not_found",
    "store_unavailable",
    "no_spectators",
    "not_creator",
    "closed",
    "hints_off",
    "busy",
    "too_many_connections",
    "seat_elsewhere",
    "pending",
    "stale",
)
RETRYABLE = frozenset({"store_unavailable", "pending"})
"""Codes that refuse a message only for now: sent again a little later, it may be taken."""


class ProtocolError(ValueError):
    """A client message the server will not act on; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """The ``error`` message sent to the one client at fault."""
        return error_json(self.code, self.message)


def error_json(code: str, message: str) -> dict[str, Any]:
    """An ``error`` message; a retryable refusal says so (``"retry": true``), so clients know to send again."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if code in RETRYABLE:
        out["retry"] = True
    return out


# --------------------------------------------------------------- client messages


class Message(BaseModel):
    """A client message: strict JSON types, no field the protocol does not name, read once and never changed.

    ``problems`` says, for each field, what is wrong when its value is not
    taken (``{value}`` is the value sent, shortened): the words of the error.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    problems: ClassVar[dict[str, str]] = {}


class Hello(Message):
    """The first message of every connection: a seat's token (or none, a spectator) and the last version held."""

    type: Literal["hello"] = "hello"
    token: Annotated[str, StringConstraints(min_length=1, max_length=256)] | None = None
    since: Annotated[int, Field(ge=0)] | None = None
    problems = {
        "token": 'hello\'s "token" is the string the server gave, or null',
        "since": 'hello\'s "since" is the last version you hold (a whole number), or null',
    }


def _action(value: object) -> Action:
    """An act's action: as the protocol writes it, or already an engine action (a message built in code)."""
    if isinstance(value, Play | Declare | Challenge):
        return value
    return action_from_json(value)


class Act(Message):
    """A decision for the connection's own seat; ``version`` is the table's version it was made at (its id), if sent."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    type: Literal["act"] = "act"
    action: Annotated[Action, PlainValidator(_action)]
    version: Annotated[int, Field(ge=0)] | None = None
    problems = {
        "action": 'an act message needs an "action", like {"play": "5o"}',
        "version": 'act\'s "version" is the version the decision was made at (a whole number), or null',
    }


class AutoDeclare(Message):
    """Ask the server to declare truthfully for this seat at the start of every deal."""

    type: Literal["auto_declare"] = "auto_declare"
    on: bool
    problems = {"on": 'auto_declare needs "on": true or false'}


class Rematch(Message):
    """Ask for a new game at the same table after game over (``on``), or take the request back (``on`` false)."""

    type: Literal["rematch"] = "rematch"
    on: bool = True
    problems = {"on": 'rematch\'s "on" is true (ask for another game) or false (take the request back)'}


class Ping(Message):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"] = "ping"


class Settings(Message):
    """The table's creator lists the table (``public``) or not, lets people without a seat watch or not,
    and lets the players ask for hints or not."""

    type: Literal["settings"] = "settings"
    public: bool | None = None
    spectators: bool | None = None
    hints: bool | None = None
    problems = {
        name: f'settings: "{name}" is true or false, not {{value}}' for name in ("public", "spectators", "hints")
    }

    @model_validator(mode="after")
    def _some_setting(self) -> Settings:
        if self.public is None and self.spectators is None and self.hints is None:
            raise ProtocolError("bad_message", 'settings needs "public", "spectators" or "hints": true or false')
        return self


class AskHint(Message):
    """A player asks for a hint on its decision now: the best options with their chances to win and points."""

    type: Literal["hint"] = "hint"


ClientMessage = Hello | Act | AutoDeclare | Rematch | Ping | Settings | AskHint
"""Every message a client may send, told apart by its ``type``."""

_KINDS = "hello, act, auto_declare, rematch, ping, settings, hint"
_WITH_FIELDS: tuple[type[Message], ...] = (Hello, Act, AutoDeclare, Rematch, Settings)
_PROBLEMS: dict[str, dict[str, str]] = {model.model_fields["type"].default: model.problems for model in _WITH_FIELDS}
"""Each message type's words for its fields' problems."""


_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(Annotated[ClientMessage, Field(discriminator="type")])
"""Reads a message and picks its model by ``type``, in one pass (pydantic-core)."""


def read_client_message(frame: str | bytes | None) -> ClientMessage:
    """One websocket frame as a client message; raises :class:`ProtocolError` naming what is wrong.

    The size and the depth of the text are checked before it is parsed; then
    one validation reads the JSON, picks the message's model by its ``type``
    and checks every field.

    >>> read_client_message('{"type": "hello", "token": null, "since": 12}')
    Hello(type='hello', token=None, since=12)
    """
    if not isinstance(frame, str):
        raise ProtocolError("bad_message", "messages are JSON text frames, not binary")
    if len(frame) > MAX_MESSAGE_BYTES or len(frame.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    if json_depth(frame, stop_above=MAX_MESSAGE_DEPTH) > MAX_MESSAGE_DEPTH:  # counted before parsing
        raise ProtocolError("bad_message", f"a message nests arrays and objects at most {MAX_MESSAGE_DEPTH} deep")
    try:
        return _MESSAGES.validate_json(frame)
    except ValidationError as error:
        raise _problem(error) from None


def _problem(error: ValidationError) -> ProtocolError:
    """The protocol's error for a message pydantic refused: the first problem, fields the protocol lacks first."""
    problems = error.errors(include_url=False)
    problems.sort(key=lambda p: p["type"] != "extra_forbidden")
    first = problems[0]
    kind, loc, ctx = first["type"], first["loc"], first.get("ctx") or {}
    if isinstance(ctx.get("error"), ProtocolError):  # an action, or settings without a setting
        problem: ProtocolError = ctx["error"]
        return problem
    if kind == "json_invalid":
        return ProtocolError("bad_json", "a message must be one JSON object")
    if kind == "dict_type":
        return ProtocolError("bad_message", 'a message must be a JSON object with a "type"')
    if kind == "union_tag_not_found" or (kind == "union_tag_invalid" and not isinstance(first["input"]["type"], str)):
        return ProtocolError("bad_message", f'a message needs a "type" ({_KINDS})')
    if kind == "union_tag_invalid":
        tag = str(ctx.get("tag", ""))
        shown = tag if len(tag) <= 40 else tag[:40] + "…"
        return ProtocolError("unknown_type", f"unknown message type {shown!r} ({_KINDS})")
    message_type = str(loc[0]) if loc else "message"
    field = str(loc[1]) if len(loc) > 1 else ""
    if kind == "extra_forbidden":
        return ProtocolError("bad_message", f"a {message_type} message has no field {_short(field)}")
    words = _PROBLEMS.get(message_type, {}).get(field)
    if words is None:
        return ProtocolError("bad_message", f"a {message_type} message is not as the protocol writes it")
    return ProtocolError("bad_message", words.replace("{value}", _short(first.get("input"))))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


# --------------------------------------------------------------------- actions


def action_from_json(data: object) -> Action:
    """An action as the protocol writes it (RECORD.md keys, no ``seat``); raises :class:`ProtocolError`.

    >>> action_from_json({"declare": "ronda"}), action_from_json({"challenge": 1})
    (Declare(declaration='ronda'), Challenge(target=1))
    """
    if not isinstance(data, dict) or len(data) != 1:
        raise ProtocolError("bad_message", 'an action is one of {"play": "5o"}, {"declare": "ronda"}, {"challenge": 1}')
    ((verb, value),) = data.items()
    if verb == "play":
        try:
            return PLAYS[parse_card(value)]
        except CardError:
            raise ProtocolError("bad_message", f"not a card: {_short(value)} (write rank then suit: 5o, 12e)") from None
    if verb == "declare":
        if not isinstance(value, str) or value not in DECLARES:
            raise ProtocolError(
                "bad_message", f"unknown declaration {_short(value)} (none, ronda, tringa, double_ronda)"
            )
        return DECLARES[value]
    if verb == "challenge":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(CHALLENGES):
            raise ProtocolError("bad_message", f"a challenge names the declarer's seat, not {_short(value)}")
        return CHALLENGES[value]
    raise ProtocolError("bad_message", f"unknown action {_short(verb)} (play, declare, challenge)")


def action_json(action: Action) -> dict[str, Any]:
    """An action as the protocol writes it: ``{"play": "5o"}``, ``{"declare": "none"}``, ``{"challenge": 1}``.

    >>> action_json(Play.parse("12e"))
    {'play': '12e'}
    """
    if isinstance(action, Play):
        return {"play": card_name(action.card)}
    if isinstance(action, Declare):
        return {"declare": action.declaration}
    assert isinstance(action, Challenge)
    return {"challenge": action.target}


# ----------------------------------------------------------------------- views


@functools.lru_cache(maxsize=256)
def changed_from_preset(rules: Rules, preset: str | None) -> dict[str, Any]:
    """The rules that differ from the preset's own (the target aside: it is shown on its own).

    The table list and the invite page say "Classic · ace high" from this, so a
    friend knows the house rules before taking a seat. Without a known preset,
    every rule that differs from the defaults. Every table summary carries it,
    so it is made once per rules and preset, and shared: callers must not change it.

    >>> changed_from_preset(Rules(players=2, ace_high=True, target=25), "classic")
    {'ace_high': True}
    >>> changed_from_preset(Rules(players=2, target=25), "advanced")
    {'dealer_duty': False}
    """
    try:
        base = preset_rules(preset, rules.players) if preset else Rules(players=rules.players)
    except RulesError:
        base = Rules(players=rules.players)
    mine, theirs = rules_json(rules), rules_json(base)
    return {name: value for name, value in mine.items() if name != "target" and value != theirs[name]}


@functools.lru_cache(maxsize=256)
def rules_json(rules: Rules) -> dict[str, Any]:
    """Every rule by its R10 name, defaults included, so the page never has to know the defaults.

    Rules are immutable and every view carries them, so the answer is made once per rules;
    it is shared: callers must not change it.

    >>> rules_json(Rules(players=3))["target"]
    41
    """
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def _names(cards: CardSet) -> list[str]:
    return cards.names()


def view_json(view: SeatView, challengeable: Iterable[int] = ()) -> dict[str, Any]:
    """The VIEW of the protocol for one seat: its own hand and the public facts (R11), nothing else.

    Two fields are worked out from this seat's view alone, by the engine's one
    combination detector (:meth:`~ronda.engine.view.SeatView.possible_kinds`),
    so the page never detects combinations itself: ``combination``, during the
    declarations, what the seat's own hand holds (the truthful declaration);
    and ``proven``, for each seat this seat may challenge now
    (``challengeable``, from its legal actions), ``"true"`` when this seat's
    view proves that declaration true (a challenge could only fail, and lose
    the game, R8.8), ``"false"`` when it proves it false, else null: the
    verdicts of :func:`~ronda.presentation.challenge.challenge_options`, by
    which the terminal offers its challenges. Both are worked out only where
    the page uses them: they cost a search of the hands a seat may hold.

    >>> game = Game(Rules(players=2), seed=2)
    >>> mine = view_json(game.view(0))
    >>> len(mine["hand"]), mine["hand_sizes"], mine["phase"], mine["combination"], mine["proven"]
    (3, [3, 3], 'declare', 'ronda', [None, None])
    """
    out = _view(view, view.seat)
    out["combination"] = next(iter(view.possible_kinds(view.seat))) if view.phase == DECLARE else None
    options = challenge_options(view, (Challenge(seat) for seat in set(challengeable)))
    verdicts = {option.target: _PROVEN[option.verdict] for option in options}
    out["proven"] = [verdicts.get(seat) for seat in range(view.rules.players)]
    return out


_PROVEN: dict[Verdict, str | None] = {"proven_true": "true", "proven_false": "false", "open": None}
"""The shared judgement's verdict (:func:`~ronda.presentation.challenge.challenge_options`, the terminal's too) as
the protocol's ``proven``."""


def public_view_json(game: Game) -> dict[str, Any]:
    """The spectator's VIEW: every public fact, ``seat``/``side`` null and no hand at all.

    ``combination`` and ``proven`` are null: a spectator's view holds no hand to reason from.

    >>> spectator = public_view_json(Game(Rules(players=2), seed=1))
    >>> spectator["hand"], spectator["combination"], spectator["proven"]
    ([], None, [None, None])
    """
    out = _view(game.view(0), None)
    out["combination"] = None
    out["proven"] = [None] * out["players"]
    return out


def _view(view: SeatView, seat: int | None) -> dict[str, Any]:
    rules = view.rules
    chain = view.chain
    over = view.phase == OVER
    return {
        "seat": seat,
        "side": None if seat is None else rules.side_of(seat),
        "players": rules.players,
        "rules": rules_json(rules),
        "phase": PHASES.get(view.phase, view.phase),
        "turn": None if over else view.turn,
        "dealer": view.dealer,
        "round": view.round,
        "deal": view.deal,
        "deals_in_round": view.deals_in_round,
        "hand": [] if seat is None else _names(view.hand),
        "table": _names(view.table),
        "hand_sizes": list(view.hand_sizes),
        "pile_sizes": list(view.pile_sizes),
        "stock": view.stock,
        "scores": list(view.scores),
        "target": rules.target,
        "declarations": list(view.declarations),
        "exposed": list(view.exposed),
        "shown": [None if shown is None else _names(shown) for shown in view.shown],
        "chain": None
        if chain is None
        else {"rank": RANKS[chain.rank], "cards": _names(chain.cards), "count": chain.count, "side": chain.side},
        "last_drop": None if view.last_drop is None else card_name(view.last_drop),
        "winner": view.winner,
        "debts": [list(row) for row in view.debts],
    }


def legal_json(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The legal actions of ``seat`` now; empty when the decision is not this seat's (or for a spectator)."""
    if seat is None:
        return []
    view = game.view(seat)
    if view.phase not in (DECLARE, PLAY) or view.turn != seat:
        return []
    return [action_json(action) for action in game.legal_actions()]


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON text of one server message."""
    return json.dumps(message, separators=(",", ":"))
