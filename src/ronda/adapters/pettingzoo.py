"""Ronda as a PettingZoo AEC environment: ``ronda_v0``.

``env(players=2, reward="game", **variants)`` is the wrapped environment,
``raw_env`` the bare one. Agents are ``player_0`` … ``player_{n-1}`` (seat
numbers); with 4 players ``player_0``/``player_2`` and ``player_1``/``player_3``
are partners and share every reward.

==================  ===========================================================
Actions             ``Discrete(48)``: 0-39 play a card, 40-43 declare none /
                    ronda / tringa / double_ronda, 44-47 challenge seat 0-3
                    (:mod:`ronda.adapters.encoding`)
Observations        ``{"observation": Box(0, ·, (816,)), "action_mask": (48,)}``
                    built from the agent's seat view only (R11)
Rewards             ``reward="game"`` (default): an episode is a whole game to
                    the target; +1 to the winning side's agents, -1 to the
                    others, at the end. ``reward="round"``: an episode is one
                    round; each agent gets its side's points in the round minus
                    the mean of the other sides' points (zero-sum), at the end
Variants            any R10 variant by name: ``env(players=4, dealer_duty=True)``
==================  ===========================================================

An illegal action raises ``IllegalActionError`` and changes nothing: use the
action mask.
"""

from __future__ import annotations

import functools
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.events import Score
from ..engine.game import OVER, WAITING, Game
from ..engine.rules import Rules
from ..presentation.narration import narrate
from .encoding import NUM_ACTIONS, OBSERVATION_SIZE, action_mask, id_action, observe


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers."""
    environment = raw_env(**kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):
    """The bare AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "ronda_v0",
        "is_parallelizable": False,
    }

    def __init__(self, players: int = 2, reward: str = "game", render_mode: str | None = None, **variants: Any):
        super().__init__()
        if reward not in ("game", "round"):
            raise ValueError(f"reward must be 'game' or 'round', not {reward!r}")
        if reward == "round":
            variants.setdefault("target", 10_000)  # the round is the episode, never cut short by a win
        self.rules = Rules.from_dict({"players": players, **variants})
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seed_rng = random.Random()
        self.game: Game | None = None

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo expects
    def observation_space(self, agent: str) -> spaces.Space:
        return spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(OBSERVATION_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space:
        return spaces.Discrete(NUM_ACTIONS)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(seed)
        self.game = Game(self.rules, seed=self._seed_rng.randrange(1 << 62))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = f"player_{self.game.turn}"
        self._log: list[str] = []

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = int(agent.rsplit("_", 1)[1])
        mask = (
            action_mask(self.game.legal_actions())
            if seat == self.game.turn and not self._episode_over()
            else np.zeros(NUM_ACTIONS, dtype=np.int8)
        )
        return {"observation": observe(self.game.view(seat)), "action_mask": mask}

    def _episode_over(self) -> bool:
        assert self.game is not None
        return self.game.phase == OVER or (self.reward_mode == "round" and self.game.phase == WAITING)

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        events = self.game.apply(id_action(action))  # type: ignore[arg-type]
        self._log.extend(narrate(events, self.rules.players))
        self._clear_rewards()
        if self._episode_over():
            for agent, reward in self._final_rewards().items():
                self.rewards[agent] = reward
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = f"player_{self.game.turn}"
        self._accumulate_rewards()

    def _final_rewards(self) -> dict[str, float]:
        assert self.game is not None
        rules = self.rules
        if self.reward_mode == "game":
            winner = self.game.winner
            return {f"player_{s}": 1.0 if rules.side_of(s) == winner else -1.0 for s in range(rules.players)}
        points = [0] * rules.sides
        for event in self.game.events:
            if type(event) is Score:
                points[event.side] += event.points
        rewards = {}
        for seat in range(rules.players):
            side = rules.side_of(seat)
            others = [p for s, p in enumerate(points) if s != side]
            rewards[f"player_{seat}"] = float(points[side] - sum(others) / len(others))
        return rewards

    def render(self) -> str | None:
        text = "\n".join(self._log[-12:]) if self.game is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
