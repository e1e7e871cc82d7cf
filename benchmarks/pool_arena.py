"""One margin from several seeds: the arena's results on different decks, pooled.

    for S in 4245 4246 4247 4248; do
        ronda arena expert hard --rounds --units 200 --seed $S --jobs 2 --json > expert-$S.json
    done
    python benchmarks/pool_arena.py expert-*.json

One seed's 200 units give a margin to about ±0.32 a round; telling two
experts apart, or a level from a goal like issue 28's +0.5, takes several
seeds. Each file is one ``ronda arena A B --json`` result; they must hold the
same two entrants in the same order, the same kind of unit (round or game)
and the same player count, each on its own seed (the same seed twice is the
same decks twice, not more evidence). The pooled margin is the units'
mean over all files (each file weighs its units); its interval comes from each
file's standard error, read back from its 95% interval, as independent
samples. Also printed: each file's line, and the CPU a card choice of the
first entrant over the second's, at the median and at the mean, as a range.
``--json`` for one JSON object. ``benchmarks/arena_seeds.py`` plays many seeds
at once on a machine of many cores, one file each, for this script to pool.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from ronda.arena.stats import Z95

SHOWN_FILES = 8
"""The most files the command line printed under the table names one by one; more are shown as first … last."""


class PoolError(ValueError):
    """A file that is not an arena result, or results that cannot be pooled; the message names which."""


def read_result(path: Path) -> dict[str, Any]:
    """One ``ronda arena --json`` result, checked for what pooling reads."""
    try:
        result = json.loads(path.read_text())
    except OSError as error:
        raise PoolError(f"{path}: cannot read it: {error.strerror or error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise PoolError(f"{path}: not JSON ({error})") from None
    if not isinstance(result, dict) or "margin_per_round" not in result or "entrants" not in result:
        raise PoolError(f"{path}: not the JSON of a two-entrant `ronda arena ... --json`")
    if isinstance(result["margin_per_round"], dict) and result["margin_per_round"].get("95", 0) is None:
        raise PoolError(f"{path}: one unit, whose spread (and so its weight) cannot be measured: run --units 2 or more")
    try:
        margin = result["margin_per_round"]
        float(margin["mean"]), float(margin["95"][0]), float(margin["95"][1])
        int(result["units"]), int(result["seed"])
        [str(e["name"]) for e in result["entrants"]]
    except (KeyError, TypeError, ValueError, IndexError):
        raise PoolError(f"{path}: an arena result without its margin, units, seed or entrants") from None
    return result


def _shape(result: dict[str, Any]) -> tuple[Any, ...]:
    return (tuple(e["name"] for e in result["entrants"]), result.get("unit"), result.get("players"))


def pool(results: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The pooled margin of the first entrant over the second, and the CPU ratios, over results on distinct seeds."""
    if not results:
        raise PoolError("no results to pool")
    first_path, first = results[0]
    seeds: dict[int, str] = {}
    for path, result in results:
        if _shape(result) != _shape(first):
            raise PoolError(
                f"{path}: {' vs '.join(_shape(result)[0])} ({result.get('unit')}s, {result.get('players')} players) "
                f"cannot be pooled with {first_path}: {' vs '.join(_shape(first)[0])} ({first.get('unit')}s, "
                f"{first.get('players')} players)"
            )
        seed = int(result["seed"])
        if seed in seeds:
            raise PoolError(
                f"{path}: seed {seed} again (also {seeds[seed]}): the same decks twice are not more evidence"
            )
        seeds[seed] = path
    units = sum(int(r["units"]) for _, r in results)
    mean = sum(int(r["units"]) * float(r["margin_per_round"]["mean"]) for _, r in results) / units
    variance = 0.0
    for _, r in results:
        low, high = r["margin_per_round"]["95"]
        error = (float(high) - float(low)) / (2 * Z95)
        variance += (int(r["units"]) * error) ** 2
    half = Z95 * math.sqrt(variance) / units
    ratios: dict[str, list[tuple[int, float]]] = {"median": [], "mean": []}
    for _, r in results:
        one, two = r["entrants"][0], r["entrants"][1]
        for key in ratios:
            mine, theirs = one.get(f"choice_cpu_seconds_{key}"), two.get(f"choice_cpu_seconds_{key}")
            if mine and theirs:
                ratios[key].append((int(r["units"]), float(mine) / float(theirs)))
    return {
        "of": first["margin_per_round"].get("of", " - ".join(_shape(first)[0])),
        "seeds": [int(r["seed"]) for _, r in results],
        "units": units,
        "margin_per_round": {"mean": round(mean, 3), "95": [round(mean - half, 3), round(mean + half, 3)]},
        "cpu_ratio": {
            key: [round(min(x for _, x in v), 1), round(max(x for _, x in v), 1)] for key, v in ratios.items() if v
        },
        # One seed of a few units has a noisy median: the seeds' ratios weighed by their units, as the margin is.
        "cpu_ratio_pooled": {
            key: round(sum(n * x for n, x in v) / sum(n for n, _ in v), 2) for key, v in ratios.items() if v
        },
        "each": [
            {"file": path, "seed": int(r["seed"]), "units": int(r["units"]), "margin_per_round": r["margin_per_round"]}
            for path, r in results
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="results of `ronda arena A B ... --json`, one seed each")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        pooled = pool([(str(path), read_result(path)) for path in args.files])
    except PoolError as error:
        print(f"pool_arena: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(pooled, indent=2))
        return 0
    for line in pooled["each"]:
        m = line["margin_per_round"]
        print(
            f"seed {line['seed']:>6}  {line['units']:>5} units  {m['mean']:+.3f} [{m['95'][0]:+.3f}, {m['95'][1]:+.3f}]"
        )
    m = pooled["margin_per_round"]
    print(
        f"pooled margin per round ({pooled['of']}) over {len(pooled['each'])} seeds, {pooled['units']} units: "
        f"{m['mean']:+.3f}, 95% interval [{m['95'][0]:+.3f}, {m['95'][1]:+.3f}]"
    )
    for key, (low, high) in pooled["cpu_ratio"].items():
        print(
            f"CPU a card choice, {key}, first over second: {low:.1f} to {high:.1f} times"
            f" ({pooled['cpu_ratio_pooled'][key]:.1f} over the seeds, each weighing its units)"
        )
    files = [str(path) for path in args.files]
    if len(files) > SHOWN_FILES:  # a hundred seeds' paths would bury the figures above them
        files = [files[0], "…", files[-1], f"({len(files)} files)"]
    print(f"(python benchmarks/pool_arena.py {' '.join(files)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
