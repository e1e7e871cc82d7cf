"""Scripted websocket clients for the web server tests, run in-process with Starlette's TestClient.

A :class:`Client` is one connection: it keeps every text frame it received (the
hidden-card test reads them), the latest version, view and legal actions, and
the events it was sent. :func:`play_out` drives several clients to game over
by choosing legal actions, without ever blocking on a message that may not
come (every read has a timeout).
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from ronda.interfaces.web.app import create_app

Chooser = Callable[["Client"], dict[str, Any]]


def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ronda.sqlite3'}"


TEST_HOSTS = ("testserver",)
"""The host Starlette's test client names in every request: answered as ``--allowed-host testserver`` would make
it (without it, only loopback names and IP addresses are: guard.Origins.stranger)."""


class Server(TestClient):
    """A TestClient that closes every websocket opened through it before stopping the app.

    An open test websocket keeps the TestClient's event loop alive, so a test
    that fails with one open would otherwise hang instead of failing.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.open_clients: list[Client] = []

    def __exit__(self, *args: Any) -> None:
        for client in self.open_clients:
            client.close()
        super().__exit__(*args)


def server(tmp_path: Path, database_url: str | None = None, **options: Any) -> Server:
    """A TestClient around a fresh app on the test's own SQLite file (or ``database_url``); bots play at once."""
    options.setdefault("bot_delay", 0)
    options.setdefault("flood_rate", 10_000.0)  # scripted players are faster than people
    options.setdefault("create_rate", 10_000.0)  # and make tables faster than people
    options.setdefault("tables_per_client", 1_000)
    options.setdefault("bot_workers", 1)
    options.setdefault("allowed_hosts", TEST_HOSTS)
    # Behind --forwarded, the test client plays a proxy on this machine, which --forwarded-from trusts by default.
    client = options.pop("client", ("127.0.0.1", 50000) if options.get("forwarded") else ("testclient", 50000))
    return Server(create_app(database_url or database(tmp_path), **options), client=client)


def new_table(
    http: TestClient, players: int = 2, seats: list[dict[str, Any]] | None = None, **body: Any
) -> dict[str, Any]:
    """Create a table (default: me against medium bots) and return the creator's answer.

    A test's client often plays several people: unless told otherwise it keeps
    no name (``"keep": false``, docs/web-protocol.md), so it gets no cookie.
    """
    body.setdefault("keep", False)
    if seats is None:
        seats = [{"kind": "human", "name": "Amina"}] + [{"kind": "bot", "level": "medium"}] * (players - 1)
    response = http.post("/api/tables", json={"players": players, "seats": seats, **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


class Client:
    """One websocket connection with everything it was sent."""

    def __init__(self, http: TestClient, table_id: str, token: str | None = None) -> None:
        self.context = http.websocket_connect(f"/ws/{table_id}")
        self.ws: WebSocketTestSession = self.context.__enter__()
        self.token = token
        self.texts: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.events: dict[int, dict[str, Any]] = {}
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None
        self.acted_at = -1
        self.spent: list[dict[str, Any]] = []
        """The legal actions held when the last decision was sent: still legal if the server did not take it."""
        self.closed = False
        if isinstance(http, Server):
            http.open_clients.append(self)

    # ------------------------------------------------------------- sending

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def hello(self, since: int | None = None, token: str | bool | None = True) -> dict[str, Any]:
        """Say hello (with this client's token unless told) and read the welcome and the state or catchup."""
        self.send({"type": "hello", "token": self.token if token is True else token, "since": since})
        welcome = self.expect("welcome")
        self.seat = welcome["seat"]
        return self.expect("state", "catchup")

    def act(self, action: dict[str, Any], made_at: int | None = None) -> None:
        """Send a decision (made at version ``made_at``, if given); the legal actions held are spent until the next
        update says otherwise."""
        message: dict[str, Any] = {"type": "act", "action": action}
        if made_at is not None:
            message["version"] = made_at
        self.send(message)
        self.spent, self.legal = self.legal, []

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):  # the server may have closed it first
                self.context.__exit__(None, None, None)

    # ------------------------------------------------------------ receiving

    def _take(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "websocket.close":
            return {"type": "closed", "code": message.get("code")}
        text = message["text"]
        self.texts.append(text)
        data = json.loads(text)
        self.messages.append(data)
        kind = data["type"]
        if kind in ("state", "update", "catchup"):
            self.version = data["version"]
            self.view = data["view"]
            self.legal = data["legal"]
            for event in data.get("events", []):
                self.events[event["version"]] = event
        if kind in ("state", "welcome", "seats"):
            self.table = data["table"]
        return dict(data)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message; fails the test after ``timeout`` seconds rather than hanging."""
        stream = self.ws._send_rx

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        return self._take(self.ws.portal.call(get))

    def poll(self) -> dict[str, Any] | None:
        """The next message if one is waiting, else ``None``."""
        stream = self.ws._send_rx

        def get() -> Any:
            try:
                return stream.receive_nowait()
            except anyio.WouldBlock:
                return None

        message = self.ws.portal.call(get)
        return None if message is None else self._take(message)

    def expect(self, *kinds: str, timeout: float = 10.0) -> dict[str, Any]:
        """Read until a message of one of ``kinds`` (``seats`` messages may come between); return it."""
        while True:
            message = self.recv(timeout)
            if message["type"] in kinds:
                return message
            assert message["type"] in ("seats", "update", "auto_declare", "turn_over"), (kinds, message)

    def sync(self) -> list[dict[str, Any]]:
        """Everything sent before a ping's pong: the connection has nothing in flight afterwards."""
        self.send({"type": "ping"})
        out = []
        while (message := self.recv())["type"] != "pong":
            out.append(message)
        return out

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]

    @property
    def over(self) -> bool:
        return self.view is not None and self.view["phase"] == "game_over"


def random_chooser(rng: random.Random, challenge: float = 0.1) -> Chooser:
    """Pick a random legal action; challenges only now and then, so games reach their end by points too."""

    def choose(client: Client) -> dict[str, Any]:
        plays = [a for a in client.legal if "challenge" not in a]
        challenges = [a for a in client.legal if "challenge" in a]
        if challenges and rng.random() < challenge:
            return rng.choice(challenges)
        return rng.choice(plays)

    return choose


def play_out(
    clients: Iterable[Client],
    choose: Chooser,
    *,
    until: Callable[[], bool] | None = None,
    timeout: float = 60.0,
    resend: bool = False,
) -> None:
    """Every client acts when it has legal actions, until game over (or ``until()``), reading as it goes.

    ``resend``: an error that asks for the move again (``retry``, the store briefly unavailable) is answered as
    the page answers it, by acting again; any other error fails the test."""
    clients = list(clients)
    done = until or (lambda: all(c.over for c in clients))
    deadline = time.monotonic() + timeout
    while not done():
        progressed = False
        for client in clients:
            while (message := client.poll()) is not None:
                if resend and message["type"] == "error" and message.get("retry"):
                    client.acted_at, client.legal = -1, client.spent  # not taken: the page sends a move again
                else:
                    assert message["type"] != "error", message
                progressed = True
        if done():
            return
        for client in clients:
            if client.legal and client.acted_at != client.version:
                client.acted_at = client.version
                client.act(choose(client))
                progressed = True
        if not progressed:
            assert time.monotonic() < deadline, "the game did not move on"
            time.sleep(0.001)


def seat_clients(http: TestClient, table_id: str, tokens: dict[int, str]) -> dict[int, Client]:
    """One connected client per seat token, each past its hello."""
    clients = {}
    for seat, token in tokens.items():
        client = Client(http, table_id, token)
        client.hello()
        clients[seat] = client
    return clients
