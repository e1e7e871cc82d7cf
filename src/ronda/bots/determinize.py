"""The determinizer: guesses where the cards a seat cannot see are, consistently with all it knows.

A search bot cannot look at the other hands (R11), so it samples them: each
sample gives every unknown hand its exact number of cards and shuffles the
rest into the stock, using only the seat's view. Hard facts are always kept —
cards seen (own hand, table, every card played, hands shown by a challenge)
are never placed, every hand gets its size, and the cards a seat has played
this deal are part of its hand as dealt. Declarations are *soft* evidence:
people tell the truth, usually, but may bluff (R8.2), so a hand that makes a
seat's declaration true is weighted up, not required.

The weight of a hand for a seat that declared ``D`` while holding kind ``K``
(``none`` when it holds no combination) is the :class:`DeclarationModel`
likelihood ``P(D | K)``; with ``auto_declare`` declarations are the truth and
the weight is 1 or 0. The kind is that of the hand as dealt (R8.1): the cards
still held plus those already played this deal, which is how the R8.5
candidates of a declarer's played cards enter the sample: a ronda declarer who
has played a 3 and a 7 is weighted towards holding the other 3 or 7. An
exposed declaration was false, which the played cards already prove (R8.5) or a
shown hand shows (R8.8); a decided settlement is a function of public plays, so
it carries no evidence beyond them.

Hands are sampled seat by seat from the cards left, each exactly from its
posterior given its own declaration (rejection from uniform hands, falling back
to enumerating rank patterns when rejection is slow), the most constrained
seats first. The joint posterior of several declarers is approximated by that
sequence; every placement consistent with the view keeps a positive chance.

>>> from ronda import Game, Rules
>>> import random
>>> game = Game(Rules(players=2), seed=4)
>>> sampler = Determinizer(game.view(0))
>>> guess = sampler.sample_game(random.Random(1))
>>> guess.hand(0) == game.hand(0), len(guess.hand(1))
(True, 3)
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate, combinations_with_replacement
from math import comb

from ..engine.cards import Card, Mask, cards_of
from ..engine.combinations import (
    DECLARATIONS,
    DOUBLE_RONDA,
    NONE,
    RONDA,
    TRINGA,
    Kind,
    combination_of,
    hand_combination,
)
from ..engine.game import Game
from ..engine.view import SeatView
from .inference import PlayEvidence, PlayModel

KINDS: tuple[Kind, ...] = DECLARATIONS
"""What a hand as dealt can hold; ``none`` stands for no combination."""


@dataclass(frozen=True, slots=True)
class DeclarationModel:
    """How people declare: the likelihood of declaring ``D`` while holding ``K``.

    ``conceal``: holding a combination, declaring none (hiding a small ronda).
    ``bluff``: holding nothing, declaring a combination (the seeds' tactic).
    ``misdeclare``: holding one kind, declaring another.
    A declaration that names what the hand holds has likelihood 1.
    """

    conceal: float = 0.05
    bluff: float = 0.05
    misdeclare: float = 0.02

    def likelihood(self, declared: Kind | None, held: Kind, auto_declare: bool) -> float:
        if declared is None:  # not declared yet: no evidence
            return 1.0
        if declared == held:
            return 1.0
        if auto_declare:
            return 0.0
        if declared == NONE:
            return self.conceal
        if held == NONE:
            return self.bluff
        return self.misdeclare


TRUSTING = DeclarationModel()


@dataclass(frozen=True, slots=True)
class Placement:
    """One guess: the hand of every unknown seat and the stock in dealing order."""

    hands: dict[int, Mask]
    stock: list[Card]


@cache
def _rank_patterns(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every multiset of ``size`` ranks, as ``((rank, how many), ...)``."""
    patterns = []
    for ranks in combinations_with_replacement(range(10), size):
        counts: dict[int, int] = {}
        for r in ranks:
            counts[r] = counts.get(r, 0) + 1
        if all(m <= 4 for m in counts.values()):
            patterns.append(tuple(sorted(counts.items())))
    return tuple(patterns)


@lru_cache(maxsize=4096)
def _patterns_by_kind(
    played: tuple[int, ...], size: int, dealt_size: int, ace_high: bool
) -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
    """The rank patterns of the ``size`` unseen cards of a hand, each with the kind index of the hand as dealt."""
    four = dealt_size == 4
    out = []
    for pattern in _rank_patterns(size):
        ranks = list(played) + [r for r, m in pattern for _ in range(m)]
        combo = combination_of(ranks, four, ace_high)
        out.append((pattern, KINDS.index(combo[0] if combo else NONE)))
    return tuple(out)


class DeadEnd(Exception):
    """The cards left cannot give a seat a hand its hard constraints allow."""


class Determinizer:
    """Samples placements of a view's hidden cards, and the games they make.

    Knobs: ``model`` (the :class:`DeclarationModel`, how much declarations are
    believed), ``models`` (a model for some seats instead of ``model``: the
    search bots believe less a declaration that was in its declarer's interest
    as a bluff, :func:`~ronda.bots.declarations.declaration_models`),
    ``rejection_tries`` (uniform draws tried per hand before enumerating
    rank patterns; speed only, the distribution is the same),
    ``play_model`` (read the other seats' plays too, see
    :mod:`ronda.bots.inference`; ``None``: not) and ``candidates`` (guesses
    drawn per kept guess when reading plays).
    """

    def __init__(
        self,
        view: SeatView,
        model: DeclarationModel = TRUSTING,
        rejection_tries: int = 24,
        play_model: PlayModel | None = None,
        candidates: int = 8,
        models: Mapping[int, DeclarationModel] | None = None,
    ) -> None:
        self.view = view
        self.model = model
        self.models = dict(models or {})
        self.rejection_tries = rejection_tries
        self.builder = Game.positions(view)
        rules = view.rules
        self._ace_high = rules.ace_high
        self._dealt_size = rules.deal_sizes()[view.deal]
        self._played = [view.played_this_deal(seat) for seat in range(rules.players)]
        # Per unknown seat: hand size, played ranks, likelihood of each held kind.
        seats = []
        for seat in self.builder.unknown_seats():
            declared = view.declarations[seat]
            believed = self.models.get(seat, model)
            weights = tuple(believed.likelihood(declared, kind, rules.auto_declare) for kind in KINDS)
            seats.append((seat, view.hand_sizes[seat], weights))
        # Most constrained first: a tringa or double ronda is rarest, then a ronda, then the rest.
        order = {TRINGA: 0, DOUBLE_RONDA: 0, RONDA: 1}
        seats.sort(key=lambda s: (order.get(view.declarations[s[0]] or NONE, 2), s[0]))
        self._seats = seats
        self.evidence = None if play_model is None else PlayEvidence(view, [s[0] for s in seats], play_model)
        self.candidates = candidates

    # ------------------------------------------------------------ sampling

    def sample(self, rng: random.Random) -> Placement:
        """One placement consistent with the view, drawn as described in the module docstring.

        With a ``play_model``, ``candidates`` placements are drawn and one is kept
        with probability proportional to how well it explains the other seats'
        plays this deal (:mod:`ronda.bots.inference`).
        """
        evidence = self.evidence
        if evidence is None or not evidence.informative:
            return self._sample(rng)
        drawn = [self._sample(rng) for _ in range(self.candidates)]
        weights = list(accumulate(evidence.weight(p.hands) for p in drawn))
        return drawn[min(bisect(weights, rng.random() * weights[-1]), len(drawn) - 1)]

    def _sample(self, rng: random.Random) -> Placement:
        for _ in range(200):
            try:
                return self._sample_once(rng, strict=True)
            except DeadEnd:
                continue
        # Hard constraints that sequential sampling keeps missing: keep sizes and seen cards exact,
        # let declarations be believed only almost surely.
        return self._sample_once(rng, strict=False)

    def sample_game(self, rng: random.Random, *, game_rng: random.Random | None = None) -> Game:
        """The game of one sampled placement; it stops at the round's end unless given ``game_rng``."""
        placement = self.sample(rng)
        return self.builder.build(placement.hands, placement.stock, rng=game_rng, check=False)

    def _sample_once(self, rng: random.Random, strict: bool) -> Placement:
        pool = self.builder.hidden
        hands: dict[int, Mask] = {}
        for seat, size, weights in self._seats:
            if not strict:
                weights = tuple(max(w, 1e-9) for w in weights)
            hand = self._sample_hand(rng, pool, seat, size, weights)
            hands[seat] = hand
            pool &= ~hand
        stock = cards_of(pool)
        rng.shuffle(stock)
        return Placement(hands, stock)

    def _sample_hand(self, rng: random.Random, pool: Mask, seat: int, size: int, weights: tuple[float, ...]) -> Mask:
        if size == 0:
            return 0
        cards = cards_of(pool)
        top = max(weights)
        if top <= 0:
            raise DeadEnd
        played = self._played[seat]
        uniform = min(weights) == top
        for _ in range(1 if uniform else self.rejection_tries):
            hand = 0
            for card in rng.sample(cards, size):
                hand |= 1 << card
            if uniform:
                return hand
            combo = hand_combination(hand | played, self._ace_high)
            weight = weights[KINDS.index(combo[0]) if combo else 0]
            if weight >= top or (weight > 0 and rng.random() * top < weight):
                return hand
        return self._enumerate_hand(rng, pool, seat, size, weights)

    def _enumerate_hand(self, rng: random.Random, pool: Mask, seat: int, size: int, weights: tuple[float, ...]) -> Mask:
        """Exact draw over rank patterns: weight = ways to pick the cards from the pool x likelihood."""
        counts = [(pool >> (4 * r) & 0xF).bit_count() for r in range(10)]
        patterns = self._patterns(seat, size)
        pattern_weights = []
        for pattern, kind in patterns:
            w = weights[kind]
            if w:
                for r, m in pattern:
                    w *= comb(counts[r], m)
                    if not w:
                        break
            pattern_weights.append(w)
        cumulative = list(accumulate(pattern_weights))
        total = cumulative[-1]
        if total <= 0:
            raise DeadEnd
        index = bisect(cumulative, rng.random() * total)
        pattern = patterns[min(index, len(patterns) - 1)][0]
        hand = 0
        for r, m in pattern:
            for card in rng.sample(cards_of(pool & 0xF << (4 * r)), m):
                hand |= 1 << card
        return hand

    def _patterns(self, seat: int, size: int) -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
        played = tuple(sorted(c >> 2 for c in cards_of(self._played[seat])))
        return _patterns_by_kind(played, size, self._dealt_size, self._ace_high)

    # ------------------------------------------------------------ evidence

    def unknown_seats(self) -> list[int]:
        """The seats whose hands a guess places (not this seat's, not shown ones)."""
        return self.builder.unknown_seats()

    def kind_probabilities(self, seat: int) -> dict[Kind, float]:
        """Posterior of what ``seat``'s hand as dealt holds, from its own declaration and the unseen cards.

        Other seats' evidence is left out (the marginal of one seat); a shown hand is certain.
        """
        view = self.view
        shown = view.shown[seat]
        known = view.hand.mask | self._played[seat] if seat == view.seat else None if shown is None else shown.mask
        if known is not None:
            combo = hand_combination(known, self._ace_high)
            return {kind: float(kind == (combo[0] if combo else NONE)) for kind in KINDS}
        counts = [(self.builder.hidden >> (4 * r) & 0xF).bit_count() for r in range(10)]
        totals: dict[Kind, float] = dict.fromkeys(KINDS, 0.0)
        believed = self.models.get(seat, self.model)
        likelihood = {
            kind: believed.likelihood(view.declarations[seat], kind, view.rules.auto_declare) for kind in KINDS
        }
        for pattern, kind_index in self._patterns(seat, view.hand_sizes[seat]):
            ways = 1
            for r, m in pattern:
                ways *= comb(counts[r], m)
            kind = KINDS[kind_index]
            totals[kind] += ways * likelihood[kind]
        total = sum(totals.values())
        return {kind: (value / total if total else 0.0) for kind, value in totals.items()}


__all__ = ["KINDS", "TRUSTING", "DeclarationModel", "Determinizer", "Placement"]
