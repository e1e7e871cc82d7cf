"""Same origin and security headers: what the server refuses from another site's page, and the headers on every answer.

:class:`Origins` knows where the server is reached from (``--public-url``,
``--allow-origin``, ``--forwarded``); :class:`Guard` is the ASGI middleware
around the whole app that refuses a state-changing request or a websocket
upgrade from another origin and adds a strict Content-Security-Policy (no
inline script, no framing) to every answer.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("ronda.web")

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


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
        """Every origin that is this server's.

        The ``Host`` header is whatever name the browser resolved, and a page of another site can make its own
        name resolve to this computer (DNS rebinding): its requests then carry ``Origin`` and ``Host`` alike,
        ``evil.example:8000``. So the address a page was opened with counts only where it can be trusted:

        - with ``--public-url``, the server's origins are that URL's and ``--allow-origin``'s, never the
          ``Host``'s;
        - on a server listening on this computer only (``--host 127.0.0.1``, the default), a ``Host`` that is
          not loopback (``localhost``, ``127.0.0.0/8``, ``[::1]``) gives no origin: nobody else can reach the
          server, so such a name is a rebinding one;
        - otherwise (``--host 0.0.0.0`` reached by a LAN name or address, or no listen address known) the
          ``Host``'s origin is the server's, and behind ``--forwarded`` the proxy's ``X-Forwarded-Host`` too.

        >>> sorted(Origins(listen="127.0.0.1").own("http", {"host": "localhost:8000"}))
        ['http://localhost:8000']
        >>> Origins(listen="127.0.0.1").own("http", {"host": "evil.example:8000"})
        set()
        >>> sorted(Origins(public_url="https://ronda.example/").own("http", {"host": "evil.example"}))
        ['https://ronda.example']
        """
        if self.public_url:
            return {origin_of(self.public_url)} | self.allowed
        host = headers.get("host") or "localhost"
        mine: set[str] = set()
        if not loopback(self.listen) or loopback(urlsplit(f"//{host}").hostname):
            mine.add(origin_of(f"{scheme}://{host}"))
        if self.forwarded:
            mine.add(origin_of(self.base(scheme, headers)))
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


def origin_of(url: str) -> str:
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
    server's own (:meth:`Origins.own`: never a ``Host`` a rebinding page could
    send) is refused: 403 for
    HTTP with a JSON error, and a refused handshake for a websocket. Requests
    without ``Origin`` (scripts, the load benchmark) are not a browser page of
    another site and pass.
    """

    def __init__(self, app: Any, origins: Origins) -> None:
        self.app: ASGIApp = app
        self.origins = origins
        self.state = app.state
        """The application's state (its lobby and bot pool), for tests and tools."""

    def same_origin(self, origin: str, scheme: str, headers: dict[str, str]) -> bool:
        """Whether ``origin`` is this server's own. An ``Origin`` or ``Host`` that does not parse (a port out of
        range or not a number, a broken IPv6 address) is no page of this server's: refused like another site's,
        not answered with a server error."""
        try:
            return origin_of(origin) in self.origins.own(scheme, headers)
        except ValueError:
            return False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
        origin = headers.get("origin")
        changes = scope["type"] == "websocket" or scope.get("method") not in ("GET", "HEAD", "OPTIONS")
        if changes and origin is not None and not self.same_origin(origin, scheme, headers):
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
