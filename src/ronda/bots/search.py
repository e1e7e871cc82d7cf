"""What the search bots share: the announcement decisions, the guesses, the budget.

A search bot declares, bluffs and challenges by :mod:`ronda.bots.declarations`
(bluffing allowed, challenging when the game is at stake), and searches only
the choice of a card, on guesses of the hidden cards drawn by a
:class:`~ronda.bots.determinize.Determinizer` from its view alone.

Budgets come in two forms: a count (``budget``: guesses or iterations) and a
``time_limit`` in seconds that stops the search early, but never before
``min_budget``. With ``time_limit=None`` a bot is a pure function of the view,
the legal actions and its seed — what tests and reproducible matches use; the
default time limits are safety nets sized to stay well under the per-move
targets on a busy machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..engine.actions import Action, Play
from ..engine.game import DECLARE, Policy
from ..engine.view import SeatView
from .declarations import challenge, declaration
from .determinize import Determinizer
from .inference import PlayModel
from .rollout import greedy_policy


class SearchBot:
    """Base of the search levels; subclasses implement :meth:`pick`.

    Knobs: ``budget``, ``time_limit``, ``min_budget`` (see the module),
    ``policy`` (the rollout policy, :mod:`ronda.bots.rollout`), ``explore``
    (share of random cards in the default policy's rollouts), ``win_value`` (utility of winning the
    game, in points), ``bluff`` (may bluff), ``at_stake_threshold`` (how
    likely false an opponent's declaration must be to be challenged when the
    game is at stake), ``play_model`` (read the other seats' plays when
    guessing, :mod:`ronda.bots.inference`), ``candidates`` (guesses drawn per
    kept guess when reading plays), ``seed``.
    """

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: int,
        time_limit: float | None,
        min_budget: int,
        policy: Policy | None = None,
        explore: float = 0.1,
        win_value: float = 10.0,
        bluff: bool = True,
        at_stake_threshold: float = 0.5,
        play_model: PlayModel | None = None,
        candidates: int = 8,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.time_limit = time_limit
        self.min_budget = min_budget
        self.policy = policy or greedy_policy(card_value=0.7, explore=explore)
        self.explore = explore
        self.win_value = win_value
        self.bluff = bluff
        self.at_stake_threshold = at_stake_threshold
        self.play_model = play_model
        self.candidates = candidates

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if view.phase == DECLARE:
            return declaration(view, may_bluff=self.bluff)
        sampler = Determinizer(view, play_model=self.play_model, candidates=self.candidates)
        chosen = challenge(view, legal, at_stake_threshold=self.at_stake_threshold, determinizer=sampler)
        if chosen is not None:
            return chosen
        plays = [a for a in legal if type(a) is Play]
        if len(plays) == 1:
            return plays[0]
        return self.pick(view, plays, sampler)

    def pick(self, view: SeatView, plays: list[Play], sampler: Determinizer) -> Play:
        """The card to play, searched on guesses from ``sampler``."""
        raise NotImplementedError

    def steps(self) -> range | _Timed:
        """The search's iterations: ``budget`` of them, fewer if the time limit comes first."""
        if self.time_limit is None:
            return range(self.budget)
        return _Timed(self.budget, self.min_budget, self.time_limit)


class _Timed:
    """Up to ``budget`` steps, stopping once ``seconds`` have passed and ``least`` steps are done."""

    def __init__(self, budget: int, least: int, seconds: float) -> None:
        self.budget = budget
        self.least = least
        self.deadline = time.perf_counter() + seconds

    def __iter__(self) -> _Timed:
        self.done = 0
        return self

    def __next__(self) -> int:
        done = self.done
        if done >= self.budget or (done >= self.least and time.perf_counter() > self.deadline):
            raise StopIteration
        self.done = done + 1
        return done


__all__ = ["SearchBot"]
