"""``benchmarks/proven_challenges.py``: the figures the closing note of the hint's fix gives, from their seeds."""

from __future__ import annotations

import re

from benchmark_scripts import run_benchmark

LINE = re.compile(
    r"^(\d) players, 3 games of medium: (\d+) decisions, (\d+) beside a challenge proven to fail \([\d.]+%\),"
    r" (\d+) a choice only by it \([\d.]+%\)$"
)


def test_the_count_of_moves_beside_a_challenge_proven_to_fail_reproduces_from_its_seeds() -> None:
    """Three games for each player count: some moves face a challenge the seat's cards prove would fail, some of
    them were a 'choice' only by it (what the hint called "your best options"), and a second run says the same."""
    first = run_benchmark("proven_challenges", "--games", "3")
    assert first.returncode == 0, first.stderr
    *lines, command = first.stdout.splitlines()
    counts = [tuple(int(n) for n in LINE.match(line).groups()) for line in lines]  # type: ignore[union-attr]
    assert [c[0] for c in counts] == [2, 3, 4]
    assert all(decisions > facing >= only > 0 for _, decisions, facing, only in counts), counts
    assert command.endswith("PYTHONPATH=src python benchmarks/proven_challenges.py --games 3 --level medium")
    again = run_benchmark("proven_challenges", "--games", "3")
    assert again.stdout.splitlines()[:-1] == lines
