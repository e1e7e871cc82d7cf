"""Ronda for OpenSpiel: the Python game ``python_ronda``.

``pyspiel.load_game("python_ronda", {"players": 3, "rounds": 1, "dealer_duty": True})``.
Parameters: ``players`` (2-4), ``rounds`` (rounds an episode lasts, default 1),
``target`` (points that end it early, default 41) and every R10 variant by
name (``chain_points`` as the string ``"1,5,10"`` or ``"1,6,15"``).

- **Chance** deals explicitly: each chance node picks the next card of the
  round's deck in dealing order (RECORD.md), uniformly among the cards left.
  For an opening-table position only cards that keep the table valid are
  offered (a rank not yet up, not the fourth of a run). That is exactly the
  distribution of R3.4's "put it back and shuffle": a turned-up card is
  uniform over the stock, so the accepted one is uniform over the allowed.
- **Actions** are :mod:`ronda.adapters.encoding`'s 48 ids, sorted.
- **Returns**: each player's side's points over the episode minus the mean of
  the other sides' (zero-sum); partners share theirs.
- **Information state** of a player: its own hands as dealt and every public
  event, in order (string), and its seat view (tensor). **Observation**: the
  seat view alone.
- ``resample_from_infostate`` places the cards the player cannot see at
  random (hand sizes and hands shown by challenges respected), for
  OpenSpiel's Python ISMCTS.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..engine.cards import NUM_CARDS, card_name, cards_of, rank_of
from ..engine.deck import is_run_of_four
from ..engine.game import OVER, WAITING, Game
from ..engine.position import PositionBuilder
from ..engine.rules import Rules
from .encoding import NUM_ACTIONS, OBSERVATION_SIZE, action_mask, describe_action, id_action, observe

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "rounds": 1,
    "target": 41,
    "auto_declare": False,
    "ace_high": False,
    "chain_points": "1,5,10",
    "undeclared_ronda_penalty": 1,
    "dealer_duty": False,
    "four_card_hands": False,
    "transfer_scoring": False,
}
_MOVES_PER_ROUND = 40 + 36 + 36 + 16  # chance, plays, challenges, declarations (at most)
_POINTS_PER_ROUND = 500.0

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


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The engine's Rules for OpenSpiel parameters (validated by the engine)."""
    values = {k: v for k, v in params.items() if k not in ("rounds",)}
    values["chain_points"] = tuple(int(x) for x in str(values.get("chain_points", "1,5,10")).split(","))
    return Rules.from_dict(values)


class RondaGame(pyspiel.Game):  # type: ignore[misc]
    """The game; its GameInfo is built per instance, from the number of players and rounds."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.rules = rules_from_params(params)
        self.rounds = int(params["rounds"])
        if self.rounds < 1:
            raise ValueError("rounds must be at least 1")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=self.rules.players,
            min_utility=-_POINTS_PER_ROUND * self.rounds,
            max_utility=_POINTS_PER_ROUND * self.rounds,
            utility_sum=0.0,
            max_game_length=_MOVES_PER_ROUND * self.rounds,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> RondaState:
        return RondaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RondaObserver:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return RondaObserver(perfect_recall)


class RondaState(pyspiel.State):  # type: ignore[misc]
    """A state: chance deals each round's deck card by card, then the engine plays it."""

    def __init__(self, game: RondaGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.rounds = game.rounds
        self.deck: list[int] = []
        self.engine: Game | None = None
        self.public: list[str] = []
        self.private: list[list[str]] = [[] for _ in range(self.rules.players)]
        self.points = [0] * self.rules.sides

    # ---------------------------------------------------------------- flow

    def _dealing(self) -> bool:
        return self.engine is None or self.engine.phase == WAITING

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        assert self.engine is not None
        return self.engine.turn

    def is_terminal(self) -> bool:
        engine = self.engine
        if engine is None:
            return False
        return engine.phase == OVER or (engine.phase == WAITING and engine.round + 1 >= self.rounds)

    def _allowed_cards(self) -> list[int]:
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

    def chance_outcomes(self) -> list[tuple[int, float]]:
        allowed = self._allowed_cards()
        return [(card, 1.0 / len(allowed)) for card in allowed]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and player == self.engine.turn
        return [int(i) for i in np.flatnonzero(action_mask(self.engine.legal_actions()))]

    def _apply_action(self, action: int) -> None:
        if self._dealing():
            self.deck.append(int(action))
            if len(self.deck) == NUM_CARDS:
                if self.engine is None:
                    self.engine = Game(self.rules, decks=[self.deck])
                    self._note(self.engine.events)
                else:
                    self._note(self.engine.add_deck(self.deck))
                self.deck = []
            return
        assert self.engine is not None
        self._note(self.engine.apply(id_action(action)))

    def _note(self, events: list[Any]) -> None:
        """Keep the public log, each player's own dealt hands, and the points of the episode."""
        assert self.engine is not None
        for event in events:
            self.public.append(str(event.to_json()))
            if event.TYPE == "deal":
                for seat in range(self.rules.players):
                    self.private[seat].append(" ".join(card_name(c) for c in self.engine.dealt_hand(seat)))
            elif event.TYPE == "score":
                self.points[event.side] += event.points

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_name(int(action))}"
        return describe_action(int(action))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.rules.players
        values = []
        for seat in range(self.rules.players):
            side = self.rules.side_of(seat)
            others = [p for s, p in enumerate(self.points) if s != side]
            values.append(float(self.points[side] - sum(others) / len(others)))
        return values

    def information_state_string(self, player: int | None = None) -> str:
        player = self.current_player() if player is None else player
        own = " | ".join(self.private[player])
        return f"seat {player}; my hands: {own}; events: " + " ".join(self.public)

    def observation_string(self, player: int | None = None) -> str:
        player = self.current_player() if player is None else player
        if self.engine is None:
            return f"seat {player}; dealing"
        view = self.engine.view(player)
        return (
            f"seat {player}; hand {view.hand}; table {view.table}; scores {list(view.scores)}; "
            f"declarations {list(view.declarations)}; turn {view.turn}"
        )

    def __str__(self) -> str:
        if self.engine is None:
            return f"dealing: {len(self.deck)} cards"
        return repr(self.engine)

    # ---------------------------------------------------------------- ISMCTS

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> RondaState:
        """A state the player cannot tell from this one: its unseen cards placed again at random."""
        if self.engine is None or self._dealing() or self.is_terminal():
            return self.clone()  # nothing hidden is in play
        rng = random.Random(int(probability_sampler() * (1 << 62)))
        view = self.engine.view(player)
        builder = PositionBuilder(view)
        hidden = cards_of(builder.hidden)
        rng.shuffle(hidden)
        hands = {}
        for seat in builder.unknown_seats():
            size = view.hand_sizes[seat]
            hands[seat] = sum(1 << c for c in hidden[:size])
            hidden = hidden[size:]
        other = RondaState(self.get_game())
        other.engine = builder.build(hands, hidden)
        other.public = list(self.public)
        # Earlier deals were played out in public; the current deal's hands of the
        # other seats are the sampled ones, as dealt (sampled hand plus what they played).
        other.private = [list(dealt) for dealt in self.private]
        for seat in range(self.rules.players):
            if seat != player:
                other.private[seat][-1] = " ".join(card_name(c) for c in other.engine.dealt_hand(seat))
        other.points = list(self.points)
        return other


class RondaObserver:
    """Observation and information-state tensors (the seat view) and strings."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RondaState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None:
            self.tensor[:] = observe(state.engine.view(player))

    def string_from(self, state: RondaState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


pyspiel.register_game(_GAME_TYPE, RondaGame)


def playthrough(params: dict[str, Any] | None = None, seed: int = 0) -> str:
    """A fixed-seed trace: every action with who took it, each player's observation at decisions, returns.

    The golden file ``tests/adapters/golden/python_ronda_2p.txt`` is this text for the defaults;
    regenerate it with ``python -m ronda.adapters.openspiel > tests/adapters/golden/python_ronda_2p.txt``.
    """
    game = pyspiel.load_game("python_ronda", params or {})
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    lines = [f"game: python_ronda {params or {}} seed {seed}"]
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
