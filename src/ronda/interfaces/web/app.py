"""The ASGI application of ``ronda serve``: the page, the HTTP API and the websocket of docs/web-protocol.md.

:func:`create_app` builds a FastAPI app around a :class:`~.lobby.Lobby`; the
database is opened and every unfinished table rebuilt when the app starts
(its lifespan), so tests build the app in-process with a database of their
own and ``ronda serve`` hands the same app to uvicorn.

Each websocket connection has an outbox drained by its own task: a table
never waits for a slow client, and a client that stops reading is closed
(it can reconnect and catch up) rather than holding memory without bound.

Hygiene for a server on the internet: every request body is read in pieces
and refused past 16 KiB (chunked ones too), and every JSON text is checked
for depth before it is parsed; creating and joining tables is rate-limited
per client; state-changing requests and websocket upgrades from a page of
another origin are refused (:class:`Guard`), and every answer carries a
strict Content-Security-Policy (no inline script, no framing).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ...analysis.search import DEFAULT_GUESSES, Method
from ...bots import levels
from ...engine.jsontext import json_depth
from ...engine.presets import PRESETS
from ...engine.rules import Rules
from .analyses import Analyses
from .collector import Collector
from .forms import MAX_BODY_BYTES, HttpError, read_join, read_table_spec
from .lobby import Limits, Lobby
from .protocol import (
    Act,
    AskHint,
    AutoDeclare,
    Hello,
    Ping,
    ProtocolError,
    Rematch,
    Settings,
    dumps,
    error_json,
    read_client_message,
)
from .replays import replay_steps
from .store import STORE_TIMEOUT, Journal, Store, StoreConflict, StoreUnavailable
from .tables import FINISHED, ServerSettings, Table, TableMoved
from .workers import BotPool, default_workers

log = logging.getLogger("ronda.web")

STATIC = Path(__file__).resolve().parent / "static"
DEFAULT_DATABASE_URL = "sqlite:///ronda-data/ronda.sqlite3"
OUTBOX = 512
"""Messages queued for one connection before it is deemed not to be reading and is closed."""
FLOOD_RATE = 20.0
FLOOD_BURST = 40.0
MAX_BODY_DEPTH = 8
"""Deepest nesting of arrays and objects read in a request body (a new table's is 3 deep)."""
CREATE_RATE = 20.0
"""Tables one client may create a minute (in bursts of as many)."""
JOIN_RATE = 30.0
"""Seats one client may try to take a minute (in bursts of as many)."""
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
CONNECTIONS_PER_CLIENT = 32
"""Connections without a seat (spectators, and sockets yet to say hello) one client may hold across the server."""
TOO_MANY = 4429
"""Close code of a connection refused by a cap on connections (after a ``too_many_connections`` error)."""


def loopback(host: str | None) -> bool:
    """Whether a host name or address reaches only this computer.

    >>> [loopback(h) for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "192.168.1.5", "ronda.example")]
    [True, True, True, False, False, False]
    """
    if not host:
        return False
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class RateGate:
    """Token buckets by client: ``per_minute`` actions a minute on average, in bursts of as many.

    >>> clock = iter([0.0, 0.0, 0.0, 30.0]).__next__
    >>> gate = RateGate(per_minute=2, clock=clock)
    >>> [gate.admit("1.2.3.4") for _ in range(4)]
    [True, True, False, True]
    """

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = per_minute / 60.0, max(1.0, per_minute), clock
        self.buckets: dict[str, tuple[float, float]] = {}

    def admit(self, client: str) -> bool:
        now = self.clock()
        tokens, last = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self.buckets) > 10_000:  # forget the clients whose buckets are full again
            self.buckets = {k: v for k, v in self.buckets.items() if v[0] + (now - v[1]) * self.rate < self.burst}
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return False
        self.buckets[client] = (tokens - 1, now)
        return True

    def wait(self, client: str) -> int:
        """Whole seconds until ``client`` may act again (for a ``Retry-After`` header)."""
        tokens, _ = self.buckets.get(client, (self.burst, 0.0))
        return max(1, int((1 - tokens) / self.rate + 0.999))


@dataclass(frozen=True)
class Origins:
    """Where the server is reached from, as the page's address shows it; decides what is same-origin.

    ``public_url`` (``--public-url``) is the address friends use, when known;
    ``allowed`` are other origins let in on purpose (``--allow-origin``, a
    proxy set up so); ``forwarded`` trusts the ``X-Forwarded-Proto`` and
    ``X-Forwarded-Host`` headers of a proxy in front (``--forwarded``).
    ``listen`` is the address the server listens on.
    """

    public_url: str | None = None
    allowed: frozenset[str] = frozenset()
    forwarded: bool = False
    listen: str | None = None

    def base(self, scheme: str, headers: Any) -> str:
        """The server's own address, as a friend's browser should open it (no trailing slash)."""
        if self.public_url:
            return self.public_url.rstrip("/")
        host = headers.get("host") or "localhost"
        if self.forwarded:
            host = (headers.get("x-forwarded-host") or host).split(",")[0].strip()
            scheme = (headers.get("x-forwarded-proto") or scheme).split(",")[0].strip()
        return f"{scheme}://{host}"

    def own(self, scheme: str, headers: Any) -> set[str]:
        """Every origin that is this server's."""
        mine = {_origin(self.base(scheme, headers)), _origin(f"{scheme}://{headers.get('host') or 'localhost'}")}
        return mine | self.allowed

    def note(self, base: str) -> str | None:
        """Why friends elsewhere might not reach an invite on ``base``: ``loopback_only`` or ``loopback_address``."""
        if self.public_url:
            return None
        if loopback(self.listen):
            return "loopback_only"
        if loopback(urlsplit(base).hostname):
            return "loopback_address"
        return None


def _origin(url: str) -> str:
    """The origin of a URL, as browsers write it in ``Origin``: scheme, host and any non-default port."""
    parts = urlsplit(url.strip().lower())
    port = parts.port
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default else "")


def security_headers(scheme: str, host: str) -> list[tuple[bytes, bytes]]:
    """Headers on every answer: a CSP with no inline script and no framing, no sniffing, no referrer."""
    sockets = f"ws://{host} wss://{host}" if host else ""
    policy = (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        f"connect-src 'self' {sockets}; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )
    return [
        (b"content-security-policy", policy.encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]


ASGIApp = Callable[[dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


class Guard:
    """ASGI middleware: same-origin only for what changes state, and the security headers on every answer.

    A websocket upgrade, or a POST, that carries an ``Origin`` other than the
    server's own (or one allowed with ``--allow-origin``) is refused: 403 for
    HTTP with a JSON error, and a refused handshake for a websocket. Requests
    without ``Origin`` (scripts, the load benchmark) are not a browser page of
    another site and pass.
    """

    def __init__(self, app: Any, origins: Origins) -> None:
        self.app: ASGIApp = app
        self.origins = origins
        self.state = app.state
        """The application's state (its lobby and bot pool), for tests and tools."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
        origin = headers.get("origin")
        changes = scope["type"] == "websocket" or scope.get("method") not in ("GET", "HEAD", "OPTIONS")
        if changes and origin is not None and _origin(origin) not in self.origins.own(scheme, headers):
            log.info("refused a request from another origin")
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4403, "reason": "another origin"})
                return
            body = json.dumps(
                {"error": {"code": "bad_origin", "message": "requests from another site's page are refused"}}
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json"), *security_headers(scheme, "")],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        extra = security_headers(scheme, headers.get("host", ""))

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class FloodGate:
    """A token bucket per connection: ``rate`` messages a second on average, bursts up to ``burst``.

    :meth:`admit` answers ``"ok"``, ``"flood"`` for the first refusal of a flood
    (the client is told once) or ``"drop"`` for the rest. The flood is over when
    the client has slowed down enough to fill half the bucket again.

    >>> clock = iter([0.0] * 5 + [1.0, 3.0]).__next__
    >>> gate = FloodGate(rate=1, burst=2, clock=clock)
    >>> [gate.admit() for _ in range(6)]
    ['ok', 'ok', 'flood', 'drop', 'ok', 'ok']
    """

    def __init__(self, rate: float = FLOOD_RATE, burst: float = FLOOD_BURST, clock: Any = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()
        self.flooding = False

    def admit(self) -> str:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            if self.flooding and self.tokens >= self.burst / 2:
                self.flooding = False
            return "ok"
        if self.flooding:
            return "drop"
        self.flooding = True
        return "flood"


@dataclass(eq=False)
class Counted:
    """One websocket as :class:`AddressCaps` counts it: its client's address and what it is now."""

    address: str
    evict: Callable[[], None]
    """Closes the connection (with ``too_many_connections``) when a newer one of its address takes its place."""
    kind: str = "pending"
    """``pending`` until its hello is answered, then ``watching`` or ``seated``; ``closed`` once gone."""


class AddressCaps:
    """Connections without a seat, counted by client address across the whole server, each kind up to ``cap``.

    A connection is *pending* from its upgrade until its hello is answered,
    then *watching* (a spectator) or *seated*. Pending and watching connections
    are what one address could open without end — the invite link, or a
    public table, is all it takes — so each is capped per address; seated
    connections are never counted. A seat holder always gets in: a new socket
    is never refused (past the cap, the oldest pending socket of its address is
    closed instead, so sockets that never say hello cannot keep a player out),
    and a hello with a seat's token is never refused for these caps.

    >>> caps, closed = AddressCaps(cap=2), []
    >>> first, second = (caps.open("1.2.3.4", lambda: closed.append("first")) for _ in range(2))
    >>> third = caps.open("1.2.3.4", lambda: closed.append("third"))
    >>> closed, first.kind  # the oldest socket that has not said hello makes room
    (['first'], 'closed')
    >>> caps.watch(second), caps.watch(third)  # both watch now
    (True, True)
    >>> fourth = caps.open("1.2.3.4", lambda: None)
    >>> caps.watch(fourth)  # the address already watches with 2 connections
    False
    >>> caps.settle(fourth, 0)  # it holds seat 0 instead: seated connections are never counted
    >>> fourth.kind, caps.watching["1.2.3.4"]
    ('seated', 2)
    """

    def __init__(self, cap: int = CONNECTIONS_PER_CLIENT) -> None:
        self.cap = cap
        self.pending: dict[str, list[Counted]] = {}
        """Each address's sockets yet to say hello, oldest first."""
        self.watching: dict[str, int] = {}

    def open(self, address: str, evict: Callable[[], None]) -> Counted:
        """Count a new socket of ``address`` as pending; past the cap, the address's oldest pending one is evicted."""
        waiting = self.pending.setdefault(address, [])
        if len(waiting) >= self.cap:
            oldest = waiting.pop(0)
            oldest.kind = "closed"
            oldest.evict()
        counted = Counted(address, evict)
        waiting.append(counted)
        return counted

    def watch(self, counted: Counted) -> bool:
        """Count ``counted`` as a spectator before its hello; ``False`` when its address watches at the cap.

        Counted before the table answers, so that two hellos at once cannot both take the last place.
        """
        if counted.kind == "watching":
            return True
        if self.watching.get(counted.address, 0) >= self.cap:
            return False
        self.settle(counted, None)
        return True

    def settle(self, counted: Counted, seat: int | None) -> None:
        """The hello was answered: the connection now holds ``seat`` (``None``: it watches)."""
        kind = "watching" if seat is None else "seated"
        if counted.kind not in (kind, "closed"):
            self.close(counted)
            counted.kind = kind
            if kind == "watching":
                self.watching[counted.address] = self.watching.get(counted.address, 0) + 1

    def close(self, counted: Counted) -> None:
        """The connection is gone (or changes kind): it no longer counts."""
        if counted.kind == "pending":
            waiting = self.pending.get(counted.address, [])
            if counted in waiting:
                waiting.remove(counted)
            if not waiting:
                self.pending.pop(counted.address, None)
        elif counted.kind == "watching":
            left = self.watching.get(counted.address, 0) - 1
            if left > 0:
                self.watching[counted.address] = left
            else:
                self.watching.pop(counted.address, None)
        counted.kind = "closed"


class Connection:
    """One websocket as a table sees it: :meth:`send` queues without blocking; :meth:`pump` writes in order."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.outbox: asyncio.Queue[str | int | None] = asyncio.Queue(maxsize=OUTBOX)
        self.overflowed = False
        self.closing: int | None = None
        """The close code asked for by :meth:`close_soon`, once asked."""

    def send(self, text: str) -> None:
        if self.overflowed or self.closing is not None:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            log.warning("a connection stopped reading; closing it")
            asyncio.get_running_loop().create_task(self._close(1013))

    def close_soon(self, code: int) -> None:
        """Close with ``code`` once what is queued is sent (the client is told why first)."""
        if self.closing is None and not self.overflowed:
            self.closing = code
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(code)

    async def pump(self) -> None:
        while (item := await self.outbox.get()) is not None:
            if isinstance(item, int):
                await self._close(item)
                return
            await self.websocket.send_text(item)

    async def finish(self, pump: asyncio.Task[None], code: int = 1000) -> None:
        """Send what is queued, then close."""
        if not self.overflowed:
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)
            try:
                await asyncio.wait_for(pump, timeout=5)
            except Exception:
                pump.cancel()
        else:
            pump.cancel()
        await self._close(self.closing or code)

    async def _close(self, code: int) -> None:
        try:
            if self.websocket.application_state != WebSocketState.DISCONNECTED:
                await self.websocket.close(code)
        except Exception:
            pass


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    grace: float = 60.0,
    stand_in: str = "medium",
    bot_delay: float = 0.6,
    flood_rate: float = FLOOD_RATE,
    bot_workers: int | None = None,
    store_timeout: float = STORE_TIMEOUT,
    store_sync: str = "full",
    max_tables: int = 1000,
    tables_per_client: int = 10,
    create_rate: float = CREATE_RATE,
    join_rate: float = JOIN_RATE,
    close_after: float = 900.0,
    linger: float = 30.0,
    public_url: str | None = None,
    allow_origins: tuple[str, ...] = (),
    forwarded: bool = False,
    listen_host: str | None = None,
    analysis_budget: int = DEFAULT_GUESSES,
    paced_collector: bool = False,
    connections_per_client: int = CONNECTIONS_PER_CLIENT,
    spectators_per_table: int = 64,
) -> Any:
    """The web server as an ASGI app; the database opens, and stored tables are listed, when it starts.

    ``flood_rate`` is the messages a second one connection may send on average (bursts of twice that);
    tests and the load benchmark, whose scripted players are faster than any person, raise it and the
    limits on creating tables. ``bot_workers`` processes think for the bots (default: one per core), and
    search hints and analyses with ``analysis_budget`` guesses a decision (``ronda analyse``'s ``--budget``).
    ``store_sync`` is how far a SQLite commit goes (:class:`.store.Store`). ``paced_collector`` runs full
    garbage collections on a schedule while the app runs (``ronda serve`` does; see :mod:`.collector`): it
    changes the whole process, so tests that build apps in-process leave it off.
    """
    if stand_in not in levels():
        raise ValueError(f"unknown stand-in level {stand_in!r} (known: {', '.join(levels())})")
    if grace < 0 or bot_delay < 0 or flood_rate <= 0 or store_timeout <= 0:
        raise ValueError("grace and bot_delay are seconds, zero or more; flood_rate and store_timeout above zero")
    if (
        min(max_tables, tables_per_client, connections_per_client, spectators_per_table) < 1
        or min(create_rate, join_rate) <= 0
        or min(close_after, linger) < 0
    ):
        raise ValueError("the limits are above zero, and close_after and linger zero or more")
    workers = default_workers() if bot_workers is None else bot_workers
    if workers < 1:
        raise ValueError(f"bot_workers is one or more, not {workers}")
    if public_url is not None and urlsplit(public_url).scheme not in ("http", "https"):
        raise ValueError(f"the public URL starts with http:// or https://, not {public_url!r}")
    if analysis_budget < 1:
        raise ValueError(f"the analysis budget is a number of guesses, 1 or more, not {analysis_budget}")
    settings = ServerSettings(
        grace=grace,
        stand_in=stand_in,
        bot_delay=bot_delay,
        close_after=close_after,
        linger=linger,
        method=Method(guesses=analysis_budget),
        max_spectators=spectators_per_table,
    )
    limits = Limits(max_tables=max_tables, tables_per_client=tables_per_client)
    origins = Origins(public_url, frozenset(_origin(o) for o in allow_origins), forwarded, listen_host)
    creating, joining = RateGate(create_rate), RateGate(join_rate)
    caps = AddressCaps(connections_per_client)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        journal = Journal(Store(database_url, timeout=store_timeout, sync=store_sync))
        pool = BotPool(workers)
        lobby = Lobby(journal, settings, pool, limits)
        analyses = Analyses(journal, pool, settings.method)
        await asyncio.to_thread(lobby.load)
        await lobby.start()
        collector = Collector() if paced_collector else None
        if collector is not None:
            await collector.start()
        app.state.lobby = lobby
        app.state.pool = pool
        app.state.analyses = analyses
        try:
            yield
        finally:
            if collector is not None:
                await collector.stop()
            await analyses.close()
            await lobby.stop()
            await pool.close()
            journal.close()

    app = FastAPI(title="Ronda", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    @app.exception_handler(HttpError)
    async def http_error(_request: Request, error: HttpError) -> JSONResponse:
        headers = {"Retry-After": str(error.retry_after)} if error.retry_after else None
        return JSONResponse(error.to_json(), status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        where = " ".join(str(part) for part in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'not valid')}" if where else "the request is not valid"
        return JSONResponse({"error": {"code": "bad_request", "message": message}}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def starlette_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "bad_request")
        return JSONResponse({"error": {"code": code, "message": str(error.detail)}}, status_code=error.status_code)

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    def client_of(request: Request | WebSocket) -> str:
        """Who the limits count: the address, or the proxy's ``X-Forwarded-For`` first entry when trusted."""
        if forwarded and (chain := request.headers.get("x-forwarded-for")):
            return chain.split(",")[0].strip()
        return request.client.host if request.client else "unknown"

    def invite_of(request: Request | WebSocket, table_id: str) -> dict[str, Any]:
        scheme = {"ws": "http", "wss": "https"}.get(request.url.scheme, request.url.scheme)
        base = origins.base(scheme, request.headers)
        return {"invite": f"{base}/t/{table_id}", "invite_note": origins.note(base)}

    # ------------------------------------------------------------------ page

    def page() -> FileResponse | HTMLResponse:
        index = STATIC / "index.html"
        if not index.is_file():
            return HTMLResponse("<h1>Ronda</h1><p>The page is not built in this copy.</p>", status_code=404)
        return FileResponse(index, media_type="text/html")

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def home() -> Any:
        return page()

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def invite(table_id: str) -> Any:
        return page()

    # ------------------------------------------------------------------- api

    @app.api_route("/api/meta", methods=["GET", "HEAD"])
    async def meta() -> dict[str, Any]:
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

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        client = client_of(request)
        if not creating.admit(client):
            raise HttpError(
                429, "rate_limited", "you are creating tables too fast: wait a minute", creating.wait(client)
            )
        spec = read_table_spec(await json_body(request))
        table, token = await lobby_of(request).create(spec, owner=client)
        return JSONResponse(
            {"table_id": table.id, "seat": spec.me, "token": token, **invite_of(request, table.id)}, status_code=201
        )

    @app.api_route("/api/tables", methods=["GET", "HEAD"])
    async def list_tables(request: Request, limit: int = 100) -> dict[str, Any]:
        return {"tables": lobby_of(request).summaries(max(1, min(limit, 1000)))}

    @app.api_route("/api/tables/{table_id}", methods=["GET", "HEAD"])
    async def table_summary(request: Request, table_id: str) -> dict[str, Any]:
        return lobby_of(request).summary(table_id)

    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str) -> dict[str, Any]:
        client = client_of(request)
        if not joining.admit(client):
            raise HttpError(429, "rate_limited", "too many tries to take a seat: wait a minute", joining.wait(client))
        spec = read_join(await json_body(request))
        table = await lobby_of(request).open(table_id)
        try:
            seat, token = await table.join(spec.name, spec.seat, levels())
        except TableMoved:
            table = await lobby_of(request).open(table_id)
            seat, token = await table.join(spec.name, spec.seat, levels())
        return {"seat": seat, "token": token}

    async def finished_game(request: Request, table_id: str, game: int | None) -> tuple[Table, int]:
        """The table and the number of a game of it that may be shown in full: finished, and to this asker."""
        table = await lobby_of(request).open(table_id)
        if not table.spectators and not _holds_seat(table, request.headers.get("authorization")):
            raise HttpError(403, "no_spectators", "the table's creator lets only its players see its games")
        number = table.number if game is None else game
        if not 0 <= number <= table.number:
            raise HttpError(404, "not_found", f"table {table_id} has games 0 to {table.number}, not {number}")
        if number not in table.results or (number == table.number and table.status != FINISHED):
            raise HttpError(403, "not_finished", "a game can be replayed once it is over: every hand is shown then")
        return table, number

    @app.api_route("/api/tables/{table_id}/replay", methods=["GET", "HEAD"])
    async def replay(request: Request, table_id: str, game: int | None = None) -> dict[str, Any]:
        table, number = await finished_game(request, table_id, game)
        try:
            record = await table.journal.read(table.journal.store.load_record, table.id, number)
        except StoreUnavailable:
            raise HttpError(503, "store_unavailable", "the server cannot read its games just now: try again") from None
        steps = await asyncio.to_thread(replay_steps, record, table.bases.get(number, 0))
        return {"record": record, "steps": steps}

    @app.api_route("/api/tables/{table_id}/analysis", methods=["GET", "HEAD"])
    async def analysis(request: Request, table_id: str, game: int | None = None) -> JSONResponse:
        table, number = await finished_game(request, table_id, game)
        analyses: Analyses = request.app.state.analyses
        status, body = await analyses.get(table.id, number)
        return JSONResponse(body, status_code=status)

    # ------------------------------------------------------------- websocket

    @app.websocket("/ws/{table_id}")
    async def websocket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        connection = Connection(websocket)
        pump = asyncio.get_running_loop().create_task(connection.pump())

        def evict() -> None:
            message = f"one address may hold {caps.cap} connections that have not said hello: this one was closed"
            connection.send(dumps(error_json("too_many_connections", message)))
            connection.close_soon(TOO_MANY)

        handle = caps.open(client_of(websocket), evict)
        try:
            table = await lobby_of(websocket).open(table_id)
        except HttpError as error:
            why = {"closed": "closed", "store_unavailable": "store_unavailable"}.get(error.code, "not_found")
            connection.send(dumps(error_json(why, error.message)))
            caps.close(handle)
            await connection.finish(pump, {"closed": 4410, "store_unavailable": 4503}.get(why, 4404))
            return
        code = 1000
        held = [table]

        async def reopen() -> Table:
            """The table left memory meanwhile: the lobby rebuilds it (a raise here reaches the client as an error)."""
            try:
                held[0] = await lobby_of(websocket).open(table_id)
            except HttpError as error:
                raise ProtocolError("not_found", error.message) from None
            return held[0]

        try:
            await serve_connection(
                held, reopen, connection, FloodGate(flood_rate, 2 * flood_rate), invite_of(websocket, table_id),
                caps, handle,
            )  # fmt: skip
        except WebSocketDisconnect:
            pass
        except Exception as error:
            # A fault of the server's own: the kind is logged, never the message (it could name a card).
            log.error("table %s: a connection failed (%s); it is closed", table.id, type(error).__name__)
            code = 1011
        finally:
            held[0].leave(connection)
            caps.close(handle)
            await connection.finish(pump, code)

    return Guard(app, origins)


def _holds_seat(table: Table, authorization: str | None) -> bool:
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


async def serve_connection(
    held: list[Table],
    reopen: Callable[[], Awaitable[Table]],
    connection: Connection,
    gate: FloodGate,
    invite: dict[str, Any],
    caps: AddressCaps | None = None,
    handle: Counted | None = None,
) -> None:
    """Read one client's messages until it goes: each is checked, and an error goes back to that client only.

    ``held[0]`` is the table the connection is at; a table that left memory
    since (:class:`~.tables.TableMoved`) is opened again with ``reopen``.
    ``caps`` counts the connection (``handle``) as pending, watching or seated.
    """
    websocket = connection.websocket
    said_hello = False
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        admitted = gate.admit()
        if admitted != "ok":
            if admitted == "flood":
                connection.send(dumps(error_json("flood", "too many messages: slow down; these are ignored")))
            continue
        try:
            text = frame.get("text")
            message = read_client_message(text if text is not None else frame.get("bytes"))
            table = held[0]
            if isinstance(message, Hello):
                if caps is not None and handle is not None and message.token is None and not caps.watch(handle):
                    raise ProtocolError(
                        "too_many_connections",
                        f"one address may watch with {caps.cap} connections at once: close some first",
                    )
                try:
                    await table.hello(connection, message.token, message.since, invite)
                except TableMoved:
                    table.leave(connection)
                    await (await reopen()).hello(connection, message.token, message.since, invite)
                said_hello = True
                if caps is not None and handle is not None:
                    caps.settle(handle, held[0].clients.get(connection))
            elif not said_hello:
                raise ProtocolError("not_hello", 'say hello first: {"type": "hello", "token": ..., "since": null}')
            elif isinstance(message, Act):
                await table.act(connection, message.action, message.version)
            elif isinstance(message, AutoDeclare):
                await table.set_auto_declare(connection, message.on)
            elif isinstance(message, Rematch):
                await table.rematch(connection)
            elif isinstance(message, Settings):
                await table.set_access(connection, message.public, message.spectators, message.hints)
            elif isinstance(message, AskHint):
                table.hint(connection)
            elif isinstance(message, Ping):
                connection.send(dumps({"type": "pong"}))
        except StoreConflict:
            # The store holds a row this connection's message would write again (a stored thing the table did not
            # know of): the message is refused, retryably; a store conflict never closes a connection.
            log.error("table %s: the store refused a write as a conflict; the message is refused", held[0].id)
            connection.send(dumps(error_json("store_unavailable", "this could not be saved just now: try again")))
        except ProtocolError as error:
            connection.send(dumps(error.to_json()))
            if error.code in ("closed", "no_spectators", "too_many_connections"):
                connection.close_soon({"closed": 4410, "no_spectators": 4403}.get(error.code, TOO_MANY))
                return
