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
from ..engine.game import OVER, PLAY, WAITING, Game
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


def random_rounds(players: int, auto_declare: bool, rounds: int, seed: int = 0) -> BenchResult:
    """Play ``rounds`` rounds of uniformly random legal decisions and time them.

    Games are played to their end with a target no side reaches, so every
    timed round is a whole round of 40 cards.
    """
    rules = Rules(players=players, auto_declare=auto_declare, target=10_000)
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    played = 0
    start = time.perf_counter()
    current = game.round
    while played < rounds:
        if game.phase in (OVER, WAITING):
            game = Game(rules, seed=rng.randrange(1 << 30))
            current = game.round
        actions = game.legal_actions()
        if game.phase == PLAY and type(actions[-1]) is Challenge:
            actions = [a for a in actions if type(a) is not Challenge]
        game.apply(actions[int(rng.random() * len(actions))])
        if game.round != current:
            current = game.round
            played += 1
    return BenchResult(players, auto_declare, played, time.perf_counter() - start)
