"""The ASGI application of ``ronda serve``: the page, the HTTP API and the websocket of docs/web-protocol.md.

:func:`create_app` builds a FastAPI app around a :class:`~.lobby.Lobby`; the
database is opened and every unfinished table rebuilt when the app starts
(its lifespan), so tests build the app in-process with a database of their
own and ``ronda serve`` hands the same app to uvicorn.

Each websocket connection has an outbox drained by its own task: a table
never waits for a slow client, and a client that stops reading is closed
(it can reconnect and catch up) rather than holding memory without bound.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import fields
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ...bots import levels
from ...engine.presets import PRESETS
from ...engine.rules import Rules
from .forms import MAX_BODY_BYTES, HttpError, read_join, read_table_spec
from .lobby import Lobby
from .protocol import (
    Act,
    AutoDeclare,
    Hello,
    Ping,
    ProtocolError,
    Rematch,
    dumps,
    error_json,
    read_client_message,
)
from .replays import replay_steps
from .store import Journal, Store
from .tables import FINISHED, ServerSettings, Table

log = logging.getLogger("ronda.web")

STATIC = Path(__file__).resolve().parent / "static"
DEFAULT_DATABASE_URL = "sqlite:///ronda-data/ronda.sqlite3"
OUTBOX = 512
"""Messages queued for one connection before it is deemed not to be reading and is closed."""
FLOOD_RATE = 20.0
FLOOD_BURST = 40.0


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


class Connection:
    """One websocket as a table sees it: :meth:`send` queues without blocking; :meth:`pump` writes in order."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=OUTBOX)
        self.overflowed = False

    def send(self, text: str) -> None:
        if self.overflowed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            log.warning("a connection stopped reading; closing it")
            asyncio.get_running_loop().create_task(self._close(1013))

    async def pump(self) -> None:
        while (text := await self.outbox.get()) is not None:
            await self.websocket.send_text(text)

    async def finish(self, pump: asyncio.Task[None], code: int = 1000) -> None:
        """Send what is queued, then close."""
        if not self.overflowed:
            self.outbox.put_nowait(None)
            try:
                await asyncio.wait_for(pump, timeout=5)
            except Exception:
                pump.cancel()
        else:
            pump.cancel()
        await self._close(code)

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
) -> FastAPI:
    """The web server as an ASGI app; the database opens, and unfinished tables are rebuilt, when it starts.

    ``flood_rate`` is the messages a second one connection may send on average (bursts of twice that);
    tests and the load benchmark, whose scripted players are faster than any person, raise it.
    """
    if stand_in not in levels():
        raise ValueError(f"unknown stand-in level {stand_in!r} (known: {', '.join(levels())})")
    if grace < 0 or bot_delay < 0 or flood_rate <= 0:
        raise ValueError("grace and bot_delay are seconds, zero or more; flood_rate is above zero")
    settings = ServerSettings(grace=grace, stand_in=stand_in, bot_delay=bot_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        journal = Journal(Store(database_url))
        lobby = Lobby(journal, settings)
        lobby.load()
        await lobby.start()
        app.state.lobby = lobby
        try:
            yield
        finally:
            await lobby.stop()
            journal.close()

    app = FastAPI(title="Ronda", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    @app.exception_handler(HttpError)
    async def http_error(_request: Request, error: HttpError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.status)

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

    # ------------------------------------------------------------------ page

    def page() -> FileResponse | HTMLResponse:
        index = STATIC / "index.html"
        if not index.is_file():
            return HTMLResponse("<h1>Ronda</h1><p>The page is not built in this copy.</p>", status_code=404)
        return FileResponse(index, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def home() -> Any:
        return page()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def invite(table_id: str) -> Any:
        return page()

    # ------------------------------------------------------------------- api

    @app.get("/api/meta")
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
        spec = read_table_spec(await json_body(request))
        table, token = await lobby_of(request).create(spec)
        return JSONResponse(
            {"table_id": table.id, "seat": spec.me, "token": token, "invite": f"/t/{table.id}"}, status_code=201
        )

    @app.get("/api/tables")
    async def list_tables(request: Request, limit: int = 100) -> dict[str, Any]:
        return {"tables": lobby_of(request).summaries(max(1, min(limit, 1000)))}

    @app.get("/api/tables/{table_id}")
    async def table_summary(request: Request, table_id: str) -> dict[str, Any]:
        return lobby_of(request).get(table_id).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str) -> dict[str, Any]:
        table = lobby_of(request).get(table_id)
        spec = read_join(await json_body(request))
        seat, token = await table.join(spec.name, spec.seat)
        return {"seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/replay")
    async def replay(request: Request, table_id: str, game: int | None = None) -> dict[str, Any]:
        table = lobby_of(request).get(table_id)
        number = table.number if game is None else game
        if not 0 <= number <= table.number:
            raise HttpError(404, "not_found", f"table {table_id} has games 0 to {table.number}, not {number}")
        if number not in table.results or (number == table.number and table.status != FINISHED):
            raise HttpError(403, "not_finished", "a game can be replayed once it is over: every hand is shown then")
        record = await table.journal.read(table.journal.store.load_record, table.id, number)
        steps = await asyncio.to_thread(replay_steps, record, table.bases.get(number, 0))
        return {"record": record, "steps": steps}

    # ------------------------------------------------------------- websocket

    @app.websocket("/ws/{table_id}")
    async def websocket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        connection = Connection(websocket)
        pump = asyncio.get_running_loop().create_task(connection.pump())
        table = lobby_of(websocket).tables.get(table_id)
        if table is None:
            connection.send(dumps(error_json("not_found", "there is no such table")))
            await connection.finish(pump, 4404)
            return
        code = 1000
        try:
            await serve_connection(table, connection, FloodGate(flood_rate, 2 * flood_rate))
        except WebSocketDisconnect:
            pass
        except Exception as error:
            # A fault of the server's own: the kind is logged, never the message (it could name a card).
            log.error("table %s: a connection failed (%s); it is closed", table.id, type(error).__name__)
            code = 1011
        finally:
            table.leave(connection)
            await connection.finish(pump, code)

    return app


async def json_body(request: Request) -> Any:
    """The request's JSON body, refusing large or malformed ones with a 4xx naming the problem."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise HttpError(413, "too_large", f"a request body may hold at most {MAX_BODY_BYTES} bytes")
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise HttpError(413, "too_large", f"a request body may hold at most {MAX_BODY_BYTES} bytes")
    try:
        return json.loads(body)
    except ValueError:
        raise HttpError(400, "bad_json", "the body must be JSON") from None


async def serve_connection(table: Table, connection: Connection, gate: FloodGate) -> None:
    """Read one client's messages until it goes: each is checked, and an error goes back to that client only."""
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
            if isinstance(message, Hello):
                await table.hello(connection, message.token, message.since)
                said_hello = True
            elif not said_hello:
                raise ProtocolError("not_hello", 'say hello first: {"type": "hello", "token": ..., "since": null}')
            elif isinstance(message, Act):
                await table.act(connection, message.action)
            elif isinstance(message, AutoDeclare):
                await table.set_auto_declare(connection, message.on)
            elif isinstance(message, Rematch):
                await table.rematch(connection)
            elif isinstance(message, Ping):
                connection.send(dumps({"type": "pong"}))
        except ProtocolError as error:
            connection.send(dumps(error.to_json()))
