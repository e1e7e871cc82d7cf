"""Play now (docs/web-protocol.md, "Play now"): ask for a game, wait, be seated with strangers, or cancel.

The queue is :mod:`..pairing`'s; this module turns its matches into tables by
the path ``POST /api/tables`` takes (:meth:`~..lobby.Lobby.create` for the
first person, :meth:`~..tables.Table.join` for each other, so each gets a seat
token exactly as a joiner does). A wait that ends is acted on when a request
or a look (``GET /api/play/{ticket}``, which a waiting page sends every
second) reaches the server; a waiting person learns their seat by looking.
Looking also keeps the request waiting: one nobody asked or looked at for
:data:`~..pairing.STALE` seconds is dropped (its client went away), and its
ticket is then answered 404 ``not_waiting`` as a cancelled one is; a page that
was showing the wait asks again by itself with the same choices (an ask with
that ticket is a new request, with a new ticket). A player's ask that replaced
their earlier request (another tab) leaves that one's ticket the same answer.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....bots import levels
from ....engine.presets import preset_rules
from ..forms import HttpError, SeatSpec, TableSpec, read_play
from ..lobby import Lobby
from ..pairing import STALE, Ask, Game, Match, Pairing, Seating, TooManyWaiting, Waiting
from ..rude import RudeWords
from ..site import client_of, invite_of, json_body, lobby_of, site_of
from ..store import StoreUnavailable
from ..tables import CLOSED, FINISHED, Table
from .accounts import seated, sitter

router = APIRouter()

TICKET_BYTES = 18
"""Random bytes of a ticket (144 bits): it gives back its seat's token, so it is as secret as one."""


def _not_waiting() -> HttpError:
    """A ticket with no request waiting, whatever the reason: ask again (a page that was waiting does so itself)."""
    return HttpError(
        404,
        "not_waiting",
        "this request is not waiting: it was cancelled, replaced by a newer request of yours,"
        f" dropped after {STALE:g} s without a look, or never made; ask again",
    )


async def _make_table(lobby: Lobby, match: Match, rude: RudeWords) -> list[Seating]:
    """A public table for ``match``: the first person creates it, the others join; one seating per person.

    A refusal (a full server, the store down) is the seating of everyone not seated yet. ``rude`` reads the names
    the server makes for people (:func:`_join`) as it reads those typed.
    """
    players, people = match.game.players, match.people
    seats = [SeatSpec("human", people[0].name or "Guest 1")]
    seats += [SeatSpec("human") for _ in people[1:]]
    seats += [SeatSpec("bot", level=match.level) for _ in range(match.bots)]
    spec = TableSpec(
        preset_rules(match.game.preset, players),
        match.game.preset,
        tuple(seats),
        0,
        public=True,
        hints=match.bots > 0,
    )
    # The table counts against its first person's address (bots filling seats are that person's choice):
    # otherwise one address, pairing two of its own asks again and again, filled the server with tables
    # that counted against nobody (an audit).
    owner = people[0].client
    seatings: list[Seating] = []
    try:
        table, token = await lobby.create(spec, owner=owner, player=people[0].player)
        seatings.append(Seating(table.id, 0, token))
        for index, ask in enumerate(people[1:], start=1):
            seatings.append(await _join(table, ask, index, rude))
    except HttpError as error:
        refusal = Seating(error=(error.status, error.code, error.message))
        seatings += [refusal] * (len(people) - len(seatings))
    return seatings


async def _join(table: Table, ask: Ask, seat: int, rude: RudeWords) -> Seating:
    """``ask``'s person takes ``seat`` as a joiner does; a name another has already gets the seat number after it.

    A person who gave no name sits as "Guest N" (N their seat). A name made here is one nobody typed, so it goes
    through the check of rude words a typed one does (:mod:`..rude`), and one it refuses is not tried: the name
    and a digit could read as a listed word ("Nigg 2", 2 being Arabizi for a), shown on a public table.
    """
    tries = [ask.name, f"{ask.name} {seat + 1}"] if ask.name else []
    tries += [f"Guest {seat + 1}"]  # "Player N" is the page's own label: taken
    tries = [name for name in tries if name == ask.name or not rude.holds(name)]
    guests = [f"Guest {secrets.token_hex(2)}" for _ in range(8)]  # an operator's "guest*" refuses them all
    tries.append(next((name for name in guests if not rude.holds(name)), guests[-1]))
    for name in tries[:-1]:
        try:
            index, token = await table.join(name, seat, levels(), ask.player)
        except HttpError as error:
            if error.code != "name_taken":
                raise
            continue
        return Seating(table.id, index, token)
    index, token = await table.join(tries[-1], seat, levels(), ask.player)
    return Seating(table.id, index, token)


async def _seat(request: Request, pairing: Pairing, matches: list[Match]) -> None:
    for match in matches:
        seatings = await _make_table(lobby_of(request), match, site_of(request).rude)
        for ask, seating in zip(match.people, seatings, strict=True):
            await pairing.seat(ask.ticket, seating)


async def _settle(request: Request) -> Pairing:
    """The queue, once every wait that has ended is seated."""
    pairing = site_of(request).pairing
    await _seat(request, pairing, await pairing.due())
    return pairing


async def _answer(request: Request, pairing: Pairing, ticket: str) -> JSONResponse:
    """What the ticket's request has come to: seated (201 the first time told), waiting (202), or unknown (404).

    Where it is waiting is read between two reads of its seat: another process's match takes a ticket out of the
    queue and gives it its seat in one step (:mod:`..redis_pairing`), which may fall between this process's reads,
    so a ticket neither seated at the first read nor waiting at the second is seated at the third (an audit: a
    person already seated was told 404 ``not_waiting``, asked again, and left their table's seat to a bot).
    """
    seating = await pairing.seating(ticket)
    if seating is None:
        waiting = await pairing.waiting(ticket)
        if waiting is not None:
            return _waiting(ticket, waiting)
        seating = await pairing.seating(ticket)
    if seating is not None and seating.pending:
        return JSONResponse({"status": "seating", "ticket": ticket}, status_code=202)
    if seating is not None:
        if seating.error is not None:
            status, code, message = seating.error
            raise HttpError(status, code, message)
        assert seating.table_id is not None
        return JSONResponse(
            {
                "status": "seated",
                "ticket": ticket,
                "table_id": seating.table_id,
                "seat": seating.seat,
                "token": seating.token,
                **invite_of(request, seating.table_id),
            }
        )
    if await pairing.replaced(ticket):
        raise HttpError(
            409,
            "replaced",
            "you asked again from another page or device: that request waits now, and this one does not",
        )
    raise _not_waiting()


def _waiting(ticket: str, waiting: Waiting) -> JSONResponse:
    """A request still waiting (202): for which game, how many others wait for it, when bots come, and how long it
    has waited (a page opened again counts on from there: its own count started at 0 at each reload)."""
    ask = waiting.ask
    return JSONResponse(
        {
            "status": "waiting",
            "ticket": ticket,
            "players": ask.game.players,
            "preset": ask.game.preset,
            "others": waiting.others,
            "bots_in": None if waiting.bots_in is None else round(waiting.bots_in, 1),
            "level": None if ask.bots_after is None else ask.level,
            "waited": round(waiting.waited, 1),
        },
        status_code=202,
    )


async def _going(request: Request, seating: Seating) -> bool:
    """Whether the seated table's game still goes on (neither finished nor closed).

    A table another process of a cluster made is not in this lobby: the store,
    which every process shares, says (a person is never seated twice on a guess).
    """
    if seating.table_id is None:
        return False
    lobby = lobby_of(request)
    try:
        status = lobby.summary(seating.table_id)["status"]
    except HttpError:
        try:
            stored = await lobby.journal.read(lobby.journal.store.load_tables, [seating.table_id])
        except StoreUnavailable:
            return True  # unknown for now: the same seat again rather than a second one
        if not stored:
            return False
        status = stored[0].status
    return status not in (FINISHED, CLOSED)


@router.post("/api/play")
async def play(request: Request) -> JSONResponse:
    client = client_of(request)
    if not (verdict := await site_of(request).creating.hit(client)).admitted:
        raise HttpError(429, "rate_limited", "you are asking for games too fast: wait a minute", verdict.retry_seconds)
    spec = read_play(await json_body(request))
    who = await sitter(request, spec.name, spec.keep)

    async def ask() -> JSONResponse:
        pairing = await _settle(request)
        ticket = spec.ticket
        if ticket is not None:
            seating = await pairing.seating(ticket)
            if seating is not None and (seating.pending or await _going(request, seating)):
                return await _answer(request, pairing, ticket)  # never seated twice: the same seat again
            if seating is not None or await pairing.waiting(ticket) is None:
                ticket = None  # a ticket done with (its game over) or unknown: a new request
        ticket = ticket or secrets.token_urlsafe(TICKET_BYTES)
        wanted = Ask(
            ticket, Game(spec.players, spec.preset), who.name or "", client, spec.bots_after, spec.level, who.player
        )
        try:
            match = await pairing.ask(wanted)
        except TooManyWaiting:
            raise HttpError(
                429, "too_many_waiting", "you already have as many requests waiting as you may: cancel one first"
            ) from None
        await _seat(request, pairing, [match] if match else [])
        await _seat(request, pairing, await pairing.due())  # a wait of 0 seconds: bots at once
        return await _answer(request, pairing, ticket)

    return await seated(request, who, ask)


@router.get("/api/play/{ticket}")
async def look(request: Request, ticket: str) -> JSONResponse:
    return await _answer(request, await _settle(request), ticket)


@router.delete("/api/play/{ticket}")
async def cancel(request: Request, ticket: str) -> dict[str, Any]:
    pairing = await _settle(request)
    if await pairing.cancel(ticket):
        return {"status": "cancelled", "ticket": ticket}
    if (seating := await pairing.seating(ticket)) is not None and seating.error is None:
        raise HttpError(409, "already_seated", "too late to cancel: you have a seat (look again to take it)")
    raise _not_waiting()
