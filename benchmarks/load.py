"""Load on a real `ronda serve`: many games at once over real websockets on loopback.

    python benchmarks/load.py                 # 100 concurrent two-player games
    python benchmarks/load.py --games 20 --players 4 --json

The script starts `python -m ronda serve` in a subprocess (uvicorn, SQLite in a
temporary folder, bots off, flood limit raised: scripted players are faster
than people), creates the tables over HTTP, takes every seat with a scripted
client, and lets each client answer every decision with a random legal action
from its `legal` list (challenges only with --challenges). It reports the
moves per second over the whole run and the latency from sending a move to
receiving its `update`, p50 and p99. Every move is stored before its update
is sent, so the numbers include the database.

Measured on an idle 2-core machine, the clients and the server sharing both
cores: 100 two-player games, 3,900-4,200 moves/s with p50 20-22 ms and p99
35-40 ms (the server is saturated: that is queueing); 100 four-player games
2,400 moves/s, p50 35 ms, p99 100 ms; a single game alone p50 0.8 ms. On
PostgreSQL (`--url` to a `ronda serve` started with DATABASE_URL) 100
two-player games ran at 3,150-3,680 moves/s, p50 23-27 ms, p99 34-54 ms.
With another process busy on one core the figures roughly halve.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Totals:
    """What every client measured, added up."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games_over: int = 0
    errors: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, data: str) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "ronda", "serve",
        "--port", str(port), "--data", data, "--bot-delay", "0", "--flood-rate", "100000", "--log-level", "warning",
        "--create-rate", "100000", "--join-rate", "100000", "--tables-per-client", "100000", "--max-tables", "100000",
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)


async def wait_until_up(base: str, server: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as http:
        while True:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped at once (exit {server.returncode})")
            try:
                if (await http.get(f"{base}/api/meta")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not answer in time")
            await asyncio.sleep(0.05)


async def seat_player(
    ws_url: str, token: str, rng: random.Random, totals: Totals, challenges: bool, start: asyncio.Event
) -> None:
    """One seat: hello, then a random legal action whenever the seat has a decision, until game over."""
    async with connect(ws_url, max_size=2**22) as ws:
        await start.wait()
        await ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        sent_at: float | None = None
        acted_at = -1
        while True:
            message = json.loads(await ws.recv())
            kind = message["type"]
            if kind == "error":
                totals.errors.append(f"{message['code']}: {message['message']}")
                continue
            if kind not in ("state", "update", "catchup"):
                continue
            if kind == "update" and sent_at is not None:
                totals.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["view"]["phase"] == "game_over":
                totals.games_over += 1
                return
            legal = message["legal"]
            if legal and acted_at != message["version"]:
                acted_at = message["version"]
                await act(ws, legal, rng, challenges)
                sent_at = time.perf_counter()
                totals.moves += 1


async def act(ws: ClientConnection, legal: list[dict[str, Any]], rng: random.Random, challenges: bool) -> None:
    options = legal if challenges else [a for a in legal if "challenge" not in a] or legal
    await ws.send(json.dumps({"type": "act", "action": rng.choice(options)}))


async def new_game(http: httpx.AsyncClient, base: str, players: int, target: int) -> tuple[str, list[str]]:
    seats = [{"kind": "human", "name": f"Load {s}"} for s in range(players)]
    created = await http.post(f"{base}/api/tables", json={"players": players, "seats": seats, "target": target})
    created.raise_for_status()
    table_id = created.json()["table_id"]
    tokens = [created.json()["token"]]
    for s in range(1, players):
        joined = await http.post(f"{base}/api/tables/{table_id}/join", json={"name": f"Load {s}"})
        joined.raise_for_status()
        tokens.append(joined.json()["token"])
    return table_id, tokens


async def run(args: argparse.Namespace, base: str) -> tuple[Totals, float]:
    totals = Totals()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(timeout=60) as http:
        tables = [await new_game(http, base, args.players, args.target) for _ in range(args.games)]
    start = asyncio.Event()
    ws_base = base.replace("http://", "ws://")
    tasks = [
        asyncio.create_task(
            seat_player(f"{ws_base}/ws/{table_id}", token, random.Random(rng.random()), totals, args.challenges, start)
        )
        for table_id, tokens in tables
        for token in tokens
    ]
    await asyncio.sleep(0.5)  # every connection open before the clock starts
    began = time.perf_counter()
    start.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.timeout)
    return totals, time.perf_counter() - began


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def measure_own_server(args: argparse.Namespace) -> tuple[Totals, float]:
    """Start `ronda serve` on a free port with a temporary database, measure, stop it."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="ronda-load-") as data:
        server = start_server(port, data)
        try:
            asyncio.run(wait_until_up(base, server))
            return asyncio.run(run(args, base))
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players per game (default 2)")
    parser.add_argument("--target", type=int, default=41, help="points to win (default 41)")
    parser.add_argument("--challenges", action="store_true", help="let the random players challenge too")
    parser.add_argument("--seed", type=int, default=0, help="seed of the players' choices (decks are secure-random)")
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds (default 600)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--url", help="measure a server that is already running (started with a high --flood-rate and --bot-delay 0)"
    )
    args = parser.parse_args()
    if args.url:
        totals, seconds = asyncio.run(run(args, args.url.rstrip("/")))
    else:
        totals, seconds = measure_own_server(args)
    latencies_ms = [1000 * s for s in totals.latencies]
    result = {
        "games": args.games,
        "players": args.players,
        "games_over": totals.games_over // args.players,
        "moves": totals.moves,
        "seconds": round(seconds, 3),
        "moves_per_second": round(totals.moves / seconds, 1),
        "latency_ms_p50": round(percentile(latencies_ms, 50), 2),
        "latency_ms_p99": round(percentile(latencies_ms, 99), 2),
        "errors": len(totals.errors),
    }
    flags = f"--games {args.games}"
    flags += f" --players {args.players}" if args.players != 2 else ""
    flags += f" --target {args.target}" if args.target != 41 else ""
    flags += " --challenges" if args.challenges else ""
    flags += f" --url {args.url}" if args.url else ""
    command = f"python benchmarks/load.py {flags}"
    served = f"the server at {args.url}" if args.url else "python -m ronda serve, SQLite, one process"
    if args.json:
        print(json.dumps({**result, "command": command}))
    else:
        print(
            f"{result['games_over']}/{args.games} games of {args.players} to game over: {totals.moves} moves "
            f"in {seconds:.2f} s = {result['moves_per_second']:,.0f} moves/s; move→update latency "
            f"p50 {result['latency_ms_p50']:.1f} ms, p99 {result['latency_ms_p99']:.1f} ms; "
            f"{len(totals.errors)} errors"
        )
        print(f"(reproduce: {command}; server: {served}; {os.cpu_count()} cores)")
    for error in totals.errors[:5]:
        print("error:", shlex.quote(error), file=sys.stderr)
    return 1 if totals.errors or totals.games_over // args.players != args.games else 0


if __name__ == "__main__":
    raise SystemExit(main())
