"""Planning the seat's next card on what it will have seen (issue 28, item 4: an expert worth its cost).

Played out in a guess, a PIMC search lets the seat's later cards read the guessed hands: a card whose
follow-up needs to know the other hand is valued as if the seat always would (strategy fusion). With
``plan`` the seat's next card of the deal is one choice for every guess in which it will have seen the
same answer from the other seats: the best over those guesses together, never the guess's own best.
"""

from __future__ import annotations

import random
import sys

import pytest
from test_winprob import caida_at_40

from decks import random_position, start
from ronda.bots import ExpertBot, make_bot
from ronda.bots.pimc import _Plan
from ronda.engine.actions import Play
from ronda.engine.cards import parse_card
from ronda.engine.game import PLAY, Game
from ronda.engine.rules import Rules


def test_the_next_card_is_chosen_once_for_every_guess_with_the_same_answer() -> None:
    """Two next cards (keep the 7, drop the 2). In two guesses the other seat answers with a 5 and the 7 is
    better by a little; in the third it also answers a 5 but the 2 is better by a lot. The seat cannot tell
    those guesses apart when it plays its next card, so it plays the card best over all three, the 2, in each
    — whereas reading each guess would have taken each guess's best. A guess with another answer (a 6) keeps
    its own choice."""
    plan = _Plan()
    plan.add((5,), (0.50, 0.40))
    plan.add((5,), (0.50, 0.40))
    plan.add((5,), (0.10, 0.60))
    plan.add((6,), (0.30, 0.20))
    assert plan.values() == [0.40, 0.40, 0.60, 0.30]
    fused = sum(max(branches) for branches in plan.branches)
    assert sum(plan.values()) == pytest.approx(1.70) and fused == pytest.approx(1.90)


def test_held_out_each_guess_is_valued_at_the_next_card_the_other_guesses_of_its_answer_choose() -> None:
    """``benchmarks/plan_held_out.py``: the plan's card chosen on the guesses it is valued on flatters a card
    whose answers are many (small groups, the best of a few noisy sums; a group of one reads its guess). Held out,
    each guess takes the card best over the other guesses of its answer — in the group of three above, the two
    where the 7 led by a little are valued at the card the other two choose together, and the third at the 7 the
    first two choose — and a guess alone in its group (the 6) at the card best over all the others: an honest
    estimate, lower than the plan's own."""
    from benchmark_scripts import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from plan_held_out import HeldOutExpert, HeldOutPlan

    plan, held = _Plan(), HeldOutPlan()
    for key, branches in (((5,), (0.50, 0.40)), ((5,), (0.50, 0.40)), ((5,), (0.10, 0.60)), ((6,), (0.30, 0.20))):
        plan.add(key, branches)
        held.add(key, branches)
    # First guess: the others sum to (0.60, 1.00): the 2. Third: the others (1.00, 0.80): the 7. The 6 alone:
    # all the others (1.10, 1.40): the 2.
    assert held.values() == [0.40, 0.40, 0.10, 0.20]
    assert sum(held.values()) < sum(plan.values())
    bot = HeldOutExpert(3)
    assert bot.plan_type is HeldOutPlan and ExpertBot(3).plan_type is _Plan
    assert (bot.budget, bot.race, bot.plan) == (ExpertBot(3).budget, 32, True)  # the expert, its plan aside


def _deal_opening() -> tuple[ExpertBot, Game]:
    rules = Rules(players=2)
    game = start(rules, deals=[{0: "1o 4o 12c", 1: "3e 5e 10b"}], table="2c 6o 7e 11b", dealer=1)
    game.apply(game.legal_actions()[0])  # seat 0 declares none
    game.apply(game.legal_actions()[0])  # seat 1 declares none
    assert game.phase == PLAY and game.turn == 0
    return ExpertBot(1, samples=8, race=0, plan=True), game


def test_a_branch_key_is_the_rank_the_other_seat_answered_and_every_next_card_is_played_on() -> None:
    """In one guess (here the true cards): seat 0 plays its 1, seat 1 answers by the rollout policy, and
    both of seat 0's next cards (the 4 and the 12) are played on from there with the same random numbers."""
    bot, game = _deal_opening()
    guess = game.copy(history=False)
    guess.apply(Play(parse_card("1o")))
    key, branches = bot._branches(guess.copy(history=False), 0, 0, [0, 0], 1234, None)
    # The same answer, replayed by hand: the policy, the same random numbers.
    replay = guess.copy(history=False)
    replay.playout(random.Random(1234), plays=1, policy=bot.policy, truthful=True)
    answered = next(iter(game.hand(1) - replay.hand(1)))
    assert key == (answered >> 2,)
    assert len(branches) == 2 and all(0.0 <= value <= 1.2 for value in branches)
    assert str(replay.hand(0)) == "4o 12c"


def test_a_planning_expert_still_takes_the_caida_that_wins_and_decides_the_same_on_a_seed() -> None:
    game = caida_at_40()
    for seed in range(2):
        assert str(make_bot("expert:plan=1", seed=seed).choose(game.view(0), game.legal_actions())) == "play 11c"
    rules = Rules(players=2)
    positions = [random_position(rules, seed, 2) for seed in range(3)]
    positions = [p for p in positions if p.phase == PLAY and len(p.hand(p.turn)) == 3]
    assert positions
    for position in positions:
        view, legal = position.view(position.turn), position.legal_actions()
        first = make_bot("expert:samples=16,race=4,plan=1", seed=5).choose(view, legal)
        assert make_bot("expert:samples=16,race=4,plan=1", seed=5).choose(view, legal) == first


def test_the_plan_setting_is_checked() -> None:
    with pytest.raises(ValueError, match=r"plan in bot 'expert:plan=yes' is 1 .* or 0, not 'yes'"):
        make_bot("expert:plan=yes")
    assert make_bot("hard:plan=1").plan is True  # type: ignore[attr-defined]
    assert make_bot("hard").plan is False  # type: ignore[attr-defined]
