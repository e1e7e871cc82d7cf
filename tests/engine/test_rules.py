"""Every rule of RULES.md R1-R9, from explicit decks, with exact events and points.

Each test is named after the rule id it checks. Positions are dealt from
decks written out in the test (``start``: hands per deal and the opening
table; ``tests/decks.py`` fills the rest with cards that form no pair), and
the expected events were worked out by hand from the rule text.
"""

from __future__ import annotations

import random

import pytest

from decks import build_deck, of, run, scores, start
from ronda.engine.actions import Challenge, Declare, Play
from ronda.engine.cards import ALL_CARDS, CardSet, card_name, parse_card
from ronda.engine.combinations import combination_of, hand_combination
from ronda.engine.deck import DeckError, check_deck, shuffled_deck
from ronda.engine.errors import CardError, IllegalActionError, NotYourTurnError
from ronda.engine.game import Game, card_count_points
from ronda.engine.rules import Rules

TWO = Rules(players=2)
THREE = Rules(players=3)
FOUR = Rules(players=4)


def announcement_scores(events):
    return [s for s in scores(events) if s[2] in ("announcement", "false_announcement", "undeclared")]


# --------------------------------------------------------------------------- R1 cards


def test_R1_1_the_pack_is_forty_cards_four_suits_ten_ranks() -> None:
    """R1.1: 40 cards, suits o c e b, ranks 1-7 10 11 12; no 8 or 9."""
    names = CardSet(ALL_CARDS).names()
    assert len(names) == 40 == len(set(names))
    assert {n[:-1] for n in names} == {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}
    assert {n[-1] for n in names} == set("oceb")
    with pytest.raises(CardError):
        parse_card("8o")


def test_R1_1_suits_never_matter_for_play_or_scoring() -> None:
    """R1.1: the same deal with the suits exchanged scores exactly the same points."""
    swap = str.maketrans("oceb", "cobe")

    def played(suits: str.maketrans) -> list:
        deals = [{0: "5o 7c 12e".translate(suits), 1: "5c 6e 1b".translate(suits)}]
        game = start(TWO, deals, table="6o 7e 2b 4c".translate(suits))
        events = run(
            game,
            "declare none; declare none;"
            + "; ".join(f"play {c.translate(suits)}" for c in ["5o", "5c", "7c", "6e", "12e", "1b"]),
        )
        return [(s[0], s[1], s[2]) for s in scores(events)]

    assert played({}) == played(swap)
    assert played({}) == [(1, 1, "caida")]


def test_R1_2_notation_is_rank_then_suit_case_insensitive_printed_lower() -> None:
    """R1.2: '10C' and '10c' are the same card, printed '10c'; bad names are refused."""
    assert parse_card("10C") == parse_card("10c") == parse_card(" 10c ")
    assert card_name(parse_card("12E")) == "12e"
    for bad in ("13o", "5x", "o5", "", "10", "9b"):
        with pytest.raises(CardError):
            parse_card(bad)


def test_R1_3_the_run_goes_from_7_to_10_and_never_wraps() -> None:
    """R1.3: a 7 takes 7 10 11 12 in a run; a 12 on the table does not lead to a 1."""
    game = start(TWO, [{0: "7o 12c 3e", 1: "4b 5b 6b"}], table="7c 10o 11e 1o")
    events = run(game, "declare none; declare none; play 7o")
    assert of(events, "capture") == [
        {"type": "capture", "seat": 0, "card": "7o", "cards": ["7c", "10o", "11e"], "caida": False}
    ]
    game = start(TWO, [{0: "12c 3e 4e", 1: "4b 5b 6b"}], table="12o 1o 2c 7c")
    events = run(game, "declare none; declare none; play 12c")
    assert of(events, "capture")[0]["cards"] == ["12o"]
    assert game.view(0).table == CardSet.parse("1o 2c 7c")


def _rondas_12_against_1(rules: Rules) -> list:
    game = start(rules, [{0: "1o 1c 5e", 1: "12o 12c 6e"}], table="2b 3b 4b 7b")
    return announcement_scores(run(game, "declare ronda; declare ronda; play 1o; play 12o; play 1c; play 12c"))


def test_R1_4_announcement_order_12_high_1_low_and_ace_high() -> None:
    """R1.4: a pair of 12s beats a pair of 1s; with ace_high the 1s beat the 12s."""
    assert _rondas_12_against_1(TWO) == [(1, 2, "announcement", None)]
    assert _rondas_12_against_1(Rules(players=2, ace_high=True)) == [(0, 2, "announcement", None)]


# --------------------------------------------------------------------------- R2 seats and sides


def test_R2_1_seats_play_in_order_after_the_dealer() -> None:
    """R2.1: with 3 players and seat 2 dealing, play goes 0, 1, 2, 0, ..."""
    game = start(THREE, [{0: "1o 2o 3o", 1: "4o 5o 6o", 2: "7o 10o 11o"}], table="1c 3c 5c 7c")
    run(game, "declare none; declare none; declare none")
    order = []
    for _ in range(6):
        order.append(game.turn)
        game.apply(game.legal_actions()[0])
    assert order == [0, 1, 2, 0, 1, 2]
    for bad in (0, 5):
        with pytest.raises(ValueError):
            Rules(players=bad)


def test_R2_2_partners_pool_their_cards_and_score() -> None:
    """R2.2: with 4 players a caida by seat 2 scores for side 0, and its cards go to side 0's pile."""
    deals = [{0: "2o 3o 11o", 1: "5o 6o 7o", 2: "5c 1b 4b", 3: "1e 2e 3e"}]
    game = start(FOUR, deals, table="10c 12c 4c 6c")
    events = run(game, "declare none; declare none; declare none; declare none; play 11o; play 5o; play 5c")
    assert scores(events) == [(0, 1, "caida", 2)]
    assert of(events, "capture") == [{"type": "capture", "seat": 2, "card": "5c", "cards": ["5o", "6c"], "caida": True}]
    view = game.view(1)
    assert view.pile_sizes == (3, 0)
    assert game.rules.side_of(0) == game.rules.side_of(2) == 0 and game.rules.side_of(3) == 1


def test_R2_3_only_opponents_are_paid_a_penalty() -> None:
    """R2.3: seat 0's false ronda is paid to side 1 (seats 1 and 3), once, never to partner seat 2."""
    deals = [{0: "1o 4o 7o", 1: "2c 5c 11c", 2: "3e 6e 12e", 3: "10b 12b 2b"}]
    game = start(FOUR, deals, table="1c 3c 5e 7c")
    events = run(game, "declare ronda; declare none; declare none; declare none")
    events += run(game, "play 1o; play 2c; play 3e; play 10b; play 4o; play 5c; play 6e; play 12b; play 7o")
    assert announcement_scores(events) == [
        (0, 1, "announcement", None),
        (1, 1, "false_announcement", 0),
        (0, -1, "announcement", None),
    ]


# --------------------------------------------------------------------------- R3 rounds and deals


def test_R3_1_a_round_plays_the_whole_pack_in_deals() -> None:
    """R3.1: a round deals all 40 cards (hands and table) and ends with a round_end event."""
    game = Game(TWO, seed=8)
    rng = random.Random(1)
    while game.round == 0:
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Challenge)]))
    deals = [e for e in game.events if e.TYPE == "deal" and e.round == 0]
    dealt = sum(e.hand_size * 2 for e in deals) + len(deals[0].table)
    assert dealt == 40
    ends = [e for e in game.events if e.TYPE == "round_end"]
    assert len(ends) == 1 or game.finished


def test_R3_2_the_first_dealer_is_the_last_seat_and_the_deal_passes_on() -> None:
    """R3.2: seat n-1 deals first so seat 0 plays first; next round the first player deals."""
    for rules in (TWO, THREE, FOUR):
        game = Game(rules.replace(target=500), seed=3)
        assert game.dealer == rules.players - 1 and game.turn == 0
        game.playout(random.Random(2))
        assert game.dealer == 0 and game.turn == 1 % rules.players


def test_R3_3_batches_of_three_from_the_seat_after_the_dealer_then_four_up() -> None:
    """R3.3: with seat 0 dealing in 3 players, seat 1 gets the first three cards, the dealer the last."""
    deck = [
        parse_card(c)
        for c in build_deck(THREE, [{1: "1o 2o 3o", 2: "4o 5o 6o", 0: "7o 10o 11o"}], table="1c 3c 5c 7c", dealer=0)
    ]
    game = Game(THREE, decks=[deck], dealer=0)
    assert deck[:3] == [parse_card(c) for c in ("1o", "2o", "3o")]
    assert game.hand(1) == CardSet.parse("1o 2o 3o")
    assert game.hand(2) == CardSet.parse("4o 5o 6o")
    assert game.hand(0) == CardSet.parse("7o 10o 11o")
    assert game.view(0).table == CardSet.parse("1c 3c 5c 7c")
    assert game.turn == 1


def test_R3_4_the_opening_table_has_four_ranks_and_no_run_of_four() -> None:
    """R3.4: shuffled decks always turn up four distinct ranks that are not four in a row."""
    rng = random.Random(5)
    for players in (2, 3, 4):
        rules = Rules(players=players)
        for _ in range(300):
            deck = shuffled_deck(rules, rng)
            table = sorted(c >> 2 for c in deck[players * 3 : players * 3 + 4])
            assert len(set(table)) == 4
            assert table[3] - table[0] != 3
            check_deck(deck, rules)


@pytest.mark.parametrize(
    ("table", "problem"), [("5o 5c 1e 10b", "two cards of one rank"), ("6o 7c 10e 11b", "run of four")]
)
def test_R3_4_a_deck_whose_table_breaks_the_rule_is_refused(table: str, problem: str) -> None:
    """R3.4: a pair on the table, or 6 7 10 11, is not a valid opening table."""
    deck = [parse_card(c) for c in build_deck(TWO, [{0: "1o 2o 3o", 1: "1c 2c 3c"}], table="1e 2e 3e 5e")]
    bad = [parse_card(c) for c in table.split()]
    for index, card in enumerate(bad):
        other = deck.index(card)
        deck[6 + index], deck[other] = deck[other], deck[6 + index]
    with pytest.raises(DeckError, match=problem):
        check_deck(deck, TWO)


def test_R3_4_three_in_a_row_is_a_valid_table() -> None:
    """R3.4: only four in a row is refused; 5 6 7 and a 12 are fine."""
    start(TWO, table="5o 6o 7o 12o")


@pytest.mark.parametrize(("rules", "deals"), [(TWO, 6), (THREE, 4), (FOUR, 3)])
def test_R3_5_deals_per_round_and_no_cards_to_the_table_after_the_first(rules: Rules, deals: int) -> None:
    """R3.5: 6 deals with 2 players, 4 with 3, 3 with 4; later deals turn up nothing."""
    game = Game(rules.replace(target=500), seed=9)
    game.playout(random.Random(3))
    round_deals = [e for e in game.events if e.TYPE == "deal" and e.round == 0]
    assert len(round_deals) == deals
    assert all(e.table == () for e in round_deals[1:]) and len(round_deals[0].table) == 4
    assert [e.stock for e in round_deals][-1] == 0


def test_R3_6_only_the_deal_that_empties_the_stock_is_the_last() -> None:
    """R3.6: the last deal empties the stock; the round ends with the dealer's last card."""
    game = Game(THREE.replace(target=500), seed=4)
    game.playout(random.Random(6))
    deals = [e for e in game.events if e.TYPE == "deal" and e.round == 0]
    assert [e.last for e in deals] == [False, False, False, True]
    plays = [
        e
        for e in game.events[: next(i for i, e in enumerate(game.events) if e.TYPE == "round_end")]
        if e.TYPE in ("capture", "drop", "raise")
    ]
    assert plays[-1].seat == 2  # the dealer


# --------------------------------------------------------------------------- R4 turns


def test_R4_1_the_seat_after_the_dealer_plays_first_one_card_from_the_hand() -> None:
    """R4.1: seat 0 plays first with seat 1 dealing; the choices are exactly its cards."""
    game = start(TWO, [{0: "1o 5c 12e", 1: "2c 6e 11o"}], table="3o 4c 7e 10b")
    run(game, "declare none; declare none")
    assert game.turn == 0
    assert sorted(game.legal_actions(), key=str) == [Play(parse_card(c)) for c in ("12e", "1o", "5c")]
    with pytest.raises(IllegalActionError, match="does not hold 2c"):
        game.apply(Play.parse("2c"))
    with pytest.raises(NotYourTurnError):
        game.apply(Play.parse("2c"), seat=1)


def test_R4_2_capture_takes_the_match_and_the_run_above_it() -> None:
    """R4.2: with 6 7 10 12 on the table a 6 takes 6 7 10; the missing 11 leaves the 12."""
    game = start(TWO, [{0: "6c 1b 2b", 1: "3b 4b 5b"}], table="6o 7o 10o 12o")
    events = run(game, "declare none; declare none; play 6c")
    assert of(events, "capture") == [
        {"type": "capture", "seat": 0, "card": "6c", "cards": ["6o", "7o", "10o"], "caida": False}
    ]
    assert game.view(1).table == CardSet.parse("12o")
    assert game.view(1).pile_sizes == (4, 0)


def test_R4_3_a_card_that_matches_nothing_stays_on_the_table() -> None:
    """R4.3: a drop stays face up and can be taken later."""
    game = start(TWO, [{0: "5c 1b 2b", 1: "3b 4b 11b"}], table="6o 7o 10o 12o")
    events = run(game, "declare none; declare none; play 5c")
    assert of(events, "drop") == [{"type": "drop", "seat": 0, "card": "5c"}]
    assert game.view(1).table == CardSet.parse("5c 6o 7o 10o 12o")


def test_R4_4_every_card_played_and_its_seat_are_public() -> None:
    """R4.4: the other seat's view lists the play and who made it."""
    game = start(TWO, [{0: "5c 1b 2b", 1: "3b 4b 11b"}], table="6o 7o 10o 12o")
    run(game, "declare none; declare none; play 5c; play 11b")
    assert game.view(1).plays == ((0, parse_card("5c")), (1, parse_card("11b")))
    assert game.view(0).plays == game.view(1).plays


# --------------------------------------------------------------------------- R5 caida and chain


def test_R5_1_taking_the_card_just_dropped_is_a_caida() -> None:
    """R5.1: seat 0 drops 5o, seat 1 takes it with 5c: one point for side 1."""
    game = start(TWO, [{0: "5o 1b 2b", 1: "5c 3b 4b"}], table="6o 7o 10o 12o")
    events = run(game, "declare none; declare none; play 5o; play 5c")
    assert of(events, "capture")[0]["caida"] is True
    assert of(events, "capture")[0]["cards"] == ["5o", "6o", "7o", "10o"]
    assert scores(events) == [(1, 1, "caida", 1)]


def test_R5_2_taking_the_card_just_dropped_only_in_a_run_is_no_caida() -> None:
    """R5.2: 3 on the table, a 4 is dropped, a 3 takes 3 and 4: no point."""
    game = start(TWO, [{0: "4o 1b 2b", 1: "3c 5b 6b"}], table="3o 7o 10o 12o")
    events = run(game, "declare none; declare none; play 4o; play 3c")
    assert of(events, "capture") == [
        {"type": "capture", "seat": 1, "card": "3c", "cards": ["3o", "4o"], "caida": False}
    ]
    assert scores(events) == []


def test_R5_2_the_first_play_of_a_deal_on_the_dealers_last_card_is_no_caida() -> None:
    """R5.2: the dealer drops its last card of deal 1; seat 0 takes it first thing in deal 2: no point."""
    deals = [{0: "1b 2b 3b", 1: "4b 5b 6b"}, {0: "6c 1e 2e", 1: "3e 4e 5e"}]
    game = start(TWO, deals, table="7o 10o 11o 1o")
    events = run(game, "declare none; declare none; play 1b; play 4b; play 2b; play 5b; play 3b; play 6b")
    events = run(game, "declare none; declare none; play 6c")
    assert of(events, "capture")[0]["cards"][0] == "6b"
    assert of(events, "capture")[0]["caida"] is False
    assert scores(events) == []


def test_R5_3_chain_of_three_and_four_with_more_than_two_players() -> None:
    """R5.3: 4 players: a caida (1), the next raises with the third (5), the next with the fourth (10)."""
    deals = [{0: "5o 1b 2b", 1: "5c 3b 4b", 2: "5e 11b 12b", 3: "5b 1e 2e"}]
    game = start(FOUR, deals, table="7o 10o 12o 1o")
    events = run(game, "declare none; declare none; declare none; declare none")
    events = run(game, "play 5o; play 5c; play 5e; play 5b")
    assert of(events, "capture", "raise") == [
        {"type": "capture", "seat": 1, "card": "5c", "cards": ["5o"], "caida": True},
        {"type": "raise", "seat": 2, "card": "5e", "cards": ["5o", "5c"]},
        {"type": "raise", "seat": 3, "card": "5b", "cards": ["5o", "5c", "5e"]},
    ]
    assert scores(events) == [(1, 1, "caida", 1), (0, 5, "chain", 2), (1, 10, "chain", 3)]
    assert game.view(0).pile_sizes == (0, 4)  # the whole open capture moved with each raise


def test_R5_3_the_chain_closes_on_another_rank_and_three_players_raise_once() -> None:
    """R5.3: 3 players, caida then raise (5); another rank closes the chain; its cards stay taken."""
    deals = [{0: "5o 4e 1b", 1: "5c 3b 4b", 2: "5e 11b 12b"}]
    game = start(THREE, deals, table="7o 10o 12o 1o")
    events = run(game, "declare none; declare none; declare none; play 5o; play 5c; play 5e; play 4e")
    assert scores(events) == [(1, 1, "caida", 1), (2, 5, "chain", 2)]
    assert game.view(0).chain is None
    assert of(events, "drop")[-1] == {"type": "drop", "seat": 0, "card": "4e"}


def test_R5_3_no_chain_with_two_players() -> None:
    """R5.3: with two players the third card of the rank is simply dropped."""
    deals = [{0: "5o 5e 1b", 1: "5c 3b 4b"}]  # seat 0 holds a ronda of 5s and says so
    game = start(TWO, deals, table="7o 10o 12o 1o")
    events = run(game, "declare ronda; declare none; play 5o; play 5c; play 5e")
    assert of(events, "drop")[-1] == {"type": "drop", "seat": 0, "card": "5e"}
    assert scores(events) == [(0, 1, "announcement", None), (1, 1, "caida", 1)]


def test_R5_4_a_raise_that_leaves_the_table_empty_is_a_missa_too() -> None:
    """R5.4 with R6.1: a caida that clears the table calls "two"; the raise on it "six" (5 + missa)."""
    deals = [{0: "1b 5c 11o", 1: "6c 5e 12o", 2: "5o 2e 3e"}]
    game = start(THREE, deals, table="1o 2o 3o 6o")
    run(game, "declare none; declare none; declare none")
    assert of(run(game, "play 1b"), "capture")[0]["cards"] == ["1o", "2o", "3o"]
    assert scores(run(game, "play 6c")) == [(1, 1, "missa", 1)]
    events = run(game, "play 5o; play 5c; play 5e")
    assert scores(events) == [(0, 1, "caida", 0), (0, 1, "missa", 0), (1, 5, "chain", 1), (1, 1, "missa", 1)]
    assert game.public_view().last_capture_side == 1  # R7.1: the raise is the last capture


# --------------------------------------------------------------------------- R6 missa


def test_R6_1_clearing_the_table_is_a_missa_and_counts_on_top_of_a_caida() -> None:
    """R6.1: a capture that clears the table scores 1; a caida that clears it calls "two"."""
    game = start(TWO, [{0: "1c 5o 2e", 1: "6c 5c 11e"}], table="1o 2o 3o 6o")
    events = run(game, "declare none; declare none; play 1c; play 6c")
    assert scores(events) == [(1, 1, "missa", 1)]
    events = run(game, "play 5o; play 5c")
    assert scores(events) == [(1, 1, "caida", 1), (1, 1, "missa", 1)]


# Every card of seat 0 is dropped on an empty table and taken at once by seat 1 with its twin,
# after four opening captures that clear the opening table without runs.
WHOLE_ROUND = [
    {0: "1c 7c 2o", 1: "4b 11b 2c"},
    {0: "1e 3o 5o", 1: "1b 3c 5c"},
    {0: "4c 3e 5e", 1: "4e 3b 5b"},
    {0: "7e 6o 10o", 1: "7b 6c 10c"},
    {0: "11c 6e 12e", 1: "11e 6b 12b"},
    {0: "2e 12o 10e", 1: "2b 12c 10b"},
]


def _whole_round(rules: Rules) -> list:
    game = start(rules, WHOLE_ROUND, table="1o 4o 7o 11o")
    events = []
    for deal in WHOLE_ROUND:
        events += run(game, "declare none; declare none")
        for mine, yours in zip(deal[0].split(), deal[1].split(), strict=True):
            events += run(game, f"play {mine}; play {yours}")
    return events


def test_R6_2_no_missa_on_the_last_turn_but_its_caida_scores() -> None:
    """R6.2: the dealer's last card takes the card just dropped and clears the table: caida, no missa."""
    events = _whole_round(Rules(players=2, target=100))
    play_scores = [s for s in scores(events) if s[2] != "cards"]
    assert play_scores == ([(1, 1, "missa", 1)] + [(1, 1, "caida", 1), (1, 1, "missa", 1)] * 15 + [(1, 1, "caida", 1)])


# --------------------------------------------------------------------------- R7 end of a round


def test_R7_1_the_table_left_goes_to_the_last_capturer_without_points() -> None:
    """R7.1: after the last turn the cards on the table go to the side that captured last, for no points."""
    checked = 0
    for seed in range(40):
        game = Game(Rules(players=3, target=500), seed=seed)
        rng = random.Random(seed)
        while not (game.stock == 0 and sum(game.public_view().hand_sizes) == 1):
            game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Challenge)]))
        last = game.legal_actions()[0]
        table_before = game.view(0).table
        events = game.apply(last)
        captured_last = last.card >> 2 in {c >> 2 for c in table_before}
        left = (table_before - CardSet([c for e in events if e.TYPE == "capture" for c in e.cards])) | (
            CardSet() if captured_last else CardSet([last.card])
        )
        taken = of(events, "table_taken")
        if not left:
            assert taken == []
            continue
        side = (
            game.rules.side_of(2)
            if captured_last
            else game.events
            and next(
                game.rules.side_of(e.seat)
                for e in reversed(game.events[: game.events.index(events[0])])
                if e.TYPE in ("capture", "raise")
            )
        )
        assert taken == [{"type": "table_taken", "side": side, "cards": sorted(left.names(), key=parse_card)}]
        assert all(
            s[2] in ("caida", "chain", "cards", "dealer_duty", "announcement", "false_announcement", "undeclared")
            for s in scores(events)
        )
        checked += 1
    assert checked >= 10


def test_R7_2_card_count_two_and_four_players() -> None:
    """R7.2: above 20 cards, a point a card; 20-20 scores nothing. The whole round: 36 cards, 16 points."""
    assert card_count_points([26, 14], 2) == [6, 0]
    assert card_count_points([20, 20], 4) == [0, 0]
    assert card_count_points([21, 19], 2) == [1, 0]
    events = _whole_round(Rules(players=2, target=100))
    assert of(events, "round_end") == [{"type": "round_end", "round": 0, "piles": [4, 36]}]
    assert [s for s in scores(events) if s[2] == "cards"] == [(1, 16, "cards", None)]


def test_R7_2_card_count_three_players() -> None:
    """R7.2: with 3 players every seat with 14 or more scores a point per card above 13."""
    assert card_count_points([14, 13, 13], 3) == [1, 0, 0]
    assert card_count_points([16, 15, 9], 3) == [3, 2, 0]
    game = Game(Rules(players=3, target=500), seed=2)
    game.playout(random.Random(7))
    end = next(e for e in game.events if e.TYPE == "round_end")
    card_scores = [s for s in scores(game.events) if s[2] == "cards"]
    assert card_scores == [(side, n - 13, "cards", None) for side, n in enumerate(end.piles) if n >= 14]


# --------------------------------------------------------------------------- R8 announcements


def test_R8_1_pair_ronda_three_tringa_and_their_values() -> None:
    """R8.1: a pair is a ronda worth 1, three of a rank a tringa worth 5; declared alone they score at once."""
    assert combination_of([4, 4, 9], four_card=False, ace_high=False) == ("ronda", 4)
    assert combination_of([4, 4, 4], four_card=False, ace_high=False) == ("tringa", 4)
    assert combination_of([1, 4, 9], four_card=False, ace_high=False) is None
    assert combination_of([4, 4, 9, 9], four_card=True, ace_high=False) == ("double_ronda", 9 * 16 + 4)
    assert combination_of([4, 4, 4, 4], four_card=True, ace_high=False) == ("double_ronda", 4 * 16 + 4)
    assert combination_of([4, 4, 4, 9], four_card=True, ace_high=False) == ("tringa", 4)
    game = start(TWO, [{0: "5o 5c 12e", 1: "1b 3b 7b"}], table="2o 4o 6o 10o")
    assert scores(run(game, "declare ronda; declare none")) == [(0, 1, "announcement", None)]
    game = start(TWO, [{0: "1b 3b 7b", 1: "5o 5c 5e"}], table="2o 4o 6o 10o")
    assert scores(run(game, "declare none; declare tringa")) == [(1, 5, "announcement", None)]


def test_R8_2_declarations_go_round_before_any_play_and_name_only_the_kind() -> None:
    """R8.2: from the seat after the dealer, each declares none/ronda/tringa; a bluff is legal."""
    game = start(THREE, [{0: "1b 3b 7b", 1: "5o 5c 12e", 2: "2o 4o 6o"}], table="1o 3o 7o 10o")
    assert game.phase == "declare" and game.turn == 0
    assert [a.declaration for a in game.legal_actions()] == ["none", "ronda", "tringa"]
    with pytest.raises(IllegalActionError, match="declare first"):
        game.apply(Play.parse("1b"))
    events = run(game, "declare tringa; declare ronda; declare none")
    assert of(events, "declare") == [
        {"type": "declare", "seat": 0, "declaration": "tringa"},
        {"type": "declare", "seat": 1, "declaration": "ronda"},
        {"type": "declare", "seat": 2, "declaration": "none"},
    ]
    assert game.view(2).declarations == ("tringa", "ronda", "none")
    assert "12e" not in str(game.view(2)) and "5o" not in str([e.to_json() for e in events])
    with pytest.raises(IllegalActionError, match="four-card hands"):
        Game(TWO, seed=1).apply(Declare("double_ronda"))


def test_R8_2_auto_declare_declares_the_truth_and_allows_no_challenge() -> None:
    """R8.2 auto_declare: every seat declares its true combination by itself; no challenges."""
    game = start(Rules(players=2, auto_declare=True), [{0: "5o 5c 12e", 1: "1b 3b 7b"}], table="2o 4o 6o 10o")
    assert game.phase == "play"
    assert of(game.events, "declare") == [
        {"type": "declare", "seat": 0, "declaration": "ronda"},
        {"type": "declare", "seat": 1, "declaration": "none"},
    ]
    assert scores(game.events) == [(0, 1, "announcement", None)]
    run(game, "play 12e")
    assert all(isinstance(a, Play) for a in game.legal_actions())
    with pytest.raises(IllegalActionError, match="auto_declare"):
        game.apply(Challenge(0))
    assert "declare" not in str(game.to_record()["rounds"][0]["actions"])


def test_R8_2_R8_6_R8_7_auto_declare_never_penalises_a_seat_whose_combination_is_played_out() -> None:
    """R8.2 auto_declare: the declarations are the truth, so nothing is undeclared (R8.7) or false (R8.6).

    Seat 0's ronda (5o 5c) and seat 1's tringa (the three 1s) are played out in
    the deal: neither is penalised nor exposed; the tringa's 6 (R8.3) is the only
    announcement score, and no score of the deal is taken back.
    """
    game = start(Rules(players=2, auto_declare=True), [{0: "5o 5c 12e", 1: "1b 1c 1e"}], table="3o 7o 10o 11o")
    assert scores(game.events) == [(1, 6, "announcement", None)]
    events = run(game, "play 5o; play 1b; play 5c; play 1c; play 12e; play 1e")  # both combinations played out
    assert of(events, "exposure") == [] and scores(events) == []
    assert game.scores == [0, 6]
    assert game.view(0).exposed == (False, False)


def test_R8_3_tringa_beats_ronda_and_the_higher_rank_wins() -> None:
    """R8.3: a tringa beats any ronda (6 to the tringa, at once); of two tringas the higher takes 10."""
    game = start(TWO, [{0: "3o 3c 3e", 1: "12o 12c 1b"}], table="2o 4o 6o 10o")
    assert announcement_scores(run(game, "declare tringa; declare ronda")) == [(0, 6, "announcement", None)]
    game = start(TWO, [{0: "2c 2e 2b", 1: "5o 5c 5e"}], table="1o 4o 7o 10o")
    events = run(game, "declare tringa; declare tringa; play 2c")
    assert announcement_scores(events) == []
    assert announcement_scores(run(game, "play 5o")) == [(1, 10, "announcement", None)]


def test_R8_3_a_double_ronda_counts_its_higher_pair_first_whether_read_from_ranks_or_from_cards() -> None:
    """R8.3, R1.4: 12s and 2s beat 11s and 10s; with ace_high, 1s and 2s beat 12s and 11s. The one
    detector answers the same from a hand's ranks (candidates, R8.5) and from its cards (a dealt or shown hand)."""

    def strength(cards: str, ace_high: bool = False) -> int:
        found = hand_combination(CardSet.parse(cards).mask, ace_high)
        assert found is not None and found.kind == "double_ronda"
        from_ranks = combination_of([card >> 2 for card in CardSet.parse(cards)], four_card=True, ace_high=ace_high)
        assert from_ranks == (found.kind, found.strength)
        return found.strength

    assert strength("12o 12c 2o 2c") > strength("11o 11c 10o 10c")
    assert strength("12o 12c 3o 3c") > strength("12e 12b 2o 2c")
    assert strength("1o 1c 2o 2c", ace_high=True) > strength("12o 12c 11o 11c", ace_high=True)
    assert strength("1o 1c 2o 2c") < strength("12o 12c 11o 11c")
    assert hand_combination(CardSet.parse("12o 12c 2o 2c").mask, False).cards == CardSet.parse("2o 2c 12o 12c").mask


def test_R8_4_two_equal_rondas_score_one_each() -> None:
    """R8.4: two equal rondas, tie for best: the 2 points are shared, 1 each."""
    game = start(TWO, [{0: "5o 5c 1b", 1: "5e 5b 2b"}], table="3o 7o 10o 12o")
    events = run(game, "declare ronda; declare ronda; play 5o; play 5e; play 5c; play 5b")
    assert announcement_scores(events) == [(0, 1, "announcement", None), (1, 1, "announcement", None)]


def test_R8_4_two_equal_rondas_and_a_lower_one_still_one_each() -> None:
    """R8.4: three rondas, two equal best: 3 points halved rounded down, 1 each; the lower gets nothing."""
    game = start(THREE, [{0: "5o 5c 1b", 1: "5e 5b 3b", 2: "2o 2c 11b"}], table="4o 7o 10o 12o")
    events = run(game, "declare ronda; declare ronda; declare ronda; play 5o; play 5e; play 2o; play 5c; play 5b")
    assert announcement_scores(events) == []  # seat 2's ronda could still be 12s
    events = run(game, "play 2c")
    assert announcement_scores(events) == [(0, 1, "announcement", None), (1, 1, "announcement", None)]


def test_R8_4_four_rondas_with_two_opponents_tied_for_best_score_two_each() -> None:
    """R8.4: four rondas, seats 0 and 1 tie with 12s: 4 points shared between the sides, 2 each."""
    deals = [{0: "12o 12e 1b", 1: "12c 12b 3c", 2: "2o 2c 4b", 3: "3o 3e 5b"}]
    game = start(FOUR, deals, table="6o 7o 10o 1o")
    events = run(game, "declare ronda; declare ronda; declare ronda; declare ronda")
    events += run(game, "play 12o; play 12c; play 2o; play 3o; play 12e; play 12b")
    assert announcement_scores(events) == [(0, 2, "announcement", None), (1, 2, "announcement", None)]


def test_R8_5_one_side_scores_at_once_two_sides_wait_until_decided() -> None:
    """R8.5: the 12s against the 1s are scored at the play that leaves no doubt, and not before."""
    game = start(TWO, [{0: "1o 1c 5e", 1: "12o 12c 6e"}], table="2b 3b 4b 7b")
    plays = ["declare ronda", "declare ronda", "play 1o", "play 12o", "play 1c"]
    for step in plays:
        assert announcement_scores(run(game, step)) == [], step
    assert announcement_scores(run(game, "play 12c")) == [(1, 2, "announcement", None)]


def test_R8_5_candidates_narrow_with_the_declarers_own_plays() -> None:
    """R8.5: candidates come from the declarer's played cards only; none left exposes the declaration."""
    from ronda.engine.combinations import candidates

    assert candidates("ronda", (), 3, False) == frozenset(range(10))
    assert candidates("ronda", (4,), 3, False) == frozenset(range(10))
    assert candidates("ronda", (4, 6), 3, False) == {4, 6}
    assert candidates("ronda", (4, 4), 3, False) == {4}
    assert candidates("ronda", (4, 4, 4), 3, False) == frozenset()
    assert candidates("tringa", (4,), 3, False) == {4}
    assert candidates("tringa", (4, 6), 3, False) == frozenset()


def _decided_then_undone(target: int) -> tuple[Game, list]:
    # seat 0 bluffs "ronda" holding three 12s; seats 1 (2s) and 2 (6s) hold true rondas
    deals = [{0: "12o 12c 12e", 1: "2o 2c 4e", 2: "6o 6c 3e"}]
    game = start(Rules(players=3, target=target), deals, table="1b 5b 10b 11b")
    events = run(game, "declare ronda; declare ronda; declare ronda")
    events += run(game, "play 12o; play 4e; play 3e; play 12c; play 2o; play 6o")
    return game, events


def test_R8_6_exposure_pays_a_penalty_and_takes_back_what_was_given() -> None:
    """R8.6: decided for seat 0's 12s (3 points); its third 12 exposes the bluff: +1 to each
    opponent, the 3 points taken back as the rest is not decided, and given again once it is."""
    game, events = _decided_then_undone(target=41)
    assert announcement_scores(events) == [(0, 3, "announcement", None)]
    events = run(game, "play 12e")
    assert of(events, "exposure") == [{"type": "exposure", "seat": 0, "declaration": "ronda"}]
    assert announcement_scores(events) == [
        (1, 1, "false_announcement", 0),
        (2, 1, "false_announcement", 0),
        (0, -3, "announcement", None),
        (1, 5, "undeclared", 0),
        (2, 5, "undeclared", 0),
    ]
    assert announcement_scores(run(game, "play 2c")) == [(2, 2, "announcement", None)]
    assert game.scores == [0, 6, 8]


def test_R8_7_an_undeclared_ronda_is_penalised_when_its_cards_are_played() -> None:
    """R8.7: seat 1 hides a pair of 3s; when both are played seat 0's side scores 1 (5 with the variant)."""
    for penalty in (1, 5):
        rules = Rules(players=2, undeclared_ronda_penalty=penalty)
        game = start(rules, [{0: "12o 12c 1b", 1: "3o 3c 7b"}], table="2o 4o 6o 10o")
        events = run(game, "declare ronda; declare none; play 1b; play 3o; play 12o")
        assert announcement_scores(events) == [(0, 1, "announcement", None)]
        assert announcement_scores(run(game, "play 3c")) == [(0, penalty, "undeclared", 1)]


def test_R8_7_a_penalty_on_a_live_declaration_exposes_it_in_the_same_step() -> None:
    """R8.7: seat 0 declares a tringa holding a pair of 5s; when both 5s are played the penalty
    proves the tringa false: it is exposed at once (R8.6), not when its third card is played."""
    game = start(TWO, [{0: "5o 5c 7e", 1: "1b 2b 3b"}], table="4o 6o 11o 12o")
    assert announcement_scores(run(game, "declare tringa; declare none")) == [(0, 5, "announcement", None)]
    events = run(game, "play 5o; play 1b; play 5c")
    assert of(events, "score", "exposure") == [
        {"type": "score", "side": 1, "points": 1, "reason": "undeclared", "seat": 0},
        {"type": "exposure", "seat": 0, "declaration": "tringa"},
        {"type": "score", "side": 1, "points": 5, "reason": "false_announcement", "seat": 0},
        {"type": "score", "side": 0, "points": -5, "reason": "announcement", "seat": None},
    ]
    assert game.scores == [0, 6]
    assert game.view(1).exposed == (True, False)
    assert announcement_scores(run(game, "play 2b; play 7e")) == []  # nothing more to expose or settle


def test_R8_7_four_players_the_exposed_tringa_leaves_the_rondas_to_be_settled_again() -> None:
    """R8.7, R8.6 with partners: side 0 took 7 for seat 0's tringa and seat 2's ronda; the penalty on
    seat 0's hidden pair exposes the tringa, the 7 are taken back as the rondas are undecided, and the
    12s of seat 1 (side 1) take both rondas once the 11s of seat 2 are known."""
    deals = [{0: "5o 5c 7e", 1: "12o 12c 1b", 2: "11c 11e 2b", 3: "3o 4c 6e"}]
    game = start(FOUR, deals, table="1o 7o 10o 3b")
    events = run(game, "declare tringa; declare ronda; declare ronda; declare none")
    assert announcement_scores(events) == [(0, 7, "announcement", None)]
    events = run(game, "play 5o; play 12o; play 11c; play 4c; play 5c")
    assert of(events, "score", "exposure") == [
        {"type": "score", "side": 1, "points": 1, "reason": "undeclared", "seat": 0},
        {"type": "exposure", "seat": 0, "declaration": "tringa"},
        {"type": "score", "side": 1, "points": 5, "reason": "false_announcement", "seat": 0},
        {"type": "score", "side": 0, "points": -7, "reason": "announcement", "seat": None},
    ]
    assert game.scores == [0, 6]
    assert announcement_scores(run(game, "play 12c; play 11e")) == [(1, 2, "announcement", None)]
    assert game.scores == [0, 8]


def test_R8_7_the_win_is_checked_once_after_the_penalty_and_the_exposure() -> None:
    """R8.7, R9.3: the penalty and the exposure it proves are one step. Side 1 (5 points, target 6)
    reaches the target with the undeclared penalty, and wins after the false tringa's penalty too:
    11 points; the settlement that would take back side 0's 5 never comes (R9.4)."""
    deals = [{0: "1o 2o 4o", 1: "3o 3c 3e"}, {0: "5o 5c 7e", 1: "7b 1b 2b"}]
    game = start(Rules(players=2, target=6), deals, table="10o 11o 12o 6o")
    run(game, "declare none; declare tringa; play 1o; play 3o; play 2o; play 3c; play 4o; play 3e")
    assert game.scores == [0, 5]
    assert announcement_scores(run(game, "declare tringa; declare none")) == [(0, 5, "announcement", None)]
    events = run(game, "play 5o; play 7b; play 5c")
    assert of(events, "score", "exposure", "game_over") == [
        {"type": "score", "side": 1, "points": 1, "reason": "undeclared", "seat": 0},
        {"type": "exposure", "seat": 0, "declaration": "tringa"},
        {"type": "score", "side": 1, "points": 5, "reason": "false_announcement", "seat": 0},
        {"type": "game_over", "winner": 1, "reason": "target"},
    ]
    assert game.scores == [5, 11] and game.winner == 1


def test_R8_8_a_false_declaration_challenged_is_exposed_then_the_challenger_plays() -> None:
    """R8.8: the hand is shown to all; the bluff pays at once; the challenger still plays its card."""
    game = start(TWO, [{0: "1o 4o 7o", 1: "2b 5b 11b"}], table="3c 6c 10c 12c")
    assert scores(run(game, "declare ronda; declare none; play 1o")) == [(0, 1, "announcement", None)]
    events = run(game, "challenge 0")
    assert of(events, "challenge") == [
        {"type": "challenge", "seat": 1, "target": 0, "hand": ["1o", "4o", "7o"], "truthful": False}
    ]
    assert scores(events) == [(1, 1, "false_announcement", 0), (0, -1, "announcement", None)]
    assert game.view(1).shown[0] == CardSet.parse("1o 4o 7o")
    assert game.turn == 1 and all(isinstance(a, Play) for a in game.legal_actions())
    run(game, "play 2b")
    assert game.turn == 0


def test_R8_8_a_true_declaration_challenged_wins_the_game_for_the_declarer() -> None:
    """R8.8: challenging a true ronda loses the game at once."""
    game = start(TWO, [{0: "1o 1c 7o", 1: "2b 5b 11b"}], table="3c 6c 10c 12c")
    events = run(game, "declare ronda; declare none; play 7o; challenge 0")
    assert of(events, "game_over") == [{"type": "game_over", "winner": 0, "reason": "failed_challenge"}]
    assert game.finished and game.winner == 0 and game.legal_actions() == []


def _true_value(game_truths: list, declared: list, side_of, sides: int) -> list[int]:
    """R8.4 computed directly from the true declarations, as an independent check of the engine."""
    true = [(side_of(seat), t) for seat, t in enumerate(game_truths) if t is not None and declared[seat] == t[0]]
    points = [0] * sides
    if not true:
        return points
    order = {"ronda": 1, "double_ronda": 2, "tringa": 3}
    value = {"ronda": 1, "double_ronda": 2, "tringa": 5}
    total = sum(value[t[0]] for _, t in true)
    best = max((order[t[0]], t[1]) for _, t in true)
    winners = sorted({side for side, t in true if (order[t[0]], t[1]) == best})
    for side in winners:
        points[side] = total // len(winners)
    return points


def test_R8_9_at_the_end_of_every_deal_each_declaration_is_exposed_or_settled() -> None:
    """R8.9: when a deal is played out, the announcement points given equal R8.4 on the true
    declarations, and every false one has been exposed — over many random deals with bluffs."""
    from random_games import choose

    checked = 0
    for seed in range(150):
        rules = Rules(players=2 + seed % 3, target=1000)
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while game.round < 2 and not game.finished:
            deal_events_start = len(game.events)
            while game.phase == "declare":
                game.apply(choose(game, rng, challenge_rate=0))
            truths = [hand_combination(game.dealt_hand(s).mask, rules.ace_high) for s in range(rules.players)]
            declared = list(game.public_view().declarations)
            deal = game.deal
            while game.deal == deal and game.round < 2 and not game.finished:
                game.apply(choose(game, rng, challenge_rate=0))
            events = game.events[deal_events_start:]
            given = [0] * rules.sides
            for side, points, reason, _ in scores(events):
                if reason == "announcement":
                    given[side] += points
            assert given == _true_value(truths, declared, rules.side_of, rules.sides)
            exposed = {e.seat for e in events if e.TYPE == "exposure"}
            false = {s for s in range(rules.players) if declared[s] not in ("none", (truths[s] or ("none",))[0])}
            assert exposed == false
            checked += 1
    assert checked > 500


# --------------------------------------------------------------------------- R9 scoring and winning


def test_R9_1_the_target_is_41_unless_the_variant_says_otherwise() -> None:
    """R9.1: 41 by default; with target 25 the game ends as soon as a side reaches 25."""
    assert Rules().target == 41
    for target in (25, 41):
        game = Game(Rules(players=2, target=target), seed=target)
        game.playout(random.Random(1), rounds=100)
        assert game.finished and game.scores[game.winner] >= target
        assert sorted(game.scores)[-2] < game.scores[game.winner]


def test_R9_2_the_steps_of_one_turn_come_in_order() -> None:
    """R9.2: caida, missa, then the player's exposure, the settlement, and its undeclared penalty."""
    game = start(TWO, [{0: "1c 6c 5b", 1: "5o 5c 5e"}], table="1o 2o 3o 6o")
    events = run(game, "declare none; declare ronda; play 1c; play 5o; play 6c; play 5c; play 5b")
    assert scores(events) == [(1, 1, "announcement", None), (1, 1, "missa", 1)]
    events = run(game, "play 5e")
    assert [e.to_json() for e in events if e.TYPE != "deal"] == [
        {"type": "capture", "seat": 1, "card": "5e", "cards": ["5b"], "caida": True},
        {"type": "score", "side": 1, "points": 1, "reason": "caida", "seat": 1},
        {"type": "score", "side": 1, "points": 1, "reason": "missa", "seat": 1},
        {"type": "exposure", "seat": 1, "declaration": "ronda"},
        {"type": "score", "side": 0, "points": 1, "reason": "false_announcement", "seat": 1},
        {"type": "score", "side": 1, "points": -1, "reason": "announcement", "seat": None},
        {"type": "score", "side": 0, "points": 5, "reason": "undeclared", "seat": 1},
    ]


def test_R9_3_a_win_comes_at_once_mid_deal_before_pending_points() -> None:
    """R9.3: the caida that reaches the target ends the game; its missa and the open settlement never score."""
    game = start(Rules(players=2, target=2), [{0: "1c 5o 2e", 1: "6c 5c 11e"}], table="1o 2o 3o 6o")
    events = run(game, "declare ronda; declare ronda; play 1c; play 6c; play 5o; play 5c")
    assert scores(events) == [(1, 1, "missa", 1), (1, 1, "caida", 1)]
    assert events[-1].to_json() == {"type": "game_over", "winner": 1, "reason": "target"}
    assert game.scores == [0, 2]


def test_R9_3_equal_sides_at_the_target_play_on_until_one_is_highest() -> None:
    """R9.3: sides 1 and 2 both reach 6 in one step, equal: play goes on; the next step decides."""
    game, _ = _decided_then_undone(target=6)
    events = run(game, "play 12e")
    assert game.scores == [0, 6, 6] and not game.finished
    events = run(game, "play 2c")
    assert events[-1].to_json() == {"type": "game_over", "winner": 2, "reason": "target"}


def test_R9_3_when_several_sides_reach_the_target_in_one_step_the_highest_wins() -> None:
    """R9.3: an undeclared pair (penalty 5) lifts sides 1 and 2 past 5 at once; side 1, higher, wins."""
    rules = Rules(players=3, target=5, undeclared_ronda_penalty=5)
    game = start(rules, [{0: "3o 3c 10o", 1: "3e 2c 6c", 2: "12o 4e 10e"}], table="1b 5b 7b 11b")
    events = run(game, "declare none; declare none; declare none; play 3o; play 3e; play 12o")
    assert scores(events) == [(1, 1, "caida", 1)]
    events = run(game, "play 3c")
    assert scores(events) == [(1, 5, "undeclared", 0), (2, 5, "undeclared", 0)]
    assert game.scores == [0, 6, 5]
    assert events[-1].to_json() == {"type": "game_over", "winner": 1, "reason": "target"}


def test_R9_4_a_won_game_stays_won() -> None:
    """R9.4: after the win nothing more can be played or scored."""
    game = start(Rules(players=2, target=2), [{0: "1c 5o 2e", 1: "6c 5c 11e"}], table="1o 2o 3o 6o")
    run(game, "declare ronda; declare ronda; play 1c; play 6c; play 5o; play 5c")
    before = (list(game.scores), len(game.events))
    for action in (Play.parse("2e"), Declare("none"), Challenge(0)):
        with pytest.raises(IllegalActionError, match="over"):
            game.apply(action)
    assert (game.scores, len(game.events)) == before and game.winner == 1


def _shown_and_scored(events: list) -> list[dict[str, object]]:
    return of(events, "show", "exposure", "score", "game_over")


def test_R9_5_a_lone_false_tringa_at_the_target_is_shown_and_exposed() -> None:
    """R9.5: the dealer's lone tringa would win at once (R8.5); its hand is shown first, holds no
    tringa, and is exposed: the penalty brings seat 0 to the target, and the award never comes."""
    game = start(Rules(players=2, target=5), [{1: "1b 2b 4c"}], table="6o 7o 10o 12o")
    events = run(game, "declare none; declare tringa")
    assert _shown_and_scored(events) == [
        {"type": "show", "seat": 1, "hand": ["1b", "2b", "4c"]},
        {"type": "exposure", "seat": 1, "declaration": "tringa"},
        {"type": "score", "side": 0, "points": 5, "reason": "false_announcement", "seat": 1},
        {"type": "game_over", "winner": 0, "reason": "target"},
    ]
    assert game.scores == [5, 0] and game.winner == 0


def test_R9_5_a_true_declaration_is_shown_then_awarded_and_wins() -> None:
    """R9.5: at once after the declarations, and in the middle of a deal when the settlement is decided
    by a play (R8.5): the winning side's hand is shown, it is true, the award is made and wins."""
    game = start(Rules(players=2, target=5), [{1: "3o 3c 3e"}], table="6o 7o 10o 12o")
    assert _shown_and_scored(run(game, "declare none; declare tringa")) == [
        {"type": "show", "seat": 1, "hand": ["3o", "3c", "3e"]},
        {"type": "score", "side": 1, "points": 5, "reason": "announcement", "seat": None},
        {"type": "game_over", "winner": 1, "reason": "target"},
    ]
    game = start(Rules(players=2, target=2), [{0: "1o 1c 5e", 1: "12o 12c 6e"}], table="2b 3b 4b 7b")
    events = run(game, "declare ronda; declare ronda; play 1o; play 12o; play 1c")
    assert of(events, "show") == [] and announcement_scores(events) == []
    assert _shown_and_scored(run(game, "play 12c")) == [
        {"type": "show", "seat": 1, "hand": ["12o", "12c", "6e"]},  # as dealt (its order too), though two are played
        {"type": "score", "side": 1, "points": 2, "reason": "announcement", "seat": None},
        {"type": "game_over", "winner": 1, "reason": "target"},
    ]


def test_R9_5_partners_true_ronda_and_false_tringa_the_tringa_exposed_the_ronda_alone_awarded() -> None:
    """R9.5 with partners: both hands of side 0 are shown in seat order; seat 2's tringa is false and
    exposed (5 to side 1); the new settlement, the ronda alone, does not reach the target: awarded."""
    game = start(Rules(players=4, target=6), [{0: "12o 12c 1b", 2: "5o 6c 7e"}], table="1o 3o 10o 4b")
    events = run(game, "declare ronda; declare none; declare tringa; declare none")
    assert _shown_and_scored(events) == [
        {"type": "show", "seat": 0, "hand": ["12o", "12c", "1b"]},
        {"type": "show", "seat": 2, "hand": ["5o", "6c", "7e"]},
        {"type": "exposure", "seat": 2, "declaration": "tringa"},
        {"type": "score", "side": 1, "points": 5, "reason": "false_announcement", "seat": 2},
        {"type": "score", "side": 0, "points": 1, "reason": "announcement", "seat": None},
    ]
    assert game.scores == [1, 5] and not game.finished
    for seat in range(4):  # R11: shown hands are part of every view
        assert game.view(seat).shown == (CardSet.parse("1b 12o 12c"), None, CardSet.parse("5o 6c 7e"), None)


def test_R9_5_the_rule_applies_again_to_the_new_settlement() -> None:
    """R9.5: side 0 has 5 (a true tringa in deal 1, below the target 6, not shown). In deal 2 the
    false tringa is exposed; the ronda alone still brings side 0 to the target: its hand, already
    shown and true, is not shown again; the award is made and wins."""
    deals = [
        {0: "5o 5c 5e", 1: "12o 6o 1c", 2: "11o 2c 4c", 3: "7c 3c 10c"},
        {0: "12e 12b 1b", 2: "5b 6c 7e"},
    ]
    game = start(Rules(players=4, target=6), deals, table="1o 3o 10o 4b")
    events = run(game, "declare tringa; declare none; declare none; declare none")
    events += run(game, "play 5o; play 12o; play 11o; play 7c; play 5c; play 6o; play 2c; play 3c")
    events += run(game, "play 5e; play 1c; play 4c; play 10c")
    assert _shown_and_scored(events) == [
        {"type": "score", "side": 0, "points": 5, "reason": "announcement", "seat": None}
    ]
    events = run(game, "declare ronda; declare none; declare tringa; declare none")
    assert _shown_and_scored(events) == [
        {"type": "show", "seat": 0, "hand": ["12e", "12b", "1b"]},
        {"type": "show", "seat": 2, "hand": ["5b", "6c", "7e"]},
        {"type": "exposure", "seat": 2, "declaration": "tringa"},
        {"type": "score", "side": 1, "points": 5, "reason": "false_announcement", "seat": 2},
        {"type": "score", "side": 0, "points": 1, "reason": "announcement", "seat": None},
        {"type": "game_over", "winner": 0, "reason": "target"},
    ]
    assert game.scores == [6, 5]


def test_R9_5_only_the_first_false_one_is_exposed_when_the_new_settlement_stays_below_the_target() -> None:
    """R9.5 as written: both of side 0's declarations are false; the first (seat 0's ronda) is exposed;
    the new settlement, the tringa alone (5), no longer reaches the target 6, so it is awarded though
    the tringa was shown; R8.5 exposes it when its second card is played, and the penalty wins for side 1."""
    deals = [{0: "12o 4c 1b", 1: "2o 3c 11e", 2: "5o 6c 7e", 3: "2c 10e 11b"}]
    game = start(Rules(players=4, target=6), deals, table="1o 3o 10o 4b")
    events = run(game, "declare ronda; declare none; declare tringa; declare none")
    assert _shown_and_scored(events) == [
        {"type": "show", "seat": 0, "hand": ["12o", "4c", "1b"]},
        {"type": "show", "seat": 2, "hand": ["5o", "6c", "7e"]},
        {"type": "exposure", "seat": 0, "declaration": "ronda"},
        {"type": "score", "side": 1, "points": 1, "reason": "false_announcement", "seat": 0},
        {"type": "score", "side": 0, "points": 5, "reason": "announcement", "seat": None},
    ]
    events = run(game, "play 1b; play 2o; play 5o; play 11b; play 12o; play 3c; play 6c")
    assert _shown_and_scored(events) == [
        {"type": "exposure", "seat": 2, "declaration": "tringa"},
        {"type": "score", "side": 1, "points": 5, "reason": "false_announcement", "seat": 2},
        {"type": "game_over", "winner": 1, "reason": "target"},
    ]
    assert game.scores == [5, 6]


def test_R9_5_a_shown_declaration_can_no_longer_be_challenged() -> None:
    """R9.5, R8.8: seat 0's ronda was shown (and is true): seat 1 is offered no challenge of it,
    and a challenge sent anyway is refused, naming why, and changes nothing."""
    game = start(Rules(players=4, target=6), [{0: "12o 12c 1b", 2: "5o 6c 7e"}], table="1o 3o 10o 4b")
    run(game, "declare ronda; declare none; declare tringa; declare none; play 1b")
    assert game.turn == 1 and not any(isinstance(a, Challenge) for a in game.legal_actions())
    before = (list(game.scores), len(game.events))
    with pytest.raises(IllegalActionError, match="seat 0's hand has been shown: its ronda can no longer be challenged"):
        game.apply(Challenge(0))
    assert (list(game.scores), len(game.events)) == before and game.turn == 1


def test_R9_5_not_with_transfer_scoring() -> None:
    """R9.5, R10: with transfer_scoring no win comes mid-round, so nothing is shown: the lone tringa is paid."""
    rules = Rules(players=2, target=5, transfer_scoring=True)
    game = start(rules, [{1: "1b 2b 4c"}], table="6o 7o 10o 12o")
    events = run(game, "declare none; declare tringa")
    assert of(events, "show", "exposure") == []
    assert of(events, "transfer") == [
        {"type": "transfer", "payer": 0, "payee": 1, "cards": 0, "owed": 5, "reason": "announcement"}
    ]
    assert game.view(0).shown == (None, None)
