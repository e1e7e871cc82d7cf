"""A position: a whole :class:`Game` rebuilt from one seat's view and a placement of the cards it cannot see.

Search bots reason by *determinization*: they guess where the hidden cards are
(the other hands and the order of the stock), consistently with everything
their seat knows (R11), and play the guessed game forward. That needs a game
that behaves from here on exactly as the real one would if the guess were the
truth: the same legal actions, the same events, the same points. This module
builds it.

Every public fact comes from the view: scores, table, open chain, last drop,
plays of the round, declarations and their exposures, what the settlement has
given so far (R8.5), hands shown by challenges, debts. What depends on the
hidden cards is derived from the placement the way the engine derives it at a
deal: the hands as dealt, their true combinations, the undeclared combinations
still pending (R8.7), the candidates of each live declaration (R8.5).

A view says how many cards each pile holds, not which; piles are rebuilt by
replaying the round's public plays on the opening table. Only with
``transfer_scoring`` can this differ from the real piles (which captured cards
were paid away is not part of a view): the sizes are then made right by moving
the lowest cards, so counts — all that scoring reads — match; a raise that
takes back a card already paid away is the one place where a count could differ.

>>> from ronda.engine.rules import Rules
>>> from ronda.engine.game import Game
>>> game = Game(Rules(players=2), seed=3)
>>> view = game.view(0)
>>> hidden = {1: game.hands[1]}
>>> stock = game.deck[game.stock_pos:]
>>> again = game_from_view(view, hidden, stock)
>>> again.legal_actions() == game.legal_actions()
True
>>> again.apply(game.legal_actions()[0]) == game.apply(game.legal_actions()[0])
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from .cards import ALL_CARDS, NUM_CARDS, Mask, card_name, cards_of
from .combinations import NONE, candidate_range, hand_combination
from .deck import shuffled_deck
from .errors import RondaError
from .game import DECLARE, PLAY, Game
from .rules import Rules
from .view import SeatView


class PositionError(RondaError):
    """A placement of hidden cards that does not fit the view it is meant to complete."""


class PositionBuilder:
    """Builds games from one view and many placements of its hidden cards.

    Everything public is worked out once here (piles, table, candidates of the
    view's own seat), so that each :meth:`build` is one cheap copy plus the
    hidden part — search bots build hundreds of positions per move.
    """

    __slots__ = ("_dealt_played", "_fixed", "_hidden", "_template", "view")

    def __init__(self, view: SeatView) -> None:
        if view.phase not in (DECLARE, PLAY):
            raise PositionError(f"a position is built for a decision, not in phase {view.phase!r}")
        self.view = view
        n = view.rules.players
        # Cards each seat has played in this deal: with its hand they make the hand as dealt.
        played = [0] * n
        for seat, card in view.plays[view.deal_start :]:
            played[seat] |= 1 << card
        self._dealt_played = played
        # Hands known without guessing: the seat's own, and hands shown by challenges (R8.8).
        fixed: dict[int, Mask] = {view.seat: view.hand.mask}
        for seat, shown in enumerate(view.shown):
            if shown is not None and seat != view.seat:
                fixed[seat] = shown.mask & ~played[seat]
        self._fixed = fixed
        self._hidden = view.unseen().mask
        self._template = self._public_game()

    @property
    def hidden(self) -> Mask:
        """The cards a placement must share out between the unknown hands and the stock."""
        return self._hidden

    def unknown_seats(self) -> list[int]:
        """Seats whose hands a placement must give (not the view's own seat, not shown hands)."""
        return [s for s in range(self.view.rules.players) if s not in self._fixed]

    # ------------------------------------------------------------ public part

    def _public_game(self) -> Game:
        view = self.view
        rules = view.rules
        n = rules.players
        # A real game of these rules makes every field exist with its engine-made
        # value (caches included); the state is then overwritten from the view.
        game = Game(rules, decks=[_any_deck(rules)], dealer=view.dealer)
        game._rng = None
        game._pending_decks = []
        game.phase = view.phase
        game.turn = view.turn
        game.dealer = view.dealer
        game.round = view.round
        game.deal = view.deal
        game.sizes = rules.deal_sizes()
        game.size = game.sizes[view.deal]
        game.deck = []
        game.stock_pos = NUM_CARDS - view.stock
        game.hands = [0] * n
        game.dealt = [0] * n
        game.cards_in_hands = sum(view.hand_sizes)
        table = [-1] * 10
        table_ranks = 0
        for card in view.table:
            table[card >> 2] = card
            table_ranks |= 1 << (card >> 2)
        game.table = table
        game.table_ranks = table_ranks
        game.opening_table = view.opening_table.mask
        game.piles = _rebuild_piles(view)
        game.scores = list(view.scores)
        game.last_drop = -1 if view.last_drop is None else view.last_drop
        game.last_drop_seat = view.plays[-1][0] if view.last_drop is not None else -1
        chain = view.chain
        game.chain_rank = -1 if chain is None else chain.rank
        game.chain_cards = 0 if chain is None else chain.cards.mask
        game.chain_count = 0 if chain is None else chain.count
        game.chain_side = -1 if chain is None else chain.side
        game.last_capture_side = -1 if view.last_capture_side is None else view.last_capture_side
        game.declared = list(view.declarations)
        game.exposed = list(view.exposed)
        game.ranges = [None] * n
        game.truth = [None] * n
        game.undeclared = [0] * n
        game.given = list(view.settlement_given)
        game.shown = [None if m is None else m.mask for m in view.shown]
        game.active = 0
        game.challenged = view.challenged_this_turn
        game.winner = view.winner
        game.events = []
        game.log = None
        game.round_actions = None
        game.plays = list(view.plays)
        game.deal_start = view.deal_start
        game.debts = [list(row) for row in view.debts]
        # With fresh candidate ranges nothing is stale; "not decided" only makes the
        # engine recheck a true declaration's range, which cannot change a decided settlement.
        game.decided = view.phase == DECLARE
        game.stale = 0
        for live in range(n):
            declared = view.declarations[live]
            if declared is not None and declared != NONE and not view.exposed[live]:
                game.active += 1
        missing = [name for name in Game.__slots__ if not _has(game, name)]
        if missing:  # the engine grew a field this module does not know how to set
            raise PositionError(f"position.py does not set Game fields {missing}")
        return game

    # ------------------------------------------------------------ hidden part

    def build(
        self,
        hands: Mapping[int, Mask],
        stock: Sequence[int],
        *,
        rng: random.Random | None = None,
        decks: Sequence[Sequence[int]] = (),
        check: bool = True,
    ) -> Game:
        """The game in which the unknown seats hold ``hands`` and the stock deals ``stock`` in order.

        ``hands`` maps each unknown seat to its hand; known hands (the view's own,
        shown ones) may be given too if they agree. After this round the game
        deals ``decks`` (RECORD.md order), then shuffles with ``rng``; with neither
        it waits at the round's end (phase ``waiting``), which is where a search
        of this round stops. ``check=False`` skips validating the placement, for
        samplers that guarantee it.
        """
        view = self.view
        n = view.rules.players
        full = dict(self._fixed)
        for seat, mask in hands.items():
            if seat in self._fixed:
                if check and mask != self._fixed[seat]:
                    raise PositionError(f"seat {seat}'s hand is known to be {_names(self._fixed[seat])}")
                continue
            full[seat] = mask
        if check:
            self._check(full, stock)
        game = self._template.copy(history=False)
        game._rng = rng
        game._pending_decks = [list(d) for d in decks]
        stock_mask = 0
        for card in stock:
            stock_mask |= 1 << card
        game.deck = cards_of(ALL_CARDS & ~stock_mask) + list(stock)
        rules = view.rules
        declaring = view.phase == DECLARE
        for seat in range(n):
            hand = full[seat]
            dealt = hand | self._dealt_played[seat]
            game.hands[seat] = hand
            game.dealt[seat] = dealt
            combo = hand_combination(dealt, rules.ace_high)
            declared = view.declarations[seat]
            if combo is not None:
                game.truth[seat] = (combo[0], combo[1])
                # R8.7: pending until all of the combination's cards are played; once
                # declared exactly, never (the engine clears it when declarations end).
                if declaring or (combo[0] != declared and combo[2] & hand):
                    game.undeclared[seat] = combo[2]
            if declared is not None and declared != NONE and not view.exposed[seat]:
                played = tuple(sorted(c >> 2 for c in cards_of(self._dealt_played[seat])))
                game.ranges[seat] = candidate_range(declared, played, game.size, rules.ace_high)
                if game.ranges[seat] is None:
                    raise PositionError(f"seat {seat}'s live {declared} has no candidate left: not a real view")
        return game

    def _check(self, full: Mapping[int, Mask], stock: Sequence[int]) -> None:
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


def game_from_view(
    view: SeatView,
    hands: Mapping[int, Mask],
    stock: Sequence[int],
    *,
    rng: random.Random | None = None,
    decks: Sequence[Sequence[int]] = (),
) -> Game:
    """The game seen by ``view`` in which the unseen cards lie as placed; see :class:`PositionBuilder`."""
    return PositionBuilder(view).build(hands, stock, rng=rng, decks=decks)


class Moment(NamedTuple):
    """The public table just before one play of the round: what the player chose against."""

    seat: int
    card: int
    table_ranks: int
    last_drop: int
    chain_rank: int
    chain_count: int


def replay_plays(view: SeatView) -> tuple[list[Mask], list[Moment]]:
    """Replay the round's public plays on the opening table (R4, R5.3).

    Returns each side's captured cards as the plays alone make them (before any
    transfer_scoring payments), and the table before every play.
    """
    rules = view.rules
    n = rules.players
    side_of = [rules.side_of(s) for s in range(n)]
    piles = [0] * rules.sides
    moments = []
    table = [-1] * 10
    table_ranks = 0
    for card in view.opening_table:
        table[card >> 2] = card
        table_ranks |= 1 << (card >> 2)
    deal_ends: list[int] = []
    end = 0
    for size in rules.deal_sizes():
        end += size * n
        deal_ends.append(end)
    last_drop = chain_rank = -1
    chain_cards = chain_count = 0
    for index, (seat, card) in enumerate(view.plays):
        if index in deal_ends:
            last_drop = chain_rank = -1
        moments.append(Moment(seat, card, table_ranks, last_drop, chain_rank, chain_count if chain_rank >= 0 else 0))
        rank = card >> 2
        side = side_of[seat]
        if rank == chain_rank:
            for s in range(len(piles)):
                piles[s] &= ~chain_cards
            chain_cards |= 1 << card
            chain_count += 1
            piles[side] |= chain_cards
            last_drop = -1
        elif table[rank] >= 0:
            caida = last_drop >= 0 and last_drop >> 2 == rank
            mask = 1 << card
            r = rank
            while r < 10 and table[r] >= 0:
                mask |= 1 << table[r]
                table[r] = -1
                table_ranks &= ~(1 << r)
                r += 1
            piles[side] |= mask
            last_drop = -1
            chain_rank, chain_cards, chain_count = (rank, mask, 2) if caida and n > 2 else (-1, 0, 0)
        else:
            table[rank] = card
            table_ranks |= 1 << rank
            last_drop = card
            chain_rank = -1
    return piles, moments


def _rebuild_piles(view: SeatView) -> list[Mask]:
    """Each side's captured cards: the replayed plays, then sizes matched to the view's."""
    piles = replay_plays(view)[0]
    _match_pile_sizes(piles, view)
    return piles


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


@lru_cache(maxsize=64)
def _any_deck_cached(rules: Rules) -> tuple[int, ...]:
    return tuple(shuffled_deck(rules, random.Random(0)))


def _any_deck(rules: Rules) -> list[int]:
    """A valid deck for these rules; its cards are all replaced by the position's."""
    return list(_any_deck_cached(rules))


def _has(game: Game, name: str) -> bool:
    try:
        getattr(game, name)
    except AttributeError:
        return False
    return True


def _names(mask: Mask) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


__all__ = ["Moment", "PositionBuilder", "PositionError", "game_from_view", "replay_plays"]
