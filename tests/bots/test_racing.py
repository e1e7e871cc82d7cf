"""Racing the candidate cards (issue 28, item 4: an expert worth its cost).

A racing search drops a card once it is clearly behind the best on the guesses so far, and gives the
guesses it would still have had to the cards that are close; a clear choice then costs a first batch
of guesses, not the whole budget. The race must keep the clear best card, and a seeded bot must stay
a pure function of its view and seed.
"""

from __future__ import annotations

import random

import pytest
from test_winprob import caida_at_40

from decks import random_position, start
from ronda.bots import ExpertBot, make_bot
from ronda.bots.declarations import declaration_models
from ronda.bots.determinize import Determinizer
from ronda.bots.search import distinct_plays
from ronda.engine.cards import parse_card
from ronda.engine.game import PLAY, Game
from ronda.engine.rules import Rules


class CountingDeterminizer(Determinizer):
    """A determinizer that counts the guesses the search draws."""

    drawn = 0

    def sample_game(self, rng: random.Random, *, game_rng: random.Random | None = None) -> Game:
        self.drawn += 1
        return super().sample_game(rng, game_rng=game_rng)


@pytest.mark.parametrize("race", [0, 8])
def test_racing_keeps_the_caida_that_wins_and_stops_once_it_is_clear(race: int) -> None:
    """At 40-18 the caida with 11c wins the game on the spot: the race keeps it and stops after its first
    batch of 8 guesses; without racing every one of the 64 guesses is drawn."""
    game = caida_at_40()
    view = game.view(0)
    plays = distinct_plays(game.legal_actions())
    assert len(plays) == 2
    bot = ExpertBot(1, samples=64, race=race)
    sampler = CountingDeterminizer(
        view, play_model=bot.play_model, candidates=bot.candidates, models=declaration_models(view)
    )
    assert str(bot.pick(view, plays, sampler)) == "play 11c"
    assert sampler.drawn == (8 if race else 64)


def test_a_racing_bot_decides_the_same_on_the_same_seed() -> None:
    """Same view, same seed: the same card, whatever was decided before (the arena's figures rely on it)."""
    rules = Rules(players=2)
    games = [random_position(rules, seed, steps) for seed in range(3) for steps in (4, 13)]
    games = [game for game in games if game.phase == PLAY]
    assert games
    for game in games:
        view, legal = game.view(game.turn), game.legal_actions()
        first = make_bot("expert:samples=24,race=6", seed=5).choose(view, legal)
        again = make_bot("expert:samples=24,race=6", seed=5)
        again.choose(games[0].view(games[0].turn), games[0].legal_actions())  # another decision first
        assert again.rng.getstate() != random.Random(5).getstate()
        assert make_bot("expert:samples=24,race=6", seed=5).choose(view, legal) == first


def test_racing_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="race_z in bot 'expert:race_z=0' is a number of standard errors above 0"):
        make_bot("expert:race_z=0")
    with pytest.raises(ValueError, match="race in bot 'expert:race=many' is a whole number of guesses"):
        make_bot("expert:race=many")


def test_explore_is_the_share_of_random_cards_in_the_rollouts_of_any_policy_named() -> None:
    """``explore`` (issue 28's settings): seat 0 holds the 2 that takes the table's 2, a 4 and a 12 that take
    nothing. Without random cards the greedy rollout (``hard``'s) and the blind one named by ``rollout=`` always
    take the 2; with every card random they play each of the three about a third of the time."""
    game = start(Rules(players=2), deals=[{0: "2o 4o 12c", 1: "3e 5e 10b"}], table="2c 6o 7e 11b", dealer=1)
    game.apply(game.legal_actions()[0])  # seat 0 declares none
    game.apply(game.legal_actions()[0])  # seat 1 declares none
    two = parse_card("2o")
    for name in ("hard", "expert:rollout=blind2"):
        for explore, least, most in ((0, 300, 300), (1, 70, 130)):
            bot = make_bot(f"{name}{',' if ':' in name else ':'}explore={explore}")
            rng = random.Random(1)
            cards = [bot.policy(game.search_state(), rng.random) for _ in range(300)]
            assert least <= cards.count(two) <= most, (name, explore, cards.count(two))
            assert set(cards) == ({two} if explore == 0 else set(game.hand(0)))
    with pytest.raises(ValueError, match="explore in bot 'hard:explore=2' is a share of random cards from 0 to 1"):
        make_bot("hard:explore=2")
