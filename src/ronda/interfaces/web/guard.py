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
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("ronda.web")

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK_PROXIES = ("127.0.0.0/8", "::1/128")
"""The proxies ``--forwarded`` believes unless ``--forwarded-from`` names others: one on this machine."""
LOOPBACK_NETWORKS: tuple[Network, ...] = tuple(ipaddress.ip_network(n) for n in LOOPBACK_PROXIES)
FORWARDED_HEADERS = frozenset({b"x-forwarded-for", b"x-forwarded-proto", b"x-forwarded-host"})
HOST = re.compile(
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?))(?::(?P<port>[0-9]{1,5}))?"
)
"""A ``Host`` as browsers send it: a name of letters, digits, dashes and underscores in dotted parts (a trailing dot
too), an IPv4 address, or an IPv6 address in brackets, and a port."""


def well_formed_host(value: str) -> bool:
    """Whether a ``Host`` (or ``X-Forwarded-Host``) value is a host and an optional port, and nothing else.

    Anything else is refused before it reaches a header or a link: the value is written into the
    Content-Security-Policy (``connect-src``) and the invite links, and ``localhost:8000; report-uri https://...``
    added a directive of the sender's choosing (an audit). Browsers always send a well-formed one.

    >>> [well_formed_host(h) for h in ("localhost:8000", "[::1]:8000", "ronda.lan.", "ronda-3", "192.168.1.20")]
    [True, True, True, True, True]
    >>> bad = ("localhost:8000; report-uri https://evil.example", "evil.example@127.0.0.1", "localhost:abc",
    ...        "localhost:99999", "[::1", "m\u00ffpc.local", "a b", "")
    >>> [well_formed_host(h) for h in bad]
    [False, False, False, False, False, False, False, False]
    """
    found = HOST.fullmatch(value)
    if found is None:
        return False
    if found["ipv6"] is not None and not literal(found["ipv6"]):
        return False
    return found["port"] is None or 0 < int(found["port"]) < 65536


def proxy_networks(values: tuple[str, ...]) -> tuple[Network, ...]:
    """The networks of ``--forwarded-from`` (addresses or CIDR blocks); a clear error naming a bad one."""
    found = []
    for value in values:
        try:
            found.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(
                f"--forwarded-from takes the proxy's address or network, like 10.0.0.2 or 10.0.0.0/24, not {value!r}"
            ) from None
    return tuple(found)


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
    ``listen`` is the address the server listens on. ``hosts`` are the host
    names a request may name without ``--public-url`` besides loopback names
    and IP addresses (``--allowed-host``; :meth:`stranger`). The forwarded
    headers are read only from a peer in ``proxies``; from any other, the Guard
    drops them before anything reads them (:meth:`Guard.forward`), so
    ``forwarded`` here means "what the headers say came from a trusted proxy".
    """

    public_url: str | None = None
    allowed: frozenset[str] = frozenset()
    forwarded: bool = False
    listen: str | None = None
    hosts: frozenset[str] = frozenset()
    proxies: tuple[Network, ...] = LOOPBACK_NETWORKS
    """The proxies whose ``X-Forwarded-*`` headers are believed under ``--forwarded`` (``--forwarded-from``; this
    machine by default): :meth:`Guard.forward` drops those headers from any other peer."""

    def proxy(self, address: str) -> bool:
        """Whether ``address`` (a peer's, or an entry of ``X-Forwarded-For``) is one of :attr:`proxies`."""
        try:
            found = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(found in network for network in self.proxies)

    def stranger(self, headers: Any) -> str | None:
        """The host name a request asks for that this server does not answer to, or ``None`` when it answers.

        Without ``--public-url`` the server's own origin is the one the request names (:meth:`own`), and a page
        of another site can make its own name resolve to this computer (DNS rebinding: evil.example rebound to
        127.0.0.1 sends ``Host`` and ``Origin`` both ``evil.example``): it would then be same-origin, and read
        what the server answers to a GET from this machine (``/metrics``). No such page can be served under a
        loopback name, an IP address, or a name the operator owns, so only those are answered: ``localhost``,
        ``127.0.0.1``, ``[::1]``, ``192.168.1.20``, the ``--allowed-host`` names. Behind ``--forwarded`` the
        proxy's ``X-Forwarded-Host`` is the name the browser asked for, and is held to the same rule. With
        ``--public-url`` nothing is refused here: the origin is that URL's, whatever ``Host`` says, and a proxy's
        health checks may name a replica by its service name. A ``Host`` that does not parse is refused too.

        >>> Origins().stranger({"host": "evil.example:8000"}), Origins().stranger({"host": "localhost:8000"})
        ('evil.example', None)
        >>> [Origins().stranger({"host": h}) for h in ("127.0.0.1:8000", "[::1]:8000", "192.168.1.20", "")]
        [None, None, None, None]
        >>> Origins(hosts=frozenset({"ronda.lan"})).stranger({"host": "RONDA.lan.:8000"}) is None
        True
        >>> Origins(forwarded=True).stranger({"host": "127.0.0.1:8000", "x-forwarded-host": "evil.example"})
        'evil.example'
        >>> Origins(public_url="https://ronda.example").stranger({"host": "ronda-3:8000"}) is None
        True
        """
        if self.public_url:
            return None
        named = [headers.get("host") or ""]
        if self.forwarded:
            named.append((headers.get("x-forwarded-host") or "").split(",")[0].strip())
        for host in named:
            if not host:
                continue  # no browser sends none: a script's request names no site
            name = host_name(host)
            if name is None:  # a broken IPv6 address, "[::1"
                return host
            if not (loopback(name) or literal(name) or name in self.hosts):
                return name or host
        return None

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
        - without it, a request naming a host the server does not answer to never comes this far
          (:meth:`stranger`: only loopback names, IP addresses and ``--allowed-host`` names are answered);
        - on a server listening on this computer only (``--host 127.0.0.1``, the default), a ``Host`` that is
          neither loopback (``localhost``, ``127.0.0.0/8``, ``[::1]``) nor an ``--allowed-host`` name gives no
          origin: nobody else can reach the server, so another address is a made-up one;
        - otherwise (``--host 0.0.0.0`` reached by a LAN address or allowed name, or no listen address known) the
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
        name = host_name(host) or ""
        if not loopback(self.listen) or loopback(name) or name in self.hosts:
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


def host_name(host: str) -> str | None:
    """The name a ``Host`` value asks for, as :meth:`Origins.stranger` and :meth:`Origins.own` compare it: lower case,
    without its port or a final dot; ``None`` for a value that does not parse.

    >>> host_name("RONDA.lan.:8000"), host_name("[::1]:8000"), host_name("[::1")
    ('ronda.lan', '::1', None)
    """
    try:
        return (urlsplit(f"//{host}").hostname or "").rstrip(".")
    except ValueError:
        return None


def literal(host: str) -> bool:
    """Whether ``host`` is an IP address (IPv6 without its brackets): a name no other site's page can be served under.

    >>> [literal(h) for h in ("192.168.1.20", "::1", "10.0.0.1.evil.example", "ronda.lan")]
    [True, True, False, False]
    """
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def allowed_host(value: str) -> str:
    """An ``--allowed-host`` value as :meth:`Origins.stranger` compares it: a host name, lower case, no final dot.

    Raises :class:`ValueError` in words for what is not a host name (a URL, a port, a space).

    >>> allowed_host("Ronda.LAN."), allowed_host("mypc.local")
    ('ronda.lan', 'mypc.local')
    >>> allowed_host("http://ronda.lan:8000")
    Traceback (most recent call last):
    ...
    ValueError: --allowed-host is a host name like ronda.lan (no scheme, port or path), not 'http://ronda.lan:8000'
    """
    name = value.strip().lower().rstrip(".")
    if not name or not all(part and re.fullmatch(r"[a-z0-9_-]+", part) for part in name.split(".")):
        raise ValueError(f"--allowed-host is a host name like ronda.lan (no scheme, port or path), not {value!r}")
    return name


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


OPEN_PATHS = frozenset({"/healthz", "/readyz"})
"""Answered whatever host a request names: a load balancer's checks name a replica by its own address or service
name, and these answers say nothing of any table or person (docs/deploy.md)."""


class Guard:
    """ASGI middleware: the server's own host names, same-origin only for what changes state, and the security
    headers on every answer.

    A websocket upgrade, or a POST, that carries an ``Origin`` other than the
    server's own (:meth:`Origins.own`: never a ``Host`` a rebinding page could
    send) is refused: 403 for HTTP with a JSON error, and a refused handshake
    for a websocket. Requests without ``Origin`` (scripts, the load benchmark)
    are not a browser page of another site and pass. Then any request, a GET
    too, naming a host the server does not answer to (:meth:`Origins.stranger`)
    is refused with 421 (Misdirected Request) naming the host and
    ``--allowed-host``, as an HTTP answer for a websocket upgrade as well.
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

    def forward(self, scope: dict[str, Any]) -> None:
        """Behind ``--forwarded``, believe the forwarded headers from a trusted proxy alone.

        From a peer in :attr:`Origins.proxies`, the client is the last address of ``X-Forwarded-For`` that is no
        proxy of ours (what our proxy saw; earlier entries are whatever the client sent) and the scheme is
        ``X-Forwarded-Proto``'s, as uvicorn's ``--forwarded-allow-ips`` would do. From any other peer the
        ``X-Forwarded-*`` headers are dropped, so nothing after this reads them and the peer's own address counts:
        a replica reached directly (``--host 0.0.0.0``) believed ``X-Forwarded-For: 127.0.0.1`` from anyone, and
        served it ``/metrics`` and a fresh share of every per-address limit (an audit).
        """
        peer = scope.get("client")
        if not (peer and self.origins.proxy(str(peer[0]))):
            scope["headers"] = [(k, v) for k, v in scope.get("headers", []) if k.lower() not in FORWARDED_HEADERS]
            return
        chain = [
            part.strip()
            for key, value in scope.get("headers", [])
            if key.lower() == b"x-forwarded-for"
            for part in value.decode("latin-1").split(",")
            if part.strip()
        ]
        client = next((entry for entry in reversed(chain) if not self.origins.proxy(entry)), chain[0] if chain else "")
        if client:
            scope["client"] = (client[:100], 0)
        proto = next(
            (v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"x-forwarded-proto"), ""
        )
        proto = proto.split(",")[0].strip().lower()
        if proto in ("http", "https"):
            scope["scheme"] = proto if scope["type"] == "http" else {"http": "ws", "https": "wss"}[proto]

    def host_problem(self, scope: dict[str, Any]) -> str | None:
        """Why the host a request names cannot be read, in words, or ``None``.

        Two ``Host`` headers (or two ``X-Forwarded-Host`` from a trusted proxy) were read two ways: the check below
        took one, the application's links the other (an audit: ``Host: evil.example`` then the server's own name
        passed, and the invite link named evil.example). A value that is not a host and a port is refused before it
        reaches the Content-Security-Policy or a link (:func:`well_formed_host`).
        """
        names = [b"host", b"x-forwarded-host"] if self.origins.forwarded else [b"host"]
        for name in names:
            values = [v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == name]
            header = name.decode().title()
            if len(values) > 1:
                return f"a request names its host once: this one has {len(values)} {header} headers"
            value = values[0].split(",")[0].strip() if values and name != b"host" else (values or [""])[0]
            if value and not well_formed_host(value):
                shown = value if len(value) <= 100 else value[:100] + "…"
                return f"the {header} header is a host name or address and a port, like localhost:8000, not {shown!r}"
        return None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if self.origins.forwarded:
            self.forward(scope)
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", []):  # the first of each, as the application reads them
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
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
        problem = self.host_problem(scope)
        if problem is not None:
            log.info("refused a request whose host cannot be read")
            return await self.refuse(scope, send, scheme, 400, {"code": "bad_host", "message": problem})
        stranger = None if scope.get("path") in OPEN_PATHS else self.origins.stranger(headers)
        if stranger is not None:
            return await self.misdirected(scope, send, scheme, stranger)
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        extra = security_headers(scheme, headers.get("host", ""))

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @classmethod
    async def misdirected(cls, scope: dict[str, Any], send: Any, scheme: str, host: str) -> None:
        """421 for a request naming ``host``, naming the host and ``--allowed-host`` (:meth:`refuse`)."""
        log.info("refused a request for the host %r", host[:100])
        message = (
            f"this server does not answer to the name {host!r}: open it by localhost or its IP address, or, if "
            f"the name is yours, start it with --allowed-host {host} (a page of another site whose name was made "
            "to resolve to this computer, DNS rebinding, is refused so)"
        )
        await cls.refuse(scope, send, scheme, 421, {"code": "bad_host", "message": message, "host": host})

    @staticmethod
    async def refuse(scope: dict[str, Any], send: Any, scheme: str, status: int, error: dict[str, str]) -> None:
        """``status`` with ``error``: JSON for the API and websockets, its message as a plain sentence for a page (read
        by the person who typed the address). A websocket upgrade gets the same HTTP answer where the server can send
        one (uvicorn's ``websocket.http.response``), else a refused handshake."""
        path = str(scope.get("path", ""))
        websocket = scope["type"] == "websocket"
        if websocket or path.startswith("/api/"):
            body = json.dumps({"error": error}).encode()
            kind = b"application/json"
        else:
            body, kind = (error["message"] + "\n").encode(), b"text/plain; charset=utf-8"
        headers = [(b"content-type", kind), *security_headers(scheme, "")]
        if websocket:
            if "websocket.http.response" not in scope.get("extensions", {}):
                reason = "unknown host" if status == 421 else "bad host"
                await send({"type": "websocket.close", "code": 4000 + status, "reason": reason})
                return
            await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
            return
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
