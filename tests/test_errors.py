"""Bad input to the bots, the arena and the terminal game raises the package's typed errors (engine/errors.py).

Each is a :class:`RondaError` (so an interface shows its message) and still a
``ValueError`` (so callers that caught that keep working), and names the problem.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ronda.analysis.hints import read_hints
from ronda.arena import Sprt, parse_sprt, seatings
from ronda.bots import make_bot
from ronda.cli.main import main
from ronda.engine.deck import check_deck
from ronda.engine.errors import (
    BotError,
    DeckError,
    IllegalActionError,
    MatchError,
    MissingExtraError,
    RecordError,
    RondaError,
)
from ronda.engine.rules import Rules


def test_an_unknown_bot_level_or_time_limit_is_a_bot_error_naming_it() -> None:
    with pytest.raises(BotError, match="unknown bot level 'grandmaster'") as error:
        make_bot("grandmaster")
    assert isinstance(error.value, RondaError) and isinstance(error.value, ValueError)
    with pytest.raises(BotError, match="time limit is a number of seconds above 0, not 0"):
        make_bot("hard", time_limit=0)


def test_a_match_set_up_wrongly_is_a_match_error_naming_it() -> None:
    with pytest.raises(MatchError, match="four players play as two partnerships"):
        seatings(4, 3)
    with pytest.raises(MatchError, match="3 players need 3 entrants, not 2"):
        seatings(3, 2)
    with pytest.raises(MatchError, match="0 < p0 < p1 < 1"):
        Sprt(p0=0.6, p1=0.5)
    with pytest.raises(MatchError, match="--sprt takes two numbers"):
        parse_sprt("half")


def test_a_missing_extra_is_still_the_runtime_error_the_arena_command_reports() -> None:
    assert issubclass(MissingExtraError, RuntimeError) and issubclass(MissingExtraError, RondaError)


def test_the_terminal_game_refuses_a_move_with_the_engine_error() -> None:
    """One class for an action the rules do not allow now, whether the engine or the terminal game refuses it."""
    pytest.importorskip("textual")
    from ronda.interfaces.terminal.session import IllegalMove

    assert IllegalMove is IllegalActionError


@pytest.mark.parametrize(
    ("record", "said"),
    [
        ('{"format": "ronda/1", "rules": null, "rounds": []}', "rules must be an object, not null"),
        ('{"format": "ronda/1", "rules": {"players": true}, "rounds": []}', "players must be a whole number, not true"),
        (
            '{"format": "ronda/1", "rules": {"players": 2, "ace_high": null}}',
            "ace_high must be true or false, not null",
        ),
        ("[1, 2]", "a record is a JSON object, not a list"),
        ('"ronda"', "a record is a JSON object, not a string"),
    ],
)
def test_a_bad_record_is_refused_in_its_own_words_not_pythons(
    record: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An audit: "rules must be an object, not NoneType", "... not True": Python's names for what the file says."""
    path = tmp_path / "game.json"
    path.write_text(record)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"ronda replay: {path}: {said}\n"


def test_a_deck_or_hint_of_the_wrong_kind_is_named_in_a_records_words() -> None:
    with pytest.raises(DeckError, match=r"a deck must be a list of 40 cards, not a string$"):
        check_deck("5o 6o", Rules())
    with pytest.raises(RecordError, match=r'"guesses" must be a whole number, 0 or more, not true$'):
        read_hints({"rounds": [{}], "hints": [{"round": 0, "action": 0, "seat": 0, "guesses": True}]})
