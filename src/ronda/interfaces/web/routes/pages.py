"""The page: the lobby at ``/`` and a table's invite link ``/t/{table_id}`` both serve the one-page app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

STATIC = Path(__file__).resolve().parent.parent / "static"
"""The built page and its assets (served under ``/static``)."""

router = APIRouter(include_in_schema=False)


def page() -> FileResponse | HTMLResponse:
    index = STATIC / "index.html"
    if not index.is_file():
        return HTMLResponse("<h1>Ronda</h1><p>The page is not built in this copy.</p>", status_code=404)
    return FileResponse(index, media_type="text/html")


@router.api_route("/", methods=["GET", "HEAD"])
async def home() -> Any:
    return page()


@router.api_route("/t/{table_id}", methods=["GET", "HEAD"])
async def invite(table_id: str) -> Any:
    return page()
