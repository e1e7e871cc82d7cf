"""Which challenges an interface offers, and what it says before one (R8.8: a failed challenge loses the game)."""

from __future__ import annotations

from decks import run, start
from ronda.engine.actions import Challenge
from ronda.engine.rules import Rules
from ronda.engine.view import SeatView
from ronda.presentation.challenge import ChallengeOption, challenge_options, challenge_warning, offered_targets


def test_R8_8_a_declaration_proven_true_by_its_face_up_cards_is_never_offered():
    """Seat 0's ronda of 11s: once its three cards are face up the challenge can only fail, so it is not offered."""
    game = start(Rules(players=2), [{0: "11o 11c 2b", 1: "5o 6c 3e"}], table="7e 10e 4b 1c")
    run(game, "declare ronda; declare none")
    seen = []
    for mine, yours in (("11o", "3e"), ("11c", "5o"), ("2b", "6c")):
        run(game, f"play {mine}")
        view, legal = game.view(1), game.legal_actions()
        assert Challenge(0) in legal  # the engine allows it each time: only the offer changes
        seen.append((offered_targets(view, legal), [o.verdict for o in challenge_options(view, legal)]))
        run(game, f"play {yours}")
    assert seen == [([0], ["open"]), ([0], ["open"]), ([], ["proven_true"])]


def test_R8_8_the_other_11s_in_your_hand_prove_the_ronda_after_two_cards():
    """Seat 1 holds both other 11s: seat 0's two 11s played leave its last card no 11, so its ronda is proven."""
    game = start(Rules(players=2), [{0: "11o 11c 2b", 1: "11e 11b 3e"}], table="7e 10e 4b 1c")
    run(game, "declare ronda; declare ronda; play 11o")
    assert [(o.target, o.verdict) for o in challenge_options(game.view(1), game.legal_actions())] == [(0, "open")]
    run(game, "play 3e; play 11c")  # one card of seat 0 still unseen
    assert [(o.target, o.verdict) for o in challenge_options(game.view(1), game.legal_actions())] == [
        (0, "proven_true")
    ]
    assert offered_targets(game.view(1), game.legal_actions()) == []


def test_R8_8_no_challenge_options_for_a_seat_that_may_not_challenge():
    game = start(Rules(players=4), [{0: "5o 6c 3e", 2: "11o 11c 2b"}], table="7e 10e 4b 1c")
    run(game, "declare none; declare none; declare ronda; declare none")
    assert challenge_options(game.view(0), game.legal_actions()) == []  # seat 2 is seat 0's partner


class SeenView:
    """A view as far as the verdict needs it: the kinds declared and the kinds a hand may hold."""

    def __init__(self, declared: str, possible: set[str]) -> None:
        self.declarations = (None, declared)
        self._possible = frozenset(possible)

    def possible_kinds(self, seat: int) -> frozenset[str]:
        return self._possible

    def proof(self, seat: int) -> str | None:
        return SeatView.proof(self, seat)  # type: ignore[arg-type]  # the engine's verdict, on these facts


def test_R8_8_the_verdict_follows_what_the_hand_may_hold():
    for possible, verdict in (
        ({"ronda"}, "proven_true"),
        ({"none", "tringa"}, "proven_false"),
        ({"none", "ronda"}, "open"),
    ):
        options = challenge_options(SeenView("ronda", possible), [Challenge(1)])  # type: ignore[arg-type]
        assert options == [ChallengeOption(1, "ronda", verdict)]  # type: ignore[arg-type]
        assert options[0].offered == (verdict != "proven_true")


def test_R8_8_the_warning_says_what_is_lost_in_the_game_s_words():
    assert (
        challenge_warning(ChallengeOption(1, "ronda", "open"), 2)
        == "If seat 1 really holds a ronda, you lose the game."
    )
    assert (
        challenge_warning(ChallengeOption(3, "tringa", "open"), 4)
        == "If seat 3 really holds a tringa, your side loses the game."
    )
    assert challenge_warning(ChallengeOption(2, "ronda", "proven_true"), 3) == (
        "Seat 2's ronda is proven true by the cards you have seen: challenging it loses you the game."
    )
    assert "exposes it as false" in challenge_warning(ChallengeOption(1, "tringa", "proven_false"), 2)
