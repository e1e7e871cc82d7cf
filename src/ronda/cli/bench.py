"""``ronda bench``: random legal playouts through the public engine API.

Measures what bots and simulations pay per round: ``legal_actions`` and
``apply`` with uniformly random legal plays and declarations (no challenges),
one process, one core.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..engine.actions import Challenge
from ..engine.game import OVER, Game
from ..engine.rules import Rules


@dataclass(frozen=True)
class BenchResult:
    players: int
    auto_declare: bool
    rounds: int
    seconds: float

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "auto_declare": self.auto_declare,
            "rounds": self.rounds,
            "seconds": round(self.seconds, 4),
            "rounds_per_second": round(self.rounds_per_second, 1),
        }


def random_rounds(players: int, auto_declare: bool, rounds: int, seed: int = 0, api: bool = False) -> BenchResult:
    """Play ``rounds`` rounds of uniformly random legal decisions and time them.

    By default the engine's own rollout (:meth:`Game.playout`) plays them, as
    bots' simulations do; ``api=True`` drives every decision through
    ``legal_actions()`` and ``apply()`` instead, as an interface does. Games
    are played with a target no side reaches in the time measured, so every
    timed round is a whole round of 40 cards.
    """
    rules = Rules(players=players, auto_declare=auto_declare, target=10_000)
    rng = random.Random(seed)
    pick = rng.random
    played = 0
    start = time.perf_counter()
    while played < rounds:
        game = Game(rules, seed=rng.randrange(1 << 30))
        if not api:
            while game.phase != OVER and played < rounds:
                game.playout(rng)
                played += 1
            continue
        legal_actions, apply = game.legal_actions, game.apply
        current = game.round
        while game.phase != OVER and played < rounds:
            actions = legal_actions()
            if type(actions[-1]) is Challenge:
                actions = [a for a in actions if type(a) is not Challenge]
            apply(actions[int(pick() * len(actions))])
            if game.round != current:
                current = game.round
                played += 1
    return BenchResult(players, auto_declare, played, time.perf_counter() - start)
