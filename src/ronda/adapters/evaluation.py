"""Evaluate any policy against a field of opponents on duplicate deals, with intervals: one call from a training loop.

>>> from ronda.adapters.policy import Policy, load_bot
>>> result = evaluate("policy:ronda-2p", ["random", "easy"], units=2, rounds_only=True)
>>> [(row.opponent, row.games) for row in result.rows]
[('random', 4), ('easy', 4)]
>>> 0.0 <= result.rows[0].win_rate <= 1.0
True

The policy and the opponents may be anything :mod:`ronda.adapters.opponents`
plays: a level name, ``(level, settings)``, a bot, a function
``policy(observation, mask) -> action id``, and also a checkpoint: a policy
file (``"runs/best.npz"``, ``"policy:ronda-2p"``, :mod:`ronda.adapters.policy`)
or any model with sb3's ``predict(observation, action_masks=...)`` (a
MaskablePPO). A model whose ``predict`` takes no ``action_masks`` (a plain
PPO) is refused before anything is played: nothing keeps it from an illegal
action, and a game has no forfeit for one; wrap it in a policy function if you
mean to. Each sees its seat's view only (R11).

Games are the arena's duplicate games (:mod:`ronda.arena.match`): each *unit*
is a stream of decks played once per seating, the policy in every seat in
turn, so what the policy was dealt its opponent is dealt too; equal seeds
give equal deals, so two checkpoints evaluated with one seed meet the same
cards. The figures are the arena's (:mod:`ronda.arena.stats`,
:class:`ronda.arena.runner.Tally`): the policy's share of the decided games
(or rounds, ``rounds_only``) with Wilson's 95 % interval, and its mean points
margin per round over units with a 95 % interval.

``rounds_only`` plays each unit's first round under the rules as given, their
target included (41 by default), so a search opponent values it as the first
round of that game. ``ronda arena --rounds`` plays first rounds at a target of
10,000 instead (no round cut short by a win), which such a bot values a little
differently (2 of 472 of ``hard``'s choices, ``benchmarks/rounds_target.py``):
pass ``target=10000`` to play the arena's rounds exactly.

``trajectories=True`` also returns every decision of the policy, in its own
frame (the observation, the mask and the action id it would take in
``Ronda-v0``), with the game's return under ``reward``: a self-play loop
learns from the games it evaluated on.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..arena.match import MatchSpec, play_seated
from ..arena.runner import Tally
from ..arena.stats import interval, mean_interval, wilson_interval
from ..bots import Bot
from ..engine.actions import Action
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.view import SeatView
from . import policy as _policy  # noqa: F401 - registers the policy:PATH bots
from .encoding import action_id, action_mask, observe, relative_mask
from .opponents import Chooser, check_players, is_level_with_settings, make_opponent, opponent_name
from .returns import Reward, check_reward, forfeiting_side, seat_returns


@dataclass
class Trajectory:
    """One game of the evaluated policy: its decisions in its own frame and the return it got."""

    seat: int
    observations: np.ndarray
    """``(decisions, 855)`` float32."""
    masks: np.ndarray
    """``(decisions, 48)`` int8, in the policy's frame (challenges relative to its seat)."""
    actions: np.ndarray
    """``(decisions,)`` the action ids taken, in the same frame."""
    reward: float
    """The game's return to the policy's seat (:mod:`ronda.adapters.returns`)."""


@dataclass
class Row:
    """The policy against one opponent of the field."""

    opponent: str
    games: int
    wins: int
    losses: int
    win_rate: float
    """Wins over decided games (rounds with ``rounds_only``); 0.5 when none was decided."""
    win_interval: tuple[float, float]
    """Wilson's 95 % interval of ``win_rate``."""
    margin: float
    """Mean points per round, the policy's minus the opponent's."""
    margin_interval: tuple[float, float] | None
    """Its 95 % interval over units; ``None`` from one unit, which has no spread to measure."""


@dataclass
class Evaluation:
    """Every row, and the trajectories when they were asked for."""

    rows: list[Row]
    trajectories: list[Trajectory] = field(default_factory=list)
    counted: str = "games"
    """What the rows count: ``games``, or ``rounds`` (``rounds_only``: each game is one round)."""

    @property
    def win_rate(self) -> float:
        """The share of decided games (or rounds) won over the whole field: one number to keep the best by."""
        wins, losses = sum(r.wins for r in self.rows), sum(r.losses for r in self.rows)
        return wins / (wins + losses) if wins + losses else 0.5

    def table(self) -> str:
        """The rows as a small text table."""
        # "won" is out of the decided ones: a round both sides end level is neither won nor lost.
        lines = [f"{'opponent':<20} {self.counted:>6} {'won/decided':>11} {'95% interval':>15} {'margin/round':>14}"]
        for r in self.rows:
            low, high = r.win_interval
            spread = "[no interval]" if r.margin_interval is None else "[{:+.2f}, {:+.2f}]".format(*r.margin_interval)
            lines.append(
                f"{r.opponent:<20} {r.games:>6} {r.wins:>5}/{r.wins + r.losses:<5} {r.win_rate:>5.0%} "
                f"[{low:.0%}, {high:.0%}] {r.margin:>+7.2f} {spread}"
            )
        return "\n".join(lines)


def evaluate(
    policy: object,
    opponents: Sequence[object] | object = ("medium",),
    *,
    units: int = 20,
    players: int = 2,
    seed: int = 0,
    rounds_only: bool = False,
    trajectories: bool = False,
    reward: str = "outcome",
    **variants: Any,
) -> Evaluation:
    """Play ``policy`` against each opponent of the field in ``units`` duplicate units; see the module docstring.

    With 2 players a unit is two games (seats swapped); with 3, three (the
    opponent in the two other seats); with 4, two (the policy and its partner
    against two of the opponent). A bad policy or opponent is named before
    anything is played.
    """
    rules = Rules.from_dict({"players": players, **variants})
    check_reward(reward)
    field_ = (
        list(opponents)
        if isinstance(opponents, list | tuple) and not is_level_with_settings(opponents)
        else [opponents]
    )
    if not field_:  # an empty table would read as a policy measured against nobody, not as a mistake
        raise ValueError("evaluate() needs at least one opponent, like ['easy', 'medium']: the field given is empty")
    for spec in (policy, *field_):  # each is named before anything is played
        check_players(opponent_name(spec), spec, _chooser(spec, 0), players)
    result = Evaluation([], counted="rounds" if rounds_only else "games")
    for opponent in field_:
        entrants = 2 if players == 4 else players
        spec = MatchSpec(
            entrants=("policy", *[opponent_name(opponent)] * (entrants - 1)),
            rules=rules,
            rounds_only=rounds_only,
            seed=seed,
        )
        tally = Tally(entrants)
        for unit in range(units):
            games = []
            for seating_index, seating in enumerate(spec.seatings()):
                recorders: list[_Seat] = []
                bots: list[Bot] = []
                for seat, entrant in enumerate(seating):
                    bot_seed = hash((seed, unit, seating_index, seat)) & 0xFFFFFFFF  # the arena's seeds
                    chooser = _chooser(policy if entrant == 0 else opponent, bot_seed)
                    bot = _Seat(
                        opponent_name(policy if entrant == 0 else opponent), chooser, trajectories and entrant == 0
                    )
                    bots.append(bot)
                    if entrant == 0:
                        recorders.append(bot)
                game, played = play_seated(spec, unit, seating_index, bots)
                games.append(played)
                if trajectories:
                    result.trajectories += _trajectories(game, recorders, check_reward(reward))
            tally.add(games)
        wins, losses = _wins_and_losses(tally, rounds_only)
        margins = [float(np.mean(m)) for m in zip(*(tally.unit_margins(0, e) for e in range(1, entrants)), strict=True)]
        mean = mean_interval(margins)[0] if margins else 0.0
        spread = interval(margins)
        result.rows.append(
            Row(
                opponent=opponent_name(opponent),
                games=len(tally.games),
                wins=wins,
                losses=losses,
                win_rate=wins / (wins + losses) if wins + losses else 0.5,
                win_interval=wilson_interval(wins, wins + losses) if wins + losses else (0.0, 1.0),
                margin=mean,
                margin_interval=None if spread is None else (spread[0], spread[1]),
            )
        )
    return result


def _wins_and_losses(tally: Tally, rounds_only: bool) -> tuple[int, int]:
    """The policy's (entrant 0's) decided games, or rounds, won and lost: against every other entrant at once."""
    if tally.entrants == 2:
        return tally.head_to_head(0, 1, rounds_only)
    if not rounds_only:
        return tally.game_wins(0), sum(tally.game_wins(e) for e in range(1, tally.entrants))
    rounds = [points for game in tally.games for points in game.round_points]
    return (
        sum(all(p[0] > q for q in p[1:]) for p in rounds),
        sum(any(q > p[0] for q in p[1:]) for p in rounds),
    )


class _Seat:
    """A seat's player for the arena: any opponent kind as a bot, keeping its decisions when asked to."""

    def __init__(self, name: str, chooser: Chooser, record: bool) -> None:
        self.name = name
        self._chooser = chooser
        self.record = record
        self.seat = -1
        self.decisions: list[tuple[np.ndarray, np.ndarray, int]] = []

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        action = self._chooser(view, legal)
        if self.record:
            players = view.rules.players
            self.seat = view.seat
            number = action_id(action)
            relative = 44 + (number - 44 - view.seat) % players if number >= 44 else number
            self.decisions.append((observe(view), relative_mask(action_mask(legal), view.seat, players), relative))
        return action


def _trajectories(game: Game, recorders: list[_Seat], reward: Reward) -> list[Trajectory]:
    rules = game.rules
    forfeit = None if game.winner is None else forfeiting_side(rules, game.events)
    returns = seat_returns(rules, reward, game.scores, game.winner, forfeit=forfeit)
    made = []
    for recorder in recorders:
        if not recorder.decisions:
            continue
        observations, masks, actions = zip(*recorder.decisions, strict=True)
        made.append(
            Trajectory(
                seat=recorder.seat,
                observations=np.stack(observations),
                masks=np.stack(masks),
                actions=np.array(actions, dtype=np.int64),
                reward=returns[recorder.seat],
            )
        )
    return made


def _chooser(spec: object, seed: int) -> Chooser:
    """Any policy kind as a chooser: checkpoints (policy files, sb3 models) first, then the opponents' kinds."""
    if isinstance(spec, Path) or (isinstance(spec, str) and spec.endswith(".npz")):
        spec = f"policy:{spec}"
    predict = getattr(spec, "predict", None)
    if predict is not None and not isinstance(spec, Bot):
        if not _takes_masks(predict):
            raise ValueError(
                f"{opponent_name(spec)}.predict() takes no action_masks, so it may choose an illegal action mid-game: "
                "give a masked model (sb3-contrib's MaskablePPO) or a function policy(observation, mask) -> action id"
            )
        space = getattr(spec, "observation_space", None)
        spec = _predictor(predict, wants_dict="action_mask" in getattr(space, "spaces", {}))
    return make_opponent(spec, seed)


def _takes_masks(predict: Callable[..., Any]) -> bool:
    """Whether a model's ``predict`` takes ``action_masks``: a plain PPO's does not, a MaskablePPO's does.

    The arena has no forfeit for an illegal action, so a model that may
    choose one is refused before anything is played rather than half-way.
    """
    try:
        parameters = inspect.signature(predict).parameters.values()
    except (TypeError, ValueError):  # no signature to read: let the call tell
        return True
    return any(p.name == "action_masks" or p.kind is p.VAR_KEYWORD for p in parameters)


def _predictor(predict: Callable[..., Any], wants_dict: bool) -> Callable[[np.ndarray, np.ndarray], int]:
    """An sb3 model's ``predict`` as a policy function: deterministic, masked, fed the observation it learned on."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        given: Any = {"observation": observation, "action_mask": mask} if wants_dict else observation
        action, _ = predict(given, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return policy


__all__ = ["Evaluation", "Row", "Trajectory", "evaluate"]
