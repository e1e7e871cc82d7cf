"""Many seeds of one arena line in parallel (``benchmarks/arena_seeds.py``): the README's figure from a lent
16-core machine is these files pooled, so each file must be exactly the arena's line for its seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_scripts import run_benchmark
from ronda.arena import MatchSpec, run_match
from ronda.engine.presets import preset_rules


def test_each_seed_gets_the_arenas_own_line_in_its_own_file_and_they_pool(tmp_path: Path) -> None:
    out = tmp_path / "results"
    done = run_benchmark(
        "arena_seeds", "easy", "random", "--units", "3", "--first-seed", "40", "--seeds", "3",
        "--jobs", "2", "--deadline", "600", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in out.iterdir()) == [f"easy-random-{seed}.json" for seed in (40, 41, 42)]
    assert done.stdout.splitlines()[-1].startswith("3 seeds of 3 units (40 to 42)")
    for seed in (40, 41, 42):
        line = json.loads((out / f"easy-random-{seed}.json").read_text())
        rules = preset_rules("classic", 2, target=10_000)  # as `ronda arena --rounds`
        outcome = run_match(MatchSpec(("easy", "random"), rules, rounds_only=True, seed=seed), units=3)
        assert line["seed"] == seed and line["units"] == 3
        assert line["margin_per_round"]["mean"] == pytest.approx(sum(outcome.tally.unit_margins(0, 1)) / 3, abs=0.001)
    pooled = run_benchmark("pool_arena", *sorted(map(str, out.iterdir())), "--json")
    assert pooled.returncode == 0, pooled.stderr
    assert json.loads(pooled.stdout)["units"] == 9


def test_a_bad_entrant_stops_at_its_first_seed_naming_the_arenas_error(tmp_path: Path) -> None:
    done = run_benchmark(
        "arena_seeds", "godlike", "random", "--units", "2", "--first-seed", "1", "--jobs", "1",
        "--deadline", "600", "--out", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 1
    assert "seed 1: exit" in done.stderr and "godlike" in done.stderr
    assert "seed 2" not in done.stderr and not list(tmp_path.iterdir())
    assert done.stdout.splitlines()[-1].startswith("0 seeds of 2 units")


def test_one_unit_a_seed_is_refused_before_anything_is_played(tmp_path: Path) -> None:
    done = run_benchmark(
        "arena_seeds", "easy", "random", "--units", "1", "--first-seed", "1", "--deadline", "9", "--out", str(tmp_path)
    )
    assert done.returncode == 2 and "one unit has no interval" in done.stderr
