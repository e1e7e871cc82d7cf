"""One encoding of actions and observations for every research adapter.

Actions are small integers, the same in PettingZoo, Gymnasium and OpenSpiel:

=========  ==========================================
id         action
=========  ==========================================
0 … 39     play the card with that id (``rank_index * 4 + suit``: 0 is 1o, 39 is 12b)
40 … 43    declare none, ronda, tringa, double_ronda
44 … 47    challenge the declaration of seat 0 … 3
=========  ==========================================

An observation is built only from a :class:`SeatView` (R11), as a flat
float32 vector made of named pieces (``observation_pieces`` gives their
names, offsets and sizes). Seats are absolute (0..3) and padded to four, so
one network can be trained for every table size.

>>> action_id(Play(39)), action_id(Declare("ronda")), action_id(Challenge(1))
(39, 41, 45)
>>> id_action(43)
Declare(declaration='double_ronda')
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..engine.actions import CHALLENGES, DECLARES, PLAYS, Action, Challenge, Declare, Play
from ..engine.cards import CardSet
from ..engine.combinations import DECLARATIONS
from ..engine.errors import IllegalActionError
from ..engine.view import SeatView

NUM_ACTIONS = 48
_DECLARATION_IDS = {kind: 40 + i for i, kind in enumerate(DECLARATIONS)}
_PHASES = ("declare", "play", "waiting", "over")

_PIECES: list[tuple[str, int]] = [
    ("hand", 40),
    ("table", 40),
    ("opening_table", 40),
    ("played_by_seat", 4 * 40),
    ("shown_by_seat", 4 * 40),
    ("last_drop", 40),
    ("chain", 40),
    ("declarations", 4 * 5),  # per seat: not yet, none, ronda, tringa, double_ronda
    ("exposed", 4),
    ("hand_sizes", 4),
    ("pile_sizes", 4),
    ("stock", 1),
    ("scores", 4),
    ("settlement_given", 4),
    ("me", 4),
    ("turn", 4),
    ("dealer", 4),
    ("players", 3),
    ("phase", 4),
    ("challenged", 1),
    ("deal", 1),
]
OBSERVATION_SIZE = sum(size for _, size in _PIECES)


def observation_pieces() -> list[tuple[str, int, int]]:
    """(name, offset, size) of every piece of the observation vector."""
    pieces, offset = [], 0
    for name, size in _PIECES:
        pieces.append((name, offset, size))
        offset += size
    return pieces


_OFFSETS = {name: offset for name, offset, _ in observation_pieces()}


def action_id(action: Action) -> int:
    """The integer of an action."""
    if isinstance(action, Play):
        return action.card
    if isinstance(action, Declare):
        return _DECLARATION_IDS[action.declaration]
    return 44 + action.target


def id_action(number: int) -> Action:
    """The action of an integer; raises :class:`IllegalActionError` for one out of range."""
    if not isinstance(number, (int, np.integer)) or not 0 <= number < NUM_ACTIONS:
        raise IllegalActionError(f"actions are integers from 0 to {NUM_ACTIONS - 1}, not {number!r}")
    number = int(number)
    if number < 40:
        return PLAYS[number]
    if number < 44:
        return DECLARES[DECLARATIONS[number - 40]]
    return CHALLENGES[number - 44]


def action_mask(legal: Iterable[Action]) -> np.ndarray:
    """1 for each legal action id, 0 elsewhere (int8, length 48)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in legal:
        mask[action_id(action)] = 1
    return mask


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float32)
"""Row b holds the 8 bits of byte b, lowest first: a 40-card mask becomes 40 floats in five lookups."""


def card_vector(mask: int) -> np.ndarray:
    """A 40-bit card mask as 40 floats (1.0 where the card is in the set)."""
    return _BYTE_BITS[np.frombuffer(mask.to_bytes(5, "little"), dtype=np.uint8)].reshape(40)


def _cards(vector: np.ndarray, cards: CardSet, offset: int = 0) -> None:
    vector[offset : offset + 40] = card_vector(cards.mask)


def observe(view: SeatView) -> np.ndarray:
    """The observation vector of one seat's view (float32, length :data:`OBSERVATION_SIZE`)."""
    v = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    at = _OFFSETS
    target = float(view.rules.target)
    _cards(v, view.hand, at["hand"])
    _cards(v, view.table, at["table"])
    _cards(v, view.opening_table, at["opening_table"])
    played = [0] * 4
    for seat, card in view.plays:
        played[seat] |= 1 << card
    for seat, mask in enumerate(played):
        if mask:
            v[at["played_by_seat"] + 40 * seat : at["played_by_seat"] + 40 * seat + 40] = card_vector(mask)
    for seat, shown in enumerate(view.shown):
        if shown is not None:
            _cards(v, shown, at["shown_by_seat"] + 40 * seat)
    if view.last_drop is not None:
        v[at["last_drop"] + view.last_drop] = 1.0
    if view.chain is not None:
        _cards(v, view.chain.cards, at["chain"])
    for seat, declared in enumerate(view.declarations):
        index = 0 if declared is None else 1 + DECLARATIONS.index(declared)
        v[at["declarations"] + 5 * seat + index] = 1.0
    for seat, exposed in enumerate(view.exposed):
        v[at["exposed"] + seat] = float(exposed)
    for seat, size in enumerate(view.hand_sizes):
        v[at["hand_sizes"] + seat] = size / 4.0
    for side, size in enumerate(view.pile_sizes):
        v[at["pile_sizes"] + side] = size / 40.0
    v[at["stock"]] = view.stock / 40.0
    for side, score in enumerate(view.scores):
        v[at["scores"] + side] = score / target
    for side, given in enumerate(view.settlement_given):
        v[at["settlement_given"] + side] = given / 10.0
    v[at["me"] + view.seat] = 1.0
    v[at["turn"] + view.turn] = 1.0
    v[at["dealer"] + view.dealer] = 1.0
    v[at["players"] + view.players - 2] = 1.0
    v[at["phase"] + _PHASES.index(view.phase)] = 1.0
    v[at["challenged"]] = float(view.challenged_this_turn)
    v[at["deal"]] = view.deal / 6.0
    return v


def describe_action(number: int) -> str:
    """Words for an action id: 'play 5o', 'declare ronda', 'challenge 1'."""
    return str(id_action(number))


__all__ = [
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "action_id",
    "action_mask",
    "describe_action",
    "id_action",
    "observe",
    "observation_pieces",
    "Challenge",
]
