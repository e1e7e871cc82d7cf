"""The play-by-play pane breaks narration between phrases, never inside one ('seat 1', '+1 (caida)')."""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from terminal_helpers import quick_settings
from test_session import play_until_round_ends

from ronda.interfaces.terminal.session import Session
from ronda.interfaces.terminal.wrap import wrap_phrases

NUMBER = re.compile(r"^[+-]?\d+[,.;:)]*$")  # a number, not a card (5c)
BARE_NUMBER = re.compile(r"^[+-]?\d+$")


@cache
def narration() -> tuple[str, ...]:
    """Every line a person reads in the log of a first round, in 2, 3 and 4 players, with the title and summaries."""
    lines: list[str] = []
    for players in (2, 3, 4):
        session = Session(quick_settings(seed=players, players=players))
        play_until_round_ends(session)
        lines += [session.title(), *session.lines]
    return tuple(lines)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=24, max_value=80))
def test_a_wrapped_line_keeps_its_words_and_its_phrases(index: int, width: int) -> None:
    line = narration()[index % len(narration())]
    wrapped = wrap_phrases(line, width)
    assert all(len(part) <= width for part in wrapped)
    assert " ".join(part.strip() for part in wrapped) == line.strip()  # nothing lost, nothing added
    assert all(part.startswith(" " * (len(line) - len(line.lstrip()) + 2)) for part in wrapped[1:])  # indented
    for before, after in pairwise(wrapped):
        last, first = before.split()[-1], after.split()[0]
        assert not (last[-1:].isalpha() and NUMBER.match(first)), (before, after)  # 'seat' / '1'
        assert not (BARE_NUMBER.match(last) and first[:1].isalpha()), (before, after)  # '3' / 'cards'
        assert not (first.startswith("(") and first.endswith(")") and len(first) <= 14), (before, after)  # '(caida)'
        assert last != "—", (before, after)  # '— caida!' stays whole


def test_the_game_title_breaks_at_its_seams_in_a_narrow_pane():
    title = "Ronda, 2 players: you are seat 0; bots: seat 1 (medium). Classic rules, target 41. Seed 638104."
    assert wrap_phrases(title, 44) == [
        "Ronda, 2 players: you are seat 0;",
        "  bots: seat 1 (medium).",
        "  Classic rules, target 41. Seed 638104.",
    ]
