"""The policy-only play features: what each card in hand would do now, priced as ``medium`` prices it."""

from __future__ import annotations

from extras import require

require("research")

from pathlib import Path

import numpy as np
import pytest

from decks import run, start
from ronda.adapters.encoding import OBSERVATION_SIZE, observe
from ronda.adapters.play_features import (
    PLAY_FEATURES,
    PLAY_FEATURES_SIZE,
    PLAY_FEATURES_V2,
    PLAY_FEATURES_V2_SIZE,
    SCALE,
    endgame_values,
    play_features,
    play_features_v2,
)
from ronda.adapters.policy import Policy, PolicyBot, PolicyError
from ronda.bots import make_bot
from ronda.bots.endgame import solve
from ronda.bots.rules_based import judge_play
from ronda.engine.actions import Play
from ronda.engine.cards import parse_card
from ronda.engine.combinations import hand_combination
from ronda.engine.game import OVER, PLAY, Game
from ronda.engine.rules import Rules


def test_in_two_players_each_card_is_worth_what_medium_judges_it_worth_now_less_the_next_seats_best_reply() -> None:
    """value - danger is :func:`judge_play` (R11: both read the seat's view only) on every play of six rounds."""
    checked = 0
    for seed in range(6):
        game = Game(Rules(players=2), seed=seed)
        bots = [make_bot("medium", seed=1), make_bot("medium", seed=2)]
        while game.phase != OVER and game.round == 0:
            view, legal = game.view(game.turn), game.legal_actions()
            features = play_features(observe(view))
            for action in legal:
                if isinstance(action, Play):
                    rank = action.card >> 2
                    judged = judge_play(view, action.card, 0.45, 1.0, True)
                    assert (features[rank] - features[10 + rank]) * SCALE == pytest.approx(judged, abs=1e-4)
                    checked += 1
            game.apply(bots[game.turn].choose(view, legal))
    assert checked > 300


def test_a_dropped_7_that_lets_a_caida_take_the_7_10_11_run_is_more_dangerous_than_a_dropped_1() -> None:
    """Seat 1 holds 4c 7c 1e over 2b 4o 10o 11c: the 4 takes the 4 (2 cards, 0.9); a 7 or a 1 is a drop (R4.3)."""
    game = start(Rules(players=2), [{0: "5o 5c 3e", 1: "4c 7c 1e"}], table="2b 4o 10o 11c", dealer=0)
    run(game, "declare none; declare none")
    features = play_features(observe(game.view(1)))
    four, seven, ace = 3, 6, 0
    assert features[four] * SCALE == pytest.approx(0.9) and features[seven] == 0 and features[ace] == 0
    assert features[10 + seven] > features[10 + ace] > 0  # a 7 on it takes 7 10 11 with the caida; a 1 takes 1 2
    unseen_sevens, unseen, held = 3, 33, 3  # seat 1 sees its 3 cards and the 4 on the table
    chance = 1 - np.prod([(unseen - unseen_sevens - i) / (unseen - i) for i in range(held)])
    assert features[20 + seven] == pytest.approx(chance)
    assert features[10 + seven] * SCALE == pytest.approx(chance * (4 * 0.45 + 1))


def test_a_policy_that_reads_the_play_features_takes_the_capture_and_its_file_says_so(tmp_path: Path) -> None:
    """One linear layer scoring each card by its rank's value feature: it plays the 4 that captures."""
    weights = np.zeros((OBSERVATION_SIZE + PLAY_FEATURES_SIZE, 48), dtype=np.float32)
    for card in range(40):
        weights[OBSERVATION_SIZE + (card >> 2), card] = 10.0
    Policy([(weights, np.zeros(48, dtype=np.float32))], {"features": PLAY_FEATURES}).save(tmp_path / "p.npz")
    policy = Policy.load(tmp_path / "p.npz")
    assert policy.meta["features"] == PLAY_FEATURES
    game = start(Rules(players=2), [{0: "5o 5c 3e", 1: "7c 1e 4c"}], table="2b 4o 10o 11c", dealer=0)
    run(game, "declare none; declare none")
    assert PolicyBot(policy).choose(game.view(1), game.legal_actions()) == Play(parse_card("4c"))


def test_a_policy_asking_for_unknown_features_or_the_wrong_input_size_is_refused_by_name() -> None:
    layer = (np.zeros((OBSERVATION_SIZE, 48), dtype=np.float32), np.zeros(48, dtype=np.float32))
    with pytest.raises(PolicyError, match="unknown features 'psychic'"):
        Policy([layer], {"features": "psychic"})
    with pytest.raises(PolicyError, match=f"maps {OBSERVATION_SIZE + PLAY_FEATURES_SIZE} observation values"):
        Policy([layer], {"features": PLAY_FEATURES})


def test_a_prior_adds_medium_s_judgement_of_each_card_so_a_blank_network_plays_the_card_medium_plays() -> None:
    """Zero layers and ``prior`` 20: the logits are 20 x (value - danger) of each card's rank, so it takes the 4."""
    blank = (np.zeros((OBSERVATION_SIZE + PLAY_FEATURES_SIZE, 48), dtype=np.float32), np.zeros(48, dtype=np.float32))
    game = start(Rules(players=2), [{0: "5o 5c 3e", 1: "7c 1e 4c"}], table="2b 4o 10o 11c", dealer=0)
    run(game, "declare none; declare none")
    view, legal = game.view(1), game.legal_actions()
    assert PolicyBot(Policy([blank], {"features": PLAY_FEATURES})).choose(view, legal) == Play(parse_card("1e"))
    chosen = PolicyBot(Policy([blank], {"features": PLAY_FEATURES, "prior": 20})).choose(view, legal)
    assert chosen == Play(parse_card("4c")) == make_bot("medium", seed=1).choose(view, legal)
    with pytest.raises(PolicyError, match="prior is a number, over the play features"):
        Policy([(blank[0][:OBSERVATION_SIZE], blank[1])], {"prior": 20})


def test_on_the_last_deal_of_two_players_each_card_is_worth_what_the_exact_search_of_the_real_game_finds() -> None:
    """``endgame_values`` (from the observation alone, R11) is the engine's exact solve of the rest of the round.

    On the last deal the unseen cards are the other hand, so the seat's view holds
    everything: each card's worth, caidas, missas, R7.1's table and R7.2's card count,
    is :func:`~ronda.bots.endgame.solve` of the real game after that card (points,
    both sides best). Deals without combinations and a far target: points only.
    """
    checked = 0
    for seed in range(30):
        game = Game(Rules(players=2, target=10_000), seed=seed)
        medium = make_bot("medium", seed=seed)
        while game.phase != OVER and game.round == 0:
            view, legal = game.view(game.turn), game.legal_actions()
            worth = endgame_values(observe(view))
            assert game.phase != PLAY or (worth is not None) == (game.stock == 0)
            plain = all(hand_combination(game.dealt_hand(seat).mask, False) is None for seat in (0, 1))
            if worth is not None and plain and game.phase == PLAY:
                for action in legal:
                    after = game.copy(history=False)
                    after.apply(action)
                    solved = solve(after, view.side, game.scores, 0.0)
                    assert worth[action.card >> 2] == pytest.approx(solved), (seed, view.hand, action)
                    checked += 1
            game.apply(medium.choose(view, legal))
    assert checked > 60
    deal = Game(Rules(players=2), seed=0)
    assert endgame_values(observe(deal.view(deal.turn))) is None  # the first deal: the other hand is not known


def test_a_play_v2_policy_plays_the_last_deal_by_its_exact_worth_and_earlier_deals_by_medium_s_judgement() -> None:
    """Zero layers and a prior: the policy's card is the best by the endgame worth on the last deal (R11: read
    from the observation), by value - danger before."""
    layers = [
        (np.zeros((OBSERVATION_SIZE + PLAY_FEATURES_V2_SIZE, 8), np.float32), np.zeros(8, np.float32)),
        (np.zeros((8, 48), np.float32), np.zeros(48, np.float32)),
    ]
    policy = Policy(layers, {"activation": "relu", "features": PLAY_FEATURES_V2, "prior": 1.0})
    last_deal = 0
    for seed in range(16):
        game = Game(Rules(players=2), seed=seed)
        medium = make_bot("medium", seed=seed)
        while game.phase != OVER and game.round == 0:
            view, legal = game.view(game.turn), game.legal_actions()
            cards = [action for action in legal if isinstance(action, Play)]
            if len(cards) == len(legal) and len({action.card >> 2 for action in cards}) > 1:
                observation = observe(view)
                features = play_features_v2(observation)
                worth = endgame_values(observation)
                judged = features[:10] - features[10:20] if worth is None else np.array(worth) / SCALE
                chosen = PolicyBot(policy).choose(view, legal)
                assert isinstance(chosen, Play)
                assert judged[chosen.card >> 2] == max(judged[a.card >> 2] for a in cards)
                last_deal += worth is not None
            game.apply(medium.choose(view, legal))
    assert last_deal > 5
