"""Every variant of R10, its every effect, from explicit decks with exact points; presets by name."""

from __future__ import annotations

import random

import pytest
from random_games import choose
from test_rules import WHOLE_ROUND, announcement_scores

from decks import of, run, scores, start
from ronda.cli.main import main
from ronda.engine.cards import parse_card
from ronda.engine.errors import RulesError
from ronda.engine.game import Game
from ronda.engine.presets import preset_rules
from ronda.engine.rules import Rules


def transfers(events) -> list[tuple]:
    return [(e.payer, e.payee, e.cards, e.owed, e.reason) for e in events if e.TYPE == "transfer"]


# --------------------------------------------------------------------------- ace_high


def test_ace_high_three_players_the_1s_take_all_three_rondas() -> None:
    """ace_high (R1.4): 1s beat 12s and 5s: all 3 points go to the 1s once nothing else can beat them."""
    deals = [{0: "1o 1c 3b", 1: "12o 12c 4b", 2: "5o 5c 6b"}]
    game = start(Rules(players=3, ace_high=True), deals, table="2e 7e 10e 12e")
    events = run(game, "declare ronda; declare ronda; declare ronda; play 1o; play 12o; play 5o; play 1c; play 12c")
    assert announcement_scores(events) == []  # seat 2's ronda could still be of 1s
    assert announcement_scores(run(game, "play 5c")) == [(0, 3, "announcement", None)]


# --------------------------------------------------------------------------- chain_points


@pytest.mark.parametrize(("chain", "third", "fourth"), [((1, 5, 10), 5, 10), ((1, 6, 15), 6, 15)])
def test_chain_points_pay_the_third_and_fourth_card(chain, third, fourth) -> None:
    """chain_points (R5.3, R10): with [1,6,15] the raises pay 6 and 15 instead of 5 and 10."""
    deals = [{0: "5o 1b 2b", 1: "5c 3b 4b", 2: "5e 11b 12b", 3: "5b 1e 2e"}]
    game = start(Rules(players=4, chain_points=chain), deals, table="7o 10o 12o 1o")
    events = run(game, "declare none; declare none; declare none; declare none; play 5o; play 5c; play 5e; play 5b")
    assert scores(events) == [(1, 1, "caida", 1), (0, third, "chain", 2), (1, fourth, "chain", 3)]


def test_chain_points_three_players_raise_once() -> None:
    """chain_points with three players: caida 1, raise 6."""
    deals = [{0: "5o 4e 1b", 1: "5c 3b 4b", 2: "5e 11b 12b"}]
    game = start(Rules(players=3, chain_points=(1, 6, 15)), deals, table="7o 10o 12o 1o")
    events = run(game, "declare none; declare none; declare none; play 5o; play 5c; play 5e")
    assert scores(events) == [(1, 1, "caida", 1), (2, 6, "chain", 2)]


def test_chain_points_must_be_one_of_the_two_scales() -> None:
    with pytest.raises(RulesError, match=r"\[1, 5, 10\] or \[1, 6, 15\]"):
        Rules(players=3, chain_points=(1, 5, 15))


# --------------------------------------------------------------------------- undeclared_ronda_penalty


def test_undeclared_ronda_penalty_four_players_is_paid_to_the_opposing_side_once() -> None:
    """undeclared_ronda_penalty 5 (R8.7): seat 1 hides a pair of 3s; side 0 scores 5 when both are played."""
    deals = [{0: "1o 4o 7o", 1: "3o 3c 11c", 2: "2e 6e 12e", 3: "10b 12b 2b"}]
    game = start(Rules(players=4, undeclared_ronda_penalty=5), deals, table="1c 5e 6c 10c")
    events = run(game, "declare none; declare none; declare none; declare none")
    events += run(game, "play 1o; play 3o; play 2e; play 10b; play 4o; play 3c")
    assert announcement_scores(events) == [(0, 5, "undeclared", 1)]


def test_the_tringa_penalty_stays_5_whatever_the_ronda_penalty() -> None:
    game = start(Rules(players=2, undeclared_ronda_penalty=5), [{0: "3o 3c 3e", 1: "1b 2b 4b"}], table="5o 6o 7o 11o")
    events = run(game, "declare none; declare none; play 3o; play 1b; play 3c; play 2b; play 3e")
    assert announcement_scores(events) == [(1, 5, "undeclared", 0)]


# --------------------------------------------------------------------------- dealer_duty


def _last_deal(rules: Rules, d2: dict, d5: dict, d6: dict, order6: list[str]) -> list:
    deals = [WHOLE_ROUND[0], d2, WHOLE_ROUND[2], WHOLE_ROUND[3], d5, d6]
    game = start(rules, deals, table="1o 4o 7o 11o")
    for deal in deals[:5]:
        run(game, "declare none; declare none")
        for mine, yours in zip(deal[0].split(), deal[1].split(), strict=True):
            run(game, f"play {mine}; play {yours}")
    return run(game, "declare none; declare none; " + "; ".join(f"play {c}" for c in order6))


DUTY = Rules(players=2, target=100, dealer_duty=True)


def test_dealer_duty_a_last_capture_with_a_12_scores_5() -> None:
    """dealer_duty: the dealer's last card, a 12, takes the 12 just dropped: caida 1 and duty 5, no missa."""
    d6 = {0: "2e 10e 12o", 1: "2b 10b 12c"}
    events = _last_deal(DUTY, WHOLE_ROUND[1], WHOLE_ROUND[4], d6, ["2e", "2b", "10e", "10b", "12o", "12c"])
    assert scores(events)[-3:] == [(1, 1, "caida", 1), (1, 5, "dealer_duty", 1), (1, 16, "cards", None)]


def test_dealer_duty_a_last_capture_with_2_to_11_scores_nothing() -> None:
    """dealer_duty: taking with a 10 fulfils the duty and scores nothing special."""
    events = _last_deal(DUTY, WHOLE_ROUND[1], WHOLE_ROUND[4], WHOLE_ROUND[5], ["2e", "2b", "12o", "12c", "10e", "10b"])
    assert [s for s in scores(events) if s[2] == "dealer_duty"] == []
    assert scores(events)[-2:] == [(1, 1, "caida", 1), (1, 16, "cards", None)]


def test_dealer_duty_a_last_card_that_takes_nothing_gives_5_to_the_opponent() -> None:
    """dealer_duty: the dealer's last card (11e) finds nothing to take: 5 to side 0."""
    d5 = {0: "11c 6e 12e", 1: "10b 6b 12b"}
    d6 = {0: "2e 12o 10e", 1: "2b 12c 11e"}
    events = _last_deal(DUTY, WHOLE_ROUND[1], d5, d6, ["2e", "2b", "12o", "12c", "10e", "11e"])
    assert of(events, "capture")[-1] == {
        "type": "capture",
        "seat": 0,
        "card": "10e",
        "cards": ["10b", "11c"],
        "caida": False,
    }
    assert of(events, "drop")[-1] == {"type": "drop", "seat": 1, "card": "11e"}
    assert [s for s in scores(events) if s[2] == "dealer_duty"] == [(0, 5, "dealer_duty", 1)]
    assert of(events, "table_taken") == [{"type": "table_taken", "side": 0, "cards": ["11e"]}]


def test_dealer_duty_a_last_capture_with_a_1_gives_5_to_the_opponent() -> None:
    """dealer_duty: capturing with a 1 is too easy: the caida scores, then 5 to each opposing side."""
    d2 = {0: "10e 3o 5o", 1: "10b 3c 5c"}
    d6 = {0: "2e 12o 1e", 1: "2b 12c 1b"}
    events = _last_deal(DUTY, d2, WHOLE_ROUND[4], d6, ["2e", "2b", "12o", "12c", "1e", "1b"])
    assert scores(events)[-3:] == [(1, 1, "caida", 1), (0, 5, "dealer_duty", 1), (1, 16, "cards", None)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dealer_duty_on_the_last_turn_in_every_table_size(players: int) -> None:
    """dealer_duty with 2, 3 and 4 players: the last card's duty score follows the rule exactly."""
    seen = set()
    for seed in range(60):
        rules = Rules(players=players, target=500, dealer_duty=True)
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not (game.stock == 0 and sum(game.public_view().hand_sizes) == 1 and game.phase == "play"):
            game.apply(choose(game, rng, challenge_rate=0))
        dealer = game.dealer
        assert game.turn == dealer
        card = game.legal_actions()[0].card
        table_ranks = {c >> 2 for c in game.view(dealer).table}
        chain = game.public_view().chain
        captures = card >> 2 in table_ranks or (chain is not None and chain.rank == card >> 2)
        events = game.apply(game.legal_actions()[0])
        duty = [s for s in scores(events) if s[2] == "dealer_duty"]
        side = rules.side_of(dealer)
        if captures and card >> 2 == 9:
            expected = [(side, 5, "dealer_duty", dealer)]
            seen.add("12")
        elif not captures or card >> 2 == 0:
            expected = [(s, 5, "dealer_duty", dealer) for s in range(rules.sides) if s != side]
            seen.add("penalty")
        else:
            expected = []
            seen.add("plain")
        assert duty == expected
    assert seen == {"12", "penalty", "plain"}


# --------------------------------------------------------------------------- four_card_hands


def test_four_card_hands_deals_and_no_table() -> None:
    """four_card_hands: 4 players get 4, 3, 3 cards (16, 12, 12); 2 players five deals of four; no table."""
    for players, sizes in ((4, [4, 3, 3]), (2, [4, 4, 4, 4, 4])):
        game = Game(Rules(players=players, four_card_hands=True, target=500), seed=1)
        assert game.view(0).table.mask == 0
        game.playout(random.Random(1))
        deals = [e for e in game.events if e.TYPE == "deal" and e.round == 0]
        assert [e.hand_size for e in deals] == sizes
        assert all(e.table == () for e in deals)


def test_four_card_hands_are_refused_for_three_players_with_the_reason() -> None:
    with pytest.raises(RulesError, match="2 or 4 players, not 3"):
        Rules(players=3, four_card_hands=True)


FOUR_CARD = Rules(players=2, four_card_hands=True)


def test_double_ronda_two_pairs_beat_a_ronda_at_once() -> None:
    """R8.1, R8.3 with four-card hands: two pairs are a double ronda (2); it beats a ronda: 3 at once."""
    game = start(FOUR_CARD, [{0: "5o 5c 12o 12c", 1: "3o 3c 1b 7b"}])
    assert [a.declaration for a in game.legal_actions()] == ["none", "ronda", "tringa", "double_ronda"]
    assert scores(run(game, "declare double_ronda; declare ronda")) == [(0, 3, "announcement", None)]


def test_four_of_a_rank_is_a_double_ronda_not_a_tringa() -> None:
    """four_card_hands: four 5s count as a double ronda; declared as a tringa it is false and hidden."""
    game = start(FOUR_CARD, [{0: "5o 5c 5e 5b", 1: "3o 4c 1b 7b"}])
    events = run(game, "declare tringa; declare none; play 5o; play 3o; play 5c; play 4c")
    assert announcement_scores(events) == [(0, 5, "announcement", None)]
    # three 5s played: the fourth card could still be another rank, so a tringa is still possible
    assert announcement_scores(run(game, "play 5e; play 1b")) == []
    events = run(game, "play 5b")
    assert of(events, "exposure") == [{"type": "exposure", "seat": 0, "declaration": "tringa"}]
    assert announcement_scores(events) == [
        (1, 5, "false_announcement", 0),
        (0, -5, "announcement", None),
        (1, 2, "undeclared", 0),
    ]


def test_a_tringa_beats_a_double_ronda() -> None:
    game = start(FOUR_CARD, [{0: "5o 5c 5e 1b", 1: "12o 12c 3o 3c"}])
    assert scores(run(game, "declare tringa; declare double_ronda")) == [(0, 7, "announcement", None)]


def test_double_rondas_compare_the_higher_pair_then_the_lower() -> None:
    """R8.3: 12s and 2s beat 11s and 10s; 12s and 3s beat 12s and 2s."""
    for hands, winner in (
        ({0: "12o 12c 2o 2c", 1: "11o 11c 10o 10c"}, 0),
        ({0: "12o 12c 2o 2c", 1: "12e 12b 3o 3c"}, 1),
    ):
        game = start(FOUR_CARD, [hands])
        order = [c for pair in zip(hands[0].split(), hands[1].split(), strict=True) for c in pair]
        events = run(game, "declare double_ronda; declare double_ronda; " + "; ".join(f"play {c}" for c in order))
        assert [s for s in announcement_scores(events)] == [(winner, 4, "announcement", None)]


def test_four_players_four_card_hands_with_transfer_scoring_and_ace_high_play_to_the_end() -> None:
    """Combinations work together: a whole game of 4 players, four-card hands, transfer scoring, ace high."""
    rules = Rules(players=4, four_card_hands=True, transfer_scoring=True, ace_high=True, target=15)
    game = Game(rules, seed=3)
    rng = random.Random(3)
    while not game.finished:
        game.apply(choose(game, rng))
    assert game.events[-1].TYPE == "game_over"
    assert all(e.reason == "cards" for e in game.events if e.TYPE == "score")


# --------------------------------------------------------------------------- transfer_scoring


CARDS = Rules(players=2, transfer_scoring=True)


def test_transfer_scoring_two_players_points_move_cards_not_scores() -> None:
    """transfer_scoring: a missa or a caida takes a card from the opponent's pile; the score stays."""
    game = start(CARDS, [{0: "1c 5o 2e", 1: "6c 5c 11e"}], table="1o 2o 3o 6o")
    events = run(game, "declare none; declare none; play 1c; play 6c")
    assert transfers(events) == [(0, 1, 1, 0, "missa")]
    assert game.view(0).pile_sizes == (3, 3)
    events = run(game, "play 5o; play 5c")
    assert transfers(events) == [(0, 1, 1, 0, "caida"), (0, 1, 1, 0, "missa")]
    assert game.view(0).pile_sizes == (1, 7) and game.scores == [0, 0]
    assert scores(game.events) == []


def test_transfer_scoring_a_payer_without_cards_owes_and_pays_on_its_next_capture() -> None:
    """transfer_scoring: debts are noted and paid as soon as the debtor captures."""
    game = start(CARDS, [{0: "5o 3c 12e", 1: "5c 4b 7b"}], table="3o 6o 10o 1b")
    events = run(game, "declare none; declare none; play 5o; play 5c")
    assert transfers(events) == [(0, 1, 0, 1, "caida")]
    assert game.view(1).debts == ((0, 1), (0, 0))
    events = run(game, "play 3c")
    assert transfers(events) == [(0, 1, 1, 0, "debt")]
    assert game.view(1).debts == ((0, 0), (0, 0)) and game.view(1).pile_sizes == (1, 4)


def test_transfer_scoring_three_players_who_pays_what() -> None:
    """transfer_scoring, 3 players: a missa is paid by each opponent, a caida by the dropper,
    a chain by the seat whose open capture is taken; what a payer lacks it owes."""
    deals = [{0: "1b 5c 11o", 1: "6c 5e 12o", 2: "5o 2e 3e"}]
    game = start(Rules(players=3, transfer_scoring=True), deals, table="1o 2o 3o 6o")
    events = run(game, "declare none; declare none; declare none; play 1b; play 6c")
    assert transfers(events) == [(0, 1, 1, 0, "missa"), (2, 1, 0, 1, "missa")]
    events = run(game, "play 5o; play 5c")
    assert transfers(events) == [(2, 0, 0, 1, "caida"), (1, 0, 1, 0, "missa"), (2, 0, 0, 1, "missa")]
    events = run(game, "play 5e")
    assert transfers(events) == [(0, 1, 4, 1, "chain"), (0, 1, 0, 1, "missa"), (2, 1, 0, 1, "missa")]
    assert game.view(0).pile_sizes == (0, 9, 0)
    assert game.scores == [0, 0, 0]


def test_transfer_scoring_points_taken_back_are_paid_back() -> None:
    """transfer_scoring with R8.6: the bluff's point is owed, the penalty cancels it, the take-back is owed back."""
    game = start(CARDS, [{0: "1o 4o 7o", 1: "2b 5b 11b"}], table="3c 6c 10c 12c")
    assert transfers(run(game, "declare ronda; declare none")) == [(1, 0, 0, 1, "announcement")]
    events = run(game, "play 1o; challenge 0")
    assert transfers(events) == [(0, 1, 0, 0, "false_announcement"), (0, 1, 0, 1, "announcement")]
    assert game.view(1).debts == ((0, 1), (0, 0))


def test_transfer_scoring_debts_lapse_and_the_game_is_won_only_at_a_round_end() -> None:
    """transfer_scoring: only the card count scores, so every win follows a round end; debts start at zero."""
    for seed in range(25):
        game = Game(Rules(players=2 + seed % 3, transfer_scoring=True, target=8), seed=seed)
        rng = random.Random(seed)
        while not game.finished:
            round_before = game.round
            game.apply(choose(game, rng, challenge_rate=0))
            if game.round != round_before and not game.finished:
                assert all(d == 0 for row in game.view(0).debts for d in row)
        last_types = [e.TYPE for e in game.events[-6:]]
        assert "round_end" in last_types and last_types[-1] == "game_over"


def test_transfer_scoring_a_failed_challenge_still_wins_the_game_in_the_middle_of_a_round() -> None:
    """transfer_scoring, R8.8: points win only at a round's end, but a true declaration challenged wins at once."""
    game = start(CARDS, [{0: "1o 1c 7o", 1: "2b 5b 11b"}], table="3c 6c 10c 12c")
    events = run(game, "declare ronda; declare none; play 7o; challenge 0")
    assert game.finished and game.winner == 0 and game.round == 0 and game.scores == [0, 0]
    assert events[-1].to_json() == {"type": "game_over", "winner": 0, "reason": "failed_challenge"}
    assert "round_end" not in [e.TYPE for e in events]


def test_ronda_rules_cards_says_when_a_game_paid_in_cards_is_won(capsys) -> None:
    """The rulebook of transfer_scoring names both ways to win: the count at a round's end, a wrong challenge now."""
    assert main(["rules", "cards"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "points win the game only at the end of a round; a wrong challenge still loses it on the spot" in text
    assert "wins at once, even in the middle of a deal" not in text
    assert "wins, at the card count that ends a round" in text
    assert "A wrong challenge ends the game at once, whatever the scores." in text
    assert main(["rules", "classic"]) == 0
    assert "The first side to reach 41 points wins at once, even in the middle of a deal." in " ".join(
        capsys.readouterr().out.split()
    )


# --------------------------------------------------------------------------- presets and ronda rules


def test_presets_by_name() -> None:
    assert preset_rules("classic") == Rules(players=2)
    assert preset_rules("advanced", players=4) == Rules(players=4, dealer_duty=True)
    assert preset_rules("heavy").chain_points == (1, 6, 15) and preset_rules("heavy").undeclared_ronda_penalty == 5
    assert preset_rules("short", players=3).target == 25
    assert preset_rules("classic", target=61).target == 61
    with pytest.raises(RulesError, match="four-card preset is played by 2 or 4 players"):
        preset_rules("four-card", players=3)
    with pytest.raises(RulesError, match="unknown preset 'tangier'"):
        preset_rules("tangier")


def test_ronda_rules_list_and_text(capsys) -> None:
    assert main(["rules", "--list"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split()[0] for line in lines] == [
        "classic",
        "advanced",
        "four-card",
        "cards",
        "short",
        "heavy",
        "ace-high",
    ]
    assert main(["rules", "advanced", "--players", "3"]) == 0
    text = capsys.readouterr().out
    assert "Dealer's duty" in text and "each player with 14 or more cards" in text and "scores 5" in text
    assert main(["rules", "four-card", "--players", "4"]) == 0
    text = capsys.readouterr().out
    assert "double ronda" in text and "partners" in text.lower()
    assert main(["rules", "classic"]) == 0
    assert "double ronda" not in capsys.readouterr().out
    assert main(["rules", "nowhere"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown preset 'nowhere'" in err


def test_a_record_names_its_variants_and_replays_them() -> None:
    """Records carry every variant by its exact name (RECORD.md) and replay under it."""
    from ronda.engine.record import replay

    rules = Rules(players=4, chain_points=(1, 6, 15), dealer_duty=True, undeclared_ronda_penalty=5, target=30)
    game = Game(rules, seed=5)
    rng = random.Random(5)
    for _ in range(200):
        if game.finished:
            break
        game.apply(choose(game, rng))
    record = game.to_record()
    assert record["rules"] == {
        "players": 4,
        "target": 30,
        "chain_points": [1, 6, 15],
        "undeclared_ronda_penalty": 5,
        "dealer_duty": True,
    }
    assert [e.to_json() for e in replay(record).events] == [e.to_json() for e in game.events]


def test_transfer_scoring_a_raise_takes_the_open_capture_from_whichever_pile_holds_it() -> None:
    """transfer_scoring with R5.3 (a choice where RULES.md is silent): a card of the open capture paid
    away as a debt is taken back by the raise from the pile it went to, so no card is counted twice."""
    deals = [{0: "4c 10b 2b", 1: "6c 11b 2c", 2: "1c 2e 7b"}]
    game = start(Rules(players=3, transfer_scoring=True), deals, table="1o 2o 3o 5o")
    events = run(game, "declare none; declare none; declare none; play 4c; play 6c; play 1c")
    assert transfers(events) == [(0, 2, 0, 1, "missa"), (1, 2, 0, 1, "missa")]  # both owe seat 2
    events = run(game, "play 10b; play 11b; play 2e; play 2b")
    # Seat 0's caida: it pays its debt with the lowest card it holds, 2e of the open capture, to seat 2.
    assert transfers(events) == [(0, 2, 1, 0, "debt"), (2, 0, 1, 0, "caida")]
    events = run(game, "play 2c")
    raised = [e for e in events if e.TYPE == "raise"]
    assert [(e.seat, e.cards) for e in raised] == [(1, (parse_card("2e"), parse_card("2b")))]
    assert transfers(events) == [(1, 2, 1, 0, "debt"), (0, 1, 1, 4, "chain")]
    assert game.view(0).pile_sizes == (0, 3, 7)  # 2e left seat 2's pile with the rest of the open capture
    assert sum(game.view(0).pile_sizes) + len(game.view(0).table) == 12  # 4 turned up + 8 played
