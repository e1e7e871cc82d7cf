"""Bad input to the bots, the arena and the terminal game raises the package's typed errors (engine/errors.py).

Each is a :class:`RondaError` (so an interface shows its message) and still a
``ValueError`` (so callers that caught that keep working), and names the problem.
"""

from __future__ import annotations

import pytest

from ronda.arena import Sprt, parse_sprt, seatings
from ronda.bots import make_bot
from ronda.engine.errors import BotError, IllegalActionError, MatchError, MissingExtraError, RondaError


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
