"""The deck builder used by rules tests makes decks the engine accepts, exactly as asked."""

from decks import build_deck
from ronda import Game, Rules, parse_card
from ronda.engine.cards import CardSet


def test_builder_places_hands_and_table_as_asked() -> None:
    rules = Rules(players=2)
    deck = build_deck(rules, deals=[{0: "5o 5c 12b", 1: "1o 2o 3o"}], table="7e 10e 4b 6c")
    game = Game(rules, decks=[[parse_card(c) for c in deck]])
    assert game.hand(0) == CardSet.parse("5o 5c 12b")
    assert game.hand(1) == CardSet.parse("1o 2o 3o")
    assert game.view(0).table == CardSet.parse("7e 10e 4b 6c")
