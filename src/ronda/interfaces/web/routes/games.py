"""Finished games shown in full: a game's replay and its analysis (docs/web-protocol.md)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..forms import HttpError
from ..replays import replay_steps
from ..site import analyses_of, holds_seat, lobby_of
from ..store import StoreUnavailable
from ..tables import FINISHED, Table

router = APIRouter()


async def finished_game(request: Request, table_id: str, game: int | None) -> tuple[Table, int]:
    """The table and the number of a game of it that may be shown in full: finished, and to this asker."""
    table = await lobby_of(request).read_only(table_id)
    if not table.spectators and not holds_seat(table, request.headers.get("authorization")):
        raise HttpError(403, "no_spectators", "the table's creator lets only its players see its games")
    number = table.number if game is None else game
    if not 0 <= number <= table.number:
        raise HttpError(404, "not_found", f"table {table_id} has games 0 to {table.number}, not {number}")
    if number not in table.results or (number == table.number and table.status != FINISHED):
        raise HttpError(403, "not_finished", "a game can be replayed once it is over: every hand is shown then")
    return table, number


@router.api_route("/api/tables/{table_id}/replay", methods=["GET", "HEAD"])
async def replay(request: Request, table_id: str, game: int | None = None) -> dict[str, Any]:
    table, number = await finished_game(request, table_id, game)
    try:
        record = await table.journal.read(table.journal.store.load_record, table.id, number)
    except StoreUnavailable:
        raise HttpError(503, "store_unavailable", "the server cannot read its games just now: try again") from None
    steps = await asyncio.to_thread(replay_steps, record, table.bases.get(number, 0))
    return {"record": record, "steps": steps}


@router.api_route("/api/tables/{table_id}/analysis", methods=["GET", "HEAD"])
async def analysis(request: Request, table_id: str, game: int | None = None) -> JSONResponse:
    table, number = await finished_game(request, table_id, game)
    status, body = await analyses_of(request).get(table.id, number)
    return JSONResponse(body, status_code=status)
