"""What each round brought each side, computed once from the public events, for every interface.

A round's summary is a tally of the score events (RECORD.md reasons) by side,
grouped as players count them — caida, chain, missa, announcements,
penalties, dealer duty, cards (R5 to R10) — with each side's pile and its total
after the round. The terminal prints it; the browser page can send the same
numbers. With ``transfer_scoring`` (R10) points move cards instead of adding
to the score, so the cards each reason moved are tallied beside them.

>>> from ronda.engine.events import RoundStart, RoundEnd, Score
>>> tally = Tally(players=2)
>>> [r.round for r in tally.feed([RoundStart(0, 1), Score(1, 1, "caida", 1), Score(0, 1, "false_announcement", 1),
...                               RoundEnd(0, (22, 18)), Score(0, 2, "cards", None)])]
[0]
>>> print("\\n".join(tally.rounds[0].lines(players=2, me=0)))
— Summary of round 1 —
  You: 22 cards, +3 this round, 3 in all
    penalties +1 · cards +2
  Seat 1: 18 cards, +1 this round, 1 in all
    caida +1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine.events import Event, GameOver, RoundEnd, RoundStart, Score, Transfer
from .narration import side_name

__all__ = ["CATEGORIES", "RoundTally", "Tally", "category_of", "tally_rounds"]

CATEGORIES = ("caida", "chain", "missa", "announcements", "penalties", "dealer duty", "cards", "debts")
"""The groups of a breakdown, in the order they are told."""

_CATEGORY = {
    "caida": "caida",
    "chain": "chain",
    "missa": "missa",
    "announcement": "announcements",
    "false_announcement": "penalties",
    "undeclared": "penalties",
    "dealer_duty": "dealer duty",
    "cards": "cards",
    "debt": "debts",
}


def category_of(reason: str) -> str:
    """The group a RECORD.md score reason is told under: both penalties (R8.6, R8.7) are 'penalties'.

    >>> category_of("undeclared"), category_of("announcement")
    ('penalties', 'announcements')
    """
    return _CATEGORY.get(reason, reason)


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else str(points)


@dataclass
class RoundTally:
    """One round: each side's points by RECORD.md reason, cards moved by reason, piles, totals after it.

    ``piles`` stays ``None`` for a round the game ended in before its last
    card (R9.3); ``totals`` are the scores after the round's last event.
    """

    round: int
    sides: int
    points: list[dict[str, int]] = field(default_factory=list)
    moved: list[dict[str, int]] = field(default_factory=list)
    piles: tuple[int, ...] | None = None
    totals: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.points = self.points or [{} for _ in range(self.sides)]
        self.moved = self.moved or [{} for _ in range(self.sides)]
        self.totals = self.totals or [0] * self.sides

    @property
    def finished(self) -> bool:
        """Whether the round was played to its last card (its piles were counted, R7.2)."""
        return self.piles is not None

    def round_points(self, side: int) -> int:
        """All the points ``side`` scored this round, taken-back points included."""
        return sum(self.points[side].values())

    def breakdown(self, side: int) -> list[tuple[str, int]]:
        """``side``'s points by group, in :data:`CATEGORIES` order, groups that add up to nothing left out."""
        return _grouped(self.points[side])

    def cards_moved(self, side: int) -> list[tuple[str, int]]:
        """With ``transfer_scoring``: the cards ``side`` received (positive) or paid (negative) by group."""
        return _grouped(self.moved[side])

    def lines(self, players: int, me: int | None = None) -> list[str]:
        """The summary as lines: a title, then per side its cards, round points, total, and the breakdown."""
        title = (
            f"— Summary of round {self.round + 1} —" if self.finished else f"— Round {self.round + 1}, not played out —"
        )
        out = [title]
        for side in range(self.sides):
            name = side_name(side, players, me)
            cards = f"{self.piles[side]} cards, " if self.piles is not None else ""
            out.append(
                f"  {name[:1].upper() + name[1:]}: {cards}{_signed(self.round_points(side))} this round, "
                f"{self.totals[side]} in all"
            )
            parts = [f"{group} {_signed(points)}" for group, points in self.breakdown(side)]
            moved = [f"{group} {_signed(cards)}" for group, cards in self.cards_moved(side)]
            if moved:
                parts.append("cards moved by points: " + ", ".join(moved))
            out.append("    " + (" · ".join(parts) if parts else "nothing scored"))
        return out


def _grouped(by_reason: dict[str, int]) -> list[tuple[str, int]]:
    groups: dict[str, int] = {}
    for reason, points in by_reason.items():
        group = category_of(reason)
        groups[group] = groups.get(group, 0) + points
    order = {group: i for i, group in enumerate(CATEGORIES)}
    return sorted(((g, p) for g, p in groups.items() if p), key=lambda gp: order.get(gp[0], len(order)))


class Tally:
    """Round tallies kept up to date from the events of a game, fed in order as they happen.

    ``rounds`` holds every round begun, the current one last; ``totals`` the
    scores so far, which match the engine's after every event.
    """

    def __init__(self, players: int) -> None:
        self.sides = 2 if players == 4 else players
        self.rounds: list[RoundTally] = []
        self.totals = [0] * self.sides

    @property
    def current(self) -> RoundTally | None:
        return self.rounds[-1] if self.rounds else None

    def feed(self, events: Iterable[Event]) -> list[RoundTally]:
        """Take more events; the rounds whose piles were counted (R7.2) among them."""
        ended: list[RoundTally] = []
        for event in events:
            current = self.current
            if isinstance(event, RoundStart):
                self.rounds.append(RoundTally(event.round, self.sides, totals=list(self.totals)))
            elif current is None:
                continue
            elif isinstance(event, Score):
                self.totals[event.side] += event.points
                by_reason = current.points[event.side]
                by_reason[event.reason] = by_reason.get(event.reason, 0) + event.points
                current.totals = list(self.totals)
            elif isinstance(event, Transfer) and event.cards:
                for side, cards in ((event.payee, event.cards), (event.payer, -event.cards)):
                    current.moved[side][event.reason] = current.moved[side].get(event.reason, 0) + cards
            elif isinstance(event, RoundEnd):
                current.piles = tuple(event.piles)
                ended.append(current)
            elif isinstance(event, GameOver):
                current.totals = list(self.totals)
        return ended


def tally_rounds(events: Iterable[Event], players: int) -> list[RoundTally]:
    """Every round of a game's events, tallied (the last may be unfinished)."""
    tally = Tally(players)
    tally.feed(events)
    return tally.rounds
