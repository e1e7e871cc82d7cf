"""A soak of a real `ronda serve`: games at a person's pace for minutes, with faults, then every game checked.

    python benchmarks/soak.py                       # 10 minutes, 40 games, half against a hard bot
    python benchmarks/soak.py --minutes 2 --games 10

Scripted people play as in `benchmarks/load.py` (a decision per ``--pace``
seconds, with jitter), ask for another game when one ends, and now and then
drop their connection (``--disconnect``: the chance after each message) and
come back a moment later, asking for what they missed since the version they
hold. Halfway through, the server is killed with SIGKILL and started again on
the same port and database; the people reconnect by themselves.

At the end every person says hello once more and catches up, the server is
stopped, and every stored game of every table is replayed through the engine
and compared with what the clients were shown: each event a client received
must be the stored game's event at that version, the events received must
cover every version, and each person's last view must be the engine's view
of the stored game for that seat. Traffic goes to 127.0.0.1 only; the run
stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from load import (
    SRC,
    Seat,
    Table,
    Totals,
    act,
    add_people_options,
    free_port,
    new_table,
    start_server,
    take,
    think_time,
    wait_until_up,
)
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException


@dataclass
class Faults:
    disconnects: int = 0
    reconnects: int = 0
    failed_connects: int = 0
    killed_at: float | None = None
    restarted_at: float | None = None
    views: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """Each person's last view, by table and seat."""


async def person(
    base: str, seat: Seat, args: argparse.Namespace, totals: Totals, faults: Faults, deadline: float
) -> None:
    """One person for the whole soak: plays, drops the connection now and then, always comes back."""
    url = f"{base.replace('http://', 'ws://')}/ws/{seat.table.table_id}"
    bots = {1} if seat.table.bot else set()
    first = True
    while time.monotonic() < deadline:
        try:
            async with connect(url, max_size=2**22, open_timeout=5) as ws:
                await ws.send(
                    json.dumps({"type": "hello", "token": seat.table.tokens[seat.seat], "since": seat.version})
                )
                if not first:
                    faults.reconnects += 1
                first = False
                while time.monotonic() < deadline:
                    due = seat.legal and seat.acted_at != seat.version
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=think_time(args, seat.rng) if due else 1.0)
                    except TimeoutError:
                        if due:
                            await act(ws, seat, args, totals)
                        elif seat.over:
                            await ws.send(json.dumps({"type": "rematch"}))
                        continue
                    message = json.loads(text)
                    if message["type"] == "error" and message["message"] == "a rematch comes after game over":
                        continue  # our ask came after the other person's had started the new game: not a fault
                    take(seat, message, totals, bots)
                    if message["type"] in ("state", "update", "catchup"):
                        faults.views[(seat.table.table_id, seat.seat)] = message["view"]
                        seat.over = message["view"]["phase"] == "game_over"
                    if seat.rng.random() < args.disconnect:
                        faults.disconnects += 1
                        break
            await asyncio.sleep(seat.rng.uniform(0.2, 3.0))  # away a moment
        except (OSError, WebSocketException, TimeoutError):
            faults.failed_connects += 1  # the server is down (killed): try again shortly
            seat.sent_at = None
            await asyncio.sleep(seat.rng.uniform(0.3, 1.0))


async def catch_up(base: str, seat: Seat, totals: Totals, faults: Faults) -> None:
    """A last hello as a page just opened (``since`` 0): the person then holds the current game's every event."""
    url = f"{base.replace('http://', 'ws://')}/ws/{seat.table.table_id}"
    async with connect(url, max_size=2**22, open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "hello", "token": seat.table.tokens[seat.seat], "since": 0}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
            if message["type"] in ("state", "catchup"):
                take(seat, message, totals, set())
                faults.views[(seat.table.table_id, seat.seat)] = message["view"]
                return


def check(url: str, totals: Totals, faults: Faults, tables: list[Table]) -> dict[str, int]:
    """Every stored game replayed and compared with what the clients saw; the counts of what did not match."""
    sys.path.insert(0, str(SRC))
    from ronda.engine.record import replay, replay_result
    from ronda.interfaces.web.protocol import legal_json, view_json
    from ronda.interfaces.web.store import Store

    store = Store(url)
    wrong_events = missing = wrong_views = games = decisions = 0
    try:
        for table in tables:
            (stored,) = store.load_tables([table.table_id])
            events: dict[int, dict[str, Any]] = {}
            last_game = None
            for g in stored.games:
                record = store.load_record(table.table_id, g.game)
                decisions += sum(len(r["actions"]) for r in record["rounds"])
                last_game = replay(record)
                for i, event in enumerate(replay_result(last_game)["events"]):
                    events[g.base_version + i + 1] = event
                games += 1
            seen = totals.seen.get(table.table_id, {})
            for version, event in seen.items():
                if events.get(version) != {k: v for k, v in event.items() if k != "version"}:
                    wrong_events += 1
            # A client that comes back after a rematch is sent the whole picture (a state), not the events of the
            # new game so far: the versions of that game up to the state's version were shown that way.
            shown = set(seen)
            for version in totals.states.get(table.table_id, set()):
                base = max((g.base_version for g in stored.games if g.base_version < version), default=0)
                shown.update(range(base + 1, version + 1))
            unseen = sorted(set(events) - shown)
            missing += len(unseen)
            if unseen:  # which, to tell a lost update from a move stored after the last look (stderr)
                kinds = [(v, events[v]["type"], events[v].get("seat")) for v in unseen]
                print(f"table {table.table_id}: stored, never shown: {kinds}", file=sys.stderr)
            assert last_game is not None
            for seat in table.tokens:
                targets = [a["challenge"] for a in legal_json(last_game, seat) if "challenge" in a]
                if faults.views.get((table.table_id, seat)) != view_json(last_game.view(seat), targets):
                    wrong_views += 1
                    print(
                        f"table {table.table_id} seat {seat}: last view shown not the stored game's"
                        f" (shown up to version {max(seen, default=0)}, stored up to {max(events, default=0)})",
                        file=sys.stderr,
                    )
    finally:
        store.close()
    return {
        "games_stored": games,
        "decisions_stored": decisions,
        "events_not_as_stored": wrong_events,
        "stored_events_never_shown": missing,
        "states_sent": sum(len(v) for v in totals.states.values()),
        "last_views_not_as_stored": wrong_views,
    }


async def soak(args: argparse.Namespace, port: int, data: str) -> tuple[Totals, Faults, list[Table], float]:
    base = f"http://127.0.0.1:{port}"
    extra = ["--bot-delay", str(args.bot_delay), "--store-timeout", "2"]
    server = start_server(port, data, *extra)
    await wait_until_up(base, server)
    totals, faults = Totals(), Faults()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(timeout=60) as http:
        tables = [
            await new_table(http, base, 41, bot=index < round(args.games * args.hard_bots))
            for index in range(args.games)
        ]
    seats = [Seat(t, s, random.Random(rng.random())) for t in tables for s in t.tokens]
    began = time.monotonic()
    deadline = began + 60 * args.minutes
    tasks = [asyncio.create_task(person(base, s, args, totals, faults, deadline)) for s in seats]
    await asyncio.sleep(30 * args.minutes)  # halfway: the server is killed, then started again
    server.send_signal(signal.SIGKILL)
    server.wait(timeout=10)
    faults.killed_at = time.monotonic() - began
    await asyncio.sleep(1.0)
    server = start_server(port, data, *extra)
    await wait_until_up(base, server)
    faults.restarted_at = time.monotonic() - began
    await asyncio.wait(tasks, timeout=60 * args.minutes + 60)
    seconds = time.monotonic() - began
    for seat in seats:
        await catch_up(base, seat, totals, faults)
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
    return totals, faults, tables, seconds


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10, help="how long the soak lasts (default 10)")
    parser.add_argument("--games", type=int, default=40, help="concurrent two-player tables (default 40)")
    add_people_options(parser)
    parser.add_argument("--disconnect", type=float, default=0.02, help="chance to drop the connection after a message")
    parser.add_argument(
        "--bot-delay", type=float, default=0.3, help="the server's pause before each bot move (default 0.3)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the people's choices")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ronda-soak-") as data:
        totals, faults, tables, seconds = asyncio.run(soak(args, free_port(), data))
        checked = check(f"sqlite:///{Path(data) / 'ronda.sqlite3'}", totals, faults, tables)
    result = {
        "minutes": args.minutes,
        "games": args.games,
        "seconds": round(seconds, 1),
        "moves": totals.moves,
        "games_over": totals.games_over,
        "disconnects": faults.disconnects,
        "reconnects": faults.reconnects,
        "connects_refused_while_down": faults.failed_connects,
        "killed_at_s": round(faults.killed_at or 0, 1),
        "restarted_at_s": round(faults.restarted_at or 0, 1),
        "errors": len(totals.errors),
        "refused_and_sent_again": totals.retried,
        **checked,
        "cores": os.cpu_count(),
        "load_average_at_start": round(load, 2),
        "command": f"python benchmarks/soak.py --minutes {args.minutes:g} --games {args.games}",
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")
    for error in totals.errors[:5]:
        print("error:", error, file=sys.stderr)
    bad = checked["events_not_as_stored"] or checked["stored_events_never_shown"] or checked["last_views_not_as_stored"]
    return 1 if bad or totals.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
