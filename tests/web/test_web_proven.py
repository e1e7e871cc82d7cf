"""R8.8 over the wire: the browser is told which declarations its seat's own view proves, by the judgement the
terminal offers challenges from (``presentation.challenge``), not by a second one of the server's."""

from __future__ import annotations

from typing import Any

import pytest

from decks import run, start
from ronda.engine.actions import Challenge
from ronda.engine.rules import Rules
from ronda.interfaces.web import protocol
from ronda.interfaces.web.protocol import view_json
from ronda.presentation.challenge import ChallengeOption, offered_targets


def test_R8_8_the_page_is_told_proven_where_the_terminal_stops_offering_the_challenge() -> None:
    """Seat 0's ronda of 11s: once its three cards are face up a challenge can only fail."""
    game = start(Rules(players=2), [{0: "11o 11c 2b", 1: "5o 6c 3e"}], table="7e 10e 4b 1c")
    run(game, "declare ronda; declare none")
    seen = []
    for mine, yours in (("11o", "3e"), ("11c", "5o"), ("2b", "6c")):
        run(game, f"play {mine}")
        view, legal = game.view(1), game.legal_actions()
        targets = [action.target for action in legal if isinstance(action, Challenge)]
        seen.append((view_json(view, targets)["proven"], offered_targets(view, legal)))
        run(game, f"play {yours}")
    assert seen == [([None, None], [0]), ([None, None], [0]), (["true", None], [])]


def test_R8_8_the_server_says_the_shared_judgements_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server had its own ``_proof`` beside the shared judgement the docstrings said every interface used: a
    change to one would have left the page and the terminal disagreeing on which challenge loses the game."""

    def judged(view: Any, legal: Any) -> list[ChallengeOption]:
        return [ChallengeOption(action.target, "ronda", "proven_false") for action in legal]

    monkeypatch.setattr(protocol, "challenge_options", judged, raising=False)
    game = start(Rules(players=2), [{0: "11o 11c 2b", 1: "5o 6c 3e"}], table="7e 10e 4b 1c")
    run(game, "declare ronda; declare none; play 11o")
    assert view_json(game.view(1), [0])["proven"] == ["false", None]
