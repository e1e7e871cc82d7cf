"""How the analysis agrees with strength, and what it costs: the average loss per decision of each bot level.

    ronda arena easy hard --units 10 --records games/ --jobs 2
    python benchmarks/analysis.py games/ --jobs 2

Every record of an arena folder is analysed (``ronda analyse``'s defaults) and
each seat's decisions are credited to the level that sat there, read from the
arena's file names (``unit00003-game1-hard-easy.json``: seat 0 hard, seat 1
easy). A stronger level should give up less of its chance to win per decision
(losses are chances, 0 to 1: 0.01 is one percentage point). Printed per
level: decisions, average loss (with a 95% interval over games), the count of
each class, the average loss of card choices and of declarations apart; then
the CPU time each game took (this process and its workers) against its wall
time, so a loaded machine can be told from a slow analysis.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
from pathlib import Path
from statistics import mean, stdev

from ronda.analysis.grades import GRADES
from ronda.analysis.review import analyse
from ronda.analysis.search import DEFAULT_GUESSES, Method
from ronda.engine.actions import Play


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def levels_of(path: Path, players: int) -> list[str]:
    """The level at each seat, from an arena record's name (``...-game0-easy-hard.json``)."""
    names = path.stem.split("-")[2:]
    if len(names) != players:
        raise ValueError(f"{path.name}: not an arena record name with {players} levels")
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="a folder of arena records (ronda arena ... --records FOLDER)")
    parser.add_argument("--budget", type=int, default=DEFAULT_GUESSES, help="guesses per decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = parser.parse_args()
    paths = sorted(Path(args.folder).glob("*.json"))
    if not paths:
        print(f"no records in {args.folder}", file=sys.stderr)
        return 2
    losses: dict[str, list[float]] = {}
    per_game: dict[str, list[float]] = {}
    kinds: dict[str, dict[str, list[float]]] = {}
    classes: dict[str, dict[str, int]] = {}
    timings = []
    for number, path in enumerate(paths, 1):
        record = json.loads(path.read_text())
        seats = levels_of(path, record["rules"]["players"])
        cpu, wall = cpu_seconds(), time.perf_counter()
        review = analyse(record, method=Method(guesses=args.budget), jobs=args.jobs)
        timings.append((cpu_seconds() - cpu, time.perf_counter() - wall, len(review.decisions)))
        for seat, level in enumerate(seats):
            mine = [d for d in review.decisions if d.seat == seat]
            losses.setdefault(level, []).extend(d.loss for d in mine)
            if mine:
                per_game.setdefault(level, []).append(mean(d.loss for d in mine))
            by_kind = kinds.setdefault(level, {"card": [], "declaration": [], "challenge": []})
            for d in mine:
                kind = "card" if d.evaluation.phase == "play" else "declaration"
                if not isinstance(d.taken, Play) and d.evaluation.phase == "play":
                    kind = "challenge"
                by_kind[kind].append(d.loss)
            counts = classes.setdefault(level, dict.fromkeys(GRADES, 0))
            for d in mine:
                counts[d.grade] += 1
        print(
            f"{number}/{len(paths)} {path.name}: {timings[-1][2]} decisions, "
            f"{timings[-1][0]:.1f} s CPU, {timings[-1][1]:.1f} s wall",
            file=sys.stderr,
        )
    result = {"records": len(paths), "budget": args.budget, "levels": {}}
    for level, values in losses.items():
        games = per_game[level]
        half = 1.96 * stdev(games) / math.sqrt(len(games)) if len(games) > 1 else float("nan")
        result["levels"][level] = {
            "decisions": len(values),
            "average_loss": mean(values),
            "average_loss_95": [mean(games) - half, mean(games) + half],
            "classes": classes[level],
            "by_kind": {k: (mean(v) if v else None, len(v)) for k, v in kinds[level].items()},
        }
    cpu = [t[0] for t in timings]
    wall = [t[1] for t in timings]
    result["cpu_seconds_per_game"] = {"mean": mean(cpu), "max": max(cpu)}
    result["wall_seconds_per_game"] = {"mean": mean(wall), "max": max(wall)}
    result["decisions_per_game"] = mean(t[2] for t in timings)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{len(paths)} records, {args.budget} guesses a decision")
    for level, data in result["levels"].items():
        low, high = data["average_loss_95"]
        kinds_text = ", ".join(
            f"{kind} {value:.3f} ({count})" for kind, (value, count) in data["by_kind"].items() if count
        )
        print(
            f"  {level}: {data['decisions']} decisions, average loss {data['average_loss']:.3f} a decision "
            f"(per game mean, 95%: [{low:.3f}, {high:.3f}]); "
            + " · ".join(f"{g} {n}" for g, n in data["classes"].items())
        )
        print(f"      by kind: {kinds_text}")
    print(
        f"  per game: {result['decisions_per_game']:.0f} decisions with a choice, "
        f"CPU {result['cpu_seconds_per_game']['mean']:.1f} s (max {result['cpu_seconds_per_game']['max']:.1f}), "
        f"wall {result['wall_seconds_per_game']['mean']:.1f} s (max {result['wall_seconds_per_game']['max']:.1f}) "
        f"with --jobs {args.jobs}"
    )
    print(f"(python benchmarks/analysis.py {args.folder} --budget {args.budget} --jobs {args.jobs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
