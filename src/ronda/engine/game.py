"""The game of Ronda as a state machine: decisions in, public events out.

:class:`Game` holds one game from its first deal to the win. It asks for the
three decisions of the rules (declare, play, challenge) through
:meth:`Game.legal_actions` and :meth:`Game.apply`, and performs every other
step itself — dealing, turning up the table, scoring, settling declarations,
passing the deal — in the order of R9.2, checking for a win after each step
(R9.3).

State is plain ints, masks and short lists so that :meth:`Game.copy` is cheap:
bots search through thousands of copies a second.

>>> game = Game(Rules(players=2, auto_declare=True), seed=1)
>>> game.phase, game.turn
('play', 0)
>>> events = game.apply(game.legal_actions()[0])
>>> events[0].TYPE in {"capture", "drop"}
True

Choices where RULES.md is silent (each also noted where it is implemented):

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
- transfer_scoring: a payment moves the payer's lowest cards (by card id);
  which cards move matters only to a raise (R5.3), which takes the open
  capture from whichever piles hold its cards now, since a debt paid on the
  caida may have moved part of it to another pile.
"""

from __future__ import annotations

import random
from typing import Any

from .actions import CHALLENGES, DECLARES, PLAYS, Action, Challenge, Declare, Play, action_to_record
from .cards import NUM_CARDS, CardSet, card_name, cards_of
from .combinations import (
    DOUBLE_RONDA,
    KIND_VALUE,
    NONE,
    RONDA,
    TRINGA,
    Kind,
    candidate_range,
    hand_combination,
    hand_combinations_memo,
)
from .deck import DeckError, check_deck, shuffled_deck
from .errors import IllegalActionError, NotYourTurnError, RondaError
from .events import (
    Capture,
    ChallengeMade,
    Deal,
    Declaration,
    Drop,
    Event,
    Exposure,
    GameOver,
    Raise,
    RoundEnd,
    RoundStart,
    Score,
    Show,
    TableTaken,
    Transfer,
)
from .rules import Rules
from .settlement import Active, settle
from .view import Chain, SeatView

DECLARE = "declare"
PLAY = "play"
WAITING = "waiting"
"""Between rounds, when the game was given explicit decks and has used them all."""
OVER = "over"

_DECLARES_3 = (DECLARES[NONE], DECLARES[RONDA], DECLARES[TRINGA])
_DECLARES_4 = (*_DECLARES_3, DECLARES[DOUBLE_RONDA])
_PLAYS_BY_HAND: dict[int, list[Action]] = {}
_UNKNOWN_HAND = ("", -1, 0)
"""Sentinel for a hand not yet in the memo of :func:`hand_combination`."""
_new = tuple.__new__
"""Events are NamedTuples; building them with ``tuple.__new__`` skips a Python-level frame per event."""


def _plays_for(hand: int) -> list[Action]:
    """The play actions of a hand, memoised by mask: the hot path allocates nothing."""
    plays = _PLAYS_BY_HAND.get(hand)
    if plays is None:
        plays = [PLAYS[card] for card in cards_of(hand)]
        if len(_PLAYS_BY_HAND) < 200_000:
            _PLAYS_BY_HAND[hand] = plays
    return plays


def card_count_points(piles: list[int], players: int) -> list[int]:
    """R7.2: points per side for the cards captured in a round.

    With 2 or 4 players a side scores one point per card above 20; with 3
    players every seat with 14 or more scores one point per card above 13.

    >>> card_count_points([26, 14], 2), card_count_points([20, 20], 4), card_count_points([14, 13, 13], 3)
    ([6, 0], [0, 0], [1, 0, 0])
    """
    floor = 13 if players == 3 else 20
    return [count - floor if count > floor else 0 for count in piles]


class Game:
    """One game of Ronda under some :class:`Rules`.

    Give either a ``seed`` (or an ``rng``) and the engine shuffles every round
    itself, or ``decks`` in RECORD.md order and it deals exactly those; a game
    that runs out of given decks waits (phase ``waiting``) for :meth:`add_deck`.
    ``dealer`` deals the first round (default: the last seat, R3.2).
    """

    __slots__ = (
        "_pending_decks",
        "_rng",
        "active",
        "cards_in_hands",
        "chain_cards",
        "chain_count",
        "chain_rank",
        "chain_side",
        "challenged",
        "combos",
        "deal",
        "deal_start",
        "dealer",
        "dealt",
        "debts",
        "decided",
        "deck",
        "declared",
        "events",
        "exposed",
        "given",
        "hands",
        "last_capture_side",
        "last_drop",
        "last_drop_seat",
        "log",
        "n",
        "opening_table",
        "phase",
        "piles",
        "plays",
        "ranges",
        "round",
        "round_actions",
        "rules",
        "scores",
        "shown",
        "side_of",
        "size",
        "sizes",
        "stale",
        "stock_pos",
        "table",
        "table_ranks",
        "truth",
        "turn",
        "undeclared",
        "winner",
    )

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        decks: list[list[int]] | None = None,
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
            raise RondaError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.rules = rules
        self.n = n
        self.sizes = rules.deal_sizes()
        self.size = 0
        self.combos = hand_combinations_memo(rules.ace_high)
        self.side_of = tuple(rules.side_of(s) for s in range(n))
        self._rng = random.Random(seed) if seed is not None else rng
        self._pending_decks = [list(d) for d in decks] if decks is not None else []
        self.dealer = dealer
        self.round = -1
        self.scores = [0] * rules.sides
        self.winner: int | None = None
        self.events: list[Event] = []
        self.log: list[dict[str, Any]] | None = []
        self.round_actions: list[tuple[int, Action]] | None = None
        self.phase = WAITING
        self._new_round_state()
        self._new_deal_state()
        self._start_round()

    # ------------------------------------------------------------------ state

    def _new_round_state(self) -> None:
        n, sides = self.n, self.rules.sides
        self.turn = (self.dealer + 1) % n
        self.deal = -1
        self.deck: list[int] = []
        self.stock_pos = 0
        self.hands = [0] * n
        self.dealt = [0] * n
        self.cards_in_hands = 0
        self.table = [-1] * 10
        self.table_ranks = 0
        self.opening_table = 0
        self.piles = [0] * sides
        self.last_drop = -1
        self.last_drop_seat = -1
        self.chain_rank = -1
        self.chain_cards = 0
        self.chain_count = 0
        self.chain_side = -1
        self.last_capture_side = -1
        self.plays: list[tuple[int, int]] = []
        self.deal_start = 0
        self.debts = [[0] * sides for _ in range(sides)]

    def _new_deal_state(self) -> None:
        n, sides = self.n, self.rules.sides
        self.declared: list[str | None] = [None] * n
        self.exposed = [False] * n
        self.ranges: list[tuple[int, int] | None] = [None] * n
        self.truth: list[tuple[str, int] | None] = [None] * n
        self.undeclared = [0] * n
        self.given = [0] * sides
        self.shown: list[int | None] = [None] * n
        self.active = 0
        self.decided = True
        self.stale = 0
        self.challenged = False
        self.last_drop = -1
        self.last_drop_seat = -1
        self.chain_rank = -1

    def copy(self, history: bool = True) -> Game:
        """An independent copy of the game.

        ``history=False`` makes a light copy for search: no event log, no record,
        and no shuffler, so it stops at the end of the round (phase ``waiting``)
        unless given the next deck with :meth:`add_deck`. Bots copy thousands of
        times a move, hence the plain attribute-by-attribute code.
        """
        o = Game.__new__(Game)
        o.rules = self.rules
        o.n = self.n
        o.side_of = self.side_of
        o.sizes = self.sizes
        o.combos = self.combos
        o.phase = self.phase
        o.turn = self.turn
        o.dealer = self.dealer
        o.round = self.round
        o.deal = self.deal
        o.size = self.size
        o.deck = self.deck
        o.stock_pos = self.stock_pos
        o.cards_in_hands = self.cards_in_hands
        o.table_ranks = self.table_ranks
        o.opening_table = self.opening_table
        o.last_drop = self.last_drop
        o.last_drop_seat = self.last_drop_seat
        o.chain_rank = self.chain_rank
        o.chain_cards = self.chain_cards
        o.chain_count = self.chain_count
        o.chain_side = self.chain_side
        o.last_capture_side = self.last_capture_side
        o.active = self.active
        o.decided = self.decided
        o.stale = self.stale
        o.challenged = self.challenged
        o.winner = self.winner
        o.deal_start = self.deal_start
        o.hands = self.hands[:]
        o.dealt = self.dealt[:]
        o.table = self.table[:]
        o.piles = self.piles[:]
        o.scores = self.scores[:]
        o.declared = self.declared[:]
        o.exposed = self.exposed[:]
        o.ranges = self.ranges[:]
        o.truth = self.truth[:]
        o.undeclared = self.undeclared[:]
        o.given = self.given[:]
        o.shown = self.shown[:]
        o.debts = [row[:] for row in self.debts]
        o._pending_decks = self._pending_decks[:]  # decks themselves are never changed
        o.plays = self.plays[:]
        if history:
            o._rng = None
            if self._rng is not None:
                o._rng = random.Random()
                o._rng.setstate(self._rng.getstate())
            o.events = self.events[:]
            o.log = None if self.log is None else [{"deck": r["deck"], "actions": r["actions"][:]} for r in self.log]
            o.round_actions = o.log[-1]["actions"] if o.log else None
        else:
            o._rng = None
            o.events = []
            o.log = None
            o.round_actions = None
        return o

    # ------------------------------------------------------------- queries

    @property
    def finished(self) -> bool:
        """Whether the game is won (R9.3, R8.8)."""
        return self.phase == OVER

    @property
    def hand_size(self) -> int:
        """Cards each hand was given in the current deal."""
        return self.size

    @property
    def stock(self) -> int:
        """Cards left to deal this round."""
        return NUM_CARDS - self.stock_pos if self.deck else 0

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds. Only for whoever may see them: interfaces give seats a :meth:`view`."""
        return CardSet(self.hands[seat])

    def legal_actions(self) -> list[Action]:
        """Every decision the seat to act may take now (R8.2, R4.1, R8.8); empty when none is due."""
        phase = self.phase
        if phase == PLAY:
            plays = _PLAYS_BY_HAND.get(self.hands[self.turn]) or _plays_for(self.hands[self.turn])
            if self.active and not self.challenged and not self.rules.auto_declare:
                targets = self._challenge_targets(self.turn)
                if targets:
                    return plays + [CHALLENGES[t] for t in targets]
            return plays[:]
        if phase == DECLARE:
            return list(_DECLARES_4 if self.size == 4 else _DECLARES_3)
        return []

    def _challenge_targets(self, seat: int) -> list[int]:
        side = self.side_of[seat]
        declared, exposed, side_of = self.declared, self.exposed, self.side_of
        shown = self.shown
        return [
            s
            for s in range(self.n)
            if side_of[s] != side and declared[s] not in (None, NONE) and not exposed[s] and shown[s] is None
        ]

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know (R11): its own hand and the public facts, nothing else."""
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise RondaError(f"there is no seat {seat!r} in a {self.n}-player game")
        chain = None
        if self.chain_rank >= 0:
            chain = Chain(self.chain_rank, CardSet(self.chain_cards), self.chain_count, self.chain_side)
        return SeatView(
            seat=seat,
            rules=self.rules,
            phase=self.phase,
            turn=self.turn,
            dealer=self.dealer,
            round=self.round,
            deal=self.deal,
            deals_in_round=len(self.sizes),
            hand=CardSet(self.hands[seat]),
            table=CardSet(self._table_mask()),
            opening_table=CardSet(self.opening_table),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            pile_sizes=tuple(p.bit_count() for p in self.piles),
            stock=self.stock,
            scores=tuple(self.scores),
            plays=tuple(self.plays),
            deal_start=self.deal_start,
            declarations=tuple(self.declared),
            exposed=tuple(self.exposed),
            shown=tuple(None if m is None else CardSet(m) for m in self.shown),
            settlement_given=tuple(self.given),
            last_drop=None if self.last_drop < 0 else self.last_drop,
            chain=chain,
            last_capture_side=None if self.last_capture_side < 0 else self.last_capture_side,
            challenged_this_turn=self.challenged,
            winner=self.winner,
            debts=tuple(tuple(row) for row in self.debts),
        )

    def _table_mask(self) -> int:
        mask = 0
        for card in self.table:
            if card >= 0:
                mask |= 1 << card
        return mask

    # ------------------------------------------------------------- actions

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Take one decision for the seat to act and return the events it caused.

        ``seat``, when given, must be the seat to act. Raises
        :class:`IllegalActionError` (or :class:`NotYourTurnError`) and changes
        nothing when the action is not legal now.
        """
        if seat is not None and seat != self.turn:
            if self.phase in (OVER, WAITING):
                raise NotYourTurnError(
                    f"no decision is due: the game is {'over' if self.phase == OVER else 'between rounds'}"
                )
            raise NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        events = self.events
        start = len(events)
        actor = self.turn
        kind = type(action)
        if kind is Play:
            card = action.card  # type: ignore[union-attr]
            if (
                self.phase != PLAY
                or type(card) is not int
                or not 0 <= card < NUM_CARDS
                or not self.hands[actor] >> card & 1
            ):
                self._check_play(card)  # raises with the reason
            if self.round_actions is not None:
                self.round_actions.append((actor, action))
            self._play(card)
            return events[start:]
        if kind is Declare:
            self._check_declare(action.declaration)  # type: ignore[union-attr]
            self._log(actor, action)
            self._declare(action.declaration)  # type: ignore[union-attr]
        elif kind is Challenge:
            self._check_challenge(action.target)  # type: ignore[union-attr]
            self._log(actor, action)
            self._challenge(action.target)  # type: ignore[union-attr]
        else:
            raise IllegalActionError(f"not an action: {action!r}")
        return self.events[start:]

    def _log(self, seat: int, action: Action) -> None:
        if self.round_actions is not None:
            self.round_actions.append((seat, action))

    def _check_phase(self, wanted: str, what: str) -> None:
        if self.phase != wanted:
            if self.phase == OVER:
                raise IllegalActionError(f"cannot {what}: the game is over")
            if self.phase == WAITING:
                raise IllegalActionError(f"cannot {what}: the round is over and the next deck has not been given")
            raise IllegalActionError(
                f"cannot {what} now: seat {self.turn} must "
                + ("declare first (R8.2)" if self.phase == DECLARE else "play a card (R4.1)")
            )

    def _check_play(self, card: object) -> None:
        self._check_phase(PLAY, "play")
        if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
            raise IllegalActionError(f"not a card: {card!r}")
        if not self.hands[self.turn] >> card & 1:
            raise IllegalActionError(f"seat {self.turn} does not hold {card_name(card)}")

    def _check_declare(self, declaration: object) -> None:
        self._check_phase(DECLARE, "declare")
        allowed: tuple[Action, ...] = _DECLARES_4 if self.size == 4 else _DECLARES_3
        if declaration not in [a.declaration for a in allowed]:  # type: ignore[union-attr]
            if declaration == DOUBLE_RONDA:
                raise IllegalActionError("a double ronda can only be declared with four-card hands (R8.1)")
            raise IllegalActionError(f"unknown declaration {declaration!r}")

    def _check_challenge(self, target: object) -> None:
        self._check_phase(PLAY, "challenge")
        seat = self.turn
        if self.rules.auto_declare:
            raise IllegalActionError("there are no challenges with auto_declare (R8.2)")
        if self.challenged:
            raise IllegalActionError(f"seat {seat} has already challenged this turn and must play (R8.8)")
        if not isinstance(target, int) or not 0 <= target < self.n:
            raise IllegalActionError(f"there is no seat {target!r} to challenge")
        if self.side_of[target] == self.side_of[seat]:
            raise IllegalActionError(
                f"seat {seat} cannot challenge seat {target}: only an opponent's declaration (R8.8)"
            )
        if self.declared[target] in (None, NONE):
            raise IllegalActionError(f"seat {target} declared nothing this deal to challenge")
        if self.exposed[target]:
            raise IllegalActionError(f"seat {target}'s declaration is already exposed")
        if self.shown[target] is not None:
            raise IllegalActionError(
                f"seat {target}'s hand has been shown: its {self.declared[target]} can no longer be challenged (R9.5)"
            )

    def playout(self, rng: random.Random, rounds: int = 1) -> None:
        """Play uniformly random legal plays and declarations until ``rounds`` rounds have ended.

        The rollout of simulation and search: the same rules code as
        :meth:`apply` (every play goes through the same turn), without building
        action lists or event slices for each decision. It never challenges.
        Stops early when the game is won or waits for a deck; decisions are
        recorded like any others, so a played-out game can still be saved.

        >>> game = Game(Rules(players=3), seed=4)
        >>> game.playout(random.Random(1))
        >>> game.round, game.phase
        (1, 'declare')
        """
        target_round = self.round + rounds
        draw = rng.random
        while self.round < target_round:
            phase = self.phase
            if phase == PLAY:
                hand = self.hands[self.turn]
                pick = int(draw() * hand.bit_count())
                while pick:
                    hand &= hand - 1
                    pick -= 1
                card = (hand & -hand).bit_length() - 1
                if self.round_actions is not None:
                    self.round_actions.append((self.turn, PLAYS[card]))
                self._play(card)
            elif phase == DECLARE:
                options = _DECLARES_4 if self.size == 4 else _DECLARES_3
                action = options[int(draw() * len(options))]
                if self.round_actions is not None:
                    self.round_actions.append((self.turn, action))
                self._declare(action.declaration)
            else:
                return

    # --------------------------------------------------------------- rounds

    def add_deck(self, deck: list[int]) -> list[Event]:
        """Give the deck of the next round to a game that is waiting for one; returns the events."""
        if self.phase != WAITING:
            raise RondaError("the game is not waiting for a deck")
        self._pending_decks.append(list(deck))
        start = len(self.events)
        self._start_round()
        return self.events[start:]

    def _start_round(self) -> None:
        rules = self.rules
        if self._pending_decks:
            deck = self._pending_decks[0]
            check_deck(deck, rules)
            self._pending_decks.pop(0)
        elif self._rng is not None:
            deck = shuffled_deck(rules, self._rng)
        else:
            self.phase = WAITING
            return
        self.round += 1
        self._new_round_state()
        self.deck = deck
        if self.log is not None:
            self.round_actions = []
            self.log.append({"deck": deck, "actions": self.round_actions})
        self.events.append(RoundStart(self.round, self.dealer))
        self._start_deal()

    def _start_deal(self) -> None:
        """Deal a batch to every hand (R3.3, R3.5), turn up the opening table on the first deal (R3.4)."""
        rules, n = self.rules, self.n
        self._new_deal_state()
        nones, truth, undeclared = self.declared, self.truth, self.undeclared
        deal = self.deal = self.deal + 1
        size = self.size = self.sizes[deal]
        pos = self.stock_pos
        deck = self.deck
        ace_high = rules.ace_high
        combos = self.combos
        hands, dealt = self.hands, self.dealt
        first = (self.dealer + 1) % n
        for i in range(n):
            seat = (first + i) % n
            mask = 0
            for card in deck[pos : pos + size]:
                mask |= 1 << card
            pos += size
            hands[seat] = dealt[seat] = mask
            combo = combos.get(mask, _UNKNOWN_HAND)
            if combo is _UNKNOWN_HAND:
                combo = hand_combination(mask, ace_high)
            if combo is not None:
                truth[seat] = (combo[0], combo[1])
                undeclared[seat] = combo[2]  # cleared in _finish_declarations if declared exactly
        table: tuple[int, ...] = ()
        if deal == 0 and rules.opening_table_size:
            table = tuple(deck[pos : pos + rules.opening_table_size])
            pos += len(table)
            for card in table:
                self.table[card >> 2] = card
                self.table_ranks |= 1 << (card >> 2)
                self.opening_table |= 1 << card
        self.stock_pos = pos
        self.cards_in_hands = size * n
        self.deal_start = len(self.plays)
        self.events.append(_new(Deal, (self.round, deal, size, table, NUM_CARDS - pos, pos == NUM_CARDS)))
        self.turn = first
        self.phase = DECLARE
        if rules.auto_declare:
            # R8.2 auto_declare: every seat declares its true combination, so
            # nothing is undeclared; the settlement is checked at once (R8.5).
            events, ranges = self.events, self.ranges
            active = 0
            for i in range(n):
                seat = (first + i) % n
                combo_truth = truth[seat]
                if combo_truth is None:
                    nones[seat] = NONE
                    events.append(_new(Declaration, (seat, NONE)))
                else:
                    kind = combo_truth[0]
                    nones[seat] = kind
                    events.append(_new(Declaration, (seat, kind)))
                    ranges[seat] = candidate_range(kind, (), size, ace_high)
                    active += 1
            self.undeclared = [0] * n
            self.active = active
            self.phase = PLAY
            if active:
                self._settle()

    def _declare(self, declaration: str) -> None:
        seat = self.turn
        self._record_declaration(seat, declaration)
        if seat == self.dealer:
            self._finish_declarations()
        else:
            self.turn = (seat + 1) % self.n

    def _record_declaration(self, seat: int, declaration: str) -> None:
        self.declared[seat] = declaration
        self.events.append(_new(Declaration, (seat, declaration)))
        if declaration != NONE:
            self.ranges[seat] = candidate_range(declaration, (), self.size, self.rules.ace_high)
            self.active += 1

    def _finish_declarations(self) -> None:
        """After the declaration phase: note undeclared combinations (R8.7), then settle (R8.5)."""
        for seat, truth in enumerate(self.truth):
            if truth is not None and truth[0] == self.declared[seat]:
                self.undeclared[seat] = 0
        self.phase = PLAY
        self.turn = (self.dealer + 1) % self.n
        if self.active:
            self._settle()

    # ---------------------------------------------------------------- plays

    def _play(self, card: int) -> None:
        """One turn (R4): capture, raise or drop, then the scoring steps in R9.2 order."""
        seat = self.turn
        bit = 1 << card
        hands = self.hands
        hand = hands[seat] ^ bit
        hands[seat] = hand
        left = self.cards_in_hands = self.cards_in_hands - 1
        self.challenged = False
        self.plays.append((seat, card))
        side = self.side_of[seat]
        rank = card >> 2
        last_turn = not left and self.stock_pos == NUM_CARDS
        table_ranks = self.table_ranks
        events = self.events
        if rank == self.chain_rank:
            captured = True
            # R5.3: a raise on the open chain takes the whole open capture.
            taken = self.chain_cards
            loser = self.chain_side
            piles = self.piles
            for s in range(len(piles)):  # transfer_scoring may have paid part of it away
                piles[s] &= ~taken
            piles[side] |= taken | bit
            self.chain_cards = taken | bit
            self.chain_count += 1
            self.chain_side = side
            self.last_capture_side = side
            self.last_drop = -1
            events.append(Raise(seat, card, tuple(cards_of(taken))))
            if self.rules.transfer_scoring:
                self._pay_debts(side)
            if self._award(side, self.rules.chain_points[self.chain_count - 2], "chain", seat, (loser,)):
                return
        elif table_ranks >> rank & 1:
            captured = True
            last_drop = self.last_drop
            caida = last_drop >= 0 and last_drop >> 2 == rank
            table = self.table
            mask = bit
            r = rank
            taken_list = []
            while r < 10 and table_ranks >> r & 1:
                c = table[r]
                table[r] = -1
                taken_list.append(c)
                mask |= 1 << c
                r += 1
            table_ranks &= ~((1 << r) - (1 << rank))
            self.table_ranks = table_ranks
            self.piles[side] |= mask
            self.last_capture_side = side
            self.last_drop = -1
            if caida and self.n > 2:
                self.chain_rank = rank
                self.chain_cards = mask
                self.chain_count = 2
                self.chain_side = side
            else:
                self.chain_rank = -1
            events.append(_new(Capture, (seat, card, tuple(taken_list), caida)))
            if self.rules.transfer_scoring:
                self._pay_debts(side)
            if caida and self._award(
                side, self.rules.chain_points[0], "caida", seat, (self.side_of[self.last_drop_seat],)
            ):
                return
        else:
            captured = False
            self.table[rank] = card
            self.table_ranks = table_ranks | 1 << rank
            self.last_drop = card
            self.last_drop_seat = seat
            self.chain_rank = -1
            events.append(_new(Drop, (seat, card)))
        # R6: missa, except on the last turn of the round (R6.2).
        if captured and not self.table_ranks and not last_turn and self._award(side, 1, "missa", seat, None):
            return
        if last_turn and self.rules.dealer_duty and self._dealer_duty(seat, rank, captured):
            return
        # R9.2: the player's exposure, the settlement, the player's undeclared penalty.
        if self.ranges[seat] is not None:
            truth = self.truth[seat]
            if self.decided and truth is not None and truth[0] == self.declared[seat]:
                # A true declaration always keeps its own combination as a candidate, and
                # narrowing cannot undo a decided settlement: nothing public changes now.
                # Its range is brought up to date only if another exposure re-settles.
                self.stale |= 1 << seat
            elif self._narrow_declaration(seat, hand):
                return
        pending = self.undeclared[seat]
        if pending and not pending & hand and self._undeclared_penalty(seat):
            return
        if left:
            self.turn = (seat + 1) % self.n
        elif self.stock_pos < NUM_CARDS:
            self._start_deal()
        else:
            self._end_round()

    def _narrow_declaration(self, seat: int, hand: int) -> bool:
        """R8.5 after the declarer plays: its candidates narrow; none left exposes it (R8.6)."""
        new_range = self._candidate_range(seat, hand)
        if new_range is None:
            return self._expose(seat)
        if new_range != self.ranges[seat]:
            self.ranges[seat] = new_range
            return self._settle()
        return False

    def _candidate_range(self, seat: int, hand: int) -> tuple[int, int] | None:
        declared = self.declared[seat]
        assert declared is not None
        played = tuple(sorted(c >> 2 for c in cards_of(self.dealt[seat] & ~hand)))
        return candidate_range(declared, played, self.size, self.rules.ace_high)

    def _undeclared_penalty(self, seat: int) -> bool:
        """R8.7: the last card of an undeclared combination is played; each opposing side scores it.

        The hand held another combination than the one declared, so a declaration
        of ``seat`` not yet exposed is false: it is exposed (R8.6) in the same
        step, right after the penalty. The two penalties are one step of R9.3: the
        win is checked once, after both, then the settlement is recomputed (R8.6)
        and the win checked again.
        """
        self.undeclared[seat] = 0
        truth = self.truth[seat]
        assert truth is not None
        value = self.rules.undeclared_ronda_penalty if truth[0] == RONDA else KIND_VALUE[truth[0]]
        self._score_each_opponent(seat, value, "undeclared")
        if self.ranges[seat] is not None:
            return self._expose(seat)
        return self._check_win()

    def _dealer_duty(self, seat: int, rank: int, captured: bool) -> bool:
        """R10 dealer_duty on the last turn: a 12 that captures scores 5; a drop or a 1 costs 5 to each opponent."""
        if captured and rank == 9:
            return self._award(self.side_of[seat], 5, "dealer_duty", seat, None)
        if not captured or rank == 0:
            return self._award_each_opponent(seat, 5, "dealer_duty")
        return False

    def _end_round(self) -> None:
        """R7: the table goes to the last capturer, then the card count, then the next round."""
        if self.table_ranks and self.last_capture_side >= 0:
            side = self.last_capture_side
            cards = tuple([c for c in self.table if c >= 0])
            for card in cards:
                self.piles[side] |= 1 << card
            self.table = [-1] * 10
            self.table_ranks = 0
            self.events.append(TableTaken(side, cards))
        counts = [p.bit_count() for p in self.piles]
        self.events.append(RoundEnd(self.round, tuple(counts)))
        for side, points in enumerate(card_count_points(counts, self.n)):
            if points:
                self.scores[side] += points
                self.events.append(Score(side, points, "cards", None))
        if self._check_win():
            return
        self.dealer = (self.dealer + 1) % self.n
        self._start_round()

    # ---------------------------------------------------------- challenges

    def _challenge(self, target: int) -> None:
        seat = self.turn
        truth = self.truth[target]
        truthful = truth is not None and truth[0] == self.declared[target]
        self.challenged = True
        self.shown[target] = self.dealt[target]
        self.events.append(ChallengeMade(seat, target, tuple(cards_of(self.dealt[target])), truthful))
        if truthful:
            self._win(self.side_of[target], "failed_challenge")
            return
        self._expose(target)

    # ------------------------------------------------------- announcements

    def _expose(self, seat: int) -> bool:
        """R8.6: penalty to each opposing side, then the settlement without this declaration."""
        declared = self.declared[seat]
        assert declared is not None
        self.exposed[seat] = True
        self.ranges[seat] = None
        self.active -= 1
        self.events.append(Exposure(seat, declared))
        if self._award_each_opponent(seat, KIND_VALUE[declared], "false_announcement"):
            return True
        return self._settle()

    def _settle(self) -> bool:
        """R8.5/R8.6: give each side the difference between the decided points and what it has had."""
        ranges, declared, side_of = self.ranges, self.declared, self.side_of
        if self.stale:
            for seat in range(self.n):
                if self.stale >> seat & 1 and ranges[seat] is not None:
                    ranges[seat] = self._candidate_range(seat, self.hands[seat])
            self.stale = 0
        declaring_sides = 0
        total = 0
        for seat in range(self.n):
            if ranges[seat] is not None:
                declaring_sides |= 1 << side_of[seat]
                total += KIND_VALUE[declared[seat]]  # type: ignore[index]
        sides = len(self.given)
        decided: list[int] | tuple[int, ...] | None
        if declaring_sides & (declaring_sides - 1) == 0:
            # R8.5: declarations of one side only (or none) are decided at once.
            decided = [0] * sides
            if declaring_sides:
                decided[declaring_sides.bit_length() - 1] = total
        else:
            decided = settle(
                [
                    _new(Active, (side_of[seat], declared[seat], rng[0], rng[1]))
                    for seat, rng in enumerate(ranges)
                    if rng is not None
                ],
                sides,
            )
        self.decided = decided is not None
        given = self.given
        if not self.rules.transfer_scoring:
            # R9.5: no win on an unseen declaration.
            scores, target = self.scores, self.rules.target
            reaching = 0
            for side in range(sides):
                diff = (decided[side] if decided is not None else 0) - given[side]
                if diff > 0 and scores[side] + diff >= target:
                    reaching |= 1 << side
            if reaching:
                false_seat = self._show_declarations(reaching)
                if false_seat >= 0:
                    return self._expose(false_seat)
        changed = False
        for side in range(sides):
            diff = (decided[side] if decided is not None else 0) - given[side]
            if diff:
                given[side] += diff
                self._score(side, diff, "announcement", None, None)
                changed = True
        return changed and self._check_win()

    def _show_declarations(self, sides: int) -> int:
        """R9.5: show the hands of the live declarations of ``sides`` (a mask) in seat order; return the first false.

        A hand shown before stays shown and is not shown again; -1 when all are
        true. The caller exposes the first false one and the award waits for
        the new settlement, to which the rule applies again. As R9.5 is
        written, only the *first* false one is exposed: with two false
        declarations on one side (four players), the second is exposed too only
        if the new settlement still brings the side to the target; otherwise it
        stays live, shown, and is exposed by R8.5 when its cards are played.
        """
        first_false = -1
        declared, truth, side_of = self.declared, self.truth, self.side_of
        for seat in range(self.n):
            if self.ranges[seat] is None or not sides >> side_of[seat] & 1:
                continue
            if self.shown[seat] is None:
                dealt = self.dealt[seat]
                self.shown[seat] = dealt
                self.events.append(Show(seat, tuple(cards_of(dealt)), declared[seat]))  # type: ignore[arg-type]
            held = truth[seat]
            if first_false < 0 and (held is None or held[0] != declared[seat]):
                first_false = seat
        return first_false

    # -------------------------------------------------------------- scoring

    def _award(self, side: int, points: int, reason: str, seat: int, payers: tuple[int, ...] | None) -> bool:
        """One scoring step for one side; ``True`` when it wins the game (R9.3)."""
        self._score(side, points, reason, seat, payers)
        return self._check_win()

    def _award_each_opponent(self, offender: int, points: int, reason: str) -> bool:
        """One step in which each side opposing ``offender`` scores ``points``, in side order (R8.6, R8.7)."""
        self._score_each_opponent(offender, points, reason)
        return self._check_win()

    def _score_each_opponent(self, offender: int, points: int, reason: str) -> None:
        offender_side = self.side_of[offender]
        for side in range(self.rules.sides):
            if side != offender_side:
                self._score(side, points, reason, offender, (offender_side,))

    def _score(self, side: int, points: int, reason: str, seat: int | None, payers: tuple[int, ...] | None) -> None:
        if not self.rules.transfer_scoring:
            self.scores[side] += points
            self.events.append(_new(Score, (side, points, reason, seat)))
            return
        # R10 transfer_scoring: points move captured cards instead of adding to the score.
        if self.n != 3 or payers is None:
            payers = tuple(s for s in range(self.rules.sides) if s != side)
        for payer in payers:
            if points > 0:
                self._transfer(payer, side, points, reason)
            else:
                self._transfer(side, payer, -points, reason)

    def _transfer(self, payer: int, payee: int, cards: int, reason: str) -> None:
        """Move ``cards`` cards from ``payer``'s pile to ``payee``'s; what is short becomes a debt."""
        back = min(cards, self.debts[payee][payer])
        self.debts[payee][payer] -= back
        cards -= back
        pile = self.piles[payer]
        moved = 0
        while moved < cards and pile:
            low = pile & -pile
            pile ^= low
            self.piles[payee] |= low
            moved += 1
        self.piles[payer] = pile
        self.debts[payer][payee] += cards - moved
        self.events.append(Transfer(payer, payee, moved, cards - moved, reason))

    def _pay_debts(self, side: int) -> None:
        """A side that captures pays what it owes at once (R10 transfer_scoring)."""
        row = self.debts[side]
        for payee, owed in enumerate(row):
            if owed:
                row[payee] = 0
                self._transfer(side, payee, owed, "debt")

    def _check_win(self) -> bool:
        """R9.3: a single highest side at or above the target wins at once."""
        scores = self.scores
        best = max(scores)
        if best >= self.rules.target and scores.count(best) == 1:
            self._win(scores.index(best), "target")
            return True
        return False

    def _win(self, side: int, reason: str) -> None:
        self.winner = side
        self.phase = OVER
        self.events.append(GameOver(side, reason))

    # -------------------------------------------------------------- records

    def to_record(self) -> dict[str, Any]:
        """The game as a RECORD.md record, replayable to the identical event stream."""
        if self.log is None:
            raise RondaError("this copy was made without history and cannot be saved")
        record: dict[str, Any] = {"format": "ronda/1", "rules": self.rules.to_dict()}
        first_dealer = self._first_dealer()
        if first_dealer != self.n - 1:
            record["dealer"] = first_dealer
        record["rounds"] = [
            {
                "deck": [card_name(c) for c in r["deck"]],
                "actions": [action_to_record(seat, action) for seat, action in r["actions"]],
            }
            for r in self.log
        ]
        return record

    def _first_dealer(self) -> int:
        for event in self.events:
            if type(event) is RoundStart:
                return event.dealer
        return self.dealer

    def __repr__(self) -> str:
        return (
            f"<Game {self.n} players, round {self.round}, deal {self.deal}, {self.phase}, "
            f"turn {self.turn}, scores {self.scores}>"
        )


__all__ = ["Game", "DeckError", "DECLARE", "PLAY", "WAITING", "OVER", "Kind"]
