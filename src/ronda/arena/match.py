"""Duplicate matches: the same decks played again with the seats rotated, so luck cancels.

A *unit* is one stream of decks (one per round, drawn from the match seed and
the unit's number) played once per seating: with 2 players the two entrants
swap seats, with 3 each entrant sits at each seat once, with 4 the two
partnerships swap pairs of seats. Round k of every game of a unit is dealt
from the same deck, so what one entrant was dealt, the other is dealt too.

Bots see only ``game.view(seat)`` and ``game.legal_actions()``. They think
on their fixed budgets (guesses, rollouts), so a match gives the same numbers
on any machine, loaded or idle; ``time_limit`` caps each decision's thinking
in seconds, as in interactive play, and then results depend on the machine.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import Bot, make_bot
from ..engine.actions import Declare, Play
from ..engine.deck import shuffled_deck
from ..engine.errors import MatchError
from ..engine.events import RoundStart, Score
from ..engine.game import OVER, WAITING, Game
from ..engine.record import save_record
from ..engine.rules import Rules
from .announcements import Announcements, Referee


@dataclass(frozen=True)
class MatchSpec:
    """What to play: entrants (bot names; partnerships with 4 players), rules, units and seeds."""

    entrants: tuple[str, ...]
    rules: Rules
    rounds_only: bool = False
    seed: int = 0
    records: str | None = None
    plugins: tuple[str, ...] = ()
    """Modules that register bot families (``ronda.adapters.policy``), imported by every worker first."""
    time_limit: float | None = None

    def seatings(self) -> list[tuple[int, ...]]:
        """For each game of a unit, the entrant at each seat."""
        return seatings(self.rules.players, len(self.entrants))


def seatings(players: int, entrants: int) -> list[tuple[int, ...]]:
    """Seat-to-entrant maps for one unit.

    >>> seatings(2, 2), seatings(4, 2)
    ([(0, 1), (1, 0)], [(0, 1, 0, 1), (1, 0, 1, 0)])
    >>> seatings(3, 3)
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    """
    if players == 4:
        if entrants != 2:
            raise MatchError("four players play as two partnerships: give two entrants")
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    if entrants != players:
        raise MatchError(f"{players} players need {players} entrants, not {entrants}")
    return [tuple((seat + shift) % players for seat in range(players)) for shift in range(players)]


def bot_name(entrant: str, seat: int) -> str:
    """The bot level at ``seat`` for an entrant: a partnership "hard+easy" puts hard first, easy second.

    >>> bot_name("hard+easy", 0), bot_name("hard+easy", 2), bot_name("medium", 3)
    ('hard', 'easy', 'medium')
    """
    if "+" in entrant:
        first, second = entrant.split("+", 1)
        return first if seat < 2 else second
    return entrant


def bot_seed(seed: int, unit: int, seating_index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in one game of a unit: what makes every arena line reproduce exactly.

    >>> bot_seed(0, 0, 0, 0) == bot_seed(0, 0, 0, 0) != bot_seed(0, 0, 1, 0)
    True
    """
    return hash((seed, unit, seating_index, seat)) & 0xFFFFFFFF


def unit_deck(rules: Rules, seed: int, unit: int, round_index: int) -> list[int]:
    """Round ``round_index``'s deck of unit ``unit``: the same for every seating of the unit."""
    return shuffled_deck(rules, random.Random(f"ronda-arena:{seed}:{unit}:{round_index}"))


@dataclass
class GameResult:
    """One game of a unit: who sat where, points per round per entrant, the winner, move times."""

    seating: tuple[int, ...]
    round_points: list[list[int]]  # per round, per entrant
    winner: int | None  # entrant, or None when a single round was played
    move_times: dict[int, list[float]] = field(default_factory=dict)  # per entrant, every decision
    # Per entrant, the card choices only (cards of two or more ranks to choose from): the decisions a
    # search bot really thinks about. Forced cards and declarations take microseconds and pull the median
    # of all decisions far below what a player waits for.
    choice_times: dict[int, list[float]] = field(default_factory=dict)
    # The same card choices in CPU time of the process: what the bot computed, which another process
    # on the machine disturbs far less than the wall clock.
    choice_cpu_times: dict[int, list[float]] = field(default_factory=dict)
    announcements: list[Announcements] = field(default_factory=list)  # per entrant

    @property
    def rounds(self) -> int:
        return len(self.round_points)

    def points(self, entrant: int) -> int:
        return sum(r[entrant] for r in self.round_points)


def seat_bots(spec: MatchSpec, unit: int, seating_index: int) -> list[Bot]:
    """Fresh bots for each seat of one game of a unit, each seeded by :func:`bot_seed`."""
    return [
        make_bot(
            bot_name(spec.entrants[entrant], seat),
            seed=bot_seed(spec.seed, unit, seating_index, seat),
            time_limit=spec.time_limit,
        )
        for seat, entrant in enumerate(spec.seatings()[seating_index])
    ]


def play_game(spec: MatchSpec, unit: int, seating_index: int) -> GameResult:
    """One game of one unit, played by fresh bots seeded from the match seed."""
    return play_seated(spec, unit, seating_index)[1]


def play_seated(
    spec: MatchSpec, unit: int, seating_index: int, bots: Sequence[Bot] | None = None, game: Game | None = None
) -> tuple[Game, GameResult]:
    """:func:`play_game`, with the bots of each seat given (or made from the entrants' names), and the game too.

    Bots that are not names (a policy being trained, with its own
    bookkeeping) play duplicate games through this:
    :func:`ronda.adapters.evaluation.evaluate`. ``game``, when given, is the
    unit's game not yet played (dealt from its first deck), made by the caller
    for bots that must hold it: ``benchmarks/hidden_information.py``.
    """
    rules = spec.rules
    seating = spec.seatings()[seating_index]
    entrants = len(spec.entrants)
    if bots is None:
        bots = seat_bots(spec, unit, seating_index)
    if game is None:
        game = Game(rules, decks=[unit_deck(rules, spec.seed, unit, 0)])
    elif game.actions_taken:
        raise MatchError("a unit's game is given before any action, dealt from the unit's first deck")
    times: dict[int, list[float]] = {e: [] for e in range(entrants)}
    choice_times: dict[int, list[float]] = {e: [] for e in range(entrants)}
    cpu_times: dict[int, list[float]] = {e: [] for e in range(entrants)}
    referee = Referee(game, seating, entrants)
    referee.saw(game.events)
    while game.phase != OVER:
        if game.phase == WAITING:
            if spec.rounds_only:
                break
            referee.saw(game.add_deck(unit_deck(rules, spec.seed, unit, game.round + 1)))
            continue
        seat = game.turn
        view = game.view(seat)
        legal = game.legal_actions()
        start, cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(view, legal)
        spent, cpu = time.perf_counter() - start, time.process_time() - cpu
        times[seating[seat]].append(spent)
        if len({a.card >> 2 for a in legal if type(a) is Play}) > 1:
            choice_times[seating[seat]].append(spent)
            cpu_times[seating[seat]].append(cpu)
        events = game.apply(action, seat=seat)
        if type(action) is Declare:
            referee.declared(seat, action.declaration)
        referee.saw(events)
    if spec.records:
        folder = Path(spec.records)
        folder.mkdir(parents=True, exist_ok=True)
        names = "-".join(spec.entrants[e] for e in seating)
        save_record(game, folder / f"unit{unit:05d}-game{seating_index}-{names}.json")
    side_entrant = {rules.side_of(seat): entrant for seat, entrant in enumerate(seating)}
    round_points: list[list[int]] = []
    for event in game.events:
        if type(event) is RoundStart:
            round_points.append([0] * entrants)
        elif type(event) is Score:
            round_points[-1][side_entrant[event.side]] += event.points
    if spec.rounds_only and round_points and game.phase != OVER:
        round_points = round_points[:1]
    winner = side_entrant[game.winner] if game.winner is not None else None
    return game, GameResult(seating, round_points, winner, times, choice_times, cpu_times, referee.counts)


def play_unit(spec: MatchSpec, unit: int) -> list[GameResult]:
    """Every seating of one unit, on the same decks."""
    return [play_game(spec, unit, index) for index in range(len(spec.seatings()))]


def spec_to_dict(spec: MatchSpec) -> dict[str, Any]:
    """A plain form of the spec, to send to worker processes or Ray tasks."""
    return {
        "entrants": list(spec.entrants),
        "rules": spec.rules.to_dict(),
        "rounds_only": spec.rounds_only,
        "seed": spec.seed,
        "records": spec.records,
        "plugins": list(spec.plugins),
        "time_limit": spec.time_limit,
    }


def spec_from_dict(data: dict[str, Any]) -> MatchSpec:
    return MatchSpec(
        entrants=tuple(data["entrants"]),
        rules=Rules.from_dict(data["rules"]),
        rounds_only=data["rounds_only"],
        seed=data["seed"],
        records=data["records"],
        plugins=tuple(data.get("plugins", ())),
        time_limit=data.get("time_limit"),
    )


def play_unit_from_dict(data: dict[str, Any], unit: int) -> list[GameResult]:
    """:func:`play_unit` for workers: module-level, arguments plain data; the spec's plugins imported first."""
    spec = spec_from_dict(data)
    for module in spec.plugins:
        importlib.import_module(module)
    return play_unit(spec, unit)
