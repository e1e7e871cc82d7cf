"""Games built from one seat's view and a placement of the cards it cannot see: what searches play in.

Search bots reason by *determinization*: they guess where the hidden cards are
(the other hands and the order of the stock), consistently with everything
their seat knows (R11), and play the guessed game forward. That needs a game
that behaves from here on exactly as the real one would if the guess were the
truth: the same legal actions, the same events, the same points.
:meth:`Game.from_view <ronda.engine.game.Game.from_view>` builds one;
:class:`PositionBuilder` builds many from one view, doing the view's part once.

Every public fact comes from the view: scores, table, open chain, last drop,
plays of the round, declarations and their exposures, what the settlement has
given so far (R8.5), shown hands, debts. What depends on the hidden cards is
derived by the game from the placement the way it derives it at a deal: the
hands as dealt, their true combinations, the undeclared combinations still
pending (R8.7), the candidates of each live declaration (R8.5).

A view says how many cards each pile holds, not which; piles are rebuilt by
replaying the round's public plays on the opening table with the engine's own
:func:`~ronda.engine.table.play_step` (``tests/engine/test_state.py`` checks
the rebuilt piles, and every other field, against the real game's at every
position of random games). Only with ``transfer_scoring`` can this
differ from the real piles (which captured cards were paid away is not part of
a view): the sizes are then made right by moving the lowest cards, so counts —
all that scoring reads — match; a raise that takes back a card already paid
away is the one place where a count could differ.

The builder is made by the game (:meth:`Game.positions
<ronda.engine.game.Game.positions>`), which gives it a way to make an empty
game to fill in: this module sits below the game and imports only the state
and the rules' steps.

>>> from ronda.engine.game import Game
>>> from ronda.engine.rules import Rules
>>> game = Game(Rules(players=2), seed=3)
>>> builder = Game.positions(game.view(0))
>>> builder.unknown_seats(), len(CardSet(builder.hidden))
([1], 33)
>>> again = builder.build({1: game.hand(1).mask}, game.stock_cards())
>>> again.legal_actions() == game.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

from .cards import ALL_CARDS, NUM_CARDS, Card, CardSet, Mask, card_name, cards_of
from .combinations import NONE, hand_combination
from .errors import PositionError, quoted
from .settlement import Announcements
from .table import play_step
from .view import DECLARE, PLAY, PublicView, SeatView

G = TypeVar("G", bound=Announcements)


class PositionBuilder(Generic[G]):
    """Builds games from one view and many placements of its hidden cards.

    Everything public is worked out once here (piles, table, the public part
    of the game), so that each :meth:`build` is one cheap copy plus the hidden
    part — search bots build hundreds of positions per move. Hands are masks
    (:attr:`~ronda.engine.cards.CardSet.mask`) for the same reason.
    """

    __slots__ = ("_blank", "_fixed", "_hidden", "_played", "_template", "view")

    def __init__(self, view: SeatView, blank: Callable[[], G]) -> None:
        if view.phase not in (DECLARE, PLAY):
            raise PositionError(f"a position is built for a decision, not in phase {quoted(view.phase)}")
        self.view = view
        n = view.rules.players
        # Cards each seat has played in this deal: with its hand they make the hand as dealt.
        self._played = [view.played_this_deal(seat) for seat in range(n)]
        # Hands known without guessing: the seat's own, and shown hands (R8.8, R9.5).
        fixed: dict[int, Mask] = {view.seat: view.hand.mask}
        for seat, shown in enumerate(view.shown):
            if shown is not None and seat != view.seat:
                fixed[seat] = shown.mask & ~self._played[seat]
        self._fixed = fixed
        self._hidden = view.unseen().mask
        self._blank = blank
        self._template = _public_position(blank, view, _rebuild_piles(view))

    @property
    def hidden(self) -> Mask:
        """The cards a placement must share out between the unknown hands and the stock."""
        return self._hidden

    def unknown_seats(self) -> list[int]:
        """Seats whose hands a placement must give (not the view's own seat, not shown hands)."""
        return [s for s in range(self.view.rules.players) if s not in self._fixed]

    def build(
        self,
        hands: Mapping[int, Mask],
        stock: Sequence[Card],
        *,
        rng: random.Random | None = None,
        decks: Sequence[Sequence[Card]] = (),
        check: bool = True,
    ) -> G:
        """The game in which the unknown seats hold ``hands`` and the stock deals ``stock`` in order.

        ``hands`` maps each unknown seat to its hand; known hands (the view's own,
        shown ones) may be given too if they agree. After this round the game
        deals ``decks`` (RECORD.md order), then shuffles with ``rng``; with neither
        it waits at the round's end (phase ``waiting``), which is where a search
        of this round stops. ``check=False`` skips validating the placement, for
        samplers that guarantee it.
        """
        full = dict(self._fixed)
        for seat, mask in hands.items():
            if seat in self._fixed:
                if check and mask != self._fixed[seat]:
                    raise PositionError(f"seat {seat}'s hand is known to be {_names(self._fixed[seat])}")
                continue
            full[seat] = mask
        if check:
            self._check(full, stock)
        placed = [full[seat] for seat in range(self.view.rules.players)]
        return _with_hidden(self._blank, self._template, placed, self._played, stock, rng, decks)

    def _check(self, full: Mapping[int, Mask], stock: Sequence[Card]) -> None:
        view = self.view
        for seat in range(view.rules.players):
            if seat not in full:
                raise PositionError(f"the placement gives no hand to seat {seat}")
            if full[seat].bit_count() != view.hand_sizes[seat]:
                raise PositionError(
                    f"seat {seat} holds {view.hand_sizes[seat]} cards, the placement gives it {full[seat].bit_count()}"
                )
        if len(stock) != view.stock:
            raise PositionError(f"the stock holds {view.stock} cards, the placement gives {len(stock)}")
        placed = 0
        for seat in self.unknown_seats():
            if full[seat] & placed:
                raise PositionError("the placement gives one card to two hands")
            placed |= full[seat]
        for card in stock:
            if placed >> card & 1:
                raise PositionError(f"{card_name(card)} is placed twice")
            placed |= 1 << card
        if placed != self._hidden:
            wrong = placed & ~self._hidden
            if wrong:
                raise PositionError(f"{_names(wrong)} cannot be hidden from seat {view.seat}: it is seen")
            raise PositionError(f"the placement leaves out {_names(self._hidden & ~placed)}")


def _public_position(blank: Callable[[], G], view: PublicView, piles: Sequence[Mask]) -> G:
    """The public part of the game ``view`` sees, hands and stock empty: every field whose source is ``public``.

    Every field is first made by the same code as a new game's, then set
    from the view (:mod:`ronda.engine.state` says which fields come from it);
    ``piles`` are the captured cards, rebuilt from the plays.
    """
    game = blank()
    game._setup(view.rules, view.dealer, None, [])
    game._round = view.round
    game._deal = view.deal
    game._size = game._sizes[view.deal]
    game._phase = view.phase
    game._turn = view.turn
    game._stock_pos = NUM_CARDS - view.stock
    game._cards_in_hands = sum(view.hand_sizes)
    for card in view.table:
        game._table[card >> 2] = card
        game._table_ranks |= 1 << (card >> 2)
        game._table_cards |= 1 << card
    game._opening_table = view.opening_table.mask
    game._piles = list(piles)
    game._scores = list(view.scores)
    game._winner = view.winner
    game._log = None
    game._last_drop = -1 if view.last_drop is None else view.last_drop
    game._last_drop_seat = view.plays[-1][0] if view.last_drop is not None else -1
    chain = view.chain
    if chain is not None:
        game._chain_rank, game._chain_cards = chain.rank, chain.cards.mask
        game._chain_count, game._chain_side = chain.count, chain.side
    game._last_capture_side = -1 if view.last_capture_side is None else view.last_capture_side
    game._plays = list(view.plays)
    game._deal_start = view.deal_start
    game._debts = [list(row) for row in view.debts]
    game._declared = list(view.declarations)
    game._exposed = list(view.exposed)
    game._given = list(view.settlement_given)
    game._shown = [None if m is None else m.mask for m in view.shown]
    game._challenged = view.challenged_this_turn
    # With fresh candidate ranges nothing is stale; "not decided" only makes the
    # engine recheck a true declaration's range, which cannot change a decided settlement.
    game._decided = view.phase == DECLARE
    game._active = sum(
        1 for seat, d in enumerate(view.declarations) if d is not None and d != NONE and not view.exposed[seat]
    )
    return game


def _with_hidden(
    blank: Callable[[], G],
    public: G,
    hands: Sequence[Mask],
    played: Sequence[Mask],
    stock: Sequence[Card],
    rng: random.Random | None,
    decks: Sequence[Sequence[Card]],
) -> G:
    """A copy of the public position ``self`` with the hands (masks, seat order) and the stock placed.

    What depends on hidden cards is derived as the engine derives it at a
    deal: the hands as dealt (the hand and the cards ``played`` this deal),
    their combinations, the undeclared ones still pending (R8.7), the
    candidates of each live declaration (R8.5).
    """
    game = blank()
    public._copy_state(game, history=False)
    game._rng = rng
    game._pending_decks = [list(d) for d in decks]
    stock_mask = 0
    for card in stock:
        stock_mask |= 1 << card
    game._deck = cards_of(ALL_CARDS & ~stock_mask) + list(stock)
    ace_high = public._rules.ace_high
    declaring = public._phase == DECLARE
    for seat in range(public._n):
        hand = hands[seat]
        dealt = hand | played[seat]
        game._hands[seat] = hand
        game._dealt[seat] = dealt
        combo = hand_combination(dealt, ace_high)
        declared = public._declared[seat]
        if combo is not None:
            game._truth[seat] = combo
            # R8.7: pending until all of the combination's cards are played; once
            # declared exactly, never (the engine clears it when declarations end).
            if declaring or (combo.kind != declared and combo.cards & hand):
                game._undeclared[seat] = combo.cards
        if declared is not None and declared != NONE and not public._exposed[seat]:
            kept = game._candidate_range(seat, hand)
            if kept is None:
                raise PositionError(f"seat {seat}'s live {declared} has no candidate left: not a real view")
            game._ranges[seat] = kept
    return game


def _rebuild_piles(view: SeatView) -> list[Mask]:
    """Each side's captured cards: the round's plays replayed on the opening table, then sizes matched."""
    rules = view.rules
    chains = rules.players > 2
    piles = [0] * rules.sides
    table = view.opening_table.mask
    ranks = sum(1 << (card >> 2) for card in view.opening_table)
    drop = chain = -1
    chain_cards = chain_count = 0
    deal_starts = _deal_starts(view)
    for index, (seat, card) in enumerate(view.plays):
        if index in deal_starts:
            drop = chain = -1  # R5.2, R5.3: no caida or chain across deals
        step = play_step(ranks, drop, chain, chain_count, card >> 2, chains)
        ranks, drop, chain, chain_count, taken = step.table, step.drop, step.chain, step.chain_count, step.taken
        side = rules.side_of(seat)
        if step.raised:
            chain_cards |= 1 << card
            for s in range(len(piles)):
                piles[s] &= ~chain_cards
            piles[side] |= chain_cards
        elif taken:
            cards = sum(table & 0xF << (4 * r) for r in range(10) if taken >> r & 1)
            table &= ~cards
            piles[side] |= cards | 1 << card
            chain_cards = cards | 1 << card
        else:
            table |= 1 << card
    _match_pile_sizes(piles, view)
    return piles


def _deal_starts(view: SeatView) -> set[int]:
    """Indexes in ``view.plays`` where a deal after the first begins."""
    starts = set()
    start = 0
    for size in view.rules.deal_sizes()[:-1]:
        start += size * view.rules.players
        starts.add(start)
    return starts


def _match_pile_sizes(piles: list[Mask], view: SeatView) -> None:
    """transfer_scoring moves captured cards between piles; match the view's sizes, lowest cards first."""
    wanted = view.pile_sizes
    keep = view.chain.cards.mask if view.chain is not None else 0
    surplus = [s for s in range(len(piles)) if piles[s].bit_count() > wanted[s]]
    for giver in surplus:
        for taker in range(len(piles)):
            while piles[giver].bit_count() > wanted[giver] and piles[taker].bit_count() < wanted[taker]:
                movable = piles[giver] & ~keep or piles[giver]
                low = movable & -movable
                piles[giver] ^= low
                piles[taker] |= low


def _names(mask: Mask) -> str:
    return str(CardSet(mask))


__all__ = ["PositionBuilder"]
