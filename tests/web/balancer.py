"""A TCP load balancer for tests: each new connection goes to the next backend that accepts it (round robin).

No sticky sessions and no health checks beyond "the port accepts": what a
plain load balancer in front of several ``ronda serve --redis`` processes does.
A page's websocket that drops reconnects through it, and lands on whichever
process is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from concurrent.futures import Future


class Balancer:
    """Listens on a free loopback port, in a thread of its own, and spreads connections over ``ports``."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.turn = 0
        self._loop = asyncio.new_event_loop()
        started: Future[int] = Future()
        self._thread = threading.Thread(target=self._run, args=(started,), name="balancer", daemon=True)
        self._thread.start()
        self.port = started.result(timeout=10)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _run(self, started: Future[int]) -> None:
        asyncio.set_event_loop(self._loop)

        async def listen() -> None:
            server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
            started.set_result(server.sockets[0].getsockname()[1])

        self._loop.run_until_complete(listen())
        self._loop.run_forever()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        for _ in range(len(self.ports)):
            port = self.ports[self.turn % len(self.ports)]
            self.turn += 1
            try:
                server_reader, server_writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                continue
        else:
            client_writer.close()
            return

        async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            with contextlib.suppress(Exception):
                writer.close()

        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
