"""What each card in hand would do now, read from an observation: extra inputs for a policy network.

The observation (:mod:`ronda.adapters.encoding`) holds every fact a seat may
see, but a small network learns slowly what a card of each rank would do on
this table: capture, caida, missa, and what it leaves the next seat. Those are
the facts ``medium`` weighs (:func:`ronda.bots.rules_based.judge_play`), so
they are given to the policy outright, 30 numbers computed from the
observation alone, so that they see nothing the seat may not see (R11):

- ``value``, per rank held: what playing it is worth now (cards taken at
  0.45 each, a caida, a raise, a missa, and on the round's last turn the table
  left to the last capture, R7.1), the search bots' price
  (:func:`ronda.bots.tactics.priced_step`);
- ``danger``, per rank held: the next seat's best expected reply on the table
  that play leaves (the chance it holds the rank, times what the reply is
  worth, the caida on the card just dropped included);
- ``next_holds``, per rank: the chance the next seat holds a card of it (a
  shown hand is known; otherwise the unseen cards are taken as equally likely
  anywhere unseen).

These are inputs, not a search: the network still picks the legal action of
highest score. They are policy-only: the research adapters' published
observation does not change; a policy file names them in its meta
(``"features": "play-v1"``), and :class:`ronda.adapters.policy.Policy`
appends them to the observation it is given.

``play-v2`` (:func:`play_features_v2`, 41 numbers) adds one search, where it
is exact and small: on the last deal of a 2-player round the stock is empty,
so the cards the seat cannot place are the other hand, and the rest of the
round (at most 3 + 3 cards, 4 + 4 with four-card hands) is searched to its
end (:func:`endgame_values`): each card's worth in points, R7.1 and R7.2
included, both sides playing their best, and a flag where it holds. There the
prior ranks the cards by that worth instead of ``medium``'s one-move guess:
it is where ``hard``'s exact end-of-round search gained most over ``medium``
(docs/research.md, "A baseline to beat").

>>> from ronda.engine.game import Game
>>> from ronda.engine.rules import Rules
>>> from ronda.adapters.encoding import observe
>>> game = Game(Rules(players=2), seed=4)
>>> play_features(observe(game.view(game.turn))).shape
(30,)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..bots.tactics import CARD_VALUE, no_card_chance, priced_step
from ..engine.game import card_count_points
from ..engine.table import last_turn
from .encoding import OFFSETS

PLAY_FEATURES = "play-v1"
"""The name a policy's meta gives these features."""

PLAY_FEATURES_SIZE = 30
"""value, danger (per rank held) and next_holds (per rank), 10 each."""

PLAY_FEATURES_V2 = "play-v2"
"""The play features and the last deal's exact worth of each card (:func:`play_features_v2`)."""

PLAY_FEATURES_V2_SIZE = PLAY_FEATURES_SIZE + 11
"""The 30 play features, the endgame worth per rank held (10), and whether it holds (1)."""

SCALE = 5.0
"""Values are divided by it: a caida with a capture is about 2, a raise 5 or 10."""

_CHAIN_POINTS = {False: (1, 5, 10), True: (1, 6, 15)}


def _ranks(observation: np.ndarray, piece: str) -> list[int]:
    """A per-rank count piece (``hand_ranks``, ``unseen_ranks``), as card counts."""
    start = OFFSETS[piece]
    return [round(4 * float(x)) for x in observation[start : start + 10]]


def _rank_mask(observation: np.ndarray, piece: str) -> int:
    """A 40-card piece as a mask of ranks (bit ``r``: some card of rank ``r``)."""
    start = OFFSETS[piece]
    cards = np.flatnonzero(observation[start : start + 40] > 0.5)
    mask = 0
    for card in cards:
        mask |= 1 << (int(card) >> 2)
    return mask


def _one_hot(observation: np.ndarray, piece: str, size: int) -> int:
    """The index set in a one-hot piece, -1 if none."""
    start = OFFSETS[piece]
    hits = np.flatnonzero(observation[start : start + size] > 0.5)
    return int(hits[0]) if len(hits) else -1


def next_holds(observation: np.ndarray) -> list[float]:
    """Per rank, the chance the next seat holds a card of it (as ``medium`` counts, R11)."""
    size = round(4 * float(observation[OFFSETS["hand_sizes"] + 1]))
    if size == 0:
        return [0.0] * 10
    shown_at = OFFSETS["shown"] + 40
    shown = observation[shown_at : shown_at + 40] > 0.5
    if shown.any():
        played_at = OFFSETS["deal_plays"] + 40
        held = shown & ~(observation[played_at : played_at + 40] > 0.5)
        return [1.0 if held[4 * r : 4 * r + 4].any() else 0.0 for r in range(10)]
    unseen = _ranks(observation, "unseen_ranks")
    total = sum(unseen)
    return [1.0 - no_card_chance(total, of_rank, size) for of_rank in unseen]


def play_features(observation: np.ndarray) -> np.ndarray:
    """The 30 play features of one observation (see the module's docstring), scaled by :data:`SCALE`."""
    features = np.zeros(PLAY_FEATURES_SIZE, dtype=np.float32)
    chances = next_holds(observation)
    features[20:30] = chances
    hand = _ranks(observation, "hand_ranks")
    if not any(hand):
        return features
    table = _rank_mask(observation, "table")
    drop = _rank_mask(observation, "last_drop")
    drop_rank = drop.bit_length() - 1 if drop else -1
    chain_rank = _one_hot(observation, "chain_rank", 10)
    chain_count = _one_hot(observation, "chain_count", 3) + 2 if chain_rank >= 0 else 0
    multi = _one_hot(observation, "players", 3) > 0
    chain_points = _CHAIN_POINTS[bool(observation[OFFSETS["variants"] + 2] > 0.5)]
    sizes = [round(4 * float(x)) for x in observation[OFFSETS["hand_sizes"] : OFFSETS["hand_sizes"] + 4]]
    last_deal = float(observation[OFFSETS["stock"]]) < 0.5 / 40
    on_last_turn = last_turn(sum(sizes), last_deal)
    their_last_turn = last_turn(sum(sizes) - 1, last_deal)
    side = OFFSETS["last_capture_side"]
    mine_last = bool(observation[side] > 0.5)
    for rank in range(10):
        if not hand[rank]:
            continue
        value, after, drop_after, chain_after, count_after = priced_step(
            table, drop_rank, chain_rank, chain_count, rank, not on_last_turn, chain_points, multi
        )
        if on_last_turn:  # R7.1: what is left goes to the side that captured last
            captured = value > 0
            left = after.bit_count()
            value += CARD_VALUE * left * (1 if captured or mine_last else -1)
            features[rank] = value / SCALE
            continue
        danger = 0.0
        if sizes[1] > 0:
            for reply in range(10):
                if not chances[reply] or not (after >> reply & 1 or reply == chain_after):
                    continue
                worth = priced_step(
                    after, drop_after, chain_after, count_after, reply, not their_last_turn, chain_points, multi
                )[0]
                danger = max(danger, chances[reply] * worth)
        features[rank] = value / SCALE
        features[10 + rank] = danger / SCALE
    return features


def endgame_values(observation: np.ndarray) -> list[float] | None:
    """Per rank held, the exact worth of playing it now to the round's end, on a 2-player round's last deal.

    There nothing is hidden from the seat: the stock is empty, so the cards it
    cannot place are exactly the other hand (R11: read from the observation,
    what the seat may see). The rest of the round is then searched exactly,
    both sides playing their best (minimax over ranks, at most 4! x 4!
    orders): the caidas and missas of every play (no missa on the last turn,
    R6.2), the table left to the last capture (R7.1) and the card count from
    the piles (R7.2), as this seat's points less the other side's. Where that
    does not hold (more players, cards of the deal still unplaced, a variant
    that moves points otherwise: ``dealer_duty``, ``transfer_scoring``),
    ``None``. Announcements and the target are left out: points only.
    """
    variants = OFFSETS["variants"]
    if (
        _one_hot(observation, "players", 3) != 0
        or float(observation[OFFSETS["stock"]]) >= 0.5 / 40
        or observation[variants + 4] > 0.5  # dealer_duty
        or observation[variants + 6] > 0.5  # transfer_scoring
    ):
        return None
    hand = _ranks(observation, "hand_ranks")
    theirs = _ranks(observation, "unseen_ranks")
    sizes = [round(4 * float(x)) for x in observation[OFFSETS["hand_sizes"] : OFFSETS["hand_sizes"] + 2]]
    if not any(hand) or sum(hand) != sizes[0] or sum(theirs) != sizes[1]:
        return None
    piles = OFFSETS["pile_sizes"]
    mine_before = round(40 * float(observation[piles]))
    side = OFFSETS["last_capture_side"]
    last = 1 if observation[side] > 0.5 else -1 if observation[side + 1] > 0.5 else 0
    drop = _rank_mask(observation, "last_drop")
    Hands = tuple[tuple[int, ...], tuple[int, ...], int]  # my ranks, their ranks, cards I captured in the search

    def play(hands: Hands, table: int, drop: int, me: bool, last: int, rank: int) -> float:
        """My points less theirs if the side to move (``me``: mine) plays ``rank`` now and both play on their best."""
        mine, theirs, taken = hands
        on_last_turn = sum(mine) + sum(theirs) == 1  # R6.2: no missa on it
        points, after, drop_after, _, _ = priced_step(table, drop, -1, 0, rank, not on_last_turn, (1, 5, 10), False, 0)
        captured = 0 if drop_after == rank else table.bit_count() - after.bit_count() + 1
        if me:
            played = (tuple(n - (i == rank) for i, n in enumerate(mine)), theirs, taken + captured)
            return points + best(played, after, drop_after, False, 1 if captured else last)
        played = (mine, tuple(n - (i == rank) for i, n in enumerate(theirs)), taken)
        return -points + best(played, after, drop_after, True, -1 if captured else last)

    @cache
    def best(hands: Hands, table: int, drop: int, me: bool, last: int) -> float:
        """The position's worth to me, the side to move (``me``: mine) playing its best card."""
        mine, theirs, taken = hands
        held = mine if me else theirs
        if not any(mine) and not any(theirs):  # R7.1 then R7.2, from the piles
            left = table.bit_count()  # R7.1: to the last side to capture, if any
            my_pile = mine_before + taken + (left if last > 0 else 0)
            their_pile = 40 - my_pile - (left if last == 0 else 0)  # every other card of the pack is in theirs
            counted = card_count_points([my_pile, their_pile], 2)
            return float(counted[0] - counted[1])
        if not any(held):
            return best(hands, table, drop, not me, last)
        values = [play(hands, table, drop, me, last, rank) for rank in range(10) if held[rank]]
        return max(values) if me else min(values)

    start: Hands = (tuple(hand), tuple(theirs), 0)
    table = _rank_mask(observation, "table")
    drop_rank = drop.bit_length() - 1 if drop else -1
    return [play(start, table, drop_rank, True, last, rank) if hand[rank] else 0.0 for rank in range(10)]


def play_features_v2(observation: np.ndarray) -> np.ndarray:
    """The 30 play features, then :func:`endgame_values` per rank held / :data:`SCALE` and 1 where they hold (41)."""
    features = np.zeros(PLAY_FEATURES_V2_SIZE, dtype=np.float32)
    features[:PLAY_FEATURES_SIZE] = play_features(observation)
    worth = endgame_values(observation)
    if worth is not None:
        features[PLAY_FEATURES_SIZE : PLAY_FEATURES_SIZE + 10] = np.array(worth) / SCALE
        features[PLAY_FEATURES_V2_SIZE - 1] = 1.0
    return features


def judgement_logits(observation: np.ndarray, features: np.ndarray) -> np.ndarray:
    """Per action id, ``value - danger`` of the card's rank less that of the best rank held (so at most 0).

    With the ``play-v2`` features on the last deal of a 2-player round, the
    card's exact worth (:func:`endgame_values`) instead of ``value - danger``.
    ``medium``'s judgement of each play, / :data:`SCALE`, measured from the best
    play: it ranks the plays among themselves and leaves the best one's logit
    as the layers give it, so it never tips a challenge or a declaration
    against playing. 0 for ranks not held, declarations and challenges.
    """
    start = OFFSETS["hand_ranks"]
    held = observation[start : start + 10] > 0
    judged = features[0:10] - features[10:20]
    if len(features) == PLAY_FEATURES_V2_SIZE and features[-1] > 0.5:  # the last deal, searched to its end
        judged = features[PLAY_FEATURES_SIZE : PLAY_FEATURES_SIZE + 10]
    best = judged[held].max() if held.any() else 0.0
    cards = np.repeat(np.where(held, judged - best, 0.0), 4)
    return np.concatenate([cards, np.zeros(8)]).astype(np.float32)


__all__ = [
    "PLAY_FEATURES",
    "PLAY_FEATURES_SIZE",
    "PLAY_FEATURES_V2",
    "PLAY_FEATURES_V2_SIZE",
    "endgame_values",
    "judgement_logits",
    "next_holds",
    "play_features",
    "play_features_v2",
]
