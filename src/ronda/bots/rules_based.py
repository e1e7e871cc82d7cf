"""The rule-based levels: ``easy`` and ``medium``.

Both judge each card by what it does now and what it leaves to the next seat,
who is always an opponent (R2.2: partners sit opposite):

- *gain*: caida or chain points (R5), missa (R6), dealer duty on the last turn
  (R10), and ``card_value`` for every card it brings to the side's pile (the
  card count of R7.2 pays about one point for every card past half the pack);
- *danger*: the best the next seat could then do — a caida on the card just
  dropped, a raise on an open chain, a capture that clears the table for a
  missa — each weighted by the chance that the next seat holds that rank.

``medium`` counts cards: the chance comes from the cards it has not seen
(played, on the table, in its hand, shown by a challenge), so a rank whose four
cards are accounted for is safe to drop. ``easy`` remembers nothing — it
assumes any card not in its hand or on the table may be anywhere — cares less
about danger, and plays a random card now and then.

Declarations follow :mod:`ronda.bots.declarations`: both declare truthfully;
``medium`` challenges a declaration that counting proves false, ``easy`` never
challenges.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import Action, Play
from ..engine.cards import ALL_CARDS, Mask
from ..engine.game import DECLARE
from ..engine.table import chain_points, dealer_duty_points, last_turn, missa, play_step
from ..engine.view import SeatView
from .declarations import challenge, declaration
from .tactics import no_card_chance


class RuleBot:
    """A one-ply judge of plays: gain now minus the danger left to the next seat.

    Knobs: ``card_value`` (points a captured card is worth), ``danger_weight``
    (how much the next seat's chances count), ``memory`` (count played cards),
    ``mistake_rate`` (chance of playing a uniformly random card instead),
    ``seed``.
    """

    name = "rules"

    def __init__(
        self,
        seed: int | None = None,
        *,
        card_value: float = 0.45,
        danger_weight: float = 1.0,
        memory: bool = True,
        mistake_rate: float = 0.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.card_value = card_value
        self.danger_weight = danger_weight
        self.memory = memory
        self.mistake_rate = mistake_rate

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if view.phase == DECLARE:
            return declaration(view, may_bluff=False)
        chosen = challenge(view, legal, counts_cards=self.memory)
        if chosen is not None:
            return chosen
        plays = [a for a in legal if type(a) is Play]
        if len(plays) == 1:
            return plays[0]
        if self.mistake_rate and self.rng.random() < self.mistake_rate:
            return plays[self.rng.randrange(len(plays))]
        scored = [(judge_play(view, a.card, self.card_value, self.danger_weight, self.memory), a) for a in plays]
        best = max(s for s, _ in scored)
        top = [a for s, a in scored if s >= best - 1e-9]
        return top[self.rng.randrange(len(top))] if len(top) > 1 else top[0]


class EasyBot(RuleBot):
    """``easy``: greedy for what a card takes now, little thought for the next seat, no card memory.

    Knobs: ``card_value`` 0.45, ``danger_weight`` 0.3, ``memory`` off,
    ``mistake_rate`` 0.2 (one play in five is a random card), ``seed``.
    Declares truthfully, never challenges.
    """

    name = "easy"

    def __init__(self, seed: int | None = None, *, mistake_rate: float = 0.2) -> None:
        super().__init__(seed, card_value=0.45, danger_weight=0.3, memory=False, mistake_rate=mistake_rate)


class MediumBot(RuleBot):
    """``medium``: biggest capture, caida and missa value, the danger to the next seat, counted cards.

    Knobs: ``card_value`` 0.45, ``danger_weight`` 1.0, ``memory`` on,
    ``mistake_rate`` 0, ``seed`` (breaks ties). Declares truthfully,
    challenges only what counting proves false.
    """

    name = "medium"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, card_value=0.45, danger_weight=1.0, memory=True, mistake_rate=0.0)


# ---------------------------------------------------------------- judging plays


def holds_rank_chance(view: SeatView, seat: int, rank: int, memory: bool = True) -> float:
    """Chance that ``seat`` holds at least one card of ``rank``, from what ``view``'s seat has seen.

    A hand shown by a challenge is known. Otherwise every unseen card is taken
    as equally likely to be anywhere unseen (the other hands and the stock);
    without ``memory`` the played cards are forgotten and count as unseen.
    """
    size = view.hand_sizes[seat]
    if size == 0:
        return 0.0
    shown = view.shown[seat]
    if shown is not None:
        return 1.0 if shown.mask & ~view.played_this_deal(seat) & (0xF << 4 * rank) else 0.0
    unseen = _unseen(view, memory)
    total = unseen.bit_count()
    of_rank = (unseen >> 4 * rank & 0xF).bit_count()
    return 1.0 - no_card_chance(total, of_rank, size)


def _unseen(view: SeatView, memory: bool) -> Mask:
    if memory:
        return view.unseen().mask
    return ALL_CARDS & ~(view.hand.mask | view.table.mask)


def judge_play(view: SeatView, card: int, card_value: float, danger_weight: float, memory: bool) -> float:
    """Points this play is worth now, minus ``danger_weight`` times the next seat's best expected reply.

    What the play and each reply do is the engine's :func:`~ronda.engine.table.play_step`.
    """
    rules = view.rules
    n = rules.players
    rank = card >> 2
    chain = view.chain
    table_ranks = sum(1 << (c >> 2) for c in view.table)
    drop = -1 if view.last_drop is None else view.last_drop >> 2
    chain_rank, chain_count = (-1, 0) if chain is None else (chain.rank, chain.count)
    step = play_step(table_ranks, drop, chain_rank, chain_count, rank, n > 2)
    taken_ranks, caida, raised, table_after = step.taken, step.caida, step.raised, step.table
    drop_after, chain_now, count_after = step.drop, step.chain, step.chain_count
    on_last_turn = last_turn(sum(view.hand_sizes), view.stock == 0)
    points = 0.0
    taken = 0
    chain_after: tuple[int, int, int] | None = None  # rank, cards in the open capture, count
    if raised:
        assert chain is not None
        taken = len(chain.cards) + 1
        points += chain_points(rules, count_after)
        chain_after = (rank, taken, count_after)
    elif taken_ranks:
        taken = taken_ranks.bit_count() + 1
        if caida:
            points += chain_points(rules, 2)
            if chain_now >= 0:
                chain_after = (rank, taken, count_after)
    captured = raised or bool(taken_ranks)
    left = table_after.bit_count()
    if missa(captured, table_after, on_last_turn):
        points += rules.missa_points
    points += card_value * taken
    if on_last_turn:
        mine = captured or view.last_capture_side == view.side
        points += card_value * left * (1 if mine else -1)  # R7.1
        if rules.dealer_duty:
            points += dealer_duty_points(rank, captured)
        return points
    following = (view.seat + 1) % n
    if view.hand_sizes[following] == 0 or not danger_weight:
        return points  # the deal ends: no caida across deals (R5.2)
    danger = 0.0
    their_last_turn = last_turn(sum(view.hand_sizes) - 1, view.stock == 0)
    if chain_after is not None and chain_after[2] < 4:
        r, cards, count = chain_after
        value = chain_points(rules, count + 1) + card_value * (cards + 1)
        danger = max(danger, holds_rank_chance(view, following, r, memory) * value)
    for t in range(10):
        if not table_after >> t & 1:
            continue
        reply = play_step(table_after, drop_after, chain_now, count_after, t, n > 2)
        value = card_value * (reply.taken.bit_count() + 1)
        if missa(True, reply.table, their_last_turn):
            value += rules.missa_points
        if reply.caida:
            value += chain_points(rules, 2)  # caida on the card just dropped
        danger = max(danger, holds_rank_chance(view, following, t, memory) * value)
    return points - danger_weight * danger


__all__ = ["EasyBot", "MediumBot", "RuleBot", "holds_rank_chance", "judge_play"]
