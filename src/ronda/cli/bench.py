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
    are played to a target of 10,000, so that rounds are whole rounds of 40
    cards; a game is won at last (with random declarations within a few hundred
    rounds: false declarations' penalties add up), and the next rounds are a
    new game's. The round in which a game is won ends early and is not counted.
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
                if not game.finished:
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
                played += 1  # a round won mid-way leaves the round number as it was: not counted
    return BenchResult(players, auto_declare, played, time.perf_counter() - start)
