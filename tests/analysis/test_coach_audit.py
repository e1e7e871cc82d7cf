"""The coach audit's items 4, 5, 7, 8, 9 and 10: what a learner reads is what the numbers say.

Each test fails without its fix: a class graded on a loss other than the one shown, a last-capture note that
points the wrong way, words like "a 11" and "1 decisions", a traceback where one line should say the output
could not be written, a forced progress bar that draws nothing off a terminal, a record of ``--rounds`` graded
as if every decision were best without a word.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ronda.analysis.grades import GRADES, THRESHOLDS, chance_points
from ronda.analysis.review import Decision, Review, SeatSummary
from ronda.analysis.search import Method, Option, PlayFacts, Sources
from ronda.cli.main import build_parser, main
from ronda.engine.actions import Play
from ronda.engine.cards import parse_card
from ronda.engine.game import Game
from ronda.engine.record import dumps_record
from ronda.engine.rules import Rules
from ronda.presentation.coaching import chance, gains_text, option_reason, summary_lines


def _decision(loss: float) -> Decision:
    """A decision whose option taken gave up ``loss`` of the chance to win, no more built than the grade reads."""
    best, taken = SimpleNamespace(chance=0.5 + loss), SimpleNamespace(chance=0.5)
    evaluation: Any = SimpleNamespace(best=best, option=lambda action: taken)
    moment: Any = SimpleNamespace(taken=None)
    return Decision(moment, evaluation)


def test_audit_7_a_loss_shown_as_5_0_is_a_mistake_as_the_header_says() -> None:
    decision = _decision(0.04996)
    assert chance_points(decision.loss) == "5.0"
    assert decision.loss >= THRESHOLDS["mistake"]
    assert decision.grade == "mistake"
    assert _decision(0.0249).grade == "inaccuracy"  # 2.5 shown, 2.5 graded
    assert _decision(0.0094).grade == "best"  # 0.9 shown: under the 1 of "good"


def _option(card: str, cards: float, sweep: float) -> Option:
    facts = PlayFacts(parse_card(card), (), False, False, False, None, 0.0, 0.0)
    return Option(Play.parse(card), 0.5, cards, 0.0, 0.0, facts, Sources(cards=cards, sweep=sweep))


def test_audit_8_the_last_capture_is_named_only_when_it_explains_the_card_count() -> None:
    # The better option gains the card count while it makes the round's last capture less often (70% against
    # 80%): the last capture is not why it gains, and is not said.
    against = gains_text(_option("1o", 2.6, 0.7), _option("6b", 0.0, 0.8), "6b", seat=1, players=2, me=None)
    assert against == "+2.60 points from the card count"
    along = gains_text(_option("1o", 2.6, 0.8), _option("6b", 0.0, 0.7), "6b", seat=1, players=2, me=None)
    assert "makes the round's last capture" in along and "in 80% of the guesses, against 70% after 6b" in along
    given_up = gains_text(_option("1o", -2.6, 0.7), _option("6b", 0.0, 0.8), "6b", seat=1, players=2, me=None)
    assert "-2.60 points from the card count (seat 1 makes the round's last capture" in given_up


def test_audit_9_an_11_one_decision_and_no_certainty_short_of_a_game_won() -> None:
    drop = Option(
        Play.parse("11o"), 0.4, -1.0, 0.0, 0.0, PlayFacts(parse_card("11o"), (), False, False, False, 1, 1.0, 0.0)
    )
    assert "seat 1 holds an 11 in 100% of the guesses: a likely caida" in option_reason(drop, me=0)
    assert option_reason(_option("1o", 0.0, 0.0), me=0) == "drops it"
    one = SeatSummary(seat=0, decisions=1, average_loss=0.0, classes=dict.fromkeys(GRADES, 0), costliest=())
    assert summary_lines(one)[0].startswith("Seat 0: 1 decision with a choice, average loss 0.0 percentage points")
    assert chance(0.9996) == "over 99.9%" and chance(1.0) == "100.0%"
    assert chance(0.0003) == "under 0.1%" and chance(0.0) == "0.0%"


def test_audit_9_play_help_names_the_hint_and_the_analysis() -> None:
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    text = " ".join(commands["play"].format_help().split())
    assert "h a hint" in text and "a the analysis of your decisions" in text
    assert "hint, analysis" in text


def test_audit_4_a_target_too_far_for_chances_is_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Rules(players=2, target=10000), seed=3)
    while game.round == 0:  # one round of an `arena --rounds` game, saved as the next is dealt
        game.apply(game.legal_actions()[0])
    record = tmp_path / "rounds.json"
    record.write_text(dumps_record(game.to_record()), encoding="utf-8")
    assert main(["analyse", str(record), "--budget", "1", "--seat", "0", "--summary"]) == 0
    out = capsys.readouterr().out
    assert "Warning: the target is 10000 points, so far that no decision moves the chance to win" in out
    assert "Read the expected points in brackets instead" in out
    assert main(["analyse", str(record), "--budget", "1", "--seat", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["far_target"] is True
    classic = Review(Rules(players=2), (), Method(), 0, (0, 1))
    assert not classic.far_target and classic.to_json()["far_target"] is False
    assert Review(Rules(players=4, target=10000), (), Method(), 0, (0,)).far_target
