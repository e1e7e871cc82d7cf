"""What a seat may know (R11), and what a spectator may know, as immutable values.

A :class:`SeatView` is all a bot or a client is ever given; a
:class:`PublicView` is what anyone watching may know, no hand at all. Both are
built by the game (:meth:`~ronda.engine.game.Game.view`,
:meth:`~ronda.engine.game.Game.public_view`), copying only public facts and
the seat's own hand, so nothing that holds a view can reach the game or a
hidden card.

Views are immutable tuples whose fields are read by name. Why not frozen
dataclasses, as they were: building a frozen dataclass of 29 fields cost more
than a whole turn of the engine (each field is set through
``object.__setattr__``), and the research adapters build a view at every
step. A view is built in one ``tuple.__new__``, and each field is a read-only
property over its place in the tuple.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from operator import itemgetter
from typing import Any, Final, Literal, NamedTuple

from .cards import ALL_CARDS, Card, CardSet, Mask
from .combinations import NONE, Kind, combination_of
from .rules import Rules

Phase = Literal["declare", "play", "waiting", "over"]
"""Where a game stands: a seat must declare (R8.2) or play (R4.1, with a challenge first, R8.8);
the game waits for the next round's deck (given decks only); or it is won."""

DECLARE: Final = "declare"
"""The phase in which each seat declares, from the seat after the dealer (R8.2)."""
PLAY: Final = "play"
"""The phase in which the seat to act plays a card, after a challenge if it makes one (R4.1, R8.8)."""
WAITING: Final = "waiting"
"""Between rounds, for a game given its decks: it waits for the next one (``Game.add_deck``)."""
OVER: Final = "over"
"""The game is won (R9.3, R8.8)."""


@dataclass(frozen=True, slots=True)
class Chain:
    """An open chain (R5.3): its rank, the cards of the open capture, how many of the rank it holds, its side.

    ``rank`` is a rank index (0 for 1 … 9 for 12), as in :mod:`ronda.engine.cards`.
    """

    rank: int
    cards: CardSet
    count: int
    side: int


class _Fields(tuple[Any, ...]):
    """A tuple with named read-only fields: the annotations of its class, in order, after its parent's.

    :func:`_named_fields` turns each annotation into a property over its place.
    Only the game builds views (``tuple.__new__`` with every value in order).
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __repr__(self) -> str:
        pairs = zip(self._fields, self, strict=True)
        return f"{type(self).__name__}(" + ", ".join(f"{name}={value!r}" for name, value in pairs) + ")"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _rebuild, (type(self), tuple(self))


def _rebuild(cls: type[_Fields], values: tuple[Any, ...]) -> _Fields:
    """Unpickle a view (bots in worker processes receive views by pickle)."""
    return tuple.__new__(cls, values)


def _named_fields(cls: type[_Fields]) -> type[_Fields]:
    """Give ``cls`` a read-only property for each field it declares, numbered after its parent's fields."""
    parent = cls._fields  # inherited: the parent's, until set below
    own = tuple(inspect.get_annotations(cls))
    for index, name in enumerate(own, start=len(parent)):
        setattr(cls, name, property(itemgetter(index)))
    cls._fields = parent + own
    return cls


@_named_fields
class PublicView(_Fields):
    """Every public fact of the game (R11): what a spectator may know.

    ``plays`` lists every card played this round with its seat, oldest first;
    ``deal_start`` is where this deal's plays begin in it. ``declarations`` holds
    each seat's declared kind this deal (``None`` before it has declared);
    ``shown`` the hands shown this deal, by challenges (R8.8) and before a win
    (R9.5). ``settlement_given`` is what each side has been given so far for
    this deal's settlement (R8.5); ``debts[a][b]`` the cards side ``a`` owes
    side ``b`` with transfer_scoring (R10). ``last_drop`` is the card dropped on
    the turn before in this deal (a caida may take it, R5.1).

    A view cannot be changed:

    >>> from ronda.engine.game import Game
    >>> view = Game(Rules(players=2), seed=1).public_view()
    >>> view.phase, view.hand_sizes, view.stock
    ('declare', (3, 3), 30)
    >>> view.stock = 0  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    AttributeError: property 'stock' of 'PublicView' object has no setter
    """

    __slots__ = ()
    rules: Rules
    phase: Phase
    turn: int
    dealer: int
    round: int
    deal: int
    deals_in_round: int
    table: CardSet
    opening_table: CardSet
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    stock: int
    scores: tuple[int, ...]
    plays: tuple[tuple[int, Card], ...]
    deal_start: int
    declarations: tuple[Kind | None, ...]
    exposed: tuple[bool, ...]
    shown: tuple[CardSet | None, ...]
    settlement_given: tuple[int, ...]
    last_drop: Card | None
    chain: Chain | None
    last_capture_side: int | None
    challenged_this_turn: bool
    winner: int | None
    debts: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> int:
        return self.rules.players

    def played_mask(self) -> Mask:
        """Every card played from a hand this round."""
        mask = 0
        for _, card in self.plays:
            mask |= 1 << card
        return mask

    def played_this_deal(self, seat: int) -> Mask:
        """The cards ``seat`` has played in this deal: with its hand, they make its hand as dealt."""
        mask = 0
        for s, card in self.plays[self.deal_start :]:
            if s == seat:
                mask |= 1 << card
        return mask


@_named_fields
class SeatView(PublicView):
    """Exactly what R11 lets ``seat`` see: the public facts of :class:`PublicView` and its own ``hand``."""

    __slots__ = ()
    seat: int
    hand: CardSet

    @property
    def side(self) -> int:
        """This seat's side (R2.2)."""
        return self.rules.side_of(self.seat)

    def is_opponent(self, seat: int) -> bool:
        """Whether ``seat`` is on another side (R2.3)."""
        return self.rules.side_of(seat) != self.side

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

    def masks(self) -> ViewMasks:
        """This view's facts as :class:`ViewMasks` (bare masks and numbers, -1 for what is absent), field by field."""
        chain, last_drop, last_capture, winner = self.chain, self.last_drop, self.last_capture_side, self.winner
        return ViewMasks(
            rules=self.rules,
            phase=self.phase,
            turn=self.turn,
            dealer=self.dealer,
            round=self.round,
            deal=self.deal,
            deals_in_round=self.deals_in_round,
            table=self.table.mask,
            opening_table=self.opening_table.mask,
            hand_sizes=self.hand_sizes,
            pile_sizes=self.pile_sizes,
            stock=self.stock,
            scores=self.scores,
            plays=self.plays,
            deal_start=self.deal_start,
            declarations=self.declarations,
            exposed=self.exposed,
            shown=tuple([None if hand is None else hand.mask for hand in self.shown]),
            settlement_given=self.settlement_given,
            last_drop=-1 if last_drop is None else last_drop,
            chain_rank=-1 if chain is None else chain.rank,
            chain_cards=0 if chain is None else chain.cards.mask,
            chain_count=0 if chain is None else chain.count,
            chain_side=-1 if chain is None else chain.side,
            last_capture_side=-1 if last_capture is None else last_capture,
            challenged_this_turn=self.challenged_this_turn,
            winner=-1 if winner is None else winner,
            debts=self.debts,
            seat=self.seat,
            hand=self.hand.mask,
        )

    def possible_kinds(self, seat: int) -> frozenset[Kind]:
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
            dealt = self.hand.mask | self.played_this_deal(seat) if shown is None else shown.mask
            combo = combination_of((c >> 2 for c in CardSet(dealt)), dealt.bit_count() == 4, False)
            return frozenset((NONE if combo is None else combo[0],))
        played = tuple(sorted(card >> 2 for s, card in self.plays[self.deal_start :] if s == seat))
        unseen = self.unseen().mask
        held = self.hand_sizes[seat]  # never more of a rank than that: the same answer, memoised far more often
        available = tuple(min(held, (unseen >> (4 * r) & 0xF).bit_count()) for r in range(10))
        return _possible_kinds(played, held, available)

    def proof(self, seat: int) -> Literal["true", "false"] | None:
        """What this seat's view proves of ``seat``'s declaration (R8.8): ``"true"``, ``"false"``, or nothing.

        Proven true when the hand as dealt can only hold the declared kind
        (:meth:`possible_kinds`): a challenge of it can only fail and lose the
        game, so no interface offers it and no bot makes it. Proven false when
        it cannot hold that kind: a challenge cannot fail. ``None`` when the
        cards seen leave it open, or when ``seat`` declared nothing to challenge.
        Written once here, as every reader of a declaration (the bots, the
        coach, the interfaces' offers) must reach the same verdict.

        >>> from ronda.engine.game import Game
        >>> from ronda.engine.actions import Declare
        >>> game = Game(Rules(players=2), seed=2)
        >>> _ = game.apply(Declare("ronda")); _ = game.apply(Declare("ronda"))
        >>> game.view(1).proof(0), game.view(0).proof(1), game.view(0).proof(0)
        (None, None, 'true')
        """
        declared = self.declarations[seat]
        if declared is None or declared == NONE:
            return None
        possible = self.possible_kinds(seat)
        if declared not in possible:
            return "false"
        return "true" if possible == {declared} else None


class ViewMasks(NamedTuple):
    """A :class:`SeatView`'s facts as bare integers and tuples: what a research adapter encodes at every step.

    The same facts as the view, nothing more (R11), with cards as masks and
    absent things as -1 (``last_drop``, ``chain_rank``, ``chain_side``,
    ``last_capture_side``, ``winner``): no :class:`CardSet` or :class:`Chain`
    object is built. Why it exists: an environment builds one observation per
    step, and a whole view cost over half of the engine's step.
    :meth:`~ronda.engine.game.Game.view_masks` builds it from the game,
    :meth:`SeatView.masks` from a view, and the two are equal:

    >>> from ronda.engine.game import Game
    >>> game = Game(Rules(players=2), seed=1)
    >>> game.view_masks(1) == game.view(1).masks()
    True
    """

    rules: Rules
    phase: Phase
    turn: int
    dealer: int
    round: int
    deal: int
    deals_in_round: int
    table: Mask
    opening_table: Mask
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    stock: int
    scores: tuple[int, ...]
    plays: tuple[tuple[int, Card], ...]
    deal_start: int
    declarations: tuple[Kind | None, ...]
    exposed: tuple[bool, ...]
    shown: tuple[Mask | None, ...]
    settlement_given: tuple[int, ...]
    last_drop: int
    chain_rank: int
    chain_cards: Mask
    chain_count: int
    chain_side: int
    last_capture_side: int
    challenged_this_turn: bool
    winner: int
    debts: tuple[tuple[int, ...], ...]
    seat: int
    hand: Mask


@cache
def _possible_kinds(played: tuple[int, ...], held: int, available: tuple[int, ...]) -> frozenset[Kind]:
    """The kinds a hand of ``played`` ranks plus ``held`` more cards, drawn from ``available`` per rank, may be."""
    four_card = len(played) + held == 4
    kinds: set[Kind] = set()
    for rest in combinations_with_replacement(range(10), held):
        if any(rest.count(r) > available[r] for r in set(rest)):
            continue
        combo = combination_of(played + rest, four_card, False)
        kinds.add(NONE if combo is None else combo[0])
    return frozenset(kinds)


__all__ = ["DECLARE", "OVER", "PLAY", "WAITING", "Chain", "Phase", "PublicView", "SeatView", "ViewMasks"]
