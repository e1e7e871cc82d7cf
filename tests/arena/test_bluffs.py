"""Bluffs and challenges, priced (issue 28, item 5): the decisions found on explicit deals, and what they earn."""

from __future__ import annotations

import bluffers  # noqa: F401  (registers the "always-tringa" bot)
from decks import build_deck
from ronda.arena.bluffs import Decision, decisions, measure, price
from ronda.engine.actions import Challenge, Declare, Play
from ronda.engine.cards import parse_card
from ronda.engine.game import Game
from ronda.engine.rules import Rules


def _at(scores: list[int], deals: list[dict[int, str]], dealer: int = 0) -> Game:
    rules = Rules(players=2)
    deck = build_deck(rules, deals=deals, table="10o 11c 4b 12b", dealer=dealer)
    return Game.from_scores(rules, scores, decks=[[parse_card(c) for c in deck]], dealer=dealer)


def test_R8_2_holding_nothing_against_a_winning_ronda_the_bluff_is_found_and_priced_both_ways() -> None:
    # 40-40, seat 1 (first to declare) holds a ronda: declared, its point wins the game at once (R9.5).
    # Seat 0 holds nothing: declaring none loses on the spot; a bluffed ronda keeps the settlement open.
    # Whatever seat 1 plays first (a 5 or a 7, nothing to take on the table), seat 0 can take it: a caida.
    game = _at([40, 40], [{1: "5o 5c 7e", 0: "7o 5b 1o"}])
    game.apply(Declare("ronda"))
    declined: set[tuple[int, int, int, int]] = set()
    (none,) = decisions(game, 0, Declare("none"), declined)
    (bluff,) = decisions(game, 0, Declare("ronda"), declined)
    assert (none.kind, none.other) == ("no_bluff", Declare("ronda"))
    assert (bluff.kind, bluff.other) == ("bluff", Declare("none"))

    truthful = game.copy()
    truthful.apply(Declare("none"))
    assert truthful.winner == 1  # R9.5: the ronda is shown and its point wins
    won, _, chance = price(game, bluff, playouts=6, continuation="medium", seed=1)
    lost, _, _ = price(game, none, playouts=6, continuation="medium", seed=1)
    assert won > 0  # the bluff wins some games that declaring none lost every time
    assert lost == -won  # the same play-outs, seen from the other choice
    assert 0.0 <= chance <= 1.0


def test_R8_8_a_challenge_and_a_challenge_declined_at_stake_are_found() -> None:
    # 40-40, seat 1 declares a true ronda, seat 0 a bluffed ronda: whose is higher waits for the cards (R8.5),
    # and either would win the game. Seat 1 may now challenge seat 0's ronda.
    game = _at([40, 40], [{1: "5o 5c 7e", 0: "7o 5b 1o"}])
    game.apply(Declare("ronda"))
    game.apply(Declare("ronda"))
    declined: set[tuple[int, int, int, int]] = set()
    play = next(a for a in game.legal_actions() if isinstance(a, Play))
    (skipped,) = decisions(game, 1, play, declined)
    assert (skipped.kind, skipped.other) == ("no_challenge", Challenge(0))
    assert decisions(game, 1, play, declined) == []  # counted once per seat and declaration
    (made,) = decisions(game, 1, Challenge(0), declined)
    assert made == Decision("challenge", 1, Challenge(0), None)
    # The challenge exposes the bluff and its penalty point wins the game for seat 1 (R8.6). Played on instead,
    # seat 1 must drop a 5 or a 7, seat 0 takes it and its caida wins first: the challenge is worth the whole game.
    won, points, _ = price(game, made, playouts=4, continuation="medium", seed=2)
    assert won == 1.0 and points > 0


def test_every_bluff_the_referee_counts_is_priced_and_a_report_reproduces_exactly() -> None:
    rules = Rules(players=2)
    first = measure("always-tringa", rules, games=3, seed=5, playouts=2)
    again = measure("always-tringa", rules, games=3, seed=5, playouts=2)
    assert first.counts.bluffs > 0
    assert len(first.priced["bluff"].wins) == first.counts.bluffs
    assert sum(first.per_game["bluffs"]) == first.counts.bluffs
    assert first.games == 3 and first.rounds >= 3
    assert first == again
