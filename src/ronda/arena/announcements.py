"""What bluffs and challenges did in a match: counted by the referee, who sees every hand.

The arena holds the games its bots play, so unlike a bot it can tell a bluff
from a true declaration the moment it is made. :class:`Announcements` counts,
per entrant, every declaration that named a combination its hand as dealt did
not hold (a *bluff*, R8.2: a concealed combination, declared ``none``, is not
one), what became of it, and every challenge (R8.8) with its outcome, so that
"hard bluffs once in 20 games and its bluffs win 2 games in 10" is a number
the arena prints, not a guess.

Points are the ``score`` events' points: with ``transfer_scoring`` (R10) a
penalty moves cards instead, and is not counted here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields

from ..engine.combinations import NONE, hand_combination
from ..engine.events import ChallengeMade, Deal, Event, Exposure, GameOver, Score, Show
from ..engine.game import Game


@dataclass
class Announcements:
    """One entrant's bluffs and challenges, and what they moved.

    A bluff is *exposed* by an opponent's challenge (R8.8), when shown before
    a win (R9.5), or by its own plays and penalties (R8.5, R8.7). A bluff or a
    won challenge is credited with the game when the game ends in the deal it
    was made in: near the target that is what it was for (a delaying bluff
    keeps the opponents from winning at once; a challenge at stake takes their
    win away), and later deals owe it little.
    """

    declarations: int = 0
    """Declarations other than ``none``."""
    bluffs: int = 0
    """Declarations the hand as dealt did not hold."""
    bluffs_challenged: int = 0
    """Bluffs exposed by an opponent's challenge."""
    bluffs_shown: int = 0
    """Bluffs exposed when shown before a win (R9.5)."""
    bluffs_played: int = 0
    """Bluffs exposed by the bluffer's own plays or undeclared penalty (R8.5, R8.7)."""
    bluff_penalty: int = 0
    """Points the opponents scored for this entrant's exposed bluffs (R8.6)."""
    bluff_games_won: int = 0
    """Games this entrant's side won in the deal of one of its bluffs."""
    bluff_games_lost: int = 0
    """Games this entrant's side lost in the deal of one of its bluffs."""
    challenges: int = 0
    """Challenges this entrant made."""
    challenges_won: int = 0
    """Challenges that exposed a false declaration."""
    challenges_lost: int = 0
    """Challenges of a true declaration: each lost the game (R8.8)."""
    challenge_points: int = 0
    """Penalty points this entrant's side scored from its won challenges (R8.6)."""
    challenge_games_won: int = 0
    """Games this entrant's side won in the deal of a won challenge."""

    @property
    def bluffs_exposed(self) -> int:
        return self.bluffs_challenged + self.bluffs_shown + self.bluffs_played

    def add(self, other: Announcements) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def to_json(self) -> dict[str, int]:
        return dict(asdict(self), bluffs_exposed=self.bluffs_exposed)


def total(counts: Iterable[Announcements]) -> Announcements:
    """The sum of several entrants' or games' counts."""
    out = Announcements()
    for one in counts:
        out.add(one)
    return out


class Referee:
    """Watches one game's decisions and events and counts each entrant's bluffs and challenges.

    Call :meth:`declared` when a seat declares (before the declaration phase
    can end: the arena asks right after applying it, while the deal is the
    same) and :meth:`saw` with every event.
    """

    def __init__(self, game: Game, seating: Sequence[int], entrants: int) -> None:
        self.game = game
        self.seating = seating
        self.counts = [Announcements() for _ in range(entrants)]
        self._side = [game.rules.side_of(seat) for seat in range(game.rules.players)]
        self._bluffing: set[int] = set()
        self._challenged_by: dict[int, int] = {}  # declarer -> challenger, this deal
        self._shown: set[int] = set()
        self._won_challenges: set[int] = set()  # challengers whose challenge exposed a bluff, this deal

    def _of(self, seat: int) -> Announcements:
        return self.counts[self.seating[seat]]

    def declared(self, seat: int, declaration: str) -> None:
        """``seat`` has just declared ``declaration`` in the current deal."""
        if declaration == NONE:
            return
        counts = self._of(seat)
        counts.declarations += 1
        combo = hand_combination(self.game.dealt_hand(seat).mask, self.game.rules.ace_high)
        if (NONE if combo is None else combo.kind) != declaration:
            counts.bluffs += 1
            self._bluffing.add(seat)

    def saw(self, events: Iterable[Event]) -> None:
        for event in events:
            kind = type(event)
            if kind is Deal:
                self._bluffing.clear()
                self._challenged_by.clear()
                self._shown.clear()
                self._won_challenges.clear()
            elif kind is ChallengeMade:
                assert isinstance(event, ChallengeMade)
                counts = self._of(event.seat)
                counts.challenges += 1
                if event.truthful:
                    counts.challenges_lost += 1
                else:
                    counts.challenges_won += 1
                    self._challenged_by[event.target] = event.seat
                    self._won_challenges.add(event.seat)
            elif kind is Show:
                assert isinstance(event, Show)
                self._shown.add(event.seat)
            elif kind is Exposure:
                assert isinstance(event, Exposure)
                counts = self._of(event.seat)
                if event.seat in self._challenged_by:
                    counts.bluffs_challenged += 1
                elif event.seat in self._shown:
                    counts.bluffs_shown += 1
                else:
                    counts.bluffs_played += 1
            elif kind is Score:
                assert isinstance(event, Score)
                if event.reason == "false_announcement" and event.seat is not None:
                    self._of(event.seat).bluff_penalty += event.points
                    challenger = self._challenged_by.get(event.seat)
                    if challenger is not None and self._side[challenger] == event.side:
                        self._of(challenger).challenge_points += event.points
            elif kind is GameOver:
                assert isinstance(event, GameOver)
                for seat in self._bluffing:
                    if self._side[seat] == event.winner:
                        self._of(seat).bluff_games_won += 1
                    else:
                        self._of(seat).bluff_games_lost += 1
                for seat in self._won_challenges:
                    if self._side[seat] == event.winner:
                        self._of(seat).challenge_games_won += 1


__all__ = ["Announcements", "Referee", "total"]
