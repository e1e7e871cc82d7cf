"""A TCP proxy between the server and a real PostgreSQL that loses a COMMIT's answer (or the COMMIT) on demand.

It reads the PostgreSQL wire protocol in the client-to-server direction only
as far as needed to find a transaction's end: the startup messages (no type
byte: an ``SSLRequest``, a ``GSSENCRequest``, then the ``StartupMessage``),
then typed messages (one type byte, a 4-byte length that counts itself, the
payload). psycopg 3 ends a transaction with a simple ``Query`` (type ``Q``)
whose text is ``COMMIT``; the extended protocol's ``Parse`` (type ``P``) of a
``COMMIT`` is recognised too, in case a driver sends it so.

:meth:`PgProxy.lose_answer` arms the fault of issue 29: the next COMMIT is
passed to PostgreSQL, which commits; its answer is read up to
``ReadyForQuery`` (so the commit is surely done) and thrown away, and both
connections are cut. :meth:`PgProxy.lose_commit` cuts the connection instead
of passing the COMMIT: the transaction is surely not committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
import threading
from concurrent.futures import Future

SSL_REQUEST, GSSENC_REQUEST, CANCEL_REQUEST = 80877103, 80877104, 80877102


def is_commit(kind: bytes, payload: bytes) -> bool:
    """Whether one typed client message asks PostgreSQL to commit.

    >>> is_commit(b"Q", b"COMMIT\\x00"), is_commit(b"Q", b"SELECT 1\\x00")
    (True, False)
    >>> is_commit(b"P", b"\\x00commit\\x00\\x00\\x00")
    True
    """
    if kind == b"Q":
        text = payload.rstrip(b"\x00")
    elif kind == b"P":  # Parse: statement name, NUL, query text, NUL, parameter types
        _, _, rest = payload.partition(b"\x00")
        text = rest.partition(b"\x00")[0]
    else:
        return False
    return text.strip().rstrip(b";").strip().upper() in (b"COMMIT", b"END", b"COMMIT TRANSACTION")


class PgProxy:
    """Listens on a free loopback port and forwards every connection to ``host:port`` (in a thread of its own)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.commits = 0
        """COMMITs seen so far, on every connection."""
        self.sent: list[tuple[bytes, bytes]] = []
        """Every typed message clients sent: its type and the start of its payload (to look at the bytes)."""
        self.faults: list[str] = []
        """The faults done, in order: ``"answer lost"`` or ``"commit lost"``."""
        self._armed: str | None = None
        self.blocked = False
        self.block_after_fault = False
        """Whether the proxy blocks (:meth:`block`) as soon as it has done its fault: the store stays unreachable."""
        self._armed_lock = threading.Lock()
        self.held = 0
        """Client messages kept waiting by :meth:`hold` so far."""
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        started: Future[int] = Future()
        self._thread = threading.Thread(target=self._run, args=(started,), name="pg-proxy", daemon=True)
        self._thread.start()
        self.port = started.result(timeout=10)

    def url(self, database: str) -> str:
        """The URL of ``database`` reached through the proxy."""
        return f"postgresql://ronda@127.0.0.1:{self.port}/{database}"

    def lose_answer(self) -> None:
        """The next COMMIT reaches PostgreSQL and is done; its answer never reaches the client."""
        with self._armed_lock:
            self._armed = "answer lost"

    def lose_commit(self) -> None:
        """The next COMMIT never reaches PostgreSQL: the connection is cut instead."""
        with self._armed_lock:
            self._armed = "commit lost"

    def block(self) -> None:
        """Cut every connection now and refuse new ones: the database is unreachable (until :meth:`unblock`)."""
        self.blocked = True

        async def cut() -> None:
            for writer in list(self._writers):
                writer.close()

        asyncio.run_coroutine_threadsafe(cut(), self._loop).result(timeout=5)

    def unblock(self) -> None:
        self.blocked = False

    def hold(self) -> None:
        """Keep every client message from now on waiting (not passed, not refused) until :meth:`release`: a write
        that is on its way, as from a server stopped in the middle of it."""
        self._loop.call_soon_threadsafe(self._flowing.clear)

    def release(self) -> None:
        """Pass what :meth:`hold` kept waiting, in order, and everything after."""
        self._loop.call_soon_threadsafe(self._flowing.set)

    def _take_fault(self) -> str | None:
        with self._armed_lock:
            armed, self._armed = self._armed, None
        return armed

    @property
    def armed(self) -> bool:
        with self._armed_lock:
            return self._armed is not None

    def close(self) -> None:
        async def stop() -> None:
            if self._server is not None:
                self._server.close()
            for writer in list(self._writers):
                writer.close()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    # ---------------------------------------------------------------- the proxy's thread

    def _run(self, started: Future[int]) -> None:
        asyncio.set_event_loop(self._loop)

        async def listen() -> None:
            self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
            started.set_result(self._server.sockets[0].getsockname()[1])

        self._loop.run_until_complete(listen())
        self._loop.run_forever()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        if self.blocked:
            client_writer.close()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.close()
            return
        self._writers |= {client_writer, server_writer}
        link = _Link()
        upstream = asyncio.ensure_future(self._client_to_server(client_reader, server_writer, link))
        downstream = asyncio.ensure_future(self._server_to_client(server_reader, client_writer, link))
        await asyncio.wait({upstream, downstream}, return_when=asyncio.FIRST_COMPLETED)
        for task in (upstream, downstream):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        for writer in (client_writer, server_writer):
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    @staticmethod
    async def _server_to_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: _Link) -> None:
        """Pass PostgreSQL's bytes on, except once the answer is to be lost: then read it to its end, and stop.

        The client waits for each answer before it sends a COMMIT, so what comes after
        one is that COMMIT's answer alone, ending with ``ReadyForQuery`` (``Z``, length 5, a status byte).
        """
        while True:
            data = await reader.read(65536)
            if not data:
                return
            if link.swallow:
                if data[-6:-1] == b"Z\x00\x00\x00\x05":
                    link.answered.set()
                    await asyncio.sleep(3600)  # the upstream side cuts both connections
                continue
            writer.write(data)
            await writer.drain()

    async def _client_to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: _Link) -> None:
        # Startup: untyped messages until the StartupMessage itself (an SSL or GSS request comes first, refused).
        while True:
            head = await reader.readexactly(4)
            (length,) = struct.unpack("!I", head)
            body = await reader.readexactly(length - 4)
            writer.write(head + body)
            await writer.drain()
            code = struct.unpack("!I", body[:4])[0] if len(body) >= 4 else 0
            if code == CANCEL_REQUEST:
                return
            if code not in (SSL_REQUEST, GSSENC_REQUEST):
                break
        while True:
            kind = await reader.readexactly(1)
            head = await reader.readexactly(4)
            (length,) = struct.unpack("!I", head)
            payload = await reader.readexactly(length - 4)
            fault = None
            self.sent.append((kind, payload[:60]))
            if is_commit(kind, payload):
                self.commits += 1
                fault = self._take_fault()
            if fault == "commit lost":
                self.faults.append(fault)
                self._after_fault()
                return
            if fault == "answer lost":
                link.swallow = True
            if not self._flowing.is_set():
                self.held += 1
                await self._flowing.wait()
            writer.write(kind + head + payload)
            await writer.drain()
            if fault == "answer lost":
                await asyncio.wait_for(link.answered.wait(), timeout=30)
                self.faults.append(fault)
                self._after_fault()
                return

    def _after_fault(self) -> None:
        if self.block_after_fault:
            self.blocked = True
            for other in list(self._writers):
                other.close()


class _Link:
    """What the two directions of one proxied connection share."""

    def __init__(self) -> None:
        self.swallow = False
        self.answered = asyncio.Event()


def proxy_for(base_url: str) -> PgProxy:
    """A proxy in front of the PostgreSQL server of ``base_url`` (``postgresql://user@host:port``)."""
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    assert parts.hostname is not None and parts.port is not None
    return PgProxy(parts.hostname, parts.port)
