"""Table arithmetic for the search bots: what one card takes now, on plain rank masks.

The rollout policy and the reading of other seats' plays judge thousands of
plays a move, so this works on the table's rank mask (bit ``r`` set when a
card of rank ``r`` is up, R4.2 keeps it one card per rank) rather than on a view.

>>> take(0b10110000, drop_rank=-1, rank=4, missa=True)  # a 5 on 5 6 10: takes the 5 and 6, the 10 stays
(1.35, 128)
"""

from __future__ import annotations

CARD_VALUE = 0.45
"""What one captured card is worth to the policy (the card count of R7.2)."""


def take(table_ranks: int, drop_rank: int, rank: int, missa: bool, card_value: float = CARD_VALUE) -> tuple[float, int]:
    """Immediate worth of playing ``rank`` on the table, and the table's ranks after it (no chain).

    ``drop_rank`` is the rank dropped on the turn before (a caida), -1 if none.
    """
    bits = table_ranks >> rank
    if not bits & 1:
        return 0.0, table_ranks | 1 << rank
    run = (~bits & (bits + 1)).bit_length() - 1  # trailing ones: the run taken (R4.2)
    after = table_ranks & ~(((1 << run) - 1) << rank)
    value = card_value * (run + 1)
    if rank == drop_rank:
        value += 1.0
    if missa and not after:
        value += 1.0
    return value, after


def play_step(
    table_ranks: int,
    drop_rank: int,
    chain_rank: int,
    chain_count: int,
    rank: int,
    missa: bool,
    chain_points: tuple[int, int, int],
    multi: bool,
    card_value: float = CARD_VALUE,
) -> tuple[float, int, int, int, int]:
    """One play of ``rank``: its immediate worth, and the table, drop rank and chain (rank, count) after it."""
    if rank == chain_rank:
        return chain_points[chain_count - 1] + card_value * (chain_count + 1), table_ranks, -1, rank, chain_count + 1
    value, after = take(table_ranks, drop_rank, rank, missa, card_value)
    if after == table_ranks | 1 << rank:
        return value, after, rank, -1, 0
    if multi and rank == drop_rank:
        return value, after, -1, rank, 2
    return value, after, -1, -1, 0


__all__ = ["CARD_VALUE", "play_step", "take"]
