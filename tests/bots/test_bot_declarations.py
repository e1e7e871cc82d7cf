"""The declaration, bluff and challenge policy (ronda.bots.declarations), on explicit deals.

Every level declares truthfully by default; ``hard`` and ``expert`` bluff only
in the documented situation (the delaying bluff; a winning bluff would be shown
and exposed, R9.5); a declaration counting proves false is challenged at once,
and a true one never is by a counting bot.
"""

from __future__ import annotations

import random

import pytest
from bot_levels import QUICK

from decks import build_deck
from ronda.bots import make_bot
from ronda.bots.declarations import (
    DELAY_REACH,
    DELAYING,
    at_stake,
    declaration_models,
    delaying_bluff,
    gamble_targets,
    true_declaration,
)
from ronda.bots.determinize import Determinizer
from ronda.bots.pimc import PimcBot
from ronda.bots.rules_based import MediumBot
from ronda.engine.actions import Challenge, Declare, Play
from ronda.engine.cards import parse_card
from ronda.engine.events import ChallengeMade, Exposure
from ronda.engine.game import DECLARE, OVER, PLAY, Game
from ronda.engine.rules import Rules

SEARCHERS = ["hard", "expert"]


def _game(rules: Rules, deals: list[dict[int, str]], table: str | None = "10o 11c 4b 12b") -> Game:
    deck = build_deck(rules, deals=deals, table=table if rules.opening_table_size else None)
    return Game(rules, decks=[[parse_card(c) for c in deck]])


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_level_declares_truthfully_when_nothing_is_at_stake(level: str) -> None:
    kinds = set()
    for seed in range(150):
        rules = Rules(players=2 + seed % 3, four_card_hands=seed % 6 == 0 and seed % 3 != 1)
        game = Game(rules, seed=seed)
        while game.phase == DECLARE:
            view = game.view(game.turn)
            action = QUICK[level](seed).choose(view, game.legal_actions())
            assert action == Declare(true_declaration(view))  # type: ignore[arg-type]
            kinds.add(true_declaration(view))
            game.apply(action)
    assert kinds >= {"none", "ronda", "tringa"}


def test_the_delaying_bluff_contests_a_ronda_that_would_win_the_game() -> None:
    """Seeds: a false ronda delays the opponent's winning ronda points (R8.5 undecided)."""
    rules = Rules(players=3, target=1)
    game = _game(rules, [{0: "5o 5c 7e", 1: "1o 2c 3e", 2: "1c 2o 3o"}])
    game.apply(Declare("ronda"))
    view = game.view(1)
    assert true_declaration(view) == "none"
    assert delaying_bluff(view) == "ronda"
    for level in SEARCHERS:
        assert QUICK[level](0).choose(view, game.legal_actions()) == Declare("ronda")
    assert MediumBot(0).choose(view, game.legal_actions()) == Declare("none")
    game.apply(Declare("ronda"))
    game.apply(Declare("none"))
    assert game.phase == PLAY and game.winner is None  # the settlement waits for the cards


def test_declaring_last_no_false_tringa_against_a_ronda_that_would_win() -> None:
    """R9.5: a false tringa would beat the ronda (R8.3) and win at once, but it would be shown and
    exposed first; hard holds nothing, so it makes the delaying bluff of the opponent's kind instead."""
    rules = Rules(players=2, target=1)
    game = _game(rules, [{0: "5o 5c 7e", 1: "1o 2c 3e"}])
    game.apply(Declare("ronda"))
    view = game.view(1)
    assert QUICK["hard"](0).choose(view, game.legal_actions()) == Declare("ronda")
    game.apply(Declare("tringa"))  # had it declared the tringa: shown, exposed, and seat 0 wins
    assert game.winner == 0 and game.view(0).shown[1] is not None


def test_no_bluff_when_the_opponents_ronda_would_not_win() -> None:
    rules = Rules(players=2, target=41)
    game = _game(rules, [{0: "5o 5c 7e", 1: "1o 2c 3e"}])
    game.apply(Declare("ronda"))
    view = game.view(1)
    assert delaying_bluff(view) is None
    for level in SEARCHERS:
        assert QUICK[level](0).choose(view, game.legal_actions()) == Declare("none")


def test_no_winning_bluff_when_declaring_last_under_R9_5() -> None:
    """R9.5: declaring last a ronda it does not hold would win at once without R9.5; now the hand
    would be shown and the ronda exposed (the penalty wins for the opponent): hard declares none."""
    rules = Rules(players=2, target=1)
    game = _game(rules, [{0: "5o 6c 7e", 1: "1o 2c 3e"}])
    game.apply(Declare("none"))
    view = game.view(1)
    assert view.turn == view.dealer
    assert QUICK["hard"](0).choose(view, game.legal_actions()) == Declare("none")
    events = game.copy().apply(Declare("ronda"))
    assert [e.TYPE for e in events] == ["declare", "show", "exposure", "score", "game_over"]
    assert events[-1].to_json() == {"type": "game_over", "winner": 0, "reason": "target"}


def test_a_true_declaration_that_wins_is_made_when_declaring_last() -> None:
    """R9.5: a true ronda is shown, awarded and wins: the truthful declaration is the winning one."""
    rules = Rules(players=2, target=1)
    game = _game(rules, [{0: "5o 6c 7e", 1: "1o 1c 3e"}])
    game.apply(Declare("none"))
    action = QUICK["hard"](0).choose(game.view(1), game.legal_actions())
    assert action == Declare("ronda")
    assert game.apply(action)[-1].to_json() == {"type": "game_over", "winner": 1, "reason": "target"}


def test_search_levels_bluff_only_in_the_documented_situation() -> None:
    """Over many near-target games, every declaration by hard that is not the truth is the delaying bluff.

    Hard sits last, so it deals the first round and declares after the others (the bluff needs their
    declarations).
    """
    bluffs = 0
    for seed in range(60):
        rules = Rules(players=2 + seed % 3, target=3)
        game = Game(rules, seed=seed)
        hard = rules.players - 1
        bots = [QUICK["hard" if s == hard else "medium"](seed) for s in range(rules.players)]
        while game.phase not in (OVER,) and game.round < 3:
            view = game.view(game.turn)
            action = bots[game.turn].choose(view, game.legal_actions())
            if game.turn == hard and isinstance(action, Declare) and action.declaration != true_declaration(view):
                assert action.declaration == delaying_bluff(view)
                bluffs += 1
            game.apply(action)
    assert bluffs > 0


def _last_deal(declarer_hand: str) -> Game:
    """Two players; seat 0 holds ``declarer_hand`` in the last deal, where seat 1 has seen every other card."""
    rules = Rules(players=2, target=500)
    game = _game(rules, [{}, {}, {}, {}, {}, {0: declarer_hand}])
    rng = random.Random(0)
    while game.deal < 5:
        legal = game.legal_actions()
        if game.phase == DECLARE:
            game.apply(Declare(true_declaration(game.view(game.turn))))
        else:
            game.apply(rng.choice([a for a in legal if isinstance(a, Play)]))
    return game


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_a_declaration_counting_proves_false_is_challenged(level: str) -> None:
    game = _last_deal("4o 5o 6o")
    game.apply(Declare("ronda"))  # seat 0 bluffs
    game.apply(Declare("none"))
    game.apply(Play(parse_card("4o")))  # R8.5 cannot expose it yet: the other two could be a pair
    assert not game.view(1).exposed[0]
    action = QUICK[level](0).choose(game.view(1), game.legal_actions())
    assert action == Challenge(0)
    events = game.apply(action)
    assert any(isinstance(e, ChallengeMade) and not e.truthful for e in events)
    assert any(isinstance(e, Exposure) and e.seat == 0 for e in events)


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_a_true_declaration_is_not_challenged(level: str) -> None:
    game = _last_deal("4o 4c 6o")
    game.apply(Declare("ronda"))
    game.apply(Declare("none"))
    game.apply(Play(parse_card("6o")))
    action = QUICK[level](0).choose(game.view(1), game.legal_actions())
    assert isinstance(action, Play)


def _contested(target: int) -> Game:
    """Both seats declare a ronda (seat 0's is false); seat 0 has played; seat 1 to act."""
    rules = Rules(players=2, target=target)
    game = _game(rules, [{0: "5o 1c 7e", 1: "3o 3c 12e"}])
    game.apply(Declare("ronda"))
    game.apply(Declare("ronda"))
    game.apply(Play(parse_card("1c")))
    return game


def _delayed(target: int) -> Game:
    """Seat 0 declares a true ronda that would win; seat 1, holding nothing, answers with a ronda; seat 0 to act."""
    rules = Rules(players=2, target=target)
    game = _game(rules, [{0: "5o 5c 7e", 1: "1o 2c 3e"}])
    game.apply(Declare("ronda"))
    game.apply(Declare("ronda"))
    return game


def test_R8_8_a_ronda_answering_a_winning_ronda_is_believed_a_delaying_bluff() -> None:
    """Declared where the delaying bluff was in the declarer's interest, a ronda is most likely that bluff."""
    view = _delayed(target=1).view(0)
    assert declaration_models(view) == {1: DELAYING}
    believed = Determinizer(view, models=declaration_models(view)).kind_probabilities(1)
    trusted = Determinizer(view).kind_probabilities(1)
    assert believed["none"] > 0.7 > 0.2 > trusted["none"]
    # Declared first, with nothing to answer, the same ronda is believed as people usually are.
    assert declaration_models(_contested(target=2).view(1)) == {}


@pytest.mark.parametrize("level", SEARCHERS)
def test_R8_8_a_likely_delaying_bluff_is_challenged_when_exposing_it_wins_the_game(level: str) -> None:
    """Seat 0 needs one point: the bluff's penalty now (R8.6) wins, and waiting lets seat 1 score first."""
    game = _delayed(target=1)
    action = QUICK[level](0).choose(game.view(0), game.legal_actions())
    assert action == Challenge(1)
    events = game.apply(action)
    assert [e.TYPE for e in events][-3:] == ["exposure", "score", "game_over"]
    assert game.winner == 0


def test_R8_8_a_declaration_made_first_is_not_gambled_on_even_if_false() -> None:
    """Seat 0's ronda is in fact false, but nothing in seat 1's view says so: a failed challenge would lose."""
    game = _contested(target=2)  # seat 0 would win with both rondas' points
    view = game.view(1)
    assert Challenge(0) in game.legal_actions() and at_stake(view, 0)
    for seed in range(3):
        assert isinstance(PimcBot(seed, samples=8).choose(view, game.legal_actions()), Play)


@pytest.mark.parametrize("level", SEARCHERS)
def test_R8_8_a_rare_declaration_without_a_motive_to_bluff_is_not_gambled_on(level: str) -> None:
    """A true tringa, declared first: counting alone makes a tringa look most likely false (it is rare)."""
    game = _game(Rules(players=2, target=12), [{0: "5o 5c 5e", 1: "1o 2c 7e"}])
    game.apply(Declare("tringa"))
    game.apply(Declare("none"))
    game.apply(Play(parse_card("5o")))
    view = game.view(1)
    assert Challenge(0) in game.legal_actions() and declaration_models(view) == {}
    sampler = Determinizer(view)
    assert sampler.kind_probabilities(0)["tringa"] < 0.5
    assert gamble_targets(view, game.legal_actions(), sampler) == []
    for seed in range(3):
        assert isinstance(make_bot(level, seed).choose(view, game.legal_actions()), Play)


def test_R8_8_no_gamble_on_a_challenge_far_from_the_target() -> None:
    """Waiting is free far from the target: a false declaration is exposed by its own cards (R8.9)."""
    game = _delayed(target=41)
    view = game.view(0)
    sampler = Determinizer(view, models={1: DELAYING})  # even believed most likely false
    assert gamble_targets(view, game.legal_actions(), sampler) == []
    assert isinstance(PimcBot(0, samples=8).choose(view, game.legal_actions()), Play)


def test_no_delaying_bluff_far_from_the_target() -> None:
    """Seat 1 could not win meanwhile: declaring nothing lets R9.5 show seat 0's tringa, which may be false."""
    rules = Rules(players=2, target=5)
    game = _game(rules, [{0: "5o 5c 5e", 1: "1o 2c 3e"}])
    game.apply(Declare("tringa"))
    view = game.view(1)
    assert view.scores[1] < rules.target - DELAY_REACH
    assert delaying_bluff(view) is None
    assert QUICK["hard"](0).choose(view, game.legal_actions()) == Declare("none")
