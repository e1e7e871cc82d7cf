"""Reading the other seats' plays: which hidden hands make the cards they chose likely.

A player who could take a caida and dropped a card instead probably did not
hold the rank; one who captured with a 5 rather than a 7 probably preferred
the bigger take. :class:`PlayEvidence` scores a guess of the hidden hands by
how likely the other seats' plays *in this deal* would have been with those
hands (earlier deals' hands are fully played, nothing is left to infer), under
:class:`PlayModel`: a seat picks a rank with probability proportional to
``exp(sharpness * worth)``, worth being what the card takes at once (cards,
caida, missa, a raise), mixed with a uniform ``noise`` so no guess is ever ruled
out — people play for reasons a one-ply model does not see.

The determinizer uses it by *sampling-importance-resampling*: it draws several
guesses consistent with the view and keeps one with probability proportional
to this score, so every kept guess is still consistent with the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp
from typing import NamedTuple

from ..engine.cards import Card, Mask
from ..engine.table import RankMask, last_turn
from ..engine.table import play_step as engine_step
from ..engine.view import SeatView
from .tactics import priced_step


class Moment(NamedTuple):
    """The public table just before one play of the round: what the player chose against."""

    seat: int
    card: Card
    table: RankMask
    drop: int
    chain: int
    chain_count: int


def moments(view: SeatView) -> list[Moment]:
    """The table before each play of the round, replayed from the opening table by the engine's play step.

    >>> from ronda import Game, Rules, Play, Declare
    >>> game = Game(Rules(players=2, auto_declare=True), seed=1)
    >>> _ = game.apply(Play(13)), game.apply(Play(9))  # seat 0 drops a 4, seat 1 plays a 3
    >>> [(m.seat, bin(m.table), m.drop) for m in moments(game.view(0))]
    [(0, '0b1001000101', -1), (1, '0b1001001101', 3)]
    """
    rules = view.rules
    deal_starts = set()
    start = 0
    for size in rules.deal_sizes():
        start += size * rules.players
        deal_starts.add(start)
    table = sum(1 << (card >> 2) for card in view.opening_table)
    drop = chain = -1
    count = 0
    found = []
    for index, (seat, card) in enumerate(view.plays):
        if index in deal_starts:
            drop = chain = -1  # R5.2, R5.3: no caida or chain across deals
        found.append(Moment(seat, card, table, drop, chain, count if chain >= 0 else 0))
        step = engine_step(table, drop, chain, count, card >> 2, rules.players > 2)
        table, drop, chain, count = step.table, step.drop, step.chain, step.chain_count
    return found


@dataclass(frozen=True, slots=True)
class PlayModel:
    """How the other seats are assumed to choose a card: softmax of its immediate worth, plus noise.

    ``sharpness``: how surely a seat takes the most valuable card (0: at random).
    ``noise``: share of plays made for reasons the model ignores.
    """

    sharpness: float = 2.0
    noise: float = 0.25


class PlayEvidence:
    """Scores guesses of the hidden hands by the other seats' plays in this deal."""

    def __init__(self, view: SeatView, unknown: list[int], model: PlayModel = PlayModel()) -> None:
        self.model = model
        rules = view.rules
        self._chain_points = rules.chain_points
        self._multi = rules.players > 2
        this_deal = moments(view)[view.deal_start :]
        total = sum(view.hand_sizes) + len(this_deal)
        last_deal = view.stock == 0
        steps = []
        later = dict.fromkeys(unknown, 0)
        # Walk back so each step knows the cards its seat held then: its hand now and what it played since.
        for index in range(len(this_deal) - 1, -1, -1):
            moment = this_deal[index]
            if moment.seat in later:
                left = total - index  # cards in all hands before this play
                later[moment.seat] |= 1 << moment.card
                steps.append((moment, later[moment.seat], not last_turn(left, last_deal)))
        self._steps = steps
        self._memo: dict[tuple[int, int], float] = {}

    @property
    def informative(self) -> bool:
        """Whether any other seat has played in this deal (else every guess scores the same)."""
        return bool(self._steps)

    def weight(self, hands: dict[int, Mask]) -> float:
        """How likely the observed plays are if the unknown seats hold ``hands`` (up to a constant)."""
        weight = 1.0
        for index, (moment, later, missa) in enumerate(self._steps):
            held = hands[moment.seat] | later
            ranks = 0
            for r in range(10):
                if held >> (4 * r) & 0xF:
                    ranks |= 1 << r
            key = (index, ranks)
            p = self._memo.get(key)
            if p is None:
                p = self._memo[key] = self._likelihood(moment.card >> 2, ranks, moment, missa)
            weight *= p
        return weight

    def _likelihood(self, played: int, ranks: int, moment: Moment, missa: bool) -> float:
        model = self.model
        worths = {}
        for r in range(10):
            if ranks >> r & 1:
                worths[r] = priced_step(
                    moment.table,
                    moment.drop,
                    moment.chain,
                    moment.chain_count,
                    r,
                    missa,
                    self._chain_points,
                    self._multi,
                )[0]
        top = max(worths.values())
        scores = {r: exp(model.sharpness * (w - top)) for r, w in worths.items()}
        chosen = scores.get(played, 0.0) / sum(scores.values())
        return (1.0 - model.noise) * chosen + model.noise / len(worths)


__all__ = ["Moment", "PlayEvidence", "PlayModel", "moments"]
