"""A name you keep: who a browser is (a player, by a cookie), the name chosen once, and optional accounts.

A person becomes a *player* the first time they type a name: to create a
table, take a seat or ask to play now (unless the request says ``"keep":
false``), or in the "You" panel (``POST /api/me``):
the server stores a stable id, the name and each of its look-alike keys
(:func:`.forms.name_keys`, unique across the server, so that no two players'
names look alike), and a *session*: the SHA-256 of a random token that the
browser keeps in an HttpOnly, SameSite=Lax cookie (Secure over https). The
token itself is never stored. Every table that player sits at afterwards
(create, join, play now) records the player's id on the seat, and the seat
carries the kept name, whatever name the request held.

An *account* (a username and a password, hashed with Argon2 by argon2-cffi)
keeps the player across devices: logging in elsewhere opens another session
of the same player. Sessions are listed and revocable; a revoked session's
cookie is no identity any more (401 ``session_ended``), never silently a
stranger. Logging in is rate-limited per address and per username, and an
unknown username costs the same Argon2 work as a wrong password.

Passwords are bounded in length before they are hashed and never written to
a log or an error message.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import re
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request, Response

from ...bots import levels
from .forms import Body, HttpError, check_name, looks_like_guest, name_keys, name_taken, read_body, read_name
from .rates import RateLimit, TokenBuckets
from .rude import RudeWords
from .store import Journal, StoreConflict, StoredPlayer, StoredSession, StoreUnavailable

COOKIE = "ronda_player"
"""The cookie holding a browser's session token."""
COOKIE_AGE = 400 * 24 * 3600
"""How long the browser keeps the cookie (400 days, the most browsers allow): a name kept is meant to stay."""
TOKEN_BYTES = 32
"""Random bytes of a session token (256 bits)."""
ID_BYTES = 12
"""Random bytes of a player's or a session's id (96 bits; ids are not secrets, tokens are)."""
MIN_PASSWORD, MAX_PASSWORD = 8, 128
"""A password's length in characters: at least 8, and at most 128, checked before any hashing."""
USERNAME = re.compile(r"[\w.-]{3,32}")
"""A username, once NFKC-normalised and case-folded: 3 to 32 letters, digits, dots, dashes or underscores."""
LOGIN_RATE = 10.0
"""Logins (and account creations) one address may try a minute, in bursts of as many."""
ACCOUNT_LOGIN_RATE = 5.0
"""Logins that may be tried a minute on one username, from anywhere, in bursts of as many."""
TOUCH_EVERY = timedelta(minutes=5)
"""How stale a session's "last seen" may grow before a request of it writes it again."""

_hasher = PasswordHasher()


@dataclass(frozen=True)
class Identity:
    """Who sent a request: their session (this browser) and their player."""

    session: StoredSession
    player: StoredPlayer

    def to_json(self) -> dict[str, Any]:
        """``GET /api/me``'s answer."""
        return {
            "id": self.player.id,
            "name": self.player.name,
            "account": self.player.username is not None,
            "username": self.player.username,
        }


NOBODY: dict[str, Any] = {"id": None, "name": None, "account": False, "username": None}
"""``GET /api/me``'s answer to a browser that has chosen no name yet."""


@dataclass(frozen=True)
class Logins:
    """The limits on trying passwords: per address and per username (:mod:`.rates`)."""

    by_address: RateLimit = field(default_factory=lambda: TokenBuckets.per_minute(LOGIN_RATE))
    by_account: RateLimit = field(default_factory=lambda: TokenBuckets.per_minute(ACCOUNT_LOGIN_RATE))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> str:
    """Now, to the microsecond: a player's sessions are listed in the order they were made, even within a second."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def browser_of(user_agent: str) -> str:
    """A short, human summary of a ``User-Agent`` ("Chrome on Linux"): what a sessions list shows, and all that is kept.

    >>> browser_of("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")
    'Chrome on Linux'
    >>> browser_of("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile Safari/604.1")
    'Safari on iPhone'
    >>> browser_of("python-httpx/0.27")
    'another program'
    """
    browsers = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome")]
    browsers += [("Chromium/", "Chromium"), ("Safari/", "Safari")]
    systems = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows")]
    systems += [("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux")]
    browser = next((name for mark, name in browsers if mark in user_agent), None)
    system = next((name for mark, name in systems if mark in user_agent), None)
    if browser is None:
        return "another program"
    return f"{browser} on {system}" if system else browser


# ---------------------------------------------------------------- passwords


def read_password(raw: object) -> str:
    """A password as sent, checked for type and length (never echoed: the words name only what is wrong).

    JSON may carry a lone UTF-16 surrogate (``"\\ud800"``), which is no character: it has no UTF-8 bytes to hash,
    and Argon2 failed on it with a 500 and a traceback in the log (an audit). It is refused here, before hashing,
    as a password no keyboard types (400 ``bad_password``, ``reason`` ``password_not_unicode``).

    >>> read_password("abc\\ud800defgh")
    Traceback (most recent call last):
    ...
    ronda.interfaces.web.forms.HttpError: a password holds a lone surrogate (\\ud800 to \\udfff), which is no \
character: type it again
    """
    if not isinstance(raw, str):
        raise HttpError(400, "bad_request", "a password is text")
    if not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise HttpError(
            400, "bad_password", f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(raw)}"
        )
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise HttpError(
            400,
            "bad_password",
            "a password holds a lone surrogate (\\ud800 to \\udfff), which is no character: type it again",
            reason="password_not_unicode",
        ) from None
    return raw


def read_username(raw: object) -> str:
    """A username, NFKC-normalised and case-folded (so "Amina" and "AMINA" are one account)."""
    if not isinstance(raw, str):
        raise HttpError(400, "bad_request", "a username is text")
    username = unicodedata.normalize("NFKC", raw).strip().casefold()
    if not USERNAME.fullmatch(username):
        shown = raw if len(raw) <= 40 else raw[:40] + "…"
        raise HttpError(
            400, "bad_username", f"a username is 3 to 32 letters, digits, dots, dashes or underscores, not {shown!r}"
        )
    return username


async def hash_password(password: str) -> str:
    """The password's Argon2 hash, computed off the event loop (it takes tens of milliseconds on purpose)."""
    return await asyncio.to_thread(_hasher.hash, password)


@functools.cache
def _dummy_hash() -> str:
    """A hash to check unknown usernames' passwords against, so that they take as long as known ones."""
    return _hasher.hash(secrets.token_urlsafe(16))


async def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed in ``stored``; with no hash (no such account), a dummy costs the same."""

    def check() -> bool:
        try:
            return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(check)


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with weaker parameters than today's (then a login replaces it)."""
    return _hasher.check_needs_rehash(stored)


# ------------------------------------------------------------------ bodies


class NameBody(Body):
    """The body of ``POST /api/me``: the name to keep."""

    name: Any
    problems: ClassVar[dict[str, str]] = {
        "": 'the body must be a JSON object like {"name": "Amina"}',
        "name": 'choosing a name needs a "name"',
    }
    unknown = "unknown field {field} (name)"


class AccountBody(Body):
    """The body of ``POST /api/me/account`` and ``POST /api/me/login``."""

    username: Any
    password: Any
    problems: ClassVar[dict[str, str]] = {
        "": 'the body must be a JSON object like {"username": "amina", "password": "..."}',
        "username": 'an account needs a "username"',
        "password": 'an account needs a "password"',
    }
    unknown = "unknown field {field} (username, password)"


def read_name_body(body: object) -> str:
    return read_name(read_body(NameBody, body).name)


def read_account_body(body: object) -> tuple[str, str]:
    """``(username, password)`` from a body, each checked."""
    account = read_body(AccountBody, body)
    return read_username(account.username), read_password(account.password)


# ---------------------------------------------------------------- identity

ENDED = HttpError(
    401,
    "session_ended",
    "this browser's session has ended (logged out or revoked elsewhere): log in again, or continue as a new guest",
)


async def identity_of(request: Request, journal: Journal) -> Identity | None:
    """Who sent ``request``: ``None`` without a cookie; raises 401 ``session_ended`` when the cookie is no session.

    A session's "last seen" is written again when it is older than :data:`TOUCH_EVERY`.
    """
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    try:
        found = await journal.read(journal.store.session_of, hash_token(token))
    except StoreUnavailable:
        raise HttpError(503, "store_unavailable", "the server cannot read just now: try again") from None
    if found is None:
        raise ENDED
    session, player = found
    when = now()
    if datetime.fromisoformat(session.last_seen) + TOUCH_EVERY < datetime.fromisoformat(when):
        try:
            await journal.write(journal.store.touch_session, session.id, when)
            session.last_seen = when
        except StoreUnavailable:
            pass  # "last seen" is a courtesy; the request goes on
    return Identity(session, player)


async def check_free_name(journal: Journal, name: str, mine: str | None = None) -> None:
    """Refuse a name that looks like another player's (409 ``name_taken``), naming that player's name."""
    try:
        holder = await journal.read(journal.store.name_holder, name_keys(name))
    except StoreUnavailable:
        raise HttpError(503, "store_unavailable", "the server cannot read just now: try again") from None
    if holder is not None and holder.id != mine:
        raise name_taken(holder.name, name, "server")


@dataclass(frozen=True)
class Sitter:
    """Who takes a seat (create, join, play now): the seat's name, the player, and a new player's cookie token."""

    name: str | None
    player: str | None = None
    token: str | None = None
    """Set when this request made the player: the response sets the cookie (:func:`set_cookie`), even a refusal's."""


async def seat_name(
    request: Request,
    journal: Journal,
    given: str | None,
    keep: bool,
    address: str,
    rude: RudeWords,
    first: Callable[[str], object] | None = None,
) -> Sitter:
    """The name a seat is taken under, and the player taking it, for create, join and play now.

    A player sits under their kept name (``given`` is not used). A person who
    keeps none and typed ``given`` becomes a player named so (:func:`choose_name`:
    refused, before anything is made, when it looks like a player's or a bot's);
    with ``keep`` false they sit under ``given`` at this table only, unless it
    looks like a player's or holds a word of ``rude``. ``first`` checks the seat
    before a player is made (raising :class:`.forms.HttpError`): a refused join
    keeps no name.
    """
    me = await identity_of(request, journal)
    if me is not None:
        return Sitter(me.player.name, me.player.id)
    if given is not None and keep:
        if first is not None:
            first(given)
        made, token = await choose_name(request, journal, given, address, rude)
        return Sitter(given, made.player.id, token)
    if given is not None:
        rude.check(given)
        await check_free_name(journal, given)
    return Sitter(given)


def new_session(player_id: str, request: Request, address: str) -> tuple[str, StoredSession]:
    """A new session of ``player_id`` for this browser: its token (for the cookie) and what is stored of it."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    when = now()
    agent = browser_of(request.headers.get("user-agent", ""))
    session = StoredSession(
        secrets.token_urlsafe(ID_BYTES), player_id, hash_token(token), when, when, agent, address[:64]
    )
    return token, session


async def choose_name(
    request: Request, journal: Journal, raw: str, address: str, rude: RudeWords
) -> tuple[Identity, str]:
    """A new player named ``raw`` (checked: not rude, nobody's look-alike), with this browser's first session;
    returns it and the cookie's token."""
    rude.check(raw)
    check_name(raw, (), levels())
    if looks_like_guest(raw):
        raise HttpError(
            400,
            "bad_request",
            f"{raw!r} is what play now calls people without a name: choose another",
            reason="name_like_guest",
            params={"name": raw},
        )
    await check_free_name(journal, raw)
    player = StoredPlayer(secrets.token_urlsafe(ID_BYTES), now(), raw)
    token, session = new_session(player.id, request, address)
    try:
        await journal.write(journal.store.add_player, player, name_keys(raw), session)
    except StoreConflict:  # taken between the look and the write
        raise HttpError(
            409,
            "name_taken",
            f"a player on this server just took a name like {raw!r}: choose another",
            reason="name_just_taken",
            params={"name": raw},
        ) from None
    except StoreUnavailable:
        raise HttpError(503, "store_unavailable", "the server cannot save just now: try again") from None
    return Identity(session, player), token


def secure(request: Request, public_url: str | None, forwarded: bool) -> bool:
    """Whether the page is served over https (then the cookie is Secure)."""
    proto = request.headers.get("x-forwarded-proto", "").split(",")[0].strip() if forwarded else ""
    return request.url.scheme == "https" or proto == "https" or (public_url or "").startswith("https://")


def set_cookie(response: Response, token: str, https: bool) -> None:
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, path="/", httponly=True, samesite="lax", secure=https)


def clear_cookie(response: Response, https: bool) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=https)
