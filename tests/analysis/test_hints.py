"""Hints kept with the game: the record's ``hints`` extension (docs/RECORD.md) leaves the record valid."""

from __future__ import annotations

import json
import re

import pytest

from decks import run, start
from ronda.analysis.hints import Hint, hint_of, read_hints
from ronda.analysis.search import Method, evaluate
from ronda.cli.main import main
from ronda.engine.actions import DECLARES
from ronda.engine.errors import RecordError
from ronda.engine.game import Game
from ronda.engine.record import dumps_record, replay, replay_result
from ronda.engine.rules import Rules


def _game_with_hint() -> tuple[Game, dict[str, object]]:
    game = start(Rules(players=2), [{0: "2c 7o 11c", 1: "7c 3b 5e"}], table="1o 4o 10b 12o")
    run(game, "declare none; declare none; play 2c; play 7c")
    evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=10), seed=1)
    hint = hint_of(evaluation, round_index=0, action_index=4)
    run(game, "play 7o")
    record = game.to_record()
    record["hints"] = [hint.to_json()]
    return game, record


def test_a_record_with_hints_replays_exactly_as_without_them(tmp_path, capsys) -> None:
    game, record = _game_with_hint()
    assert replay_result(replay(record)) == replay_result(game)
    path = tmp_path / "game.json"
    path.write_text(dumps_record(record))
    assert json.loads(path.read_text()) == record
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == replay_result(game)


def test_hints_read_back_as_shown() -> None:
    _, record = _game_with_hint()
    (hint,) = read_hints(record)
    assert (hint.round, hint.action, hint.seat, hint.guesses) == (0, 4, 0, 10)
    assert sorted(str(a) for a, _, _ in hint.options) == ["play 11c", "play 7o"]
    chances = [chance for _, _, chance in hint.options]
    assert all(c is not None and 0 <= c <= 1 for c in chances) and chances[0] >= chances[1]  # best chance first


def test_a_hint_kept_before_chances_were_shown_still_reads() -> None:
    _, record = _game_with_hint()
    for option in record["hints"][0]["options"]:  # type: ignore[index]
        del option["chance"]
    (hint,) = read_hints(record)
    assert [chance for _, _, chance in hint.options] == [None, None]


def test_another_top_level_key_is_still_an_error() -> None:
    _, record = _game_with_hint()
    record["hint"] = record.pop("hints")
    with pytest.raises(RecordError, match="unknown record key 'hint'"):
        replay(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda h: h.update(round=3), "hints[0]: rounds[3] is not in the record"),
        (lambda h: h.update(action=6), "hints[0]: rounds[0] has no actions[6]"),
        (lambda h: h.update(seat=1), "hints[0]: rounds[0].actions[4] is seat 0's, not seat 1's"),
        (lambda h: h.update(guesses=-1), 'hints[0]: "guesses" must be a whole number, 0 or more, not -1'),
        (lambda h: h.update(options=[]), 'hints[0]: "options" must be a non-empty list'),
        (lambda h: h.update(options=[{"play": "7o", "expected": "a lot"}]), "must be a number of points"),
        (lambda h: h.update(options=[{"play": "99x", "expected": 1.0}]), "hints[0]: "),
        (lambda h: h.update(options=[{"play": "7o", "chance": 1.5, "expected": 1.0}]), "a chance from 0 to 1, not 1.5"),
        (lambda h: h.update(extra=1), "hints[0]: unknown key 'extra'"),
    ],
)
def test_bad_hints_are_refused_naming_the_hint_and_the_problem(change, message: str) -> None:
    _, record = _game_with_hint()
    change(record["hints"][0])  # type: ignore[index]
    with pytest.raises(RecordError, match=re.escape(message)):
        read_hints(record)


def test_a_hint_shows_one_card_of_a_rank() -> None:
    game = start(Rules(players=2), [{0: "5o 5c 11c"}], table="1o 4o 10b 12o")
    run(game, "declare ronda; declare none")
    evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=4), seed=0)
    hint = hint_of(evaluation, 0, 2)
    assert sorted(str(a) for a, _, _ in hint.options) in (["play 11c", "play 5o"], ["play 11c", "play 5c"])
    shown = Hint(0, 0, 0, 1, ((DECLARES["none"], 0.0, 0.5),)).to_json()["options"]
    assert shown == [{"declare": "none", "chance": 0.5, "expected": 0.0}]
