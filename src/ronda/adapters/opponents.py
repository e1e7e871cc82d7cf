"""Opponents of the single-agent environment: bot levels with settings, any bot, or a policy function.

An opponent is given as

- a level name, ``"medium"``;
- a level and its settings, ``("hard", {"samples": 16})``: keyword arguments
  of the level's class (:mod:`ronda.bots`);
- any :class:`~ronda.bots.Bot` (an object with ``choose(view, legal)``);
- a callable ``policy(observation, action_mask) -> action id`` that reads
  the same encoding as the agent (:mod:`ronda.adapters.encoding`), in its
  own seat's frame: seats relative to it in the observation, and challenge
  ids too (44 + k challenges the seat k places after it,
  :func:`~ronda.adapters.encoding.relative_mask`). An agent trained in seat 0,
  where the frames agree, is then a self-play opponent in any seat.

Whatever the kind, an opponent sees its seat's view only (R11).

Search levels (``hard``, ``expert``) stop on a clock by default, which makes
two runs of one seed differ on a busy machine. Here they get a fixed budget
(``time_limit=None``) unless the settings name a ``time_limit``, so an
episode is a function of its seed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..bots import Bot, RandomBot, make_bot, search_settings
from ..bots.search import SearchBot
from ..engine.actions import Action
from ..engine.errors import IllegalActionError
from ..engine.view import SeatView
from .encoding import absolute_action, action_mask, id_action, observe, relative_mask

PolicyFunction = Callable[[np.ndarray, np.ndarray], Any]
"""``policy(observation, action_mask) -> action id``."""

OpponentSpec = str | tuple[str, Mapping[str, Any]] | Bot | PolicyFunction
"""A level name, a level with settings, a bot, or a policy function (see the module docstring)."""

Chooser = Callable[[SeatView, Sequence[Action]], Action]


def check_opponent(spec: object) -> None:
    """Fail now, naming the problem, if ``spec`` cannot become an opponent."""
    make_opponent(spec, seed=0)


def make_opponent(spec: object, seed: int) -> Chooser:
    """A function from a seat's view and the legal actions to an action, for one opponent seat."""
    if isinstance(spec, str):
        return make_level(spec, {}, seed).choose
    if isinstance(spec, tuple):
        if len(spec) != 2 or not isinstance(spec[0], str) or not isinstance(spec[1], Mapping):
            raise ValueError(f"an opponent with settings is (level, {{setting: value}}), not {spec!r}")
        return make_level(spec[0], dict(spec[1]), seed).choose
    if isinstance(spec, Bot):
        return spec.choose
    if callable(spec):
        return _policy_chooser(spec)
    raise ValueError(f"an opponent is a level name, (level, settings), a bot or a policy function, not {spec!r}")


def is_level_with_settings(spec: object) -> bool:
    """Whether ``spec`` is one opponent given as ``(level, {setting: value})``, not a sequence of opponents."""
    return isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], dict)


def opponent_name(spec: object) -> str:
    """An opponent (or a policy) as a table's row or an error names it: a level, ``policy:PATH``, a bot's name."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, Path):
        return f"policy:{spec}"
    if is_level_with_settings(spec):
        level, settings = cast(tuple[str, dict[str, Any]], spec)
        return f"{level}({', '.join(f'{k}={v}' for k, v in settings.items())})"
    name = getattr(spec, "name", None) or getattr(spec, "__name__", None)
    return str(name) if name else type(spec).__name__


def check_players(name: str, spec: object, chooser: Chooser, players: int) -> None:
    """Refuse, naming it, a policy trained for another player count than ``players``
    (:meth:`~ronda.adapters.policy.Policy.check_players`): given as the policy itself, or as the ``policy:``
    bot that ``chooser`` chooses for."""
    for candidate in (
        spec,
        getattr(chooser, "__self__", None),
        getattr(getattr(chooser, "__self__", None), "policy", None),
    ):
        check = getattr(candidate, "check_players", None)
        if callable(check):
            check(players, name)
            return


def reads_view(chooser: Chooser) -> bool:
    """Whether an opponent reads its view: the random level draws among the legal actions alone.

    An environment then builds no view for it (a view costs half an engine
    step, and random opponents are what a learner meets first and most).
    Only the random level's own class is trusted so: a subclass may read the view.
    """
    return type(getattr(chooser, "__self__", None)) is not RandomBot


def make_level(level: str, settings: dict[str, Any], seed: int) -> Bot:
    """A bot of ``level`` seeded with ``seed``, its class built with ``settings``; search on a fixed budget.

    A level's own settings (``hard:4``) are kept under ``settings``: the bot was rebuilt from its class with
    ``settings`` alone, so ``hard:4`` played as ``hard``'s 48 guesses and ``evaluate`` did not play the arena's
    match (found checking that ``evaluate`` and ``ronda arena --rounds`` agree).

    >>> make_level("hard:4", {}, 1).budget, make_level("hard:4", {"race": 8}, 1).budget
    (4, 4)
    """
    bot = make_bot(level, seed=seed)  # an unknown level fails here, naming the known ones (no time limit)
    if not settings:
        return bot
    kind: Callable[..., Bot] = type(bot)
    parameters = inspect.signature(kind).parameters
    unknown = sorted(set(settings) - set(parameters))
    if unknown:
        known = ", ".join(p for p in parameters if p != "seed")
        raise ValueError(f"the {level} level has no setting {unknown[0]!r} (settings: {known})")
    _, colon, argument = level.partition(":")
    own = search_settings(level, argument) if colon and isinstance(bot, SearchBot) else {}
    fixed = {"time_limit": None} if "time_limit" in parameters else {}
    return kind(seed, **{**fixed, **own, **settings})


def _policy_chooser(policy: PolicyFunction) -> Chooser:
    def choose(view: SeatView, legal: Sequence[Action]) -> Action:
        players = view.rules.players
        mask = relative_mask(action_mask(legal), view.seat, players)
        number = policy(observe(view), mask)
        id_action(number)  # a number out of range is named here
        if not mask[int(number)]:
            raise IllegalActionError(  # the evaluated policy or an opponent: the seat and the name tell which
                f"the policy at seat {view.seat} ({opponent_name(policy)}) chose action {number}, not legal now"
            )
        return id_action(absolute_action(int(number), view.seat, players))

    return choose
