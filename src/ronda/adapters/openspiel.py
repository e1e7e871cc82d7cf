"""Ronda for OpenSpiel: the Python game ``python_ronda``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_ronda(players=3,chain_points=1_6_15)")
>>> str(game) == str(pyspiel.load_game(str(game)))
True
>>> game.min_utility(), game.max_utility()  # a whole game: +1 to the winner
(-0.5, 1.0)
>>> one_round = pyspiel.load_game("python_ronda(players=3,reward=round)")
>>> one_round.min_utility(), one_round.max_utility()  # one round, in points
(-41.0, 82.0)

Parameters (every one survives ``str(game)`` → ``load_game``, pickling and
``serialize_game_and_state``):

==========================  ==================================================
``players``                 2, 3 or 4
``reward``                  ``outcome`` (default) or ``game``: an episode is
                            a whole game; ``round`` or ``chances``: one round
                            (:mod:`ronda.adapters.returns` says what each pays)
``max_rounds``              with ``game``/``outcome``, the most rounds an
                            episode lasts (default 50; a game cut short has no
                            winner); a game is won in about six rounds
``target``                  R9.1, default 41
``chain_points``            ``1_5_10`` (default) or ``1_6_15`` (R5.3); ``1,6,15``
                            is accepted in a parameter dict and written
                            ``1_6_15``, since a comma cannot be read back
every other R10 variant     ``auto_declare``, ``ace_high``, ``dealer_duty``,
                            ``four_card_hands``, ``transfer_scoring`` (bool),
                            ``undeclared_ronda_penalty`` (1 or 5)
``scores``                  where every episode begins: one score per side,
                            ``36_30`` (default: 0 each), each below the target;
                            or ``uniform``: chance draws each side's score,
                            uniformly below the target, before the deal
``dealer``                  the first round's dealer (default -1: the last
                            seat, R3.2)
``first_round``             the first round's number (default 0)
==========================  ==================================================

An episode also begins anywhere through two state constructors of the game
(their states pickle and serialize like any other):
``game.new_initial_state_at(scores=[36, 30], dealer=0, round=5)`` (draw the
scores from any distribution and pass them), and
``game.state_from_record(record, decision)``, a real game's position: the
record's round holding that decision, begun at its scores, its deck dealt by
chance, its decisions up to that one taken (earlier rounds count through
the scores).

A bad parameter raises ``pyspiel.SpielError`` naming it, like any OpenSpiel game.

The default reward is PettingZoo's and Gymnasium's, ``outcome``, so that the
three libraries, left at their defaults, optimise the same thing: winning the
game that ``python_ronda`` (long name "Python Ronda") names, not one round of
it. Search over single rounds, as OpenSpiel's ISMCTS example does, asks for
``reward=round``. (Before 2026-11-28 the default was ``round``: a game string
saved then without ``reward=`` now reads as a whole game; add ``reward=round``
to it.)

- **Chance** deals explicitly: each chance node picks the next card of the
  round's deck in dealing order (RECORD.md), uniformly among the cards left.
  For an opening-table position only cards that keep the table valid are
  offered (a rank not yet up, not the fourth of a run). That is exactly the
  distribution of R3.4's "put it back and shuffle": a turned-up card is
  uniform over the stock, so the accepted one is uniform over the allowed.
  The first dealer is the last seat (R3.2); the deal passes as in play.
- **Actions** are :mod:`ronda.adapters.encoding`'s 48 ids, sorted.
- **Returns** are :func:`ronda.adapters.returns.seat_returns`; the utility
  bounds are :func:`~ronda.adapters.returns.return_bounds`, true bounds.
  ``max_game_length`` counts decisions: per round every card is played once,
  every seat declares once a deal, and a declaration can be challenged once.
- **Information state** (perfect recall): the string is the player's seat,
  then every public event of the episode in order with the player's own hand
  written after each deal; the tensor is the round so far in full (the
  player's hands as dealt, every card played in order, every challenge and
  declaration) followed by the observation tensor, which carries earlier
  rounds through the scores. **Observation**: the seat view alone
  (:func:`ronda.adapters.encoding.observe`) and a readable line of it.
- ``resample_from_infostate`` places the cards the player cannot see at
  random (hand sizes and shown hands respected): OpenSpiel's Python ISMCTS
  runs on it as it is. OpenSpiel's ``evaluate_bots`` asks every bot to
  ``restart_at`` the first state, which the Python ``ISMCTSBot`` does not
  do: wrap it in :class:`Stateless`. :class:`RondaBot` plays a ronda bot level
  in OpenSpiel.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import fields
from typing import Any

import numpy as np
import pyspiel

from ..bots import Bot, make_bot
from ..engine.actions import action_from_record
from ..engine.cards import NUM_CARDS, CardSet, card_name, parse_card, rank_of
from ..engine.combinations import DECLARATIONS
from ..engine.deck import is_run_of_four
from ..engine.errors import RondaError, RulesError
from ..engine.events import Event
from ..engine.game import OVER, WAITING, Game
from ..engine.presets import parse_chain_points
from ..engine.record import load_record, replay
from ..engine.rules import CHAIN_POINTS_CHOICES, Rules
from ..engine.view import PublicView, SeatView
from .encoding import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    action_id,
    action_mask,
    describe_action,
    id_action,
    observation_pieces,
    observe,
)
from .returns import REWARDS, ROUND_REWARDS, Reward, forfeiting_side, return_bounds, seat_returns

_DEFAULTS: dict[str, Any] = {
    "players": Rules().players,
    "reward": "outcome",
    "max_rounds": 50,
    # Every variant of Rules by its name and default, a tuple (chain_points) written 1_5_10: a new variant is a
    # parameter without a word here.
    **{
        f.name: "_".join(map(str, v)) if isinstance(v := getattr(Rules(), f.name), tuple) else v
        for f in fields(Rules)
        if f.name != "players"
    },
    "scores": "",
    "dealer": -1,
    "first_round": 0,
}
_START = ("scores", "dealer", "first_round")
"""The parameters that say where an episode begins, not which rules it is played by."""

_GAME_TYPE = pyspiel.GameType(
    short_name="python_ronda",
    long_name="Python Ronda",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# The information-state tensor's round block (see the module docstring).
_DEALS = 6
_PLAY_SLOTS = 40
_DEALT = _DEALS * 40
_PLAYS = _PLAY_SLOTS * 40
_CHALLENGES = _PLAY_SLOTS * 4
_DECLARED = _DEALS * 4 * len(DECLARATIONS)
ROUND_BLOCK = _DEALT + _PLAYS + _CHALLENGES + _DECLARED
INFORMATION_STATE_SIZE = ROUND_BLOCK + OBSERVATION_SIZE


def chain_points_text(value: object) -> str:
    """``chain_points`` as a game-string value: ``1_5_10`` or ``1_6_15``; ``SpielError`` for anything else.

    >>> chain_points_text("1,6,15"), chain_points_text((1, 5, 10))
    ('1_6_15', '1_5_10')
    """
    points: tuple[int, ...] = ()
    if isinstance(value, str):  # the command line's reader: one spelling of a variant's text everywhere
        with contextlib.suppress(RulesError):
            points = parse_chain_points(value)
    elif isinstance(value, (list, tuple)) and all(type(v) is int for v in value):
        points = tuple(value)
    if points not in CHAIN_POINTS_CHOICES:
        raise pyspiel.SpielError(f"python_ronda: chain_points must be 1_5_10 or 1_6_15, not {value!r}")
    return "_".join(str(p) for p in points)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The engine's Rules for OpenSpiel parameters; ``SpielError`` naming a bad one."""
    values = {k: v for k, v in params.items() if k in Rules.__dataclass_fields__}
    values["chain_points"] = tuple(int(p) for p in chain_points_text(values.get("chain_points", "1_5_10")).split("_"))
    try:
        return Rules.from_dict(values)
    except RondaError as error:
        raise pyspiel.SpielError(f"python_ronda: {error}") from None


Start = tuple[tuple[int, ...], int, int]
"""Where an episode begins: the scores (one per side; ``()``: drawn by chance), the first dealer, the first round."""


def _start_from_params(rules: Rules, params: dict[str, Any]) -> Start:
    """The start the ``scores``, ``dealer`` and ``first_round`` parameters give; ``SpielError`` naming a bad one."""
    text = params["scores"]
    if text == "uniform":
        start: Start = ((), rules.players - 1 if params["dealer"] == -1 else params["dealer"], params["first_round"])
        _check_start(rules, start)
        return start
    try:
        scores = tuple(int(p) for p in str(text).replace(",", "_").split("_") if p.strip()) if text else ()
    except ValueError:
        raise pyspiel.SpielError(f"python_ronda: scores are one number per side, like 36_30, not {text!r}") from None
    scores = scores or (0,) * rules.sides
    params["scores"] = "_".join(map(str, scores)) if any(scores) else ""
    dealer = params["dealer"]
    start = (scores, rules.players - 1 if dealer == -1 else dealer, params["first_round"])
    _check_start(rules, start)
    return start


def _check_start(rules: Rules, start: Start) -> None:
    scores, dealer, first = start
    try:
        Game.from_scores(rules, list(scores or (0,) * rules.sides), round=first, decks=[], dealer=dealer)
    except RondaError as error:
        raise pyspiel.SpielError(f"python_ronda: {error}") from None


def _record_round(rules: Rules, record: dict[str, Any], decision: int) -> tuple[PublicView, list[int], list[int]]:
    """The round of ``record`` holding ``decision``: its start (a public view), its deck and its decisions before it."""
    if not isinstance(decision, int) or isinstance(decision, bool) or decision < 0:
        raise ValueError(f"the decision is a whole number from 0, not {decision!r}")
    rounds = record.get("rounds") if isinstance(record, dict) else None
    if not isinstance(rounds, list) or not rounds:
        raise ValueError("a record needs a non-empty list of rounds")
    left = decision
    for index, rnd in enumerate(rounds):
        actions = rnd.get("actions", []) if isinstance(rnd, dict) else []
        if left < len(actions) or index == len(rounds) - 1:
            break
        left -= len(actions)
    if left > len(actions):
        raise ValueError(
            f"the record holds {decision - left + len(actions)} decisions: there is no decision {decision}"
        )
    game = replay({**record, "rounds": [*rounds[:index], {**rnd, "actions": []}]})
    if game.rules != rules:
        raise ValueError(f"the record is played under {game.rules}, this game under {rules}")
    at_round = game.public_view()
    taken = replay({**record, "rounds": [*rounds[:index], {**rnd, "actions": actions[:left]}]})
    if taken.phase in (OVER, WAITING):
        raise ValueError(f"no decision {decision} is due in the record: its game or round is over by then")
    ids = [action_id(action) for _, action in (action_from_record(entry) for entry in actions[:left])]
    return at_round, [parse_card(c) if isinstance(c, str) else c for c in rnd["deck"]], ids


def _decisions_per_round(rules: Rules) -> int:
    """At most: every card played once, each seat declares once a deal, each declaration challenged once (R8.8)."""
    plays = NUM_CARDS - rules.opening_table_size
    declarations = 0 if rules.auto_declare else rules.players * len(rules.deal_sizes())
    return plays + 2 * declarations


class RondaGame(pyspiel.Game):  # type: ignore[misc]
    """The game; its GameInfo is built per instance, from the players, the reward and the variants."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        unknown = sorted(set(params) - set(_DEFAULTS))
        if unknown:
            raise pyspiel.SpielError(f"python_ronda: unknown parameter {unknown[0]!r} (known: {', '.join(_DEFAULTS)})")
        params["chain_points"] = chain_points_text(params["chain_points"])
        self.rules = rules_from_params(params)
        if params["reward"] not in REWARDS:
            raise pyspiel.SpielError(
                f"python_ronda: reward must be one of {', '.join(REWARDS)}, not {params['reward']!r}"
            )
        self.reward: Reward = params["reward"]
        max_rounds = params["max_rounds"]
        if not isinstance(max_rounds, int) or isinstance(max_rounds, bool) or not 1 <= max_rounds <= 1000:
            raise pyspiel.SpielError(
                f"python_ronda: max_rounds must be a whole number from 1 to 1000, not {max_rounds!r}"
            )
        self.rounds = 1 if self.reward in ROUND_REWARDS else max_rounds
        self.start = _start_from_params(self.rules, params)
        low, high = return_bounds(self.rules, self.reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS if self.start[0] else max(NUM_CARDS, self.rules.target),
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=_decisions_per_round(self.rules) * self.rounds,
        )
        # Only what differs from the defaults goes in the game string: python_ronda(players=3).
        super().__init__(_GAME_TYPE, info, {k: v for k, v in params.items() if v != _DEFAULTS[k]})

    def new_initial_state(self) -> RondaState:
        return RondaState(self)

    def new_initial_state_at(
        self, scores: list[int] | tuple[int, ...] | None = None, dealer: int | None = None, round: int = 0
    ) -> RondaState:
        """The first state of an episode that begins at ``scores`` (one per side), ``dealer`` dealing, round ``round``.

        Chance then deals the round as usual. ``SpielError`` names a bad value.
        """
        scores = tuple(scores) if scores is not None else (0,) * self.rules.sides
        dealer = self.rules.players - 1 if dealer is None else dealer
        start = (scores, dealer, round)
        _check_start(self.rules, start)
        return RondaState(self, start)

    def state_from_record(self, record: dict[str, Any] | str, decision: int) -> RondaState:
        """The state of a real game (a RECORD.md record, or its file) where its ``decision``-th decision is due.

        The episode is the record's round that holds the decision (counted over
        the whole record from 0), begun at that round's scores and dealer; its
        deck is dealt by chance, card by card, and its decisions before that
        one are taken. ``SpielError`` names what does not fit this game.
        """
        try:
            record = load_record(record) if isinstance(record, str) else record
            at_round, deck, actions = _record_round(self.rules, record, decision)
        except (RondaError, ValueError) as error:
            raise pyspiel.SpielError(f"python_ronda: {error}") from None
        state = self.new_initial_state_at(list(at_round.scores), at_round.dealer, at_round.round)
        for action in [*deck, *actions]:
            state.apply_action(action)
        return state

    @staticmethod
    def observation_pieces() -> list[tuple[str, int, int]]:
        """(name, offset, size) of every piece of the plain observation (:mod:`ronda.adapters.encoding`)."""
        return observation_pieces()

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RondaObserver:
        """The observer of ``iig_obs_type`` (:class:`RondaObserver`); none given: the plain observation."""
        return RondaObserver(iig_obs_type, params)


class StateData:
    """The Python side of a state, in one object so that OpenSpiel's clone and pickle stay cheap.

    OpenSpiel clones a Python state by deep-copying each attribute, and
    serializes it by pickling them: this object copies the engine the
    engine's fast way and shares the (immutable) events, and pickles as the
    list of actions it was built from, replayed when it is read back.
    """

    def __init__(self, rules: Rules, reward: Reward, rounds: int, start: Start) -> None:
        self.rules = rules
        self.reward = reward
        self.rounds = rounds
        self.start = start
        """The scores, the first dealer and the first round's number the episode begins at."""
        self.drawn: list[int] = []
        """The scores chance has drawn so far, side by side, when the start's are drawn (``scores=uniform``)."""
        self.deck: list[int] = []
        """The cards dealt so far of the round being dealt (chance)."""
        self.engine: Game | None = None
        self.events: list[Event] = []
        """Every public event of the episode, in order."""
        self.hands: dict[int, tuple[int, ...]] = {}
        """After the event at this index (a deal), each seat's hand as dealt."""
        self.round_actions: list[int] = []
        """The decisions of the round in progress (action ids), in order."""
        self.actions: list[int] = []
        """Every action of the episode, chance included: what a pickle holds."""

    def __deepcopy__(self, memo: dict[int, Any]) -> StateData:
        other = StateData.__new__(StateData)
        other.rules, other.reward, other.rounds, other.start = self.rules, self.reward, self.rounds, self.start
        other.deck = self.deck[:]
        other.drawn = self.drawn[:]
        other.engine = None if self.engine is None else self.engine.copy(history=False)
        other.events = self.events[:]
        other.hands = dict(self.hands)
        other.round_actions = self.round_actions[:]
        other.actions = self.actions[:]
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.rules.to_dict(), self.reward, self.rounds, self.actions, self.start))

    def dealing(self) -> bool:
        """Chance acts: it draws the scores (``scores=uniform``), or deals."""
        return self.engine is None or self.engine.phase == WAITING

    def drawing(self) -> bool:
        """Chance is drawing the scores the episode begins at, one side at a time."""
        return self.engine is None and not self.start[0] and len(self.drawn) < self.rules.sides

    def began_at(self) -> tuple[int, ...]:
        """The scores the episode began at (drawn ones too; zeros while they are being drawn)."""
        return self.start[0] or (tuple(self.drawn) if len(self.drawn) == self.rules.sides else (0,) * self.rules.sides)

    def start_lines(self) -> list[str]:
        """The information-state line of a start other than 0-0: states of one game may begin at other scores."""
        if not self.start[0] or any(self.start[0]):
            return [f"scores at the start: {list(self.start[0] or self.drawn)}"]
        return []

    def terminal(self) -> bool:
        engine = self.engine
        if engine is None:
            return False
        return engine.phase == OVER or (engine.phase == WAITING and engine.round - self.start[2] + 1 >= self.rounds)

    def apply(self, action: int) -> None:
        if self.drawing():
            self.drawn.append(action)
        elif self.dealing():
            self.deck.append(action)
            if len(self.deck) == NUM_CARDS:
                if self.engine is None:
                    _, dealer, first = self.start
                    self.engine = Game.from_scores(self.rules, self.began_at(), round=first, decks=[], dealer=dealer)
                self.round_actions = []
                self._note(self.engine.add_deck(self.deck))
                self.deck = []
        else:
            assert self.engine is not None
            self._note(self.engine.apply(id_action(action)))
            self.round_actions.append(action)
        self.actions.append(action)

    def _note(self, events: list[Event]) -> None:
        """Keep the public events, and each seat's hand as dealt at every deal."""
        assert self.engine is not None
        engine = self.engine
        for event in events:
            self.events.append(event)
            if event.TYPE == "deal":
                self.hands[len(self.events) - 1] = tuple(engine.hand(seat).mask for seat in range(self.rules.players))

    def allowed_cards(self) -> list[int]:
        """The cards chance may deal next: any card left, but the opening table stays valid (R3.4).

        While the scores are drawn (``scores=uniform``): every score below the target, uniformly.
        """
        if self.drawing():
            return list(range(self.rules.target))
        left = sorted(set(range(NUM_CARDS)) - set(self.deck))
        start = self.rules.players * self.rules.deal_sizes()[0]
        position = len(self.deck)
        if not start <= position < start + self.rules.opening_table_size:
            return left
        up = self.deck[start:]
        ranks = {rank_of(c) for c in up}
        allowed = [c for c in left if rank_of(c) not in ranks]
        if len(up) == 3:
            allowed = [c for c in allowed if not is_run_of_four([*ranks, rank_of(c)])]
        return allowed

    def round_block(self, view: SeatView, out: np.ndarray) -> None:
        """The round so far as ``view``'s seat knows it, in full, into ``out`` (length :data:`ROUND_BLOCK`).

        Play k of a round is made by seat ``dealer + 1 + k`` (every deal is a
        whole number of turns round the table), and in a deal the seats
        declare in that order too, so actions alone say who took them.
        """
        out[:] = 0.0
        n = self.rules.players
        me = view.seat
        sizes = self.rules.deal_sizes()
        first = (view.dealer + 1) % n
        plays = deal = declared = 0
        deal_end = sizes[0] * n
        for action in self.round_actions:
            if action < 40:
                if (first + plays) % n == me:
                    out[deal * 40 + action] = 1.0
                out[_DEALT + plays * 40 + action] = 1.0
                plays += 1
                if plays == deal_end and deal + 1 < len(sizes):
                    deal += 1
                    deal_end += sizes[deal] * n
                    declared = 0
            elif action < 44:
                slot = (first + declared - me) % n
                out[_DEALT + _PLAYS + _CHALLENGES + (deal * 4 + slot) * len(DECLARATIONS) + action - 40] = 1.0
                declared += 1
            else:
                out[_DEALT + _PLAYS + plays * 4 + (action - 44 - me) % n] = 1.0
        for card in view.hand:
            out[deal * 40 + card] = 1.0


def _replayed(
    rules: dict[str, Any], reward: Reward, rounds: int, actions: list[int], start: Start | None = None
) -> StateData:
    rules_ = Rules.from_dict(rules)
    episode = StateData(rules_, reward, rounds, start or ((0,) * rules_.sides, rules_.players - 1, 0))
    for action in actions:
        episode.apply(action)
    return episode


class RondaState(pyspiel.State):  # type: ignore[misc]
    """A state: chance deals each round's deck card by card, then the engine plays it."""

    def __init__(self, game: RondaGame, start: Start | None = None) -> None:
        super().__init__(game)
        self.episode = StateData(game.rules, game.reward, game.rounds, game.start if start is None else start)

    @property
    def engine(self) -> Game | None:
        """The engine's game (``None`` while the first deck is being dealt)."""
        return self.episode.engine

    @property
    def rules(self) -> Rules:
        return self.episode.rules

    # ---------------------------------------------------------------- flow

    def current_player(self) -> int:
        episode = self.episode
        if episode.terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if episode.dealing():
            return int(pyspiel.PlayerId.CHANCE)
        assert episode.engine is not None
        return episode.engine.turn

    def is_terminal(self) -> bool:
        return self.episode.terminal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        allowed = self.episode.allowed_cards()
        return [(card, 1.0 / len(allowed)) for card in allowed]

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.episode.engine
        assert engine is not None and player == engine.turn
        return [int(i) for i in np.flatnonzero(action_mask(engine.legal_actions()))]

    def _apply_action(self, action: int) -> None:
        self.episode.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.episode.drawing():
                return f"side {len(self.episode.drawn)} begins at {int(action)}"
            return f"deal {card_name(int(action))}"
        return describe_action(int(action))

    def returns(self) -> list[float]:
        episode = self.episode
        if not episode.terminal():
            return [0.0] * episode.rules.players
        engine = episode.engine
        assert engine is not None
        forfeit = None if engine.winner is None else forfeiting_side(episode.rules, episode.events)
        return list(
            seat_returns(
                episode.rules,
                episode.reward,
                engine.scores,
                engine.winner,
                start=episode.began_at(),
                forfeit=forfeit,
                dealers=(episode.start[1], engine.dealer),
            )
        )

    # ------------------------------------------------------- what a player knows

    def information_state_string(self, player: int | None = None) -> str:
        player = self.current_player() if player is None else player
        episode = self.episode
        lines = [f"seat {player}", *episode.start_lines()]
        hands = episode.hands
        for index, event in enumerate(episode.events):
            lines.append(json.dumps(event.to_json(), separators=(",", ":")))
            dealt = hands.get(index)
            if dealt is not None:
                lines.append(f"my hand {CardSet(dealt[player])}")
        if episode.deck:
            lines.append(f"dealing: {len(episode.deck)} cards")
        elif episode.drawing():
            lines.append(f"drawing the scores: {len(episode.drawn)} drawn")
        return "\n".join(lines)

    def observation_string(self, player: int | None = None) -> str:
        player = self.current_player() if player is None else player
        engine = self.episode.engine
        if engine is None:
            return f"seat {player}; dealing"
        return describe_view(engine.view(player))

    def information_state_tensor_into(self, player: int, out: np.ndarray) -> None:
        """The round so far in full, then the observation (see the module docstring)."""
        engine = self.episode.engine
        if engine is None:
            out[:] = 0.0
            return
        view = engine.view(player)
        self.episode.round_block(view, out[:ROUND_BLOCK])
        observe(view, out[ROUND_BLOCK:])

    # ---------------------------------------------------------------- ISMCTS

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> RondaState:
        """A state the player cannot tell from this one: its unseen cards placed again at random."""
        other: RondaState = self.clone()
        episode = other.episode
        if episode.engine is None or episode.dealing() or episode.terminal():
            return other  # nothing hidden is in play
        rng = random.Random(int(probability_sampler() * (1 << 62)))
        episode.engine = guess_game(episode.engine.view(player), rng)
        # Earlier deals were played out in public; this deal's hands of the
        # other seats are the guessed ones, as dealt.
        last = max(episode.hands)
        dealt = list(episode.hands[last])
        for seat in range(episode.rules.players):
            if seat != player:
                dealt[seat] = episode.engine.dealt_hand(seat).mask
        episode.hands[last] = tuple(dealt)
        return other

    def __str__(self) -> str:
        engine = self.episode.engine
        if engine is None:
            drawn = f", scores drawn {self.episode.drawn}" if self.episode.drawn else ""
            return f"dealing: {len(self.episode.deck)} cards{drawn}"
        return repr(engine)


def guess_game(view: SeatView, rng: random.Random) -> Game:
    """A game ``view``'s seat cannot tell from the real one: the cards it cannot see placed at random."""
    hidden = list(view.unseen())
    rng.shuffle(hidden)
    hands = {}
    for seat in range(view.rules.players):
        if seat != view.seat and view.shown[seat] is None:
            size = view.hand_sizes[seat]
            hands[seat] = CardSet(hidden[:size])
            hidden = hidden[size:]
    return Game.from_view(view, hands, hidden)


def describe_view(view: SeatView) -> str:
    """One readable line of what a seat knows (the observation string)."""
    return f"seat {view.seat} of {view.rules.players}, {describe_public(view, hand=view.hand)}"


def describe_public(view: PublicView, hand: CardSet | None = None) -> str:
    """One readable line of the public facts (and of ``hand``, when given): the public observation string."""
    deal_plays = ", ".join(f"{s} {card_name(c)}" for s, c in view.plays[view.deal_start :]) or "-"
    declared = ", ".join(
        f"{s} {d or '?'}{' exposed' if view.exposed[s] else ''}" for s, d in enumerate(view.declarations)
    )
    shown = ", ".join(f"{s} {cards}" for s, cards in enumerate(view.shown) if cards is not None) or "-"
    chain = "-" if view.chain is None else f"{CardSet(view.chain.cards)} of side {view.chain.side}"
    last = "-" if view.last_capture_side is None else f"side {view.last_capture_side}"
    mine = "" if hand is None else f"hand {hand} | "
    return (
        f"dealer {view.dealer}, round {view.round} "
        f"deal {view.deal + 1}/{view.deals_in_round}, {view.phase} turn {view.turn} | "
        f"{mine}table {view.table} | this deal: {deal_plays} | "
        f"declared: {declared} | shown: {shown} | chain: {chain} | last capture: {last} | "
        f"piles {list(view.pile_sizes)} stock {view.stock} | scores {list(view.scores)}"
    )


def spectator_view(view: PublicView) -> SeatView:
    """The public facts as a seat view of nobody: seat 0's frame, an empty hand (the public observation's input).

    Every seat computes the same one, and it holds no card a seat may not see
    (R11): :func:`~ronda.adapters.encoding.observe` then encodes the public
    facts alone, in absolute seats, with the hand's pieces empty.
    """
    return tuple.__new__(SeatView, (*view, 0, CardSet()))


_PRIVATE = pyspiel.PrivateInfoType


class RondaObserver:
    """Tensors and strings for every :class:`pyspiel.IIGObservationType`, as OpenSpiel's own Python games give them.

    ``make_observation(game)`` with no type is the plain observation
    (public facts and the player's own hand, no recall), as in OpenSpiel's
    Kuhn poker; OpenSpiel's information state is
    ``IIGObservationType(perfect_recall=True)``. The pieces, in this order:

    - ``private_info=SINGLE_PLAYER`` (OpenSpiel's default and information-state
      types), with ``public_info``: ``observation``
      (:func:`~ronda.adapters.encoding.observe` of the player's view, seats
      relative to the player), or with ``perfect_recall``
      ``information_state`` (the round in full, then the observation: the
      module docstring). Without ``public_info``: ``hand`` and
      ``dealt_hand`` (the player's cards now and as dealt this deal), or with
      ``perfect_recall`` ``private_history`` (the player's hand as dealt in
      each deal of the round: the information state's first block).
    - ``private_info=NONE`` or ``ALL_PLAYERS``, with ``public_info``: the
      public part in absolute seats, the same for every player
      (:func:`spectator_view`): with ``perfect_recall`` ``public_history``
      (every card played in order, every challenge and declaration), then
      ``public_observation``.
    - then with ``ALL_PLAYERS`` (every hidden card: for centralized critics
      and analysis, never for a player): ``hands`` and ``dealt_hands`` (every
      seat's, 40 values a seat), or with ``perfect_recall``
      ``private_histories`` (every seat's private history).
    """

    def __init__(self, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"python_ronda observations take no parameters, not {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.public = bool(kind.public_info)
        self.perfect_recall = bool(kind.perfect_recall)
        self.private = kind.private_info
        pieces: list[tuple[str, int]] = []
        if self.private == _PRIVATE.SINGLE_PLAYER:
            if self.public:
                pieces.append(
                    ("information_state", INFORMATION_STATE_SIZE)
                    if self.perfect_recall
                    else ("observation", OBSERVATION_SIZE)
                )
            else:
                pieces += [("private_history", _DEALT)] if self.perfect_recall else [("hand", 40), ("dealt_hand", 40)]
        else:
            if self.public:
                if self.perfect_recall:
                    pieces.append(("public_history", ROUND_BLOCK - _DEALT))
                pieces.append(("public_observation", OBSERVATION_SIZE))
            if self.private == _PRIVATE.ALL_PLAYERS:
                pieces += (
                    [("private_histories", 4 * _DEALT)]
                    if self.perfect_recall
                    else [("hands", 4 * 40), ("dealt_hands", 4 * 40)]
                )
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        offset = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[offset : offset + size]
            offset += size

    def set_from(self, state: RondaState, player: int) -> None:
        self.tensor.fill(0.0)
        episode = state.episode
        engine = episode.engine
        if engine is None:
            return  # the first deck is being dealt: nothing is known yet
        pieces = self.dict
        if "information_state" in pieces:
            state.information_state_tensor_into(player, pieces["information_state"])
        if "observation" in pieces:
            observe(engine.view(player), pieces["observation"])
        if "hand" in pieces:
            pieces["hand"][list(engine.hand(player))] = 1.0
            pieces["dealt_hand"][list(engine.dealt_hand(player))] = 1.0
        if "private_history" in pieces:
            pieces["private_history"][:] = self._round_block(episode, engine.view(player))[:_DEALT]
        if "public_observation" in pieces:
            public = spectator_view(engine.public_view())
            observe(public, pieces["public_observation"])
            if "public_history" in pieces:
                pieces["public_history"][:] = self._round_block(episode, public)[_DEALT:]
        if "hands" in pieces:
            for seat in range(episode.rules.players):
                pieces["hands"][seat * 40 + np.array(list(engine.hand(seat)), dtype=int)] = 1.0
                pieces["dealt_hands"][seat * 40 + np.array(list(engine.dealt_hand(seat)), dtype=int)] = 1.0
        if "private_histories" in pieces:
            for seat in range(episode.rules.players):
                block = self._round_block(episode, engine.view(seat))[:_DEALT]
                pieces["private_histories"][seat * _DEALT : (seat + 1) * _DEALT] = block

    @staticmethod
    def _round_block(episode: StateData, view: SeatView) -> np.ndarray:
        block = np.zeros(ROUND_BLOCK, np.float32)
        episode.round_block(view, block)
        return block

    def string_from(self, state: RondaState, player: int) -> str:
        episode = state.episode
        engine = episode.engine
        if self.private == _PRIVATE.SINGLE_PLAYER and self.public:
            return state.information_state_string(player) if self.perfect_recall else state.observation_string(player)
        parts: list[str] = []
        if self.private == _PRIVATE.SINGLE_PLAYER:
            if self.perfect_recall:
                parts.append(f"seat {player}")
                parts += [f"my hand {CardSet(dealt[player])}" for _, dealt in sorted(episode.hands.items())]
            elif engine is not None:
                parts.append(f"seat {player} hand {engine.hand(player)} dealt {engine.dealt_hand(player)}")
        if self.public:
            if self.perfect_recall:
                parts += episode.start_lines()
                parts += [json.dumps(event.to_json(), separators=(",", ":")) for event in episode.events]
            parts.append("dealing" if engine is None else describe_public(engine.public_view()))
        if self.private == _PRIVATE.ALL_PLAYERS:
            if self.perfect_recall:
                for _, dealt in sorted(episode.hands.items()):
                    parts.append("hands " + ", ".join(f"{s} {CardSet(h)}" for s, h in enumerate(dealt)))
            if engine is not None:
                seats = range(episode.rules.players)
                parts.append("hands now " + ", ".join(f"{s} {engine.hand(s)}" for s in seats))
        return "\n".join(parts)


class RondaBot(pyspiel.Bot):  # type: ignore[misc]
    """A ronda bot (a level name or any :class:`~ronda.bots.Bot`) playing one player of ``python_ronda``.

    It sees the player's seat view only (R11), and keeps nothing between steps.
    """

    def __init__(self, player: int, bot: Bot | str = "medium", seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.player = player
        self.bot = make_bot(bot, seed=seed) if isinstance(bot, str) else bot

    def step(self, state: RondaState) -> int:
        engine = state.engine
        assert engine is not None and engine.turn == self.player, "RondaBot plays only its own decisions"
        return action_id(self.bot.choose(engine.view(self.player), engine.legal_actions()))

    def restart_at(self, state: RondaState) -> None:
        pass

    def inform_action(self, state: RondaState, player: int, action: int) -> None:
        pass


class Stateless(pyspiel.Bot):  # type: ignore[misc]
    """An OpenSpiel bot that keeps nothing between steps, made usable by ``evaluate_bots``.

    ``evaluate_bots`` first calls ``restart_at`` on every bot, and OpenSpiel's
    Python ``ISMCTSBot`` does not implement it (it builds a new tree at every
    step, so there is nothing to restart). This wrapper answers ``restart_at``
    and ``inform_action`` with nothing and passes ``step`` through::

        evaluate_bots(game.new_initial_state(), [Stateless(ISMCTSBot(...)), RondaBot(1, "medium")], rng)
    """

    def __init__(self, bot: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: Any) -> int:
        return int(self.bot.step(state))

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass


pyspiel.register_game(_GAME_TYPE, RondaGame)


def playthrough(params: dict[str, Any] | None = None, seed: int = 0) -> str:
    """A fixed-seed trace: every action with who took it, each player's observation at decisions, returns.

    The golden file ``tests/adapters/golden/python_ronda_2p.txt`` is this text for the defaults;
    regenerate it with ``python -m ronda.adapters.openspiel > tests/adapters/golden/python_ronda_2p.txt``.
    """
    game = pyspiel.load_game("python_ronda", params or {})
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    lines = [f"game: {game} seed {seed}"]
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probabilities))
            lines.append(f"chance ({len(outcomes)} outcomes): {state.action_to_string(player, action)}")
        else:
            legal = state.legal_actions()
            action = int(rng.choice(legal))
            lines.append(f"  {state.observation_string(player)}")
            lines.append(f"player {player} of legal {legal}: {state.action_to_string(player, action)}")
        state.apply_action(action)
    lines.append(f"returns: {state.returns()}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(playthrough(), end="")
