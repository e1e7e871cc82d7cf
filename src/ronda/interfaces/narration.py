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

from ..engine.cards import card_name
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
    return " ".join(card_name(c) for c in cards)


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else str(points)


def seat_name(seat: int, me: int | None = None) -> str:
    """'you' for the reader's own seat, else 'seat N'."""
    return "you" if seat == me else f"seat {seat}"


def side_name(side: int, players: int) -> str:
    """Sides are seats with 2 or 3 players, partnerships with 4 (R2.2)."""
    if players == 4:
        return f"side {side} (seats {side} and {side + 2})"
    return f"seat {side}"


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
        return f"{side_name(event.side, players)} {_signed(event.points)} ({reason})"
    if isinstance(event, Transfer):
        plural = "s" if event.cards != 1 else ""
        reason = _REASON_WORDS.get(event.reason, event.reason)
        text = f"{side_name(event.payer, players)} pays {event.cards} card{plural} to {side_name(event.payee, players)}"
        text += f" ({reason})"
        if event.owed:
            text += f", owes {event.owed}"
        return text
    if isinstance(event, Exposure):
        return f"{who}'s {event.declaration.replace('_', ' ')} is exposed as false"
    if isinstance(event, ChallengeMade):
        target = seat_name(event.target, me)
        verdict = "true" if event.truthful else "false"
        verb = "challenge" if who == "you" else "challenges"
        return f"{who} {verb} {target}: hand {_cards(event.hand)} — the declaration is {verdict}"
    if isinstance(event, TableTaken):
        return f"{side_name(event.side, players)} takes the table: {_cards(event.cards)}"
    if isinstance(event, RoundEnd):
        piles = ", ".join(f"{side_name(s, players)} {n} cards" for s, n in enumerate(event.piles))
        return f"round {event.round + 1} over: {piles}"
    if isinstance(event, GameOver):
        how = "by a failed challenge" if event.reason == "failed_challenge" else "reaching the target"
        return f"game over: {side_name(event.winner, players)} wins, {how}"
    return str(event)


def narrate(events: Iterable[Event], players: int = 2, me: int | None = None) -> list[str]:
    """Lines of play-by-play; a play's own points are told on its line ("— caida! +1")."""
    lines: list[str] = []
    last_play = -1
    for event in events:
        if isinstance(event, (Capture, Raise, Drop)):
            lines.append(describe(event, players, me))
            last_play = len(lines) - 1
            continue
        if (
            isinstance(event, Score)
            and event.reason in _PLAY_REASONS
            and last_play == len(lines) - 1
            and last_play >= 0
        ):
            lines[last_play] += f" — {_PLAY_REASONS[event.reason]}! {_signed(event.points)}"
            last_play = len(lines) - 1
            continue
        lines.append(describe(event, players, me))
    return lines
