"""Every command that reads a file anyone may have written refuses a bad one the same way (docs/RECORD.md).

``ronda replay``, ``ronda analyse`` and ``ronda play --resume`` read game
records; ``play --resume`` also reads the saved game's settings beside the
record (``game.play.json``). A bad file — nested a hundred thousand deep,
terabytes large, missing — ends each of them with exit status 2 and exactly
one line on stderr naming the file once and the problem; never a traceback.
Each case runs the real command in a fresh process, as a person would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from decks import run, start
from ronda.engine.record import MAX_RECORD_BYTES, dumps_record
from ronda.engine.rules import Rules

SRC = str(Path(__file__).resolve().parents[1] / "src")

DEEP = 100_000
"""Far past Python's recursion limit, which is what a parser that recurses per level hits."""

READERS = {
    "replay": ["replay", "{file}"],
    "analyse": ["analyse", "{file}", "--no-progress"],
    "play": ["play", "--plain", "--resume", "{file}"],
}
"""Each command that reads a record, with where the file goes."""


def ronda(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``ronda ARGS`` in a fresh process, with no input (a game that starts reads end of input and leaves)."""
    return subprocess.run(
        [sys.executable, "-m", "ronda", *args],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": SRC},
        timeout=120,
    )


def refused(result: subprocess.CompletedProcess[str], command: str, path: Path, *words: str) -> str:
    """Check the one-line refusal of a bad file: exit 2, nothing on stdout, the file named once; the line."""
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stdout == ""
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr[-2000:]
    line = result.stderr.rstrip("\n")
    assert line.startswith(f"ronda {command}: {path}: "), line
    assert line.count(str(path)) == 1, line
    for word in words:
        assert word in line, line
    return line


def square_nesting(path: Path, deep: int = DEEP) -> None:
    path.write_text("[" * deep + "]" * deep)


def curly_nesting(path: Path, deep: int = DEEP) -> None:
    path.write_text('{"a": ' * deep + "0" + "}" * deep)


def nesting_inside_rounds(path: Path) -> None:
    path.write_text('{"format": "ronda/1", "rules": {"players": 2}, "rounds": [' + "[" * DEEP + "]" * DEEP + "]}")


def huge(path: Path) -> None:
    """A terabyte (a sparse file: it takes no room on disk), which a reader must refuse by its size, unread."""
    with path.open("wb") as file:
        file.truncate(2**40)


def a_number_of_five_thousand_digits(path: Path) -> None:
    path.write_text('{"format": "ronda/1", "rules": {"players": 2}, "dealer": ' + "7" * 5000 + ', "rounds": []}')


BAD_FILES: dict[str, tuple[Callable[[Path], None], tuple[str, ...]]] = {
    "[ nesting": (square_nesting, ("a record nests arrays and objects at most 32 deep",)),
    "{ nesting": (curly_nesting, ("a record nests arrays and objects at most 32 deep",)),
    "nesting inside rounds": (nesting_inside_rounds, ("a record nests arrays and objects at most 32 deep",)),
    "a terabyte": (huge, (f"a record is at most 16 MiB, and this file holds {2**40:,} bytes",)),
    "a huge number": (a_number_of_five_thousand_digits, ("invalid JSON: a number of more than 4300 digits",)),
}


@pytest.mark.parametrize("case", BAD_FILES)
@pytest.mark.parametrize("command", READERS)
def test_a_deep_or_huge_record_is_refused_with_one_line_by_every_reader(
    tmp_path: Path, command: str, case: str
) -> None:
    make, words = BAD_FILES[case]
    path = tmp_path / "game.json"
    make(path)
    result = ronda(*(a.replace("{file}", str(path)) for a in READERS[command]), cwd=tmp_path)
    refused(result, command, path, *words)


@pytest.mark.parametrize("command", READERS)
def test_a_missing_record_is_named_once(tmp_path: Path, command: str) -> None:
    path = tmp_path / "nowhere" / "x.json"
    result = ronda(*(a.replace("{file}", str(path)) for a in READERS[command]), cwd=tmp_path)
    line = refused(result, command, path)
    assert line == f"ronda {command}: {path}: cannot read it: no such file or directory"


def test_the_record_size_limit_is_far_above_a_long_game_with_hints() -> None:
    game = start(Rules(players=4), [{0: "1o 2o 3o", 1: "1c 2c 3c", 2: "1e 2e 3e", 3: "1b 2b 3b"}])
    run(game, "declare none; declare none; declare none; declare none")
    one_deal = len(dumps_record(game.to_record()))
    assert one_deal * 200 < MAX_RECORD_BYTES  # two hundred deals' worth of record, with room to spare


def _a_saved_game(tmp_path: Path) -> Path:
    game = start(Rules(players=2), [{0: "12c 2o 4b", 1: "5c 2c 11b"}], table="5o 6o 7o 12b")
    run(game, "declare none; declare none; play 12c")
    path = tmp_path / "game.json"
    path.write_text(dumps_record(game.to_record()), encoding="utf-8")
    return path


SIDE_DEEP = 5000
"""Past the recursion limit, and small enough to be refused for its depth, not its size."""

SIDE_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "[ nesting": (
        lambda p: square_nesting(p, SIDE_DEEP),
        "a saved game's settings nests arrays and objects at most 8 deep",
    ),
    "{ nesting": (
        lambda p: curly_nesting(p, SIDE_DEEP),
        "a saved game's settings nests arrays and objects at most 8 deep",
    ),
    "nesting inside levels": (
        lambda p: p.write_text('{"seat": 0, "levels": ' + "[" * SIDE_DEEP + "]" * SIDE_DEEP + "}"),
        "a saved game's settings nests arrays and objects at most 8 deep",
    ),
    "a terabyte": (huge, f"a saved game's settings is at most 64 KiB, and this file holds {2**40:,} bytes"),
}


@pytest.mark.parametrize("case", SIDE_FILES)
def test_a_deep_or_huge_saved_game_beside_the_record_is_refused_naming_it(tmp_path: Path, case: str) -> None:
    record = _a_saved_game(tmp_path)
    side = tmp_path / "game.play.json"
    make, words = SIDE_FILES[case]
    make(side)
    result = ronda("play", "--plain", "--resume", str(record), cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.stderr[-2000:]
    assert result.stderr.startswith(f"ronda play: {side}: {words}") and result.stderr.count(str(side)) == 1


def test_a_good_saved_game_still_resumes_with_its_settings(tmp_path: Path) -> None:
    record = _a_saved_game(tmp_path)
    (tmp_path / "game.play.json").write_text(json.dumps({"seat": 1, "levels": ["easy", None], "seed": 3}))
    result = ronda("play", "--plain", "--resume", str(record), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "you are seat 1; bots: seat 0 (easy)" in result.stdout


def _sample() -> dict[str, object]:
    return json.loads((Path(__file__).resolve().parents[1] / "examples" / "sample-2p.json").read_text())


def _long_card(record: dict[str, object]) -> None:
    record["rounds"][0]["deck"][0] = "Z" * 100_000  # type: ignore[index]


def _long_rule(record: dict[str, object]) -> None:
    record["rules"] = {"players": "x" * 100_000}


def _long_action(record: dict[str, object]) -> None:
    record["rounds"][0]["actions"][0] = "Q" * 100_000  # type: ignore[index]


def _long_key(record: dict[str, object]) -> None:
    record["rules"] = {"y" * 100_000: 1}


@pytest.mark.parametrize("spoil", [_long_card, _long_rule, _long_action, _long_key])
def test_a_huge_bad_value_is_named_in_a_line_a_person_can_read_not_quoted_whole(
    tmp_path: Path, spoil: Callable[[dict[str, object]], None]
) -> None:
    """A record whose card, rule, action or key is 100,000 characters long: the refusal quotes its start."""
    record = _sample()
    spoil(record)
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record))
    line = refused(ronda("replay", str(path), cwd=tmp_path), "replay", path)
    said = line.removeprefix(f"ronda replay: {path}: ")  # the file's name is the person's own, however long
    assert len(said) < 220, line[:400]
    assert "characters)" in line
