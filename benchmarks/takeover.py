"""How long a table is unavailable when its owner process is killed, in a cluster of `ronda serve --redis`.

    python benchmarks/takeover.py              # 5 tries
    python benchmarks/takeover.py --tries 10 --json

Starts a throwaway PostgreSQL and ``redis-server`` (as the tests do, from
Debian's binaries: tests/web/conftest.py) and two ``ronda serve --redis``
processes. Each try makes a two-person table at the first process (its owner),
connects seat 0 to it and seat 1 to the second process (relayed), plays a few
decisions, then SIGKILLs the owner and keeps playing as the page does (it
reconnects by itself, to the process still running). Measured from the
SIGKILL: when each seat is shown the first decision taken after it (the table
is available again), and the game is played on to its end and checked
against the store. The killed process is started again for the next try.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests" / "web"), str(HERE.parent / "tests"), str(HERE.parent / "src")]

from conftest import Cluster, RedisServer  # noqa: E402
from real_server import RealServer, assert_shown_equals_stored  # noqa: E402
from test_web_cluster import OPTIONS, Player, play, table_across  # noqa: E402


def timed_moves(players: list[Player], rng: random.Random, count: int) -> list[tuple[int, float]]:
    """``count`` decisions, each timed from its sending to its update at the sender: seat 0 is connected to the
    owner, seat 1 relayed through another process (its frame and its update both cross Redis)."""
    times = []
    for _ in range(count):
        while not any(p.legal for p in players) and not any(p.over for p in players):
            for p in players:
                p.pump()
        if any(p.over for p in players):
            break
        mover = next(p for p in players if p.legal)
        before = mover.version
        started = time.perf_counter()
        mover.act(rng.choice([a for a in mover.legal if "challenge" not in a]))
        while mover.version == before:
            mover.pump(1)
        times.append((mover.seat, time.perf_counter() - started))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pg, redis = Cluster(), RedisServer()
    folder = Path(tempfile.mkdtemp(prefix="ronda-takeover-"))
    database = pg.database()
    servers = [RealServer(folder / f"p{i}", "--redis", redis.url, *OPTIONS, database_url=database) for i in range(2)]
    shown: list[float] = []
    latency: dict[int, list[float]] = {0: [], 1: []}
    try:
        for attempt in range(args.tries):
            table_id, players = table_across(servers)
            rng = random.Random(attempt)
            for seat, took in timed_moves(players, rng, 12):
                latency[seat].append(took)
            for p in players:
                p.pump(0.2)
            held = [p.version for p in players]
            killed = time.monotonic()
            servers[0].kill()
            first: dict[int, float] = {}
            while len(first) < len(players):
                play(players, rng, moves=1)  # one decision, sent after reconnecting if need be
                for _ in range(200):
                    for p in players:
                        p.pump(0.005)
                        if p.seat not in first and p.version > held[p.seat]:
                            first[p.seat] = time.monotonic() - killed
                    if len(first) == len(players) or any(p.legal for p in players):
                        break
            play(players, rng)
            assert_shown_equals_stored(database, table_id, {p.seat: p for p in players})  # type: ignore[dict-item]
            shown.append(max(first.values()))
            for p in players:
                p.close()
            servers[0] = RealServer(folder / f"again{attempt}", "--redis", redis.url, *OPTIONS, database_url=database)
            servers.reverse()  # the next table is owned by the other process
    finally:
        for server in servers:
            server.stop()
        redis.remove()
        pg.remove()
    result = {
        "tries": len(shown),
        "unavailable_s": [round(s, 2) for s in shown],
        "p50_s": round(statistics.median(shown), 2),
        "max_s": round(max(shown), 2),
        "move_to_update_ms_p50_at_the_owner": round(1000 * statistics.median(latency[0]), 1),
        "move_to_update_ms_p50_relayed": round(1000 * statistics.median(latency[1]), 1),
        "moves_timed_per_seat": len(latency[0]),
        "command": "python benchmarks/takeover.py " + " ".join(sys.argv[1:]),
    }
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
