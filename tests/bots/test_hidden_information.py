"""What knowing the cards is worth (``benchmarks/hidden_information.py``): the ceiling issue 28's expert is measured
against. The told search must see exactly the truth, and its honest half must be the arena's own numbers."""

from __future__ import annotations

import json
import random
import sys

import pytest

from benchmark_scripts import ROOT, run_benchmark
from decks import start
from ronda.arena.match import MatchSpec, play_seated, unit_deck
from ronda.arena.runner import run_match, summary
from ronda.bots import make_bot
from ronda.bots.search import SearchBot
from ronda.engine.actions import Play
from ronda.engine.cards import cards_of
from ronda.engine.errors import MatchError
from ronda.engine.game import PLAY, Game
from ronda.engine.presets import preset_rules
from ronda.engine.rules import Rules

sys.path.insert(0, str(ROOT / "benchmarks"))
from hidden_information import Told, told

RULES = Rules(players=2)


def _dealt() -> Game:
    return start(RULES, deals=[{0: "1c 4c 7e", 1: "5o 5e 10b"}], table="2o 3b 6c 11e")


def test_a_search_told_the_hands_guesses_the_real_hand_and_shuffles_the_real_stock() -> None:
    game = _dealt()
    view = game.view(0)
    for seed in range(5):
        guess = Told(view, game, stock=False).sample(random.Random(seed))
        assert guess.hands == {1: game.hand(1).mask}  # seat 1's ronda of fives, exactly
        assert sorted(guess.stock) == sorted(game.stock_cards())
    shuffled = {tuple(Told(view, game, stock=False).sample(random.Random(s)).stock) for s in range(5)}
    assert len(shuffled) > 1  # the stock's order is still guessed
    told_all = Told(view, game, stock=True).sample(random.Random(0))
    assert told_all.stock == game.stock_cards()
    assert not set(cards_of(told_all.hands[1])) & set(view.hand)


def test_the_benchmarks_honest_half_is_the_arenas_match_and_the_told_half_plays_the_same_decks() -> None:
    command = ["hard:4", "hard:4", "--units", "2", "--seed", "3", "--know", "hands,all", "--json"]
    done = run_benchmark("hidden_information", *command)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    spec = MatchSpec(("hard:4", "hard:4"), preset_rules("classic", 2, target=10_000), rounds_only=True, seed=3)
    arena = summary(spec, run_match(spec, 2))["margin_per_round"]
    assert report["honest"][0] == arena["mean"] and report["honest"][1:] == arena["95"]
    for know in ("hands", "all"):
        assert report[f"gain_{know}"][0] == pytest.approx(report[f"told_{know}"][0] - report["honest"][0])
    assert "--know hands,all" in report["command"]


def test_a_unit_game_given_to_the_arena_must_not_have_started() -> None:
    spec = MatchSpec(("easy", "easy"), RULES, rounds_only=True, seed=1)
    game = Game(RULES, decks=[unit_deck(RULES, 1, 0, 0)])
    game.apply(game.legal_actions()[0])
    bots = [make_bot("easy", seed=1), make_bot("easy", seed=2)]
    with pytest.raises(MatchError, match="before any action"):
        play_seated(spec, 0, 0, bots=bots, game=game)


def test_a_level_that_does_not_guess_cannot_be_told() -> None:
    done = run_benchmark("hidden_information", "medium", "hard:4", "--units", "1")
    assert done.returncode != 0 and "does not guess hidden cards" in done.stderr


def test_what_the_told_search_knows_is_named_or_refused() -> None:
    done = run_benchmark("hidden_information", "hard", "hard", "--know", "deck")
    assert done.returncode == 2 and "--know is one or more of hands, all, played (hands,all), not 'deck'" in done.stderr


def test_told_once_played_guesses_honestly_until_the_other_hand_has_shown_a_card() -> None:
    game = _dealt()
    while game.phase != PLAY:  # the deal's declarations, first legal choice each
        game.apply(game.legal_actions()[0])
    assert game.turn == 0  # the seat after the dealer leads the deal
    bot = told(make_bot("hard:4", seed=1), game, "played")
    assert isinstance(bot, SearchBot)
    assert type(bot.guesses(game.view(0))) is not Told  # seat 1 has shown nothing yet: honest guesses
    for _ in range(2):  # seat 0 leads, seat 1 answers
        game.apply(next(a for a in game.legal_actions() if type(a) is Play))
    assert game.turn == 0
    guess = bot.guesses(game.view(0))
    assert type(guess) is Told and guess.sample(random.Random(0)).hands == {1: game.hand(1).mask}
