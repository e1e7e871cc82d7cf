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

from expert_screen import describe, screen

from ronda.bots.base import Bot
from ronda.bots.pimc import ExpertBot, _Plan


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
    result = screen("held-out:plan", _held_out_expert, args.units, args.seed, args.jobs)
    if args.json:
        print(json.dumps(result))
        return 0
    print(describe(result))
    print(f"(PYTHONPATH=src python benchmarks/plan_held_out.py --units {args.units} --seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
