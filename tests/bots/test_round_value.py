"""The learned value of the rest of a round (``expert:horizon=deal``, issue 28 item 4).

A search may stop its rollouts at the end of the deal it is in and value the rest of the round by a model fitted
to honest self-play (:mod:`ronda.bots.roundvalue`): the points each side is expected to score from a deal's start.
"""

from __future__ import annotations

import json
import random

import pytest

from decks import start
from ronda.bots import make_bot, search_settings
from ronda.bots.endgame import declare_truthfully
from ronda.bots.rollout import blind_policy
from ronda.bots.roundvalue import FEATURES, RoundValue, features, shipped
from ronda.bots.search import WON, SearchBot
from ronda.bots.winprob import expected_round_end, with_scores
from ronda.engine.cards import RANKS
from ronda.engine.game import DECLARE, PLAY, Game
from ronda.engine.rules import Rules

RULES = Rules(players=2)


def _index(rank: int) -> int:
    return RANKS.index(rank)


def _lowest(state: object, draw: object) -> int:
    hand = state.hands[state.seat]  # type: ignore[attr-defined]
    return int((hand & -hand).bit_length() - 1)


def test_the_model_reads_both_hands_the_stock_and_the_table_of_an_explicit_deal() -> None:
    """Seat 0 holds a ronda of 1s and a 5, seat 1 a 3, a 6 and a 10, the table 2 4 7 11: the inputs count
    each hand's ranks, what the stock still holds of every rank (four less those seen), the table's ranks,
    who plays first and deals; seen from seat 1 the two hands change places."""
    game = start(RULES, deals=[{0: "1o 1c 5e", 1: "3e 6e 10b"}], table="2o 4c 7e 11b", dealer=1)
    declare_truthfully(game)
    assert game.phase == PLAY and game.scores == [1, 0]  # the ronda is scored at once (R8.5)
    dense = [0.0] * FEATURES
    for index, value in features(game, 0):
        dense[index] = value
    mine = {_index(1): 2.0, _index(5): 1.0}
    theirs = {_index(3): 1.0, _index(6): 1.0, _index(10): 1.0}
    table = {_index(r) for r in (2, 4, 7, 11)}
    assert dense[0:10] == [mine.get(r, 0.0) for r in range(10)]
    assert dense[10:20] == [theirs.get(r, 0.0) for r in range(10)]
    stock = [4.0 - mine.get(r, 0.0) - theirs.get(r, 0.0) - (r in table) for r in range(10)]
    assert dense[20:30] == stock and sum(stock) == 30
    assert dense[30:40] == [1.0 if r in table else 0.0 for r in range(10)]
    assert dense[40:50] == [0.0] * 10  # nothing dropped yet: no caida waiting
    assert dense[50:52] == [1.0, 0.0]  # seat 0 plays first; seat 1 deals
    assert dense[52:56] == [0.0] * 4  # no pile, no capture yet
    assert dense[56] == 30 / 40
    other = dict(features(game, 1))
    assert {i - 10: v for i, v in other.items() if 10 <= i < 20} == mine
    assert 50 not in other and other[51] == 1.0


def test_the_pure_python_model_is_the_fitted_network() -> None:
    """The shipped weights run by the bots' pure-Python inference give what the same network gives in numpy
    (the training extra's), position after position, and again from its memory of positions seen."""
    np = pytest.importorskip("numpy")
    data = json.loads(shipped_text())
    layers = [(np.array(layer["w"]), np.array(layer["b"])) for layer in data["layers"]]
    model = RoundValue(data["layers"])
    rng = random.Random(5)
    game = Game(RULES, seed=5)
    checked = 0
    while checked < 40:
        if game.phase == DECLARE:
            declare_truthfully(game)
        if game.phase != PLAY:
            game = Game(RULES, seed=rng.randrange(10**6))
            continue
        for side in (0, 1):
            x = np.zeros(FEATURES)
            for index, value in features(game, side):
                x[index] = value
            for i, (w, b) in enumerate(layers):
                x = w @ x + b
                if i < len(layers) - 1:
                    x = np.maximum(x, 0.0)
            expected = (max(x[0], 0.0), max(x[1], 0.0))
            assert model.future(game, side) == pytest.approx(expected, abs=1e-9)
            assert model.future(game, side) == model.future(game, side)
            checked += 1
        game.playout(rng, deals=1, policy=blind_policy(3), truthful=True)


def shipped_text() -> str:
    from importlib import resources

    return resources.files("ronda.bots").joinpath("round_value.json").read_text(encoding="utf-8")


def test_the_model_predicts_fresh_self_play_better_than_the_hand_set_estimate() -> None:
    """On 150 rounds of honest self-play it never saw (seed 777), the margin the model predicts from each
    deal's start is closer to the margin the round went on to make than the hand-set estimate of before
    (the points so far, the table's mean, the card count of the piles with the rest shared)."""
    policy = blind_policy(3, 0.7, explore=0.05)
    rng = random.Random(777)
    model = shipped()
    errors = {"model": 0.0, "hand-set": 0.0}
    for n in range(150):
        game = Game(Rules(players=2, target=10_000), seed=777_000 + n)
        starts = []
        first = game.round
        while game.round == first:
            declare_truthfully(game)
            mine, theirs = model.future(game, 0)
            guess = expected_round_end(game)
            scores = game.scores
            starts.append((scores[0] - scores[1], mine - theirs, guess[0] - guess[1] - (scores[0] - scores[1])))
            game.playout(rng, deals=1, policy=policy, truthful=True)
        final = game.scores[0] - game.scores[1]
        for now, predicted, estimated in starts:
            errors["model"] += (final - now - predicted) ** 2
            errors["hand-set"] += (final - now - estimated) ** 2
    assert errors["model"] < 0.95 * errors["hand-set"], errors


def test_a_deal_whose_declaration_wins_the_game_is_a_game_won_not_a_guess() -> None:
    """At 40 points, a rollout stopped as the next deal is dealt, seat 0 holding a ronda: declared (truthfully,
    as in every rollout) it wins the game at once (R8.5, R9.3), so the leaf is a game won, whatever the model."""
    game = start(RULES, deals=[{}, {0: "5o 5c 7e", 1: "2b 6b 11o"}], dealer=1)
    declare_truthfully(game)
    game = with_scores(game, [40, 0])
    game.playout(random.Random(0), deals=1, policy=_lowest, truthful=True)
    assert game.phase == DECLARE and game.deal == 1  # the second deal (counted from 0)
    bot = make_bot("expert:horizon=deal", seed=1)
    assert isinstance(bot, SearchBot)
    assert bot.leaf(game, [40, 0], 0) == WON
    assert bot.leaf(game, [40, 0], 1) == 0.0


def test_the_horizon_setting_names_what_it_takes() -> None:
    settings = search_settings("expert:horizon=deal", "horizon=deal")
    assert settings["deals"] == 1 and settings["round_value"] is shipped()
    assert search_settings("expert:horizon=round", "horizon=round") == {}
    with pytest.raises(ValueError, match=r"horizon in bot 'hard:horizon=2' is round .* or deal .*not '2'"):
        search_settings("hard:horizon=2", "horizon=2")


def test_a_searching_bot_stops_its_rollouts_at_the_deals_end_and_asks_the_model() -> None:
    """``expert:horizon=deal`` values the rest of the round by the model (its rollouts end with the deal), and
    decides the same for the same seed: the model is a pure function of the guessed position."""
    game = start(RULES, deals=[{0: "1o 4c 5e", 1: "3e 6e 10b"}], table="2o 4o 7e 11b", dealer=1)
    declare_truthfully(game)
    model = shipped()
    asked = []
    original = model.future

    def counting(position: Game, side: int) -> tuple[float, float]:
        asked.append(position.search_state().cards_left)
        return original(position, side)

    model.future = counting  # type: ignore[method-assign,assignment]
    try:
        first = make_bot("expert:horizon=deal", seed=3).choose(game.view(0), game.legal_actions())
    finally:
        del model.future
    again = make_bot("expert:horizon=deal", seed=3).choose(game.view(0), game.legal_actions())
    assert first == again
    assert asked and set(asked) == {6}  # every leaf at a deal's start: both hands full (3 + 3)


def test_only_a_deals_start_is_valued_by_the_model() -> None:
    """The model knows positions at a deal's start (both hands full): there the leaf is its estimate and differs
    from the hand-set one; one card later it is the hand-set estimate, exactly as without the model."""
    game = start(RULES, deals=[{0: "1o 4c 5e", 1: "3e 6e 10b"}], table="2o 4o 7e 11b", dealer=1)
    declare_truthfully(game)
    learned, hand_set = make_bot("expert:horizon=deal", seed=1), make_bot("expert", seed=1)
    assert isinstance(learned, SearchBot) and isinstance(hand_set, SearchBot)
    assert learned.leaf(game, [0, 0], 0) != hand_set.leaf(game, [0, 0], 0)
    game.apply(game.legal_actions()[0])
    assert game.phase == PLAY and game.search_state().cards_left == 5
    assert learned.leaf(game, [0, 0], 0) == hand_set.leaf(game, [0, 0], 0)
