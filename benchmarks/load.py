"""Load on a real `ronda serve`: many two-player games at once over real websockets on loopback.

    python benchmarks/load.py --games 100 --pace 1      # people's pace: a decision a second per game
    python benchmarks/load.py --games 500 --pace 1 --hard-bots 0.5 --duration 60
    python benchmarks/load.py --games 100 --pace 0       # as fast as the clients can (the old throughput test)

The script starts `python -m ronda serve` in a subprocess (SQLite in a
temporary folder, limits raised for one client that makes every table), creates
the tables over HTTP and takes every human seat with a scripted client. With
``--hard-bots F`` a fraction F of the tables are a person against a ``hard``
bot (thinking in the server's worker processes); the others are two people.

A scripted person answers each decision with a random legal action after
``--pace`` seconds, give or take ``--jitter`` of it (think time), so a game
moves at about one decision per ``pace`` seconds per person. People arrive
as they would at a server already running, each at a random moment of the
``--ramp`` (by default ten decisions long), not all in one instant: a thousand
hellos at once, each answered with the whole game, is a restart's reconnection
storm, which the soak covers. The measured seconds begin once everyone has
arrived; the moves made during the ramp are reported apart. Measured: the
latency from a person's move to the ``update`` that answers it (p50, p99), the
bots' decisions per second, the people's moves per second, errors, and the
decisions lost: every event a client was shown is looked for in the stored
game, replayed through the engine after the run (must be 0). The clients run in
this process, on the same machine as the server: the figures include them.
The load average at the start is printed: on a shared machine the figures are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

SRC = Path(__file__).resolve().parents[1] / "src"
BOT_KINDS = ("declare", "drop", "capture", "raise", "challenge")


@dataclass
class Totals:
    """What every client measured, added up."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    bot_decisions: int = 0
    bot_waits: list[float] = field(default_factory=list)
    """From the update that gives a bot the turn to the one with its decision (queueing for a worker included)."""
    games_over: int = 0
    errors: list[str] = field(default_factory=list)
    retried: int = 0
    seen: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    """Every event any client of a table was shown, by table and version."""
    states: dict[str, set[int]] = field(default_factory=dict)
    """The versions at which clients of a table were sent the whole picture (``state``) instead of events."""
    client_lags: list[float] = field(default_factory=list)
    """How late the clients' own event loop woke from a 10 ms sleep: the part of a latency that is theirs."""
    measured_from: float = 0.0
    """When the people have all arrived (``perf_counter``): moves sent before are the ramp's, counted apart."""
    ramp_latencies: list[float] = field(default_factory=list)
    """Move to update while people were still arriving (each arrival is a hello answered with the whole game)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, data: str, *extra: str) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "ronda", "serve",
        "--port", str(port), "--data", data, "--flood-rate", "100000", "--log-level", "warning",
        "--create-rate", "100000", "--join-rate", "100000", "--tables-per-client", "100000", "--max-tables", "100000",
        "--connections-per-client", "100000",
        *extra,
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH", "")) if p)
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)


async def wait_until_up(base: str, server: subprocess.Popen[bytes] | None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as http:
        while True:
            if server is not None and server.poll() is not None:
                raise SystemExit(f"the server stopped at once (exit {server.returncode})")
            try:
                if (await http.get(f"{base}/api/meta")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not answer in time")
            await asyncio.sleep(0.05)


@dataclass
class Table:
    """One table of the run: its id, the tokens of its people, and whether a bot sits at seat 1."""

    table_id: str
    tokens: dict[int, str]
    bot: bool


async def new_table(http: httpx.AsyncClient, base: str, target: int, bot: bool) -> Table:
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Load 0"}]
    seats.append({"kind": "bot", "level": "hard"} if bot else {"kind": "human"})
    # Scripted people keep no names ("keep": false): one client plays them all, and 500 tables reserve no names.
    body = {"players": 2, "seats": seats, "target": target, "keep": False}
    created = await http.post(f"{base}/api/tables", json=body)
    created.raise_for_status()
    table_id = created.json()["table_id"]
    tokens = {0: created.json()["token"]}
    if not bot:
        joined = await http.post(f"{base}/api/tables/{table_id}/join", json={"name": "Load 1", "keep": False})
        joined.raise_for_status()
        tokens[1] = joined.json()["token"]
    return Table(table_id, tokens, bot)


def ramp(args: argparse.Namespace) -> float:
    """Seconds over which the people arrive: ``--ramp``, by default ten decisions at their pace (none at pace 0)."""
    return float(args.ramp) if args.ramp is not None else 10 * args.pace


def think_time(args: argparse.Namespace, rng: random.Random) -> float:
    if args.pace <= 0:
        return 0.0
    return max(0.0, args.pace * (1 + rng.uniform(-args.jitter, args.jitter)))


@dataclass
class Seat:
    """A scripted person at one seat: what it holds of the game, as the page would."""

    table: Table
    seat: int
    rng: random.Random
    version: int = 0
    legal: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    acted_at: int = -1
    sent: dict[str, Any] | None = None
    sent_at: float | None = None
    arrival: float = 0.0
    bot_turn_at: float | None = None
    """Seconds after the start when this person opens the game (people arrive over the ramp, not all at once)."""


def take(seat: Seat, message: dict[str, Any], totals: Totals, bots: set[int]) -> None:
    """Read one server message into what the seat holds, counting what the run measures."""
    kind = message["type"]
    if kind == "error":
        if message["code"] == "stale":
            return  # made again after a reconnect, the table had moved on: the catchup that follows shows it as it is
        if message.get("retry"):
            totals.retried += 1
            seat.acted_at = -1  # refused, nothing changed: the move will be sent again
        else:
            totals.errors.append(f"{message['code']}: {message['message']}")
        return
    if kind not in ("state", "update", "catchup"):
        return
    if kind == "update" and seat.sent_at is not None:
        latencies = totals.latencies if seat.sent_at >= totals.measured_from else totals.ramp_latencies
        latencies.append(time.perf_counter() - seat.sent_at)
        seat.sent_at = None
    seen = totals.seen.setdefault(seat.table.table_id, {})
    if kind == "state":
        totals.states.setdefault(seat.table.table_id, set()).add(message["version"])
    now = time.perf_counter()
    for event in message.get("events", []):
        if kind == "update" and seat.seat == 0 and event.get("seat") in bots and event["type"] in BOT_KINDS:
            totals.bot_decisions += now >= totals.measured_from
            if seat.bot_turn_at is not None and seat.bot_turn_at >= totals.measured_from:
                totals.bot_waits.append(now - seat.bot_turn_at)
            seat.bot_turn_at = None
        seen[event["version"]] = event
    if bots and seat.seat == 0 and seat.bot_turn_at is None and message["view"].get("turn") in bots:
        seat.bot_turn_at = now
    seat.version, seat.legal = message["version"], message["legal"]
    if message["view"]["phase"] == "game_over" and not seat.over:
        seat.over = True
        totals.games_over += seat.seat == 0


async def act(ws: ClientConnection, seat: Seat, args: argparse.Namespace, totals: Totals) -> None:
    options = [a for a in seat.legal if "challenge" not in a] or seat.legal
    seat.acted_at = seat.version
    seat.sent = seat.rng.choice(options)
    # With the version it was made at, as the page sends it: sent again after a reconnect, a decision already taken
    # is not taken twice (its outcome comes back), nor refused as another move (docs/web-protocol.md).
    await ws.send(json.dumps({"type": "act", "action": seat.sent, "version": seat.version}))
    seat.sent_at = time.perf_counter()
    totals.moves += seat.sent_at >= totals.measured_from


async def play_seat(
    ws_url: str, seat: Seat, args: argparse.Namespace, totals: Totals, start: asyncio.Event, stop: asyncio.Event
) -> None:
    """One person: hello, then after a think time a random legal action whenever it is their turn, until stopped."""
    bots = {1} if seat.table.bot else set()
    async with connect(ws_url, max_size=2**22, open_timeout=60) as ws:
        await start.wait()
        await asyncio.sleep(seat.arrival)
        await ws.send(json.dumps({"type": "hello", "token": seat.table.tokens[seat.seat], "since": 0}))
        while not stop.is_set() and not seat.over:
            due = seat.legal and seat.acted_at != seat.version
            timeout = think_time(args, seat.rng) if due else 1.0
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=timeout)
            except TimeoutError:
                if due and not stop.is_set():
                    await act(ws, seat, args, totals)
                continue
            take(seat, json.loads(text), totals, bots)
            if args.pace <= 0 and seat.legal and seat.acted_at != seat.version:
                await act(ws, seat, args, totals)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def lost_decisions(url: str, seen: dict[str, dict[int, dict[str, Any]]]) -> tuple[int, int]:
    """Events shown to clients that the stored games do not hold, and the tables checked (replayed by the engine)."""
    sys.path.insert(0, str(SRC))
    from ronda.engine.record import replay, replay_result
    from ronda.interfaces.web.store import Store

    store = Store(url)
    lost = 0
    try:
        for table_id, events in seen.items():
            stored = replay_result(replay(store.load_record(table_id, 0)))["events"]
            for version, event in events.items():
                shown = {k: v for k, v in event.items() if k != "version"}
                if version > len(stored) or stored[version - 1] != shown:
                    lost += 1
    finally:
        store.close()
    return lost, len(seen)


async def run(args: argparse.Namespace, base: str) -> tuple[Totals, float]:
    totals = Totals()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(timeout=60) as http:
        tables = [
            await new_table(http, base, args.target, bot=index < round(args.games * args.hard_bots))
            for index in range(args.games)
        ]
    start, stop = asyncio.Event(), asyncio.Event()
    ws_base = base.replace("http://", "ws://")
    seats = [Seat(t, s, random.Random(rng.random())) for t in tables for s in t.tokens]
    for seat in seats:
        seat.arrival = seat.rng.uniform(0, ramp(args))
    tasks = [
        asyncio.create_task(play_seat(f"{ws_base}/ws/{s.table.table_id}", s, args, totals, start, stop)) for s in seats
    ]
    await asyncio.sleep(1.0)  # every connection open before the clock starts
    totals.measured_from = time.perf_counter() + ramp(args)
    start.set()
    probe = asyncio.create_task(probe_lag(totals, stop))
    await asyncio.wait(tasks, timeout=ramp(args) + args.duration)
    stop.set()
    await probe
    seconds = time.perf_counter() - totals.measured_from
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        if task.done() and task.exception() is not None:
            totals.errors.append(f"client: {type(task.exception()).__name__}")
    return totals, seconds


async def probe_lag(totals: Totals, stop: asyncio.Event) -> None:
    """Sleep 10 ms again and again, noting how late the loop wakes: the clients are one process standing for
    hundreds of browsers, and a move's update waits for that loop as well as for the server."""
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(0.01)
        if asked >= totals.measured_from:
            totals.client_lags.append(time.perf_counter() - asked - 0.01)


def measure_own_server(args: argparse.Namespace) -> tuple[Totals, float, tuple[int, int] | None]:
    """Start `ronda serve` on a free port with a temporary database, measure, stop it, check the store."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extra = ["--bot-delay", str(args.bot_delay)]
    if args.bot_workers:
        extra += ["--bot-workers", str(args.bot_workers)]
    if args.sync != "full":
        extra += ["--sync", args.sync]
    with tempfile.TemporaryDirectory(prefix="ronda-load-") as data:
        server = start_server(port, data, *extra)
        try:
            asyncio.run(wait_until_up(base, server))
            totals, seconds = asyncio.run(run(args, base))
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        checked = lost_decisions(f"sqlite:///{data}/ronda.sqlite3", totals.seen)
    return totals, seconds, checked


def report(args: argparse.Namespace, totals: Totals, seconds: float, checked: tuple[int, int] | None) -> dict[str, Any]:
    latencies_ms = [1000 * s for s in totals.latencies]
    return {
        "games": args.games,
        "hard_bot_tables": round(args.games * args.hard_bots),
        "pace_s": args.pace,
        "seconds": round(seconds, 1),
        "moves": totals.moves,
        "moves_per_second": round(totals.moves / seconds, 1),
        "latency_ms_p50": round(percentile(latencies_ms, 50), 2),
        "latency_ms_p99": round(percentile(latencies_ms, 99), 2),
        "ramp_s": ramp(args),
        "ramp_latency_ms_p99": round(percentile([1000 * s for s in totals.ramp_latencies], 99), 2),
        "client_loop_lag_ms_p99": round(1000 * percentile(totals.client_lags, 99), 2),
        "bot_decisions_per_second": round(totals.bot_decisions / seconds, 1),
        "bot_wait_s_p50": round(percentile(totals.bot_waits, 50), 3),
        "bot_wait_s_p99": round(percentile(totals.bot_waits, 99), 3),
        "games_over": totals.games_over,
        "errors": len(totals.errors),
        "refused_and_sent_again": totals.retried,
        "decisions_lost": None if checked is None else checked[0],
        "tables_checked": None if checked is None else checked[1],
    }


def add_people_options(parser: argparse.ArgumentParser) -> None:
    """The options of the scripted people, shared with the soak."""
    parser.add_argument("--pace", type=float, default=1.0, help="seconds a person thinks per decision (default 1)")
    parser.add_argument("--jitter", type=float, default=0.3, help="think time varies by this fraction (default 0.3)")
    parser.add_argument("--hard-bots", type=float, default=0.5, help="fraction of tables against a hard bot (0.5)")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="concurrent two-player games (default 100)")
    add_people_options(parser)
    parser.add_argument(
        "--duration",
        type=float,
        default=60,
        help="seconds measured once everyone has arrived (default 60); games still going are then stopped",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        help="seconds over which the people open their games, each at a random moment, before the measured"
        " seconds (default: ten decisions at --pace, 0 at pace 0); their moves meanwhile are reported apart",
    )
    parser.add_argument("--target", type=int, default=41, help="points to win (default 41)")
    parser.add_argument(
        "--bot-delay", type=float, default=0.0, help="the server's pause before each bot move (default 0)"
    )
    parser.add_argument("--bot-workers", type=int, default=0, help="the server's bot processes (default: one per core)")
    parser.add_argument(
        "--sync", choices=("full", "normal"), default="full", help="the server's --sync: how far a SQLite commit goes"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the people's choices (decks are secure-random)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--url", help="measure a server already running (started with high limits; no store check)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    # The clients stand for hundreds of people's browsers in one process: their own collector's pauses
    # would be counted as the server's latency. Their garbage is freed by reference counting.
    gc.disable()
    if args.url:
        totals, seconds = asyncio.run(run(args, args.url.rstrip("/")))
        checked = None
    else:
        totals, seconds, checked = measure_own_server(args)
    result = report(args, totals, seconds, checked)
    flags = f"--games {args.games} --pace {args.pace:g} --hard-bots {args.hard_bots:g} --duration {args.duration:g}"
    flags += f" --target {args.target}" if args.target != 41 else ""
    flags += f" --ramp {args.ramp:g}" if args.ramp is not None else ""
    flags += f" --jitter {args.jitter:g}" if args.jitter != 0.3 else ""
    flags += f" --bot-workers {args.bot_workers}" if args.bot_workers else ""
    flags += f" --sync {args.sync}" if args.sync != "full" else ""
    flags += f" --url {args.url}" if args.url else ""
    command = f"python benchmarks/load.py {flags}"
    machine = {"cores": os.cpu_count(), "load_average_at_start": round(load, 2)}
    if args.json:
        print(json.dumps({**result, **machine, "command": command}))
    else:
        bots = f"bots {result['bot_decisions_per_second']:.1f} decisions/s"
        if totals.bot_waits:
            waits = f"p50 {result['bot_wait_s_p50']:.2f} s, p99 {result['bot_wait_s_p99']:.2f} s"
            bots += f" (from a bot's turn to its move {waits})"
        arriving = ""
        if totals.ramp_latencies:
            arriving = f"(while people arrived over {result['ramp_s']:g} s: "
            arriving += f"p99 {result['ramp_latency_ms_p99']:.1f} ms) "
        print(
            f"{args.games} games ({result['hard_bot_tables']} against a hard bot), a person's pace {args.pace:g} s: "
            f"{totals.moves} moves in {seconds:.0f} s; move→update p50 {result['latency_ms_p50']:.1f} ms, "
            f"p99 {result['latency_ms_p99']:.1f} ms "
            f"{arriving}"
            f"(the clients' own loop late by {result['client_loop_lag_ms_p99']:.1f} ms at p99); {bots}; "
            f"{len(totals.errors)} errors; {result['decisions_lost']} decisions lost "
            f"({result['tables_checked']} stored games replayed and compared)"
        )
        print(f"(reproduce: {command}; {machine['cores']} cores, load average {load:.2f} at the start)")
    for error in totals.errors[:5]:
        print("error:", shlex.quote(error), file=sys.stderr)
    bad = totals.errors or (checked is not None and checked[0])
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
