"""Information-Set Monte Carlo Tree Search (single-observer ISMCTS) — measured, not a level.

One tree is grown over the public sequence of cards played from the bot's
position, shared by all guesses of the hidden cards. Each iteration draws a
new guess (:class:`~ronda.bots.determinize.Determinizer`), walks down the tree
using only the cards that are playable in that guess, choosing among the
bot's own cards by UCB with *availability* counts (a card is judged against
the times it could have been played, not the times its parent was visited),
adds one new node, plays the round out with the rollout policy
(:mod:`ronda.bots.rollout`) and credits every node on the way with the utility
of the seat that chose it. The bot then plays its most visited card.

The other seats choose by the rollout policy inside the tree (the tree still
branches on the card they play, which everyone sees): with the textbook
version, in which they choose by UCB too, their replies are all but random
for any budget under two seconds, since their cards change with every guess.
The bot's own later cards are decided by the tree once it has seen a position
``widen`` times, without looking at the guess — the strategy fusion PIMC
suffers from.

It was built as the ``expert`` level and lost to ``hard`` (PIMC) at equal and
at four times the budget: PIMC compares every card on the same guesses with
the same rollout random numbers, which this game rewards more than the tree's
finer treatment of information. ``expert`` is therefore a stronger PIMC
(:class:`~ronda.bots.pimc.ExpertBot`); this stays for comparison.

Declarations inside the tree are the truthful ones of the guessed hands; they
are not branches. The bot's own declarations and challenges follow
:mod:`ronda.bots.declarations`, as for ``hard``.
"""

from __future__ import annotations

from math import log, sqrt
from typing import Any

from ..engine.actions import PLAYS, Play
from ..engine.combinations import NONE, hand_combination
from ..engine.game import DECLARE, PLAY
from ..engine.view import SeatView
from .declarations import declare
from .determinize import Determinizer
from .rollout import rollout, utility
from .search import SearchBot


class _Node:
    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the card leading here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class IsmctsBot(SearchBot):
    """SO-ISMCTS over sampled hidden hands, rollouts to the end of the round (not a level).

    Knobs (see :class:`~ronda.bots.search.SearchBot`): ``iterations`` 1500
    (guesses, tree walks and rollouts per move), ``time_limit`` 1.0 s after at
    least ``min_iterations`` 50, ``exploration`` 3.0 (UCB constant, in points
    of utility), ``tree_opponents`` (the other seats choose by UCB in the tree
    too — the textbook version, weaker here — instead of by the rollout
    policy), ``widen`` 6 (visits a later decision of the bot needs before the
    tree decides it rather than the rollout policy), and the common knobs.

    Measured against ``hard`` (48 guesses) over 100 duplicate round pairs of
    two players: 150 iterations -1.0 point a round, 600 iterations -0.4.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = 1500,
        time_limit: float | None = 1.0,
        min_iterations: int = 50,
        exploration: float = 3.0,
        tree_opponents: bool = False,
        widen: int = 6,
        **knobs: Any,
    ) -> None:
        super().__init__(seed, budget=iterations, time_limit=time_limit, min_budget=min_iterations, **knobs)
        self.exploration = exploration
        self.tree_opponents = tree_opponents
        self.widen = widen

    def pick(self, view: SeatView, plays: list[Play], sampler: Determinizer) -> Play:
        root = self.search(view, sampler)
        return max(plays, key=lambda a: (root.children[a.card].visits, -a.card) if a.card in root.children else (-1, 0))

    def search(self, view: SeatView, sampler: Determinizer) -> _Node:
        """Grow the tree from the view's position; returns its root."""
        rng = self.rng
        rand = rng.random
        start = list(view.scores)
        side_of = view.rules.side_of
        ace_high = view.rules.ace_high
        c = self.exploration
        me = view.seat
        root = _Node(-1)
        for _ in self.steps():
            game = sampler.sample_game(rng)
            node = root
            path = []
            while True:
                phase = game.phase
                if phase == DECLARE:
                    combo = hand_combination(game.hands[game.turn], ace_high)
                    game.apply(declare(NONE if combo is None else combo[0]))
                    continue
                if phase != PLAY:
                    break
                seat = game.turn
                if seat != me and not self.tree_opponents:
                    # Another seat: it plays the rollout policy; the tree still branches on the card,
                    # which everyone sees, so the bot's later decisions are conditioned on it.
                    card = self.policy(game, rand, self.explore)
                    child = node.children.get(card)
                    if child is None:
                        child = node.children[card] = _Node(seat)
                    game.apply(PLAYS[card])
                    path.append(child)
                    node = child
                    continue
                if node is not root and node.visits < self.widen:
                    break  # too little experience here yet: the rollout policy plays on
                hand = game.hands[seat]
                children = node.children
                untried = []
                m = hand
                best_child = None
                best_card = -1
                best_score = -1e18
                log_cache: dict[int, float] = {}
                while m:
                    low = m & -m
                    card = low.bit_length() - 1
                    m ^= low
                    child = children.get(card)
                    if child is None:
                        untried.append(card)
                        continue
                    child.avail += 1
                    if untried:
                        continue
                    avail = child.avail
                    lg = log_cache.get(avail)
                    if lg is None:
                        lg = log_cache[avail] = log(avail)
                    score = child.reward / child.visits + c * sqrt(lg / child.visits)
                    if score > best_score:
                        best_score = score
                        best_child = child
                        best_card = card
                if untried:
                    card = untried[int(rand() * len(untried))]
                    child = _Node(seat)
                    children[card] = child
                    child.avail = 1
                    game.apply(PLAYS[card])
                    path.append(child)
                    break
                assert best_child is not None
                game.apply(PLAYS[best_card])
                path.append(best_child)
                node = best_child
            rollout(game, rand, self.explore, self.policy)
            values: dict[int, float] = {}
            for visited in path:
                side = side_of(visited.seat)
                value = values.get(side)
                if value is None:
                    value = values[side] = utility(game, start, side, self.win_value)
                visited.visits += 1
                visited.reward += value
        return root


__all__ = ["IsmctsBot"]
