"""Cards drawn for the terminal: suit symbols and colours, readable rank names, card faces and backs.

Pure functions over Rich ``Text`` so they are used by the full-screen app and
tested without a screen. Every face shows the card's notation (``5c``, R1.2)
in its corner, so what is on screen is what a player types in the plain mode.

The Spanish suits have no symbols of their own in fonts; they are drawn with
the French suits of the usual correspondence (oros ♦, copas ♥, espadas ♠,
bastos ♣), in the colours of the Spanish pack: oros gold, copas red, espadas
blue, bastos green.

>>> from ronda.engine.cards import parse_card
>>> print(face_lines(parse_card("11c"))[1].plain, face_lines(parse_card("11c"))[2].plain)
│11c   ♥│ │Caballo│
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rich.text import Text

from ...engine.cards import RANK_NAMES, SUIT_NAMES, card_name, rank_of, suit_of

SUIT_SYMBOLS = ("♦", "♥", "♠", "♣")
SUIT_COLOURS = ("#b8860b", "#c62828", "#1e58b4", "#1b7a35")
"""Ink on the card's face: oros gold, copas red, espadas blue, bastos green."""
SUIT_COLOURS_ON_DARK = ("#f2c230", "#ff5a4f", "#5fa8ff", "#4cc96a")
"""The same colours, bright enough for card names in text on a dark background."""
FACE = "on #f6f1e3"
BACK = "#f6f1e3 on #7a1f2b"
WIDTH = 9
"""Columns of a drawn card, borders included."""
HEIGHT = 5
COMPACT_HEIGHT = 3
"""Lines of a card drawn compact (its edges and its corner only), for a terminal too short for whole faces."""

_CARD_NAME = re.compile(r"\b(1[0-2]|[1-7])([oceb])\b")


_EDGES = {  # top-left, top-right, bottom-left, bottom-right, across, down
    "plain": "╭╮╰╯─│",
    "selected": "╔╗╚╝═║",
    "marked": "┏┓┗┛━┃",
}
MARK_COLOUR = "#00bcd4"
"""The edge of a card a bot just played or took: a colour no suit uses, on top of a heavy line."""


def face_lines(
    card: int,
    selected: bool = False,
    label: str = "",
    marked: bool = False,
    compact: bool = False,
    one_line: bool = False,
) -> list[Text]:
    """The five lines of a card's face (three when ``compact``: the corner alone between the edges; one when
    ``one_line``: the corner between the sides); ``label`` (the key that plays it, or a mark) sits in the top
    edge — on one line, a key of one character before the corner ("│1 4c  ♥│"), a longer mark not at all.

    The corner holds the notation and the suit symbol; the middle the rank as
    players name it (Sota, Caballo, Rey for 10, 11, 12) or its pips, and the suit's name.
    A selected card has a double edge, a ``marked`` one (what a bot just did) a
    heavy edge: both read without colour.
    """
    suit = suit_of(card)
    ink = f"{SUIT_COLOURS[suit]} {FACE}"
    colour = "#ffd700" if selected else MARK_COLOUR if marked else SUIT_COLOURS[suit]
    edge = f"bold {colour} {FACE}"
    name = card_name(card)
    inner = WIDTH - 2
    edges = _EDGES["selected" if selected else "marked" if marked else "plain"]
    top_left, top_right, bottom_left, bottom_right, line_char, side = tuple(edges)
    title = f"{line_char} {label} " if label else ""
    title += line_char * (inner - len(title))
    top = top_left + title + top_right
    bottom = bottom_left + line_char * inner + bottom_right
    corner = name.ljust(inner - 1) + SUIT_SYMBOLS[suit]
    key = label if one_line and len(label) == 1 else ""
    if key:
        corner = f"{name} ".ljust(inner - 3) + SUIT_SYMBOLS[suit]
    rank = RANK_NAMES[rank_of(card)]
    pips = rank_of(card) + 1 if rank_of(card) < 7 else 0  # 1 to 7 pips, as on the pack's number cards
    middle = (SUIT_SYMBOLS[suit] * pips if pips else rank).center(inner)
    lines = [] if one_line else [Text(top, style=edge)]
    rows = ((corner, f"bold {ink}"), (middle, f"bold {ink}"), (SUIT_NAMES[suit].center(inner), ink))
    for content, style in rows[:1] if compact or one_line else rows:
        line = Text(side, style=edge)
        if key:
            line.append(f"{key} ", style=edge)
        line.append(content, style=style)
        line.append(side, style=edge)
        lines.append(line)
    if not one_line:
        lines.append(Text(bottom, style=edge))
    return lines


def back_lines() -> list[Text]:
    """A card face down (another seat's hand is only ever drawn like this, R11)."""
    inner = WIDTH - 2
    return [
        Text("╭" + "─" * inner + "╮", style=BACK),
        *[Text("│" + "▚" * inner + "│", style=BACK) for _ in range(HEIGHT - 2)],
        Text("╰" + "─" * inner + "╯", style=BACK),
    ]


def spread(
    cards: Sequence[int],
    width: int,
    selected: int | None = None,
    labels: bool = False,
    marks: Mapping[int, str] | None = None,
    compact: bool = False,
    one_line: bool = False,
) -> Text:
    """Cards side by side, wrapped to ``width`` columns; ``labels`` numbers them 1, 2, 3 in their top edge;
    ``compact`` draws each card in three lines, ``one_line`` in one (:func:`face_lines`).

    ``marks`` maps a card to a short word for its top edge ("took", "s1") and
    draws it marked (:func:`face_lines`).

    >>> spread([], 40).plain
    ''
    >>> from ronda.engine.cards import parse_card
    >>> spread([parse_card("5o")], 40, marks={parse_card("5o"): "took"}).plain.splitlines()[0]
    '┏━ took ┓ '
    """
    if not cards:
        return Text("")
    marks = marks or {}
    per_row = max(1, (width + 1) // (WIDTH + 1))
    rows: list[Text] = []
    for start in range(0, len(cards), per_row):
        row = list(cards[start : start + per_row])
        faces = [
            face_lines(
                card,
                selected == start + i,
                str(start + i + 1) if labels else marks.get(card, ""),
                marked=card in marks,
                compact=compact,
                one_line=one_line,
            )
            for i, card in enumerate(row)
        ]
        for line_no in range(_card_height(compact, one_line)):
            line = Text()
            for face in faces:
                line.append_text(face[line_no])
                line.append(" ")
            rows.append(line)
    return Text("\n").join(rows)


def spread_height(count: int, width: int, compact: bool = False, one_line: bool = False) -> int:
    """Lines :func:`spread` takes for ``count`` cards in ``width`` columns.

    >>> spread_height(4, 40), spread_height(4, 30), spread_height(4, 30, compact=True)
    (5, 10, 6)
    >>> spread_height(4, 30, one_line=True), spread_height(0, 30, one_line=True)
    (2, 0)
    """
    if not count:
        return 0
    per_row = max(1, (width + 1) // (WIDTH + 1))
    return -(-count // per_row) * _card_height(compact, one_line)


def _card_height(compact: bool, one_line: bool) -> int:
    return 1 if one_line else COMPACT_HEIGHT if compact else HEIGHT


def backs(count: int) -> Text:
    """A hand of ``count`` face-down cards, small: one block a card."""
    return Text("▮" * count, style="#c2185b") if count else Text("—", style="dim")


def coloured(line: str, style: str = "") -> Text:
    """A narration line with every card name in its suit's colour."""
    text = Text(line, style=style)
    for match in _CARD_NAME.finditer(line):
        suit = "oceb".index(match.group(2))
        text.stylize(f"bold {SUIT_COLOURS_ON_DARK[suit]}", match.start(), match.end())
    return text
