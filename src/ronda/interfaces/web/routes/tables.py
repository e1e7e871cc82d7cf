"""The tables' HTTP API: what the server offers (``/api/meta``), creating, listing and joining tables."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....bots import levels
from ....engine.presets import PRESETS
from ....engine.rules import Rules
from ..forms import NAME_NEEDED, HttpError, SeatSpec, read_join, read_table_spec
from ..lobby import Elsewhere
from ..site import client_of, cluster_of, invite_of, json_body, lobby_of, site_of
from ..tables import Table, TableMoved
from .accounts import seated, sitter

router = APIRouter()


@router.api_route("/api/meta", methods=["GET", "HEAD"])
async def meta(request: Request) -> dict[str, Any]:
    settings = site_of(request).settings
    defaults = Rules()
    return {
        "levels": levels(),
        "presets": {
            name: {
                "summary": p.summary,
                "rules": {k: list(v) if isinstance(v, tuple) else v for k, v in p.values.items()},
                "players": list(p.players),
            }
            for name, p in PRESETS.items()
        },
        "variants": {
            f.name: list(v) if isinstance(v := getattr(defaults, f.name), tuple) else v
            for f in fields(Rules)
            if f.name != "players"
        },
        "stand_in": settings.stand_in,
        "grace": settings.grace,
    }


@router.post("/api/tables")
async def create_table(request: Request) -> JSONResponse:
    client = client_of(request)
    if not (verdict := await site_of(request).creating.hit(client)).admitted:
        raise HttpError(429, "rate_limited", "you are creating tables too fast: wait a minute", verdict.retry_seconds)
    spec = read_table_spec(await json_body(request))
    lobby = lobby_of(request)
    who = await sitter(request, spec.seats[spec.me].name, spec.keep)
    if who.player is not None:  # a player sits under the name they keep
        spec = replace(spec, seats=(*spec.seats[: spec.me], SeatSpec("human", who.name), *spec.seats[spec.me + 1 :]))

    async def create() -> JSONResponse:
        table, token = await lobby.create(spec, owner=client, player=who.player)
        return JSONResponse(
            {"table_id": table.id, "seat": spec.me, "token": token, "name": who.name, **invite_of(request, table.id)},
            status_code=201,
        )

    return await seated(request, who, create)


@router.api_route("/api/tables", methods=["GET", "HEAD"])
async def list_tables(request: Request, limit: int = 100) -> dict[str, Any]:
    limit = max(1, min(limit, 1000))
    shared = getattr(request.app.state, "listing", None)  # a cluster's: every process's tables (.cluster_lobby)
    return {"tables": await shared.summaries(limit) if shared is not None else lobby_of(request).summaries(limit)}


@router.api_route("/api/tables/{table_id}", methods=["GET", "HEAD"])
async def table_summary(request: Request, table_id: str) -> dict[str, Any]:
    return await lobby_of(request).find_summary(table_id)


@router.post("/api/tables/{table_id}/join")
async def join(request: Request, table_id: str) -> JSONResponse:
    if not (verdict := await site_of(request).joining.hit(client_of(request))).admitted:
        raise HttpError(429, "rate_limited", "too many tries to take a seat: wait a minute", verdict.retry_seconds)
    spec = read_join(await json_body(request))
    lobby = lobby_of(request)
    try:  # an unknown or closed table is refused before a name is kept
        table: Table | None = await lobby.open(table_id)
        owner = None
    except Elsewhere as elsewhere:  # another process owns the table: it takes the seat
        table, owner = None, elsewhere.owner
    here = table  # a seat or a name this table refuses is refused before the name is kept

    def first(name: str) -> None:
        if here is not None:
            here.vacancy(name, spec.seat, levels())

    who = await sitter(request, spec.name, spec.keep, first)
    name, player = who.name, who.player
    if name is None:  # no name typed, none kept: nothing was made
        raise NAME_NEEDED

    async def take() -> JSONResponse:
        nonlocal table
        if table is None:
            cluster = cluster_of(request)
            assert cluster is not None and owner is not None
            seat, token = await cluster.join_at(owner, table_id, name, spec.seat, player)
            return JSONResponse({"seat": seat, "token": token, "name": name})
        try:
            seat, token = await table.join(name, spec.seat, levels(), player)
        except TableMoved:
            table = await lobby.open(table_id)
            seat, token = await table.join(name, spec.seat, levels(), player)
        return JSONResponse({"seat": seat, "token": token, "name": name})

    return await seated(request, who, take)
