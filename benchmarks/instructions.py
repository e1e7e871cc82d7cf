"""The engine's work counted in machine instructions (valgrind), and its best-of-N CPU time, on several installs.

    python benchmarks/instructions.py --trees OLD_CHECKOUT NEW_CHECKOUT COMPILED_SITE
    python benchmarks/instructions.py --trees OLD_CHECKOUT NEW_CHECKOUT COMPILED_SITE --clock --runs 5

A *tree* is a folder that holds ``ronda/`` (an unpacked wheel, a site-packages)
or a checkout that holds ``src/ronda``: the pure engine of a checkout, or the
compiled one of a wheel (``pip wheel --no-deps -w WHEELS .``, then ``unzip``).

Why instructions: on a machine shared with other work, the clock moves by a
tenth or more from one minute to the next, and a comparison of two engines
with it; the number of instructions a process executes does not depend on the
load. Each workload runs under ``valgrind --tool=cachegrind --cache-sim=no``
(exact counts, a run's count repeats to a few parts in a million; about fifty
times slower than the plain run) or, without valgrind, ``perf stat -e
instructions:u`` where the kernel lets it count. The count of a run doing
``--warm`` units and then ``--units`` more, minus the count of a run doing the
``--warm`` units alone, is the work of ``--units`` units: imports, set-up and the
memos filled at the start are taken off. Instructions are not time (a compiled
engine does less per instruction stall and a cache miss costs many), so
``--clock`` measures the same workloads by CPU time, best of ``--runs``
alternating runs.

Workloads (units): ``auto-declare`` two-player rounds through ``Game.playout``
(R10 auto_declare), ``api`` the same through ``legal_actions`` + ``apply`` as an
interface plays them, ``2p``/``3p``/``4p`` rounds with random declarations
through ``Game.playout``, and ``hard`` the hard bot's (PIMC, 48 guesses, no time
limit, the points value of before issue 28) card choices on positions of games
between medium bots, written once by the first tree and replayed by each. Each
run prints a fingerprint of what it played (final scores, cards chosen): equal
fingerprints say the trees did the same work.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
WORKLOADS = ("auto-declare", "api", "2p", "3p", "4p", "hard")
ROUNDS_OF = {"auto-declare": (2, True), "api": (2, True), "2p": (2, False), "3p": (3, False), "4p": (4, False)}


# ----------------------------------------------------------------- worker (runs inside one tree)


def work(workload: str, warm: int, units: int, positions: str) -> dict[str, Any]:
    """Do ``warm`` then ``units`` units of ``workload``; the CPU time of the ``units`` and a fingerprint."""
    import random

    from ronda.engine.actions import Challenge
    from ronda.engine.game import Game
    from ronda.engine.rules import Rules

    if workload == "hard":
        from ronda.bots.pimc import PimcBot
        from ronda.engine.record import replay

        games = [replay(record) for record in json.loads(Path(positions).read_text())]
        chosen: list[str] = []
        elapsed = 0.0
        for index in range(warm + units):
            game = games[index % len(games)]
            try:
                bot = PimcBot(index, samples=48, time_limit=None, value="points")
            except (TypeError, ValueError):  # a tree from before issue 28: points were the only value
                bot = PimcBot(index, samples=48, time_limit=None)
            view, legal = game.view(game.turn), game.legal_actions()
            start = time.process_time()
            chosen.append(str(bot.choose(view, legal)))
            if index >= warm:
                elapsed += time.process_time() - start
        return {"seconds": elapsed, "fingerprint": chosen}

    players, auto = ROUNDS_OF[workload]
    rng = random.Random(7)
    rules = Rules(players=players, auto_declare=auto, target=10_000)
    games = [Game(rules, seed=7)]

    def progress() -> int:
        """Rounds played so far, over every game: those ended, and the one that won a game."""
        return sum(g.round + g.finished for g in games)

    def rounds(count: int) -> None:
        # A game to 10,000 is won after some 500 (3 players) to 600 rounds of random play, and a won game plays
        # nothing more: a new one is dealt then, so that every round counted is played (as ``ronda bench`` does).
        left = count
        while left > 0:
            game = games[-1]
            if game.finished:
                game = Game(rules, seed=7 + len(games))
                games.append(game)
            before = progress()
            if workload != "api":
                game.playout(rng, rounds=left)
            else:
                target = game.round + left
                while game.round < target and not game.finished:
                    actions = game.legal_actions()
                    if type(actions[-1]) is Challenge:
                        actions = [a for a in actions if type(a) is not Challenge]
                    game.apply(actions[int(rng.random() * len(actions))])
            left -= progress() - before

    rounds(warm)
    before = progress()
    start = time.process_time()
    rounds(units)
    seconds = time.process_time() - start
    game = games[-1]
    return {
        "seconds": seconds,
        "rounds": progress() - before,
        "fingerprint": [len(games), game.round, list(game.scores)],
    }


# ----------------------------------------------------------------- driver


def source_root(tree: Path) -> Path:
    """The folder to put on ``PYTHONPATH``: ``tree`` if it holds ``ronda/``, else ``tree/src``."""
    root = tree if (tree / "ronda").is_dir() else tree / "src"
    if not (root / "ronda").is_dir():
        raise SystemExit(f"{tree}: neither {tree}/ronda nor {tree}/src/ronda")
    return root.resolve()


def counter() -> list[str]:
    """The command that counts a process's instructions: valgrind's cachegrind, else perf, else nothing."""
    if shutil.which("valgrind"):
        return ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    if shutil.which("perf"):
        probe = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u", "true"], capture_output=True, text=True)
        if probe.returncode == 0 and "not supported" not in probe.stderr:
            return ["perf", "stat", "-x,", "-e", "instructions:u"]
    raise SystemExit("neither valgrind nor a perf that may count instructions here: use --clock")


def run(root: Path, workload: str, warm: int, units: int, positions: Path, count: list[str] | None) -> dict[str, Any]:
    """One worker process on ``root``: its result, and its instruction count if ``count`` is the counter."""
    environ = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    command = [sys.executable, str(HERE), "--worker", workload, str(warm), str(units), str(positions)]
    done = subprocess.run([*(count or []), *command], env=environ, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{root}: {workload} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    if count and count[0] == "valgrind":
        result["instructions"] = int(re.findall(r"I\s+refs:\s+([\d,]+)", done.stderr)[-1].replace(",", ""))
    elif count:  # perf stat -x, writes "COUNT,,instructions:u,..."
        result["instructions"] = int(done.stderr.strip().splitlines()[-1].split(",")[0])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", type=Path, default=[], help="checkouts or folders holding ronda/")
    parser.add_argument("--workloads", nargs="+", choices=WORKLOADS, default=list(WORKLOADS))
    parser.add_argument("--rounds", type=int, default=300, help="rounds counted per rounds workload (default 300)")
    parser.add_argument("--choices", type=int, default=6, help="hard card choices counted (default 6)")
    parser.add_argument("--warm", type=int, default=30, help="rounds played before counting (choices: a sixth)")
    parser.add_argument("--clock", action="store_true", help="best-of-runs CPU time instead of instructions")
    parser.add_argument("--runs", type=int, default=5, help="runs per tree and workload with --clock (default 5)")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        workload, warm, units, positions = args.worker
        print(json.dumps(work(workload, int(warm), int(units), positions)))
        return
    if not args.trees:
        parser.error("give the trees to compare with --trees")
    roots = [source_root(tree) for tree in args.trees]
    count = None if args.clock else counter()
    measure = f"CPU time, best of {args.runs} runs" if count is None else f"instructions ({count[0]})"
    print(f"python {' '.join(sys.argv)}")
    with tempfile.TemporaryDirectory() as folder:
        positions = Path(folder) / "positions.json"
        made = subprocess.run(
            [sys.executable, str(HERE.parent / "engine.py"), "--worker", "positions", "12,1"],
            env=dict(os.environ, PYTHONPATH=str(roots[0])),
            capture_output=True,
            text=True,
            check=True,
        )
        positions.write_text(made.stdout)
        header = " | ".join(str(tree) for tree in args.trees)
        per = "rounds a second and ms a choice" if args.clock else "per round and per choice"
        print(f"\n{measure}, {per}; a round = one round of 40 cards, a choice = one card choice of hard\n")
        print(f"| workload | {header} | fingerprints |")
        print("|---|" + "---|" * len(roots) + "---|")
        for workload in args.workloads:
            units, unit = (args.choices, "choice") if workload == "hard" else (args.rounds, "round")
            warm = max(1, args.warm // 6) if workload == "hard" else args.warm
            per_unit, prints = [], []
            if args.clock:  # the trees take turns, so that a busier moment weighs on each alike
                results: list[list[dict[str, Any]]] = [[] for _ in roots]
                for repeat in range(args.runs):
                    for i in range(len(roots)) if repeat % 2 == 0 else reversed(range(len(roots))):
                        results[i].append(run(roots[i], workload, warm, units, positions, None))
                per_unit = [min(r["seconds"] for r in runs) / units for runs in results]
                prints = [json.dumps(runs[0]["fingerprint"]) for runs in results]
            else:
                for root in roots:
                    whole = run(root, workload, warm, units, positions, count)
                    base = run(root, workload, warm, 0, positions, count)
                    per_unit.append((whole["instructions"] - base["instructions"]) / units)
                    prints.append(json.dumps(whole["fingerprint"]))
            cells = [
                (
                    f"{value / 1e6:.3f} M"
                    if not args.clock
                    else f"{value * 1000:.1f} ms"
                    if unit == "choice"
                    else f"{1 / value:,.0f} a second"
                )
                + ("" if i == 0 else f" ({per_unit[0] / value:.2f}x)")
                for i, value in enumerate(per_unit)
            ]
            same = "all equal" if len(set(prints)) == 1 else "DIFFER: " + " / ".join(p[:60] for p in prints)
            print(f"| {workload} (a {unit}) | " + " | ".join(cells) + f" | {same} |", flush=True)


if __name__ == "__main__":
    main()
