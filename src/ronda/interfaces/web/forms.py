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
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import icu

from ...bots import levels
from ...engine.errors import RondaError
from ...engine.presets import PRESETS, preset_rules
from ...engine.rules import Rules

MAX_NAME = 24
MAX_BODY_BYTES = 16 * 1024


_RESERVED_WORDS = (
    "bot", "bots", "robot", "robots", "computer", "computers", "ordinateur", "ordinateurs", "cpu", "ai", "ia",
    "seat", "place", "player", "joueur", "joueuse", "you", "vous", "toi", "moi", "me", "us", "them", "nous", "eux",
    "server", "serveur", "admin", "الحاسوب", "حاسوب", "المقعد", "مقعد", "اللاعب", "أنت", "انت", "نحن", "هم",
)  # fmt: skip
"""What the page calls bots, seats and the reader ("Bot 2", "Robot 2", "الحاسوب 2", "Seat 3", "You"), and roles."""
_BOT_WORDS = ("bot", "robot", "الحاسوب")
_DIGITS = (
    "0123456789"
    "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"
    "\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9"
)
_SPOOF = icu.SpoofChecker()
"""ICU's UTS #39 spoof checker: its skeletons map every look-alike character to one prototype."""


def _invisible(ch: str) -> bool:
    """A control, format or unassigned character, or one Unicode says to draw as nothing (U+3164, U+034F...)."""
    return unicodedata.category(ch)[0] == "C" or bool(
        icu.Char.hasBinaryProperty(ord(ch), icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)
    )


def _skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` (from ICU), compatibility-normalised, case-folded, without invisibles."""
    skeleton = unicodedata.normalize("NFKC", _SPOOF.getSkeleton(0, text)).casefold()
    return " ".join("".join(ch for ch in skeleton if not _invisible(ch)).split())


def name_keys(name: str) -> frozenset[str]:
    """A name as compared with others: two names that share a key look alike on the page.

    A key is the name's confusable skeleton (Unicode's UTS #39, from ICU) after
    NFKC and case folding, folded again, invisible characters dropped and
    spaces collapsed: "Bot 2" with a Cyrillic o (U+043E), with a full-width B,
    "B0T 2" and "bot 2" share the key of "Bot 2". Case folding first makes
    "AMINA" and "Amina" one name, but turns a Greek capital Beta into a small
    beta, which looks like no Latin letter: so the skeleton of the name as
    written is a second key ("Bot 2" with a Greek Beta looks like "Bot 2").

    >>> names = ("Bot 2", "B\u043et 2", "\u0392ot 2", "\uff22ot 2", "  B0T   2 ", "b\u200dot 2", "\u0392\u039f\u03a4 2")
    >>> all(name_keys(n) & name_keys("Bot 2") for n in names)
    True
    >>> bool(name_keys("AMINA") & name_keys("Amina")), bool(name_keys("Amina") & name_keys("Youssef"))
    (True, False)
    """
    written = unicodedata.normalize("NFKC", name)
    return frozenset({_skeleton(written.casefold()), _skeleton(written)})


def _alternatives(words: Iterable[str]) -> str:
    """A regex alternation of the keys of ``words``, longest first (so "bots" is tried before "bot")."""
    keys = {key for word in words for key in name_keys(word)}
    return "|".join(re.escape(key) for key in sorted(keys, key=len, reverse=True))


_RESERVED = re.compile(
    rf"^(?:{_alternatives(_RESERVED_WORDS)})(?:\s*(?:{_alternatives('#')})?\s*(?:{_alternatives(_DIGITS)}){{0,3}})$"
)
_BOT_WORD = re.compile(rf"(?:^|[^\w])(?:{_alternatives(_BOT_WORDS)})(?:$|[^\w])")


def impersonates(name: str, levels: list[str]) -> bool:
    """Whether a person's name could pass for a bot, a seat's label or the reader ("Bot 2", "Seat 3", "You").

    The page names bot seats "Bot 2" ("Robot 2", "الحاسوب 2") and free seats
    "Seat 2", and calls the reader "You": a person may take none of these,
    nor anything that looks like one (compared by :func:`name_keys`).

    >>> [impersonates(n, ["easy", "medium"]) for n in ("Bot 2", "medium bot", "Seat 3", "You", "Robotnik", "Amina")]
    [True, True, True, True, False, False]
    >>> lookalikes = ("B\u043et 2", "\u0392\u039f\u03a4 2", "\uff22\uff4f\uff54 \uff12", "Bot 1", "Bot l")
    >>> [impersonates(n, ["easy"]) for n in lookalikes]
    [True, True, True, True, True]
    """
    keys = name_keys(name)
    if any(_RESERVED.match(key) or _BOT_WORD.search(key) for key in keys):
        return True
    return any(keys & name_keys(level) for level in levels)


def check_name(name: str, others: Iterable[str], levels: list[str]) -> None:
    """Refuse a name a person could not be told apart by: a bot's or a seat's label, or another name at the table.

    Raises :class:`HttpError` (400 ``bad_request`` or 409 ``name_taken``), naming the name it looks like.

    >>> check_name("\u0391mina", ["Amina"], [])  # a Greek capital Alpha
    Traceback (most recent call last):
    ...
    ronda.interfaces.web.forms.HttpError: someone at this table is already called 'Amina', and ...: choose another name
    """
    if impersonates(name, levels):
        raise HttpError(400, "bad_request", f"{name!r} could be taken for a bot or a seat: choose another name")
    keys = name_keys(name)
    for other in others:
        if keys & name_keys(other):
            looks = "" if other == name else f", and {name!r} looks the same"
            raise HttpError(
                409, "name_taken", f"someone at this table is already called {other!r}{looks}: choose another name"
            )


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
    if seats[me].name is not None:
        check_name(name, (), levels())
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
    """A player's name: trimmed, without invisible characters (zero-width joiners, fillers), 1 to 24 characters."""
    if not isinstance(raw, str):
        raise bad(f"a player's name is text, not {raw!r}")
    name = "".join(ch for ch in raw if not _invisible(ch)).strip()
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
