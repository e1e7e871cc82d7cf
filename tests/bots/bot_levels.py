"""Every bot level with a budget small enough for tests (the search bots' defaults take ~0.1-1 s a move).

Budgets are iteration counts without a time limit, so each bot is a pure
function of view, legal actions and seed.
"""

from __future__ import annotations

from collections.abc import Callable

from ronda.bots import Bot, EasyBot, ExpertBot, MediumBot, PimcBot, RandomBot

QUICK: dict[str, Callable[[int], Bot]] = {
    "random": lambda seed: RandomBot(seed),
    "easy": lambda seed: EasyBot(seed),
    "medium": lambda seed: MediumBot(seed),
    "hard": lambda seed: PimcBot(seed, samples=5, time_limit=None),
    "expert": lambda seed: ExpertBot(seed, samples=4, time_limit=None),
}
