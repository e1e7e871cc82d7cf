"""Ronda as a single-agent Gymnasium environment: the other seats are ronda bots.

``RondaEnv(players=2, seat=0, opponents=["medium"], reward="game", **variants)``.
Spaces, action ids and rewards are those of :mod:`ronda.adapters.pettingzoo`;
the observation is the agent's seat view only (R11), and ``info["action_mask"]``
(also in the observation) marks the legal actions. Bots play their turns
between the agent's steps.

``opponents`` names one bot level for every other seat, in seat order (a
single name serves them all); with 4 players the partner is a bot too.

An illegal action is refused: the game is unchanged, the reward is
``illegal_penalty`` (default -1) and ``info["illegal"]`` names the problem.
Refusing rather than raising lets generic tooling (``check_env``, random
exploration) run; no action is ever replaced by another.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import make_bot
from ..engine.errors import IllegalActionError
from ..engine.events import Score
from ..engine.game import OVER, WAITING, Game
from ..engine.rules import Rules
from .encoding import NUM_ACTIONS, OBSERVATION_SIZE, action_mask, id_action, observe


class RondaEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a Ronda game against bots (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        players: int = 2,
        seat: int = 0,
        opponents: list[str] | str = "medium",
        reward: str = "game",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **variants: Any,
    ) -> None:
        if reward not in ("game", "round"):
            raise ValueError(f"reward must be 'game' or 'round', not {reward!r}")
        if reward == "round":
            variants.setdefault("target", 10_000)
        self.rules = Rules.from_dict({"players": players, **variants})
        if not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}")
        others = [s for s in range(players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) == 1:
            names = names * len(others)
        if len(names) != len(others):
            raise ValueError(f"give one opponent level, or one for each of seats {others}")
        self.seat = seat
        self.opponent_levels = dict(zip(others, names, strict=True))
        make_bot(names[0])  # an unknown level fails here, naming the known ones
        self.reward_mode = reward
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(OBSERVATION_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self._rng = random.Random()

    def _observation(self) -> dict[str, np.ndarray]:
        assert self.game is not None
        over = self._over()
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8) if over else action_mask(self.game.legal_actions())
        return {"observation": observe(self.game.view(self.seat)), "action_mask": mask}

    def _over(self) -> bool:
        assert self.game is not None
        return self.game.phase == OVER or (self.reward_mode == "round" and self.game.phase == WAITING)

    def _bots_play(self) -> None:
        assert self.game is not None
        while not self._over() and self.game.turn != self.seat:
            seat = self.game.turn
            action = self._bots[seat].choose(self.game.view(seat), self.game.legal_actions())
            self.game.apply(action, seat=seat)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = Game(self.rules, seed=self._rng.randrange(1 << 62))
        self._bots = {
            seat: make_bot(level, seed=self._rng.randrange(1 << 31)) for seat, level in self.opponent_levels.items()
        }
        self._bots_play()
        observation = self._observation()
        return observation, {"action_mask": observation["action_mask"]}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        assert self.game is not None, "call reset() first"
        try:
            self.game.apply(id_action(action), seat=self.seat)
        except IllegalActionError as error:
            observation = self._observation()
            info = {"action_mask": observation["action_mask"], "illegal": str(error)}
            return observation, self.illegal_penalty, False, False, info
        self._bots_play()
        observation = self._observation()
        terminated = self._over()
        reward = self._final_reward() if terminated else 0.0
        return observation, reward, terminated, False, {"action_mask": observation["action_mask"]}

    def _final_reward(self) -> float:
        assert self.game is not None
        side = self.rules.side_of(self.seat)
        if self.reward_mode == "game":
            return 1.0 if self.game.winner == side else -1.0
        points = [0] * self.rules.sides
        for event in self.game.events:
            if type(event) is Score:
                points[event.side] += event.points
        others = [p for s, p in enumerate(points) if s != side]
        return float(points[side] - sum(others) / len(others))

    def render(self) -> str | None:
        if self.game is None:
            return None
        view = self.game.view(self.seat)
        return f"hand {view.hand}  table {view.table}  scores {list(view.scores)}"
