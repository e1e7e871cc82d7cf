"""The state of a game, declared once: every field, what it means, when it is reset, how it is copied.

:class:`GameState` is the one list of the fields of a :class:`~ronda.engine.game.Game`
(the game's ``__slots__`` are made from it); each field says, in its
:func:`state` declaration, three things the rest of the engine must agree on:

- ``lifetime``: set up once for the game (:data:`GAME`, in ``_setup``), again
  at every round (:data:`ROUND`, ``_new_round_state``) or at every deal
  (:data:`DEAL`, ``_new_deal_state``);
- ``copy``: how :meth:`GameState._copy_state` copies it — :data:`SHARED` (an
  immutable value, or one never changed once made), :data:`LIST` (a list of
  immutable values: a shallow copy), :data:`ROWS` (a list of lists), or
  :data:`HISTORY` (the record and the shuffler: only a copy with history has them);
- ``source``: where a game built from a view (:mod:`ronda.engine.position`)
  takes it — :data:`PUBLIC` (the view: what every seat may know, R11),
  :data:`HIDDEN` (the placement of the cards the view cannot see),
  :data:`DERIVED` (recomputed: equal in effect, not necessarily in value), or
  :data:`HISTORY` (not part of a position).

``tests/engine/test_state.py`` checks the code against these declarations on
real games — every field set by the set-up, reset in its lifetime, copied as
declared, rebuilt from a view as declared — so a field added here and
forgotten in one of those places fails a test at once.

Plain ints, masks and short lists, so that a copy is cheap: searches copy
thousands of games a second. Masks: bit ``c`` is card ``c``
(:mod:`ronda.engine.cards`); rank masks: bit ``r`` is rank index ``r``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .actions import Action
from .cards import Card, Mask, cards_of
from .combinations import Combination, Kind, hand_combinations_memo
from .events import Event
from .rules import Rules
from .view import WAITING, Phase

Lifetime = Literal["game", "round", "deal"]
Copy = Literal["shared", "list", "rows", "history"]
Source = Literal["public", "hidden", "derived", "history"]

GAME: Final = "game"
ROUND: Final = "round"
DEAL: Final = "deal"
SHARED: Final = "shared"
LIST: Final = "list"
ROWS: Final = "rows"
HISTORY: Final = "history"
PUBLIC: Final = "public"
HIDDEN: Final = "hidden"
DERIVED: Final = "derived"


def state(lifetime: Lifetime, copy: Copy, source: Source) -> dict[str, str]:
    """The declaration of a field of :class:`GameState` (see the module's docstring for the three words)."""
    return {"lifetime": lifetime, "copy": copy, "source": source}


@dataclass(slots=True, init=False, repr=False, eq=False)
class GameState:
    """Every field of a game, private to the engine; :class:`~ronda.engine.game.Game` gives them meaning."""

    # ---- the game: rules and fixed facts
    _rules: Rules = field(metadata=state(GAME, SHARED, PUBLIC))
    """The rules of the game."""
    _n: int = field(metadata=state(GAME, SHARED, PUBLIC))
    """The number of players (R2.1)."""
    _side_of: tuple[int, ...] = field(metadata=state(GAME, SHARED, PUBLIC))
    """Each seat's side (R2.2)."""
    _sizes: tuple[int, ...] = field(metadata=state(GAME, SHARED, PUBLIC))
    """Cards per hand in each deal of a round (R3.5, R10 four_card_hands)."""
    _combos: dict[Mask, Combination | None] = field(metadata=state(GAME, SHARED, PUBLIC))
    """The memo of :func:`~ronda.engine.combinations.hand_combination` for these rules (shared on purpose)."""
    _no_debts: tuple[tuple[int, ...], ...] = field(metadata=state(GAME, SHARED, PUBLIC))
    """The debts every view shows when there can be none (R10: only transfer_scoring makes any); ``()`` with it."""
    _rng: random.Random | None = field(metadata=state(GAME, HISTORY, HISTORY))
    """Where the next rounds' decks come from when none is given: a shuffler, or ``None``."""
    _pending_decks: list[list[Card]] = field(metadata=state(GAME, LIST, HISTORY))
    """Decks given for the next rounds, in RECORD.md order (the decks themselves are never changed)."""
    _events: list[Event] = field(metadata=state(GAME, HISTORY, HISTORY))
    """Every event so far (empty in a copy without history)."""
    _log: list[dict[str, Any]] | None = field(metadata=state(GAME, HISTORY, HISTORY))
    """The deck and the decisions of each round, for the record (``None`` in a copy without history)."""
    _round_actions: list[tuple[int, Action]] | None = field(metadata=state(GAME, HISTORY, HISTORY))
    """The current round's list of decisions in ``_log`` (``None`` without history)."""

    # ---- the game: where it stands
    _phase: Phase = field(metadata=state(GAME, SHARED, PUBLIC))
    """What is due (:data:`~ronda.engine.view.Phase`)."""
    _dealer: int = field(metadata=state(GAME, SHARED, PUBLIC))
    """The seat dealing this round (R3.2)."""
    _round: int = field(metadata=state(GAME, SHARED, PUBLIC))
    """The round being played, from 0 (-1 before the first)."""
    _size: int = field(metadata=state(GAME, SHARED, PUBLIC))
    """Cards per hand in the current deal."""
    _scores: list[int] = field(metadata=state(GAME, LIST, PUBLIC))
    """Points per side (R9.1)."""
    _winner: int | None = field(metadata=state(GAME, SHARED, PUBLIC))
    """The side that won the game, or ``None`` (R9.3, R9.4)."""
    _started: tuple[tuple[int, ...], int] | None = field(metadata=state(GAME, SHARED, HISTORY))
    """The scores and round a game made by :meth:`~ronda.engine.game.Game.from_scores` began at.

    ``None`` for a game begun at 0-0 in round 0."""

    # ---- the round
    _turn: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """The seat whose decision is due."""
    _deal: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """The deal being played in this round, from 0 (-1 before the first)."""
    _deck: list[Card] = field(metadata=state(ROUND, SHARED, HIDDEN))
    """This round's deck in dealing order (never changed once dealt: shared by copies)."""
    _stock_pos: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """How many cards of the deck are dealt (R3.6: the stock is empty at ``NUM_CARDS``)."""
    _hands: list[Mask] = field(metadata=state(ROUND, LIST, HIDDEN))
    """Each seat's hand now."""
    _dealt: list[Mask] = field(metadata=state(ROUND, LIST, HIDDEN))
    """Each seat's hand as dealt in this deal (R8.1)."""
    _cards_in_hands: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """Cards left in all hands in this deal."""
    _table: list[Card] = field(metadata=state(ROUND, LIST, PUBLIC))
    """The table's card of each rank index, -1 if none (R4.2 keeps one card of a rank)."""
    _table_ranks: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """The table's ranks, as a rank mask (what :func:`~ronda.engine.table.play_step` reads)."""
    _table_cards: Mask = field(metadata=state(ROUND, SHARED, PUBLIC))
    """The table's cards, as a card mask (what every view reads)."""
    _opening_table: Mask = field(metadata=state(ROUND, SHARED, PUBLIC))
    """The cards turned up for the round (R3.4)."""
    _piles: list[Mask] = field(metadata=state(ROUND, LIST, PUBLIC))
    """Each side's captured cards this round (R7)."""
    _chain_cards: Mask = field(metadata=state(ROUND, SHARED, PUBLIC))
    """The cards of the open capture (R5.3), meaningful while ``_chain_rank`` >= 0."""
    _chain_count: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """How many cards of the chain's rank the open capture holds (R5.3)."""
    _chain_side: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """The side that holds the open capture (R5.3)."""
    _last_capture_side: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """Who captured last this round (R7.1), -1 if nobody."""
    _plays: list[tuple[int, Card]] = field(metadata=state(ROUND, LIST, PUBLIC))
    """Every (seat, card) played this round, oldest first."""
    _deal_start: int = field(metadata=state(ROUND, SHARED, PUBLIC))
    """Where this deal's plays begin in ``_plays``."""
    _debts: list[list[int]] = field(metadata=state(ROUND, ROWS, PUBLIC))
    """``_debts[a][b]``: the cards side a owes side b (R10 transfer_scoring; they lapse at the round's end)."""

    # ---- the deal
    _declared: list[Kind | None] = field(metadata=state(DEAL, LIST, PUBLIC))
    """Each seat's declaration this deal, ``None`` before it declares (R8.2)."""
    _exposed: list[bool] = field(metadata=state(DEAL, LIST, PUBLIC))
    """Whether each seat's declaration is exposed (R8.6)."""
    _ranges: list[tuple[int, int] | None] = field(metadata=state(DEAL, LIST, DERIVED))
    """A live declaration's weakest and strongest candidate (R8.5); ``None`` for ``none``, an exposed
    declaration, and before declaring. Derived in a rebuilt position: up to date there, maybe stale here."""
    _truth: list[Combination | None] = field(metadata=state(DEAL, LIST, HIDDEN))
    """The combination each hand as dealt holds (R8.1), or ``None``."""
    _undeclared: list[Mask] = field(metadata=state(DEAL, LIST, HIDDEN))
    """The cards of a combination not declared exactly, until all are played (R8.7); 0 if none pending."""
    _given: list[int] = field(metadata=state(DEAL, LIST, PUBLIC))
    """What each side has been given for this deal's settlement (R8.5)."""
    _shown: list[Mask | None] = field(metadata=state(DEAL, LIST, PUBLIC))
    """Hands as dealt shown this deal (R8.8, R9.5), ``None`` if not."""
    _active: int = field(metadata=state(DEAL, SHARED, PUBLIC))
    """How many declarations are live (neither ``none`` nor exposed)."""
    _decided: bool = field(metadata=state(DEAL, SHARED, DERIVED))
    """Whether the settlement is decided (R8.5)."""
    _stale: int = field(metadata=state(DEAL, SHARED, DERIVED))
    """Seats (bits) whose true declaration's range is not narrowed yet: narrowing a true declaration
    cannot change a decided settlement, so it waits until something re-settles (a speed-up, see ``_settle``)."""
    _challenged: bool = field(metadata=state(DEAL, SHARED, PUBLIC))
    """Whether the seat to play has challenged this turn (R8.8)."""
    _last_drop: int = field(metadata=state(DEAL, SHARED, PUBLIC))
    """The card dropped on the turn before in this deal (a caida may take it, R5.1), -1 if none."""
    _last_drop_seat: int = field(metadata=state(DEAL, SHARED, PUBLIC))
    """Who dropped ``_last_drop`` (with transfer_scoring and 3 players it pays the caida, R10)."""
    _chain_rank: int = field(metadata=state(DEAL, SHARED, PUBLIC))
    """The rank of the open chain (R5.3), -1 if none: chains close at the end of a deal."""

    def _setup(self, rules: Rules, dealer: int, rng: random.Random | None, decks: Sequence[Sequence[Card]]) -> None:
        """Every field, as at the start of a game that has dealt nothing yet (``game`` fields, then the rest)."""
        self._rules = rules
        self._n = rules.players
        self._sizes = rules.deal_sizes()
        self._size = 0
        self._combos = hand_combinations_memo(rules.ace_high)
        self._side_of = tuple(rules.side_of(s) for s in range(self._n))
        # the debts every view shows when only transfer_scoring makes any (R10); () when it is on
        self._no_debts = () if rules.transfer_scoring else ((0,) * rules.sides,) * rules.sides
        self._rng = rng
        self._pending_decks = [list(d) for d in decks]
        self._dealer = dealer
        self._round = -1
        self._scores = [0] * rules.sides
        self._winner = None
        self._started = None
        self._events = []
        self._log = []
        self._round_actions = None
        self._phase = WAITING
        self._new_round_state()
        self._new_deal_state()

    def _new_round_state(self) -> None:
        """The ``round`` fields, as before a round's first deal."""
        n, sides = self._n, self._rules.sides
        self._turn = (self._dealer + 1) % n
        self._deal = -1
        self._deck = []
        self._stock_pos = 0
        self._hands = [0] * n
        self._dealt = [0] * n
        self._cards_in_hands = 0
        self._table = [-1] * 10
        self._table_ranks = 0
        self._table_cards = 0
        self._opening_table = 0
        self._piles = [0] * sides
        self._chain_cards = 0
        self._chain_count = 0
        self._chain_side = -1
        self._last_capture_side = -1
        self._plays = []
        self._deal_start = 0
        self._debts = [[0] * sides for _ in range(sides)]

    def _new_deal_state(self) -> None:
        """The ``deal`` fields, as before a deal's declarations."""
        n, sides = self._n, self._rules.sides
        self._declared = [None] * n
        self._exposed = [False] * n
        self._ranges = [None] * n
        self._truth = [None] * n
        self._undeclared = [0] * n
        self._given = [0] * sides
        self._shown = [None] * n
        self._active = 0
        self._decided = True
        self._stale = 0
        self._challenged = False
        self._last_drop = -1
        self._last_drop_seat = -1
        self._chain_rank = -1

    def _dealt_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand as dealt in this deal, in the order it was given (R8.8, R9.5 show it).

        Why not the mask's order: RECORD.md writes a shown hand "as dealt", and a
        reader comparing another program's events card for card expects the
        deal's order. A position built without a deck in dealing order (a guess
        from a view) has none to keep: its cards there come in the mask's order.
        """
        dealt = self._dealt[seat]
        cards = tuple(card for card in self._deck if dealt >> card & 1)
        return cards if len(cards) == dealt.bit_count() else tuple(cards_of(dealt))

    def _copy_state(self, o: GameState, history: bool) -> None:
        """Copy every field into ``o`` as its declaration says (``tests/engine/test_state.py`` checks it)."""
        o._rules = self._rules
        o._n = self._n
        o._side_of = self._side_of
        o._sizes = self._sizes
        o._combos = self._combos
        o._no_debts = self._no_debts
        o._phase = self._phase
        o._turn = self._turn
        o._dealer = self._dealer
        o._round = self._round
        o._size = self._size
        o._winner = self._winner
        o._started = self._started
        o._deal = self._deal
        o._deck = self._deck
        o._stock_pos = self._stock_pos
        o._cards_in_hands = self._cards_in_hands
        o._table_ranks = self._table_ranks
        o._table_cards = self._table_cards
        o._opening_table = self._opening_table
        o._chain_cards = self._chain_cards
        o._chain_count = self._chain_count
        o._chain_side = self._chain_side
        o._last_capture_side = self._last_capture_side
        o._deal_start = self._deal_start
        o._active = self._active
        o._decided = self._decided
        o._stale = self._stale
        o._challenged = self._challenged
        o._last_drop = self._last_drop
        o._last_drop_seat = self._last_drop_seat
        o._chain_rank = self._chain_rank
        o._scores = self._scores[:]
        o._pending_decks = self._pending_decks[:]
        o._hands = self._hands[:]
        o._dealt = self._dealt[:]
        o._table = self._table[:]
        o._piles = self._piles[:]
        o._plays = self._plays[:]
        o._declared = self._declared[:]
        o._exposed = self._exposed[:]
        o._ranges = self._ranges[:]
        o._truth = self._truth[:]
        o._undeclared = self._undeclared[:]
        o._given = self._given[:]
        o._shown = self._shown[:]
        o._debts = [row[:] for row in self._debts]
        if history:
            o._rng = None
            if self._rng is not None:
                o._rng = random.Random()
                o._rng.setstate(self._rng.getstate())
            o._events = self._events[:]
            o._log = None if self._log is None else [{"deck": r["deck"], "actions": r["actions"][:]} for r in self._log]
            o._round_actions = o._log[-1]["actions"] if o._log else None
        else:
            o._rng = None
            o._events = []
            o._log = None
            o._round_actions = None


__all__ = ["DEAL", "DERIVED", "GAME", "HIDDEN", "HISTORY", "LIST", "PUBLIC", "ROUND", "ROWS", "SHARED", "GameState"]
