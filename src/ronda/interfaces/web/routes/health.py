"""What the operator's tools read: ``/metrics`` (Prometheus), ``/healthz`` and ``/readyz`` (the load balancer).

See :mod:`..metrics` for what is measured and who may read it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text

from ..forms import HttpError
from ..metrics import READY_TIMEOUT, may_read_metrics
from ..site import site_of
from ..store import Store

router = APIRouter()


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    site = site_of(request)
    if not may_read_metrics(request, site.metrics_from):
        raise HttpError(403, "forbidden", "the metrics are served to the addresses of --metrics-from only")
    return Response(site.metrics.render(), media_type=CONTENT_TYPE_LATEST)


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers (its event loop runs)."""
    return {"status": "ok"}


def _probe_store(store: Store) -> None:
    """A write that changes nothing, rolled back: it answers only when the store could take a move now.

    A read would not do: SQLite (in WAL mode) answers reads while another
    process holds its write lock, and then every move is refused.
    """
    with store.engine.connect() as db:
        db.execute(text("UPDATE ronda_tables SET status = status WHERE 1 = 0"))
        db.rollback()


async def _answers(check: Awaitable[Any]) -> bool:
    try:
        await asyncio.wait_for(check, READY_TIMEOUT)
    except Exception:
        return False
    return True


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Readiness: not while draining, and only when the store (and Redis, when configured) answer in time."""
    state = request.app.state
    if getattr(state, "draining", False):
        return JSONResponse({"status": "draining"}, status_code=503)
    lobby = getattr(state, "lobby", None)
    if lobby is None:
        return JSONResponse({"status": "starting"}, status_code=503)
    checks = {"store": _answers(lobby.journal.read(_probe_store, lobby.journal.store))}
    redis = getattr(state, "redis", None)
    if redis is not None:
        checks["redis"] = _answers(redis.ping())
    results = dict(zip(checks, await asyncio.gather(*checks.values()), strict=True))
    failed = [part for part, ok in results.items() if not ok]
    if failed:
        return JSONResponse({"status": "not_ready", "not_answering": failed}, status_code=503)
    return JSONResponse({"status": "ready"})
