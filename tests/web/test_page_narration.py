"""Whose points the page's play-by-play says they are, against the game's own events and the Python narration.

The page tells the play-by-play with narrate.js, the terminal and ``ronda replay``
with narration.py. An audit found the page giving a failed dealer duty's 5
points to the dealer ("You drop 10c — dealer duty +5") where the Python
narration named the opponents who got them. Here seeded games under several
variants, with 2, 3 and 4 players, are told by both; every point scored and
every card paid must be said as the side's that got it, in each of the page's
languages, so the two narrations cannot drift apart again.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from test_page_words import page_says

from ronda.engine.actions import Challenge
from ronda.engine.events import Event, Score, Transfer
from ronda.engine.game import Game
from ronda.engine.rules import Rules
from ronda.presentation.narration import narrate, seat_name, side_name

NAMES = ["Amina", "Brahim", "Chama", "Driss"]

VARIANTS: list[dict[str, Any]] = [
    {},
    {"dealer_duty": True},
    {"dealer_duty": True, "transfer_scoring": True},
    {"auto_declare": True, "chain_points": (1, 6, 15), "dealer_duty": True},
    {"undeclared_ronda_penalty": 5, "ace_high": True, "transfer_scoring": True},
    {"four_card_hands": True, "dealer_duty": True},
]


def _game(players: int, variant: dict[str, Any], seed: int) -> tuple[Rules, list[Event]]:
    """A whole game of random plays: now and then a challenge (most end the game, R8.8), else any legal move."""
    rules = Rules(players=players, target=25, **variant)
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while game.winner is None:
        legal = game.legal_actions()
        challenges = [a for a in legal if isinstance(a, Challenge)]
        others = [a for a in legal if not isinstance(a, Challenge)]
        game.apply(rng.choice(challenges) if challenges and rng.random() < 0.01 else rng.choice(others))
    return rules, game.events


def _games() -> list[tuple[Rules, list[Event]]]:
    return [
        _game(players, variant, seed)
        for players in (2, 3, 4)
        for variant in VARIANTS
        if not (variant.get("four_card_hands") and players == 3)
        for seed in range(3)
    ]


SIGNED = re.compile(r"[+-]\d+")


def _named(text: str, names: Sequence[str]) -> int | None:
    """Which of ``names`` ``text`` ends with (the longest: "Amina & Chama" before "Chama")."""
    found = [i for i, name in enumerate(names) if text.endswith(name)]
    return max(found, key=lambda i: len(names[i])) if found else None


def _points_said(
    lines: Sequence[str], sides: Sequence[str], seats: Sequence[str], players: int
) -> list[tuple[int, int]]:
    """Every signed number of the lines, with the side it is said to be for: the side named just before it, else
    the side of the seat whose line it is ("Amina plays 5c, takes 5o — caida! +1")."""
    said = []
    for line in lines:
        for match in SIGNED.finditer(line):
            side = _named(line[: match.start()].rstrip(), sides)
            if side is None:
                subject = [seat for seat, name in enumerate(seats) if line.startswith(name)]
                assert subject, f"whose are the points of {line!r}?"
                side = subject[0] % 2 if players == 4 else subject[0]
            said.append((side, int(match.group())))
    return said


def _scored(events: Sequence[Event]) -> list[tuple[int, int]]:
    return [(e.side, e.points) for e in events if isinstance(e, Score)]


def _paid(events: Sequence[Event]) -> list[tuple[int, int]]:
    return [(e.payer, e.payee) for e in events if isinstance(e, Transfer)]


PAGE = """
const streams = JSON.parse(await (await import("node:fs/promises")).readFile(%s, "utf8"));
const out = [];
for (const [language, me] of [["en", null], ["fr", null], ["ar", null], ["en", 0]]) {
  i18n.setLanguage(language);
  for (const { players, events } of streams) {
    const seats = [...Array(players).keys()].map((seat) => ({ seat, kind: "human", name: %s[seat] }));
    const table = { players, seats };
    const names = narrate.namer(table, me);
    const narrator = new narrate.Narrator(names);
    for (const event of events) narrator.push(event);
    const text = (line) => plain(line.parts.map((part) => typeof part === "string" ? part : part.card).join(""));
    out.push({
      language, me, trimmed: narrator.trimmed,
      lines: narrator.lines.map((line) => ({ type: line.type, text: text(line) })),
      seats: [...Array(players).keys()].map(names.seatName),
      sides: [...Array(players === 4 ? 2 : players).keys()].map(names.sideName),
    });
  }
}
console.log(JSON.stringify(out));
"""


def test_the_page_and_the_python_narration_give_every_point_to_the_side_that_scored_it(tmp_path: Path) -> None:
    """Caida, chain, missa, dealer duty (kept and failed), announcements, penalties, the card count, and with
    transfer_scoring the cards paid: each is said as the scoring side's, by the page in English, French and Arabic
    and to a seated reader, and by the Python narration (to a watcher and to seat 0)."""
    games = _games()
    reasons = {e.reason for _, events in games for e in events if isinstance(e, (Score, Transfer))}
    assert {"caida", "missa", "chain", "dealer_duty", "announcement", "false_announcement", "cards"} <= reasons
    failed = [
        (rules, e)
        for rules, events in games
        for e in events
        if isinstance(e, Score) and e.reason == "dealer_duty" and e.seat is not None and rules.side_of(e.seat) != e.side
    ]
    assert {rules.players for rules, _ in failed} == {2, 3, 4}, "a failed dealer duty of each table size"

    streams = tmp_path / "streams.json"
    streams.write_text(json.dumps([{"players": r.players, "events": [e.to_json() for e in ev]} for r, ev in games]))
    told = page_says(tmp_path, PAGE % (json.dumps(str(streams)), json.dumps(NAMES)))
    assert isinstance(told, list) and len(told) == 4 * len(games)
    for i, page in enumerate(told):
        rules, events = games[i % len(games)]
        where = f"{page['language']}, seat {page['me']}, {rules}"
        assert not page["trimmed"], where
        lines = [line["text"] for line in page["lines"] if line["type"] != "transfer"]
        assert _points_said(lines, page["sides"], page["seats"], rules.players) == _scored(events), where
        arrow = "←" if page["language"] == "ar" else "→"
        paid = []
        for line in (line["text"] for line in page["lines"] if line["type"] == "transfer"):
            payer = _named(line.split(f" {arrow} ")[0], page["sides"])
            payee = _named(line.split(f" {arrow} ")[1].split(":")[0].rstrip(), page["sides"])
            assert payer is not None and payee is not None, line
            paid.append((payer, payee))
        assert paid == _paid(events), where

    for rules, events in games:
        n = rules.players
        for me in (None, 0):
            sides = [side_name(side, n, me) for side in range(rules.sides)]
            seats = [seat_name(seat, me) for seat in range(n)]
            lines = narrate(events, n, me)
            scored = [line for line in lines if " pay " not in line and " pays " not in line]
            assert _points_said(scored, sides, seats, n) == _scored(events), (rules, me)
