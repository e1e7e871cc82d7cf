"""A learned value of the rest of a round, for a search that stops its rollouts at a deal's end.

Issue 28 item 4 asks for better leaf values for the expert. A rollout played to
the round's end is one random draw of the deals to come, played by seats that
read the guessed hands (PIMC's *strategy fusion*). This model is instead the
points each side is expected to score from the start of a deal (the hands dealt
and declared) to the round's end, when both seats play honestly (each reading
only its own hand and the cards played: :func:`~ronda.bots.rollout.blind_policy`),
fitted by least squares on many rounds of such self-play. A search stops its
rollouts at the end of the deal it is in (``deals`` 1) and asks this model for
the rest: no random deals to come, no reading through the cards after that.

It reads both hands, so it is only ever given a *guessed* game (a
determinization drawn from the seat's view, :mod:`ronda.bots.determinize`),
never the real one: a bot sees no card its seat may not see (R11).

Two players only (the features name one other hand); the search falls back to
:func:`~ronda.bots.winprob.expected_round_end` otherwise. Inference is pure
Python (the engine and the bots have no runtime dependencies), a small
multilayer perceptron whose first layer is summed over the few features that
are not zero.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..engine.cards import ALL_CARDS
from ..engine.game import Game

VALUES_FILE = "round_value.json"
"""The package data file of the shipped model's weights (``benchmarks/round_value.py`` trains it)."""

FEATURES = 57
"""Rank counts of the side's hand, the other hand and the stock (30), the table's ranks (10), the rank a caida
takes at once (10), the side plays first, the side deals, both piles' sizes (2, in twenties), which side captured
last (2), the stock's size (in forties)."""


def features(game: Game, side: int) -> list[tuple[int, float]]:
    """The model's inputs for ``side`` at ``game`` (two players), as (index, value) for the ones not zero."""
    state = game.search_state()
    hands = state.hands
    mine, theirs = hands[side], hands[1 - side]
    stock = ALL_CARDS & ~(mine | theirs | state.out)
    out: list[tuple[int, float]] = []
    for block, mask in enumerate((mine, theirs, stock)):
        for r in range(10):
            count = (mask >> (4 * r) & 0xF).bit_count()
            if count:
                out.append((10 * block + r, float(count)))
    table = state.table
    for r in range(10):
        if table >> r & 1:
            out.append((30 + r, 1.0))
    if state.drop >= 0:
        out.append((40 + state.drop, 1.0))
    if state.seat == side:
        out.append((50, 1.0))
    if game.dealer == side:
        out.append((51, 1.0))
    piles = game.pile_sizes
    if piles[side]:
        out.append((52, piles[side] / 20))
    if piles[1 - side]:
        out.append((53, piles[1 - side] / 20))
    last = game.view_masks(side).last_capture_side
    if last >= 0:
        out.append((54 if last == side else 55, 1.0))
    if stock:
        out.append((56, stock.bit_count() / 40))
    return out


class RoundValue:
    """The points each side is expected to add to its score before the round ends (two players)."""

    def __init__(self, layers: list[dict[str, Any]]) -> None:
        first = layers[0]
        # First layer stored input-major: a feature's column is added once per feature that is not zero.
        self._columns = [list(map(float, col)) for col in zip(*first["w"], strict=True)]
        self._bias = list(map(float, first["b"]))
        self._known: dict[tuple[tuple[int, float], ...], tuple[float, float]] = {}
        self._cache: dict[tuple[tuple[int, float], ...], list[float]] = {}
        self._rest = [
            ([list(map(float, row)) for row in layer["w"]], list(map(float, layer["b"]))) for layer in layers[1:]
        ]

    def future(self, game: Game, side: int) -> tuple[float, float]:
        """(the side's, the other side's) points still to come this round, from the start of a deal."""
        inputs = features(game, side)
        known = self._known.get(key := tuple(inputs))
        if known is not None:
            return known  # the same position reached again in this search (about half the leaves)
        # The hands and the stock (the first 30 inputs) are the same at every leaf of one guess (every card
        # of the deal is played before the next is dealt): their share of the first layer is kept.
        split = 0
        while split < len(inputs) and inputs[split][0] < 30:
            split += 1
        deal = key[:split]
        hidden = self._cache.get(deal)
        columns = self._columns
        if hidden is None:
            hidden = self._bias[:]
            for index, value in inputs[:split]:
                column = columns[index]
                hidden = [h + value * c for h, c in zip(hidden, column, strict=True)]
            if len(self._cache) >= 4096:
                self._cache.clear()
            self._cache[deal] = hidden
        for index, value in inputs[split:]:
            column = columns[index]
            hidden = [h + value * c for h, c in zip(hidden, column, strict=True)]
        for rows, bias in self._rest:
            hidden = [h if h > 0.0 else 0.0 for h in hidden]
            hidden = [b + sum(map(float.__mul__, row, hidden)) for row, b in zip(rows, bias, strict=True)]
        # Points still to come are never negative; a fit may stray a little below 0 where few come.
        points = max(hidden[0], 0.0), max(hidden[1], 0.0)
        if len(self._known) >= 16384:
            self._known.clear()
        self._known[key] = points
        return points

    def round_end(self, game: Game, side: int) -> list[float]:
        """The scores the round is expected to end with, per side, as ``side`` sees its future."""
        mine, theirs = self.future(game, side)
        scores: list[float] = list(game.scores)
        scores[side] += mine
        scores[1 - side] += theirs
        return scores


@cache
def shipped() -> RoundValue:
    """The model shipped with the package."""
    text = resources.files(__package__).joinpath(VALUES_FILE).read_text(encoding="utf-8")
    return RoundValue(json.loads(text)["layers"])
