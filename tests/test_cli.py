"""What ``ronda`` prints where no test file of a command covers it: ``bench``, and ``play``'s own options."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ronda.cli.main import EXIT_BAD_INPUT, main
from ronda.engine.game import Game

SRC = str(Path(__file__).resolve().parent.parent / "src")


@pytest.mark.parametrize("api", [False, True])
def test_bench_counts_only_whole_rounds_across_the_games_it_deals(api: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """With random declarations a game to 10,000 is won within a few hundred rounds, mid-round as often as not;
    ``ronda bench`` counted that broken-off round as a round played, so its rounds a second were not all of 40
    cards. Every game it deals is kept here, and the rounds it counts are the rounds those games finished."""
    import ronda.cli.bench as bench

    games: list[Game] = []

    class Kept(Game):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            games.append(self)

    monkeypatch.setattr(bench, "Game", Kept)
    result = bench.random_rounds(2, False, 1200, seed=3, api=api)
    assert len(games) >= 2  # a game was won, and the rounds went on in a new one
    whole = sum(game.round for game in games)  # rounds from 0: those before the current one ended whole
    assert result.rounds == 1200 == whole


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


def _small_record(path: Path, bom: bool = False) -> Path:
    """A short finished game (target 3) saved at ``path``, with a UTF-8 byte-order mark first if ``bom``."""
    from ronda import Game, Rules
    from ronda.engine.record import dumps_record

    game = Game(Rules(players=2, target=3), seed=8)
    while not game.finished:
        game.apply(game.legal_actions()[0])
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + dumps_record(game.to_record()).encode("utf-8"))
    return path


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("command", [["replay", "--json"], ["replay"], ["analyse", "--budget", "1"]])
def test_audit_10_output_that_cannot_be_written_is_one_line_not_a_traceback(command: list[str], tmp_path: Path) -> None:
    record = _small_record(tmp_path / "game.json")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "ronda", command[0], str(record), *command[1:]],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": SRC},
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr == f"ronda {command[0]}: cannot write the output: no space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize(
    ("words", "name"), [(["--help"], "ronda"), (["--version"], "ronda"), (["play", "--help"], "ronda play")]
)
def test_help_that_cannot_be_written_says_so_and_fails(words: list[str], name: str) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "ronda", *words],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": SRC},
            timeout=60,
        )
    assert (done.returncode, done.stderr) == (1, f"{name}: cannot write the output: no space left on device\n")


@pytest.mark.parametrize(
    ("words", "name"), [("--help", "ronda"), ("--version", "ronda"), ("play --help", "ronda play")]
)
def test_help_with_its_output_closed_says_so_in_one_line(words: str, name: str) -> None:
    """An audit of the fix above: started with standard output closed (``>&-``), the help raised a traceback."""
    done = subprocess.run(
        ["sh", "-c", f"exec {shlex.quote(sys.executable)} -m ronda {words} >&-"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC},
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (1, f"{name}: cannot write the output: standard output is closed\n")


def test_audit_10_a_closed_pipe_ends_the_command_quietly(tmp_path: Path) -> None:
    record = _small_record(tmp_path / "game.json")
    read, write = os.pipe()
    os.close(read)  # the reader is gone before a line is written, as `| head -1` once it has its line
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ronda", "replay", str(record)],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": SRC},
            timeout=60,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


def test_audit_10_a_record_saved_with_a_byte_order_mark_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _small_record(tmp_path / "game.json", bom=True)
    assert main(["replay", str(record), "--json"]) == 0
    assert '"winner"' in capsys.readouterr().out


def test_audit_5_forced_progress_off_a_terminal_is_plain_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _small_record(tmp_path / "game.json")
    assert main(["analyse", str(record), "--budget", "1", "--progress", "--json"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("analyse: 0/") and lines[0].endswith(" decisions (0%)"), lines
    assert lines[-1].endswith(" decisions (100%)") and "\r" not in "".join(lines), lines


def test_audit_5_progress_lines_come_every_few_percent_or_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    from ronda.cli.progress import progress_lines

    now = [0.0]
    update = progress_lines("arena", 1000, "units", clock=lambda: now[0])
    for done in (0, 10, 49, 50, 51):
        update(done)
    now[0] = 60.0  # a minute on the 52nd unit: a line, though under 5% more
    update(52)
    update(1000)
    update(1000)
    assert capsys.readouterr().err.splitlines() == [
        "arena: 0/1000 units (0%)",
        "arena: 50/1000 units (5%), about 0 s left",
        "arena: 52/1000 units (5%), about 1094 s left",
        "arena: 1000/1000 units (100%)",
    ]


def test_the_command_list_puts_each_commands_words_beside_it_in_the_order_a_newcomer_needs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A newcomer's audit: ``ronda --help`` listed replay and bench first and play fifth, and "analyse (analyze)"
    had its words on a line of their own."""
    assert main(["--help"]) == 0
    listed = [
        line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("    ") and line[4] != " "
    ]
    assert listed == ["play", "serve", "analyse", "rules", "arena", "replay", "bench"]
    assert main(["--help"]) == 0
    assert "    analyse (analyze)  analyse every decision" in capsys.readouterr().out


def examples(command: str) -> list[list[str]]:
    """The examples a command's help gives after "Examples:", each as the words after ``ronda``: what the reader
    would type, less a leading environment setting, a trailing redirection and the words in brackets."""
    import argparse

    from ronda.cli.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    epilog = commands.choices[command].epilog or ""
    assert "Examples: " in epilog, f"ronda {command} --help gives no example"
    said = epilog.split("Examples: ", 1)[1].split(". ", 1)[0]
    typed = []
    for example in said.split(" · "):
        words = shlex.split(example.split(" (", 1)[0].split(" > ", 1)[0])
        while "=" in words[0]:
            words.pop(0)
        assert words[:2] == ["ronda", command], example
        typed.append(words[1:])
    return typed


@pytest.mark.parametrize("command", ["play", "serve", "analyse", "rules", "replay", "bench"])
def test_every_example_a_commands_help_gives_is_understood_as_written(command: str) -> None:
    """A newcomer's audit: replay, bench and rules gave no example. Each example given parses (an example that
    the command would refuse teaches the wrong thing); the cheap ones are run below."""
    from ronda.cli.main import build_parser

    for words in examples(command):
        build_parser().parse_args(words)  # a SystemExit here is the command refusing the example


def test_the_replay_and_rules_examples_run_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parent.parent
    cwd = os.getcwd()
    os.chdir(root)  # the examples name files from the project's folder
    try:
        for command in ("replay", "rules"):
            for words in examples(command):
                if "game.json" in words:
                    continue  # a record of the reader's own
                assert main(words) == 0, words
                assert capsys.readouterr().out
    finally:
        os.chdir(cwd)
