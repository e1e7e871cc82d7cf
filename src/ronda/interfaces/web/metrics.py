"""What an operator watches: ``/metrics`` in Prometheus' text format, and the load balancer's health checks.

Every app has its own :class:`Metrics` (a ``CollectorRegistry`` of its own,
never prometheus_client's global one, so tests that build several apps in one
process do not collide), reached as ``site.metrics``. The parts of the server
that measure something are handed a plain callable (the store's journal, the
bot pool) or call a small method here (:meth:`Metrics.lease_taken_over` for the
cluster's lease code), so none of them imports Prometheus.

Nothing exposed names a table, a seat, a person or a card: the metrics are
counts and durations of the whole process. ``/metrics`` is still served only
to the addresses ``metrics_from`` allows (loopback by default; ``ronda serve
--metrics-from``), since how busy a server is is the operator's business.
``/healthz`` (the process answers) and ``/readyz`` (the store, and Redis when
configured, answer within :data:`READY_TIMEOUT`; not while draining) are open
to all, and say only ``ok`` or which part did not answer.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import Request
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from .rates import RateLimit, Verdict

READY_TIMEOUT = 1.0
"""Seconds the store (and Redis) have to answer a readiness check before this process says it is not ready."""
LOOPBACK = ("127.0.0.0/8", "::1/128")
"""Who may read ``/metrics`` unless ``--metrics-from`` says otherwise: this machine only."""
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Histogram buckets (seconds) for what a person waits on: a move's update, a store write, a bot's turn in line."""


class Metrics:
    """The metrics of one server process, in a registry of their own.

    >>> metrics = Metrics()
    >>> metrics.lease_taken_over()
    >>> b"ronda_lease_takeovers_total 1.0" in metrics.render()
    True
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("ronda_tables_live", "Tables held in this process's memory (played or watched)", registry=r)
        self.connections = Gauge("ronda_connections", "Websocket connections open to this process", registry=r)
        self.move_update = Histogram(
            "ronda_move_update_seconds",
            "From a person's decision received to its update queued for every connection of the table (stored first)",
            buckets=FAST,
            registry=r,
        )
        self.store_write = Histogram(
            "ronda_store_write_seconds",
            "Each store write, from asked to committed (or refused), queueing included",
            buckets=FAST,
            registry=r,
        )
        self.bot_wait = Histogram(
            "ronda_bot_queue_wait_seconds",
            "How long a bot move, hint or analysis waited in line for a free bot worker",
            buckets=FAST,
            registry=r,
        )
        self.lease_takeovers = Counter(
            "ronda_lease_takeovers",
            "Tables this process took over from an owner that had died (lease ran out, or channel silent)",
            registry=r,
        )
        self.refusals = Counter(
            "ronda_rate_limit_refusals", "Actions a rate limit or a cap refused, by limit", ["limit"], registry=r
        )
        for limit in ("create", "join", "flood", "connections"):
            self.refusals.labels(limit)  # shown at 0 from the start, so a rate over it is defined

    def lease_taken_over(self) -> None:
        """One table taken over by this process (the cluster's lease code calls it)."""
        self.lease_takeovers.inc()

    def refused(self, limit: str) -> None:
        """One action refused by ``limit`` (``create``, ``join``, ``flood``, ``connections``)."""
        self.refusals.labels(limit).inc()

    def watch_tables(self, count: Callable[[], int]) -> None:
        """The live tables gauge reads ``count()`` at each scrape (the lobby's tables in memory)."""
        self.tables.set_function(count)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class CountedLimit:
    """A :class:`~.rates.RateLimit` whose refusals are counted under ``limit`` in :class:`Metrics`."""

    def __init__(self, inner: RateLimit, metrics: Metrics, limit: str) -> None:
        self.inner, self.metrics, self.limit = inner, metrics, limit
        self.rate, self.burst = inner.rate, inner.burst

    async def hit(self, key: str) -> Verdict:
        verdict = await self.inner.hit(key)
        if not verdict.admitted:
            self.metrics.refused(self.limit)
        return verdict

    async def forget(self, key: str) -> None:
        await self.inner.forget(key)


class CountConnections:
    """ASGI middleware: every websocket is counted in the connections gauge while its handler runs."""

    def __init__(self, app: Any, gauge: Gauge) -> None:
        self.app, self.gauge = app, gauge
        self.state = app.state

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        self.gauge.inc()
        try:
            await self.app(scope, receive, send)
        finally:
            self.gauge.dec()


def networks(allowed: Iterable[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The networks of ``--metrics-from`` (addresses or CIDR blocks); a clear error naming a bad one."""
    found = []
    for entry in allowed:
        try:
            found.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--metrics-from takes addresses or networks like 10.0.0.0/8, not {entry!r}") from None
    return tuple(found)


def may_read_metrics(request: Request, allowed: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]) -> bool:
    """Whether the request's peer is in ``allowed``.

    The peer is the connection's address (with ``--forwarded``, uvicorn has put
    the proxy's ``X-Forwarded-For`` there). A request that came through a
    proxy this server was not told to trust (it carries ``X-Forwarded-For``
    without ``--forwarded``) is refused, whatever its address: a proxy on this
    machine would otherwise make every visitor look like loopback.
    """
    site = request.app.state.site
    if not site.origins.forwarded and "x-forwarded-for" in request.headers:
        return False
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in allowed)


def drain(app: Any) -> None:
    """This process is going to stop: ``/readyz`` says so from now on, so the load balancer sends it no one new."""
    app.state.draining = True
