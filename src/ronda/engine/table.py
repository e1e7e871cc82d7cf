"""What one card does to the table: capture and its run, drop, caida and the chain (R4.2, R4.3, R5.1-R5.3).

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
"""A :class:`Step` made with ``tuple.__new__``: the game plays every card of every rollout through :func:`play_step`."""


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
    if rank == chain:
        return _new(Step, (0, False, True, table, -1, rank, chain_count + 1))
    bits = table >> rank
    if not bits & 1:
        return _new(Step, (0, False, False, table | 1 << rank, rank, -1, 0))
    taken = ((bits ^ (bits + 1)) >> 1) << rank
    if rank == drop and chains:
        return _new(Step, (taken, True, False, table & ~taken, -1, rank, 2))
    return _new(Step, (taken, rank == drop, False, table & ~taken, -1, -1, 0))


__all__ = ["RankMask", "Step", "capture_run", "play_step"]
