"""Decks: shuffling with the opening-table procedure (R3.3, R3.4), and checking them.

A deck here is the order RECORD.md writes: the first deal's hands (seat after
the dealer first), then the opening table, then the stock in dealing order.
Shuffling and replaying are therefore separate: the procedure of R3.4 runs once
when a deck is made, and a replay only ever reads the order it produced.

>>> import random
>>> deck = shuffled_deck(Rules(players=2), random.Random(7))
>>> len(deck), len(set(deck))
(40, 40)
>>> check_deck(deck, Rules(players=2))
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import NUM_CARDS, card_name, rank_of
from .errors import DeckError, json_kind, quoted
from .rules import Rules


def is_run_of_four(ranks: Sequence[int]) -> bool:
    """Four rank indexes that are consecutive in the run order (R3.4), e.g. 6 7 10 11.

    >>> is_run_of_four([5, 6, 7, 8]), is_run_of_four([0, 1, 2, 4])
    (True, False)
    """
    ordered = sorted(ranks)
    return len(ordered) == 4 and ordered[3] - ordered[0] == 3 and len(set(ordered)) == 4


def opening_table_problem(table: Sequence[int]) -> str | None:
    """Why an opening table breaks R3.4, or ``None`` when it is valid."""
    ranks = [rank_of(card) for card in table]
    if len(set(ranks)) != len(ranks):
        return "the opening table holds two cards of one rank (R3.4): " + " ".join(card_name(c) for c in table)
    if is_run_of_four(ranks):
        return "the opening table is a run of four (R3.4): " + " ".join(card_name(c) for c in table)
    return None


_CARD_IDS = range(NUM_CARDS)


def shuffled_deck(rules: Rules, rng: random.Random) -> list[int]:
    """A deck in dealing order, shuffled with ``rng``, its opening table made by R3.4.

    Cards are turned up one at a time; a card whose rank is already up goes back
    into the stock, which is shuffled again; a fourth card that completes a run
    of four goes back the same way.

    "Put back and shuffle the stock" is done by putting the card back at a
    uniformly random place: the rest of the stock is already in uniformly
    random order, so the result has exactly the distribution of a full
    reshuffle, at a fraction of the cost (this runs every round of every
    simulated game).
    """
    # Sorting by independent uniform keys is a uniform shuffle, and much cheaper
    # in Python than Fisher-Yates, which draws one bounded integer per card.
    # The keys are drawn in card order, as a key function would draw them: the same deck for the same seed.
    draw = rng.random
    keys = [draw() for _ in _CARD_IDS]
    cards = sorted(_CARD_IDS, key=keys.__getitem__)
    dealt = rules.players * rules.deal_sizes()[0]
    hands, stock = cards[:dealt], cards[dealt:]
    table: list[int] = []
    ranks_up = 0
    table_size = rules.opening_table_size
    while len(table) < table_size:
        card = stock.pop(0)
        if ranks_up >> (card >> 2) & 1:
            stock.insert(rng.randrange(len(stock) + 1), card)
            continue
        table.append(card)
        ranks_up |= 1 << (card >> 2)
        if len(table) == 4 and is_run_of_four([rank_of(up) for up in table]):
            back = table.pop()
            ranks_up &= ~(1 << (back >> 2))
            stock.insert(rng.randrange(len(stock) + 1), back)
    return hands + table + stock


def check_deck(deck: object, rules: Rules) -> None:
    """Raise :class:`DeckError` unless ``deck`` is 40 distinct card ids with a valid opening table."""
    if not isinstance(deck, (list, tuple)):
        raise DeckError(f"a deck must be a list of 40 cards, not {json_kind(deck)}")
    if len(deck) != NUM_CARDS:
        raise DeckError(f"a deck must hold 40 cards, this one holds {len(deck)}")
    seen: set[int] = set()
    for card in deck:
        if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
            raise DeckError(f"not a card id: {quoted(card)}")
        if card in seen:
            raise DeckError(f"the deck holds {card_name(card)} twice")
        seen.add(card)
    start = rules.players * rules.deal_sizes()[0]
    problem = opening_table_problem(deck[start : start + rules.opening_table_size])
    if problem:
        raise DeckError(problem)
