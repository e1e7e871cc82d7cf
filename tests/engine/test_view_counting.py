"""What a seat can prove about another hand from its own view (R11): the counting behind "this challenge cannot win"."""

from __future__ import annotations

from decks import run, start
from ronda.engine.rules import Rules

TWO = Rules(players=2)


def test_a_hand_played_out_is_known_exactly() -> None:
    game = start(TWO, [{0: "1o 1c 7o", 1: "2b 5b 11b"}], table="3c 6c 10c 12c")
    run(game, "declare ronda; declare none; play 7o; play 2b")
    assert game.view(1).possible_kinds(0) == {"none", "ronda", "tringa"}  # 7o and two cards seat 1 cannot see
    run(game, "play 1o; play 5b")
    assert game.view(1).possible_kinds(0) == {"none", "ronda"}
    run(game, "play 1c")
    assert game.view(1).possible_kinds(0) == {"ronda"}  # all three face up: a challenge could only fail


def test_cards_this_seat_holds_or_has_seen_rule_hands_out() -> None:
    game = start(TWO, [{0: "1o 1c 7o", 1: "1e 1b 11b"}], table="3c 6c 10c 12c")
    run(game, "declare ronda; declare ronda")
    assert game.view(1).possible_kinds(0) == {"none", "ronda", "tringa"}
    run(game, "play 1o")
    assert game.view(1).possible_kinds(0) == {"none", "ronda"}  # a tringa would need two more 1s: seat 1 holds them
    run(game, "play 11b; play 1c")
    assert game.view(1).possible_kinds(0) == {"ronda"}  # a pair of 1s, and the other 1s are in seat 1's hand
    assert game.view(0).possible_kinds(1) == {"none", "ronda", "tringa"}


def test_a_seat_knows_its_own_hand_and_every_shown_hand() -> None:
    game = start(TWO, [{0: "1o 4o 7o", 1: "2b 5b 11b"}], table="3c 6c 10c 12c")
    assert game.view(0).possible_kinds(0) == {"none"}
    run(game, "declare ronda; declare none; play 1o; challenge 0")
    assert game.view(1).possible_kinds(0) == {"none"}
