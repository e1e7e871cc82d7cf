"""The engine benchmarks time the rounds they say they time."""

from __future__ import annotations

import json

from benchmark_scripts import run_benchmark


def test_three_player_rounds_counted_by_the_instructions_benchmark_are_all_played() -> None:
    """A 3-player game to 10,000 is won at round 487 of seed 7: docs/speed.md's 3-player row counted 300 rounds of
    which 112 were no-op playouts of a won game, and so showed 3 players cheaper per round than 2 or 4."""
    done = run_benchmark("instructions", "--worker", "3p", "300", "300", "/dev/null")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rounds"] == 300
    assert result["fingerprint"][0] == 2  # a second game was dealt once the first was won


def test_the_best_of_benchmark_deals_a_new_game_once_one_is_won_instead_of_timing_a_won_game() -> None:
    """With random declarations a 2-player game to 10,000 is won within 1,500 rounds (false declarations' penalties
    add up): best_of.py timed the won game's no-op playouts past that point, and showed 13,266 rounds a second
    where the engine plays about 5,000."""
    done = run_benchmark("best_of", "--runs", "1", "--rounds", "1500")
    assert done.returncode == 0, done.stderr
    lines = {line.split("  ")[1].strip(): line for line in done.stdout.splitlines() if line.startswith("  ")}
    assert lines["random declarations playout"].endswith("(3 games dealt a run)")
    assert lines["auto_declare playout"].endswith("(1 game dealt a run)")
