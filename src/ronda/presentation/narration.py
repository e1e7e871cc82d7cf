"""Play-by-play in the game's own words, from the public event stream.

Used by ``ronda replay`` and by the interfaces that narrate a game to people.
Points scored by a play (caida, chain, missa, dealer duty) are told on the
play's own line, as players call them at the table: "seat 1 plays 5c, takes
5o — caida! +1".

>>> from ronda.engine.events import Drop, Capture, Score
>>> narrate([Drop(0, 16), Capture(1, 17, (16,), True), Score(1, 1, "caida", 1)])
['seat 0 drops 5o', 'seat 1 plays 5c, takes 5o — caida! +1']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from ..engine.cards import card_name
from ..engine.combinations import KIND_ORDER, KIND_VALUE, Kind, candidates, describe_strength, hand_combination
from ..engine.events import (
    Capture,
    ChallengeMade,
    Deal,
    Declaration,
    Drop,
    Event,
    Exposure,
    GameOver,
    Raise,
    RoundEnd,
    RoundStart,
    Score,
    Show,
    TableTaken,
    Transfer,
)

_PLAY_REASONS = {"caida": "caida", "chain": "chain", "missa": "missa", "dealer_duty": "dealer duty"}
_REASON_WORDS = {
    "announcement": "announcements",
    "false_announcement": "false announcement",
    "undeclared": "undeclared combination",
    "cards": "cards",
    "dealer_duty": "dealer duty",
    "caida": "caida",
    "chain": "chain",
    "missa": "missa",
    "debt": "debt",
}


def _cards(cards: Iterable[int]) -> str:
    """Cards as written, in the order given: a hand shown comes as dealt (RECORD.md) and is told sorted, by rank
    then suit, as a person lays it out."""
    return " ".join(card_name(c) for c in cards)


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else str(points)


def seat_name(seat: int, me: int | None = None) -> str:
    """'you' for the reader's own seat, else 'seat N'."""
    return "you" if seat == me else f"seat {seat}"


def side_name(side: int, players: int, me: int | None = None) -> str:
    """Sides are seats with 2 or 3 players, partnerships with 4 (R2.2); 'you' or 'your side' for the reader's."""
    if players == 4:
        if me is not None and me % 2 == side:
            return f"your side (you and seat {(me + 2) % 4})"
        return f"side {side} (seats {side} and {side + 2})"
    return "you" if side == me else f"seat {side}"


def _verb(subject: str, verb: str) -> str:
    """'you take' but 'seat 1 takes'."""
    return verb if subject == "you" else verb + "s"


def possessive(subject: str) -> str:
    """'your' for 'you', else "seat 1's": never "you's".

    >>> possessive("you"), possessive("seat 1")
    ('your', "seat 1's")
    """
    return "your" if subject == "you" else f"{subject}'s"


def _side_of_seat(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def describe(event: Event, players: int = 2, me: int | None = None) -> str:
    """One event in words."""
    who = seat_name(getattr(event, "seat", -1), me)
    if isinstance(event, RoundStart):
        return f"— round {event.round + 1}, seat {event.dealer} deals —"
    if isinstance(event, Deal):
        text = f"deal {event.deal + 1}: {event.hand_size} cards each, {event.stock} left in the stock"
        if event.table:
            text += f"; table {_cards(event.table)}"
        if event.last:
            text += " (last deal)"
        return text
    if isinstance(event, Declaration):
        verb = "declare" if who == "you" else "declares"
        return f"{who} {verb} {event.declaration.replace('_', ' ')}"
    if isinstance(event, Drop):
        return f"{who} {'drop' if who == 'you' else 'drops'} {card_name(event.card)}"
    if isinstance(event, Capture):
        verb = "play" if who == "you" else "plays"
        return f"{who} {verb} {card_name(event.card)}, {'take' if who == 'you' else 'takes'} {_cards(event.cards)}"
    if isinstance(event, Raise):
        verb = "raise" if who == "you" else "raises"
        takes = "take" if who == "you" else "takes"
        return f"{who} {verb} with {card_name(event.card)}, {takes} {_cards(event.cards)}"
    if isinstance(event, Score):
        reason = _REASON_WORDS.get(event.reason, event.reason)
        return f"{side_name(event.side, players, me)} {_signed(event.points)} ({reason})"
    if isinstance(event, Transfer):
        plural = "s" if event.cards != 1 else ""
        reason = _REASON_WORDS.get(event.reason, event.reason)
        payer, payee = side_name(event.payer, players, me), side_name(event.payee, players, me)
        text = f"{payer} {_verb(payer, 'pay')} {event.cards} card{plural} to {payee}"
        text += f" ({reason})"
        if event.owed:
            text += f", {_verb(payer, 'owe')} {event.owed}"
        return text
    if isinstance(event, Exposure):
        return f"{possessive(who)} {event.declaration.replace('_', ' ')} is exposed as false"
    if isinstance(event, ChallengeMade):
        target = seat_name(event.target, me)
        verdict = "true" if event.truthful else "false"
        verb = "challenge" if who == "you" else "challenges"
        return f"{who} {verb} {target}: hand {_cards(sorted(event.hand))} — the declaration is {verdict}"
    if isinstance(event, Show):
        return f"{who} {'show' if who == 'you' else 'shows'} {_cards(sorted(event.hand))}: {_held(event)}"
    if isinstance(event, TableTaken):
        taker = side_name(event.side, players, me)
        return f"{taker} {_verb(taker, 'take')} the table: {_cards(event.cards)}"
    if isinstance(event, RoundEnd):
        piles = ", ".join(f"{side_name(s, players, me)} {n} cards" for s, n in enumerate(event.piles))
        return f"round {event.round + 1} over: {piles}"
    if isinstance(event, GameOver):
        how = "by a failed challenge" if event.reason == "failed_challenge" else "reaching the target"
        winner = side_name(event.winner, players, me)
        return f"game over: {winner} {_verb(winner, 'win')}, {how}"
    return str(event)


def _held(event: Show) -> str:
    """What a hand shown by R9.5 holds, told against its declaration: 'a tringa of 5s', or 'no tringa'.

    >>> _held(Show(1, (16, 17, 18), "tringa")), _held(Show(1, (8, 17, 26), "ronda"))
    ('a tringa of 5s', 'no ronda')
    """
    kind = event.declaration.replace("_", " ")
    combo = hand_combination(sum(1 << card for card in event.hand), False)
    if combo is None or combo[0] != event.declaration:
        return f"no {kind}"
    ranks = sorted({card >> 2 for card in event.hand if combo[2] >> card & 1}, reverse=True)
    printed = " and ".join(f"{card_name(4 * rank)[:-1]}s" for rank in ranks)
    return f"a {kind} of {'four ' if len(ranks) == 1 and kind == 'double ronda' else ''}{printed}"


def narrate(events: Iterable[Event], players: int = 2, me: int | None = None) -> list[str]:
    """Lines of play-by-play; a play's own points are told on its line ("— caida! +1").

    Points of a play that go to the player's opponents (a failed dealer duty,
    R10) name who gets them, so they are never read as the player's own:

    >>> narrate([Drop(3, 28), Score(0, 5, "dealer_duty", 3)], players=4)
    ['seat 3 drops 10o — dealer duty failed: side 0 (seats 0 and 2) +5']
    >>> narrate([Drop(2, 28), Score(0, 5, "dealer_duty", 2), Score(1, 5, "dealer_duty", 2)], players=3, me=0)
    ['seat 2 drops 10o — dealer duty failed: you +5, seat 1 +5']
    """
    lines: list[str] = []
    last_play = -1
    player_side = -1
    failed = False  # the play's line already names the opponents its points went to
    for event in events:
        if isinstance(event, (Capture, Raise, Drop)):
            lines.append(describe(event, players, me))
            last_play = len(lines) - 1
            player_side = _side_of_seat(event.seat, players)
            failed = False
            continue
        if (
            isinstance(event, Score)
            and event.reason in _PLAY_REASONS
            and last_play == len(lines) - 1
            and last_play >= 0
        ):
            points = _signed(event.points)
            if event.side == player_side:
                lines[last_play] += f" — {_PLAY_REASONS[event.reason]}! {points}"
            else:
                taker = side_name(event.side, players, me)
                lines[last_play] += (
                    f", {taker} {points}" if failed else f" — {_PLAY_REASONS[event.reason]} failed: {taker} {points}"
                )
                failed = True
            continue
        lines.append(describe(event, players, me))
    return lines


def _capitalised(line: str) -> str:
    return line[:1].upper() + line[1:]


class Narrator:
    """Live play-by-play for one reader: :func:`narrate`, plus the settlement told as players tell it.

    It keeps the public facts of the current deal — declarations, each
    declarer's plays, hands shown by challenges — so that points for
    announcements read "Ronda contest decided: seat 1 (pair of 12s) takes 2", or,
    when only one side announced, "Seat 1's ronda scores 1: nobody else announced"; where more than one
    declaration counts, what the points are made of follows in brackets.
    The rank is named only when it is public: the declarer's candidates (R8.5)
    narrowed to one, or the hand shown by a challenge (R8.8); otherwise the
    line says "seat 1's ronda takes 2". "Takes" is the side's total for this
    deal's settlement. Lines start with a capital, for a log read by people.

    >>> from ronda.engine.events import Deal, Declaration, Drop, Score
    >>> narrator = Narrator(players=2, me=0)
    >>> for line in narrator.feed([Deal(0, 0, 3, (), 30, False), Declaration(0, "none"), Declaration(1, "ronda"),
    ...                            Score(1, 1, "announcement", None)]):
    ...     print(line)
    Deal 1: 3 cards each, 30 left in the stock
    You declare none
    Seat 1 declares ronda
    Seat 1's ronda scores 1: nobody else announced
    >>> _ = narrator.feed([Deal(0, 1, 3, (), 24, False), Declaration(0, "ronda"), Declaration(1, "ronda")])
    >>> for line in narrator.feed([Drop(0, 36), Drop(1, 0), Drop(0, 37), Score(0, 2, "announcement", None)]):
    ...     print(line)  # two 12s: the best takes the points of both (R8.4)
    You drop 12o
    Seat 1 drops 1o
    You drop 12c
    Ronda contest decided: you (pair of 12s) take 2 (1 for your ronda, 1 for seat 1's ronda)
    """

    def __init__(self, players: int = 2, me: int | None = None, ace_high: bool = False) -> None:
        self.players = players
        self.me = me
        self.ace_high = ace_high
        self.sides = 2 if players == 4 else players
        self._new_deal(3)

    def _new_deal(self, hand_size: int) -> None:
        self.hand_size = hand_size
        self.declared: list[str | None] = [None] * self.players
        self.exposed = [False] * self.players
        self.played: list[list[int]] = [[] for _ in range(self.players)]
        self.shown: list[int | None] = [None] * self.players
        self.given = [0] * self.sides

    def feed(self, events: Iterable[Event]) -> list[str]:
        """The lines for some more events of the game, in order."""
        lines: list[str] = []
        chunk: list[Event] = []
        settlement: list[Score] = []
        for event in events:
            if isinstance(event, Score) and event.reason == "announcement":
                lines += narrate(chunk, self.players, self.me)
                chunk = []
                settlement.append(event)
                continue
            if settlement:
                lines += self._settlement(settlement)
                settlement = []
            self._track(event)
            chunk.append(event)
        lines += narrate(chunk, self.players, self.me)
        if settlement:
            lines += self._settlement(settlement)
        return [_capitalised(line) for line in lines]

    def _track(self, event: Event) -> None:
        if isinstance(event, Deal):
            self._new_deal(event.hand_size)
        elif isinstance(event, Declaration):
            self.declared[event.seat] = event.declaration
        elif isinstance(event, (Capture, Drop, Raise)):
            self.played[event.seat].append(event.card >> 2)
        elif isinstance(event, Exposure):
            self.exposed[event.seat] = True
        elif isinstance(event, (ChallengeMade, Show)):
            mask = 0
            for card in event.hand:
                mask |= 1 << card
            self.shown[event.target if isinstance(event, ChallengeMade) else event.seat] = mask

    def _side_of(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    def public_combination(self, seat: int) -> tuple[str, int] | None:
        """The combination of ``seat``'s live declaration when everyone can know it, else ``None``."""
        kind = self.declared[seat]
        if kind in (None, "none"):
            return None
        shown = self.shown[seat]
        if shown is not None:
            combo = hand_combination(shown, self.ace_high)
            return None if combo is None else (combo[0], combo[1])
        assert kind is not None
        found = candidates(kind, tuple(sorted(self.played[seat])), self.hand_size, self.ace_high)
        return (kind, next(iter(found))) if len(found) == 1 else None

    def _settlement(self, scores: list[Score]) -> list[str]:
        diffs = [0] * self.sides
        for score in scores:
            diffs[score.side] += score.points
        lines = []
        for side, diff in enumerate(diffs):
            self.given[side] += diff
            if diff < 0:
                name = side_name(side, self.players, self.me)
                left = f", {self.given[side]} left" if self.given[side] else ""
                # A partnership's name ends in its seats: "side 1 (seats 1 and 3)'s points" reads badly (an audit).
                points = (
                    "your announcement points"
                    if name == "you"
                    else f"the announcement points of {name}"
                    if name.endswith(")")
                    else f"{name}'s announcement points"
                )
                lines.append(f"{points} are taken back ({diff}){left}")
        if any(diff > 0 for diff in diffs):
            takers = [side for side in range(self.sides) if self.given[side] > 0]
            declaring = {self._side_of(s) for s, kind in enumerate(self.declared) if kind not in (None, "none")}
            if len(declaring) == 1 and len(takers) == 1:  # no contest: only one side announced (R8.5)
                who, _ = self._holder(takers[0])
                others = "the other side announced nothing" if self.players == 4 else "nobody else announced"
                made_of = self._made_of(takers)
                lines.append(f"{who} {_verb(who.split(' (')[0], 'score')} {self.given[takers[0]]}{made_of}: {others}")
                return lines
            parts, kinds = [], []
            for side in takers:
                who, kind = self._holder(side)
                kinds.append(kind)
                parts.append(f"{who} {_verb(who.split(' (')[0], 'take')} {self.given[side]}")
            contest = max(kinds, key=lambda k: KIND_ORDER.get(k, 0)).replace("_", " ")
            tie = "a tie — " if len(takers) > 1 else ""
            lines.append(f"{contest} contest decided: {tie}{', '.join(parts)}{self._made_of(takers)}")
        return lines

    def _made_of(self, takers: list[int]) -> str:
        """What the points given are made of, when more than one declaration counts (R8.4: the best takes the
        points of all), as " (5 for seat 1's tringa, 2 for your double ronda)"; '' when one declaration alone.

        A declaration counts until it is exposed (R8.5: the settlement takes it as true), a bluff too: "seat 1
        (three 12s) takes 7" against a double ronda ended a game at 0-7 with nothing saying where 7 came from
        (an audit). Said only when the points given are those the declarations add up to (shared equally, rounded
        down, between sides tied for the best), so a line never explains a number it does not hold.
        """
        live = [
            seat for seat in range(self.players) if self.declared[seat] not in (None, "none") and not self.exposed[seat]
        ]
        if len(live) < 2 or not takers:
            return ""
        first = sorted(live, key=lambda seat: self._side_of(seat) not in takers)  # the takers' own first
        parts = []
        total = 0
        for seat in first:
            kind = cast(Kind, self.declared[seat])
            total += KIND_VALUE[kind]
            who = seat_name(seat, self.me)
            whose = "your" if who == "you" else f"{who}'s"
            parts.append(f"{KIND_VALUE[kind]} for {whose} {kind.replace('_', ' ')}")
        share = total // len(takers)
        if any(self.given[side] != share for side in takers):
            return ""
        if len(takers) > 1:
            return f" ({total} shared: {', '.join(parts)})"
        return f" ({', '.join(parts)})"

    def _holder(self, side: int) -> tuple[str, str]:
        """Who holds a side's winning declaration, in words, and its kind."""
        live = [
            seat
            for seat in range(self.players)
            if self._side_of(seat) == side and self.declared[seat] not in (None, "none") and not self.exposed[seat]
        ]
        if not live:
            return side_name(side, self.players, self.me), "announcement"
        known = [(seat, self.public_combination(seat)) for seat in live]
        if all(combo is not None for _, combo in known):
            seat, combo = max(known, key=lambda sc: (KIND_ORDER[sc[1][0]], sc[1][1]))  # type: ignore[index]
            assert combo is not None
            return f"{seat_name(seat, self.me)} ({describe_strength(combo[0], combo[1], self.ace_high)})", combo[0]
        kind = max((self.declared[seat] or "none" for seat in live), key=lambda k: KIND_ORDER[k])
        if len(live) == 1:
            who = seat_name(live[0], self.me)
            return ("your" if who == "you" else f"{who}'s") + f" {kind.replace('_', ' ')}", kind
        return side_name(side, self.players, self.me), kind
