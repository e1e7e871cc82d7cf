"""What every route shares: the server's wiring (:class:`Site`) and the helpers that read a request.

:func:`~.app.create_app` builds one :class:`Site` and keeps it in
``app.state.site``; the routes (:mod:`.routes`) reach it, and the lobby the
app's lifespan opens, through the request, so a route module needs nothing of
``create_app``'s own and a new one (pairing, accounts) is one more router.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi import Request, WebSocket

from ...engine.jsontext import json_depth
from .accounts import Logins
from .analyses import Analyses
from .connections import AddressCaps
from .forms import MAX_BODY_BYTES, HttpError
from .guard import Origins
from .lobby import Lobby
from .metrics import LOOPBACK, Metrics, networks
from .pairing import Pairing
from .rates import RateLimit
from .rude import RudeWords
from .tables import ServerSettings, Table

if TYPE_CHECKING:
    from .cluster import Cluster

MAX_BODY_DEPTH = 8
"""Deepest nesting of arrays and objects read in a request body (a new table's is 3 deep)."""


@dataclass(frozen=True)
class Site:
    """The server's settings and the limits it keeps, made once by ``create_app`` and shared by every route."""

    settings: ServerSettings
    origins: Origins
    creating: RateLimit
    """Tables one client may create, by client."""
    joining: RateLimit
    """Seats one client may try to take, by client."""
    flood: RateLimit
    """Messages one websocket connection may send, by connection."""
    caps: AddressCaps
    """Connections without a seat, per client address."""
    pairing: Pairing
    """The play-now queue (:mod:`.pairing`)."""
    metrics: Metrics = field(default_factory=Metrics)
    """This process's metrics (:mod:`.metrics`)."""
    metrics_from: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = networks(LOOPBACK)
    """Who may read ``/metrics`` (``--metrics-from``)."""
    logins: Logins = field(default_factory=Logins)
    """Passwords one address, and one username, may try (:mod:`.accounts`)."""
    rude: RudeWords = field(default_factory=RudeWords.load)
    """The words no name typed here may hold (:mod:`.rude`: the shipped list and ``--rude-words``)."""


def site_of(request: Request | WebSocket) -> Site:
    site: Site = request.app.state.site
    return site


def lobby_of(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def cluster_of(request: Request | WebSocket) -> Cluster | None:
    """This process's part in a cluster (``ronda serve --redis``), else ``None``."""
    cluster: Cluster | None = request.app.state.cluster
    return cluster


def analyses_of(request: Request | WebSocket) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


def client_of(request: Request | WebSocket) -> str:
    """Who the limits count: the peer's address, or, from a trusted proxy behind ``--forwarded``, the client's as the
    proxy saw it (:meth:`.guard.Guard.forward` has put it there)."""
    return request.client.host if request.client else "unknown"


def invite_of(request: Request | WebSocket, table_id: str) -> dict[str, Any]:
    """The address friends open to join ``table_id``, and why they might not reach it (``invite_note``)."""
    origins = site_of(request).origins
    scheme = {"ws": "http", "wss": "https"}.get(request.url.scheme, request.url.scheme)
    base = origins.base(scheme, request.headers)
    return {"invite": f"{base}/t/{table_id}", "invite_note": origins.note(base)}


def holds_seat(table: Table, authorization: str | None) -> bool:
    """Whether an ``Authorization: Bearer TOKEN`` header holds one of the table's seats."""
    if not authorization or not authorization.lower().startswith("bearer "):
        return False
    return table.seat_of_token(authorization[7:].strip()) is not None


async def json_body(request: Request) -> Any:
    """The request's JSON body, refusing large, deep, mistyped or malformed ones with a 4xx naming the problem.

    The body is read in pieces and reading stops as soon as it passes the limit,
    whatever ``Content-Length`` said (or did not say: a chunked body).
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HttpError(415, "bad_content_type", "send the body as JSON, with Content-Type: application/json")
    too_large = HttpError(413, "too_large", f"a request body may hold at most {MAX_BODY_BYTES} bytes")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise too_large
    try:
        text = bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, "bad_json", "the body must be JSON in UTF-8") from None
    if json_depth(text, stop_above=MAX_BODY_DEPTH) > MAX_BODY_DEPTH:  # counted before parsing
        raise HttpError(400, "bad_json", f"the body nests arrays and objects at most {MAX_BODY_DEPTH} deep")
    try:
        return json.loads(text)
    except ValueError:
        raise HttpError(400, "bad_json", "the body must be JSON") from None
