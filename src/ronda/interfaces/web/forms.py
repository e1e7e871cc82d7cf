"""What the HTTP API accepts: a new table, a join. Every bad field becomes a 4xx naming the problem.

Bodies are read by hand rather than by a schema library so that every error
has the protocol's shape (``{"error": {"code", "message"}}``) and says in
plain words which field is wrong and what would be right.

>>> spec = read_table_spec({"players": 2, "seats": [{"kind": "human", "name": "Amina"},
...                                                  {"kind": "bot", "level": "easy"}]})
>>> spec.rules.players, spec.me, [s.kind for s in spec.seats]
(2, 0, ['human', 'bot'])
>>> read_join({"name": "  "})
Traceback (most recent call last):
...
ronda.interfaces.web.forms.HttpError: a player's name is 1 to 24 letters, not '  '
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ...bots import levels
from ...engine.errors import RondaError
from ...engine.presets import PRESETS, preset_rules
from ...engine.rules import Rules

MAX_NAME = 24
MAX_BODY_BYTES = 16 * 1024


_RESERVED = re.compile(
    r"^(?:bots?|robots?|computers?|ordinateurs?|cpu|ai|ia|seat|place|player|joueur|joueuse|"
    r"you|vous|toi|moi|me|us|them|nous|eux|server|serveur|admin|"
    r"الحاسوب|حاسوب|المقعد|مقعد|اللاعب|أنت|انت|نحن|هم)"
    r"(?:\s*#?\s*\d{0,3})$"
)
_BOT_WORD = re.compile(r"(?:^|[^\w])(?:bot|robot|الحاسوب)(?:$|[^\w])")


def name_key(name: str) -> str:
    """A name as compared with others: compatibility-normalised, case-folded, spaces collapsed.

    >>> name_key("  \uff22ot   2 ") == name_key("bot 2")  # a full-width B
    True
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(folded.split())


def impersonates(name: str, levels: list[str]) -> bool:
    """Whether a person's name could pass for a bot, a seat's label or the reader ("Bot 2", "Seat 3", "You").

    The page names bot seats "Bot 2" ("Robot 2", "الحاسوب 2") and free seats
    "Seat 2", and calls the reader "You": a person may take none of these.

    >>> [impersonates(n, ["easy", "medium"]) for n in ("Bot 2", "medium bot", "Seat 3", "You", "Robotnik", "Amina")]
    [True, True, True, True, False, False]
    """
    key = name_key(name)
    if _RESERVED.match(key) or _BOT_WORD.search(key):
        return True
    return key in {name_key(level) for level in levels}


class HttpError(Exception):
    """An HTTP answer other than success: ``status`` 4xx, a protocol error ``code`` and a plain-words message."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def bad(message: str) -> HttpError:
    return HttpError(400, "bad_request", message)


@dataclass(frozen=True)
class SeatSpec:
    """A seat as the table's creator chose it: a person (``name`` only for the creator) or a bot of ``level``."""

    kind: str
    name: str | None = None
    level: str | None = None


@dataclass(frozen=True)
class TableSpec:
    """A table to create: its rules, preset name, seats, and the creator's seat ``me``."""

    rules: Rules
    preset: str
    seats: tuple[SeatSpec, ...]
    me: int
    public: bool = False
    spectators: bool = True
    hints: bool = False
    """Whether the players may ask for hints (ronda.analysis): on at tables with a bot, off among people only."""


def read_table_spec(body: object) -> TableSpec:
    """The body of ``POST /api/tables``, checked; raises :class:`HttpError` (400) naming the first problem."""
    if not isinstance(body, dict):
        raise bad("the body must be a JSON object")
    known = {"players", "preset", "variants", "target", "seats", "me", "public", "spectators", "hints"}
    extra = sorted(set(body) - known)
    if extra:
        raise bad(f"unknown field {extra[0]!r} (fields: {', '.join(sorted(known))})")
    players = body.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
        raise bad(f"players must be 2, 3 or 4, not {players!r}")
    preset = body.get("preset", "classic")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise bad(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    variants = body.get("variants")
    if variants is None:
        variants = {}
    if not isinstance(variants, dict):
        raise bad('variants must be an object like {"dealer_duty": true}')
    if "players" in variants:
        raise bad('the number of players is "players", not a variant')
    variants = dict(variants)
    target = body.get("target")
    if target is not None:
        variants["target"] = target
    try:
        rules = preset_rules(preset, players, **(variants or {}))
    except RondaError as error:
        raise bad(str(error)) from None
    except TypeError as error:  # a value of a type Rules cannot take
        raise bad(f"bad variants: {error}") from None
    seats = _read_seats(body.get("seats"), players)
    me = body.get("me")
    humans = [i for i, s in enumerate(seats) if s.kind == "human"]
    if me is None:
        me = humans[0]
    if not isinstance(me, int) or isinstance(me, bool) or not 0 <= me < players:
        raise bad(f"me is your seat, from 0 to {players - 1}, not {me!r}")
    if seats[me].kind != "human":
        raise bad(f"me is the seat you take, and seat {me} is a bot")
    name = read_name(seats[me].name) if seats[me].name is not None else f"Player {me + 1}"
    if seats[me].name is not None and impersonates(name, levels()):
        raise bad(f"{name!r} could be taken for a bot or a seat: choose another name")
    creator = SeatSpec("human", name)
    seats = (*seats[:me], creator, *seats[me + 1 :])
    access = {}
    # Hints help whoever asks: welcome against the computer, and off by default where people play each other.
    with_bots = any(s.kind == "bot" for s in seats)
    for flag, default in (("public", False), ("spectators", True), ("hints", with_bots)):
        value = body.get(flag, default)
        if not isinstance(value, bool):
            raise bad(f"{flag} is true or false, not {value!r}")
        access[flag] = value
    return TableSpec(rules, preset, seats, me, **access)


def _read_seats(raw: object, players: int) -> tuple[SeatSpec, ...]:
    if raw is None:
        return (SeatSpec("human"), *tuple(SeatSpec("bot", level="medium") for _ in range(players - 1)))
    if not isinstance(raw, list) or len(raw) != players:
        raise bad(f"seats must be a list of {players} seats, one per player")
    known_levels = levels()
    out: list[SeatSpec] = []
    for index, seat in enumerate(raw):
        if not isinstance(seat, dict):
            raise bad(
                f'seat {index} must be an object like {{"kind": "human"}} or {{"kind": "bot", "level": "medium"}}'
            )
        extra = sorted(set(seat) - {"kind", "name", "level"})
        if extra:
            raise bad(f"seat {index} has an unknown field {extra[0]!r} (kind, name, level)")
        kind = seat.get("kind")
        if kind == "human":
            name = seat.get("name")
            if name is not None and not isinstance(name, str):
                raise bad(f"seat {index}: a name is text, not {name!r}")
            out.append(SeatSpec("human", name))
        elif kind == "bot":
            level = seat.get("level", "medium")
            if level not in known_levels:
                raise bad(f"seat {index}: unknown bot level {level!r} (known: {', '.join(known_levels)})")
            out.append(SeatSpec("bot", level=level))
        else:
            raise bad(f'seat {index}: kind must be "human" or "bot", not {kind!r}')
    if not any(s.kind == "human" for s in out):
        raise bad("at least one seat must be a person's: yours")
    return tuple(out)


def read_name(raw: object) -> str:
    """A player's name: trimmed, printable, 1 to 24 characters."""
    if not isinstance(raw, str):
        raise bad(f"a player's name is text, not {raw!r}")
    name = "".join(ch for ch in raw if unicodedata.category(ch)[0] != "C").strip()
    if not 0 < len(name) <= MAX_NAME:
        shown = raw if len(raw) <= 40 else raw[:40] + "…"
        raise bad(f"a player's name is 1 to {MAX_NAME} letters, not {shown!r}")
    return name


@dataclass(frozen=True)
class JoinSpec:
    """The body of ``POST /api/tables/{id}/join``: a name and, optionally, which seat."""

    name: str
    seat: int | None


def read_join(body: object) -> JoinSpec:
    """The body of a join, checked; raises :class:`HttpError` (400) naming the problem."""
    if not isinstance(body, dict):
        raise bad('the body must be a JSON object like {"name": "Youssef"}')
    extra = sorted(set(body) - {"name", "seat"})
    if extra:
        raise bad(f"unknown field {extra[0]!r} (name, seat)")
    if "name" not in body:
        raise bad('a join needs your "name"')
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise bad(f"seat must be a seat number, not {seat!r}")
    return JoinSpec(read_name(body["name"]), seat)
