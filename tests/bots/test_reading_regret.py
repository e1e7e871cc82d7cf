"""The screen of how levels read the other hand (``benchmarks/reading_regret.py``): each card choice's regret against
a search told the other hand. Where nothing is hidden, a level that searches exactly must lose nothing."""

from __future__ import annotations

import json
import sys

from benchmark_scripts import ROOT, run_benchmark
from ronda.bots import make_bot
from ronda.engine.actions import Play

sys.path.insert(0, str(ROOT / "benchmarks"))
from reading_regret import positions, worths


def test_in_the_last_deal_where_nothing_is_hidden_hard_loses_nothing_against_the_told_worths() -> None:
    """Two players, the stock empty: the unseen cards are the other hand, so ``hard`` (which searches the last deal
    exactly) knows what the told search knows, and its card is always one of the best."""
    checked = 0
    for unit in range(3):
        for game, _ in positions(5, unit):
            if game.stock:
                continue
            worth = worths(game, 5, seed=1)
            choice = make_bot("hard", seed=2).choose(game.view(game.turn), game.legal_actions())
            assert type(choice) is Play
            assert worth[choice.card >> 2] == max(worth.values())
            checked += 1
    assert checked >= 5


def test_a_position_is_marked_after_once_the_other_seat_has_played_in_the_deal() -> None:
    found = positions(5, 0)
    assert any(after for _, after in found) and any(not after for _, after in found)
    for game, after in found:
        view = game.view(game.turn)
        assert after == bool(view.played_this_deal(1 - game.turn))


def test_the_same_level_twice_loses_the_same_on_every_choice() -> None:
    command = ["hard:4", "hard:4", "--units", "1", "--reference", "5", "--json"]
    done = run_benchmark("reading_regret", *command)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["after"]["choices"] + report["before"]["choices"] > 0
    for part in ("after", "before"):
        if report[part]["choices"]:
            assert report[part]["hard:4"]["minus_first"] == [0.0, 0.0, 0.0]
