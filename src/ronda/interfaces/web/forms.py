"""What the HTTP API accepts: a new table, a join. Every bad field becomes a 4xx naming the problem.

A body's shape is a pydantic model (:class:`TableBody`, :class:`JoinBody`:
strict JSON types, no unknown field); what the shape cannot say (a known
preset, rules that hold together, a name) is checked after. Every error has
the protocol's shape (``{"error": {"code", "message"}}``) and says in plain
words which field is wrong and what would be right.

>>> spec = read_table_spec({"players": 2, "seats": [{"kind": "human", "name": "Amina"},
...                                                  {"kind": "bot", "level": "easy"}]})
>>> spec.rules.players, spec.me, [s.kind for s in spec.seats]
(2, 0, ['human', 'bot'])
>>> read_join({"name": "  "})
Traceback (most recent call last):
...
ronda.interfaces.web.forms.HttpError: type a name: 1 to 24 letters (spaces alone show nothing)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeVar

import icu
from pydantic import BaseModel, ConfigDict, Field, ValidationError

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


_BLANKS = frozenset("\u2800\U0001d159\u303f\ufffc")
"""Characters drawn as nothing (or as an empty box) in most fonts that Unicode does not call ignorable: the
Braille pattern blank U+2800, the musical null notehead U+1D159, the ideographic half fill space U+303F and the
object replacement character U+FFFC (symbols all): "You" followed by one of them looked like "You"."""

_STRETCH = frozenset("\u0640")
"""The Arabic tatweel (kashida): a letter that only stretches the line joining two letters, so "محـمد" is drawn
as "محمد" drawn wider, and "Boـt 2" as "Bot 2" with a dash. Kept in the name shown (it is how some write),
folded out of the look-alike keys, and no visible character: a name of tatweel alone is a line, not a name."""


_BREAKS = frozenset("\u2028\u2029")
"""The line and paragraph separators (categories Zl and Zp, the only characters in them): not C, so not dropped as
controls were, yet drawn as nothing inside a line of the page. Read as spaces by the look-alike keys, they let
"Yas\u2029mina", drawn exactly as "Yasmina", be kept beside it; dropped instead, it is "Yasmina", and refused."""


def _invisible(ch: str) -> bool:
    """A control, format or unassigned character, a line or paragraph separator, or one drawn as nothing (U+3164,
    U+034F, U+2800, U+FFFC...)."""
    return (
        unicodedata.category(ch)[0] == "C"
        or ch in _BREAKS
        or ch in _BLANKS
        or bool(icu.Char.hasBinaryProperty(ord(ch), icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))
    )


def _skeleton(text: str, stretched: bool = False) -> str:
    """The UTS #39 skeleton of ``text`` (from ICU), compatibility-normalised, case-folded, without invisibles
    or tatweel (:data:`_STRETCH`; kept if ``stretched``, as keys were made before it was folded)."""
    skeleton = unicodedata.normalize("NFKC", _SPOOF.getSkeleton(0, text)).casefold()
    kept = (ch for ch in skeleton if not _invisible(ch) and (stretched or ch not in _STRETCH))
    return " ".join("".join(kept).split())


def _bare(key: str) -> str:
    """A key without its combining marks: "Amina" with a dot below or above any letter looks like "Amina"."""
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", key) if not _mark(ch)))


def _mark(ch: str) -> bool:
    """A combining mark drawn over or under a letter (Mn, Me), easily missed: a spacing mark (Mc, the Devanagari
    vowel sign in "\u0930\u093e\u092e") takes its own room on the page, so "\u0930\u092e" is another name."""
    return unicodedata.category(ch) in ("Mn", "Me")


def _unseen(ch: str) -> bool:
    """A character that is no name on its own: a space, a tatweel, or any combining mark, spacing ones (Mc: "\u0903",
    "\ua9bf") included, which only ever sits on a letter: alone it is drawn on a dotted circle, or on nothing."""
    return ch.isspace() or unicodedata.category(ch)[0] == "M" or ch in _STRETCH


def name_keys(name: str) -> frozenset[str]:
    """A name as compared with others: two names that share a key look alike on the page.

    A key is the name's confusable skeleton (Unicode's UTS #39, from ICU) after
    NFKC and case folding, folded again, invisible characters dropped and
    spaces collapsed: "Bot 2" with a Cyrillic o (U+043E), with a full-width B,
    "B0T 2" and "bot 2" share the key of "Bot 2". Case folding first makes
    "AMINA" and "Amina" one name, but turns a Greek capital Beta into a small
    beta, which looks like no Latin letter: so the skeleton of the name as
    written is a second key ("Bot 2" with a Greek Beta looks like "Bot 2").
    A third key drops the combining marks: a dot or a hook over a letter is
    easily missed, and combining marks stack on any letter ("Amina" with a
    dot below). Names kept before that key existed are stored without it, so
    a new name is still compared by the first two as well. Tatweels are
    folded out of every key; a name with one has a fourth key keeping them,
    as its first key was before they were folded, so that a name kept then
    ("محـمد") is still nobody else's.

    >>> names = ("Bot 2", "B\u043et 2", "\u0392ot 2", "\uff22ot 2", "  B0T   2 ", "b\u200dot 2", "\u0392\u039f\u03a4 2")
    >>> all(name_keys(n) & name_keys("Bot 2") for n in names)
    True
    >>> bool(name_keys("AMINA") & name_keys("Amina")), bool(name_keys("Amina") & name_keys("Youssef"))
    (True, False)
    >>> all(name_keys(n) & name_keys("Amina") for n in ("Ami\u0307na", "Amina\u0323", "Amina\u20d0", "Amina\u2800"))
    True
    """
    written = unicodedata.normalize("NFKC", name)
    folded = _skeleton(written.casefold())
    bare = _bare(_skeleton(_bare(written).casefold()))  # marks off before folding: U+0345 folds to an iota
    keys = {folded, _skeleton(written), bare}
    if any(ch in _STRETCH for ch in written):
        keys.add(_skeleton(written.casefold(), stretched=True))
    return frozenset(keys)


def _compact(key: str) -> str:
    """A look-alike key with every character that is neither a letter nor a digit dropped, spaces included.

    Punctuation and separators do not hide a word on the page: "Seat-2", "Seat: 2", "(You)", "You!", "B o t 2",
    "Hard." read as "Seat 2", "You", "Bot 2", "Hard". Compared whole, so a name with such a word inside
    another ("Robotnik", "Youssef") is not touched.
    """
    return "".join(ch for ch in key if ch.isalnum())


def _alternatives(words: Iterable[str], compact: bool = False) -> str:
    """A regex alternation of the keys of ``words`` (:func:`_compact` ones if ``compact``), longest first (so "bots"
    is tried before "bot")."""
    keys = {_compact(key) if compact else key for word in words for key in name_keys(word)} - {""}
    return "|".join(re.escape(key) for key in sorted(keys, key=len, reverse=True))


_RESERVED = re.compile(rf"^(?:{_alternatives(_RESERVED_WORDS, True)})(?:{_alternatives(_DIGITS, True)}){{0,3}}$")
"""A reserved word and up to three digits, on a :func:`_compact` key: "Seat 2", "Seat #2", "Seat-2", "Player-1",
"(You)", "You (2)", "B o t 2"."""
_BOT_WORD = re.compile(rf"(?:^|[\W_])(?:{_alternatives(_BOT_WORDS)})(?:$|[\W_])")
_GUEST = re.compile(
    rf"^(?:{_alternatives(['guest'], True)})"
    rf"(?:(?:{_alternatives(_DIGITS, True)})*|(?:{_alternatives('0123456789abcdef', True)}){{1,4}})$"
)
"""Play now's names for a nameless person, on a :func:`_compact` key: "Guest" and digits, or four hex digits
(``routes/pairing.py``): "Guest 1", "Guest ab12", "Guest #1", "Guest-1"."""


def _compacts(keys: Iterable[str]) -> set[str]:
    return {_compact(key) for key in keys}


def looks_like_guest(name: str) -> bool:
    """Whether ``name`` could pass for what play now calls a person who gave no name ("Guest 2", "Guest ab12"): no
    player may keep it, or a kept name would stand on the leaderboard for whoever sat down nameless.

    Compared by :func:`name_keys`, digits included: a key folds the digit 1 into the letter l, so a pattern of
    ASCII digits alone let "Guest 1", play now's name for its first nameless seat, be kept. Punctuation and
    spaces are no difference (:func:`_compact`): "Guest-1", "Guest #1".

    >>> [looks_like_guest(n) for n in ("Guest 1", "guest 0", "Guest l", "GUEST", "Gu\u0435st 3", "Guestan", "Amina")]
    [True, True, True, True, True, False, False]
    >>> [looks_like_guest(n) for n in ("Guest ab12", "Guest #1", "Guest-1", "(Guest 2)", "Guest Amina", "Guests")]
    [True, True, True, True, False, False]
    """
    return any(_GUEST.match(key) for key in _compacts(name_keys(name)))


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
    >>> punctuated = ("Seat-2", "Seat_2", "Seat: 2", "Player-1", "You!", "(You)", "You (2)", "B o t 2", "Easy.")
    >>> [impersonates(n, ["easy"]) for n in punctuated]
    [True, True, True, True, True, True, True, True, True]
    >>> [impersonates(n, ["easy"]) for n in ("Youssef", "Botagoz", "Seattle", "Mé-Lou", "Easygoing")]
    [False, False, False, False, False]
    """
    keys = name_keys(name)
    compact = _compacts(keys)
    if any(_BOT_WORD.search(key) for key in keys) or any(_RESERVED.match(key) for key in compact):
        return True
    return any(compact & _compacts(name_keys(level)) for level in levels)


def check_name(name: str, others: Iterable[str], levels: list[str]) -> None:
    """Refuse a name a person could not be told apart by: a bot's or a seat's label, or another name at the table.

    Raises :class:`HttpError` (400 ``bad_request`` or 409 ``name_taken``), naming the name it looks like; its
    ``reason`` (``name_like_bot``, ``name_at_table``, ``name_like_at_table``) and parameters let a page say it in
    its own language.

    >>> check_name("\u0391mina", ["Amina"], [])  # a Greek capital Alpha
    Traceback (most recent call last):
    ...
    ronda.interfaces.web.forms.HttpError: someone at this table is already called 'Amina', and ... choose another name
    >>> try:
    ...     check_name("Bot 2", [], [])
    ... except HttpError as error:
    ...     error.to_json()
    {'error': {'code': 'bad_request', 'message': "'Bot 2' could be taken for a bot or a seat: choose another name", \
'reason': 'name_like_bot', 'name': 'Bot 2'}}
    """
    if impersonates(name, levels):
        raise HttpError(
            400,
            "bad_request",
            f"{name!r} could be taken for a bot or a seat: choose another name",
            reason="name_like_bot",
            params={"name": name},
        )
    keys = name_keys(name)
    for other in others:
        if keys & name_keys(other):
            raise name_taken(other, name, "table")


NAME_REASONS = {
    "name_not_text": "a name that is not text (400)",
    "name_empty": "nothing seen: empty, or spaces, marks and tatweels alone (400; ``max``)",
    "name_too_long": "more than 24 characters (400; ``name``, ``length``, ``max``)",
    "name_like_bot": "could pass for a bot, a seat's label or the reader (400; ``name``)",
    "name_like_guest": 'could pass for play now\'s "Guest N" (400; ``name``)',
    "name_rude": "holds an insult or a slur of the server's list (400; ``name``; :mod:`.rude`)",
    "name_at_table": "someone at this table has this name (409 ``name_taken``; ``name``, ``held``)",
    "name_like_at_table": "someone at this table has a name looking the same (409 ``name_taken``; ``name``, ``held``)",
    "name_on_server": "a player on this server keeps this name (409 ``name_taken``; ``name``, ``held``)",
    "name_like_on_server": "a player keeps a name that looks the same (409 ``name_taken``; ``name``, ``held``)",
    "name_just_taken": "a player took a name like it while this one was being made (409 ``name_taken``; ``name``)",
}
"""Every refusal of a name, by its ``reason`` (docs/web-protocol.md, "Names refused"): what it means, its status and
code, and the parameters the error carries beside ``message``."""


def name_taken(held: str, name: str, where: Literal["table", "server"]) -> HttpError:
    """The 409 ``name_taken`` for ``name`` when someone at the table, or a player of the server, is called ``held``.

    A name that only looks like the one held ("José" beside "Jose", "AMINA" beside "Amina") is a different
    name to the person typing it: the words say the two look the same and how to be told apart, not just "taken".
    Its ``reason`` is ``name_at_table`` or ``name_on_server`` for the same name, ``name_like_at_table`` or
    ``name_like_on_server`` for one that looks the same; ``name`` and ``held`` are its parameters.

    >>> name_taken("Jose", "Jos\u00e9", "table").message  # doctest: +NORMALIZE_WHITESPACE
    "someone at this table is already called 'Jose', and 'José' looks the same: a name this similar is taken;
    add something to tell you apart (an initial, a surname) or choose another name"
    >>> taken = name_taken("Amina", "Amina", "server")
    >>> taken.message, taken.reason, taken.params
    ("a player on this server is already called 'Amina': choose another name", 'name_on_server', \
{'name': 'Amina', 'held': 'Amina'})
    """
    who = "someone at this table" if where == "table" else "a player on this server"
    place = "at_table" if where == "table" else "on_server"
    params: dict[str, str | int] = {"name": name, "held": held}
    if held == name:
        return HttpError(
            409,
            "name_taken",
            f"{who} is already called {held!r}: choose another name",
            reason=f"name_{place}",
            params=params,
        )
    return HttpError(
        409,
        "name_taken",
        f"{who} is already called {held!r}, and {name!r} looks the same: a name this similar is taken; "
        "add something to tell you apart (an initial, a surname) or choose another name",
        reason=f"name_like_{place}",
        params=params,
    )


class HttpError(Exception):
    """An HTTP answer other than success: ``status`` 4xx, a protocol error ``code`` and a plain-words message.

    A refusal a page words in its own language has a ``reason`` too (a finer code: :data:`NAME_REASONS`) and the
    ``params`` its sentence needs (the name tried, the name it looks like), sent beside ``message`` in the JSON.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        retry_after: int | None = None,
        *,
        reason: str | None = None,
        params: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.reason = reason
        self.params = dict(params or {})

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            error.update({"reason": self.reason, **self.params})
        return {"error": error}


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
    keep: bool = False
    """Whether the creator's name, typed in this request, becomes their kept name (docs/server.md, "Identity")."""


class Body(BaseModel):
    """A request body's shape: strict JSON types and no field the API does not name.

    ``problems`` holds, for each field, the words of the error when its value
    is not taken; ``{value}`` is the value sent, ``{index}`` a seat's number
    and ``{players}`` the players asked for.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    problems: ClassVar[dict[str, str]] = {}
    unknown: ClassVar[str] = "unknown field {field}"
    """The words for a field the API does not name."""


class SeatBody(Body):
    """One seat of ``POST /api/tables``: ``{"kind": "human", "name": ...}`` or ``{"kind": "bot", "level": ...}``."""

    kind: Literal["human", "bot"]
    name: str | None = None
    level: str = "medium"
    problems = {
        "": 'seat {index} must be an object like {"kind": "human"} or {"kind": "bot", "level": "medium"}',
        "kind": 'seat {index}: kind must be "human" or "bot", not {value}',
        "name": "seat {index}: a name is text, not {value}",
        "level": "seat {index}: unknown bot level {value} (known: {levels})",
    }
    unknown = "seat {index} has an unknown field {field} (kind, name, level)"


class TableBody(Body):
    """The body of ``POST /api/tables``: what it may hold, each field of its JSON type."""

    players: int = 2
    preset: str = "classic"
    variants: dict[str, Any] | None = None
    target: Any = None
    """Checked by the rules, as every variant is."""
    seats: list[SeatBody] | None = None
    me: int | None = None
    public: bool = False
    spectators: bool = True
    hints: bool | None = None
    """Default (left out, not null): on at tables with a bot."""
    keep: bool = True
    """Whether a name typed by someone who keeps none becomes theirs (false: this table's name only)."""
    problems = {
        "": "the body must be a JSON object",
        "players": "players must be 2, 3 or 4, not {value}",
        "preset": "unknown preset {value} (known: {presets})",
        "variants": 'variants must be an object like {"dealer_duty": true}',
        "seats": "seats must be a list of {players} seats, one per player",
        "me": "me is your seat, from 0 to {last}, not {value}",
        "public": "public is true or false, not {value}",
        "spectators": "spectators is true or false, not {value}",
        "hints": "hints is true or false, not {value}",
        "keep": "keep is true or false, not {value}",
    }
    unknown = (
        "unknown field {field} (fields: hints, keep, me, players, preset, public, seats, spectators, target, variants)"
    )


class JoinBody(Body):
    """The body of ``POST /api/tables/{id}/join``: a name (unless the browser keeps one) and, optionally, which seat."""

    name: Any = None
    """Read by :func:`read_name`, whose words say what a name may be; left out (or null) by a browser keeping a name,
    as create's is: that name is the seat's whatever is typed, and a join that must type one is told so
    (:data:`NAME_NEEDED`)."""
    seat: Annotated[int, Field(ge=0)] | None = None
    keep: bool = True
    """Whether the name becomes the joiner's kept name, when they keep none yet (false: this table's name only)."""
    problems = {
        "": 'the body must be a JSON object like {"name": "Youssef"}',
        "name": "a player's name is text, not {value}",
        "seat": "seat must be a seat number, not {value}",
        "keep": "keep is true or false, not {value}",
    }
    unknown = "unknown field {field} (keep, name, seat)"


class PlayBody(Body):
    """The body of ``POST /api/play``: the game wanted, the name to sit under, and bots after a wait (or never)."""

    players: int = 2
    preset: str = "classic"
    name: Any = None
    """Read by :func:`read_name`; left out: "Guest N" by seat."""
    bots_after: float | None = None
    """Seconds to wait for people before bots fill the empty seats; left out or null: people only."""
    level: str = "medium"
    ticket: str | None = None
    """The ticket of one's earlier request: asking again replaces it (or gives back its seat)."""
    keep: bool = True
    """Whether the name becomes the asker's kept name, when they keep none yet (false: this table's name only)."""
    problems = {
        "": 'the body must be a JSON object like {"players": 3, "name": "Amina"}',
        "players": "players must be 2, 3 or 4, not {value}",
        "preset": "unknown preset {value} (known: {presets})",
        "name": "a player's name is text, not {value}",
        "bots_after": "bots_after is the seconds to wait before bots fill the seats (0 to 600), or null, not {value}",
        "level": "unknown bot level {value} (known: {levels})",
        "ticket": "ticket is the text the server gave your earlier request, not {value}",
        "keep": "keep is true or false, not {value}",
    }
    unknown = "unknown field {field} (fields: bots_after, keep, level, name, players, preset, ticket)"


BodyModel = TypeVar("BodyModel", bound=Body)


def read_body(model: type[BodyModel], body: object, **context: object) -> BodyModel:
    """``body`` (parsed JSON) as ``model``; raises :class:`HttpError` (400) with the words of its first problem.

    A field the API does not name is reported first; ``context`` fills the
    words' other blanks (``{players}``).
    """
    try:
        return model.model_validate(body)
    except ValidationError as error:
        problems = error.errors(include_url=False)
        problems.sort(key=lambda p: p["type"] != "extra_forbidden")
        first = problems[0]
        loc, index = first["loc"], None
        where: type[Body] = model
        if loc and loc[0] == "seats" and len(loc) > 1 and where is TableBody:  # a problem inside one seat
            where, index, loc = SeatBody, loc[1], loc[2:]
        field = str(loc[0]) if loc else ""
        words = where.unknown if first["type"] == "extra_forbidden" else where.problems.get(field, where.problems[""])
        values = {
            "field": repr(field),
            "index": index,
            "value": repr(None if first["type"] == "missing" else first.get("input")),
            **context,
        }
        values |= {"levels": ", ".join(levels()), "presets": ", ".join(PRESETS)}
        if isinstance(body, dict) and isinstance(players := body.get("players", 2), int):
            values |= {"players": players, "last": players - 1}
        for key, value in values.items():
            words = words.replace("{" + key + "}", str(value))
        raise bad(words) from None


def read_table_spec(body: object) -> TableSpec:
    """The body of ``POST /api/tables``, checked; raises :class:`HttpError` (400) naming the first problem."""
    table = read_body(TableBody, body)
    players, preset = table.players, table.preset
    if players not in (2, 3, 4):
        raise bad(f"players must be 2, 3 or 4, not {players!r}")
    if preset not in PRESETS:
        raise bad(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    variants = dict(table.variants or {})
    if "players" in variants:
        raise bad('the number of players is "players", not a variant')
    if table.target is not None:
        variants["target"] = table.target
    try:
        rules = preset_rules(preset, players, **variants)
    except RondaError as error:
        raise bad(str(error)) from None
    except TypeError as error:  # a value of a type Rules cannot take
        raise bad(f"bad variants: {error}") from None
    seats = _read_seats(table.seats, players)
    humans = [i for i, s in enumerate(seats) if s.kind == "human"]
    me = humans[0] if table.me is None else table.me
    if not 0 <= me < players:
        raise bad(f"me is your seat, from 0 to {players - 1}, not {me!r}")
    if seats[me].kind != "human":
        raise bad(f"me is the seat you take, and seat {me} is a bot")
    name = read_name(seats[me].name) if seats[me].name is not None else f"Player {me + 1}"
    if seats[me].name is not None:
        check_name(name, (), levels())
    creator = SeatSpec("human", name)
    seats = (*seats[:me], creator, *seats[me + 1 :])
    # Hints help whoever asks: welcome against the computer, and off by default where people play each other.
    if table.hints is None and "hints" in table.model_fields_set:
        raise bad("hints is true or false, not None")
    hints = any(s.kind == "bot" for s in seats) if table.hints is None else table.hints
    keep = table.keep and seats_named(table.seats, me)
    return TableSpec(rules, preset, seats, me, table.public, table.spectators, hints, keep)


def seats_named(raw: list[SeatBody] | None, me: int) -> bool:
    """Whether the creator typed a name (a seat left unnamed is "Player N", which nobody keeps)."""
    return raw is not None and raw[me].name is not None


def _read_seats(raw: list[SeatBody] | None, players: int) -> tuple[SeatSpec, ...]:
    if raw is None:
        return (SeatSpec("human"), *tuple(SeatSpec("bot", level="medium") for _ in range(players - 1)))
    if len(raw) != players:
        raise bad(f"seats must be a list of {players} seats, one per player")
    known_levels = levels()
    out: list[SeatSpec] = []
    for index, seat in enumerate(raw):
        if seat.kind == "human":
            out.append(SeatSpec("human", seat.name))
        else:
            if seat.level not in known_levels:
                raise bad(f"seat {index}: unknown bot level {seat.level!r} (known: {', '.join(known_levels)})")
            out.append(SeatSpec("bot", level=seat.level))
    if not any(s.kind == "human" for s in out):
        raise bad("at least one seat must be a person's: yours")
    return tuple(out)


def read_name(raw: object) -> str:
    """A player's name: trimmed, without invisible characters (zero-width joiners, fillers, line separators), 1 to 24
    characters.

    Every space Unicode has (no-break, thin, hair, ideographic...: category Zs) is stored as an ordinary one, and a
    run of them as one: the look-alike keys read them so, and the page draws a run as one, so a name is shown as it
    is compared ("Nad\u200aia", a hair space inside, is "Nad ia", not "Nadia" a pixel wider). At least one
    character must be seen on the page: not a space, a combining mark or a tatweel alone (``name_empty``); a longer
    one is refused, not cut (``name_too_long``, with its ``length``).

    >>> read_name(" \u0645\u062d\u0640\u0645\u062f\ufffc ")  # the tatweel stays, the replacement box goes
    'محـمد'
    >>> read_name("Nad\u200aia"), read_name("Amina \u3000\u00a0Benali"), read_name("Yas\u2029mina")
    ('Nad ia', 'Amina Benali', 'Yasmina')
    >>> read_name("\u0640\u0640\u0640")
    Traceback (most recent call last):
    ...
    ronda.interfaces.web.forms.HttpError: type a name: 1 to 24 letters (spaces alone show nothing)
    >>> read_name("Amina Benali El Idrissi Alaoui")
    Traceback (most recent call last):
    ...
    ronda.interfaces.web.forms.HttpError: a name is 24 letters at most: 'Amina Benali El Idrissi Alaoui' has 30
    """
    if not isinstance(raw, str):
        raise HttpError(400, "bad_request", f"a player's name is text, not {raw!r}", reason="name_not_text")
    name = " ".join("".join(ch for ch in raw if not _invisible(ch)).split())
    seen = [ch for ch in name if not _unseen(ch)]  # what the page shows
    if not seen:
        raise HttpError(
            400,
            "bad_request",
            f"type a name: 1 to {MAX_NAME} letters (spaces alone show nothing)",
            reason="name_empty",
            params={"max": MAX_NAME},
        )
    if len(name) > MAX_NAME:
        shown = name if len(name) <= 40 else name[:40] + "…"
        raise HttpError(
            400,
            "bad_request",
            f"a name is {MAX_NAME} letters at most: {shown!r} has {len(name)}",
            reason="name_too_long",
            params={"name": shown, "length": len(name), "max": MAX_NAME},
        )
    return name


@dataclass(frozen=True)
class JoinSpec:
    """A join, checked: the name typed (none: the browser's kept one) and, optionally, which seat."""

    name: str | None
    seat: int | None
    keep: bool = True


NAME_NEEDED = bad('a join needs your "name"')
"""The answer to a join without a name from a browser that keeps none: the seat would have nothing to be called."""


def read_join(body: object) -> JoinSpec:
    """The body of a join, checked; raises :class:`HttpError` (400) naming the problem.

    A name typed is read and refused as create's is (:func:`check_name`: "Bot 2" is no name, whoever types it),
    even though a browser that keeps a name sits under that one: one body means the same at both.
    """
    join = read_body(JoinBody, body)
    name = None if join.name is None else read_name(join.name)
    if name is not None:
        check_name(name, (), levels())
    return JoinSpec(name, join.seat, join.keep)


MAX_PLAY_WAIT = 600.0
"""Longest wait one may choose before bots fill the seats (seconds): ten minutes."""


@dataclass(frozen=True)
class PlaySpec:
    """A play-now request, checked: the game (``players``, ``preset``), a name, and bots after a wait or never."""

    players: int
    preset: str
    name: str | None
    bots_after: float | None
    level: str
    ticket: str | None
    keep: bool = True


def read_play(body: object) -> PlaySpec:
    """The body of ``POST /api/play``, checked; raises :class:`HttpError` (400) naming the first problem."""
    play = read_body(PlayBody, body)
    if play.players not in (2, 3, 4):
        raise bad(f"players must be 2, 3 or 4, not {play.players!r}")
    if play.preset not in PRESETS:
        raise bad(f"unknown preset {play.preset!r} (known: {', '.join(PRESETS)})")
    try:
        preset_rules(play.preset, play.players)
    except RondaError as error:
        raise bad(str(error)) from None
    wait = play.bots_after
    if wait is not None and not 0 <= wait <= MAX_PLAY_WAIT:
        raise bad(f"bots_after is the seconds to wait before bots fill the seats (0 to 600), not {wait!r}")
    known = [level for level in levels() if level != "random"]
    if play.level not in levels():
        raise bad(f"unknown bot level {play.level!r} (known: {', '.join(known)})")
    name = None
    if play.name is not None:
        name = read_name(play.name)
        check_name(name, (), levels())
    return PlaySpec(play.players, play.preset, name, wait, play.level, play.ticket, play.keep and name is not None)
