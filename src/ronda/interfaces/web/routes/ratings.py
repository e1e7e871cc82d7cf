"""Ratings and players (docs/web-protocol.md): the leaderboard of each player count, and each player's page.

Reads only. A player's page is asked for by id or by name; the asker's own
identity (the player cookie, :func:`..accounts.identity_of`) decides whether
the player's games at private tables are shown: only to the player.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..accounts import identity_of
from ..forms import HttpError
from ..ratings import PLAYER_COUNTS
from ..site import lobby_of
from ..standings import find_player, leaderboard, player_page
from ..store import StoreUnavailable
from .pages import page

router = APIRouter()

UNREADABLE = HttpError(503, "store_unavailable", "the server cannot read its ratings just now: try again")


def _players(raw: str | None) -> int:
    if raw is None:
        return 2
    if raw.strip() not in {str(n) for n in PLAYER_COUNTS}:
        raise HttpError(
            400, "bad_request", f"players is 2, 3 or 4 (each player count has its own ratings), not {raw[:20]!r}"
        )
    return int(raw)


@router.api_route("/api/leaderboard", methods=["GET", "HEAD"])
async def get_leaderboard(request: Request, players: str | None = None, limit: int = 100) -> dict[str, Any]:
    journal = lobby_of(request).journal
    try:
        return await journal.read(leaderboard, journal.store, _players(players), max(1, min(limit, 500)))
    except StoreUnavailable:
        raise UNREADABLE from None


@router.api_route("/api/players/{key}", methods=["GET", "HEAD"])
async def get_player(request: Request, key: str) -> dict[str, Any]:
    journal = lobby_of(request).journal
    try:
        me = await identity_of(request, journal)
    except HttpError as error:
        if error.code == "store_unavailable":
            raise
        me = None  # a cookie that is no longer a session: the page as anyone sees it
    try:
        player_id = await journal.read(find_player, journal.store, key)
        viewer = None if me is None else me.player.id
        found = None if player_id is None else await journal.read(player_page, journal.store, player_id, viewer)
    except StoreUnavailable:
        raise UNREADABLE from None
    if found is None:
        raise HttpError(404, "not_found", f"there is no player {key[:40]!r}")
    return found


@router.api_route("/p/{key}", methods=["GET", "HEAD"], include_in_schema=False)
async def player_screen(key: str) -> Any:
    return page()


@router.api_route("/leaderboard", methods=["GET", "HEAD"], include_in_schema=False)
async def leaderboard_screen() -> Any:
    return page()
