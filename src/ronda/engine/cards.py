"""Cards of the 40-card Spanish pack (R1).

A card is a plain ``int`` from 0 to 39, ``rank_index * 4 + suit_index``, so that
the run order of R1.3 is simply the order of rank indexes and a set of cards is
a 40-bit mask. The public API speaks of one card (:data:`Card`, an id) and one
set of cards (:class:`CardSet`); the engine works on the masks inside, and
hands them out as masks only where searches read them thousands of times a
second (:meth:`~ronda.engine.game.Game.search_state`, the position builder).

>>> parse_card("10C")
29
>>> card_name(29)
'10c'
>>> CardSet.parse("5o 6c 7o")
CardSet.parse('5o 6c 7o')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from .errors import CardError, quoted

Card = int
"""A card id, 0..39 (rank index * 4 + suit index)."""

Mask = int
"""A set of cards as a 40-bit integer; bit ``c`` stands for card ``c``."""

RANKS: Final = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
"""The printed ranks in run order (R1.3): 10 follows 7, no wrap-around."""

SUITS: Final = "oceb"
"""oros/coins (dhab), copas/cups, espadas/swords (chbada), bastos/clubs (khal)."""

SUIT_NAMES: Final = ("oros", "copas", "espadas", "bastos")

RANK_NAMES: Final = ("1", "2", "3", "4", "5", "6", "7", "Sota", "Caballo", "Rey")
"""How players name the ranks; 10, 11 and 12 are the jack, horse and king."""

ALL_CARDS: Final[Mask] = (1 << 40) - 1
NUM_CARDS: Final = 40

_NAMES: Final = tuple(f"{RANKS[c >> 2]}{SUITS[c & 3]}" for c in range(NUM_CARDS))
_BY_NAME: Final = {name: card for card, name in enumerate(_NAMES)}


def rank_of(card: Card) -> int:
    """Rank index 0..9 of ``card``: its place in the run order (R1.3)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """Suit index 0..3 of ``card`` (o, c, e, b)."""
    return card & 3


def card_name(card: Card) -> str:
    """The notation of R1.2, lower case.

    >>> card_name(0), card_name(39)
    ('1o', '12b')
    """
    return _NAMES[card]


def parse_card(text: str) -> Card:
    """Parse R1.2 notation, case-insensitively; raises :class:`CardError`.

    >>> parse_card("12E")
    38
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be written as a string like '5o', not {quoted(text)}")
    try:
        return _BY_NAME[text.strip().lower()]
    except KeyError:
        raise CardError(f"unknown card {quoted(text)} (write rank then suit: 1o, 7e, 10c, 12b)") from None


def cards_of(mask: Mask) -> list[Card]:
    """The card ids of a mask, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


class CardSet:
    """An immutable set of cards over a 40-bit mask, printed as pasteable code.

    >>> hand = CardSet.parse("5o 5c 12b")
    >>> len(hand), parse_card("5c") in hand
    (3, True)
    >>> str(hand | CardSet.parse("1e"))
    '1e 5o 5c 12b'
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[Card] | Mask = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards > ALL_CARDS:
                raise CardError(f"a card mask must fit in 40 bits, not {quoted(cards)}")
            self.mask: Mask = cards
        else:
            mask = 0
            for card in cards:
                if not 0 <= card < NUM_CARDS:
                    raise CardError(f"card ids run from 0 to 39, not {quoted(card)}")
                mask |= 1 << card
            self.mask = mask

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Cards written in R1.2 notation, separated by spaces or commas."""
        return cls(parse_card(word) for word in text.replace(",", " ").split())

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < NUM_CARDS and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def names(self) -> list[str]:
        """The cards in notation, in run order."""
        return [card_name(card) for card in self]

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
