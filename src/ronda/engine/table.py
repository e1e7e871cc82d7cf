"""What one card does to the table (R4.2, R4.3, R5.1-R5.3), and what that scores (R5, R6, R10 dealer duty).

:func:`play_step` is the one statement of these rules in the project: the
game plays every card through it, rebuilding a position from a view replays
the round's public plays through it, and the bots price what it says
(``ronda.bots.tactics``, ``ronda.bots.inference``).

It works on *rank masks* — bit ``r`` set when a card of rank index ``r`` is
on the table, which R4.2 keeps to one card per rank — because searches ask it
millions of times; the game keeps the cards themselves beside the ranks.

>>> step = play_step(0b10110000, -1, -1, 0, rank=4, chains=False)
>>> bin(step.taken), step.caida, bin(step.table)  # a 5 on 5 6 10: takes the 5 and the 6; the 10 stays
('0b110000', False, '0b10000000')
>>> play_step(0b10110000, drop=7, chain=-1, chain_count=0, rank=7, chains=True)  # a caida on the 10 opens a chain
Step(taken=128, caida=True, raised=False, table=48, drop=-1, chain=7, chain_count=2)
"""

from __future__ import annotations

from typing import NamedTuple

from .rules import Rules

RankMask = int
"""Ranks as a 10-bit integer: bit ``r`` stands for rank index ``r`` (0 for 1 … 9 for 12)."""


class Step(NamedTuple):
    """What one play did, in ranks (:func:`play_step`)."""

    taken: RankMask
    """The table's ranks it captured (R4.2) — the matched rank and the run above it; 0 for a drop or a raise."""
    caida: bool
    """The matched card was the one dropped on the turn before, in this deal (R5.1)."""
    raised: bool
    """It raised the open chain (R5.3): it takes the whole open capture, not table cards."""
    table: RankMask
    """The ranks on the table after the play."""
    drop: int
    """The rank a caida may take on the next play: this card's if it was dropped (R4.3), else -1."""
    chain: int
    """The rank of the chain open after the play (R5.3, more than two players only), else -1."""
    chain_count: int
    """How many cards of that rank the open capture holds (2 after a caida, 3 and 4 after raises)."""


_new = tuple.__new__


def capture_run(table: RankMask, rank: int) -> RankMask:
    """R4.2: the ranks a card of ``rank`` takes from ``table``: its own, and every rank that follows without a gap.

    0 when no card of ``rank`` is on the table. R1.3: 10 follows 7, nothing follows 12.

    >>> bin(capture_run(0b1111000110, 1)), capture_run(0b1111000110, 4)
    ('0b110', 0)
    >>> bin(capture_run(0b1111000000, 6))  # a 7 takes 7 10 11 12
    '0b1111000000'
    """
    bits = table >> rank
    return ((bits ^ (bits + 1)) >> 1) << rank


def play_step(table: RankMask, drop: int, chain: int, chain_count: int, rank: int, chains: bool) -> Step:
    """One card of ``rank`` played on ``table`` (R4.2, R4.3, R5.1, R5.3).

    ``drop`` is the rank dropped on the turn before in this deal (-1 if none),
    ``chain`` and ``chain_count`` the open chain (-1 and 0 if none), ``chains``
    whether a caida opens a chain (more than two players). The caller resets
    ``drop`` and the chain at the start of every deal (R5.2, R5.3).
    """
    return _new(Step, step_values(table, drop, chain, chain_count, rank, chains))


def step_values(
    table: RankMask, drop: int, chain: int, chain_count: int, rank: int, chains: bool
) -> tuple[RankMask, bool, bool, RankMask, int, int, int]:
    """:func:`play_step`'s :class:`Step` as a plain tuple, in the same order: what the game's turn unpacks.

    The rules are written here, once; the game plays every card of every rollout through this.
    """
    if rank == chain:
        return (0, False, True, table, -1, rank, chain_count + 1)
    bits = table >> rank
    if not bits & 1:
        return (0, False, False, table | 1 << rank, rank, -1, 0)
    taken = ((bits ^ (bits + 1)) >> 1) << rank
    if rank == drop and chains:
        return (taken, True, False, table & ~taken, -1, rank, 2)
    return (taken, rank == drop, False, table & ~taken, -1, -1, 0)


def last_turn(cards_left: int, last_deal: bool) -> bool:
    """R3.6: whether a play is the round's last turn — the last card in hand (``cards_left`` before the play) of the
    last deal. No missa on it (R6.2); dealer duty falls on it (R10)."""
    return cards_left == 1 and last_deal


def missa(captured: bool, table_after: RankMask, on_last_turn: bool) -> bool:
    """R6.1, R6.2: a capture or a raise that leaves the table empty scores (:attr:`Rules.missa_points`), except on
    the round's last turn."""
    return captured and not table_after and not on_last_turn


def chain_points(rules: Rules, count: int) -> int:
    """R5.1, R5.3, R10 chain_points: what the ``count``-th card of one rank in a chain scores.

    The 2nd is the caida (1), the 3rd and 4th the raises (5 and 10, or 6 and 15).

    >>> chain_points(Rules(), 2), chain_points(Rules(chain_points=(1, 6, 15)), 4)
    (1, 15)
    """
    return rules.chain_points[count - 2]


def dealer_duty_points(rank: int, captured: bool) -> int:
    """R10 dealer_duty, on the last turn: 5 for the dealer's side when a 12 captures, -5 (5 to each opposing side)
    for a card that captures nothing or is a 1, else 0. A raise counts as a capture (R5.4)."""
    if captured and rank == 9:
        return 5
    if not captured or rank == 0:
        return -5
    return 0


__all__ = [
    "RankMask",
    "Step",
    "capture_run",
    "chain_points",
    "dealer_duty_points",
    "last_turn",
    "missa",
    "play_step",
    "step_values",
]
