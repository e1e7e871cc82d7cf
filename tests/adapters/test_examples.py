"""The research examples run as a researcher runs them."""

from __future__ import annotations

from extras import require

require("research")

import runpy
import sys
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
