"""What one card is worth to the search bots now: the engine's play step, priced.

The rules of a play — capture and its run, drop, caida, the chain (R4.2-R5.3)
— are the engine's :func:`~ronda.engine.table.play_step`; this module puts a
price on what it says: cards taken, a caida, a missa, a raise. It works on
rank masks (bit ``r`` set when a card of rank ``r`` is up) because the rollout
policies price millions of plays a move (expert's lookahead), so it does not
call the engine's function for each: it reads the capture run from a table made
once from the engine's :func:`~ronda.engine.table.capture_run` for every table
and rank, and repeats the step's three comparisons (a raise, a caida, a chain
that opens): a fast path, not a second statement of the rules, for its tests
(``tests/bots/test_tactics.py``) check :func:`take` and :func:`priced_step`
against the engine's :func:`~ronda.engine.table.play_step` on every table,
rank, drop and chain. Whether a missa counts (R6.2) is the caller's
``missa``, from the engine's :func:`~ronda.engine.table.last_turn`.

>>> take(0b10110000, drop_rank=-1, rank=4, missa=True)  # a 5 on 5 6 10: takes the 5 and 6, the 10 stays
(1.35, 128)
>>> priced_step(0b10110000, drop_rank=-1, chain_rank=-1, chain_count=0, rank=7, missa=True,
...             chain_points=(1, 5, 10), multi=False)  # a 10 on 5 6 10: takes the 10
(0.9, 48, -1, -1, 0)
"""

from __future__ import annotations

from math import comb

from ..engine.rules import Rules
from ..engine.table import RankMask, capture_run, chain_points

CARD_VALUE = 0.45
"""What one captured card is worth to the policy (the card count of R7.2): a heuristic, not a rule."""

MISSA_POINTS = Rules().missa_points
"""A missa's points (R6.1, :attr:`~ronda.engine.rules.Rules.missa_points`), read once: these functions price
millions of plays a move and are given no rules. No variant of R10 changes them; one that did would be passed in,
as ``chain_points`` is."""

CAIDA_POINTS = chain_points(Rules(), 2)
"""A caida's points where :func:`take` is not given the chain's (R5.1): the first of ``chain_points``, 1 under both
of R10's choices. :func:`priced_step` reads the ``chain_points`` it is given."""


def _runs() -> tuple[tuple[int, RankMask], ...]:
    """For every table and rank (``table * 10 + rank``): the cards a card of the rank takes, and the table after."""
    runs = []
    for table in range(1 << 10):
        for rank in range(10):
            run = capture_run(table, rank)
            runs.append((run.bit_count(), table & ~run if run else table | 1 << rank))
    return tuple(runs)


_RUNS = _runs()
"""The engine's :func:`~ronda.engine.table.capture_run` for every table and rank, and the table after."""


def take(
    table_ranks: RankMask, drop_rank: int, rank: int, missa: bool, card_value: float = CARD_VALUE
) -> tuple[float, RankMask]:
    """Immediate worth of playing ``rank`` on the table, and the table's ranks after it (no chain).

    ``drop_rank`` is the rank dropped on the turn before (a caida, R5.1), -1 if
    none; ``missa`` whether emptying the table scores (not on the round's last turn, R6.2).
    """
    run, after = _RUNS[table_ranks * 10 + rank]
    if not run:
        return 0.0, after
    value = card_value * (run + 1)
    if rank == drop_rank:
        value += CAIDA_POINTS
    if missa and not after:
        value += MISSA_POINTS
    return value, after


def priced_step(
    table_ranks: RankMask,
    drop_rank: int,
    chain_rank: int,
    chain_count: int,
    rank: int,
    missa: bool,
    chain_points: tuple[int, int, int],
    multi: bool,
    card_value: float = CARD_VALUE,
) -> tuple[float, RankMask, int, int, int]:
    """One play of ``rank`` (:func:`~ronda.engine.table.play_step`): its immediate worth, and the table,
    drop rank and chain (rank, count) after it. ``multi``: more than two players (a caida opens a chain)."""
    if rank == chain_rank:  # a raise (R5.3)
        return chain_points[chain_count - 1] + card_value * (chain_count + 1), table_ranks, -1, rank, chain_count + 1
    run, after = _RUNS[table_ranks * 10 + rank]
    if not run:  # a drop (R4.3)
        return 0.0, after, rank, -1, 0
    value = card_value * (run + 1)
    caida = rank == drop_rank  # R5.1
    if caida:
        value += chain_points[0]
    if missa and not after:
        value += MISSA_POINTS
    if caida and multi:  # the chain opens (R5.3)
        return value, after, -1, rank, 2
    return value, after, -1, -1, 0


def no_card_chance(unseen: int, of_rank: int, size: int) -> float:
    """The chance that a hand of ``size`` cards, dealt from ``unseen`` cards of which ``of_rank`` are of one rank,
    holds none of them: what every judgement of the next seat's reply from counted cards rests on (``medium``'s
    danger, the policy's play features, the blind rollouts), written once.

    >>> no_card_chance(10, 0, 3), no_card_chance(10, 1, 3), no_card_chance(2, 1, 3)
    (1.0, 0.7, 0.0)
    """
    if not of_rank:
        return 1.0
    if size > unseen or of_rank > unseen:
        return 0.0
    return comb(unseen - of_rank, size) / comb(unseen, size)


__all__ = ["CAIDA_POINTS", "CARD_VALUE", "MISSA_POINTS", "no_card_chance", "priced_step", "take"]
