"""Who I am (docs/web-protocol.md, "A name you keep"): the name chosen once, an optional account, sessions.

Every route here reads the browser's identity from its cookie
(:func:`..accounts.identity_of`); what changes state is a POST or a DELETE,
so the same-origin guard (:class:`..guard.Guard`) refuses it from another
site's page, and the cookie (SameSite=Lax) is not sent with one anyway.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..accounts import (
    NOBODY,
    Identity,
    Sitter,
    choose_name,
    clear_cookie,
    hash_password,
    identity_of,
    needs_rehash,
    new_session,
    password_matches,
    read_account_body,
    read_name_body,
    seat_name,
    secure,
    set_cookie,
)
from ..forms import HttpError
from ..site import Site, client_of, json_body, lobby_of, site_of
from ..store import Journal, StoreConflict, StoreUnavailable

router = APIRouter()

NO_NAME = HttpError(401, "no_identity", "choose your name first (POST /api/me with your name)")
WRONG = HttpError(401, "wrong_password", "no account has this username and password")


def _journal(request: Request) -> Journal:
    return lobby_of(request).journal


def _https(request: Request) -> bool:
    origins = site_of(request).origins
    return secure(request, origins.public_url, origins.forwarded)


async def _write(journal: Journal, fn: Any, *args: Any) -> None:
    try:
        await journal.write(fn, *args)
    except StoreUnavailable:
        raise HttpError(503, "store_unavailable", "the server cannot save just now: try again") from None


async def sitter(
    request: Request, given: str | None, keep: bool, first: Callable[[str], object] | None = None
) -> Sitter:
    """Who takes the seat a request asks for (:func:`..accounts.seat_name`): a typed name is kept unless told not."""
    return await seat_name(request, _journal(request), given, keep, client_of(request), site_of(request).rude, first)


async def seated(request: Request, who: Sitter, work: Callable[[], Awaitable[JSONResponse]]) -> JSONResponse:
    """``work``'s answer, carrying the cookie of a player this request made: a refusal's too.

    The player is made before the table or the seat (so that the seat can name
    them); a table that is then refused (full, the store down) leaves the person
    holding the name they typed, rather than a name held by nobody's cookie.
    """
    try:
        response = await work()
    except HttpError as error:
        if who.token is None:
            raise
        headers = {"Retry-After": str(error.retry_after)} if error.retry_after else None
        response = JSONResponse(error.to_json(), status_code=error.status, headers=headers)
    if who.token is not None:
        set_cookie(response, who.token, _https(request))
    return response


async def _me(request: Request) -> Identity:
    me = await identity_of(request, _journal(request))
    if me is None:
        raise NO_NAME
    return me


async def _limit_logins(request: Request, site: Site, username: str | None) -> None:
    """Count one try of a password from this address (and on ``username``); 429 past either limit."""
    verdict = await site.logins.by_address.hit(client_of(request))
    if verdict.admitted and username is not None:
        verdict = await site.logins.by_account.hit(username)
        if not verdict.admitted:
            raise HttpError(
                429,
                "rate_limited",
                "too many tries to log in to this account: wait a minute",
                verdict.retry_seconds,
            )
    if not verdict.admitted:
        raise HttpError(429, "rate_limited", "too many tries to log in from here: wait a minute", verdict.retry_seconds)


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    found = await identity_of(request, _journal(request))
    return NOBODY if found is None else found.to_json()


@router.post("/api/me")
async def choose(request: Request) -> JSONResponse:
    """Choose the name to keep: once, by a browser that has none yet."""
    journal = _journal(request)
    found = await identity_of(request, journal)
    if found is not None:
        raise HttpError(409, "name_kept", f"you already play as {found.player.name!r}: a name is chosen once")
    client = client_of(request)
    if not (verdict := await site_of(request).creating.hit(client)).admitted:
        raise HttpError(429, "rate_limited", "you are choosing names too fast: wait a minute", verdict.retry_seconds)
    name = read_name_body(await json_body(request))
    identity, token = await choose_name(request, journal, name, client, site_of(request).rude)
    response = JSONResponse(identity.to_json(), status_code=201)
    set_cookie(response, token, _https(request))
    return response


@router.post("/api/me/account")
async def register(request: Request) -> JSONResponse:
    """Make an account of this browser's player: the name is kept, now across devices."""
    site, journal = site_of(request), _journal(request)
    found = await _me(request)
    if found.player.username is not None:
        raise HttpError(409, "has_account", f"you already have an account, {found.player.username!r}")
    username, password = read_account_body(await json_body(request))
    await _limit_logins(request, site, None)
    if await journal.read(journal.store.account, username) is not None:
        raise HttpError(409, "username_taken", f"the username {username!r} is taken: choose another")
    digest = await hash_password(password)
    try:
        await journal.write(journal.store.set_account, found.player.id, username, digest)
    except StoreConflict:
        raise HttpError(409, "username_taken", f"the username {username!r} is taken: choose another") from None
    except StoreUnavailable:
        raise HttpError(503, "store_unavailable", "the server cannot save just now: try again") from None
    found.player.username = username
    return JSONResponse(found.to_json(), status_code=201)


@router.post("/api/me/login")
async def login(request: Request) -> JSONResponse:
    """Log in to an account: this browser's cookie becomes a new session of that account's player."""
    site, journal = site_of(request), _journal(request)
    username, password = read_account_body(await json_body(request))
    await _limit_logins(request, site, username)
    account = await journal.read(journal.store.account, username)
    if not await password_matches(account.password_hash if account else None, password):
        raise WRONG
    assert account is not None and account.password_hash is not None
    if needs_rehash(account.password_hash):
        await _write(journal, journal.store.set_account, account.id, username, await hash_password(password))
    try:
        before = await identity_of(request, journal)
    except HttpError:
        before = None  # an ended session's cookie: replaced
    if before is not None and before.player.id == account.id:
        return JSONResponse(before.to_json())
    token, session = new_session(account.id, request, client_of(request))
    await _write(journal, journal.store.add_session, session)
    if before is not None:  # this browser was someone else: that session ends here
        await _write(journal, journal.store.end_session, before.player.id, before.session.id)
    response = JSONResponse(Identity(session, account).to_json())
    set_cookie(response, token, _https(request))
    return response


@router.post("/api/me/logout")
async def logout(request: Request) -> JSONResponse:
    """End this browser's session. A player without an account is not let go: their name would be lost for good.

    A cookie whose session already ended is simply cleared (to continue as a new guest).
    """
    journal = _journal(request)
    try:
        found = await identity_of(request, journal)
    except HttpError as error:
        if error.code != "session_ended":
            raise
        found = None
    else:
        if found is None:
            raise NO_NAME
        if found.player.username is None:
            raise HttpError(
                409, "no_account", "you have no account: logging out would lose your name for good; make one first"
            )
        await _write(journal, journal.store.end_session, found.player.id, found.session.id)
    response = JSONResponse({"status": "logged_out"})
    clear_cookie(response, _https(request))
    return response


@router.get("/api/me/sessions")
async def sessions(request: Request) -> dict[str, Any]:
    found = await _me(request)
    journal = _journal(request)
    mine = await journal.read(journal.store.sessions_of, found.player.id)
    return {
        "sessions": [
            {
                "id": s.id,
                "created": s.created,
                "last_seen": s.last_seen,
                "browser": s.agent,
                "address": s.address,
                "current": s.id == found.session.id,
            }
            for s in mine
        ]
    }


@router.delete("/api/me/sessions/{session_id}")
async def revoke(request: Request, session_id: str) -> JSONResponse:
    """End one of the player's sessions (another device's, or this one's): its cookie is no identity any more."""
    found = await _me(request)
    journal = _journal(request)
    mine = await journal.read(journal.store.sessions_of, found.player.id)
    if not any(s.id == session_id for s in mine):
        raise HttpError(404, "no_session", "you have no session with this id")
    if session_id == found.session.id and found.player.username is None:
        raise HttpError(409, "no_account", "you have no account: ending this session would lose your name for good")
    await _write(journal, journal.store.end_session, found.player.id, session_id)
    response = JSONResponse({"status": "ended", "id": session_id})
    if session_id == found.session.id:
        clear_cookie(response, _https(request))
    return response
