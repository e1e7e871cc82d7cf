"""The shared encoding: action ids, an observation read back piece by piece, and no hidden card in any of it (R11)."""

from __future__ import annotations

from extras import require

require("research")

import random

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from decks import run, start
from ronda.adapters.encoding import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    PIECES,
    Encoder,
    action_id,
    action_mask,
    id_action,
    observation_pieces,
    observe,
)
from ronda.engine.actions import Challenge, action_from_record
from ronda.engine.cards import CardSet, parse_card
from ronda.engine.game import OVER, Game
from ronda.engine.rules import Rules


def decode(vector: np.ndarray) -> dict[str, np.ndarray]:
    """The observation cut into its named pieces."""
    return {name: vector[offset : offset + size] for name, offset, size in observation_pieces()}


def cards(piece: np.ndarray) -> CardSet:
    return CardSet(sum(1 << int(card) for card in np.flatnonzero(piece)))


def test_every_action_id_round_trips_and_bad_ids_are_refused() -> None:
    from ronda.engine.errors import IllegalActionError

    assert [action_id(id_action(i)) for i in range(NUM_ACTIONS)] == list(range(NUM_ACTIONS))
    for bad in (-1, 48, 3.5, "5o", True, None, np.array(3.0), np.array(True), np.array([3]), np.array(48)):
        with pytest.raises(IllegalActionError, match="actions are integers from 0 to 47"):
            id_action(bad)
    assert id_action(np.int64(45)) == Challenge(1)
    # what Stable-Baselines3's model.predict(observation) returns for one observation
    assert id_action(np.array(45)) == id_action(np.array(45, dtype=np.uint8)) == Challenge(1)


def test_an_observation_read_back_piece_by_piece_is_the_seats_view() -> None:
    """Three players: a bluffed tringa challenged and shown, a caida raised into an open chain (R5.3); seat 1 acts."""
    rules = Rules(players=3)
    game = start(
        rules,
        [{0: "5o 5c 2e", 1: "2o 3c 7e", 2: "2c 10c 12e"}],
        table="1b 4o 7o 11c",
        dealer=2,
    )
    run(game, "declare ronda; declare tringa; declare none; challenge 1; play 5o; play 2o; play 2c; play 2e")
    view = game.view(1)
    assert view.chain is not None and view.chain.count == 3 and view.turn == 1
    piece = decode(observe(view))
    slot = {1: 0, 2: 1, 0: 2}  # seat -> seat slot, relative to seat 1
    side_slot = slot  # three players: a side per seat

    assert cards(piece["hand"]) == CardSet.parse("3c 7e") == view.hand
    assert cards(piece["table"]) == view.table == CardSet.parse("1b 4o 7o 11c 5o")
    assert cards(piece["opening_table"]) == CardSet.parse("1b 4o 7o 11c")
    assert cards(piece["unseen"]) == view.unseen()
    played = {0: "5o 2e", 1: "2o", 2: "2c"}
    for seat, text in played.items():
        assert cards(piece["round_plays"][40 * slot[seat] : 40 * slot[seat] + 40]) == CardSet.parse(text)
        assert cards(piece["deal_plays"][40 * slot[seat] : 40 * slot[seat] + 40]) == CardSet.parse(text)
    assert cards(piece["shown"][0:40]) == CardSet.parse("2o 3c 7e")  # seat 1's own bluff, shown by the challenge
    assert not piece["shown"][40:].any()
    kinds = ["not yet", "none", "ronda", "tringa", "double_ronda"]
    declared = {
        seat: kinds[int(np.argmax(piece["declarations"][5 * slot[seat] : 5 * slot[seat] + 5]))] for seat in slot
    }
    assert declared == {0: "ronda", 1: "tringa", 2: "none"}
    assert piece["exposed"].tolist() == [1, 0, 0, 0]
    assert piece["my_combination"].tolist() == [1, 0, 0, 0]  # 2o 3c 7e: no combination, whatever it declared
    assert piece["turn"].tolist() == [1, 0, 0, 0]
    assert piece["dealer"].tolist() == [0, 1, 0, 0]  # seat 2 deals: one seat after seat 1
    assert piece["players"].tolist() == [0, 1, 0]
    assert piece["phase"].tolist() == [0, 1, 0, 0]
    assert piece["challenged"].tolist() == [0]
    assert piece["last_capture_side"].tolist() == [0, 0, 1]  # seat 0 raised last
    assert cards(piece["last_drop"]) == CardSet()
    assert cards(piece["chain_cards"]) == CardSet.parse("2o 2c 2e")
    assert piece["chain_side"].tolist() == [0, 0, 1]
    assert np.flatnonzero(piece["chain_rank"]).tolist() == [1]  # the 2s
    assert piece["chain_count"].tolist() == [0, 1, 0]  # three 2s
    assert piece["deal"].tolist() == [1, 0, 0, 0, 0, 0] and piece["last_deal"].tolist() == [0]
    assert not piece["winner"].any() and not piece["variants"].any()
    assert piece["hand_sizes"].tolist() == [0.5, 0.5, 0.25, 0.0]
    for side in range(3):
        assert piece["pile_sizes"][side_slot[side]] == pytest.approx(view.pile_sizes[side] / 40)
        assert piece["scores"][side_slot[side]] == pytest.approx(view.scores[side] / 41)
        assert piece["settlement_given"][side_slot[side]] == pytest.approx(view.settlement_given[side] / 20)
    # the exact points: seat 1's false tringa pays 5 to sides 0 and 2 (R8.6), seat 0's ronda is then alone and
    # scored (R8.5), the caida pays side 2 one point (R5.1), the raise pays side 0 five (R5.3)
    assert view.scores == (5 + 1 + 5, 0, 5 + 1)
    assert piece["stock"][0] == pytest.approx(view.stock / 40) and view.stock == 40 - 4 - 9
    assert piece["target"][0] == pytest.approx(0.41)
    assert not piece["debts"].any() and piece["round"][0] == 0.0
    ranks = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
    assert piece["hand_ranks"].tolist() == [0.25 if r in (3, 7) else 0.0 for r in ranks]
    assert piece["table_ranks"].tolist() == [1.0 if r in (1, 4, 5, 7, 11) else 0.0 for r in ranks]
    unseen = view.unseen()
    assert piece["unseen_ranks"].tolist() == [sum(1 for c in unseen if c >> 2 == i) / 4 for i in range(10)]
    assert decode(observe(game.view(0)))["my_combination"].tolist() == [0, 1, 0, 0]  # 5o 5c 2e, the 2e played


def test_the_variant_flags_and_debts_tell_rule_sets_apart() -> None:
    rules = Rules(players=2, transfer_scoring=True, dealer_duty=True, chain_points=(1, 6, 15), target=25)
    piece = decode(observe(Game(rules, seed=1).view(0)))
    assert piece["variants"].tolist() == [0, 0, 1, 0, 1, 0, 1]
    assert piece["target"][0] == pytest.approx(0.25)


def test_every_piece_is_named_and_the_pieces_fill_the_vector() -> None:
    assert sum(size for _, size, _ in PIECES) == OBSERVATION_SIZE
    assert len({name for name, _, _ in PIECES}) == len(PIECES)


def _random_game(seed: int, steps: int, rules: Rules) -> Game:
    """A game after up to ``steps`` random decisions, with bluffs and a few challenges; never a won one."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    for _ in range(steps):
        legal = game.legal_actions()
        challenges = [a for a in legal if isinstance(a, Challenge)]
        action = rng.choice(challenges) if challenges and rng.random() < 0.15 else rng.choice(legal)
        trial = game.copy()
        trial.apply(action)
        if trial.phase != OVER:
            game = trial
    return game


rules_st = st.builds(
    lambda players, flags, four: Rules(
        players=players,
        ace_high=flags[0],
        dealer_duty=flags[1],
        transfer_scoring=flags[2],
        chain_points=(1, 6, 15) if flags[3] else (1, 5, 10),
        four_card_hands=four and players != 3,
        target=25,
    ),
    st.sampled_from([2, 3, 4]),
    st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 10_000), steps=st.integers(0, 90), pick=st.integers(0, 1000))
@example(rules=Rules(players=2, four_card_hands=True, target=25), seed=81, steps=64, pick=0)  # the twin ends sooner
def test_R11_swapping_an_unseen_card_of_another_hand_with_a_stock_card_changes_no_observation_or_mask(
    rules: Rules, seed: int, steps: int, pick: int
) -> None:
    """Two deals that differ only where the seat to act cannot see look the same to it: vector and mask.

    (Not with ``auto_declare``: there a declaration is the hand's combination, so a swap may be seen by rule.
    Nor when the swap changed a public event: a hand that held a combination declared otherwise pays the
    undeclared penalty (R8.7) when its cards are played, so a ronda made a tringa by the swap pays it later,
    and every seat sees that; those points may even end the twin's game before the moves run out.)
    """
    game = _random_game(seed, steps, rules)
    seat = game.turn
    view = game.view(seat)
    if game.phase == OVER or view.stock == 0:
        return
    others = [s for s in range(rules.players) if s != seat and view.shown[s] is None and game.hand(s)]
    if not others:
        return
    holder = others[pick % len(others)]
    hidden = list(game.hand(holder))
    stock = list(CardSet(view.unseen().mask & ~sum(game.hand(s).mask for s in range(rules.players))))
    swap = {hidden[pick % len(hidden)], stock[pick % len(stock)]}
    record = game.to_record()
    decks = [[parse_card(c) for c in r["deck"]] for r in record["rounds"]]
    a, b = swap
    decks[-1] = [b if c == a else a if c == b else c for c in decks[-1]]
    twin = Game(rules, decks=decks, dealer=record.get("dealer", rules.players - 1))
    for entry in (r["actions"] for r in record["rounds"]):
        for action in entry:
            _, parsed = action_from_record(action)
            assume(twin.phase != OVER)  # the penalty above reached the target: the twin's game is another
            twin.apply(parsed)
    assert twin.hand(holder) != game.hand(holder)
    assume([event.to_json() for event in twin.events] == [event.to_json() for event in game.events])
    assert np.array_equal(observe(twin.view(seat)), observe(view))
    assert np.array_equal(action_mask(twin.legal_actions()), action_mask(game.legal_actions()))


@settings(max_examples=40, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_every_observation_lies_in_the_unit_box(rules: Rules, seed: int, steps: int) -> None:
    game = _random_game(seed, steps, rules)
    for seat in range(rules.players):
        vector = observe(game.view(seat))
        assert vector.dtype == np.float32 and vector.shape == (OBSERVATION_SIZE,)
        assert vector.min() >= 0.0 and vector.max() <= 1.0


def test_the_encoder_of_an_environment_gives_observe_s_vector_through_several_games() -> None:
    encoder = Encoder()
    rng = random.Random(3)
    for seed in range(3):
        game = Game(Rules(players=3), seed=seed)
        encoder.reset()
        for _ in range(160):
            if game.phase == OVER:
                break
            for seat in range(3):
                view = game.view(seat)
                assert np.array_equal(encoder.observe(view), observe(view))
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


every_variant_st = st.builds(
    lambda players, flags, target: Rules(
        players=players,
        auto_declare=flags[0],
        ace_high=flags[1],
        chain_points=(1, 6, 15) if flags[2] else (1, 5, 10),
        undeclared_ronda_penalty=5 if flags[3] else 1,
        dealer_duty=flags[4],
        four_card_hands=flags[5] and players != 3,
        transfer_scoring=flags[6],
        target=target,
    ),
    st.sampled_from([2, 3, 4]),
    st.tuples(*[st.booleans()] * 7),
    st.sampled_from([11, 21, 41]),
)


@settings(max_examples=30, deadline=None)
@given(rules=every_variant_st, seed=st.integers(0, 10_000), skip=st.floats(0.0, 0.6))
def test_the_encoder_fed_view_masks_gives_observe_s_vector_at_every_step_through_rounds_and_games(
    rules: Rules, seed: int, skip: float
) -> None:
    """The environments' fast path (``Encoder`` on ``Game.view_masks``) against the plain ``observe(view)``.

    Two whole games (small targets, so both end) through one encoder with a
    reset between them, as an environment does: every deal and round, bluffs,
    challenges that fail and succeed (R8.8), penalties, debts with
    transfer_scoring, the hands shown before a win (R9.5). At each step some
    seats look and some do not, in a random order, so the encoder also meets
    positions several steps apart, and positions of a new deal or round.
    """
    rng = random.Random(seed)
    encoder = Encoder()
    for game_index in range(2):
        game = Game(rules, seed=seed + game_index)
        encoder.reset()
        while True:
            for seat in rng.sample(range(rules.players), rules.players):
                if rng.random() < skip:
                    continue
                masks = game.view_masks(seat)
                view = game.view(seat)
                assert masks == view.masks()
                assert np.array_equal(encoder.observe(masks), observe(view)), (game_index, seat, game.actions_taken)
            if game.phase == OVER:
                break
            legal = game.legal_actions()
            challenges = [a for a in legal if isinstance(a, Challenge)]
            game.apply(rng.choice(challenges) if challenges and rng.random() < 0.2 else rng.choice(legal))


@settings(max_examples=30, deadline=None)
@given(rules=every_variant_st, seed=st.integers(0, 10_000))
def test_every_count_and_announcement_of_every_observation_is_the_views_in_the_observers_slots(
    rules: Rules, seed: int
) -> None:
    """Counts and announcements read back against the view at every step of a whole game, in every variant.

    The encoder keeps packed counts and announcement bits in memos shared by
    every game of the same shape; reading them back here, rule set after rule set in one process,
    shows no memo hands one table's counts to another.
    """
    rng = random.Random(seed)
    encoder = Encoder()
    game = Game(rules, seed=seed)
    n, sides = rules.players, rules.sides
    while game.phase != OVER:
        seat = game.turn
        view = game.view(seat)
        piece = decode(encoder.observe(game.view_masks(seat)))
        my_side = rules.side_of(seat)
        slot = [(other - seat) % n for other in range(n)]
        side_slot = [(side - my_side) % sides for side in range(sides)]
        hand_sizes = [0.0] * 4
        for other in range(n):
            hand_sizes[slot[other]] = view.hand_sizes[other] / 4
        assert piece["hand_sizes"].tolist() == pytest.approx(hand_sizes)
        expected = {name: [0.0] * 3 for name in ("pile_sizes", "scores", "settlement_given")}
        debts = [0.0] * 9
        for side in range(sides):
            expected["pile_sizes"][side_slot[side]] = view.pile_sizes[side] / 40
            expected["scores"][side_slot[side]] = min(view.scores[side] / rules.target, 1.0)
            expected["settlement_given"][side_slot[side]] = min(view.settlement_given[side] / 20, 1.0)
            for payee in range(sides):
                debts[3 * side_slot[side] + side_slot[payee]] = min(view.debts[side][payee] / 40, 1.0)
        for name, values in expected.items():
            assert piece[name].tolist() == pytest.approx(values), name
        assert piece["debts"].tolist() == pytest.approx(debts)
        assert piece["stock"][0] == pytest.approx(view.stock / 40)
        assert piece["target"][0] == pytest.approx(min(rules.target / 100, 1.0))
        assert piece["round"][0] == pytest.approx(min(view.round, 20) / 20)
        kinds = [None, "none", "ronda", "tringa", "double_ronda"]
        for other in range(n):
            at = slot[other]
            assert kinds[int(np.argmax(piece["declarations"][5 * at : 5 * at + 5]))] == view.declarations[other]
            assert piece["exposed"][at] == view.exposed[other]
            shown = view.shown[other]
            assert cards(piece["shown"][40 * at : 40 * at + 40]) == (CardSet() if shown is None else shown)
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def test_an_action_mask_marks_exactly_the_legal_actions() -> None:
    game = start(Rules(players=2), [{0: "5o 5c 2e", 1: "2o 3c 7e"}], table="1b 4o 7o 11c", dealer=1)
    assert action_mask(game.legal_actions()).nonzero()[0].tolist() == [40, 41, 42]
    run(game, "declare none; declare ronda")
    mask = action_mask(game.legal_actions())
    assert mask.nonzero()[0].tolist() == sorted([parse_card(c) for c in ("5o", "5c", "2e")] + [45])
    mask[:] = 0  # each mask is the caller's own: changing one changes no other
    assert action_mask(game.legal_actions()).nonzero()[0].tolist() == sorted(
        [parse_card(c) for c in ("5o", "5c", "2e")] + [45]
    )
