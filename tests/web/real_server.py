"""A real `python -m ronda serve` in a subprocess, and blocking websocket clients for it (to kill the server)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RealServer:
    """``ronda serve`` on a free loopback port with its data in ``data``; fast bots, limits raised for scripts."""

    def __init__(
        self, data: Path, *options: str, port: int | None = None, database_url: str | None = None, stderr: Any = None
    ) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        if database_url is not None:
            env["DATABASE_URL"] = database_url
        env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
        command = [
            sys.executable, "-m", "ronda", "serve", "--port", str(self.port), "--data", str(data),
            "--bot-delay", "0", "--flood-rate", "10000", "--create-rate", "10000", "--bot-workers", "1",
            "--log-level", "warning", *options,
        ]  # fmt: skip
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"ronda serve stopped at once (exit {self.process.returncode})")
            try:
                if httpx.get(f"{self.base}/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("ronda serve did not answer in time")
            time.sleep(0.05)

    def __enter__(self) -> RealServer:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def two_people(self) -> tuple[str, dict[int, str]]:
        seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}]
        created = httpx.post(
            f"{self.base}/api/tables", json={"players": 2, "seats": seats, "target": 12, "keep": False}
        ).json()
        table_id = created["table_id"]
        joined = httpx.post(f"{self.base}/api/tables/{table_id}/join", json={"name": "Youssef", "keep": False}).json()
        return table_id, {0: created["token"], 1: joined["token"]}


class SeatSocket:
    """One seat's websocket to a real server: what it was sent, its latest version, view and legal actions."""

    def __init__(self, server: RealServer, table_id: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", open_timeout=10)
        self.token = token
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.events: dict[int, dict[str, Any]] = {}
        self.received: list[dict[str, Any]] = []

    def _read(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        if message["type"] in ("state", "update", "catchup"):
            self.version, self.view, self.legal = message["version"], message["view"], message["legal"]
            for event in message.get("events", []):
                self.events[event["version"]] = event
        return message

    def wait_for(self, *kinds: str) -> dict[str, Any]:
        while (message := self._read())["type"] not in kinds:
            pass
        return message

    def hello(self, since: int | None) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "hello", "token": self.token, "since": since}))
        self.wait_for("welcome")
        return self.wait_for("state", "catchup")

    def act(self, action: dict[str, Any], made_at: int | None = None) -> None:
        message: dict[str, Any] = {"type": "act", "action": action}
        if made_at is not None:
            message["version"] = made_at
        self.ws.send(json.dumps(message))
        self.legal = []

    def settle(self) -> None:
        """Read everything sent before a ping's answer."""
        self.ws.send(json.dumps({"type": "ping"}))
        self.wait_for("pong")

    @property
    def over(self) -> bool:
        return self.view is not None and self.view["phase"] == "game_over"

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def assert_shown_equals_stored(url: str, table_id: str, *connections: dict[int, SeatSocket]) -> None:
    """Every stored event of the table's first game was shown to every seat, and every event shown is stored.

    ``connections``: each seat's sockets over the test (before and after a restart); together they must
    have shown the stored game's events, numbered from 1, exactly as the engine replays them.
    """
    from ronda.engine.record import replay, replay_result
    from ronda.interfaces.web.store import Store

    store = Store(url)
    try:
        numbers = store.action_numbers(table_id, 0)
        events = replay_result(replay(store.load_record(table_id, 0)))["events"]
    finally:
        store.close()
    assert numbers == list(range(len(numbers)))
    for seat in connections[0]:
        seen = {n: event for sockets in connections for n, event in sockets[seat].events.items()}
        assert sorted(seen) == list(range(1, len(events) + 1)), "every stored event was shown, and only those"
        assert [{k: v for k, v in seen[n].items() if k != "version"} for n in sorted(seen)] == events
