"""Actions (R4.1, R8.2, R8.8) as a programmer builds them: a wrong one is refused where it is built."""

from __future__ import annotations

import pytest

from ronda import Challenge, Declare, Game, Play, Rules, parse_action, parse_card
from ronda.engine.errors import IllegalActionError


def test_an_action_built_from_a_card_s_name_is_refused_where_it_is_built_naming_the_parsers() -> None:
    """``Play("4c")`` used to build, then apply said "not a card: '4c'" and ``str()`` crashed with a TypeError."""
    with pytest.raises(
        IllegalActionError,
        match=r"Play takes a card id from 0 to 39, not '4c': write Play\.parse\('4c'\) "
        r"or parse_action\('play 4c'\)",
    ):
        Play("4c")  # type: ignore[arg-type]
    for bad in (40, -1, True, None, 4.0):
        with pytest.raises(IllegalActionError, match="Play takes a card id from 0 to 39"):
            Play(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=r"unknown declaration 'quadra' \(none, ronda, tringa, double_ronda\)"):
        Declare("quadra")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="Challenge takes the declarer's seat number, not '1'"):
        Challenge("1")  # type: ignore[arg-type]
    game = Game(Rules(players=2), seed=1)
    game.apply(Declare("none"))
    game.apply(parse_action("declare none"))
    assert (
        Play(parse_card("4c")) == Play.parse("4c") == parse_action("play 4c")
        and str(Play(parse_card("4c"))) == "play 4c"
    )
    game.apply(Play(parse_card("4c")))  # 4c is in seat 0's hand
    assert parse_card("4c") not in game.hand(0) and game.turn == 1
