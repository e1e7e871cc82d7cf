"""What one seat may know (R11), as an immutable value.

A :class:`SeatView` is all a bot or a client is ever given. It is built from
the game, copying only public facts and the seat's own hand, so nothing that
holds a view can reach the game or another seat's hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from .cards import ALL_CARDS, CardSet, Mask
from .combinations import NONE, combination_of
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Chain:
    """An open chain (R5.3): the rank played, the cards of the open capture, how many of the rank are in it."""

    rank: int
    cards: CardSet
    count: int
    side: int


@dataclass(frozen=True, slots=True)
class SeatView:
    """Exactly what R11 lets ``seat`` see.

    ``plays`` lists every card played this round with its seat, oldest first;
    ``deal_start`` is where this deal's plays begin in it. ``declarations`` holds
    each seat's declared kind this deal (``None`` before it has declared);
    ``shown`` the hands shown this deal, by challenges (R8.8) and before a win (R9.5).
    """

    seat: int
    rules: Rules
    phase: str
    turn: int
    dealer: int
    round: int
    deal: int
    deals_in_round: int
    hand: CardSet
    table: CardSet
    opening_table: CardSet
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    stock: int
    scores: tuple[int, ...]
    plays: tuple[tuple[int, int], ...]
    deal_start: int
    declarations: tuple[str | None, ...]
    exposed: tuple[bool, ...]
    shown: tuple[CardSet | None, ...]
    settlement_given: tuple[int, ...]
    last_drop: int | None
    chain: Chain | None
    last_capture_side: int | None
    challenged_this_turn: bool
    winner: int | None
    debts: tuple[tuple[int, ...], ...]

    @property
    def side(self) -> int:
        """This seat's side (R2.2)."""
        return self.rules.side_of(self.seat)

    @property
    def players(self) -> int:
        return self.rules.players

    def is_opponent(self, seat: int) -> bool:
        """Whether ``seat`` is on another side (R2.3)."""
        return self.rules.side_of(seat) != self.side

    def played_mask(self) -> Mask:
        """Every card played from a hand this round."""
        mask = 0
        for _, card in self.plays:
            mask |= 1 << card
        return mask

    def deal_plays_of(self, seat: int) -> list[int]:
        """The cards ``seat`` has played in this deal, in order."""
        return [card for s, card in self.plays[self.deal_start :] if s == seat]

    def unseen(self) -> CardSet:
        """Cards this seat cannot place: the other hands and the stock together.

        Cards of a shown hand (R8.8, R9.5) not yet played are not unseen:
        everyone knows which hand holds them.
        """
        known = self.hand.mask | self.table.mask | self.opening_table.mask | self.played_mask()
        for shown in self.shown:
            if shown is not None:
                known |= shown.mask
        return CardSet(ALL_CARDS & ~known)

    def possible_kinds(self, seat: int) -> frozenset[str]:
        """What ``seat``'s hand as dealt this deal may hold, as far as this seat can tell (R8.1, R11).

        The hand is the cards ``seat`` has played this deal plus as many cards
        as it still holds, taken from the cards this seat cannot place
        (:meth:`unseen`); a shown hand (R8.8, R9.5) and this seat's own hand
        are known. A declaration is *proven false* when its kind is not in the
        answer and *proven true* when the answer is its kind alone: then a
        challenge of it cannot fail, or cannot succeed (and would lose the game, R8.8).
        Kinds are ``none``, ``ronda``, ``tringa``, ``double_ronda``.

        >>> from ronda.engine.game import Game
        >>> game = Game(Rules(players=2), seed=2)
        >>> str(game.hand(0)), sorted(game.view(0).possible_kinds(0))
        ('6o 6c 10c', ['ronda'])
        >>> sorted(game.view(1).possible_kinds(0))  # seat 1 cannot tell
        ['none', 'ronda', 'tringa']
        """
        shown = self.shown[seat]
        if seat == self.seat or shown is not None:
            dealt = self.hand.mask if shown is None else shown.mask
            if shown is None:
                for s, card in self.plays[self.deal_start :]:
                    if s == seat:
                        dealt |= 1 << card
            combo = combination_of((c >> 2 for c in CardSet(dealt)), dealt.bit_count() == 4, False)
            return frozenset((NONE if combo is None else combo[0],))
        played = tuple(sorted(card >> 2 for s, card in self.plays[self.deal_start :] if s == seat))
        unseen = self.unseen().mask
        available = tuple((unseen >> (4 * r) & 0xF).bit_count() for r in range(10))
        return _possible_kinds(played, self.hand_sizes[seat], available)


@cache
def _possible_kinds(played: tuple[int, ...], held: int, available: tuple[int, ...]) -> frozenset[str]:
    """The kinds a hand of ``played`` ranks plus ``held`` more cards, drawn from ``available`` per rank, may be."""
    four_card = len(played) + held == 4
    kinds = set()
    for rest in combinations_with_replacement(range(10), held):
        if any(rest.count(r) > available[r] for r in set(rest)):
            continue
        combo = combination_of(played + rest, four_card, False)
        kinds.add(NONE if combo is None else combo[0])
    return frozenset(kinds)
