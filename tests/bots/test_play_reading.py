"""How a search reads the other seats' plays (ronda.bots.inference): the model fitted to the bots' real choices.

The position: the table holds 2c 7e 10e 12o, seat 0 drops 5o, and seat 1,
holding 3c 6e 11b, drops the 3c. A 6 would have gone beside the 5 and 7 (a
capture of 5 or 6 then takes 5 6 7 10) and an 11 between the 10 and 12 (a
capture of 10 or 11 takes 10 11 12): the 3 was the drop that gave least away.
"""

from __future__ import annotations

import random

import pytest

from decks import run, start
from ronda.bots import make_bot
from ronda.bots.inference import FITTED, PlayEvidence, PlayModel
from ronda.engine.cards import parse_card
from ronda.engine.rules import Rules
from ronda.engine.view import SeatView


def seat_zero_after_the_safe_drop() -> SeatView:
    game = start(Rules(players=2), deals=[{0: "5o 1c 2e", 1: "3c 6e 11b"}], table="7e 10e 12o 2c")
    run(game, "declare none; declare none; play 5o; play 3c")
    return game.view(0)


def hand(text: str) -> int:
    return sum(1 << parse_card(word) for word in text.split())


def test_the_expert_believes_a_seat_that_dropped_safely_kept_the_dangerous_cards() -> None:
    """Seat 1's cards as seat 0 may guess them: the 6 and 11 it really holds explain the safe drop of the 3; a 1
    and a 4 (drops that give as little away as the 3) leave it a coin toss. Read only by what each card takes at
    once (every drop takes nothing), both guesses explained it equally."""
    view = seat_zero_after_the_safe_drop()
    model = make_bot("expert:sharpness=0.25,noise=0.2,reply=8").play_model  # type: ignore[attr-defined]
    assert model == FITTED
    reading = PlayEvidence(view, [1], model)
    explained = reading.weight({1: hand("6o 11e")})
    unexplained = reading.weight({1: hand("1o 4c")})
    assert explained > 1.5 * unexplained


def test_the_expert_reads_plays_by_the_immediate_worth_by_default() -> None:
    """The expert's own reading is the one its strength was measured with: by the immediate worth alone, with which
    the safe drop of the 3 says nothing about the rest of the hand."""
    old = make_bot("expert").play_model  # type: ignore[attr-defined]
    assert old == PlayModel(sharpness=2.0, noise=0.25, reply=0.0)
    reading = PlayEvidence(seat_zero_after_the_safe_drop(), [1], old)
    assert reading.weight({1: hand("6o 11e")}) == reading.weight({1: hand("1o 4c")})


@pytest.mark.parametrize(
    ("level", "message"),
    [
        ("expert:noise=1.5", "noise in bot 'expert:noise=1.5' is a share from 0 to 1, not '1.5'"),
        ("expert:sharpness=sharp", "sharpness in bot 'expert:sharpness=sharp' is a number from 0"),
        ("expert:reply=-1", "reply in bot 'expert:reply=-1' is a weight from 0"),
        ("expert:reply=nan", "reply in bot 'expert:reply=nan' is a weight from 0"),
    ],
)
def test_reading_settings_are_checked(level: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(level)


def test_more_candidates_follow_the_reading_more_closely() -> None:
    """``candidates`` guesses are drawn for each one kept, by how well it explains the plays: with one, the reading
    is ignored; with 32, the guesses hold a card the safe drop of the 3 was protecting (a 6 or an 11) more often."""
    view = seat_zero_after_the_safe_drop()
    sixes_and_elevens = hand("6o 6c 6e 6b 11o 11c 11e 11b")  # none seen by seat 0
    share = {}
    for candidates in (1, 32):
        bot = make_bot(f"expert:sharpness=0.25,noise=0.2,reply=8,candidates={candidates}")
        assert bot.candidates == candidates  # type: ignore[attr-defined]
        sampler = bot.guesses(view)  # type: ignore[attr-defined]
        rng = random.Random(5)
        held = [sampler.sample(rng).hands[1] for _ in range(400)]
        share[candidates] = sum(bool(h & sixes_and_elevens) for h in held) / len(held)
    assert share[32] > share[1] + 0.1


@pytest.mark.parametrize("text", ["0", "-2", "many", "1.5"])
def test_the_candidates_setting_is_a_whole_number_from_one(text: str) -> None:
    with pytest.raises(ValueError, match=f"candidates in bot 'expert:candidates={text}' is a whole number"):
        make_bot(f"expert:candidates={text}")
