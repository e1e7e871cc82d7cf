"""The engine and the search bots, measured on two source trees in one run, alternating.

    python benchmarks/engine.py --trees /path/to/main /path/to/branch --repeats 3 --rounds 10000

For each repeat and each tree in turn (so that a machine busier at one moment
than another weighs on both), in a fresh process with ``PYTHONPATH=TREE/src``:

- ``ronda bench --rounds N --json`` (2, 3 and 4 players, random declarations)
  and ``ronda bench --players 2 --auto-declare [--api] --rounds N --json`` (the engine's own
  playout, and every decision through ``legal_actions`` + ``apply``): rounds per second,
  as the command prints them (wall clock) and by the CPU time its process took;
- the bots' time per card choice: ``hard`` (48 guesses) and ``expert`` (128
  guesses) with ``time_limit=None``, so both trees do the same work, on the same
  positions (game records written once, replayed by each tree), seeded alike;
  the actions chosen are compared too: a refactoring that changes no rule must
  choose the same cards. Choices are timed in CPU time of the process
  (``time.process_time``), which a machine shared with other work disturbs less
  than the wall clock; ``ronda bench`` prints wall-clock rates.

With ``--in-process``, only the engines are compared, more finely: each
tree's ``src/ronda/engine`` (which imports nothing but the standard library and
itself) is loaded into this one process under its own name, and the same
random playouts (``Game.playout``, as ``ronda bench`` plays them) are timed in
CPU time, the trees taking turns every few hundred rounds.

Medians over repeats are printed with the command line. Positions are card
choices (two or more cards to choose from) of games between ``medium`` bots,
2, 3 and 4 players; a record that a tree cannot replay (a rule changed) is left
out for both trees and counted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


# ----------------------------------------------------------------- workers (run inside one tree)


def make_positions(count: int, seed: int) -> list[dict[str, object]]:
    """Records of games stopped at a card choice, spread over 2, 3 and 4 players."""
    import random

    from ronda.bots import make_bot
    from ronda.engine.actions import Play
    from ronda.engine.game import Game
    from ronda.engine.rules import Rules

    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    while len(records) < count:
        players = 2 + len(records) % 3
        game = Game(Rules(players=players), seed=rng.randrange(1 << 30))
        bots = [make_bot("medium", seed=rng.randrange(1 << 30)) for _ in range(players)]
        stop = rng.randrange(4, 60)
        choices = 0
        while game.phase in ("declare", "play"):
            legal = game.legal_actions()
            if sum(isinstance(a, Play) for a in legal) > 1:
                choices += 1
                if choices == stop:
                    records.append(game.to_record())
                    break
            game.apply(bots[game.turn].choose(game.view(game.turn), legal))
    return records


def time_choices(path: str) -> dict[str, object]:
    """Replay each record and time hard and expert choosing from its last position."""
    from ronda.bots.pimc import ExpertBot, PimcBot
    from ronda.engine.record import replay

    records = json.loads(Path(path).read_text())
    result: dict[str, dict[int, object]] = {"hard": {}, "expert": {}, "hard_actions": {}, "expert_actions": {}}
    for index, record in enumerate(records):
        try:
            game = replay(record)
        except ValueError:
            continue  # a rule changed: this record is not a position of this tree's game
        view, legal = game.view(game.turn), game.legal_actions()
        for name, bot in (
            ("hard", PimcBot(index, samples=48, time_limit=None)),
            ("expert", ExpertBot(index, samples=128, time_limit=None)),
        ):
            start = time.process_time()
            action = bot.choose(view, legal)
            result[name][index] = time.process_time() - start
            result[f"{name}_actions"][index] = str(action)
    return result


# ----------------------------------------------------------------- engines in one process


def in_process(trees: list[Path], repeats: int, rounds: int) -> None:
    """Time random playouts of each tree's engine, loaded side by side, taking turns (CPU time)."""
    import importlib
    import random

    folder = Path(tempfile.mkdtemp())
    for index, tree in enumerate(trees):
        (folder / f"engine_{index}").symlink_to(tree / "src" / "ronda" / "engine")
    sys.path.insert(0, str(folder))
    engines = [importlib.import_module(f"engine_{index}") for index in range(len(trees))]

    def playouts(engine: Any, players: int, auto: bool, count: int, seed: int) -> float:
        # A game to 10,000 is won after some 500 (3 players) to 600 rounds of random play; a playout of a won
        # game does nothing, so a new game is dealt then, as ``ronda bench`` does: every round timed is played.
        rules = engine.Rules(players=players, auto_declare=auto, target=10_000)
        rng = random.Random(seed)
        game = engine.Game(rules, seed=rng.randrange(1 << 30))
        start = time.process_time()
        for _ in range(count):
            if game.finished:
                game = engine.Game(rules, seed=rng.randrange(1 << 30))
            game.playout(rng)
        return time.process_time() - start

    lines = [(2, False), (3, False), (4, False), (2, True)]
    for engine in engines:  # fill each engine's memos first
        for players, auto in lines:
            playouts(engine, players, auto, 300, 0)
    spent: dict[tuple[int, int, bool], list[float]] = {}
    for repeat in range(repeats):
        turn = engines if repeat % 2 == 0 else engines[::-1]
        for players, auto in lines:
            for engine in turn:
                key = (engines.index(engine), players, auto)
                spent.setdefault(key, []).append(playouts(engine, players, auto, rounds, repeat + 1))
    print(f"python {' '.join(sys.argv)}  (CPU time, medians over {repeats} turns of {rounds} rounds)")
    for players, auto in lines:
        rates = [rounds / statistics.median(spent[(i, players, auto)]) for i in range(len(engines))]
        label = f"{players} players" + (" auto-declare" if auto else "")
        print(
            f"  {label:24s} "
            + "  ".join(f"{tree}: {rate:7,.0f} rounds/s" for tree, rate in zip(trees, rates, strict=True))
            + f"  ({rates[-1] / rates[0]:.3f} x the first)"
        )


# ----------------------------------------------------------------- driver


def _run(tree: Path, args: list[str]) -> tuple[str, float]:
    """Run ``python ARGS`` on ``tree``'s sources: its output, and the CPU time it took (user + system)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _bench(tree: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Each ``ronda bench`` line: rounds a second by the wall clock (as it prints them) and by CPU time.

    One process a line, so that its CPU time is the line's; the CPU time of starting the command
    (``--rounds 1``: ``ronda bench`` refuses 0, and one round is a fraction of a millisecond) is taken off.
    """
    start_cpu = _run(tree, ["-m", "ronda", "bench", "--players", "2", "--rounds", "1", "--json"])[1]
    rates = {}
    for flags, label in (
        (["--players", "2"], "2 players"),
        (["--players", "3"], "3 players"),
        (["--players", "4"], "4 players"),
        (["--players", "2", "--auto-declare"], "2 players auto-declare"),
        (["--players", "2", "--auto-declare", "--api"], "2 players auto-declare api"),
    ):
        out, cpu = _run(tree, ["-m", "ronda", "bench", "--rounds", str(rounds), "--json", *flags])
        rates[label] = (json.loads(out)["rounds_per_second"], rounds / max(cpu - start_cpu, 1e-9))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", type=Path, default=[], help="source trees (each with src/ronda)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds per ronda bench line")
    parser.add_argument("--positions", type=int, default=30, help="card choices timed per repeat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--in-process", action="store_true", help="compare the engines only, in this one process")
    parser.add_argument("--worker", nargs=2, metavar=("TASK", "ARG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        task, arg = args.worker
        if task == "positions":
            count, seed = (int(x) for x in arg.split(","))
            print(json.dumps(make_positions(count, seed)))
        else:
            print(json.dumps(time_choices(arg)))
        return

    if not args.trees:
        parser.error("give the source trees to compare with --trees")
    trees = [tree.resolve() for tree in args.trees]
    if args.in_process:
        in_process(trees, args.repeats, args.rounds)
        return
    with tempfile.TemporaryDirectory() as folder:
        positions = Path(folder) / "positions.json"
        positions.write_text(_run(trees[0], [str(HERE), "--worker", "positions", f"{args.positions},{args.seed}"])[0])
        bench: dict[Path, list[dict[str, tuple[float, float]]]] = {tree: [] for tree in trees}
        choices: dict[Path, list[dict[str, dict[str, object]]]] = {tree: [] for tree in trees}
        for repeat in range(args.repeats):
            order = trees if repeat % 2 == 0 else trees[::-1]
            for tree in order:
                bench[tree].append(_bench(tree, args.rounds))
                choices[tree].append(json.loads(_run(tree, [str(HERE), "--worker", "choices", str(positions)])[0]))
                print(f"repeat {repeat + 1}, {tree}: done", file=sys.stderr)

    # positions every tree could replay (a rule change may refuse a record of an older tree's game)
    common = set.intersection(*(set(c[0]["hard"]) for c in choices.values()))
    print(f"python {' '.join(sys.argv)}  (medians over {args.repeats} repeats, alternating trees)")
    print(f"{len(common)} positions replayed by every tree, of {args.positions}")
    for tree in trees:
        print(f"\n{tree}")
        for label in bench[tree][0]:
            wall = [b[label][0] for b in bench[tree]]
            cpu = [round(b[label][1]) for b in bench[tree]]
            print(
                f"  ronda bench {label:24s} {statistics.median(wall):7,.0f} rounds/s by the clock (all: {wall}), "
                f"{statistics.median(cpu):7,.0f} by CPU time (all: {cpu})"
            )
        for name in ("hard", "expert"):
            runs = [[c[name][str(i)] * 1000 for i in sorted(common)] for c in choices[tree]]
            medians = [statistics.median(run) for run in runs]
            means = [statistics.fmean(run) for run in runs]
            print(
                f"  {name:6s} CPU time per card choice: median {statistics.median(medians):6.1f} ms, "
                f"mean {statistics.median(means):6.1f} ms"
            )
    first, *others = trees
    for other in others:
        for name in ("hard", "expert"):
            a, b = choices[first][0][f"{name}_actions"], choices[other][0][f"{name}_actions"]
            same = sum(a[str(i)] == b[str(i)] for i in common)
            print(
                f"\n{name}: the same card chosen in {same} of {len(common)} positions by {first.name} and {other.name}"
            )


if __name__ == "__main__":
    main()
