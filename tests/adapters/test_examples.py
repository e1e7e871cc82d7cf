"""The research examples run as a researcher runs them."""

from __future__ import annotations

from extras import require

require("research")

import runpy
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("script", "argv"),
    [
        ("pettingzoo_random.py", ["--games", "1"]),
        ("gymnasium_bot.py", ["--episodes", "1", "--opponents", "easy"]),
        ("openspiel_ismcts.py", ["--simulations", "5", "--rounds", "1", "--bot", "easy"]),
    ],
)
def test_example_scripts_run(script: str, argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(sys, "argv", [script, *argv])
    runpy.run_path(str(ROOT / "examples" / "research" / script), run_name="__main__")
    assert capsys.readouterr().out.strip()


def test_the_ismcts_example_says_it_shows_the_plumbing_not_strength(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At its defaults ISMCTS loses, often by a failed challenge: its --help says so before a researcher reads it."""
    monkeypatch.setattr(sys, "argv", ["openspiel_ismcts.py", "--help"])
    with pytest.raises(SystemExit):
        runpy.run_path(str(ROOT / "examples" / "research" / "openspiel_ismcts.py"), run_name="__main__")
    words = " ".join(capsys.readouterr().out.split())
    assert "It shows the plumbing, not strength" in words and "challenging a true declaration" in words


def test_self_play_with_a_league_trains_evaluates_and_grows_the_league(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two generations trained and measured, and no SB3-<time> folder left in the temporary folder (SB3's default
    logger left an empty one at each generation: two a run of the suite, found among forty in /tmp)."""
    require("train")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    argv = ["self_play_league.py", "--generations", "2", "--steps", "256", "--units", "1", "--envs", "1"]
    argv += ["--reward", "chances"]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(ROOT / "examples" / "research" / "self_play_league.py"), run_name="__main__")
    out = capsys.readouterr().out
    # the second generation meets the first member, the first generation (frozen) and the yardstick
    assert "league of 2" in out and "generation 1 " in out.split("league of 2")[1] and "medium" in out
    assert not list(tmp_path.glob("SB3-*"))
