"""Computer opponents. A bot is given a seat's view and the legal actions, never the game.

``make_bot("medium", seed=1)`` builds a bot by level name; :func:`levels` lists them,
weakest first after ``random``:

========== ==================================================================
``random``  uniformly random legal plays and declarations (testing only)
``easy``    greedy rules, little care for the next seat, no card memory, mistakes
``medium``  one-ply rules: captures, caida and missa, the next seat's chances, counted cards
``hard``    determinized search (PIMC) with greedy rollouts, 48 guesses a card choice
``expert``  the same search reading the other seats' plays, deeper rollouts, more guesses, raced, planned
========== ==================================================================

A search level takes settings after a colon, comma-separated: ``hard:16`` or
``hard:samples=16`` (guesses a card choice), ``hard:value=points`` (what the
search maximises: :data:`~ronda.bots.search.VALUES`; the default is the
chance to win the game, :mod:`ronda.bots.winprob`), ``expert:value=points,samples=64``.

The declaration, bluff and challenge policy of every level is in
:mod:`ronda.bots.declarations`. :mod:`ronda.bots.cheating` (sees every card)
exists for analysis only and is not a level.

A bot uses the engine's public API only: the :class:`~ronda.engine.view.SeatView`
it is given, and games it builds from that view
(:meth:`~ronda.engine.game.Game.from_view`) to search in.

An Information-Set MCTS (``ronda/bots/ismcts.py``) was built as the first
``expert`` and measured weaker than ``hard`` at equal and at four times its
budget; it was removed once PIMC became ``expert`` — git history keeps it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..engine.errors import BotError
from ..engine.game import Policy
from .base import Bot, RandomBot
from .inference import PlayModel
from .pimc import EXACT_DEALS, ExpertBot, PimcBot
from .rollout import blind_policy, greedy_policy, lookahead_policy
from .roundvalue import shipped as shipped_round_value
from .rules_based import EasyBot, MediumBot
from .search import VALUES, SearchBot

_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "easy": lambda seed: EasyBot(seed),
    "medium": lambda seed: MediumBot(seed),
    "hard": lambda seed: PimcBot(seed),
    "expert": lambda seed: ExpertBot(seed),
}


_FAMILIES: dict[str, Callable[[str, int | None], Bot]] = {}


def register(name: str, factory: Callable[[int | None], Bot]) -> None:
    """Make a bot level available to :func:`make_bot` by name."""
    _FACTORIES[name] = factory


def register_family(prefix: str, factory: Callable[[str, int | None], Bot]) -> None:
    """Make every name ``PREFIX:ARGUMENT`` a bot for :func:`make_bot`, built by ``factory(ARGUMENT, seed)``.

    How parts above the bots add entrants without the bots knowing them: the
    research adapters register ``policy`` (``policy:PATH`` plays a trained network).
    """
    _FAMILIES[prefix] = factory


def levels() -> list[str]:
    """The names of the bot levels that can be played against."""
    return list(_FACTORIES)


def make_bot(level: str, seed: int | None = None, *, time_limit: float | None = None) -> Bot:
    """A new bot of the named level (or of a registered family, ``policy:PATH``); raises ``ValueError`` naming
    the known levels.

    Every level thinks on a fixed budget (guesses, rollouts), so a seeded bot
    decides the same on any machine, loaded or idle. ``time_limit`` (seconds)
    caps a search level's thinking for interactive play: it stops early once
    the time is up, and then decides by what it had time for, which depends on
    the machine. The rule levels and the families think in microseconds and ignore it.
    """
    if time_limit is not None and not time_limit > 0:
        raise BotError(f"a bot's time limit is a number of seconds above 0, not {time_limit!r}")
    factory = _FACTORIES.get(level)
    prefix, colon, argument = level.partition(":")
    if factory is None and colon and prefix in _SEARCH_LEVELS:
        searcher = _SEARCH_LEVELS[prefix](seed, **search_settings(level, argument))
        searcher.time_limit = time_limit
        return searcher
    if factory is None and colon and prefix in _FACTORIES:  # a known level: "unknown level" would mislead
        search = " and ".join(_SEARCH_LEVELS)
        raise BotError(f"bot {level!r}: {prefix} takes no settings (only {search} do, e.g. hard:samples=32)")
    if factory is None:
        family = _FAMILIES.get(prefix) if colon else None
        if family is None:
            known = ", ".join([*_FACTORIES, *(f"{p}:..." for p in _FAMILIES)])
            raise BotError(f"unknown bot level {level!r} (known: {known})")
        return family(argument, seed)
    bot = factory(seed)
    if time_limit is not None and isinstance(bot, SearchBot):
        bot.time_limit = time_limit
    return bot


_SEARCH_LEVELS: dict[str, Callable[..., SearchBot]] = {"hard": PimcBot, "expert": ExpertBot}

ROLLOUTS: dict[str, Callable[[float], Policy]] = {
    "greedy": lambda explore: greedy_policy(card_value=0.7, explore=explore),
    "lookahead": lambda explore: lookahead_policy(3, card_value=0.7, explore=explore),
    "lookahead4": lambda explore: lookahead_policy(4, card_value=0.7, explore=explore),
    "blind": lambda explore: blind_policy(3, card_value=0.7, explore=explore),
    "blind2": lambda explore: blind_policy(2, card_value=0.7, explore=explore),
}
"""The rollout policies a search level's ``rollout`` setting names: ``greedy`` (two plies, ``hard``'s default),
``lookahead`` (three plies) and ``lookahead4`` (four plies), reading the guessed hands; ``blind`` (three plies) and
``blind2`` (two), in which each seat reads only its own hand and the cards played
(:func:`~ronda.bots.rollout.blind_policy`). ``expert:samples=176,rollout=greedy`` spends ``expert``'s time on more
guesses with cheaper rollouts (issue 28: each measured in docs/bots.md). Each plays a random card a share of the
time, the search's ``explore`` (0.1 unless set)."""


KNOWN = (
    "samples, value, rollout, horizon, race, race_z, race_guesses, plan, exact, exact_samples, sharpness, noise, reply,"
    " candidates, explore"
)

_READING = {
    "sharpness": (0.0, 50.0, "a number from 0 (plays at random) to 50"),
    "noise": (0.0, 1.0, "a share from 0 to 1"),
    "reply": (0.0, 10.0, "a weight from 0 (the immediate worth only) to 10"),
}
"""The settings of the model the guesses read the other seats' plays by (:class:`~ronda.bots.inference.PlayModel`):
the least and most each may be, and how an error says so."""


def search_settings(level: str, argument: str) -> dict[str, Any]:
    """The settings of ``hard:ARGUMENT``: ``16`` or ``samples=16``, ``value=win`` or ``value=points``,
    ``rollout=greedy``, ``rollout=lookahead`` or ``rollout=blind`` (:data:`ROLLOUTS`), ``horizon`` (``round``, the
    default: rollouts to the round's end; ``deal``, two players: to the end of the deal, the rest of the round valued
    by the learned :mod:`~ronda.bots.roundvalue` model), and the race among the cards
    (:class:`~ronda.bots.pimc.PimcBot`): ``race`` (first batch of guesses, 0 for none), ``race_z`` (standard
    errors behind the best that drop a card), ``race_guesses`` (most guesses in all); ``plan`` (``1``: the seat's
    next card of the deal chosen on what it will have seen, ``expert``'s default; ``0``: read from each guess, as
    ``hard`` does; ``blind``: planned, the other seats answering without seeing the seat's hand); ``exact`` (the
    round's last deals searched exactly in each guess, :data:`~ronda.bots.pimc.EXACT_DEALS`: ``1``, the default,
    the last deal; ``2``, two players, from the penultimate deal through the last deal's dealing) with
    ``exact_samples`` (the guesses for those deals before the last, ``0``: as many as ``samples``); and how the
    guesses read the other seats' plays (:class:`~ronda.bots.inference.PlayModel`, fields left out keep its
    defaults): ``sharpness``, ``noise``, ``reply`` — ``expert:sharpness=0.25,noise=0.2,reply=8`` reads by the model
    fitted to the bots' choices (:data:`~ronda.bots.inference.FITTED`, docs/bots.md); on ``hard``, which reads no
    plays, any of them makes it read them; ``candidates``, the guesses drawn for each one kept when reading plays
    (8; more follow a sharp reading more closely, at more cost); ``explore``, the share of random cards in the
    rollouts (0.1: they stay varied; ``expert:explore=0.03`` is measured in docs/bots.md).

    >>> search_settings("hard:value=points,32", "value=points,32")
    {'value': 'points', 'samples': 32}
    >>> search_settings("hard:speed=2", "speed=2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown setting 'speed' in bot 'hard:speed=2' (known: samples, value, rollout, horizon, ...)
    >>> search_settings("expert:sharpness=0.25,noise=0.2,reply=8", "sharpness=0.25,noise=0.2,reply=8")
    {'play_model': PlayModel(sharpness=0.25, noise=0.2, reply=8.0)}
    >>> search_settings("expert:noise=2", "noise=2")
    Traceback (most recent call last):
    ...
    ValueError: noise in bot 'expert:noise=2' is a share from 0 to 1, not '2'
    """
    settings: dict[str, Any] = {}
    reading: dict[str, float] = {}
    rollout = answer = ""
    for part in argument.split(","):
        name, equals, text = part.strip().partition("=")
        if not equals:
            name, text = "samples", name
        if name == "samples":
            if not text.isdigit() or int(text) < 1:
                raise ValueError(f"samples in bot {level!r} is a whole number of guesses from 1, not {text!r}")
            settings["samples"] = int(text)
        elif name == "value":
            if text not in VALUES:
                raise ValueError(f"value in bot {level!r} is one of {', '.join(VALUES)}, not {text!r}")
            settings["value"] = text
        elif name == "rollout":
            if text not in ROLLOUTS:
                raise ValueError(f"rollout in bot {level!r} is one of {', '.join(ROLLOUTS)}, not {text!r}")
            rollout = text
        elif name == "horizon":
            if text not in ("round", "deal"):
                raise ValueError(
                    f"horizon in bot {level!r} is round (rollouts to the round's end) or deal (to the deal's end,"
                    f" the rest valued by the learned round model, two players), not {text!r}"
                )
            if text == "deal":
                settings["deals"] = 1
                settings["round_value"] = shipped_round_value()
        elif name in ("race", "race_guesses"):
            if not text.isdigit():
                raise ValueError(f"{name} in bot {level!r} is a whole number of guesses, not {text!r}")
            settings[name] = int(text)
        elif name == "plan":
            if text not in ("0", "1", "blind"):
                raise ValueError(
                    f"plan in bot {level!r} is 1 (plan the next card of the deal), blind (plan it, the other seats"
                    f" answering without seeing the seat's hand) or 0, not {text!r}"
                )
            settings["plan"] = text != "0"
            if text == "blind":
                answer = "blind"
        elif name == "exact":
            allowed = [str(deals) for deals in EXACT_DEALS]
            if text not in allowed:
                raise ValueError(
                    f"exact in bot {level!r} is {' or '.join(allowed)} (the round's last deals searched exactly in"
                    f" each guess; 2: from the penultimate deal, two players only), not {text!r}"
                )
            settings["exact"] = int(text)
        elif name == "exact_samples":
            if not text.isdigit():
                raise ValueError(
                    f"exact_samples in bot {level!r} is a whole number of guesses (0: as many as samples), not {text!r}"
                )
            settings["exact_samples"] = int(text)
        elif name == "race_z":
            try:
                z = float(text)
            except ValueError:
                z = 0.0
            if not z > 0:
                raise ValueError(f"race_z in bot {level!r} is a number of standard errors above 0, not {text!r}")
            settings[name] = z
        elif name == "explore":
            try:
                share = float(text)
            except ValueError:
                share = math.nan
            if not 0 <= share <= 1:
                raise ValueError(f"explore in bot {level!r} is a share of random cards from 0 to 1, not {text!r}")
            settings["explore"] = share
        elif name == "candidates":
            if not text.isdigit() or int(text) < 1:
                raise ValueError(
                    f"candidates in bot {level!r} is a whole number of guesses drawn for each one kept, from 1,"
                    f" not {text!r}"
                )
            settings["candidates"] = int(text)
        elif name in _READING:
            least, most, words = _READING[name]
            try:
                number = float(text)
            except ValueError:
                number = math.nan
            if not least <= number <= most:
                raise ValueError(f"{name} in bot {level!r} is {words}, not {text!r}")
            reading[name] = number
        else:
            raise ValueError(f"unknown setting {name!r} in bot {level!r} (known: {KNOWN})")
    if reading:
        settings["play_model"] = replace(PlayModel(), **reading)
    explore = settings.get("explore", 0.1)
    if rollout:
        settings["policy"] = ROLLOUTS[rollout](explore)
    if answer:
        settings["answer"] = ROLLOUTS[answer](explore)
    return settings


__all__ = [
    "Bot",
    "EasyBot",
    "ExpertBot",
    "MediumBot",
    "PimcBot",
    "RandomBot",
    "levels",
    "make_bot",
    "register",
    "register_family",
    "search_settings",
]
