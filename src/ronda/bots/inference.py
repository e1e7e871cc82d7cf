"""Reading the other seats' plays: which hidden hands make the cards they chose likely.

A player who could take a caida and dropped a card instead probably did not
hold the rank; one who dropped a card the next seat could hardly take, rather
than one beside a run, probably held the dangerous one. :class:`PlayEvidence`
scores a guess of the hidden hands by how likely the other seats' plays *in
this deal* would have been with those hands (earlier deals' hands are fully
played, nothing is left to infer), under :class:`PlayModel`: a seat picks a
rank with probability proportional to ``exp(sharpness * worth - reply *
answer)``, worth being what the card takes at once (cards, caida, missa, a
raise) and answer the next seat's expected best reply to it, as the playing
seat could count it from the cards it had not seen (:func:`answer`), mixed
with a uniform ``noise`` so no guess is ever ruled out — people play for
reasons a two-ply model does not see.

The defaults are the hand-set model the bots have always read plays by
(immediate worth only). :data:`FITTED`, fitted by maximum likelihood to
``hard``'s and ``expert``'s own card choices (``benchmarks/play_model_fit.py``,
docs/bots.md), predicts held-out choices far better, but did not make the
expert stronger where it was measured, and reads a refused caida as saying less
than the bots' own caida rate does: it is an option
(``expert:sharpness=0.25,noise=0.2,reply=8``), not the default.

The determinizer uses it by *sampling-importance-resampling*: it draws several
guesses consistent with the view and keeps one with probability proportional
to this score, so every kept guess is still consistent with the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import exp
from typing import NamedTuple

from ..engine.cards import Card, Mask
from ..engine.table import RankMask, last_turn
from ..engine.table import play_step as engine_step
from ..engine.view import SeatView
from .tactics import no_card_chance, priced_step


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


def worths(
    moment: Moment, ranks: RankMask, missa: bool, chain_points: tuple[int, int, int], multi: bool
) -> dict[int, float]:
    """What each rank of ``ranks`` takes at once if played at ``moment`` (:func:`~ronda.bots.tactics.priced_step`):
    the worth :class:`PlayModel` reads a choice by. ``missa``: whether emptying the table would score one (R6.2)."""
    found = {}
    for r in range(10):
        if ranks >> r & 1:
            found[r] = priced_step(
                moment.table, moment.drop, moment.chain, moment.chain_count, r, missa, chain_points, multi
            )[0]
    return found


_chance_of_none = lru_cache(maxsize=4096)(no_card_chance)


def answer(
    moment: Moment,
    rank: int,
    missa: bool,
    next_missa: bool,
    unseen: Sequence[int],
    next_size: int,
    chain_points: tuple[int, int, int],
    multi: bool,
) -> float:
    """The next seat's expected best immediate answer if ``rank`` is played at ``moment``, as the playing seat can
    count it: ``unseen`` the cards of each rank it cannot place (never what it could not see, R11), ``next_size``
    the next hand's size, each rank's chance to be there :func:`~ronda.bots.tactics.no_card_chance`
    (ranks taken as independent). ``next_missa``: whether the answer may score a missa."""
    _, table, drop, chain, count = priced_step(
        moment.table, moment.drop, moment.chain, moment.chain_count, rank, missa, chain_points, multi
    )
    total = sum(unseen)
    replies = sorted(
        (
            (priced_step(table, drop, chain, count, r, next_missa, chain_points, multi)[0], r)
            for r in range(10)
            if unseen[r]
        ),
        reverse=True,
    )
    expected, none_yet = 0.0, 1.0
    for worth, r in replies:
        if worth <= 0.0:
            break
        holds = 1.0 - _chance_of_none(total, unseen[r], next_size)
        expected += none_yet * holds * worth
        none_yet *= 1.0 - holds
    return expected


@dataclass(frozen=True, slots=True)
class PlayModel:
    """How the other seats are assumed to choose a card: softmax of what it takes and gives away, plus noise.

    ``sharpness``: how surely a seat takes the most valuable card now (0: what a card takes does not matter).
    ``reply``: how surely it avoids leaving the next seat a good answer (:func:`answer`; 0: it does not look).
    ``noise``: share of plays made for reasons the model ignores.

    The defaults read the immediate worth alone (``reply`` 0), as the bots always have; :data:`FITTED` is
    the maximum-likelihood fit to the bots' choices (the module).
    """

    sharpness: float = 2.0
    noise: float = 0.25
    reply: float = 0.0

    def chance(self, played: int, worths: dict[int, float], answers: dict[int, float] | None = None) -> float:
        """The chance that a seat holding the ranks of ``worths`` (rank: what it takes now) plays ``played``;
        ``answers`` (rank: the next seat's expected best answer to it) are read when :attr:`reply` is not 0."""
        if answers is None or not self.reply:
            # The hand-set model's own formula, kept apart: ``sharpness * (w - top)`` and the general branch's
            # ``sharpness * w - sharpness * top`` differ in the last bits, which would change a seeded expert's
            # resampled guesses, and so every figure measured with it.
            top = max(worths.values())
            odds = {r: exp(self.sharpness * (w - top)) for r, w in worths.items()}
        else:
            scores = {r: self.sharpness * w - self.reply * answers[r] for r, w in worths.items()}
            best = max(scores.values())
            odds = {r: exp(score - best) for r, score in scores.items()}
        chosen = odds.get(played, 0.0) / sum(odds.values())
        return (1.0 - self.noise) * chosen + self.noise / len(worths)


FITTED = PlayModel(sharpness=0.25, noise=0.2, reply=8.0)
"""The model fitted by maximum likelihood to ``hard``'s and ``expert``'s card choices (docs/bots.md): what a card
gives away weighs far more than what it takes (a capture that clears the table leaves little to answer, so the
answer counts part of the take already). ``expert:sharpness=0.25,noise=0.2,reply=8`` reads plays by it."""


_COUNT = [bin(four).count("1") for four in range(16)]
"""How many cards a rank's four bits of a mask hold."""


class _Step(NamedTuple):
    """One play of an unknown seat in this deal, with what that seat could count then."""

    moment: Moment
    later: Mask  # the cards it played from then on in this deal (the play itself included)
    missa: bool
    next_missa: bool
    seen: tuple[int, ...]  # per rank, the cards face up before the play (opening table and plays)
    next_size: int  # the next seat's hand size before the play


class PlayEvidence:
    """Scores guesses of the hidden hands by the other seats' plays in this deal."""

    def __init__(self, view: SeatView, unknown: list[int], model: PlayModel = PlayModel()) -> None:
        self.model = model
        rules = view.rules
        self._chain_points = rules.chain_points
        self._multi = rules.players > 2
        everything = moments(view)
        this_deal = everything[view.deal_start :]
        total = sum(view.hand_sizes) + len(this_deal)
        last_deal = view.stock == 0
        seen = [0] * 10
        for card in view.opening_table:
            seen[card >> 2] += 1
        for moment in everything[: view.deal_start]:
            seen[moment.card >> 2] += 1
        seen_before = []
        for moment in this_deal:
            seen_before.append(tuple(seen))
            seen[moment.card >> 2] += 1
        sizes = list(view.hand_sizes)
        steps = []
        later = dict.fromkeys(unknown, 0)
        # Walk back so each step knows the cards its seat held then: its hand now and what it played since.
        for index in range(len(this_deal) - 1, -1, -1):
            moment = this_deal[index]
            sizes[moment.seat] += 1
            if moment.seat in later:
                left = total - index  # cards in all hands before this play
                later[moment.seat] |= 1 << moment.card
                following = (moment.seat + 1) % rules.players
                steps.append(
                    _Step(
                        moment,
                        later[moment.seat],
                        not last_turn(left, last_deal),
                        not last_turn(left - 1, last_deal),
                        seen_before[index],
                        sizes[following],
                    )
                )
        self._steps = steps
        self._memo: dict[tuple[int, int], float] = {}

    @property
    def informative(self) -> bool:
        """Whether any other seat has played in this deal (else every guess scores the same)."""
        return bool(self._steps)

    def weight(self, hands: dict[int, Mask]) -> float:
        """How likely the observed plays are if the unknown seats hold ``hands`` (up to a constant)."""
        weight = 1.0
        counted = self.model.reply != 0.0
        for index, step in enumerate(self._steps):
            held = hands[step.moment.seat] | step.later
            key = 0
            for r in range(10):
                four = held >> (4 * r) & 0xF
                if four:
                    # with the reply, what the seat could count depends on how many of each rank it held
                    key |= (_COUNT[four] if counted else 1) << (3 * r)
            p = self._memo.get((index, key))
            if p is None:
                p = self._memo[(index, key)] = play_chance(
                    self.model,
                    step.moment,
                    held,
                    step.missa,
                    step.next_missa,
                    step.seen,
                    step.next_size,
                    self._chain_points,
                    self._multi,
                )
            weight *= p
        return weight


def play_chance(
    model: PlayModel,
    moment: Moment,
    held: Mask,
    missa: bool,
    next_missa: bool,
    seen: Sequence[int],
    next_size: int,
    chain_points: tuple[int, int, int],
    multi: bool,
) -> float:
    """The chance, under ``model``, that a seat holding ``held`` plays ``moment.card``'s rank at ``moment``:
    the likelihood the expert weighs its guesses by, and ``benchmarks/play_model_fit.py`` fits.

    ``seen``: per rank, the cards face up before the play (what the seat counts the unseen cards from, with
    its own hand); ``next_size``: the next seat's hand size; ``missa`` and ``next_missa``: whether emptying
    the table may score on this play and on the answer (R6.2).
    """
    ranks = 0
    unseen = [0] * 10
    for r in range(10):
        four = held >> (4 * r) & 0xF
        if four:
            ranks |= 1 << r
        unseen[r] = 4 - seen[r] - _COUNT[four]
    values = worths(moment, ranks, missa, chain_points, multi)
    if not model.reply or len(values) == 1:
        return model.chance(moment.card >> 2, values)
    answers = {r: answer(moment, r, missa, next_missa, unseen, next_size, chain_points, multi) for r in values}
    return model.chance(moment.card >> 2, values, answers)


__all__ = ["FITTED", "Moment", "PlayEvidence", "PlayModel", "answer", "moments", "play_chance", "worths"]
