"""Load and faults on several `ronda serve --redis` processes: load.py's scripted people, spread over the processes.

    python benchmarks/cluster_load.py --processes 3 --games 500 --pace 1 --hard-bots 0.5
    python benchmarks/cluster_load.py --processes 3 --games 500 --kill-one-at 30      # one owner SIGKILLed mid-run
    python benchmarks/cluster_load.py --processes 3 --games 40 --duration 600 --kill-every 120 \\
        --disconnect 0.02 --bot-delay 0.3                                             # the cluster soak

Starts a throwaway PostgreSQL and ``redis-server`` (Debian's binaries, as the
tests do: tests/web/conftest.py) and ``--processes`` ``ronda serve --redis``
processes on one database. The tables are created at the processes in turn (the
creating process owns a table first); each person's websocket goes to a process
drawn at random at every connection, as a load balancer with no sticky sessions
would send it, so about (N-1)/N of the seats are relayed through a process that
does not own their table (the run prints how many). The people are load.py's
(a random legal decision every ``--pace`` seconds, arriving over the ramp), and
they behave as the page does when their connection drops: they come back at
once to another process, asking for what they missed, and ask for a rematch
when a game ends; with ``--disconnect`` they also drop it now and then (soak.py).

``--kill-one-at S`` SIGKILLs one process S seconds into the measured time;
``--kill-every S`` kills one every S seconds, each in turn; a killed process is
started again on its port ``--restart-after`` seconds later (negative: never).
For each kill, the tables whose lease the killed process held: the gap between
the last update any of their people was shown before the kill and the first
after it (p50, p99, max) — how long the table was unavailable, a person's
think time included; the same gap at the other tables is printed beside it,
as the baseline of a game that was never stopped.

At the end every person says hello once more, the processes are stopped, and
every stored game is replayed through the engine and compared with what the
clients were shown (soak.py's check): events shown but not stored as shown
(decisions lost), stored events never shown, last views not the engine's. The
processes' CPU (each with its bot workers), Redis's and PostgreSQL's over the
measured seconds are printed, per decision, to size a cluster from.
PostgreSQL runs without fsync (a throwaway cluster): a commit costs less than on
a real disk. Everything runs on this machine, clients included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests" / "web"), str(HERE.parent / "tests"), str(HERE.parent / "src")]

import httpx  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402
from conftest import Cluster, RedisServer  # noqa: E402
from load import (  # noqa: E402
    BOT_KINDS,
    Seat,
    Table,
    Totals,
    act,
    add_people_options,
    free_port,
    new_table,
    percentile,
    probe_lag,
    ramp,
    take,
    think_time,
    wait_until_up,
)
from soak import Faults, check  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import WebSocketException  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass
class Process:
    """One ``ronda serve --redis`` of the run, on a port it keeps when it is started again."""

    port: int
    data: str
    popen: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None


@dataclass
class Run:
    """What the cluster run adds to load.py's totals and soak.py's faults."""

    updates: dict[str, list[float]] = field(default_factory=dict)
    """When any person of a table was shown an update (``perf_counter``), by table."""
    kills: list[tuple[float, int, set[str]]] = field(default_factory=list)
    """Each SIGKILL: when, which process, the tables whose lease it held."""
    kill_clock: list[float] = field(default_factory=list)
    """Each SIGKILL's wall-clock time (``time.time()``), to place the servers' log lines."""
    first_connections: int = 0
    relayed_first: int = 0
    connects_refused: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    """Connections lost or refused, by close code or error."""
    welcomes: dict[str, list[float]] = field(default_factory=dict)
    """When any person of a table was sent the whole picture (``state`` or ``catchup``: a hello answered), by table."""
    bot_moves: dict[str, list[float]] = field(default_factory=dict)
    """When a table's person was shown its bot's decision, by table."""
    bot_owes: dict[str, bool] = field(default_factory=dict)
    """Whether the bot owes the next decision at the table, as its person last saw it."""
    phases: list[Phases] = field(default_factory=list)
    """For each kill, what the benchmark saw of its tables' takeover (one per entry of ``kills``)."""


@dataclass
class Phases:
    """A kill's takeover, table by table, in ``perf_counter`` seconds (see :func:`takeover_phases`)."""

    expires: dict[str, float] = field(default_factory=dict)
    """When each of the killed owner's leases was due to expire (its PTTL read right after the SIGKILL)."""
    taken: dict[str, float] = field(default_factory=dict)
    """When another process's lease on it was first seen in Redis (polled every 20 ms)."""
    bot_owed: set[str] = field(default_factory=set)
    """The tables whose bot owed the next decision when the owner was killed."""


def start_process(process: Process, database: str, redis_url: str, args: argparse.Namespace) -> None:
    command = [
        sys.executable, "-m", "ronda", "serve", "--redis", redis_url,
        "--port", str(process.port), "--data", process.data, "--log-level", "info", "--log-format", "json",
        "--flood-rate", "100000", "--create-rate", "100000", "--join-rate", "100000",
        "--tables-per-client", "100000", "--max-tables", "100000", "--connections-per-client", "100000",
        "--bot-delay", str(args.bot_delay), "--bot-workers", str(args.bot_workers), "--grace", "60",
    ]  # fmt: skip
    env = dict(os.environ, DATABASE_URL=database)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE.parent / "src"), env.get("PYTHONPATH", "")) if p)
    with open(f"{process.data}.log", "ab") as log:  # the servers' log: each takeover's time there (server_side)
        process.popen = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, env=env)


def cpu_seconds(root: int) -> float:
    """CPU seconds of a process and every process under it (a server's bot workers, PostgreSQL's backends)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(f) for f in fields[11:15]) / CLK_TCK  # utime stime cutime cstime
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(times.get(pid, 0.0) for pid in tree)


async def person(
    processes: list[Process], seat: Seat, args: argparse.Namespace, totals: Totals, faults: Faults, run: Run,
    owner_port: int, stop: asyncio.Event,
) -> None:  # fmt: skip
    """One person: arrives, plays, and whenever the connection drops comes back at once through a random process."""
    bots = {1} if seat.table.bot else set()
    first = True
    await asyncio.sleep(seat.arrival)
    while not stop.is_set():
        port = seat.rng.choice(processes).port
        url = f"ws://127.0.0.1:{port}/ws/{seat.table.table_id}"
        seat.sent_at = None  # a move left unanswered on a dropped connection is not timed
        seat.acted_at = -1  # and, as a person at the page would, it is made again if it was not stored
        try:
            async with connect(url, max_size=2**22, open_timeout=5) as ws:
                await ws.send(
                    json.dumps({"type": "hello", "token": seat.table.tokens[seat.seat], "since": seat.version})
                )
                if first:
                    run.first_connections += 1
                    run.relayed_first += port != owner_port
                else:
                    faults.reconnects += 1
                first = False
                while not stop.is_set():
                    due = seat.legal and seat.acted_at != seat.version
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=think_time(args, seat.rng) if due else 1.0)
                    except TimeoutError:
                        if stop.is_set():
                            break
                        if due:
                            await act(ws, seat, args, totals)
                        elif seat.over:
                            await ws.send(json.dumps({"type": "rematch"}))
                        continue
                    message = json.loads(text)
                    if message["type"] == "error" and message["message"] == "a rematch comes after game over":
                        continue  # our ask came after the other person's had started the new game: not a fault
                    now = time.perf_counter()
                    if message["type"] == "update":
                        run.updates.setdefault(seat.table.table_id, []).append(now)
                        if bots and any(
                            e.get("seat") in bots and e["type"] in BOT_KINDS for e in message.get("events", [])
                        ):
                            run.bot_moves.setdefault(seat.table.table_id, []).append(now)
                    elif message["type"] in ("state", "catchup"):
                        run.welcomes.setdefault(seat.table.table_id, []).append(now)
                    if bots and message["type"] in ("state", "update", "catchup"):
                        view = message["view"]
                        run.bot_owes[seat.table.table_id] = view["phase"] != "game_over" and view.get("turn") in bots
                    take(seat, message, totals, bots)
                    if message["type"] in ("state", "update", "catchup"):
                        faults.views[(seat.table.table_id, seat.seat)] = message["view"]
                        seat.over = message["view"]["phase"] == "game_over"
                    if args.disconnect and seat.rng.random() < args.disconnect:
                        faults.disconnects += 1
                        break
            if not stop.is_set() and args.disconnect:
                await asyncio.sleep(seat.rng.uniform(0.2, 3.0))  # away a moment (a drop of one's own)
        except (OSError, WebSocketException, TimeoutError) as error:
            reason = getattr(getattr(error, "rcvd", None), "code", None) or type(error).__name__
            run.dropped[str(reason)] = run.dropped.get(str(reason), 0) + 1
            run.connects_refused += 1  # the process went away (killed), or refused: another at once
            await asyncio.sleep(seat.rng.uniform(0.05, 0.3))


async def holders(cache: aioredis.Redis, tables: list[Table]) -> dict[str, str]:
    """Each table's lease holder (the owner process's id), for those that have one."""
    values = await cache.mget([f"ronda:lease:{t.table_id}" for t in tables])
    return {t.table_id: v.rsplit(":", 1)[0] for t, v in zip(tables, values, strict=True) if v}


def owner_pid(holder: str) -> int:
    """The process id inside a lease holder's id (``host-pid-random``)."""
    return int(holder.rsplit("-", 2)[1])


async def faults_schedule(
    args: argparse.Namespace, processes: list[Process], database: str, redis_url: str, tables: list[Table],
    run: Run, began: float,
) -> None:  # fmt: skip
    """SIGKILL one process at each planned moment (measured from ``began``), and start it again after a while."""
    every = args.kill_every or 0.0
    moments = [args.kill_one_at] if args.kill_one_at is not None else []
    if every:
        moments = [every * k for k in range(1, int(args.duration // every) + 1) if every * k < args.duration]
    cache = aioredis.Redis.from_url(redis_url, decode_responses=True)
    watchers: list[asyncio.Task[None]] = []
    try:
        for index, moment in enumerate(moments):
            await asyncio.sleep(max(0.0, began + moment - time.perf_counter()))
            victim = processes[index % len(processes)]
            assert victim.popen is not None
            held = await holders(cache, tables)
            owned = {t for t, h in held.items() if owner_pid(h) == victim.popen.pid}
            victim.popen.send_signal(signal.SIGKILL)
            killed_at = time.perf_counter()
            run.kill_clock.append(time.time())
            phases = Phases(bot_owed={t for t in owned if run.bot_owes.get(t)})
            keys = sorted(owned)
            async with cache.pipeline(transaction=False) as pipe:
                for table_id in keys:
                    pipe.pttl(f"ronda:lease:{table_id}")
                left = await pipe.execute()
            phases.expires = {t: killed_at + max(0, int(ms)) / 1000 for t, ms in zip(keys, left, strict=True)}
            run.kills.append((killed_at, index % len(processes), owned))
            run.phases.append(phases)
            watchers.append(asyncio.create_task(watch_takeovers(cache, keys, victim.popen.pid, phases)))
            await asyncio.to_thread(victim.popen.wait, 10)
            if args.restart_after >= 0:
                await asyncio.sleep(args.restart_after)
                start_process(victim, database, redis_url, args)
                await wait_until_up(victim.base, victim.popen)
        await asyncio.gather(*watchers)
    finally:
        await cache.aclose()


async def watch_takeovers(cache: aioredis.Redis, keys: list[str], victim: int, phases: Phases) -> None:
    """Note when each of a killed owner's tables is first held by another process (for 90 s at most)."""
    deadline = time.perf_counter() + 90
    while len(phases.taken) < len(keys) and time.perf_counter() < deadline:
        values = await cache.mget([f"ronda:lease:{t}" for t in keys])
        now = time.perf_counter()
        for table_id, value in zip(keys, values, strict=True):
            if value and table_id not in phases.taken and owner_pid(value.rsplit(":", 1)[0]) != victim:
                phases.taken[table_id] = now
        await asyncio.sleep(0.02)


def takeover_phases(run: Run, killed_at: float, owned: set[str], phases: Phases) -> dict[str, Any]:
    """Where a kill's time went, per table of the killed owner, in seconds from the SIGKILL (p50 / p99 / max).

    - ``lease_expired``: the dead owner's lease ran out (the rest of its 3 s since its last renewal);
    - ``lease_taken``: another process held the table's lease (a page reconnected there and it claimed the table);
    - ``shown_again``: the first hello answered at the table after the kill (``state`` or ``catchup``): rebuilt
      from the store at the new owner, its people can play;
    - ``bot_moved``: at the tables whose bot owed the next decision at the kill, its decision shown;
    - ``back``: the table can be played again: ``bot_moved`` where the bot owed the decision, else ``shown_again``.

    And the steps between them: ``taken_after_expiry`` (lease_taken - lease_expired), ``rebuilt_and_shown``
    (shown_again - lease_taken), ``bot_after_shown`` (bot_moved - shown_again). ``not_back`` counts the tables
    never back before the end of the measured time.
    """

    def first_after(times: list[float]) -> float | None:
        later = [t for t in times if t > killed_at]
        return min(later) if later else None

    # Each phase, and the step from the phase before it (named, or None for the first).
    steps = (
        ("lease_expired", None),
        ("lease_taken", "taken_after_expiry"),
        ("shown_again", "rebuilt_and_shown"),
        ("bot_moved", "bot_after_shown"),
    )
    names = [name for pair in steps for name in pair if name] + ["back"]
    columns: dict[str, list[float]] = {name: [] for name in names}
    not_back = 0
    for table_id in owned:
        bot = first_after(run.bot_moves.get(table_id, [])) if table_id in phases.bot_owed else None
        shown = first_after(run.welcomes.get(table_id, []))
        times = (phases.expires.get(table_id), phases.taken.get(table_id), shown, bot)
        before: float | None = None
        for (phase, step), at in zip(steps, times, strict=True):
            if at is not None:
                columns[phase].append(at - killed_at)
                if step is not None and before is not None:
                    columns[step].append(at - before)
            before = at
        back = bot if table_id in phases.bot_owed else shown
        if back is None:
            not_back += 1
        else:
            columns["back"].append(back - killed_at)
    result: dict[str, Any] = {
        name: f"{percentile(v, 50):.2f} / {percentile(v, 99):.2f} / {max(v):.2f} s ({len(v)})"
        for name, v in columns.items()
        if v
    }
    result["bot_owed_at_kill"] = len(phases.bot_owed)
    result["not_back"] = not_back
    return result


TAKEN = re.compile(
    r"table (\w+): taken over in ([\d.]+) s \(lease and claim ([\d.]+) s, rebuilt from the store ([\d.]+) s\)"
)


def server_side(folder: str, killed: float, owned: set[str]) -> dict[str, str]:
    """The new owners' own account of a kill's takeovers (their log's "taken over" lines, the 90 s after it):
    ``at_new_owner``, from the first ask for the table there (a reconnected page's hello) to the table rebuilt, made
    of ``lease_and_claim`` (waiting out or breaking the dead owner's lease, then storing the new epoch) and
    ``rebuilt`` (the stored game read and replayed); and ``logged_at`` (when it was done, from the SIGKILL)."""
    columns: dict[str, list[float]] = {"at_new_owner": [], "lease_and_claim": [], "rebuilt": [], "logged_at": []}
    for path in Path(folder).glob("*.log"):
        for line in path.read_text(errors="replace").splitlines():
            if "taken over in" not in line:
                continue
            with contextlib.suppress(ValueError, KeyError):
                entry = json.loads(line)
                found = TAKEN.search(entry["message"])
                when = datetime.fromisoformat(entry["time"]).timestamp()
                if found is None or found[1] not in owned or not killed <= when <= killed + 90:
                    continue
                columns["at_new_owner"].append(float(found[2]))
                columns["lease_and_claim"].append(float(found[3]))
                columns["rebuilt"].append(float(found[4]))
                columns["logged_at"].append(when - killed)
    return {
        name: f"{percentile(v, 50):.2f} / {percentile(v, 99):.2f} / {max(v):.2f} s ({len(v)})"
        for name, v in columns.items()
        if v
    }


def leases_broken_and_lost(folder: str) -> str:
    """From the servers' logs, the whole run: leases broken because their holder's channel fell silent, and leases
    a living owner lost (a renewal too late, a write fenced). With no kill, either means a process was taken for dead
    or starved past its lease: its tables moved (nothing lost, but a sign)."""
    broken = lost = 0
    for path in Path(folder).glob("*.log"):
        text = path.read_text(errors="replace")
        broken += text.count("its lease is broken")
        lost += text.count("its lease was lost") + text.count("another process owns it now")
    return f"{broken} broken, {lost} lost"


def gaps(run: Run, killed_at: float, tables: set[str]) -> list[float]:
    """Per table named: from the last update any of its people was shown before ``killed_at`` to the first after."""
    found = []
    for table_id in tables:
        times = run.updates.get(table_id, [])
        before = [t for t in times if t <= killed_at]
        after = [t for t in times if t > killed_at]
        if before and after:
            found.append(min(after) - max(before))
    return found


async def measure(
    args: argparse.Namespace, processes: list[Process], database: str, redis_url: str, pids: dict[str, int]
) -> tuple[Totals, Faults, Run, list[Table], float, dict[str, float]]:
    totals, faults, run = Totals(), Faults(), Run()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(timeout=60) as http:
        tables, creators = [], []
        for index in range(args.games):
            creator = processes[index % len(processes)]
            bot = index < round(args.games * args.hard_bots)
            tables.append(await new_table(http, creator.base, args.target, bot=bot))
            creators.append(creator.port)
    seats = [
        (Seat(t, s, random.Random(rng.random())), port)
        for t, port in zip(tables, creators, strict=True)
        for s in t.tokens
    ]
    for seat, _ in seats:
        seat.arrival = seat.rng.uniform(0, ramp(args))
    stop = asyncio.Event()
    totals.measured_from = time.perf_counter() + ramp(args)
    tasks = [asyncio.create_task(person(processes, s, args, totals, faults, run, port, stop)) for s, port in seats]
    await asyncio.sleep(ramp(args))
    roots = dict(pids)
    roots.update({f"process {i}": p.popen.pid for i, p in enumerate(processes) if p.popen is not None})
    cpu_before = {name: cpu_seconds(pid) for name, pid in roots.items()}
    probe = asyncio.create_task(probe_lag(totals, stop))
    killing = asyncio.create_task(
        faults_schedule(args, processes, database, redis_url, tables, run, totals.measured_from)
    )
    await asyncio.sleep(args.duration)
    # A process killed meanwhile took its CPU seconds with it: only those that ran throughout are counted.
    cpu = {
        name: cpu_seconds(pid) - cpu_before[name]
        for name, pid in roots.items()
        if name in pids or any(p.popen is not None and p.popen.pid == pid and p.alive for p in processes)
    }
    seconds = time.perf_counter() - totals.measured_from
    stop.set()
    await killing
    await probe
    await asyncio.wait(tasks, timeout=15)
    for task in tasks:
        if task.done() and task.exception() is not None:
            totals.errors.append(f"client: {task.exception()!r}")
    early = {"latency_ms_p50": percentile([1000 * x for x in totals.latencies], 50)}
    early["latency_ms_p99"] = percentile([1000 * x for x in totals.latencies], 99)
    early["unavailable_ms"] = [sorted(1000 * g for g in gaps(run, at, owned)) for at, _, owned in run.kills]
    early["phases"] = [takeover_phases(run, at, o, p) for (at, _, o), p in zip(run.kills, run.phases, strict=True)]
    print("measured (before the last hellos and the check):", json.dumps(early), file=sys.stderr, flush=True)
    await asyncio.sleep(2.0)  # a bot's answer to a person's last move is stored before the last hellos
    live = [p for p in processes if p.alive]
    limit = asyncio.Semaphore(32)

    async def last_hello(seat: Seat) -> None:
        """A last hello as a page just opened, which stays while the table's bot still owes its answer.

        A bot plays only while someone is connected to its table (docs/server.md), so a page that said hello and
        left at once, again and again, would never see the bot's last move: this one waits for it, connected.
        """
        async with limit:
            deadline = time.monotonic() + 120  # a bot's queue may be long on a loaded machine
            while time.monotonic() < deadline:
                try:
                    await follow(random.choice(live).base, seat, deadline)
                    return
                except (OSError, WebSocketException, TimeoutError):
                    await asyncio.sleep(1.0)
            totals.errors.append(f"last hello: table {seat.table.table_id} seat {seat.seat} never answered")

    async def follow(base: str, seat: Seat, deadline: float) -> None:
        url = f"{base.replace('http://', 'ws://')}/ws/{seat.table.table_id}"
        async with connect(url, max_size=2**22, open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat.table.tokens[seat.seat], "since": 0}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
                if message["type"] not in ("state", "catchup", "update"):
                    continue
                take(seat, message, totals, set())
                view = faults.views[(seat.table.table_id, seat.seat)] = message["view"]
                if not (seat.table.bot and view["phase"] != "game_over" and view.get("turn") == 1):
                    return

    await asyncio.gather(*(last_hello(s) for s, _ in seats))
    return totals, faults, run, tables, seconds, cpu


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=3, help="ronda serve --redis processes (default 3)")
    parser.add_argument("--games", type=int, default=100, help="concurrent two-player games (default 100)")
    add_people_options(parser)
    parser.add_argument("--duration", type=float, default=60, help="seconds measured after the ramp (default 60)")
    parser.add_argument("--ramp", type=float, help="seconds over which people arrive (default: ten decisions)")
    parser.add_argument("--target", type=int, default=41, help="points to win (default 41)")
    parser.add_argument("--bot-delay", type=float, default=0.0, help="each process's pause before a bot's move")
    parser.add_argument("--bot-workers", type=int, default=1, help="bot processes per server process (default 1)")
    parser.add_argument("--disconnect", type=float, default=0.0, help="chance to drop the connection after a message")
    parser.add_argument("--kill-one-at", type=float, help="SIGKILL one process this many measured seconds in")
    parser.add_argument("--kill-every", type=float, help="SIGKILL a process (each in turn) every this many seconds")
    parser.add_argument(
        "--restart-after", type=float, default=1.0, help="start a killed process again after this (default 1; <0 never)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the people's choices (decks are secure-random)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    gc.disable()  # the clients' collector pauses would count as the servers' latency (load.py)
    pg, cache = Cluster(), RedisServer()
    database = pg.database()
    postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])
    assert cache.process is not None
    folder = tempfile.mkdtemp(prefix="ronda-cluster-load-")
    processes = [Process(free_port(), f"{folder}/p{i}") for i in range(args.processes)]
    try:
        for process in processes:
            start_process(process, database, cache.url, args)
        for process in processes:
            asyncio.run(wait_until_up(process.base, process.popen, timeout=60))
        pids = {"postgresql": postmaster, "redis": cache.process.pid}
        totals, faults, run, tables, seconds, cpu = asyncio.run(measure(args, processes, database, cache.url, pids))
        for process in processes:
            if process.popen is not None and process.popen.poll() is None:
                process.popen.terminate()
                process.popen.wait(timeout=30)
        for number, (_, _, owned) in enumerate(run.kills):  # to read check()'s lines on stderr beside
            bots = sorted(t.table_id for t in tables if t.bot and t.table_id in owned)
            others = sorted(owned - set(bots))
            print(f"kill {number}: its bot tables {bots}; its other tables {others}", file=sys.stderr)
        checked = check(database, totals, faults, tables)
    finally:
        for process in processes:
            if process.popen is not None and process.popen.poll() is None:
                process.popen.kill()
        cache.remove()
        pg.remove()
    latencies = [1000 * s for s in totals.latencies]
    decisions = totals.moves + totals.bot_decisions
    result: dict[str, Any] = {
        "processes": args.processes,
        "games": args.games,
        "hard_bot_tables": round(args.games * args.hard_bots),
        "seconds": round(seconds, 1),
        "moves": totals.moves,
        "bot_decisions": totals.bot_decisions,
        "seats_relayed_at_first": f"{run.relayed_first} of {run.first_connections}",
        "latency_ms_p50": round(percentile(latencies, 50), 1),
        "latency_ms_p99": round(percentile(latencies, 99), 1),
        "latency_ms_max": round(max(latencies, default=float("nan")), 1),
        "client_loop_lag_ms_p99": round(1000 * percentile(totals.client_lags, 99), 1) if totals.client_lags else None,
        "bot_wait_s_p50": round(percentile(totals.bot_waits, 50), 2),
        "bot_wait_s_p99": round(percentile(totals.bot_waits, 99), 2),
        "errors": len(totals.errors),
        "refused_and_sent_again": totals.retried,
        "reconnects": faults.reconnects,
        "disconnects_of_their_own": faults.disconnects,
        "connections_lost_or_refused": run.connects_refused,
        "connections_lost_by_reason": run.dropped,
        "kills": [],
        "decisions_lost": checked["events_not_as_stored"],
        **checked,
        "leases_broken_and_lost": leases_broken_and_lost(folder),
        "cpu_s_per_1000_decisions": {k: round(1000 * v / max(decisions, 1), 1) for k, v in cpu.items()},
        "cpu_share_of_a_core": {k: round(v / seconds, 2) for k, v in cpu.items()},
        "cores": os.cpu_count(),
        "load_average_at_start": round(load, 2),
        "command": "python benchmarks/cluster_load.py " + " ".join(sys.argv[1:]),
    }
    for (killed_at, index, owned), phases, clock in zip(run.kills, run.phases, run.kill_clock, strict=True):
        down = [1000 * g for g in gaps(run, killed_at, owned)]
        others = [1000 * g for g in gaps(run, killed_at, {t.table_id for t in tables} - owned)]
        result["kills"].append(
            {
                "at_s": round(killed_at - totals.measured_from, 1),
                "process": index,
                "tables_it_owned": len(owned),
                "unavailable_ms_p50": round(percentile(down, 50)),
                "unavailable_ms_p99": round(percentile(down, 99)),
                "unavailable_ms_max": round(max(down, default=float("nan"))),
                "tables_with_no_update_after_it": len(owned) - len(down),
                "other_tables_gap_ms_p50": round(percentile(others, 50)),
                "other_tables_gap_ms_p99": round(percentile(others, 99)),
                "phases_from_kill_p50_p99_max": takeover_phases(run, killed_at, owned, phases),
                "server_side_p50_p99_max": server_side(folder, clock, owned),
            }
        )
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>32}: {value}")
    kinds = Counter(re.sub(r"table \S+ seat \d", "table … seat …", e) for e in totals.errors)
    for error, count in kinds.most_common(8):
        print(f"error ({count} times):", error, file=sys.stderr)
    bad = checked["events_not_as_stored"] or checked["stored_events_never_shown"] or checked["last_views_not_as_stored"]
    return 1 if bad or totals.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
