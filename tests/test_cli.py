"""What ``ronda`` prints where no test file of a command covers it: ``bench``, and ``play``'s own options."""

from __future__ import annotations

from pathlib import Path

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


def test_play_resume_given_the_seat_and_bots_file_names_the_record_to_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``s`` writes two files; given the ``.play.json`` one, the player is told which to resume instead."""
    from ronda.interfaces.terminal.session import Session, Settings

    monkeypatch.chdir(tmp_path)
    Session(Settings(levels=(None, "random"), seed=1, pace=0)).save("game.json")
    assert main(["play", "--plain", "--resume", "game.play.json"]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "ronda play: game.play.json holds only your seat and the bots of a saved game: resume the game itself, "
        "game.json\n"
    )
    assert main(["play", "--plain", "--resume", "nowhere.play.json"]) == EXIT_BAD_INPUT  # no such file: said so
    assert "nowhere.play.json: cannot read it: no such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--level", "easy,hard"], "--level: a 2-player game has one bot, seat 1: give one level, not 2"),
        (
            ["--players", "4", "--level", "easy,hard"],
            "--level: give one bot level, or one for each of the 3 other seats (1, 2 and 3) in that order, not 2",
        ),
        (
            ["--players", "3", "--seat", "1", "--level", "easy,hard,medium"],
            "--level: give one bot level, or one for each of the 2 other seats (0 and 2) in that order, not 3",
        ),
    ],
)
def test_play_with_a_wrong_number_of_levels_says_how_many_in_words_that_fit(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "one for each of the 1 other seats (1)" to a two-player game."""
    assert main(["play", "--plain", *argv]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out == "" and err == f"ronda play: {said}\n"
