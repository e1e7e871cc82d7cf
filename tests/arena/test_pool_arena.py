"""Pooling the arena's results over seeds (``benchmarks/pool_arena.py``): the figure the README gives over eight
seeds of ``expert`` against ``hard`` comes from this script, so its mean must be the mean over every unit of every
file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_scripts import run_benchmark
from ronda.arena import MatchSpec, run_match
from ronda.cli.main import main
from ronda.engine.presets import preset_rules


def _arena_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int, *entrants: str) -> Path:
    assert main(["arena", *entrants, "--rounds", "--units", "6", "--seed", str(seed), "--json", "--no-progress"]) == 0
    path = tmp_path / f"{'-'.join(entrants)}-{seed}.json"
    path.write_text(capsys.readouterr().out)
    return path


def test_the_pooled_margin_is_the_mean_over_every_unit_and_narrower_than_each_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [_arena_json(tmp_path, capsys, seed, "easy", "random") for seed in (1, 2)]
    done = run_benchmark("pool_arena", *map(str, files), "--json")
    assert done.returncode == 0, done.stderr
    pooled = json.loads(done.stdout)
    every_unit: list[float] = []
    for seed in (1, 2):  # the same matches again, in process: the units' own margins
        rules = preset_rules("classic", 2, target=10_000)  # as `ronda arena --rounds`
        outcome = run_match(MatchSpec(("easy", "random"), rules, rounds_only=True, seed=seed), units=6)
        every_unit += outcome.tally.unit_margins(0, 1)
    assert pooled["units"] == 12 and pooled["seeds"] == [1, 2]
    assert pooled["margin_per_round"]["mean"] == pytest.approx(sum(every_unit) / 12, abs=0.001)
    low, high = pooled["margin_per_round"]["95"]
    assert low < pooled["margin_per_round"]["mean"] < high
    for one in pooled["each"]:  # twice the units: a narrower interval than either seed's alone
        assert high - low < one["margin_per_round"]["95"][1] - one["margin_per_round"]["95"][0]


def test_the_table_names_each_seed_the_pooled_line_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [_arena_json(tmp_path, capsys, seed, "easy", "random") for seed in (3, 4)]
    done = run_benchmark("pool_arena", *map(str, files))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("seed      3      6 units") and lines[1].startswith("seed      4      6 units")
    assert lines[2].startswith("pooled margin per round (easy - random) over 2 seeds, 12 units: +")
    assert lines[-1] == f"(python benchmarks/pool_arena.py {files[0]} {files[1]})"


def test_results_that_cannot_be_pooled_are_refused_in_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _arena_json(tmp_path, capsys, 1, "easy", "random")
    again = tmp_path / "again.json"
    again.write_text(one.read_text())
    swapped = _arena_json(tmp_path, capsys, 2, "random", "easy")
    garbage = tmp_path / "garbage.json"
    garbage.write_text('{"entrants": [')
    other = tmp_path / "other.json"
    other.write_text('{"players": 2}')
    assert main(["arena", "easy", "random", "--rounds", "--units", "1", "--seed", "3", "--json", "--no-progress"]) == 0
    single = tmp_path / "single.json"
    single.write_text(capsys.readouterr().out)
    cases = {
        single: "one unit, whose spread (and so its weight) cannot be measured: run --units 2 or more",
        again: "seed 1 again",
        swapped: "random vs easy (rounds, 2 players) cannot be pooled with",
        garbage: "not JSON",
        other: "not the JSON of a two-entrant `ronda arena ... --json`",
        tmp_path / "missing.json": "cannot read it",
    }
    for path, words in cases.items():
        done = run_benchmark("pool_arena", str(one), str(path))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(f"pool_arena: {path}: ") and words in done.stderr
        assert done.stderr.count("\n") == 1


def test_many_files_print_their_first_and_last_and_the_cpu_ratio_weighed_by_units(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [_arena_json(tmp_path, capsys, seed, "medium", "easy") for seed in range(10, 20)]
    done = run_benchmark("pool_arena", *map(str, files))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == f"(python benchmarks/pool_arena.py {files[0]} … {files[-1]} (10 files))"
    pooled = json.loads(run_benchmark("pool_arena", *map(str, files), "--json").stdout)
    each = [json.loads(path.read_text())["entrants"] for path in files]
    # The bots' times are rounded to 10 µs: a file where one reads 0 has no ratio, and is left out.
    pairs = [(one["choice_cpu_seconds_median"], two["choice_cpu_seconds_median"]) for one, two in each]
    ratios = [mine / theirs for mine, theirs in pairs if mine and theirs]
    assert len(ratios) >= 5
    assert pooled["cpu_ratio_pooled"]["median"] == round(sum(ratios) / len(ratios), 2)  # every file 6 units
    assert pooled["cpu_ratio"]["median"] == [round(min(ratios), 1), round(max(ratios), 1)]
