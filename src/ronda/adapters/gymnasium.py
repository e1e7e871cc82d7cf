"""Ronda as a single-agent Gymnasium environment: ``Ronda-v0``, one seat against opponents.

>>> import gymnasium
>>> import ronda.adapters.gymnasium  # registers Ronda-v0
>>> env = gymnasium.make("Ronda-v0", opponents="easy", reward="outcome", observation="flat")
>>> observation, info = env.reset(seed=7)
>>> observation.shape, env.unwrapped.action_masks().shape
((855,), (48,))

``RondaEnv(players=2, seat=0, opponents="medium", reward="outcome", observation="dict", illegal="end", dealer=None,
start=None, **variants)``; ``gymnasium.make("ronda.adapters.gymnasium:Ronda-v0", ...)`` also works without the import.

==================  ===========================================================
Actions             ``Discrete(48)``: 0-39 play a card, 40-43 declare none /
                    ronda / tringa / double_ronda, 44-47 challenge the seat
                    0-3 places after the agent's (44, itself, is never
                    legal): relative to the agent, like the observation, so
                    in seat 0 the engine's seat numbers
                    (:mod:`ronda.adapters.encoding`)
Observations        ``observation="dict"``: ``{"observation": Box(0, 1, (855,)),
                    "action_mask": Box(0, 1, (48,), int8)}``;
                    ``observation="flat"``: the ``Box(0, 1, (855,))`` alone.
                    Either way :meth:`RondaEnv.action_masks` (what sb3-contrib's
                    MaskablePPO calls) and ``info["action_mask"]`` give the mask.
                    Built from the agent's seat view only (R11), seats relative
                    to the agent; :meth:`RondaEnv.observation_pieces` names
                    each piece. On the step that ends the episode the mask
                    allows every action: none is legal, and a vector
                    environment's autoreset ignores the action that follows
                    (Gymnasium's default ``NEXT_STEP``), but a masked policy
                    must still be able to choose one.
Rewards             at the end of the episode only, from
                    :mod:`ronda.adapters.returns`: ``outcome`` (default: a
                    whole game, +1 / -1/(k-1)), ``game`` (a whole game, points
                    with the result on top), ``round`` (one round, in points)
                    or ``chances`` (one round, the change in the chance to
                    win the game)
Opponents           every other seat, in seat order, or one for all of them
                    (with 4 players the partner too): level names, ``(level,
                    settings)``, any bot, or ``policy(observation, mask) -> id``
                    (:mod:`ronda.adapters.opponents`)
Variants            any R10 variant by name: ``RondaEnv(dealer_duty=True)``
==================  ===========================================================

Episodes (:mod:`ronda.adapters.episode`): the first dealer is drawn unless
``dealer`` names one; ``reset(seed=…)`` makes the deal, the dealer and every
bot's choices the same each time (search bots get a fixed budget). An
episode begins anywhere: at given scores (``reset(options={"scores": [36,
30], "dealer": 1})``), at scores drawn at every reset (``RondaEnv(start=
{"scores": "uniform"})``, autoresets included), or at a real game's position
(``options={"record": "game.json", "decision": 57}``).

An illegal action changes nothing in the game; what follows is ``illegal``:
``"end"`` (default) ends the episode with ``illegal_reward`` (default the
lowest return of the reward) and ``info["illegal"]`` naming the problem, like
PettingZoo's ``TerminateIllegalWrapper``; ``"refuse"`` gives that reward and
lets the agent act again; ``"raise"`` raises
:class:`~ronda.engine.errors.IllegalActionError`. No action is ever replaced
by another.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine.errors import IllegalActionError
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.view import SeatView
from .encoding import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    Encoder,
    action_mask,
    agent_action,
    observation_pieces,
    relative_mask,
)
from .episode import Episode
from .opponents import (
    Chooser,
    OpponentSpec,
    check_opponent,
    check_players,
    is_level_with_settings,
    make_opponent,
    opponent_name,
    reads_view,
)
from .returns import check_reward

Observation = dict[str, np.ndarray] | np.ndarray

_ILLEGAL = ("end", "refuse", "raise")
_ANY_ACTION = np.ones(NUM_ACTIONS, dtype=np.int8)
"""The mask once the episode is over: any action, which no step takes (see the module docstring)."""
_OBSERVATIONS = ("dict", "flat")


def observation_space(flat: bool) -> spaces.Space[Any]:
    """The observation space of the environments: the vector alone, or the vector and the mask."""
    vector = spaces.Box(low=0.0, high=1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32)
    if flat:
        return vector
    mask = spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)
    return spaces.Dict({"observation": vector, "action_mask": mask})


class RondaEnv(gymnasium.Env[Observation, int]):
    """One seat of a Ronda game against opponents (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium declares it an instance field

    def __init__(
        self,
        players: int = 2,
        seat: int = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "medium",
        reward: str = "outcome",
        observation: str = "dict",
        illegal: str = "end",
        illegal_reward: float | None = None,
        dealer: int | None = None,
        render_mode: str | None = None,
        start: Mapping[str, Any] | None = None,
        **variants: Any,
    ) -> None:
        self.reward_mode = check_reward(reward)
        if observation not in _OBSERVATIONS:
            raise ValueError(f"observation must be 'dict' or 'flat', not {observation!r}")
        if illegal not in _ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(_ILLEGAL)}, not {illegal!r}")
        self.rules = Rules.from_dict({"players": players, **variants})
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < players):
            raise ValueError(f"dealer must be a seat from 0 to {players - 1} or None, not {dealer!r}")
        others = [s for s in range(players) if s != seat]
        specs = (
            list(opponents)
            if isinstance(opponents, list | tuple) and not is_level_with_settings(opponents)
            else [opponents]
        )
        if len(specs) == 1:
            specs = specs * len(others)
        if len(specs) != len(others):
            raise ValueError(f"give one opponent, or one for each of seats {others}, not {len(specs)}")
        for spec in specs:
            check_opponent(spec)
            check_players(opponent_name(spec), spec, make_opponent(spec, 0), players)
        self.seat = seat
        self.opponents = dict(zip(others, specs, strict=True))
        self.flat = observation == "flat"
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.dealer = dealer
        self.start = dict(start or {})
        """The reset options of every reset that gives none (:mod:`ronda.adapters.episode`)."""
        Episode(self.rules, self.reward_mode, random.Random(0), dealer, self.start)  # a bad start is named now
        self.render_mode = render_mode
        self.observation_space = observation_space(self.flat)
        self.action_space: spaces.Space[Any] = spaces.Discrete(NUM_ACTIONS)
        self.episode: Episode | None = None
        self._rng = random.Random()
        self._choosers: dict[int, Chooser] = {}
        self._sighted: set[int] = set()
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._ended = True
        self._encoder = Encoder()

    @property
    def game(self) -> Game | None:
        """The engine's game of the current episode (``None`` before :meth:`reset`)."""
        return None if self.episode is None else self.episode.game

    @staticmethod
    def observation_pieces() -> list[tuple[str, int, int]]:
        """(name, offset, size) of every piece of the observation vector (:mod:`ronda.adapters.encoding`)."""
        return observation_pieces()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as sb3-contrib's MaskablePPO asks for them (bool, length 48)."""
        return self._mask.astype(bool)

    def _relative(self, mask: np.ndarray) -> np.ndarray:
        """``mask`` in the agent's frame: challenge 44 + k is of the seat k places after it (seat 0: the same)."""
        return mask if self.seat == 0 else relative_mask(mask, self.seat, self.rules.players)

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        assert self.episode is not None
        game = self.episode.game
        over = self.episode.over
        self._mask = _ANY_ACTION.copy() if over else self._relative(action_mask(game.legal_actions()))
        vector = self._encoder.observe(game.view_masks(self.seat))
        info = {"action_mask": self._mask}
        if self.flat:
            return vector, info
        return {"observation": vector, "action_mask": self._mask}, info

    def _opponents_play(self) -> None:
        assert self.episode is not None
        episode = self.episode
        game = episode.game
        while not episode.over and game.turn != self.seat:
            seat = game.turn
            # An opponent that reads no view (the random level, see reads_view) is given none.
            view = game.view(seat) if seat in self._sighted else cast(SeatView, None)
            episode.apply(self._choosers[seat](view, game.legal_actions()), seat=seat)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        rng = self._rng
        given = self.start if options is None else options
        self.episode = Episode(self.rules, self.reward_mode, rng, self.dealer, given)
        self._encoder.reset()
        self._choosers = {seat: make_opponent(spec, rng.randrange(1 << 31)) for seat, spec in self.opponents.items()}
        self._sighted = {seat for seat, chooser in self._choosers.items() if reads_view(chooser)}
        self._ended = False
        self._opponents_play()
        return self._observe()

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        episode = self.episode
        if episode is None or self._ended:
            raise gymnasium.error.ResetNeeded("the episode is over or not begun: call reset() before step()")
        try:
            episode.apply(agent_action(action, self.seat, self.rules.players), seat=self.seat)
        except IllegalActionError as error:
            if self.illegal == "raise":
                raise
            observation, info = self._observe()
            info["illegal"] = str(error)
            reward = episode.lowest_return() if self.illegal_reward is None else self.illegal_reward
            self._ended = self.illegal == "end"
            return observation, reward, self._ended, False, info
        self._opponents_play()
        observation, info = self._observe()
        terminated = self._ended = episode.over
        reward = episode.returns()[self.seat] if terminated else 0.0
        return observation, reward, terminated, False, info

    def render(self) -> str | None:
        if self.episode is None:
            return None
        view = self.episode.game.view(self.seat)
        return f"hand {view.hand}  table {view.table}  scores {list(view.scores)}"


gymnasium.register(id="Ronda-v0", entry_point="ronda.adapters.gymnasium:RondaEnv")
