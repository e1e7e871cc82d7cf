"""What the search bots share: the announcement decisions, the guesses, the budget.

A search bot declares and bluffs by :mod:`ronda.bots.declarations`, and
searches the choice of a card — and, near the target, whether a challenge that
may fail pays — on guesses of the hidden cards drawn by a
:class:`~ronda.bots.determinize.Determinizer` from its view alone, believing
each declaration as far as :func:`~ronda.bots.declarations.declaration_models` says.

The budget is a count (``budget``: guesses), so a bot is a pure function of
the view, the legal actions and its seed, on any machine: what tests, the
arena and seeded research environments rely on. A ``time_limit`` in seconds
(off by default) caps it for interactive play: the search stops once the time
is up, but never before ``min_budget`` guesses.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..engine.actions import Action, Play
from ..engine.game import DECLARE, PLAY, Game, Policy
from ..engine.view import SeatView
from .declarations import challenge, declaration, declaration_models, gamble_targets
from .determinize import Determinizer
from .endgame import declare_truthfully
from .inference import PlayModel
from .rollout import greedy_policy, utility
from .roundvalue import RoundValue
from .winprob import game_win_probability, win_probability_at

MARGIN_WEIGHT = 0.001
"""With ``value="win"``: what a point of margin adds to a chance to win, a tie-break (a point moves the chance by
about 0.02 far from the target, by much more near it)."""

WON = 1.0 + MARGIN_WEIGHT * 100
"""With ``value="win"``: a game won, above a chance of 1 with any margin a round can bring."""

VALUES = ("win", "points")
"""What a search maximises at the end of its horizon. ``win`` (the default): the chance to win the game —
won or lost inside the horizon, else :func:`~ronda.bots.winprob.game_win_probability` (the model at the
scores the round ends with), the margin a tie-break (:data:`MARGIN_WEIGHT`). ``points``: the points gained
minus the opponents', plus or minus ``win_value`` for a won or lost game (:func:`~ronda.bots.rollout.utility`),
the search of before issue 28, kept to measure against (``ronda arena hard hard:value=points``)."""


class SearchBot:
    """Base of the search levels; subclasses implement :meth:`pick`.

    Knobs: ``budget``, ``time_limit``, ``min_budget`` (see the module),
    ``policy`` (the rollout policy, :mod:`ronda.bots.rollout`), ``explore``
    (share of random cards in the default policy's rollouts), ``win_value`` (utility of winning the
    game, in points, with ``value="points"``), ``bluff`` (may bluff), ``gamble`` (weigh challenges
    that may fail near the target, :func:`~ronda.bots.declarations.gamble_targets`),
    ``play_model`` (read the other seats' plays when
    guessing, :mod:`ronda.bots.inference`), ``candidates`` (guesses drawn per
    kept guess when reading plays), ``value`` (what a rollout's end is worth,
    see :data:`VALUES`), ``round_value`` (a :class:`~ronda.bots.roundvalue.RoundValue`: a rollout stopped at a
    deal's start, two players, is valued by the points it predicts for the rest of the round instead of the
    hand-set :func:`~ronda.bots.winprob.expected_round_end`), ``seed``.
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
        gamble: bool = True,
        play_model: PlayModel | None = None,
        candidates: int = 8,
        value: str = "win",
        round_value: RoundValue | None = None,
    ) -> None:
        if value not in VALUES:
            raise ValueError(f"a search bot's value is one of {', '.join(VALUES)}, not {value!r}")
        self.rng = random.Random(seed)
        self.budget = budget
        self.time_limit = time_limit
        self.min_budget = min_budget
        self.policy = policy or greedy_policy(card_value=0.7, explore=explore)
        self.explore = explore
        self.win_value = win_value
        self.bluff = bluff
        self.gamble = gamble
        self.play_model = play_model
        self.candidates = candidates
        self.value = value
        self.round_value = round_value

    def leaf(
        self, game: Game, start: Sequence[int], side: int, piles: tuple[int, Sequence[int]] | None = None
    ) -> float:
        """What the end of a rollout (or of the exact search) is worth to ``side``, by :attr:`value`.

        With ``win``: the chance to win, plus :data:`MARGIN_WEIGHT` a point of margin so that where the
        chances saturate (every card loses in every guess, or none can lose) the points still decide;
        a won game is worth more than anything not yet won, whatever its margin.
        """
        if self.value == "points":
            return utility(game, start, side, self.win_value, piles)
        winner = game.winner
        if winner is not None and winner == side:
            return WON
        if self.round_value is not None and game.rules.players == 2:
            learned = _learned_leaf(self.round_value, game, start, side)
            if learned is not None:
                return learned
        margin = utility(game, start, side, 0.0)
        return game_win_probability(game, side) + MARGIN_WEIGHT * margin

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if view.phase == DECLARE:
            return declaration(view, may_bluff=self.bluff)
        proven = challenge(view, legal)
        if proven is not None:
            return proven
        sampler = self.guesses(view)
        plays = distinct_plays(legal)
        targets = gamble_targets(view, legal, sampler) if self.gamble else []
        if targets:
            return self.weigh(view, plays, targets, sampler)
        if len(plays) == 1:
            return plays[0]
        return self.pick(view, plays, sampler)

    def guesses(self, view: SeatView) -> Determinizer:
        """Where every guess of the hidden cards comes from: the view alone, the declarations believed as
        :func:`~ronda.bots.declarations.declaration_models` says, the plays read with :attr:`play_model`.

        One method, so that a measurement can swap the guesses for the truth and keep the whole search
        (``benchmarks/hidden_information.py``: what knowing the cards is worth); no bot does.
        """
        return Determinizer(
            view, play_model=self.play_model, candidates=self.candidates, models=declaration_models(view)
        )

    def pick(self, view: SeatView, plays: list[Play], sampler: Determinizer) -> Play:
        """The card to play, searched on guesses from ``sampler``."""
        raise NotImplementedError

    def weigh(self, view: SeatView, plays: list[Play], targets: list[int], sampler: Determinizer) -> Action:
        """A challenge of one of ``targets`` if the search says it pays, else the card to play."""
        raise NotImplementedError

    def steps(self) -> range | _Timed:
        """The search's iterations: ``budget`` of them, fewer if the time limit comes first."""
        if self.time_limit is None:
            return range(self.budget)
        return _Timed(self.budget, self.min_budget, self.time_limit)


def _learned_leaf(model: RoundValue, game: Game, start: Sequence[int], side: int) -> float | None:
    """The chance to win read at the round-end scores ``model`` predicts, at a deal's start (both hands full: what
    it was fitted on), the deal's declarations made truthfully first; ``None`` anywhere else."""
    if game.phase == DECLARE:
        game = game.copy(history=False)
        declare_truthfully(game)  # scored at once (R8.5): a declaration may win the game
        if game.winner is not None:
            return WON if game.winner == side else 0.0
    if game.phase != PLAY or game.search_state().cards_left != 2 * game.hand_size:
        return None
    end = model.round_end(game, side)
    margin = (end[side] - start[side]) - (end[1 - side] - start[1 - side])
    return win_probability_at(game, end, side) + MARGIN_WEIGHT * margin


def distinct_plays(legal: Sequence[Action]) -> list[Play]:
    """The legal plays, one card per rank: two cards of one rank play and score alike (R1.1), so one is searched."""
    seen = 0
    plays = []
    for action in legal:
        if type(action) is Play and not seen >> (action.card >> 2) & 1:
            seen |= 1 << (action.card >> 2)
            plays.append(action)
    return plays


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


__all__ = ["VALUES", "SearchBot", "distinct_plays"]
