"""What ``ronda`` prints for the commands that have no test file of their own (``bench``, ``replay``)."""

from __future__ import annotations

import pytest

from ronda.cli.main import EXIT_BAD_INPUT, main


@pytest.mark.parametrize("rounds", ["0", "-5"])
def test_bench_refuses_a_number_of_rounds_below_one(rounds: str, capsys: pytest.CaptureFixture[str]) -> None:
    """No measurement of nothing: "0 rounds in 0.00 s = 0 rounds/s" helped nobody."""
    assert main(["bench", "--players", "2", "--rounds", rounds]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"ronda bench: --rounds must be at least 1, not {rounds}\n"


def test_bench_repeats_every_option_that_changes_the_playouts(capsys: pytest.CaptureFixture[str]) -> None:
    """The closing line is the command that plays the same rounds again: the seed is one of its options."""
    assert main(["bench", "--rounds", "10", "--seed", "5", "--players", "2", "--auto-declare", "--api"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("(ronda bench --players 2 --auto-declare --api --seed 5 --rounds 10; ")
