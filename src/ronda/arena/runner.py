"""Running a match: units in this process, in worker processes, or on a Ray cluster; the summary.

Every backend plays the same units with the same seeds, and results are
taken in unit order, so ``--jobs 4`` and ``--backend ray`` print exactly what
``--jobs 1`` prints (only faster).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import MissingExtraError, install_hint
from .announcements import Announcements, total
from .match import GameResult, MatchSpec, play_unit, play_unit_from_dict, spec_to_dict
from .stats import Sprt, interval, mean_interval, percentile, wilson_interval


@dataclass
class Tally:
    """Results so far, per entrant."""

    entrants: int
    units: list[list[GameResult]] = field(default_factory=list)

    def add(self, unit: list[GameResult]) -> None:
        self.units.append(unit)

    @property
    def games(self) -> list[GameResult]:
        return [game for unit in self.units for game in unit]

    def game_wins(self, entrant: int) -> int:
        return sum(1 for g in self.games if g.winner == entrant)

    def round_wins(self, entrant: int) -> int:
        """Rounds in which the entrant scored strictly more than every other entrant."""
        won = 0
        for game in self.games:
            for points in game.round_points:
                if all(points[entrant] > p for e, p in enumerate(points) if e != entrant):
                    won += 1
        return won

    def head_to_head(self, entrant: int = 0, other: int = 1, rounds_only: bool = False) -> tuple[int, int]:
        """(wins, losses) of ``entrant`` against ``other`` in games, or in rounds when single rounds are played."""
        if not rounds_only:
            decided = [g.winner for g in self.games if g.winner in (entrant, other)]
            return (decided.count(entrant), decided.count(other))
        wins = losses = 0
        for game in self.games:
            for points in game.round_points:
                wins += points[entrant] > points[other]
                losses += points[entrant] < points[other]
        return (wins, losses)

    def unit_margins(self, entrant: int = 0, other: int = 1) -> list[float]:
        """Per unit: (entrant's points - other's points) per round, over all games of the unit."""
        margins = []
        for unit in self.units:
            rounds = sum(g.rounds for g in unit)
            if rounds:
                margins.append(sum(g.points(entrant) - g.points(other) for g in unit) / rounds)
        return margins

    def unit_points(self, entrant: int) -> list[float]:
        values = []
        for unit in self.units:
            rounds = sum(g.rounds for g in unit)
            if rounds:
                values.append(sum(g.points(entrant) for g in unit) / rounds)
        return values

    def move_times(self, entrant: int) -> list[float]:
        return [t for g in self.games for t in g.move_times.get(entrant, [])]

    def choice_times(self, entrant: int) -> list[float]:
        return [t for g in self.games for t in g.choice_times.get(entrant, [])]

    def choice_cpu_times(self, entrant: int) -> list[float]:
        return [t for g in self.games for t in g.choice_cpu_times.get(entrant, [])]

    def announcements(self, entrant: int) -> Announcements:
        """The entrant's bluffs and challenges over every game (:mod:`ronda.arena.announcements`)."""
        return total(g.announcements[entrant] for g in self.games if g.announcements)


def iterate_units(spec: MatchSpec, units: int, jobs: int = 1, backend: str = "local") -> Iterator[list[GameResult]]:
    """The results of units 0..units-1, in order, played by the chosen backend."""
    if backend == "ray":
        yield from _ray_units(spec, units, jobs)
        return
    if jobs <= 1:
        for unit in range(units):
            yield play_unit(spec, unit)
        return
    data = spec_to_dict(spec)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # a bounded window of futures keeps results in order and lets a stopped run stop early
        pending = [pool.submit(play_unit_from_dict, data, unit) for unit in range(min(units, jobs * 2))]
        next_unit = len(pending)
        while pending:
            result = pending.pop(0).result()
            if next_unit < units:
                pending.append(pool.submit(play_unit_from_dict, data, next_unit))
                next_unit += 1
            yield result


def _ray_units(spec: MatchSpec, units: int, jobs: int) -> Iterator[list[GameResult]]:
    try:
        import ray
    except ImportError:
        raise MissingExtraError(f"the Ray backend needs Ray: {install_hint('ray')}") from None
    started_here = not ray.is_initialized()
    if started_here:
        if os.environ.get("RAY_ADDRESS"):  # a cluster: the address says where
            ray.init(log_to_driver=False)
        else:  # a Ray of our own on this machine only, on loopback
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        remote = ray.remote(play_unit_from_dict)
        data = spec_to_dict(spec)
        window = max(1, jobs) * 2
        refs = [remote.remote(data, unit) for unit in range(min(units, window))]
        next_unit = len(refs)
        while refs:
            result = ray.get(refs.pop(0))
            if next_unit < units:
                refs.append(remote.remote(data, next_unit))
                next_unit += 1
            yield result
    finally:
        if started_here:
            ray.shutdown()


@dataclass
class MatchOutcome:
    tally: Tally
    seconds: float
    sprt_verdict: str | None = None
    sprt: Sprt | None = None
    """The test the match ran under, if any: decided or not, its state goes into the summary."""


def run_match(
    spec: MatchSpec,
    units: int,
    jobs: int = 1,
    backend: str = "local",
    sprt: Sprt | None = None,
    on_unit: Callable[[int, Tally], None] | None = None,
) -> MatchOutcome:
    """Play up to ``units`` units; with ``sprt``, stop as soon as the test decides."""
    tally = Tally(len(spec.entrants))
    start = time.perf_counter()
    verdict = None
    for done, unit in enumerate(iterate_units(spec, units, jobs, backend), start=1):
        tally.add(unit)
        if on_unit is not None:
            on_unit(done, tally)
        if sprt is not None:
            verdict = sprt.verdict(*tally.head_to_head(0, 1, spec.rounds_only))
            if verdict is not None:
                break
    return MatchOutcome(tally, time.perf_counter() - start, verdict, sprt)


def summary(spec: MatchSpec, outcome: MatchOutcome) -> dict[str, Any]:
    """The match in numbers: the object ``ronda arena --json`` prints."""
    tally = outcome.tally
    names = entrant_names(spec)
    games = tally.games
    result: dict[str, Any] = {
        "players": spec.rules.players,
        "rules": spec.rules.to_dict(),
        "unit": "round" if spec.rounds_only else "game",
        "units": len(tally.units),
        "games": len(games),
        "rounds": sum(g.rounds for g in games),
        "seconds": round(outcome.seconds, 2),
        "seed": spec.seed,
        "time_limit": spec.time_limit,
        "entrants": [],
    }
    for entrant, name in enumerate(names):
        times = tally.move_times(entrant)
        choices = tally.choice_times(entrant)
        cpu = tally.choice_cpu_times(entrant)
        wins = tally.round_wins(entrant) if spec.rounds_only else tally.game_wins(entrant)
        played = result["rounds"] if spec.rounds_only else len(games)
        low, high = wilson_interval(wins, played)
        unit_points = tally.unit_points(entrant)
        mean = mean_interval(unit_points)[0]
        result["entrants"].append(
            {
                "name": name,
                "games_won": tally.game_wins(entrant),
                "rounds_won": tally.round_wins(entrant),
                "win_rate": round(wins / played, 4) if played else 0.0,
                "win_rate_95": [round(low, 4), round(high, 4)],
                "points_per_round": mean,
                # One unit has no spread to measure: no interval (null), rather than one of no width.
                "points_per_round_95": interval(unit_points),
                "move_seconds_median": round(percentile(times, 50), 5),
                "move_seconds_p95": round(percentile(times, 95), 5),
                "moves": len(times),
                "choice_seconds_median": round(percentile(choices, 50), 5),
                "choice_seconds_p95": round(percentile(choices, 95), 5),
                "choices": len(choices),
                "choice_cpu_seconds_median": round(percentile(cpu, 50), 5),
                "choice_cpu_seconds_p95": round(percentile(cpu, 95), 5),
                # The median hides a search that races: most choices are quick and a few think long. The mean is
                # what the level costs over a game, so both are reported.
                "choice_cpu_seconds_mean": round(sum(cpu) / len(cpu), 6) if cpu else 0.0,
                "announcements": tally.announcements(entrant).to_json(),
            }
        )
    if len(names) == 2:
        margins = tally.unit_margins(0, 1)
        mean, spread = mean_interval(margins)[0], interval(margins)
        result["margin_per_round"] = {"mean": mean, "95": spread, "of": f"{names[0]} - {names[1]}"}
    if outcome.sprt is not None:
        result["sprt"] = sprt_state(outcome.sprt, tally, spec.rounds_only, names)
    return result


def sprt_state(sprt: Sprt, tally: Tally, rounds_only: bool, names: list[str]) -> dict[str, Any]:
    """Where the test stands, decided or not: a run capped by its units before a verdict says so, with how far it got.

    ``verdict`` is ``"H1"`` (the claim accepted), ``"H0"`` (rejected) or ``None`` (undecided); ``llr`` is the
    log-likelihood ratio after ``wins`` and ``losses``, decided once it leaves ``bounds``.
    """
    wins, losses = tally.head_to_head(0, 1, rounds_only)
    verdict = sprt.verdict(wins, losses)
    lower, upper = sprt.bounds
    return {
        "claim": f"{names[0]} beats {names[1]}",
        "p0": round(sprt.p0, 4),
        "p1": round(sprt.p1, 4),
        "alpha": sprt.alpha,
        "beta": sprt.beta,
        "wins": wins,
        "losses": losses,
        "llr": round(sprt.llr(wins, losses), 4),
        "bounds": [round(lower, 4), round(upper, 4)],
        "verdict": verdict,
        "decision": {"H1": "accepted", "H0": "rejected", None: "undecided"}[verdict],
        "units": len(tally.units),
    }


ORDINALS = ("1st", "2nd", "3rd", "4th")


def entrant_names(spec: MatchSpec) -> list[str]:
    """Entrants as people read them: a partnership of one level is "hard+hard".

    Two entrants of one name are told apart by where they were named on the command line (``hard medium medium``:
    ``medium (2nd)`` and ``medium (3rd)``; a partnership of the 1st and 3rd names, ``(1st, 3rd)``): identical rows
    left the reader unable to say which was which.
    """
    if spec.rules.players == 4:
        names = [name if "+" in name else f"{name}+{name}" for name in spec.entrants]
    else:
        names = list(spec.entrants)
    if len(set(names)) == len(names):
        return names
    labelled = []
    for index, name in enumerate(names):
        if names.count(name) > 1:
            place = ORDINALS[index] if "+" not in spec.entrants[index] else f"{ORDINALS[index]}, {ORDINALS[index + 2]}"
            name = f"{name} ({place})"
        labelled.append(name)
    return labelled
