"""The ASGI application of ``ronda serve``: the page, the HTTP API and the websocket of docs/web-protocol.md.

:func:`create_app` checks the settings, builds the shared wiring
(:class:`~.site.Site`: limits, origins, caps), opens the database and every
unfinished table when the app starts (its lifespan), and includes the routers
of :mod:`.routes`; tests build the app in-process with a database of their own
and ``ronda serve`` hands the same app to uvicorn.

Hygiene for a server on the internet: every request body is read in pieces
and refused past 16 KiB (chunked ones too), and every JSON text is checked
for depth before it is parsed (:func:`~.site.json_body`); creating and joining
tables is rate-limited per client (:mod:`.rates`); state-changing requests and
websocket upgrades from a page of another origin are refused
(:class:`~.guard.Guard`), and every answer carries a strict
Content-Security-Policy (no inline script, no framing).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ...analysis.search import DEFAULT_GUESSES, Method
from ...bots import levels
from .analyses import Analyses
from .cluster_lobby import SharedListing
from .collector import Collector
from .connections import CONNECTIONS_PER_CLIENT
from .forms import HttpError
from .guard import LOOPBACK_PROXIES, Guard, Origins, allowed_host, origin_of, proxy_networks
from .lobby import Limits, Lobby
from .metrics import LOOPBACK, CountConnections, CountedLimit, Metrics, networks
from .rates import CREATE_RATE, FLOOD_RATE, JOIN_RATE
from .redis_limits import RedisCaps, cluster_client, login_limits, server_limits
from .routes import ROUTERS
from .routes.pages import STATIC
from .rude import RudeWords
from .site import Site
from .store import STORE_TIMEOUT, Journal, Store
from .tables import ServerSettings
from .workers import BotPool, default_workers

DEFAULT_DATABASE_URL = "sqlite:///ronda-data/ronda.sqlite3"

log = logging.getLogger("ronda.web")

__all__ = ["DEFAULT_DATABASE_URL", "STATIC", "create_app"]


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    grace: float = 60.0,
    turn_time: float = 120.0,
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
    allowed_hosts: tuple[str, ...] = (),
    forwarded: bool = False,
    forwarded_from: tuple[str, ...] = LOOPBACK_PROXIES,
    listen_host: str | None = None,
    analysis_budget: int = DEFAULT_GUESSES,
    paced_collector: bool = False,
    connections_per_client: int = CONNECTIONS_PER_CLIENT,
    spectators_per_table: int = 64,
    metrics_from: tuple[str, ...] = LOOPBACK,
    redis_url: str | None = None,
    rude_words: str | Path | None = None,
) -> Any:
    """The web server as an ASGI app; the database opens, and stored tables are listed, when it starts.

    ``flood_rate`` is the messages a second one connection may send on average (bursts of twice that);
    tests and the load benchmark, whose scripted players are faster than any person, raise it and the
    limits on creating tables. ``bot_workers`` processes think for the bots (default: one per core), and
    search hints and analyses with ``analysis_budget`` guesses a decision (``ronda analyse``'s ``--budget``).
    ``store_sync`` is how far a SQLite commit goes (:class:`.store.Store`). ``paced_collector`` runs full
    garbage collections on a schedule while the app runs (``ronda serve`` does; see :mod:`.collector`): it
    changes the whole process, so tests that build apps in-process leave it off. ``metrics_from``: the
    addresses and networks that may read ``/metrics`` (:mod:`.metrics`; default this machine only).
    ``redis_url``: the Redis of a cluster of processes; the rate limits, the caps on connections and the play-now
    queue are then kept there, shared by every process (:mod:`.redis_limits`), and this process is one of several
    over the same PostgreSQL database (:mod:`.cluster`). ``allowed_hosts``: the host names answered, without a
    ``public_url``, besides loopback names and IP addresses (``--allowed-host``, :meth:`.guard.Origins.stranger`;
    a test client built in-process names ``testserver``). ``forwarded``: behind a reverse proxy, whose
    ``X-Forwarded-For``, ``-Proto`` and ``-Host`` are believed from the addresses of ``forwarded_from`` only
    (``--forwarded-from``; default this machine; :meth:`.guard.Guard.forward`). ``rude_words``: the operator's
    file of words no name may hold, beside the shipped list (``--rude-words``, :mod:`.rude`; an unreadable file
    raises :class:`OSError`, a line without a word :class:`ValueError`).
    """
    if redis_url is not None and database_url.startswith("sqlite"):
        raise ValueError(
            "several processes (--redis) share one PostgreSQL database: set DATABASE_URL=postgresql://… "
            "(SQLite is one process's file)"
        )
    if stand_in not in levels():
        raise ValueError(f"unknown stand-in level {stand_in!r} (known: {', '.join(levels())})")
    if grace < 0 or turn_time < 0 or bot_delay < 0 or flood_rate <= 0 or store_timeout <= 0:
        raise ValueError(
            "grace, turn_time and bot_delay are seconds, zero or more; flood_rate and store_timeout above zero"
        )
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
        turn_time=turn_time,
        stand_in=stand_in,
        bot_delay=bot_delay,
        close_after=close_after,
        linger=linger,
        method=Method(guesses=analysis_budget),
        max_spectators=spectators_per_table,
    )
    limits = Limits(max_tables=max_tables, tables_per_client=tables_per_client)
    hosts = frozenset(allowed_host(h) for h in allowed_hosts)
    origins = Origins(
        public_url,
        frozenset(origin_of(o) for o in allow_origins),
        forwarded,
        listen_host,
        hosts,
        proxy_networks(forwarded_from),
    )
    cluster = None
    if redis_url is not None:
        from .cluster import Cluster  # the cluster extra (redis) is needed only here

        cluster = Cluster(redis_url)
    metrics = Metrics()
    if cluster is not None:
        cluster.on_takeover = metrics.lease_taken_over
    # The limits' own client (bytes, its own pool), beside the cluster's (text, for leases and relayed frames).
    redis = None if redis_url is None else cluster_client(redis_url)
    creating, joining, flood, caps, pairing = server_limits(
        redis,
        create_rate=create_rate,
        join_rate=join_rate,
        flood_rate=flood_rate,
        connections_per_client=connections_per_client,
    )
    site = Site(
        settings=settings,
        origins=origins,
        creating=CountedLimit(creating, metrics, "create"),
        joining=CountedLimit(joining, metrics, "join"),
        flood=CountedLimit(flood, metrics, "flood"),
        caps=caps,
        pairing=pairing,
        metrics=metrics,
        metrics_from=networks(metrics_from),
        logins=login_limits(redis),
        rude=RudeWords.load(rude_words),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        journal = Journal(Store(database_url, timeout=store_timeout, sync=store_sync))
        pool = BotPool(workers, on_wait=metrics.bot_wait.observe)
        journal.observe_write = metrics.store_write.observe
        lobby = Lobby(journal, settings, pool, limits, cluster)
        metrics.watch_tables(lambda: len(lobby.tables))
        analyses = Analyses(journal, pool, settings.method)
        await asyncio.to_thread(lobby.load)
        await lobby.start()
        if isinstance(caps, RedisCaps):
            await caps.start()
        if cluster is not None:
            await cluster.start(lobby)
        app.state.redis = redis
        app.state.listing = SharedListing(lobby) if redis is not None else None
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
            if isinstance(caps, RedisCaps):
                await caps.stop()
            if redis is not None:
                await redis.aclose()

    app = FastAPI(title="Ronda", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.site = site
    app.state.cluster = cluster
    """The process's :class:`~.cluster.Cluster` with ``--redis`` (its ``redis`` client serves the cluster-wide
    limits and pairing too), else ``None``."""
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

    if redis is not None:
        from redis.exceptions import RedisError

        @app.exception_handler(RedisError)
        async def redis_error(_request: Request, error: RedisError) -> JSONResponse:
            log.warning("Redis did not answer (%s): a request was refused", type(error).__name__)
            message = "the server cannot reach the rest of its cluster just now: try again in a moment"
            return JSONResponse({"error": {"code": "unavailable", "message": message}}, status_code=503)

    for router in ROUTERS:
        app.include_router(router)
    return Guard(CountConnections(app, metrics.connections), origins)
