"""A published arena line gives the same numbers on any machine: bots think on budgets, not clocks.

The same match is played on an idle machine (as idle as the tests leave it)
and again while other processes burn every core; every number but the times
must be the same. A clock is still there for interactive play, as a cap
(``--time-limit``), and it is off unless asked for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from ronda.arena import MatchSpec, run_match, summary
from ronda.bots import make_bot
from ronda.bots.pimc import ExpertBot, PimcBot
from ronda.cli.main import main
from ronda.engine.rules import Rules


def _without_times(result: dict) -> dict:
    result = dict(result, seconds=None)
    result["entrants"] = [{k: v for k, v in e.items() if "seconds" not in k} for e in result["entrants"]]
    return result


@contextmanager
def burning(cores: int) -> Iterator[None]:
    """Other processes keeping ``cores`` cores busy, as on a shared machine."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cores)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def test_the_same_match_gives_the_same_result_under_different_cpu_load() -> None:
    spec = MatchSpec(("hard", "medium"), Rules(players=2, target=10_000), rounds_only=True, seed=5)
    idle = summary(spec, run_match(spec, units=1))
    with burning(os.cpu_count() or 2):
        loaded = summary(spec, run_match(spec, units=1))
    assert _without_times(idle) == _without_times(loaded)
    hard = idle["entrants"][0]
    assert hard["choices"] > 10  # the search bot really searched (card choices, not forced plays)
    assert idle["time_limit"] is None


def test_search_levels_have_no_clock_unless_one_is_asked_for() -> None:
    assert PimcBot(1).time_limit is None and ExpertBot(1).time_limit is None
    for level in ("hard", "expert"):
        assert make_bot(level, seed=1).time_limit is None  # type: ignore[attr-defined]
        assert make_bot(level, seed=1, time_limit=0.25).time_limit == 0.25  # type: ignore[attr-defined]
    make_bot("medium", seed=1, time_limit=0.25)  # the rule levels think in microseconds: nothing to cap
    with pytest.raises(ValueError, match="above 0"):
        make_bot("hard", time_limit=0)


def test_a_time_limit_caps_a_search_move() -> None:
    """With a tiny cap, the search stops after its minimum of guesses instead of its whole budget."""
    from ronda.engine.game import Game

    game = Game(Rules(players=2, auto_declare=True), seed=3)
    view, legal = game.view(game.turn), game.legal_actions()
    capped = PimcBot(1, samples=10_000, min_samples=2, time_limit=0.001)
    counted = sum(1 for _ in capped.steps())
    assert 2 <= counted < 10_000
    assert capped.choose(view, legal) in legal


def test_arena_time_limit_is_passed_to_the_bots_and_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "medium", "random", "--units", "1", "--rounds", "--time-limit", "0.5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["time_limit"] == 0.5
    assert main(["arena", "medium", "random", "--time-limit", "-1"]) == 2
    assert "--time-limit" in capsys.readouterr().err


def test_play_time_limit_reaches_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    from ronda.interfaces.terminal.session import Session, Settings

    session = Session(Settings.make(2, 0, "hard", seed=1, pace=0, time_limit=0.3))
    assert session.bots[1].time_limit == 0.3  # type: ignore[attr-defined]
    assert Session(Settings.make(2, 0, "hard", seed=1, pace=0)).bots[1].time_limit is None  # type: ignore[attr-defined]
    assert main(["play", "--plain", "--time-limit", "0"]) == 2
    assert "--time-limit" in capsys.readouterr().err
