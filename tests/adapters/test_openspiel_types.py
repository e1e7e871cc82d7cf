"""OpenSpiel: every observation type honoured (R11 for each), and episodes that begin anywhere."""

from __future__ import annotations

from extras import require

require("research")

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import ronda.adapters.openspiel  # noqa: F401 - registers python_ronda
from ronda.adapters.encoding import observation_pieces
from ronda.engine.game import Game
from ronda.engine.rules import Rules

PRIVATE = pyspiel.PrivateInfoType
TYPES = [
    (public, recall, private)
    for public in (True, False)
    for recall in (False, True)
    for private in (PRIVATE.NONE, PRIVATE.SINGLE_PLAYER, PRIVATE.ALL_PLAYERS)
    if public or private != PRIVATE.NONE
]


def _name(kind: tuple) -> str:
    public, recall, private = kind
    return f"{'public' if public else 'nopublic'}-{'recall' if recall else 'now'}-{private.name}"


def _observer(game: pyspiel.Game, kind: tuple):  # type: ignore[no-untyped-def]
    public, recall, private = kind
    return make_observation(
        game, pyspiel.IIGObservationType(public_info=public, perfect_recall=recall, private_info=private)
    )


def _seen(observer, state: pyspiel.State, player: int) -> tuple[list[float], str]:  # type: ignore[no-untyped-def]
    observer.set_from(state, player)
    return observer.tensor.tolist(), observer.string_from(state, player)


def _play(game: pyspiel.Game, seed: int, decisions: int, state: pyspiel.State | None = None) -> pyspiel.State:
    rng = random.Random(seed)
    state = state or game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            made += 1
    return state


def _twins(game: pyspiel.Game) -> list[tuple[pyspiel.State, pyspiel.State, int]]:
    """Positions, and the same ones with a card of seat ``opponent``'s hidden hand swapped with a stock card."""
    pairs = []
    for seed in range(12):
        state = _play(game, seed, decisions=4 + 2 * seed)
        if state.is_terminal() or state.is_chance_node():
            continue
        engine = state.engine
        view = engine.view(0)
        hidden = [s for s in range(1, game.num_players()) if view.shown[s] is None and engine.hand(s)]
        if not hidden:
            continue
        opponent = hidden[0]
        in_hands = set().union(*(set(engine.hand(s)) for s in range(game.num_players())))
        stock = [c for c in view.unseen() if c not in in_hands]
        if not stock:
            continue
        a, b = next(iter(engine.hand(opponent))), stock[seed % len(stock)]
        twin = game.new_initial_state()
        for entry in state.full_history():
            action = entry.action
            if entry.player == pyspiel.PlayerId.CHANCE:
                action = b if action == a else a if action == b else action
            twin.apply_action(action)
        pairs.append((state, twin, opponent))
    assert len(pairs) >= 6
    return pairs


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", TYPES, ids=_name)
def test_R11_each_observation_type_holds_what_it_names_and_nothing_more(kind: tuple, players: int) -> None:
    """Public pieces are the same for every seat; a player's pieces never move with another seat's hidden cards."""
    public, _, private = kind
    game = pyspiel.load_game("python_ronda", {"players": players})
    observer = _observer(game, kind)
    for state, twin, opponent in _twins(game):
        seen = [_seen(observer, state, p) for p in range(players)]
        if private == PRIVATE.ALL_PLAYERS:
            # every hand is in it, for every player alike: the swapped card shows
            assert all(s == seen[0] for s in seen)
            assert _seen(observer, twin, 0) != seen[0]
            continue
        # what player 0 gets does not move when another seat's hidden card is swapped with the stock
        assert _seen(observer, twin, 0) == seen[0]
        if private == PRIVATE.NONE:
            assert all(s == seen[0] for s in seen), "a public observation must be the same for every seat"
        else:
            assert _seen(observer, twin, opponent) != seen[opponent]  # the opponent's own pieces hold its hand
            if not public:
                assert any(s != seen[0] for s in seen)


@pytest.mark.parametrize("recall", [False, True])
def test_a_private_only_observation_holds_nothing_public(recall: bool) -> None:
    """Without public_info the player's pieces stay put while the others play, as long as its own hand does."""
    game = pyspiel.load_game("python_ronda", {"players": 2})
    observer = _observer(game, (False, recall, PRIVATE.SINGLE_PLAYER))
    state = _play(game, 7, 0)
    rng = random.Random(7)
    compared = 0
    while not state.is_terminal() and compared < 10:
        if state.is_chance_node() or state.current_player() == 0:
            state = _play(game, rng.randrange(1000), 1, state)
            continue
        before, hand = _seen(observer, state, 0), (state.engine.hand(0), state.engine.dealt_hand(0), state.engine.deal)
        state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and (state.engine.hand(0), state.engine.dealt_hand(0), state.engine.deal) == hand:
            assert _seen(observer, state, 0) == before
            compared += 1
    assert compared == 10


def test_without_a_type_the_observation_is_the_plain_one_and_the_information_state_needs_recall() -> None:
    game = pyspiel.load_game("python_ronda", {"players": 3})
    state = _play(game, 5, 11)
    plain = make_observation(game)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for player in range(3):
        plain.set_from(state, player)
        recall.set_from(state, player)
        assert plain.tensor.tolist() == state.observation_tensor(player)
        assert plain.string_from(state, player) == state.observation_string(player)
        assert recall.tensor.tolist() == state.information_state_tensor(player)
        assert recall.string_from(state, player) == state.information_state_string(player)


def test_the_public_observation_is_the_seat_s_observation_less_its_hand() -> None:
    """Seat 0's frame and no hand: where seat 0's own cards are not, the two agree piece by piece."""
    game = pyspiel.load_game("python_ronda", {"players": 2})
    state = _play(game, 2, 9)
    public = _observer(game, (True, False, PRIVATE.NONE))
    public.set_from(state, 1)
    mine = np.array(state.observation_tensor(0))
    pieces = {name: (offset, size) for name, offset, size in observation_pieces()}
    for name in ("table", "round_plays", "declarations", "scores", "turn", "dealer", "stock"):
        offset, size = pieces[name]
        assert public.tensor[offset : offset + size].tolist() == mine[offset : offset + size].tolist(), name
    offset, size = pieces["hand"]
    assert not public.tensor[offset : offset + size].any() and mine[offset : offset + size].any()


def test_public_recall_keeps_the_order_of_play_and_the_public_observation_does_not() -> None:
    game = pyspiel.load_game("python_ronda", {"auto_declare": True})
    dealt = [4, 21, 38, 5, 22, 39, 0, 13, 26, 33]
    deck = [*dealt, *[c for c in range(40) if c not in dealt]]
    states = []
    for order in ((4, 5, 21, 22), (21, 22, 4, 5)):
        state = game.new_initial_state()
        for action in (*deck, *order):
            state.apply_action(action)
        states.append(state)
    now, recall = _observer(game, (True, False, PRIVATE.NONE)), _observer(game, (True, True, PRIVATE.NONE))
    assert _seen(now, states[0], 0)[0] == _seen(now, states[1], 0)[0]  # the tensor holds no order within a deal
    first, second = _seen(recall, states[0], 0), _seen(recall, states[1], 0)
    assert first[0] != second[0] and first[1] != second[1]


# ---------------------------------------------------------------- episodes that begin anywhere


def test_the_start_parameters_survive_the_game_string_pickling_and_serialization() -> None:
    game = pyspiel.load_game("python_ronda", {"scores": "36,30", "dealer": 0, "first_round": 4})
    assert str(game) == "python_ronda(dealer=0,first_round=4,scores=36_30)"
    assert str(pyspiel.load_game(str(game))) == str(game) == str(pickle.loads(pickle.dumps(game)))
    state = _play(game, 1, 6)
    assert state.engine.round == 4 and state.engine.dealer == 0
    again = pickle.loads(pickle.dumps(state))
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(restored) == str(state)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_R9_3_a_round_begun_at_36_30_pays_the_game_s_result_when_a_side_reaches_the_target() -> None:
    game = pyspiel.load_game("python_ronda", {"scores": "36_30", "reward": "round"})
    finished = 0
    for seed in range(6):
        state = _play(game, seed, 1000)
        assert state.is_terminal()
        engine = state.engine
        if engine.winner is not None:
            finished += 1
            assert state.returns()[engine.winner] == 41.0
        else:
            assert state.returns()[0] == (engine.scores[0] - 36) - (engine.scores[1] - 30)
    assert finished >= 3  # 5 points from the target, most rounds decide the game


def test_a_state_begins_at_given_scores_and_survives_pickling() -> None:
    game = pyspiel.load_game("python_ronda", {"players": 3})
    state = _play(game, 3, 2, game.new_initial_state_at([40, 12, 0], dealer=1, round=7))
    assert (state.engine.scores, state.engine.dealer, state.engine.round) == ([40, 12, 0], 1, 7)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.history() == state.history() and str(restored) == str(state)
    with pytest.raises(pyspiel.SpielError, match="side 0's score must be a whole number from 0 to 40"):
        game.new_initial_state_at([41, 0, 0])


def test_a_state_from_a_record_is_the_real_game_s_position() -> None:
    rules = Rules(players=2)
    played = Game(rules, seed=11)
    rng = random.Random(2)
    positions = []
    while played.round < 2 and played.phase != "over":
        positions.append((played.public_view(), played.view(played.turn)))
        legal = played.legal_actions()
        played.apply(legal[rng.randrange(len(legal))])
    record = played.to_record()
    game = pyspiel.load_game("python_ronda")
    for decision in (0, 17, len(positions) - 1):
        state = game.state_from_record(record, decision)
        public, view = positions[decision]
        assert state.engine.public_view() == public and state.current_player() == view.seat
        assert state.engine.view(view.seat) == view
    with pytest.raises(pyspiel.SpielError, match="there is no decision 5000"):
        game.state_from_record(record, 5000)
    with pytest.raises(pyspiel.SpielError, match="the record is played under"):
        pyspiel.load_game("python_ronda(players=3)").state_from_record(record, 3)


def test_scores_drawn_by_chance_are_uniform_below_the_target_and_known_to_every_player() -> None:
    game = pyspiel.load_game("python_ronda(scores=uniform,players=3,target=21)")
    assert str(pyspiel.load_game(str(game))) == str(game)
    state = game.new_initial_state()
    for side in range(3):
        assert state.chance_outcomes() == [(points, 1 / 21) for points in range(21)]
        state.apply_action([20, 0, 13][side])
    twin = game.new_initial_state()
    for points in (20, 1, 13):
        twin.apply_action(points)
    rng = random.Random(4)
    while state.is_chance_node():
        card = rng.choice(state.chance_outcomes())[0]
        state.apply_action(card)
        twin.apply_action(card)
    assert state.engine.scores == [20, 0, 13] and twin.engine.scores == [20, 1, 13]
    for player in range(3):  # the same cards, other scores: every player tells the two apart
        assert state.information_state_string(player) != twin.information_state_string(player)
        assert state.information_state_tensor(player) != twin.information_state_tensor(player)
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(restored) == str(state) and restored.engine.scores == [20, 0, 13]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chances_in_openspiel_pay_the_change_in_the_chance_to_win_within_the_bounds() -> None:
    from ronda.bots.winprob import win_probability

    game = pyspiel.load_game("python_ronda(reward=chances,scores=20_25,dealer=0)")
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    before = win_probability(Rules(players=2), [20, 25], 0)
    for seed in range(4):
        state = _play(game, seed, 1000)
        engine = state.engine
        after = [float(engine.winner == s) for s in range(2)]
        if engine.winner is None:
            after = list(win_probability(Rules(players=2), engine.scores, engine.dealer))
        assert state.returns() == pytest.approx([a - b for a, b in zip(after, before, strict=True)])
