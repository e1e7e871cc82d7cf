"""One encoding of actions, observations and the full state for every research adapter.

Actions are small integers, the same in PettingZoo, Gymnasium and OpenSpiel:

=========  ==========================================
id         action
=========  ==========================================
0 … 39     play the card with that id (``rank_index * 4 + suit``: 0 is 1o, 39 is 12b)
40 … 43    declare none, ronda, tringa, double_ronda
44 … 47    challenge the declaration of seat 0 … 3
=========  ==========================================

Agents see challenges in their own frame, as they see seats: in every
environment, for an agent in any seat, 44 + k challenges the seat k places
after it in the order of play (44, itself, is never legal):
:func:`relative_mask` gives its mask, :func:`agent_action` reads its choice.
In seat 0 the two frames agree. OpenSpiel's actions alone are the engine's,
since its state and history are shared by every player.

An observation is built from a :class:`SeatView` only (R11): a float32
vector in [0, 1] made of named pieces (:func:`observation_pieces` gives
their names, offsets and sizes; :data:`PIECES` says what each holds).

Seats and sides are **relative** to the observer: seat slot 0 is the
observer, slot 1 the next seat in the order of play, and so on; side slot 0
is the observer's side. A network trained in one seat therefore plays every
seat, and one network serves 2, 3 and 4 players (slots of absent seats stay
0). The variant flags and ``players`` tell rule sets apart.

Why it is fast, since the environments build one at every step: every yes/no
piece (cards, one-hots) is a bit of one Python integer, unpacked to floats
in one numpy call, and the 55 counts are packed into the vector's memory in
one ``struct`` call (numpy's calls, not the encoding, are what costs). The
environments feed :class:`Encoder` the game's
:meth:`~ronda.engine.game.Game.view_masks` (the view's facts as bare masks,
no view built), and it keeps what stays the same through a deal.
``python benchmarks/adapters.py --breakdown`` times each part.

>>> action_id(Play(39)), action_id(Declare("ronda")), action_id(Challenge(1))
(39, 41, 45)
>>> id_action(43)
Declare(declaration='double_ronda')
>>> OBSERVATION_SIZE, STATE_SIZE
(855, 1055)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import numpy as np

from ..engine.actions import CHALLENGES, DECLARES, PLAYS, Action, Challenge, Declare, Play
from ..engine.cards import ALL_CARDS, NUM_CARDS
from ..engine.combinations import DECLARATIONS, NONE, hand_combination
from ..engine.errors import IllegalActionError
from ..engine.rules import Rules
from ..engine.view import SeatView, ViewMasks

NUM_ACTIONS = 48
_DECLARATION_IDS = {kind: 40 + i for i, kind in enumerate(DECLARATIONS)}
PHASES = ("declare", "play", "waiting", "over")
_VARIANT_BITS: tuple[tuple[str, Callable[[Rules], bool]], ...] = (
    ("auto_declare", lambda rules: rules.auto_declare),
    ("ace_high", lambda rules: rules.ace_high),
    ("chain_points_1_6_15", lambda rules: rules.chain_points != (1, 5, 10)),
    ("undeclared_ronda_penalty_5", lambda rules: rules.undeclared_ronda_penalty != 1),
    ("dealer_duty", lambda rules: rules.dealer_duty),
    ("four_card_hands", lambda rules: rules.four_card_hands),
    ("transfer_scoring", lambda rules: rules.transfer_scoring),
)
"""Each observation bit of the variants, and what sets it: a switch as it is, a choice of two when it is not the
default. Named and read in one place. A new variant adds its bit here, which grows ``OBSERVATION_SIZE`` (855): the
golden playthrough, the sizes the docs give and the shipped policy (``adapters/policies``, refused for another size)
follow (docs/engine.md, "Adding a variant")."""

VARIANT_FLAGS = tuple(name for name, _ in _VARIANT_BITS)
"""The rule switches of R10 as observation bits, in this order (``target`` is a count)."""

_BIT_PIECES: list[tuple[str, int, str]] = [
    ("hand", 40, "the observer's cards"),
    ("table", 40, "the cards on the table"),
    ("opening_table", 40, "the four cards turned up at the start of the round (R3.4)"),
    ("unseen", 40, "cards the observer cannot place: other hands and the stock (SeatView.unseen)"),
    ("last_drop", 40, "the card dropped on the turn before, that a caida can take (R5.1)"),
    ("chain_cards", 40, "the cards of the open chain's capture (R5.3)"),
    ("round_plays", 4 * 40, "per seat slot, the cards it played this round"),
    ("deal_plays", 4 * 40, "per seat slot, the cards it played in this deal (what decides a declaration, R8.5)"),
    ("shown", 4 * 40, "per seat slot, its hand as dealt when shown this deal (R8.8, R9.5)"),
    ("declarations", 4 * 5, "per seat slot: not yet declared, none, ronda, tringa, double_ronda"),
    ("exposed", 4, "per seat slot, its declaration exposed as false (R8.6)"),
    (
        "my_combination",
        4,
        "what the observer's hand as dealt this deal holds (R8.1): none, ronda, tringa, double_ronda",
    ),
    ("turn", 4, "the seat slot to act"),
    ("dealer", 4, "the dealer's seat slot"),
    ("players", 3, "2, 3 or 4 players"),
    ("phase", 4, "declare, play, waiting, over"),
    ("challenged", 1, "the observer has challenged this turn and must play (R8.8)"),
    ("last_capture_side", 3, "the side slot that captured last and takes the table at the end (R7.1)"),
    ("chain_side", 3, "the side slot holding the open chain"),
    ("chain_rank", 10, "the open chain's rank"),
    ("chain_count", 3, "2, 3 or 4 cards of the rank in the open chain"),
    ("deal", 6, "the deal of the round, first to sixth"),
    ("last_deal", 1, "this deal empties the stock (R3.6)"),
    ("winner", 3, "the side slot that won the game"),
    ("variants", len(VARIANT_FLAGS), "R10 switches: " + ", ".join(VARIANT_FLAGS)),
]
_COUNT_PIECES: list[tuple[str, int, str]] = [
    ("hand_sizes", 4, "per seat slot, cards held / 4"),
    ("pile_sizes", 3, "per side slot, cards captured this round / 40"),
    ("stock", 1, "cards left to deal / 40"),
    ("scores", 3, "per side slot, score / target (at most 1)"),
    ("target", 1, "the target / 100 (at most 1)"),
    ("settlement_given", 3, "per side slot, announcement points given this deal / 20 (R8.5)"),
    ("debts", 9, "transfer_scoring: cards side slot i owes side slot j, at 3*i+j, / 40"),
    ("round", 1, "rounds played before this one / 20 (at most 1)"),
    # the same cards by rank, where captures, runs and combinations are decided (R4.2, R8.1)
    ("hand_ranks", 10, "per rank, the observer's cards of it / 4"),
    ("table_ranks", 10, "per rank, 1 if it is on the table"),
    ("unseen_ranks", 10, "per rank, the cards of it the observer cannot place / 4"),
]
PIECES = _BIT_PIECES + _COUNT_PIECES
"""(name, size, meaning) of every piece, in order: yes/no pieces (one bit each), then counts scaled into [0, 1]."""

OBSERVATION_SIZE = sum(size for _, size, _ in PIECES)
_BITS = sum(size for _, size, _ in _BIT_PIECES)
_ALL_BYTES = (OBSERVATION_SIZE + 7) // 8
_COUNTS = OBSERVATION_SIZE - _BITS - 30
assert _BITS % 8 == 0 and _COUNTS == 25


def observation_pieces() -> list[tuple[str, int, int]]:
    """(name, offset, size) of every piece of the observation vector."""
    pieces, offset = [], 0
    for name, size, _ in PIECES:
        pieces.append((name, offset, size))
        offset += size
    return pieces


OFFSETS = {name: offset for name, offset, _ in observation_pieces()}
"""Where each piece starts in the observation."""

STATE_SIZE = 4 * 40 + 40 + OBSERVATION_SIZE
"""The full state (PettingZoo ``state()``): every hand by absolute seat, the stock, then seat 0's observation."""

_O = OFFSETS
_DECLARATION_BIT: dict[str | None, int] = {None: 0, **{kind: 1 + i for i, kind in enumerate(DECLARATIONS)}}
_PHASE_BIT = {phase: i for i, phase in enumerate(PHASES)}


def action_id(action: Action) -> int:
    """The integer of an action."""
    if isinstance(action, Play):
        return action.card
    if isinstance(action, Declare):
        return _DECLARATION_IDS[action.declaration]
    if isinstance(action, Challenge):
        return 44 + action.target
    raise IllegalActionError(f"not an action: {action!r}")


def id_action(number: object) -> Action:
    """The action of an integer; raises :class:`IllegalActionError` for anything else.

    A 0-d integer array counts as its integer: it is what Stable-Baselines3's
    ``model.predict(observation)`` returns for one observation.

    >>> id_action(np.array(45))
    Challenge(target=1)
    """
    if type(number) is int and 0 <= number < NUM_ACTIONS:
        return _ACTIONS[number]
    if isinstance(number, np.ndarray) and number.ndim == 0 and number.dtype.kind in "iu":
        number = number.item()
    if isinstance(number, bool) or not isinstance(number, (int, np.integer)) or not 0 <= number < NUM_ACTIONS:
        raise IllegalActionError(f"actions are integers from 0 to {NUM_ACTIONS - 1}, not {number!r}")
    number = int(number)
    if number < 40:
        return PLAYS[number]
    if number < 44:
        return DECLARES[DECLARATIONS[number - 40]]
    return CHALLENGES[number - 44]


_ALL_ACTIONS: tuple[Action, ...] = (*PLAYS, *DECLARES.values(), *CHALLENGES)
_ACTIONS: tuple[Action, ...] = (*PLAYS, *(DECLARES[kind] for kind in DECLARATIONS), *CHALLENGES)
"""The action of each id (the fast path of :func:`id_action`)."""
_ID_OF = {id(action): action_id(action) for action in _ALL_ACTIONS}
"""Action ids by object identity: the engine keeps one instance of every action, so its legal lists hold only those."""
_NO_MASK = np.zeros(NUM_ACTIONS, dtype=np.int8)


def action_mask(legal: Iterable[Action]) -> np.ndarray:
    """1 for each legal action id, 0 elsewhere (int8, length 48): a new array, the caller's to keep or change.

    Written item by item into a copy of zeros: cheaper than any cache of
    shared masks, which has to be copied for the caller anyway.

    >>> action_mask([Play(0), Declare("none")]).nonzero()[0].tolist()
    [0, 40]
    """
    mask = _NO_MASK.copy()
    for action in legal:
        number = _ID_OF.get(id(action))
        mask[action_id(action) if number is None else number] = 1
    return mask


def relative_mask(mask: np.ndarray, seat: int, players: int) -> np.ndarray:
    """``mask`` in ``seat``'s own frame: challenge id 44 + k names the seat k places after it (k = 0 is itself).

    Observations name seats relative to the observer; a policy that reads them
    chooses challenges the same way, so a network trained in one seat plays
    every seat. :func:`absolute_action` turns its choice back into the engine's id.

    >>> relative_mask(action_mask([CHALLENGES[0]]), seat=1, players=2).nonzero()[0].tolist()
    [45]
    """
    relative = mask.copy()
    relative[44:] = 0
    for k in range(players):
        relative[44 + k] = mask[44 + (seat + k) % players]
    return relative


def absolute_action(number: int, seat: int, players: int) -> int:
    """The engine's action id of a choice made in ``seat``'s own frame (see :func:`relative_mask`)."""
    return 44 + (seat + number - 44) % players if number >= 44 else number


def agent_action(number: object, seat: int, players: int) -> Action:
    """The engine's action of an id an agent in ``seat`` chose in its own frame (:func:`relative_mask`).

    What the environments do with an agent's action, so that challenge ids
    mean the same seat slots as the observation in every seat. Raises
    :class:`IllegalActionError` for what is no id, and for a challenge of a
    seat slot the game does not have (47 with 2 players).

    >>> agent_action(45, seat=1, players=2), agent_action(46, seat=1, players=3)
    (Challenge(target=0), Challenge(target=0))
    """
    action = id_action(number)
    if type(action) is not Challenge:
        return action
    places = action.target
    if places >= players:
        raise IllegalActionError(
            f"action {44 + places} challenges the seat {places} places after yours; there are {players} players"
        )
    return CHALLENGES[(seat + places) % players]


def _unpack(bits: int, size: int) -> np.ndarray:
    raw = np.frombuffer(bits.to_bytes(size, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").astype(np.float32)


class _Frame(NamedTuple):
    """What depends only on the rules and the observer's seat, computed once (see :func:`_frame`)."""

    players: int
    sides: int
    slot: tuple[int, ...]  # seat -> seat slot
    side_slot: tuple[int, ...]  # side -> side slot
    constant_bits: int  # seat, players and variant bits
    target: float
    declaration_bits: tuple[dict[str | None, int], ...]  # per seat: declared kind -> its bit
    turn_bits: tuple[int, ...]
    dealer_bits: tuple[int, ...]
    round_play_shift: tuple[int, ...]  # per seat: where its round plays start
    deal_play_shift: tuple[int, ...]
    shown_shift: tuple[int, ...]
    exposed_bits: tuple[int, ...]
    side_bits: tuple[tuple[int, ...], ...]  # per piece (last capture, chain, winner): side -> bit
    my_side: int
    debt_index: tuple[tuple[int, ...], ...]  # payer side, payee side -> index among the nine debt counts
    target_count: float
    seat: int
    # memos filled as met, shared by the frames of one shape (:func:`_shared_memos`):
    hand_counts: dict[tuple[object, ...], bytes]  # hand sizes by seat -> 4 packed counts in seat slots
    pile_counts: dict[tuple[object, ...], bytes]  # pile sizes by side -> 3 packed counts in side slots
    score_counts: dict[tuple[object, ...], bytes]  # scores by side -> 3 packed counts in side slots, the target
    given_counts: dict[tuple[object, ...], bytes]  # points given by side -> 3 packed counts in side slots
    debt_counts: dict[tuple[object, ...], bytes]  # debts, round -> 9 packed counts in side slots, the round
    announcements: dict[tuple[object, ...], tuple[int, int]]  # declarations, exposed, shown -> bits, cards shown


_FRAMES: dict[tuple[int, int], tuple[Rules, _Frame]] = {}


def _frame(rules: Rules, me: int) -> _Frame:
    """The frame of ``rules`` and seat ``me``, found by identity: hashing Rules costs more than an observation."""
    entry = _FRAMES.get((id(rules), me))
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_FRAMES) > 1024:
        _FRAMES.clear()
    frame = _make_frame(rules, me)
    _FRAMES[id(rules), me] = (rules, frame)
    return frame


def _make_frame(rules: Rules, me: int) -> _Frame:
    n, sides = rules.players, rules.sides
    my_side = rules.side_of(me)
    slot = tuple((seat - me) % n for seat in range(n))
    side_slot = tuple((side - my_side) % sides for side in range(sides))
    flags = tuple(bit(rules) for _, bit in _VARIANT_BITS)
    constant = 1 << (_O["players"] + n - 2)
    for i, flag in enumerate(flags):
        if flag:
            constant |= 1 << (_O["variants"] + i)
    declarations = tuple(
        {kind: 1 << (_O["declarations"] + 5 * slot[seat] + bit) for kind, bit in _DECLARATION_BIT.items()}
        for seat in range(n)
    )
    return _Frame(
        players=n,
        sides=sides,
        slot=slot,
        side_slot=side_slot,
        constant_bits=constant,
        target=float(rules.target),
        declaration_bits=declarations,
        turn_bits=tuple(1 << (_O["turn"] + slot[seat]) for seat in range(n)),
        dealer_bits=tuple(1 << (_O["dealer"] + slot[seat]) for seat in range(n)),
        round_play_shift=tuple(_O["round_plays"] + 40 * slot[seat] for seat in range(n)),
        deal_play_shift=tuple(_O["deal_plays"] + 40 * slot[seat] for seat in range(n)),
        shown_shift=tuple(_O["shown"] + 40 * slot[seat] for seat in range(n)),
        exposed_bits=tuple(1 << (_O["exposed"] + slot[seat]) for seat in range(n)),
        side_bits=tuple(
            tuple(1 << (_O[piece] + side_slot[side]) for side in range(sides))
            for piece in ("last_capture_side", "chain_side", "winner")
        ),
        my_side=my_side,
        debt_index=tuple(tuple(3 * side_slot[i] + side_slot[j] for j in range(sides)) for i in range(sides)),
        target_count=min(rules.target / 100.0, 1.0),
        seat=me,
        **_shared_memos(n, sides, me, my_side, rules.target),
    )


_SHARED_MEMOS: dict[tuple[int, ...], dict[str, dict[Any, Any]]] = {}


def _shared_memos(players: int, sides: int, me: int, my_side: int, target: int) -> dict[str, dict[Any, Any]]:
    """The memos of a frame (packed counts, announcement bits), shared by every frame of the same shape.

    Environments make new rules, so new frames, at every construction: shared memos stay warm across them.
    """
    memos = _SHARED_MEMOS.get((players, sides, me, my_side, target))
    if memos is None:
        memos = _SHARED_MEMOS[players, sides, me, my_side, target] = {
            name: {}
            for name in ("hand_counts", "pile_counts", "score_counts", "given_counts", "debt_counts", "announcements")
        }
    return memos


_PHASE_BITS = {phase: 1 << (_O["phase"] + i) for i, phase in enumerate(PHASES)}
_DEAL_BITS = tuple(1 << (_O["deal"] + d) for d in range(6))
_LAST_DEAL_BIT = 1 << _O["last_deal"]
_CHALLENGED_BIT = 1 << _O["challenged"]


def observe(view: SeatView | ViewMasks, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of one seat's view (float32, length :data:`OBSERVATION_SIZE`), written into ``out`` if given.

    ``view`` is a :class:`SeatView` or its :class:`ViewMasks` (``Game.view_masks(seat)``, the same facts).

    >>> from ronda.engine.game import Game
    >>> from ronda.engine.rules import Rules
    >>> view = Game(Rules(players=2), seed=2).view(0)
    >>> vector = observe(view)
    >>> [card for card in range(40) if vector[OFFSETS["hand"] + card]] == list(view.hand)
    True
    """
    return _encode(view.masks() if isinstance(view, SeatView) else view, out, Encoder())


class Encoder:
    """:func:`observe` for the views of one game, followed through one episode, at a fraction of its cost.

    An environment observes the same few seats step after step, and a step
    changes little: a card or two played, the table, a count or two. So each
    observer's bits are brought up to date rather than rebuilt: the round's
    constant parts once a round, the deal's once a deal, the plays as they
    come, the declarations and shown hands when they change. The counts are
    packed floats kept by situation (hand sizes, piles, scores...) in memos
    shared by every game of the same shape, since an environment makes new
    rules, so new frames, each time it is built. Numpy's calls cost more
    than the encoding, so the vector is made in three of them.

    What it remembers is keyed on the round and the deal, which identify a
    deal only within one game: call :meth:`reset` whenever a new game begins.
    Environments give it ``Game.view_masks(seat)``, which costs a third less
    than a view.
    """

    __slots__ = ("_observers", "_raw", "_raw_bytes")

    def __init__(self) -> None:
        self._raw = np.zeros(_ALL_BYTES, dtype=np.uint8)  # the bits of the observation being built
        self._raw_bytes = self._raw.data
        self._observers: dict[int, _Observer] = {}

    def __reduce__(self) -> tuple[type[Encoder], tuple[()]]:
        """A copy is a new encoder: it rebuilds each observer from the game's next view, as after :meth:`reset`.

        The buffer's memoryview cannot be pickled, and the observers are a
        cache (environments are pickled and deep-copied: vector environments,
        checkpoints, search over copies).
        """
        return Encoder, ()

    def reset(self) -> None:
        """Forget the game followed so far."""
        self._observers.clear()

    def observe(self, view: SeatView | ViewMasks, out: np.ndarray | None = None) -> np.ndarray:
        """The same vector as :func:`observe`."""
        return _encode(view.masks() if isinstance(view, SeatView) else view, out, self)


class _Observer:
    """What one seat's observations share through a round, brought up to date at each observation.

    ``round_bits`` and ``round_known`` hold the round's constants and every
    card played so far this round (the ``round_plays`` piece); ``deal_bits``
    the deal's constants and this deal's plays (``deal_plays``); ``plays_seen``
    how many of the round's plays they hold.
    """

    __slots__ = (
        "announced",
        "announced_bits",
        "announced_known",
        "deal",
        "deal_bits",
        "frame",
        "my_deal_plays",
        "plays_seen",
        "round",
        "round_bits",
        "round_known",
        "score_counts",
        "score_key",
    )

    def __init__(self, masks: ViewMasks) -> None:
        self.round = masks.round
        self.frame = frame = _frame(masks.rules, masks.seat)
        opening = masks.opening_table
        self.round_bits = frame.constant_bits | opening << _O["opening_table"] | frame.dealer_bits[masks.dealer]
        self.round_known = opening
        self.plays_seen = 0
        self.deal = -2  # no deal yet: the first observation begins one
        self.deal_bits = self.my_deal_plays = 0
        self.announced: tuple[object, ...] = ()
        self.announced_bits = self.announced_known = 0
        self.score_key: tuple[object, ...] = ()
        self.score_counts = b""

    def add_plays(self, plays: tuple[tuple[int, int], ...], end: int, in_deal: bool) -> None:
        """Fold ``plays[plays_seen:end]`` in: into the round's bits, and into the deal's if ``in_deal``."""
        frame = self.frame
        me = frame.seat
        round_shift, deal_shift = frame.round_play_shift, frame.deal_play_shift
        round_bits, known, deal_bits, mine = self.round_bits, self.round_known, self.deal_bits, self.my_deal_plays
        for seat, card in plays[self.plays_seen : end]:
            card_bit = _CARD_BITS[card]
            round_bits |= card_bit << round_shift[seat]
            known |= card_bit
            if in_deal:
                deal_bits |= card_bit << deal_shift[seat]
                if seat == me:
                    mine |= card_bit
        self.round_bits, self.round_known, self.deal_bits, self.my_deal_plays = round_bits, known, deal_bits, mine
        self.plays_seen = end

    def begin_deal(self, masks: ViewMasks) -> None:
        """A new deal: the earlier deals' plays stay in the round's bits, the deal's constants are set anew."""
        self.add_plays(masks.plays, masks.deal_start, False)
        self.deal = deal = masks.deal
        bits = 0
        if deal >= 0:
            bits = _DEAL_BITS[min(deal, 5)]
            if deal == masks.deals_in_round - 1:
                bits |= _LAST_DEAL_BIT
        self.deal_bits, self.my_deal_plays = bits, 0
        self.add_plays(masks.plays, len(masks.plays), True)
        # the observer's hand as dealt: what it holds and what it has played this deal (R8.1)
        self.deal_bits |= _my_combination_bit(masks.hand | self.my_deal_plays, masks.rules)

    def announce(
        self, declarations: tuple[str | None, ...], exposed: tuple[bool, ...], shown: tuple[int | None, ...]
    ) -> None:
        """The bits of the seats' declarations, exposures and shown hands, and the cards shown hands place."""
        frame = self.frame
        announced = self.announced = (declarations, exposed, shown)
        found = frame.announcements.get(announced)
        if found is None:
            bits = known = 0
            for seat, declared in enumerate(declarations):
                bits |= frame.declaration_bits[seat][declared]
                if exposed[seat]:
                    bits |= frame.exposed_bits[seat]
                cards = shown[seat]
                if cards is not None:
                    known |= cards
                    bits |= cards << frame.shown_shift[seat]
            found = (bits, known)
            if len(frame.announcements) < _MEMO_LIMIT:
                frame.announcements[announced] = found
        self.announced_bits, self.announced_known = found


_CARD_BITS = tuple(1 << card for card in range(NUM_CARDS))
_KIND_BIT: dict[str | None, int] = {None: 0}
_KIND_BIT.update({kind: 1 << (_O["my_combination"] + i) for i, kind in enumerate(DECLARATIONS)})


def _my_combination_bit(dealt: int, rules: Rules) -> int:
    """The bit of the kind a hand as dealt holds (R8.1), by the engine's own memoised detector (it met the hand)."""
    combination = hand_combination(dealt, rules.ace_high)
    return _KIND_BIT[NONE if combination is None else combination.kind]


_TABLE = _O["table"]
_UNSEEN = _O["unseen"]
_LAST_DROP = _O["last_drop"]
_CHAIN_CARDS = _O["chain_cards"]
_CHAIN_RANK = _O["chain_rank"]
_CHAIN_COUNT = _O["chain_count"] - 2

_MEMO_LIMIT = 50_000
"""The most situations (pile sizes, scores, ...) one memo of packed counts keeps."""


def _kept(memo: dict[tuple[object, ...], bytes], key: tuple[object, ...], packed: bytes) -> bytes:
    """``packed``, kept in ``memo`` under ``key`` while the memo holds fewer than :data:`_MEMO_LIMIT`."""
    if len(memo) < _MEMO_LIMIT:
        memo[key] = packed
    return packed


def _slot_counts(
    memo: dict[tuple[object, ...], bytes], values: tuple[int, ...], start: int, width: int, scale: float, *tail: float
) -> bytes:
    """``values`` by seat or side, from the observer's (``start``) on, times ``scale`` up to 1, in ``width`` slots,
    then ``tail``: packed, kept in ``memo`` under ``values``."""
    counts = [0.0] * width
    for slot, value in enumerate(values[start:] + values[:start]):
        counts[slot] = min(value * scale, 1.0)
    return _kept(memo, values, struct.pack(f"={width + len(tail)}f", *counts, *tail))


def _debt_counts(frame: _Frame, key: tuple[tuple[tuple[int, ...], ...], int]) -> bytes:
    """Debts / 40 by payer and payee side slots (9) and the round / 20: packed, kept in the frame."""
    debts, round_index = key
    counts = [0.0] * 10
    for payer, row in enumerate(debts):
        for payee, cards in enumerate(row):
            if cards:
                counts[frame.debt_index[payer][payee]] = min(cards / 40.0, 1.0)
    counts[9] = min(max(round_index, 0), 20) * 0.05
    return _kept(frame.debt_counts, key, _PACK_10(*counts))


def _encode(masks: ViewMasks, out: np.ndarray | None, encoder: Encoder) -> np.ndarray:
    (
        _rules,
        phase,
        turn,
        _dealer,
        round_index,
        deal,
        _deals,
        table,
        _opening,
        hand_sizes,
        pile_sizes,
        stock,
        scores,
        plays,
        _deal_start,
        declarations,
        exposed,
        shown,
        given,
        last_drop,
        chain_rank,
        chain_cards,
        chain_count,
        chain_side,
        last_capture_side,
        challenged,
        winner,
        debts,
        me,
        hand,
    ) = masks
    # ---- bits: one integer, one unpack; the observer's memo brings what changes slowly up to date
    observer = encoder._observers.get(me)
    if observer is None or observer.round != round_index or len(plays) < observer.plays_seen:
        observer = encoder._observers[me] = _Observer(masks)
    if observer.deal != deal:
        observer.begin_deal(masks)
    elif len(plays) != observer.plays_seen:
        observer.add_plays(plays, len(plays), True)
    if (declarations, exposed, shown) != observer.announced:
        observer.announce(declarations, exposed, shown)
    frame = observer.frame
    unseen = ALL_CARDS & ~(observer.round_known | observer.announced_known | hand | table)
    bits = (
        observer.round_bits
        | observer.deal_bits
        | observer.announced_bits
        | hand
        | table << _TABLE
        | unseen << _UNSEEN
        | frame.turn_bits[turn]
        | _PHASE_BITS[phase]
    )
    if last_drop >= 0:
        bits |= 1 << (_LAST_DROP + last_drop)
    if chain_rank >= 0:
        bits |= (
            chain_cards << _CHAIN_CARDS
            | frame.side_bits[1][chain_side]
            | 1 << (_CHAIN_RANK + chain_rank)
            | 1 << (_CHAIN_COUNT + min(max(chain_count, 2), 4))
        )
    if challenged:
        bits |= _CHALLENGED_BIT
    if last_capture_side >= 0:
        bits |= frame.side_bits[0][last_capture_side]
    if winner >= 0:
        bits |= frame.side_bits[2][winner]

    # ---- counts as packed float32: hand sizes 4, piles 3 and the stock by seat and side slot; scores 3, target,
    # given 3, debts 9 and the round, kept per situation; per rank the observer's cards, the table's, the unseen
    key = (scores, given, round_index, debts)
    if key == observer.score_key:
        score_counts = observer.score_counts
    else:
        rest = (debts, round_index)
        score_counts = (
            (
                frame.score_counts.get(scores)
                or _slot_counts(frame.score_counts, scores, frame.my_side, 3, 1.0 / frame.target, frame.target_count)
            )
            + (frame.given_counts.get(given) or _slot_counts(frame.given_counts, given, frame.my_side, 3, 0.05))
            + (frame.debt_counts.get(rest) or _debt_counts(frame, rest))
        )
        observer.score_key, observer.score_counts = key, score_counts
    q, t = _QUARTER_PAIRS, _ONE_PAIRS
    counts = b"".join(
        (
            frame.hand_counts.get(hand_sizes) or _slot_counts(frame.hand_counts, hand_sizes, frame.seat, 4, 0.25),
            frame.pile_counts.get(pile_sizes) or _slot_counts(frame.pile_counts, pile_sizes, frame.my_side, 3, 0.025),
            _STOCK_COUNTS[stock],
            score_counts,
            q[hand & 255],
            q[hand >> 8 & 255],
            q[hand >> 16 & 255],
            q[hand >> 24 & 255],
            q[hand >> 32],
            t[table & 255],
            t[table >> 8 & 255],
            t[table >> 16 & 255],
            t[table >> 24 & 255],
            t[table >> 32],
            q[unseen & 255],
            q[unseen >> 8 & 255],
            q[unseen >> 16 & 255],
            q[unseen >> 24 & 255],
            q[unseen >> 32],
        )
    )
    # One unpack makes the whole vector (the counts' places unpack as zeros), then the counts' bytes are copied
    # into its memory.
    encoder._raw_bytes[:] = bits.to_bytes(_ALL_BYTES, "little")
    if out is None:
        out = np.unpackbits(encoder._raw, None, OBSERVATION_SIZE, "little").astype(_FLOAT32)  # positional: cheaper
        _pack_counts(out.data, 4 * _BITS, counts)
    else:
        out[:_BITS] = np.unpackbits(encoder._raw, None, _BITS, "little")
        out[_BITS:] = np.frombuffer(counts, _FLOAT32)
    return out


_FLOAT32 = np.dtype(np.float32)
_pack_counts = struct.Struct(f"{4 * (OBSERVATION_SIZE - _BITS)}s").pack_into
_PACK_10 = struct.Struct("=10f").pack
_STOCK_COUNTS = tuple(struct.pack("=f", cards * 0.025) for cards in range(NUM_CARDS + 1))


def _pair_bytes(scale: float) -> tuple[bytes, ...]:
    """Per byte of a card mask (two ranks, four suits each): the cards of each rank times ``scale``, packed."""
    return tuple(struct.pack("=2f", (b & 15).bit_count() * scale, (b >> 4).bit_count() * scale) for b in range(256))


_QUARTER_PAIRS = _pair_bytes(0.25)
_ONE_PAIRS = _pair_bytes(1.0)


def encode_state(hands: Iterable[int], stock: int, seat0: SeatView) -> np.ndarray:
    """The full state: each absolute seat's hand (padded to four), the stock's cards, then ``seat0``'s observation.

    For centralized critics (PettingZoo ``state()``); never give it to a player (R11).
    """
    bits = 0
    for seat, hand in enumerate(hands):
        bits |= hand << (40 * seat)
    bits |= stock << 160
    out = np.empty(STATE_SIZE, dtype=np.float32)
    out[:200] = _unpack(bits, 25)
    observe(seat0, out[200:])
    return out


def describe_action(number: int) -> str:
    """Words for an action id: 'play 5o', 'declare ronda', 'challenge 1'."""
    return str(id_action(number))


assert NUM_CARDS == 40

__all__ = [
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "OFFSETS",
    "PIECES",
    "STATE_SIZE",
    "absolute_action",
    "action_id",
    "action_mask",
    "agent_action",
    "relative_mask",
    "describe_action",
    "Encoder",
    "encode_state",
    "id_action",
    "observation_pieces",
    "observe",
]
