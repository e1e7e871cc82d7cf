"""The expert's plan without its own selection bias: each guess's next card chosen from the *other* guesses.

    PYTHONPATH=src python benchmarks/plan_held_out.py --units 200 --seed 4245 --jobs 2

``expert`` plans its next card of the deal on what it will have seen (``_Plan`` in ``src/ronda/bots/pimc.py``):
among the guesses in which the other seat answered with the same rank, it takes the next card best over those
guesses together, and values each of them at that card. The card is chosen on the very guesses it is then valued
on, so each group's value is the best of a few noisy sums, optimistic; and a group of one guess (an answer seen in
that guess only) takes that guess's own best card, which reads the guessed hand (the strategy fusion the plan is
for). The more answers a card leaves possible, the smaller its groups and the more it is flattered.

Here (``HeldOutPlan``) each guess is valued at the next card best over the *other* guesses of its group (leave
one out), and a guess alone in its group at the card best over all the other guesses: an honest estimate of
playing the plan, at no extra rollout. Everything else is the expert's own, and the match is the arena's
(``ronda arena expert hard --rounds --units N --seed S``, the plan replaced), so each line compares with the
expert's line of the same seed in docs/bots.md. Measured there: behind today's expert on each seed.
"""

from __future__ import annotations

import argparse
import json
import sys

from ronda.arena.match import MatchSpec
from ronda.arena.runner import run_match, summary
from ronda.bots import register_family
from ronda.bots.base import Bot
from ronda.bots.pimc import ExpertBot, _Plan
from ronda.engine.presets import preset_rules


class HeldOutPlan(_Plan):
    """A planned card's guesses, each valued at the next card chosen without it (the module)."""

    __slots__ = ()

    def values(self) -> list[float]:
        groups: dict[tuple[int, ...], list[float]] = {}
        counts: dict[tuple[int, ...], int] = {}
        for key, branches in zip(self.keys, self.branches, strict=True):
            acc = groups.setdefault(key, [0.0] * len(branches))
            for j, value in enumerate(branches):
                acc[j] += value
            counts[key] = counts.get(key, 0) + 1
        everything = [sum(column) for column in zip(*self.branches, strict=True)]
        out = []
        for key, branches in zip(self.keys, self.branches, strict=True):
            pool = groups[key] if counts[key] > 1 else everything
            others = [total - own for total, own in zip(pool, branches, strict=True)]
            out.append(branches[max(range(len(others)), key=others.__getitem__)])
        return out


class HeldOutExpert(ExpertBot):
    """``expert`` with :class:`HeldOutPlan`: nothing else changed."""

    name = "expert-held-out"
    plan_type = HeldOutPlan


def _held_out_expert(_argument: str, seed: int | None) -> Bot:
    return HeldOutExpert(seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=200, help="single-round units against hard (default 200)")
    parser.add_argument("--seed", type=int, default=4245, help="the arena's seed (default 4245)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--json", action="store_true", help="print the arena's JSON")
    args = parser.parse_args(argv)
    if args.units < 1 or args.jobs < 1:
        parser.error("--units and --jobs are whole numbers from 1")
    register_family("held-out", _held_out_expert)
    spec = MatchSpec(
        ("held-out:plan", "hard"), preset_rules("classic", 2, target=10_000), rounds_only=True, seed=args.seed
    )
    result = summary(spec, run_match(spec, args.units, jobs=args.jobs))
    if args.json:
        print(json.dumps(result))
        return 0
    margin = result["margin_per_round"]
    low, high = margin["95"]
    first, second = result["entrants"]
    cpu = first["choice_cpu_seconds_median"] * 1000, second["choice_cpu_seconds_median"] * 1000
    print(
        f"seed {args.seed}, {args.units} units: {margin['mean']:+.2f} a round over hard [{low:+.2f}, {high:+.2f}]"
        f" ({margin['mean']:+.3f}); rounds won {first['rounds_won']} against {second['rounds_won']}; CPU a card"
        f" choice, median, {cpu[0]:.1f} ms against {cpu[1]:.1f} ms ({cpu[0] / cpu[1]:.1f} times)"
    )
    print(f"(PYTHONPATH=src python benchmarks/plan_held_out.py --units {args.units} --seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
