"""The game of Ronda as a state machine: decisions in, public events out.

:class:`Game` holds one game from its first deal to the win. It asks for the
three decisions of the rules (declare, play, challenge) through
:meth:`Game.legal_actions` and :meth:`Game.apply` — each decision verified,
then applied, returning the public events it caused — and performs every other
step itself: dealing, turning up the table, scoring, settling declarations,
passing the deal, in the order of R9.2, checking for a win after each step
(R9.3). Its state is private; its public methods and read-only properties are
the whole API.

>>> game = Game(Rules(players=2, auto_declare=True), seed=1)
>>> game.phase, game.turn, game.scores
('play', 0, [0, 0])
>>> game.legal_actions()
[Play(card=13), Play(card=20), Play(card=35)]
>>> [event.TYPE for event in game.apply(Play(13))]
['drop']

Choices where RULES.md is silent or contradicts itself (each also noted where it is implemented):

- Candidates (R8.5) of different declarations range independently of each
  other, as R8.5 says, even where two hands could not both hold them.
- A raise (R5.3) counts as a capture for dealer duty (R10) as it does for R6
  and R7.1: the dealer who raises with a 12 on the last turn has captured with it.
- transfer_scoring with 3 players: the dealer-duty penalty is paid by the dealer,
  like the other penalties that name an offender.
- ``double_ronda`` can be declared only in a deal of four-card hands.
- R8.7: the undeclared penalty and the exposure of the offender's live
  declaration it proves are one step of R9.3: the win is checked after both
  penalties (so a side that reaches the target by the first has both), then the
  settlement is recomputed (R8.6) and the win checked again.
- R9.5 applies whenever a settlement would give a side a positive award that
  leaves it at or above the target (also when sides tied at the target play
  on, R9.3), with ``auto_declare`` too (the hands shown are then all true);
  only the first false declaration is exposed, as written (see
  ``_show_declarations``).
- transfer_scoring: RULES.md contradicts itself. R10 says "a game is won only
  at the end of a round", R8.8 that a true declaration challenged "wins the
  game at once". The source texts settle it: in their card-transfer version
  points are scored only at the end, and a wrong challenge makes the
  challenger's opponents win immediately. So points win only at the card count
  (R7.2), and a failed challenge ends the game mid-round in every variant
  (:meth:`_challenge`); docs/RULES.md says so.
- transfer_scoring: a payment moves the payer's lowest cards (by card id);
  which cards move matters only to a raise (R5.3), which takes the open
  capture from whichever piles hold its cards now, since a debt paid on the
  caida may have moved part of it to another pile.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from .actions import CHALLENGES, DECLARES, PLAYS, Action, Challenge, Declare, Play, action_to_record
from .cards import NUM_CARDS, Card, CardSet, Mask, card_name, cards_of
from .combinations import (
    DECLARATIONS,
    DOUBLE_RONDA,
    NONE,
    RONDA,
    TRINGA,
    Combination,
    Kind,
    candidate_range,
    hand_combination,
)
from .deck import check_deck, shuffled_deck
from .errors import IllegalActionError, NotYourTurnError, RondaError, quoted
from .events import (
    Capture,
    ChallengeMade,
    Deal,
    Declaration,
    Drop,
    Event,
    Raise,
    RoundEnd,
    RoundStart,
    Score,
    TableTaken,
)
from .position import PositionBuilder
from .rules import Rules
from .settlement import Announcements
from .table import RankMask, chain_points, dealer_duty_points, last_turn, missa, step_values
from .view import DECLARE, OVER, PLAY, WAITING, Chain, Phase, PublicView, SeatView, ViewMasks

_DECLARES_3: tuple[Declare, ...] = (DECLARES[NONE], DECLARES[RONDA], DECLARES[TRINGA])
_DECLARES_4: tuple[Declare, ...] = (*_DECLARES_3, DECLARES[DOUBLE_RONDA])
_PLAYS_BY_HAND: dict[Mask, list[Action]] = {}
_MISS = Combination("none", -1, 0)
"""Sentinel for a hand not yet in the memo of :func:`hand_combination`."""
_new = tuple.__new__
"""Events are NamedTuples; building them with ``tuple.__new__`` skips a Python-level frame per event."""
_DROP_EVENTS = tuple(tuple(Drop(seat, card) for card in range(NUM_CARDS)) for seat in range(4))
_SEAT_CARD = tuple(tuple((seat, card) for card in range(NUM_CARDS)) for seat in range(4))
"""``(seat, card)`` pairs of the round's plays, made once."""
_SEAT_PLAY: tuple[tuple[tuple[int, Action], ...], ...] = tuple(
    tuple((seat, PLAYS[card]) for card in range(NUM_CARDS)) for seat in range(4)
)
"""``(seat, Play(card))`` pairs of the record, made once."""
_DECLARATION_EVENTS = tuple({kind: Declaration(seat, kind) for kind in DECLARATIONS} for seat in range(4))
"""Events are immutable values: the common ones are made once, not at every play of every rollout."""


def _plays_for(hand: Mask) -> list[Action]:
    """The play actions of a hand, memoised by mask: the hot path allocates nothing."""
    plays = _PLAYS_BY_HAND.get(hand)
    if plays is None:
        plays = [PLAYS[card] for card in cards_of(hand)]
        if len(_PLAYS_BY_HAND) < 200_000:
            _PLAYS_BY_HAND[hand] = plays
    return plays


def card_count_points(piles: Sequence[int], players: int) -> list[int]:
    """R7.2: points per side for the cards captured in a round.

    With 2 or 4 players a side scores one point per card above 20; with 3
    players every seat with 14 or more scores one point per card above 13.

    >>> card_count_points([26, 14], 2), card_count_points([20, 20], 4), card_count_points([14, 13, 13], 3)
    ([6, 0], [0, 0], [1, 0, 0])
    """
    floor = 13 if players == 3 else 20
    return [count - floor if count > floor else 0 for count in piles]


class SearchState(NamedTuple):
    """What a search reads at each play of a rollout, as plain ints and masks (:meth:`Game.search_state`).

    Masks, not :class:`CardSet`, because rollout policies read this millions of
    times a search: bit ``c`` of a hand is card ``c``; bit ``r`` of ``table`` is
    rank index ``r`` (R4.2 keeps one card of a rank on the table).
    """

    seat: int
    """The seat to play."""
    hands: tuple[Mask, ...]
    """Every seat's hand — the true ones in a real game, the guessed ones in a game built by :meth:`Game.from_view`."""
    table: RankMask
    """The ranks on the table."""
    drop: int
    """The rank a caida may take now (the card dropped on the turn before, R5.1), -1 if none."""
    chain: int
    """The rank of the open chain (R5.3), -1 if none."""
    chain_count: int
    """Cards of that rank in the open capture, 0 if none."""
    cards_left: int
    """Cards left in all hands in this deal."""
    last_deal: bool
    """Whether this is the last deal of the round (the stock is empty): its last card gets no missa (R6.2)."""
    rules: Rules
    """The rules of the game (a chain's points, R10)."""
    out: Mask
    """The cards played this round (on the table or in the piles): with its own hand, all a seat has seen of
    the pack. A rollout policy that must not read the other hands (:func:`ronda.bots.rollout.blind_policy`)
    counts the unseen cards of each rank from it."""


Policy = Callable[[SearchState, Callable[[], float]], Card]
"""A way to choose plays in :meth:`Game.playout`: the card for ``state.seat``, given a random source."""


class Game(Announcements):
    """One game of Ronda under some :class:`Rules`.

    Give either a ``seed`` (or an ``rng``) and the engine shuffles every round
    itself, or ``decks`` in RECORD.md order and it deals exactly those; a game
    that runs out of given decks waits (phase ``waiting``) for :meth:`add_deck`.
    ``dealer`` deals the first round (default: the last seat, R3.2).

    Everyone may read the public facts (:meth:`public_view`, and the properties
    :attr:`phase`, :attr:`turn`, :attr:`scores`, ...); a seat is given
    :meth:`view`. The game itself knows every card: :meth:`hand`,
    :meth:`dealt_hand`, :meth:`pile`, :meth:`stock_cards` and
    :meth:`search_state` are for whoever may see them — a referee, a test, or
    a search inside a game it built from its own view (:meth:`from_view`).

    The state is private and declared once, field by field, in
    :class:`~ronda.engine.state.GameState`. Where each rule happens: this class
    deals (R3), takes the declarations (R8.2) and plays the turn in R9.2's order
    (:meth:`_play`: R4, R5, R6, R10 dealer duty) and the round's end (R7);
    :class:`~ronda.engine.settlement.Announcements` settles the declarations
    (R8.5-R8.7, R9.5); :class:`~ronda.engine.scoring.Scoring` scores and checks
    the win (R9.1, R9.3, R10 transfer_scoring).
    """

    __slots__ = ()

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        decks: Sequence[Sequence[Card]] | None = None,
        dealer: int | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise RondaError(f"a game needs Rules, not {type(rules).__name__}")
        given = sum(x is not None for x in (seed, rng, decks))
        if given != 1:
            raise RondaError("give a game exactly one of seed, rng or decks")
        n = rules.players
        if dealer is None:
            dealer = n - 1
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise RondaError(f"the dealer must be a seat from 0 to {n - 1}, not {quoted(dealer)}")
        self._setup(rules, dealer, random.Random(seed) if seed is not None else rng, decks or [])
        self._start_round()

    @classmethod
    def from_scores(
        cls,
        rules: Rules,
        scores: Sequence[int],
        *,
        round: int = 0,
        seed: int | None = None,
        rng: random.Random | None = None,
        decks: Sequence[Sequence[Card]] | None = None,
        dealer: int | None = None,
    ) -> Game:
        """A game that begins at ``scores`` (one number per side, R9.1), its first round numbered ``round``.

        Everything else is as in ``Game(rules, seed=..., rng=..., decks=..., dealer=...)``:
        ``dealer`` deals this round, the deck comes from the seed, the generator or
        the given decks. A position near the target (R9.3, R9.5) is then reached
        without playing the rounds before it: an environment's episode, a study
        of the endgame. Such a game has no RECORD.md record (a record begins at
        0-0): :meth:`to_record` refuses it. Raises :class:`RondaError` naming a
        bad score or round.

        >>> game = Game.from_scores(Rules(players=2), [38, 12], round=4, seed=1, dealer=0)
        >>> game.scores, game.round, game.dealer, game.turn
        ([38, 12], 4, 0, 1)
        """
        if not isinstance(rules, Rules):
            raise RondaError(f"a game needs Rules, not {type(rules).__name__}")
        target = rules.target
        if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence) or len(scores) != rules.sides:
            raise RondaError(f"scores are one number per side ({rules.sides} sides), not {quoted(scores)}")
        for side, points in enumerate(scores):
            if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points < target:
                raise RondaError(
                    f"side {side}'s score must be a whole number from 0 to {target - 1} "
                    f"(at {target} the game is won, R9.3), not {quoted(points)}"
                )
        if not isinstance(round, int) or isinstance(round, bool) or round < 0:
            raise RondaError(f"the round must be a whole number from 0, not {quoted(round)}")
        if sum(x is not None for x in (seed, rng, decks)) != 1:
            raise RondaError("give a game exactly one of seed, rng or decks")
        game = cls(rules, decks=[], dealer=dealer)  # checks the dealer; waits for a deck
        game._scores = list(scores)
        game._round = round - 1
        game._rng = random.Random(seed) if seed is not None else rng
        game._pending_decks = [list(d) for d in decks or []]
        game._started = (tuple(scores), round) if any(scores) or round else None
        game._start_round()
        return game

    def copy(self, history: bool = True) -> Game:
        """An independent copy of the game, which plays on exactly as this one would.

        ``history=False`` makes a light copy for search: no event log, no record,
        and no shuffler, so it stops at the end of the round (phase ``waiting``)
        unless given the next deck with :meth:`add_deck`.

        >>> game = Game(Rules(players=2), seed=5)
        >>> again = game.copy()
        >>> again.apply(Declare("ronda")) == game.apply(Declare("ronda"))
        True
        >>> game.copy(history=False).events
        []
        """
        o = _Blank()
        self._copy_state(o, history)
        return o

    @classmethod
    def from_view(
        cls,
        view: SeatView,
        hands: Mapping[int, CardSet],
        stock: Sequence[Card],
        *,
        rng: random.Random | None = None,
        decks: Sequence[Sequence[Card]] = (),
    ) -> Game:
        """The game ``view`` sees, completed by a guess of what it cannot see: a game to search in.

        ``hands`` gives the hand of every seat whose hand the view does not
        know (not the view's own, not a shown one); ``stock`` the stock in
        dealing order. The game behaves from here on exactly as the real one
        would if the guess were the truth: the same legal actions, events and
        points. After this round it deals ``decks``, then shuffles with ``rng``;
        with neither it waits at the round's end. Raises :class:`PositionError`
        for a guess that contradicts the view. A search that builds hundreds of
        games from one view uses :meth:`positions`,
        which does the work of the view once (and takes masks).

        >>> game = Game(Rules(players=2), seed=3)
        >>> guess = Game.from_view(game.view(0), {1: game.hand(1)}, game.stock_cards())
        >>> guess.legal_actions() == game.legal_actions()
        True
        >>> guess.apply(Declare("ronda")) == game.apply(Declare("ronda"))
        True
        """
        masks = {seat: cards.mask for seat, cards in hands.items()}
        return Game.positions(view).build(masks, stock, rng=rng, decks=decks)

    @staticmethod
    def positions(view: SeatView) -> PositionBuilder[Game]:
        """A :class:`~ronda.engine.position.PositionBuilder` of games from ``view``: for a search that builds many.

        >>> game = Game(Rules(players=2), seed=3)
        >>> builder = Game.positions(game.view(0))
        >>> builder.build({1: game.hand(1).mask}, game.stock_cards()).legal_actions() == game.legal_actions()
        True
        """
        return PositionBuilder(view, _Blank)

    # ------------------------------------------------------------- public facts

    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self._rules

    @property
    def players(self) -> int:
        """The number of players (R2.1)."""
        return self._n

    @property
    def phase(self) -> Phase:
        """``declare`` or ``play`` (a decision is due from :attr:`turn`), ``waiting`` for a deck, or ``over``."""
        return self._phase

    @property
    def turn(self) -> int:
        """The seat whose decision is due."""
        return self._turn

    @property
    def dealer(self) -> int:
        """The seat dealing this round (R3.2)."""
        return self._dealer

    @property
    def round(self) -> int:
        """The round being played, from 0."""
        return self._round

    @property
    def deal(self) -> int:
        """The deal being played in this round, from 0."""
        return self._deal

    @property
    def hand_size(self) -> int:
        """Cards each hand was given in the current deal."""
        return self._size

    @property
    def stock(self) -> int:
        """Cards left to deal this round."""
        return NUM_CARDS - self._stock_pos if self._deck else 0

    @property
    def scores(self) -> list[int]:
        """Points per side (R2.2, R9.1): a copy."""
        return self._scores[:]

    @property
    def pile_sizes(self) -> tuple[int, ...]:
        """Cards each side has captured this round (R7.2)."""
        return tuple(pile.bit_count() for pile in self._piles)

    @property
    def winner(self) -> int | None:
        """The side that won the game, or ``None``."""
        return self._winner

    @property
    def finished(self) -> bool:
        """Whether the game is won (R9.3, R8.8)."""
        return self._phase == OVER

    @property
    def events(self) -> list[Event]:
        """Every public event so far, in order: a copy (each :meth:`apply` returns the new ones)."""
        return self._events[:]

    @property
    def actions_taken(self) -> int:
        """How many decisions have been taken — the actions of the record; 0 in a copy without history."""
        return sum(len(r["actions"]) for r in self._log) if self._log else 0

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know (R11): its own hand and the public facts, nothing else.

        >>> game = Game(Rules(players=2), seed=1)
        >>> view = game.view(1)
        >>> view.hand == game.hand(1), view.hand_sizes, view.declarations
        (True, (3, 3), (None, None))
        """
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise RondaError(f"there is no seat {quoted(seat)} in a {self._n}-player game")
        return tuple.__new__(SeatView, (*self._public_facts(), seat, CardSet(self._hands[seat])))

    def public_view(self) -> PublicView:
        """What everyone may know (R11), no hand at all: for spectators.

        >>> view = Game(Rules(players=3), seed=1).public_view()
        >>> view.hand_sizes, len(view.table), view.turn
        ((3, 3, 3), 4, 0)
        """
        return tuple.__new__(PublicView, self._public_facts())

    def view_masks(self, seat: int) -> ViewMasks:
        """The facts of :meth:`view` as bare masks and numbers (:class:`ViewMasks`): for an environment's every step.

        Equal to ``view(seat).masks()`` for a third less than the view costs:
        no card set or chain object is made.

        >>> game = Game(Rules(players=2), seed=2)
        >>> masks = game.view_masks(0)
        >>> masks.hand == game.hand(0).mask, masks.chain_rank, masks == game.view(0).masks()
        (True, -1, True)
        """
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise RondaError(f"there is no seat {quoted(seat)} in a {self._n}-player game")
        chain = self._chain_rank >= 0
        winner = self._winner
        return tuple.__new__(
            ViewMasks,
            (
                *self._round_facts(),
                self._table_cards,
                self._opening_table,
                tuple(map(int.bit_count, self._hands)),
                tuple(map(int.bit_count, self._piles)),
                NUM_CARDS - self._stock_pos if self._deck else 0,
                tuple(self._scores),
                tuple(self._plays),
                self._deal_start,
                tuple(self._declared),
                tuple(self._exposed),
                tuple(self._shown),
                tuple(self._given),
                self._last_drop,
                self._chain_rank,
                self._chain_cards if chain else 0,
                self._chain_count if chain else 0,
                self._chain_side if chain else -1,
                self._last_capture_side,
                self._challenged,
                -1 if winner is None else winner,
                self._no_debts or tuple(map(tuple, self._debts)),
                seat,
                self._hands[seat],
            ),
        )

    def _round_facts(self) -> tuple[Rules, Phase, int, int, int, int, int]:
        """The first fields of a view and of its masks: rules, phase, turn, dealer, round, deal, deals in the round."""
        return (self._rules, self._phase, self._turn, self._dealer, self._round, self._deal, len(self._sizes))

    def _public_facts(self) -> tuple[Any, ...]:
        """The fields of :class:`PublicView`, in its order."""
        chain = None
        if self._chain_rank >= 0:
            chain = Chain(self._chain_rank, CardSet(self._chain_cards), self._chain_count, self._chain_side)
        return (
            *self._round_facts(),
            CardSet(self._table_cards),
            CardSet(self._opening_table),
            tuple([h.bit_count() for h in self._hands]),
            tuple([p.bit_count() for p in self._piles]),
            self.stock,
            tuple(self._scores),
            tuple(self._plays),
            self._deal_start,
            tuple(self._declared),
            tuple(self._exposed),
            tuple([None if m is None else CardSet(m) for m in self._shown]),
            tuple(self._given),
            None if self._last_drop < 0 else self._last_drop,
            chain,
            None if self._last_capture_side < 0 else self._last_capture_side,
            self._challenged,
            self._winner,
            tuple([tuple(row) for row in self._debts]),
        )

    # ------------------------------------------------------------- what only the game knows

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds. Not for other seats: they are given a :meth:`view`.

        >>> game = Game(Rules(players=2, auto_declare=True), seed=2)
        >>> game.hand(0), len(game.stock_cards()), game.pile(0)
        (CardSet.parse('6o 6c 10c'), 30, CardSet.parse(''))
        >>> _ = game.apply(Play(20))
        >>> game.hand(0), game.dealt_hand(0)
        (CardSet.parse('6c 10c'), CardSet.parse('6o 6c 10c'))
        """
        return CardSet(self._hands[seat])

    def dealt_hand(self, seat: int) -> CardSet:
        """``seat``'s hand as dealt in this deal: what it holds and what it has played of it (R8.1)."""
        return CardSet(self._dealt[seat])

    def pile(self, side: int) -> CardSet:
        """The cards ``side`` has captured this round (only their number is public, R11)."""
        return CardSet(self._piles[side])

    def stock_cards(self) -> list[Card]:
        """The stock in dealing order (never seen by a seat, R11)."""
        return self._deck[self._stock_pos :]

    def search_state(self) -> SearchState:
        """The state a rollout policy reads, as masks: see :class:`SearchState`.

        >>> game = Game(Rules(players=2, auto_declare=True), seed=1)
        >>> state = game.search_state()
        >>> state.seat, CardSet(state.hands[0]), bin(state.table), state.cards_left
        (0, CardSet.parse('4c 6o 11b'), '0b1001000101', 6)
        """
        drop = self._last_drop
        out = self._table_cards
        for pile in self._piles:
            out |= pile
        return _new(
            SearchState,
            (
                self._turn,
                tuple(self._hands),
                self._table_ranks,
                drop >> 2 if drop >= 0 else -1,
                self._chain_rank,
                self._chain_count if self._chain_rank >= 0 else 0,
                self._cards_in_hands,
                self._stock_pos == NUM_CARDS,
                self._rules,
                out,
            ),
        )

    # ------------------------------------------------------------- decisions

    def legal_actions(self) -> list[Action]:
        """Every decision the seat to act may take now (R8.2, R4.1, R8.8); empty when none is due.

        >>> game = Game(Rules(players=2), seed=1)
        >>> game.legal_actions()
        [Declare(declaration='none'), Declare(declaration='ronda'), Declare(declaration='tringa')]
        """
        phase = self._phase
        if phase == PLAY:
            hand = self._hands[self._turn]
            plays = _PLAYS_BY_HAND.get(hand) or _plays_for(hand)
            if self._active and not self._challenged and not self._rules.auto_declare:
                targets = self._challenge_targets(self._turn)
                if targets:
                    return plays + [CHALLENGES[t] for t in targets]
            return plays[:]
        if phase == DECLARE:
            return [*(_DECLARES_4 if self._size == 4 else _DECLARES_3)]
        return []

    def _challenge_targets(self, seat: int) -> list[int]:
        side = self._side_of[seat]
        declared, exposed, shown, side_of = self._declared, self._exposed, self._shown, self._side_of
        return [
            s
            for s in range(self._n)
            if side_of[s] != side and declared[s] not in (None, NONE) and not exposed[s] and shown[s] is None
        ]

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Take one decision for the seat to act and return the events it caused.

        The action is verified first: one that is not legal now raises
        :class:`IllegalActionError` (:class:`NotYourTurnError` when ``seat`` is
        given and is not the seat to act), naming why, and changes nothing.

        >>> game = Game(Rules(players=2), seed=1)
        >>> [e.to_json() for e in game.apply(Declare("none"))]
        [{'type': 'declare', 'seat': 0, 'declaration': 'none'}]
        >>> game.apply(Play(0))
        Traceback (most recent call last):
        ...
        ronda.engine.errors.IllegalActionError: cannot play now: seat 1 must declare first (R8.2)
        """
        if seat is not None and seat != self._turn:
            if self._phase in (OVER, WAITING):
                raise NotYourTurnError(
                    f"no decision is due: the game is {'over' if self._phase == OVER else 'between rounds'}"
                )
            raise NotYourTurnError(f"it is seat {self._turn}'s turn, not seat {seat}'s")
        events = self._events
        start = len(events)
        actor = self._turn
        if type(action) is Play:
            card = action.card
            if (
                self._phase != PLAY
                or type(card) is not int
                or not 0 <= card < NUM_CARDS
                or not self._hands[actor] >> card & 1
            ):
                self._check_play(card)  # raises with the reason
            if self._round_actions is not None:
                self._round_actions.append((actor, action))
            self._play(card)
            return events[start:]
        if type(action) is Declare:
            self._check_declare(action.declaration)
            self._log_action(actor, action)
            self._declare(action.declaration)
        elif type(action) is Challenge:
            self._check_challenge(action.target)
            self._log_action(actor, action)
            self._challenge(action.target)
        else:
            raise IllegalActionError(f"not an action: {quoted(action)}")
        return events[start:]

    def _log_action(self, seat: int, action: Action) -> None:
        if self._round_actions is not None:
            self._round_actions.append((seat, action))

    def _check_phase(self, wanted: Phase, what: str) -> None:
        if self._phase != wanted:
            if self._phase == OVER:
                raise IllegalActionError(f"cannot {what}: the game is over")
            if self._phase == WAITING:
                raise IllegalActionError(f"cannot {what}: the round is over and the next deck has not been given")
            raise IllegalActionError(
                f"cannot {what} now: seat {self._turn} must "
                + ("declare first (R8.2)" if self._phase == DECLARE else "play a card (R4.1)")
            )

    def _check_play(self, card: object) -> None:
        self._check_phase(PLAY, "play")
        if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
            raise IllegalActionError(f"not a card: {quoted(card)}")
        if not self._hands[self._turn] >> card & 1:
            raise IllegalActionError(f"seat {self._turn} does not hold {card_name(card)}")

    def _check_declare(self, declaration: object) -> None:
        self._check_phase(DECLARE, "declare")
        allowed = _DECLARES_4 if self._size == 4 else _DECLARES_3
        if declaration not in [a.declaration for a in allowed]:
            if declaration == DOUBLE_RONDA:
                raise IllegalActionError("a double ronda can only be declared with four-card hands (R8.1)")
            raise IllegalActionError(f"unknown declaration {quoted(declaration)}")

    def _check_challenge(self, target: object) -> None:
        self._check_phase(PLAY, "challenge")
        seat = self._turn
        if self._rules.auto_declare:
            raise IllegalActionError("there are no challenges with auto_declare (R8.2)")
        if self._challenged:
            raise IllegalActionError(f"seat {seat} has already challenged this turn and must play (R8.8)")
        if not isinstance(target, int) or not 0 <= target < self._n:
            raise IllegalActionError(f"there is no seat {quoted(target)} to challenge")
        if self._side_of[target] == self._side_of[seat]:
            raise IllegalActionError(
                f"seat {seat} cannot challenge seat {target}: only an opponent's declaration (R8.8)"
            )
        if self._declared[target] in (None, NONE):
            raise IllegalActionError(f"seat {target} declared nothing this deal to challenge")
        if self._exposed[target]:
            raise IllegalActionError(f"seat {target}'s declaration is already exposed")
        if self._shown[target] is not None:
            raise IllegalActionError(
                f"seat {target}'s hand has been shown: its {self._declared[target]} can no longer be challenged (R9.5)"
            )

    def playout(
        self,
        rng: random.Random,
        rounds: int = 1,
        *,
        deals: int = 0,
        plays: int = 0,
        policy: Policy | None = None,
        truthful: bool = False,
    ) -> None:
        """Play on by itself until ``rounds`` rounds have ended (or ``deals`` deals of this one, or ``plays``
        cards, if given: a search that must stop at its own next turn plays the other seats' cards this way).

        The rollout of simulations and searches: the same rules code as
        :meth:`apply` (every play goes through the same turn), without building
        action lists or event slices for each decision, and never a challenge.
        Plays are uniformly random, or ``policy``'s choice; declarations
        are uniformly random, or the hand's true combination if ``truthful``.
        Stops early when the game is won or waits for a deck; decisions are
        recorded like any others, so a played-out game can still be saved.

        >>> game = Game(Rules(players=3), seed=4)
        >>> game.playout(random.Random(1))
        >>> game.round, game.phase
        (1, 'declare')
        >>> lowest: Policy = lambda state, rand: (state.hands[state.seat] & -state.hands[state.seat]).bit_length() - 1
        >>> game.playout(random.Random(1), deals=1, policy=lowest, truthful=True)
        >>> game.round, game.deal, game.phase
        (1, 1, 'declare')
        >>> game.playout(random.Random(1), plays=2, policy=lowest, truthful=True)
        >>> game.turn, [len(game.hand(seat)) for seat in range(3)]
        (0, [3, 2, 2])
        """
        start_round = self._round
        target_round = start_round + rounds
        stop_deal = self._deal + deals
        played = 0
        draw = rng.random
        while self._round < target_round:
            phase = self._phase
            if phase == PLAY:
                seat = self._turn
                hand = self._hands[seat]
                if policy is None:
                    pick = int(draw() * hand.bit_count())
                    while pick:
                        hand &= hand - 1
                        pick -= 1
                    card = (hand & -hand).bit_length() - 1
                else:
                    card = policy(self.search_state(), draw)
                    if not 0 <= card < NUM_CARDS or not hand >> card & 1:
                        raise IllegalActionError(f"the playout policy chose {quoted(card)}, not in seat {seat}'s hand")
                if self._round_actions is not None:
                    self._round_actions.append(_SEAT_PLAY[seat][card])
                self._play(card)
                if deals and (self._deal >= stop_deal or self._round != start_round):
                    return  # a deal ends only with a play
                if plays:
                    played += 1
                    if played == plays:
                        return
            elif phase == DECLARE:
                if truthful:
                    truth = self._truth[self._turn]
                    action = DECLARES[NONE if truth is None else truth.kind]
                else:
                    options = _DECLARES_4 if self._size == 4 else _DECLARES_3
                    action = options[int(draw() * len(options))]
                if self._round_actions is not None:
                    self._round_actions.append((self._turn, action))
                self._declare(action.declaration)
            else:
                return

    # --------------------------------------------------------------- rounds

    def add_deck(self, deck: Sequence[Card]) -> list[Event]:
        """Give the deck of the next round to a game that is waiting for one; returns the events.

        >>> import random
        >>> rules = Rules(players=2)
        >>> game = Game(rules, decks=[shuffled_deck(rules, random.Random(1))])
        >>> game.playout(random.Random(2))
        >>> game.phase
        'waiting'
        >>> [event.TYPE for event in game.add_deck(shuffled_deck(rules, random.Random(3)))]
        ['round_start', 'deal']
        """
        if self._phase != WAITING:
            raise RondaError("the game is not waiting for a deck")
        self._pending_decks.append(list(deck))
        start = len(self._events)
        self._start_round()
        return self._events[start:]

    def _start_round(self) -> None:
        rules = self._rules
        if self._pending_decks:
            deck = self._pending_decks[0]
            check_deck(deck, rules)
            self._pending_decks.pop(0)
        elif self._rng is not None:
            deck = shuffled_deck(rules, self._rng)
        else:
            self._phase = WAITING
            return
        self._round += 1
        self._new_round_state()
        self._deck = deck
        if self._log is not None:
            self._round_actions = []
            self._log.append({"deck": deck, "actions": self._round_actions})
        self._events.append(RoundStart(self._round, self._dealer))
        self._start_deal()

    def _start_deal(self) -> None:
        """Deal a batch to every hand (R3.3, R3.5), turn up the opening table on the first deal (R3.4)."""
        rules, n = self._rules, self._n
        self._new_deal_state()
        declared, truth, undeclared = self._declared, self._truth, self._undeclared
        deal = self._deal = self._deal + 1
        size = self._size = self._sizes[deal]
        pos = self._stock_pos
        deck = self._deck
        ace_high = rules.ace_high
        combos = self._combos
        hands, dealt = self._hands, self._dealt
        first = (self._dealer + 1) % n
        for i in range(n):
            seat = (first + i) % n
            mask = 0
            for card in deck[pos : pos + size]:
                mask |= 1 << card
            pos += size
            hands[seat] = dealt[seat] = mask
            combo = combos.get(mask, _MISS)
            if combo is _MISS:
                combo = hand_combination(mask, ace_high)
            if combo is not None:
                truth[seat] = combo
                undeclared[seat] = combo[2]  # its cards; cleared in _finish_declarations if declared exactly
        table: tuple[Card, ...] = ()
        if deal == 0 and (table_size := rules.opening_table_size):
            table = tuple(deck[pos : pos + table_size])
            pos += len(table)
            for card in table:
                self._table[card >> 2] = card
                self._table_ranks |= 1 << (card >> 2)
                self._table_cards |= 1 << card
                self._opening_table |= 1 << card
        self._stock_pos = pos
        self._cards_in_hands = size * n
        self._deal_start = len(self._plays)
        self._events.append(_new(Deal, (self._round, deal, size, table, NUM_CARDS - pos, pos == NUM_CARDS)))
        self._turn = first
        self._phase = DECLARE
        if rules.auto_declare:
            # R8.2 auto_declare: every seat declares its true combination, so
            # nothing is undeclared; the settlement is checked at once (R8.5).
            events, ranges = self._events, self._ranges
            active = 0
            for i in range(n):
                seat = (first + i) % n
                held = truth[seat]
                if held is None:
                    declared[seat] = NONE
                    events.append(_DECLARATION_EVENTS[seat][NONE])
                else:
                    kind = held[0]  # the kind, by index: this runs at every deal of every simulation
                    declared[seat] = kind
                    events.append(_DECLARATION_EVENTS[seat][kind])
                    ranges[seat] = candidate_range(kind, (), size, ace_high)
                    active += 1
            self._undeclared = [0] * n
            self._active = active
            self._phase = PLAY
            if active:
                self._settle()

    def _declare(self, declaration: Kind) -> None:
        seat = self._turn
        self._declared[seat] = declaration
        self._events.append(_DECLARATION_EVENTS[seat][declaration])
        if declaration != NONE:
            self._ranges[seat] = candidate_range(declaration, (), self._size, self._rules.ace_high)
            self._active += 1
        if seat == self._dealer:
            self._finish_declarations()
        else:
            self._turn = (seat + 1) % self._n

    def _finish_declarations(self) -> None:
        """After the declaration phase: note undeclared combinations (R8.7), then settle (R8.5)."""
        for seat, truth in enumerate(self._truth):
            if truth is not None and truth.kind == self._declared[seat]:
                self._undeclared[seat] = 0
        self._phase = PLAY
        self._turn = (self._dealer + 1) % self._n
        if self._active:
            self._settle()

    # ---------------------------------------------------------------- the turn

    def _play(self, card: Card) -> None:
        """One turn (R4.1): the card's own step, then R9.2's scoring steps in order, then what follows.

        In order: the card captures, raises or is dropped (R4.2, R5.3, R4.3:
        :func:`~ronda.engine.table.play_step`); then, each a step after which a
        win ends the turn (R9.3), the caida or chain (R5), the missa (R6), dealer
        duty (R10), the announcement steps (R9.2: the player's exposure, the
        settlement, the player's undeclared penalty); then the next turn, the next
        deal, or the round's end (R7). Every play of every rollout comes here.
        """
        seat = self._turn
        hands = self._hands
        hand = hands[seat] ^ 1 << card
        hands[seat] = hand
        left = self._cards_in_hands = self._cards_in_hands - 1
        self._challenged = False
        self._plays.append(_SEAT_CARD[seat][card])
        taken, caida, raised, table_after, _, chain_after, count_after = step_values(
            self._table_ranks, self._last_drop >> 2, self._chain_rank, self._chain_count, card >> 2, self._n > 2
        )
        if raised:
            if self._raise(seat, card, count_after):  # R5.3, with its chain points (R9.2: first)
                return
            captured = True
        elif taken:
            dropper = self._last_drop_seat
            self._capture(seat, card, taken, caida, table_after, chain_after, count_after)  # R4.2
            if caida and self._caida(seat, dropper):  # R5.1 (R9.2: first)
                return
            captured = True
        else:
            self._drop(seat, card, table_after)  # R4.3
            captured = False
        # Only a deal's last card may be the round's last turn (R3.6): the common turn asks nothing more.
        on_last_turn = not left and last_turn(1, self._stock_pos == NUM_CARDS)
        # R6 (R9.2: second); a capture that leaves cards on the table, the common case, asks no more either.
        if captured and not table_after and missa(captured, table_after, on_last_turn) and self._missa(seat):
            return
        if on_last_turn and self._rules.dealer_duty and self._dealer_duty(seat, card >> 2, captured):  # R10 (third)
            return
        if (self._ranges[seat] is not None or self._undeclared[seat]) and self._announcement_steps(seat, hand):
            return  # R9.2, last: the player's exposure, the settlement, its undeclared penalty (if it has any)
        if left:
            self._turn = (seat + 1) % self._n  # R4.1
        elif self._stock_pos < NUM_CARDS:
            self._start_deal()  # R3.5
        else:
            self._end_round()  # R7

    def _raise(self, seat: int, card: Card, count: int) -> bool:
        """R5.3: a raise on the open chain takes the whole open capture and scores the chain's points (R9.2, R10).

        transfer_scoring (R10): the raise takes the open capture from whichever
        piles hold its cards now (a debt paid on the caida may have moved part of
        it), pays the raiser's debts, and the chain points are paid by the side
        whose open capture was taken.
        """
        side = self._side_of[seat]
        cards = self._chain_cards
        loser = self._chain_side
        piles = self._piles
        for s in range(len(piles)):
            piles[s] &= ~cards
        piles[side] |= cards | 1 << card
        self._chain_cards = cards | 1 << card
        self._chain_count = count
        self._chain_side = side
        self._last_capture_side = side
        self._last_drop = -1
        self._events.append(_new(Raise, (seat, card, tuple(cards_of(cards)))))
        rules = self._rules
        if rules.transfer_scoring:
            self._pay_debts(side)
        return self._award(side, chain_points(rules, count), "chain", seat, (loser,))

    def _capture(
        self, seat: int, card: Card, taken: RankMask, caida: bool, table_after: RankMask, chain: int, count: int
    ) -> None:
        """R4.2: ``card`` takes the table's cards of the ranks ``taken``; a caida opens a chain (R5.3, ``chain`` >= 0).

        transfer_scoring (R10): the capturer pays its debts right after taking the cards.
        """
        side = self._side_of[seat]
        table = self._table
        cards = 1 << card
        taken_cards = []
        r = card >> 2
        while taken >> r & 1:
            c = table[r]
            table[r] = -1
            taken_cards.append(c)
            cards |= 1 << c
            r += 1
        self._table_ranks = table_after
        self._table_cards &= ~cards
        self._piles[side] |= cards
        self._last_capture_side = side
        self._last_drop = -1
        self._chain_rank = chain
        if chain >= 0:
            self._chain_cards = cards
            self._chain_count = count
            self._chain_side = side
        self._events.append(_new(Capture, (seat, card, tuple(taken_cards), caida)))
        if self._rules.transfer_scoring:
            self._pay_debts(side)

    def _caida(self, seat: int, dropper: int) -> bool:
        """R5.1: taking the card dropped on the turn before scores (R10 chain_points; ``dropper``'s side pays)."""
        return self._award(self._side_of[seat], chain_points(self._rules, 2), "caida", seat, (self._side_of[dropper],))

    def _drop(self, seat: int, card: Card, table_after: RankMask) -> None:
        """R4.3: ``card`` stays on the table; the next turn may take it (R5.1); an open chain closes (R5.3)."""
        self._table[card >> 2] = card
        self._table_ranks = table_after
        self._table_cards |= 1 << card
        self._last_drop = card
        self._last_drop_seat = seat
        self._chain_rank = -1
        self._events.append(_DROP_EVENTS[seat][card])

    def _missa(self, seat: int) -> bool:
        """R6: the missa's point (:attr:`~ronda.engine.rules.Rules.missa_points`), one step (whether it is due:
        :func:`~ronda.engine.table.missa`)."""
        return self._award(self._side_of[seat], self._rules.missa_points, "missa", seat, None)

    def _dealer_duty(self, seat: int, rank: int, captured: bool) -> bool:
        """R10 dealer_duty on the last turn, one step: :func:`~ronda.engine.table.dealer_duty_points` to the
        dealer's side, or, when negative, to each opposing side."""
        points = dealer_duty_points(rank, captured)
        if points > 0:
            return self._award(self._side_of[seat], points, "dealer_duty", seat, None)
        if points < 0:
            return self._award_each_opponent(seat, -points, "dealer_duty")
        return False

    # ---------------------------------------------------------------- the round's end

    def _end_round(self) -> None:
        """R9.2 at the end of a round: after the last turn's steps, R7.1, then the card count (R7.2)."""
        self._take_table()
        if self._card_count():
            return
        self._dealer = (self._dealer + 1) % self._n  # R3.2
        self._start_round()

    def _take_table(self) -> None:
        """R7.1: the cards left on the table go to the side that captured last (no points)."""
        if self._table_ranks and self._last_capture_side >= 0:
            side = self._last_capture_side
            cards = tuple([c for c in self._table if c >= 0])
            for card in cards:
                self._piles[side] |= 1 << card
            self._table = [-1] * 10
            self._table_ranks = 0
            self._table_cards = 0
            self._events.append(TableTaken(side, cards))

    def _card_count(self) -> bool:
        """R7.2: points for the cards captured in the round, one step (R9.3): ``True`` when it wins the game."""
        counts = [p.bit_count() for p in self._piles]
        self._events.append(RoundEnd(self._round, tuple(counts)))
        for side, points in enumerate(card_count_points(counts, self._n)):
            if points:
                self._scores[side] += points
                self._events.append(Score(side, points, "cards", None))
        return self._check_win()

    # ---------------------------------------------------------- challenges

    def _challenge(self, target: int) -> None:
        """R8.8: the target's hand as dealt is shown; a false declaration is exposed (R8.6), a true one wins.

        It wins at once with transfer_scoring too, in the middle of a round:
        R10's "won only at the end of a round" is about points (see the module docstring).
        """
        seat = self._turn
        truth = self._truth[target]
        truthful = truth is not None and truth.kind == self._declared[target]
        self._challenged = True
        self._shown[target] = self._dealt[target]
        self._events.append(ChallengeMade(seat, target, self._dealt_cards(target), truthful))
        if truthful:
            self._win(self._side_of[target], "failed_challenge")
            return
        self._expose(target)

    # -------------------------------------------------------------- records

    def to_record(self) -> dict[str, Any]:
        """The game as a RECORD.md record, replayable to the identical event stream.

        >>> game = Game(Rules(players=2), seed=1)
        >>> _ = game.apply(Declare("none"))
        >>> record = game.to_record()
        >>> record["rules"], record["rounds"][0]["actions"]
        ({'players': 2}, [{'seat': 0, 'declare': 'none'}])
        """
        if self._log is None:
            raise RondaError("this copy was made without history and cannot be saved")
        if self._started is not None:
            scores, first = self._started
            raise RondaError(
                f"this game began at scores {list(scores)} in round {first} (from_scores): "
                "a record begins at 0-0 in round 0, so it cannot be saved"
            )
        record: dict[str, Any] = {"format": "ronda/1", "rules": self._rules.to_dict()}
        first_dealer = self._first_dealer()
        if first_dealer != self._n - 1:
            record["dealer"] = first_dealer
        record["rounds"] = [
            {
                "deck": [card_name(c) for c in r["deck"]],
                "actions": [action_to_record(seat, action) for seat, action in r["actions"]],
            }
            for r in self._log
        ]
        return record

    def _first_dealer(self) -> int:
        for event in self._events:
            if type(event) is RoundStart:
                return event.dealer
        return self._dealer

    def __repr__(self) -> str:
        return (
            f"<Game {self._n} players, round {self._round}, deal {self._deal}, {self._phase}, "
            f"turn {self._turn}, scores {self._scores}>"
        )


class _Blank(Game):
    """A game none of whose fields is set yet: what :meth:`Game.copy` and the positions fill in, field by field.

    Not ``Game.__new__(Game)``: a compiled class's ``__new__`` runs ``__init__``.
    """

    __slots__ = ()

    def __init__(self) -> None:
        """No set-up and no deal: the caller sets every field (:class:`~ronda.engine.state.GameState`)."""


__all__ = ["DECLARE", "OVER", "PLAY", "WAITING", "Game", "Policy", "SearchState", "card_count_points"]
