"""An expert variant against ``hard`` on the arena's single-round match, and the line that says how it did.

Shared by the benchmarks that measure a variant no setting names (``rollout_imitation.py``, ``plan_held_out.py``):
the variant is registered as a bot family and played exactly as ``ronda arena NAME hard --rounds --units N --seed
S`` plays it, so each line compares with the expert's line of the same seed in docs/bots.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ronda.arena.match import MatchSpec
from ronda.arena.runner import run_match, summary
from ronda.bots import register_family
from ronda.bots.base import Bot
from ronda.engine.presets import preset_rules


def screen(name: str, factory: Callable[[str, int | None], Bot], units: int, seed: int, jobs: int) -> dict[str, Any]:
    """``name`` (``family:argument``, the family built by ``factory``) against ``hard``: the arena's summary."""
    register_family(name.partition(":")[0], factory)
    spec = MatchSpec((name, "hard"), preset_rules("classic", 2, target=10_000), rounds_only=True, seed=seed)
    return summary(spec, run_match(spec, units, jobs=jobs))


def describe(result: dict[str, Any]) -> str:
    """The margin a round over ``hard`` with its interval, the rounds won, and the CPU a card choice (median)."""
    margin = result["margin_per_round"]
    interval = " [{:+.2f}, {:+.2f}]".format(*margin["95"]) if margin["95"] else " (one unit: no interval)"
    first, second = result["entrants"]
    cpu = first["choice_cpu_seconds_median"] * 1000, second["choice_cpu_seconds_median"] * 1000
    return (
        f"seed {result['seed']}, {result['units']} units: {margin['mean']:+.2f} a round over hard{interval}"
        f" ({margin['mean']:+.3f}); rounds won {first['rounds_won']} against {second['rounds_won']};"
        f" CPU a card choice, median, {cpu[0]:.1f} ms against {cpu[1]:.1f} ms ({cpu[0] / cpu[1]:.1f} times)"
    )
