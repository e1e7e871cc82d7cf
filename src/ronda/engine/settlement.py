"""Announcements after the declarations: candidates, settlement, exposure, the undeclared penalty, R9.5.

:class:`Announcements` holds the steps of R8.5-R8.7 and R9.5 that a turn takes
after its card (R9.2: the player's exposure, the settlement, the player's
undeclared penalty), and that a challenge takes (R8.8 exposes through R8.6).
:func:`settle` is the settlement itself, R8.4 and R8.5, as a pure function.

The settlement of a deal's declarations (R8.4, R8.5), without enumeration.

A naive check of R8.5 would try every choice of candidates for every
declaration (10**4 choices with four rondas) after every play. It is not
needed: the sum to share is fixed by the declared kinds, so only *which sides
hold the strongest declaration* can vary. Each side's best strength ranges over
``[max of its declarations' weakest candidates, max of their strongest]``, and
choices are independent, so the set of best sides is the same in every choice
exactly when

- one side's weakest best beats every other side's strongest best (a winner), or
- the tied sides' bests are fixed and equal and beat every other side (a split).

>>> # seat sides 0 and 1 each declared ronda; side 0's is known to be 12s
>>> settle([Active(0, "ronda", 9, 9), Active(1, "ronda", 0, 6)], sides=2)
(2, 0)
>>> settle([Active(0, "ronda", 0, 9), Active(1, "ronda", 0, 9)], sides=2) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import Mask
from .combinations import KIND_ORDER, KIND_VALUE, RONDA, Kind, candidate_range
from .events import Exposure, Show
from .scoring import Scoring

_new = tuple.__new__


class Active(NamedTuple):
    """A declaration not yet exposed: its side, kind and candidate strength range."""

    side: int
    kind: Kind
    weakest: int
    strongest: int


def settle(active: Sequence[Active], sides: int) -> tuple[int, ...] | None:
    """Points per side if the settlement is decided (R8.5), else ``None``.

    Every active declaration is taken as true (R8.5); the side holding the
    strongest takes the sum of all of them, tied sides split it rounded down (R8.4).
    """
    points = [0] * sides
    if not active:
        return tuple(points)
    total = 0
    top_kind = 0
    for d in active:
        total += KIND_VALUE[d.kind]
        order = KIND_ORDER[d.kind]
        if order > top_kind:
            top_kind = order
    weakest_best = [-1] * sides
    strongest_best = [-1] * sides
    for d in active:
        if KIND_ORDER[d.kind] == top_kind:
            side = d.side
            if d.weakest > weakest_best[side]:
                weakest_best[side] = d.weakest
            if d.strongest > strongest_best[side]:
                strongest_best[side] = d.strongest
    floor = max(weakest_best)
    contenders = [side for side in range(sides) if strongest_best[side] >= floor]
    if len(contenders) == 1:
        points[contenders[0]] = total
        return tuple(points)
    if all(weakest_best[s] == strongest_best[s] == floor for s in contenders):
        share = total // len(contenders)
        for side in contenders:
            points[side] = share
        return tuple(points)
    return None


class Announcements(Scoring):
    """The steps of R8.5-R8.7 and R9.5 on a game's state; each returns ``True`` when the game is won (R9.3)."""

    __slots__ = ()

    def _announcement_steps(self, seat: int, hand: Mask) -> bool:
        """R9.2 after a play's points: the player's exposure, the settlement (R8.5, R8.6), an undeclared penalty (R8.7).

        ``hand`` is what ``seat`` holds after the play.
        """
        if self._ranges[seat] is not None:
            truth = self._truth[seat]
            if self._decided and truth is not None and truth[0] == self._declared[seat]:  # [0]: the kind
                # A true declaration always keeps its own combination as a candidate, and
                # narrowing cannot undo a decided settlement: nothing public changes now.
                # Its range is brought up to date only if another exposure re-settles.
                self._stale |= 1 << seat
            elif self._narrow_declaration(seat, hand):
                return True
        pending = self._undeclared[seat]
        return bool(pending and not pending & hand and self._undeclared_penalty(seat))

    def _narrow_declaration(self, seat: int, hand: Mask) -> bool:
        """R8.5 after the declarer plays: its candidates narrow; none left exposes it (R8.6)."""
        new_range = self._candidate_range(seat, hand)
        if new_range is None:
            return self._expose(seat)
        if new_range != self._ranges[seat]:
            self._ranges[seat] = new_range
            return self._settle()
        return False

    def _candidate_range(self, seat: int, hand: Mask) -> tuple[int, int] | None:
        """R8.5: the weakest and strongest candidate of ``seat``'s declaration, given the cards it has played."""
        declared = self._declared[seat]
        assert declared is not None
        played = []  # ranks of the cards played, ascending as card ids are
        m = self._dealt[seat] & ~hand
        while m:
            low = m & -m
            played.append((low.bit_length() - 1) >> 2)
            m ^= low
        return candidate_range(declared, tuple(played), self._size, self._rules.ace_high)

    def _undeclared_penalty(self, seat: int) -> bool:
        """R8.7: the last card of an undeclared combination is played; each opposing side scores it.

        The hand held another combination than the one declared, so a declaration
        of ``seat`` not yet exposed is false: it is exposed (R8.6) in the same
        step, right after the penalty. The two penalties are one step of R9.3: the
        win is checked once, after both, then the settlement is recomputed (R8.6)
        and the win checked again.
        """
        self._undeclared[seat] = 0
        truth = self._truth[seat]
        assert truth is not None
        value = self._rules.undeclared_ronda_penalty if truth.kind == RONDA else KIND_VALUE[truth.kind]
        self._score_each_opponent(seat, value, "undeclared")
        if self._ranges[seat] is not None:
            return self._expose(seat)
        return self._check_win()

    def _expose(self, seat: int) -> bool:
        """R8.6: penalty to each opposing side, then the settlement without this declaration."""
        declared = self._declared[seat]
        assert declared is not None
        self._exposed[seat] = True
        self._ranges[seat] = None
        self._active -= 1
        self._events.append(Exposure(seat, declared))
        if self._award_each_opponent(seat, KIND_VALUE[declared], "false_announcement"):
            return True
        return self._settle()

    def _settle(self) -> bool:
        """R8.5/R8.6: give each side the difference between the decided points and what it has had (R9.5 first)."""
        decided, total = self._decided_points()
        self._decided = decided is not None
        given = self._given
        rules = self._rules
        if decided is not None and max(self._scores) + total >= rules.target and not rules.transfer_scoring:
            false_seat = self._no_win_unseen(decided)
            if false_seat >= 0:
                return self._expose(false_seat)
        changed = False
        for side in range(len(given)):
            diff = (decided[side] if decided is not None else 0) - given[side]
            if diff:
                given[side] += diff
                self._score(side, diff, "announcement", None, None)
                changed = True
        return changed and self._check_win()

    def _decided_points(self) -> tuple[Sequence[int] | None, int]:
        """R8.4, R8.5: the points per side of the live declarations if decided (else ``None``), and their total.

        Brings the stale ranges up to date first (see ``_stale`` in :mod:`ronda.engine.state`).
        """
        ranges, declared, side_of = self._ranges, self._declared, self._side_of
        if self._stale:
            for seat in range(self._n):
                if self._stale >> seat & 1 and ranges[seat] is not None:
                    ranges[seat] = self._candidate_range(seat, self._hands[seat])
            self._stale = 0
        declaring_sides = 0
        total = 0
        for seat in range(self._n):
            kind = declared[seat]
            if ranges[seat] is not None and kind is not None:
                declaring_sides |= 1 << side_of[seat]
                total += KIND_VALUE[kind]
        sides = len(self._given)
        if declaring_sides & (declaring_sides - 1) == 0:
            # R8.5: declarations of one side only (or none) are decided at once.
            decided = [0] * sides
            if declaring_sides:
                decided[declaring_sides.bit_length() - 1] = total
            return decided, total
        live = []
        for seat, rng in enumerate(ranges):
            kind = declared[seat]
            if rng is not None and kind is not None:
                live.append(_new(Active, (side_of[seat], kind, rng[0], rng[1])))
        return settle(live, sides), total

    def _no_win_unseen(self, decided: Sequence[int]) -> int:
        """R9.5: before an award that brings a side to the target, show its live declarations; the first false, or -1.

        An award is at most the live declarations' total, so the caller asks only
        when that total could reach the target. The caller exposes the first
        false one and the award waits for the new settlement, to which the rule
        applies again.
        """
        given, scores, target = self._given, self._scores, self._rules.target
        reaching = 0
        for side in range(len(given)):
            diff = decided[side] - given[side]
            if diff > 0 and scores[side] + diff >= target:
                reaching |= 1 << side
        return self._show_declarations(reaching) if reaching else -1

    def _show_declarations(self, sides: int) -> int:
        """R9.5: show the hands of the live declarations of ``sides`` (a mask) in seat order; return the first false.

        A hand shown before stays shown and is not shown again; -1 when all are
        true. As R9.5 is written, only the *first* false one is exposed: with two
        false declarations on one side (four players), the second is exposed too
        only if the new settlement still brings the side to the target; otherwise
        it stays live, shown, and is exposed by R8.5 when its cards are played.
        """
        first_false = -1
        for seat in range(self._n):
            declared = self._declared[seat]
            if declared is None or self._ranges[seat] is None or not sides >> self._side_of[seat] & 1:
                continue
            if self._shown[seat] is None:
                dealt = self._dealt[seat]
                self._shown[seat] = dealt
                self._events.append(Show(seat, self._dealt_cards(seat), declared))
            held = self._truth[seat]
            if first_false < 0 and (held is None or held.kind != declared):
                first_false = seat
        return first_false


__all__ = ["Active", "Announcements", "settle"]
