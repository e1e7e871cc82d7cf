"""``benchmarks/rounds_target.py``: the figure docs/bots.md gives for what --rounds' target changes in ``hard``."""

from __future__ import annotations

from benchmark_scripts import run_benchmark


def test_the_first_seed_shows_hard_choosing_otherwise_at_target_10000() -> None:
    """Seed 0's decision 3 is one of the two of 472 that docs/bots.md cites: a game to 41 and to 10,000 differ."""
    done = run_benchmark("rounds_target", "--seeds", "1")
    assert done.returncode == 0, done.stderr
    first, *rest = done.stdout.splitlines()
    assert first.startswith("hard, first rounds from 0-0 of 1 games: ")
    assert " decisions with a choice, 1 differ between target 41 and target 10000 " in first
    assert rest == ["  seed 0, decision 3: play 1b at 41, play 4o at 10000"]
