"""Points and the win: how a step scores (R9.1), transfer_scoring's payments (R10), the win check (R9.3).

Every scoring step of the game ends here. A *step* (R9.2) scores, then checks
for a win: :meth:`Scoring._award` and :meth:`Scoring._award_each_opponent`
return ``True`` when the game is won, and the turn stops there (R9.3, R9.4).
With ``transfer_scoring`` points move captured cards instead (R10).
"""

from __future__ import annotations

from .events import Ending, GameOver, Reason, Score, Transfer, TransferReason
from .state import GameState
from .view import OVER

_new = tuple.__new__
"""Events are NamedTuples; building them with ``tuple.__new__`` skips a Python-level frame per event."""


class Scoring(GameState):
    """The scoring steps of a game (see the module's docstring)."""

    __slots__ = ()

    def _award(self, side: int, points: int, reason: Reason, seat: int, payers: tuple[int, ...] | None) -> bool:
        """One scoring step for one side; ``True`` when it wins the game (R9.3)."""
        self._score(side, points, reason, seat, payers)
        return self._check_win()

    def _award_each_opponent(self, offender: int, points: int, reason: Reason) -> bool:
        """One step in which each side opposing ``offender`` scores ``points``, in side order (R8.6, R8.7)."""
        self._score_each_opponent(offender, points, reason)
        return self._check_win()

    def _score_each_opponent(self, offender: int, points: int, reason: Reason) -> None:
        offender_side = self._side_of[offender]
        for side in range(self._rules.sides):
            if side != offender_side:
                self._score(side, points, reason, offender, (offender_side,))

    def _score(self, side: int, points: int, reason: Reason, seat: int | None, payers: tuple[int, ...] | None) -> None:
        """R9.1: points to ``side``; with transfer_scoring (R10) they are paid in cards by ``payers``.

        ``payers`` are the sides that pay with three players (R10: the offender,
        or the seat whose card or open capture was taken); ``None`` — and with 2
        or 4 players always — every other side pays.
        """
        if not self._rules.transfer_scoring:
            self._scores[side] += points
            self._events.append(_new(Score, (side, points, reason, seat)))
            return
        if self._n != 3 or payers is None:
            payers = tuple(s for s in range(self._rules.sides) if s != side)
        for payer in payers:
            if points > 0:
                self._transfer(payer, side, points, reason)
            else:
                self._transfer(side, payer, -points, reason)

    def _transfer(self, payer: int, payee: int, cards: int, reason: TransferReason) -> None:
        """R10 transfer_scoring: ``cards`` cards move from ``payer``'s pile to ``payee``'s; any shortfall is owed.

        A payment first cancels a debt owed the other way, then moves the
        payer's lowest cards (by card id: run order, then suit).
        """
        back = min(cards, self._debts[payee][payer])
        self._debts[payee][payer] -= back
        cards -= back
        pile = self._piles[payer]
        moved = 0
        while moved < cards and pile:
            low = pile & -pile
            pile ^= low
            self._piles[payee] |= low
            moved += 1
        self._piles[payer] = pile
        self._debts[payer][payee] += cards - moved
        self._events.append(Transfer(payer, payee, moved, cards - moved, reason))

    def _pay_debts(self, side: int) -> None:
        """R10 transfer_scoring: a side that captures pays what it owes at once, before that play's points."""
        row = self._debts[side]
        for payee, owed in enumerate(row):
            if owed:
                row[payee] = 0
                self._transfer(side, payee, owed, "debt")

    def _check_win(self) -> bool:
        """R9.3: a single highest side at or above the target wins at once."""
        scores = self._scores
        best = max(scores)
        if best >= self._rules.target and scores.count(best) == 1:
            self._win(scores.index(best), "target")
            return True
        return False

    def _win(self, side: int, reason: Ending) -> None:
        """R9.3, R8.8: the game is won; nothing scored later changes it (R9.4)."""
        self._winner = side
        self._phase = OVER
        self._events.append(GameOver(side, reason))


__all__ = ["Scoring"]
