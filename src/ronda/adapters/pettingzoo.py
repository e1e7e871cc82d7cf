"""Ronda as a PettingZoo AEC environment: ``ronda_v0``.

``env(players=2, reward="outcome", observation="dict", dealer=None, start=None, **variants)`` is the
environment (``raw_env`` is the same class: the checks of PettingZoo's usual
wrappers are built in, see :func:`env`). Agents are ``player_0`` … ``player_{n-1}``
(seat numbers); with 4 players ``player_0``/``player_2`` and
``player_1``/``player_3`` are partners and share every reward.

==================  ===========================================================
Actions             ``Discrete(48)``: 0-39 play a card, 40-43 declare none /
                    ronda / tringa / double_ronda, 44-47 challenge the seat
                    0-3 places after the acting agent's (44, itself, is
                    never legal): relative to the agent, like its
                    observation, so one network plays every seat; for
                    ``player_0`` the engine's seat numbers
                    (:mod:`ronda.adapters.encoding`)
Observations        ``{"observation": Box(0, 1, (855,)), "action_mask": (48,)}``,
                    or with ``observation="flat"`` the Box alone and the mask in
                    ``infos[agent]["action_mask"]``; built from the agent's seat
                    view only (R11), seats relative to the agent
State               ``state()``: every hand, the stock's cards and the public
                    facts, ``Box(0, 1, (1055,))`` (``state_space``), for
                    centralized critics; never an agent's observation
Rewards             at the end of the episode, zero-sum, from
                    :mod:`ronda.adapters.returns`: ``reward="outcome"``
                    (default: a whole game, +1 to the winners, -1/(k-1) to the
                    others), ``"game"`` (a whole game, points with the result on
                    top), ``"round"`` (one round, in points; a game decided
                    inside the round pays the most and the least there is) or
                    ``"chances"`` (the same round, paid by the change in each
                    side's chance to win the game)
Variants            any R10 variant by name: ``env(players=4, dealer_duty=True)``
==================  ===========================================================

Episodes are :class:`~ronda.adapters.episode.Episode`: equal seeds, equal
episodes; the first dealer is drawn unless ``dealer`` names one. An episode
begins anywhere: ``reset(options={"scores": [36, 30]})``, ``{"scores":
"uniform"}``, ``{"record": "game.json", "decision": 57}``; ``start=`` gives
the options of every reset that gives none. ``observation_pieces()`` names
every piece of the observation.

An illegal action raises :class:`~ronda.engine.errors.IllegalActionError`
and changes nothing: use the action mask.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable
from pettingzoo.utils.env_logger import EnvLogger

from ..engine.events import Event
from ..engine.game import Game
from ..engine.rules import Rules
from ..presentation.narration import narrate
from .encoding import (
    NUM_ACTIONS,
    STATE_SIZE,
    Encoder,
    action_mask,
    agent_action,
    encode_state,
    observation_pieces,
    relative_mask,
)
from .episode import Episode
from .gymnasium import observation_space
from .returns import check_reward

_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=np.int8)
_NO_ACTIONS.flags.writeable = False
"""The mask of an agent that is not to act (shared, read-only, in infos; observations get copies)."""


def env(**kwargs: Any) -> raw_env:
    """The environment, with the checks PettingZoo's usual wrappers add built in.

    ``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper`` are not put
    around it: the environment itself refuses a call before ``reset()`` with
    PettingZoo's own messages and an action out of range with an error naming
    it, and the wrappers' attribute forwarding cost a third of every step.
    Wrap it yourself if you want them: ``wrappers.OrderEnforcingWrapper(env())``.
    """
    return raw_env(**kwargs)


class raw_env(AECEnv[str, Any, int | None]):  # type: ignore[misc]
    """The bare AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "ronda_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        reward: str = "outcome",
        observation: str = "dict",
        dealer: int | None = None,
        render_mode: str | None = None,
        start: Mapping[str, Any] | None = None,
        **variants: Any,
    ) -> None:
        super().__init__()
        self.reward_mode = check_reward(reward)
        if observation not in ("dict", "flat"):
            raise ValueError(f"observation must be 'dict' or 'flat', not {observation!r}")
        self.rules = Rules.from_dict({"players": players, **variants})
        if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < players):
            raise ValueError(f"dealer must be a seat from 0 to {players - 1} or None, not {dealer!r}")
        self.flat = observation == "flat"
        self.dealer = dealer
        self.start = dict(start or {})
        """The reset options of every reset that gives none (:mod:`ronda.adapters.episode`)."""
        Episode(self.rules, self.reward_mode, random.Random(0), dealer, self.start)  # a bad start is named now
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per agent, as PettingZoo expects, kept by the environment: a cache on the methods
        # (functools.cache) would keep every environment alive as long as the class.
        self._observation_spaces = {agent: observation_space(self.flat) for agent in self.possible_agents}
        self._action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self.state_space = spaces.Box(low=0.0, high=1.0, shape=(STATE_SIZE,), dtype=np.float32)
        self._seed_rng = random.Random()
        self.episode: Episode | None = None
        self._events: list[Event] = []
        self._encoder = Encoder()

    @staticmethod
    def observation_pieces() -> list[tuple[str, int, int]]:
        """(name, offset, size) of every piece of the observation vector (:mod:`ronda.adapters.encoding`)."""
        return observation_pieces()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(seed)
        # PettingZoo's api_test resets with options={"options": 1}: an unknown option is a warning here.
        given = self.start if options is None else options
        self.episode = Episode(self.rules, self.reward_mode, self._seed_rng, self.dealer, given, strict=False)
        self._encoder.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": _NO_ACTIONS} for a in self.agents}
        self.agent_selection = self.possible_agents[self.episode.game.turn]
        self._events = list(self.episode.events)
        # The acting agent's mask is in its info (the flat observation's only mask); the others' are empty.
        if not self.episode.over:
            self.infos[self.agent_selection]["action_mask"] = self._mask(self.episode.game)

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, Any, int | None]:
        if self.episode is None:
            EnvLogger.error_agent_iter_before_reset()
        return super().agent_iter(max_iter)

    def observe(self, agent: str) -> Any:
        if self.episode is None:
            EnvLogger.error_observe_before_reset()
        assert self.episode is not None
        vector = self._encoder.observe(self.episode.game.view_masks(self._seat_of[agent]))
        if self.flat:
            return vector
        mask = self.infos[agent]["action_mask"]
        return {"observation": vector, "action_mask": mask if mask is not _NO_ACTIONS else mask.copy()}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, read in one go (it runs at every step of every training loop).

        Before :meth:`reset` it fails as PettingZoo's other calls do, naming the
        missing ``reset()``, not with an AttributeError on ``agent_selection``.
        """
        if self.episode is None:
            raise AssertionError("reset() needs to be called before last().")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> np.ndarray:
        """The whole game for a centralized critic: every hand, the stock, the public facts (never for an agent)."""
        if self.episode is None:
            EnvLogger.error_state_before_reset()
        assert self.episode is not None
        game = self.episode.game
        hands = [game.hand(seat).mask for seat in range(self.rules.players)]
        view = game.view(0)
        stock = view.unseen().mask  # the other hands and the stock
        for hand in hands[1:]:
            stock &= ~hand
        return encode_state(hands, stock, view)

    def step(self, action: int | None) -> None:
        if self.episode is None:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self.episode is not None
        episode = self.episode
        acting = self.agent_selection
        self._events += episode.apply(agent_action(action, self._seat_of[acting], self.rules.players))
        infos = self.infos
        infos[acting]["action_mask"] = _NO_ACTIONS
        if episode.over:
            # Rewards come only at the end: until then every reward is 0 and nothing accumulates.
            for agent, value in zip(self.possible_agents, episode.returns(), strict=True):
                self.rewards[agent] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            game = episode.game
            agent = self.agent_selection = self.possible_agents[game.turn]
            infos[agent]["action_mask"] = self._mask(game)

    def _mask(self, game: Game) -> np.ndarray:
        """The acting agent's mask in its own frame: challenge 44 + k is of the seat k places after it."""
        mask = action_mask(game.legal_actions())
        seat = game.turn
        return mask if seat == 0 else relative_mask(mask, seat, self.rules.players)

    def render(self) -> str | None:
        if self.episode is None:
            EnvLogger.error_render_before_reset()
        text = "\n".join(narrate(self._events, self.rules.players)[-12:]) if self.episode is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.episode = None
