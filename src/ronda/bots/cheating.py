"""A bot that sees every card — for analysis only, never an opponent.

How much is hidden information worth in Ronda? Play :class:`CheatingBot`
against ``hard``: both run the same search with the same rollouts, but the
cheater searches the real game instead of guesses of it, so the difference
in points is what knowing the other hands and the stock is worth to that
search.

It breaks R11 on purpose, so it is not a :class:`~ronda.bots.Bot`: its
:meth:`CheatingBot.choose` takes the :class:`~ronda.engine.game.Game`
itself, it is not registered in :func:`~ronda.bots.make_bot`, and no
interface can seat it.
"""

from __future__ import annotations

import random

from ..engine.actions import Action, Play
from ..engine.game import DECLARE, Game
from .declarations import declaration
from .rollout import greedy_policy, rollout, utility


class CheatingBot:
    """PIMC on the true game: each legal card is rolled out ``rollouts`` times to the end of the round.

    Knobs: ``rollouts`` (per card), ``explore``, ``win_value`` (as for
    ``hard``), ``seed``. Declares truthfully and never challenges: it knows
    every declaration's truth, so challenges would measure nothing.
    """

    name = "cheating"

    def __init__(
        self, seed: int | None = None, *, rollouts: int = 48, explore: float = 0.1, win_value: float = 10.0
    ) -> None:
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.policy = greedy_policy(explore=explore)
        self.win_value = win_value

    def choose(self, game: Game) -> Action:
        """The action for the seat to act in ``game``, knowing every card."""
        seat = game.turn
        view = game.view(seat)
        if game.phase == DECLARE:
            return declaration(view, may_bluff=False)
        plays = [a for a in game.legal_actions() if type(a) is Play]
        if len(plays) == 1:
            return plays[0]
        side = view.side
        start = list(game.scores)
        totals = [0.0] * len(plays)
        for _ in range(self.rollouts):
            crn = self.rng.getrandbits(64)
            for i, play in enumerate(plays):
                copy = game.copy(history=False)
                copy.apply(play)
                rollout(copy, random.Random(crn), self.policy)
                totals[i] += utility(copy, start, side, self.win_value)
        return plays[totals.index(max(totals))]


__all__ = ["CheatingBot"]
