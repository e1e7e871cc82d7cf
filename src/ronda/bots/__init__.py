"""Computer opponents. A bot is given a seat's view and the legal actions, never the game.

``make_bot("medium", seed=1)`` builds a bot by level name; :data:`LEVELS` lists them.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, RandomBot

_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "random": lambda seed: RandomBot(seed),
}


def register(name: str, factory: Callable[[int | None], Bot]) -> None:
    """Make a bot level available to :func:`make_bot` by name."""
    _FACTORIES[name] = factory


def levels() -> list[str]:
    """The names of the bot levels that can be played against."""
    return list(_FACTORIES)


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A new bot of the named level; raises ``ValueError`` naming the known levels."""
    try:
        factory = _FACTORIES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(_FACTORIES)})") from None
    return factory(seed)


__all__ = ["Bot", "RandomBot", "levels", "make_bot", "register"]
