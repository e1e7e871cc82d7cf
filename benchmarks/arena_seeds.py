"""Many seeds of one arena line at once, on as many cores as a machine has, until a deadline.

    PYTHONPATH=src python3 benchmarks/arena_seeds.py expert hard --units 20 --first-seed 6000 --jobs 16 \\
        --deadline 480 --out results/
    python benchmarks/pool_arena.py results/expert-hard-*.json

Telling a margin of +0.5 a round from +0.37 takes thousands of single-round
units (one seed's 200 give about ±0.32), more than two cores play in an
evening. This runs the arena's own command, ``ronda arena FIRST SECOND
--rounds --units N --seed S --json``, for seeds S = ``--first-seed``,
``--first-seed`` + 1, … in ``--jobs`` worker processes, each seed's result in
its own file (``FIRST-SECOND-S.json``), and starts no new seed once
``--deadline`` seconds have passed (the seeds begun are finished), so a
machine lent for a fixed time is used to its end without losing a seed half
played. Every file is one arena line that reproduces exactly from its seed, on
decks no other seed shares (the arena draws a unit's deck from its seed and
unit number); ``benchmarks/pool_arena.py`` pools them into one margin with its
95% interval. The seeds are taken in order, so the set of files says which were
played: a gap would show.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path


def _file_name(first: str, second: str, seed: int) -> str:
    """A file name from the entrants' names, with their settings' punctuation made safe for any file system."""
    label = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{first}-{second}")
    return f"{label}-{seed}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="the first entrant (a bot level with settings, as `ronda arena` takes it)")
    parser.add_argument("second", help="the second entrant")
    parser.add_argument("--units", type=int, default=20, help="single-round units a seed (default 20)")
    parser.add_argument("--first-seed", type=int, required=True, help="the first seed; the next ones follow it")
    parser.add_argument(
        "--seeds", type=int, default=10_000, help="at most this many seeds (default: until the deadline)"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="seeds played at once (default: cores)")
    parser.add_argument("--deadline", type=float, required=True, help="seconds after which no seed is begun")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="players at the table (default 2)")
    parser.add_argument("--out", type=Path, required=True, help="the folder for each seed's JSON (created)")
    args = parser.parse_args(argv)
    if args.units < 2 or args.jobs < 1 or args.seeds < 1 or args.deadline <= 0:
        parser.error("--units 2 or more (one unit has no interval), --jobs and --seeds 1 or more, --deadline above 0")
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    seeds = iter(range(args.first_seed, args.first_seed + args.seeds))
    lock = threading.Lock()
    done: list[int] = []
    failed: list[str] = []

    def next_seed() -> int | None:
        with lock:
            # A seed that failed will fail again on the next (a bad entrant, a missing package): stop there.
            if failed or time.monotonic() - start >= args.deadline:
                return None
            return next(seeds, None)

    def worker() -> None:
        while (seed := next_seed()) is not None:
            command = [
                sys.executable, "-m", "ronda", "arena", args.first, args.second, "--rounds",
                "--units", str(args.units), "--seed", str(seed), "--players", str(args.players),
                "--json", "--no-progress",
            ]  # fmt: skip
            finished = subprocess.run(command, capture_output=True, text=True, check=False)
            if finished.returncode != 0:
                with lock:
                    failed.append(f"seed {seed}: exit {finished.returncode}: {finished.stderr.strip()[-300:]}")
                continue
            (args.out / _file_name(args.first, args.second, seed)).write_text(finished.stdout)
            margin = json.loads(finished.stdout)["margin_per_round"]["mean"]
            with lock:
                done.append(seed)
                print(
                    f"seed {seed}: {margin:+.2f} a round ({len(done)} seeds, {time.monotonic() - start:.0f} s)",
                    flush=True,
                )

    threads = [threading.Thread(target=worker) for _ in range(args.jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for line in failed:
        print(line, file=sys.stderr)
    done.sort()
    print(
        f"{len(done)} seeds of {args.units} units ({done[0] if done else '-'} to {done[-1] if done else '-'}),"
        f" {time.monotonic() - start:.0f} s, {len(failed)} failed: {args.out}",
        flush=True,
    )
    return 1 if failed or not done else 0


if __name__ == "__main__":
    sys.exit(main())
