"""Lines of narration wrapped for a narrow pane at the seams of their phrases, never inside one.

A plain word wrap breaks "seat 1" or "+1 (caida)" across two lines in a
46-column play-by-play; a reader then has to put the phrase back together.
:func:`wrap_phrases` breaks where a person would pause: after a sentence,
then after ``;``, ``:``, ``,`` or before ``—``, and only then between words,
never between a word and the number that follows it ("seat 1", "target 41"),
a number and its noun ("3 cards", "seats 1 and 3") or a short parenthesis
("(caida)"). Continuation lines are indented so each narration line stays
one block.

>>> for line in wrap_phrases("Ronda, 2 players: you are seat 0; bots: seat 1 (medium). Classic rules.", 40):
...     print(line)
Ronda, 2 players: you are seat 0;
  bots: seat 1 (medium). Classic rules.
"""

from __future__ import annotations

import re

__all__ = ["wrap_phrases"]

_NUMBER = re.compile(r"^[+-]?\d")
_CARD = re.compile(r"^(1[0-2]|[1-7])[oceb][,.;:]?$")
_SHORT_PARENTHESIS = 14
"""A parenthesis this long or shorter stays on the line of the word before it: '+1 (caida)', 'seat 1 (medium)'."""


def _gap_strength(before: str, after: str) -> int:
    """How good a line break is between two words: 4 after a sentence … 1 between words, 0 never."""
    if before.endswith((".", "!", "?")):
        return 4
    if before.endswith(";") or after in ("—", "│"):
        return 3
    if before.endswith((":", ",")) or after == "·":
        return 2
    if _CARD.match(before) or _CARD.match(after):
        return 1  # a list of cards may break between any two of them
    if _NUMBER.match(after) and before[-1:].isalpha():
        return 0  # seat 1, round 2, target 41, takes 2
    if before.lstrip("+-").isdigit() and (after[:1].isalpha() or after == "&"):
        return 0  # 3 cards, 30 left, 1 and 3
    if before in ("and", "&") and _NUMBER.match(after):
        return 0
    if after.startswith("(") and after.endswith((")", "),", ").", ");", "):")) and len(after) <= _SHORT_PARENTHESIS:
        return 0
    if before == "—":
        return 0  # '— caida!' stays together
    return 1


def wrap_phrases(line: str, width: int, indent: int = 2) -> list[str]:
    """``line`` in lines of at most ``width`` columns, broken between phrases; later lines start with ``indent`` spaces.

    Leading spaces of ``line`` are kept on its first line and added to the
    indent of the others. A single word longer than a line is cut.

    >>> wrap_phrases("Seat 3 drops 10c — dealer duty failed: seat 0 +5", 30)
    ['Seat 3 drops 10c', '  — dealer duty failed:', '  seat 0 +5']
    >>> wrap_phrases("short", 30)
    ['short']
    """
    stripped = line.lstrip(" ")
    lead = line[: len(line) - len(stripped)]
    words = stripped.split(" ")
    if width <= len(lead) + indent + 4 or len(line) <= width:
        return [line]
    out: list[str] = []
    prefix = lead
    start = 0
    while start < len(words):
        room = width - len(prefix)
        end = start
        length = -1
        while end < len(words) and length + 1 + len(words[end]) <= room:
            length += 1 + len(words[end])
            end += 1
        if end == len(words):
            out.append(prefix + " ".join(words[start:end]))
            break
        if end == start:  # one word longer than the line: cut it
            word = words[start]
            out.append(prefix + word[:room])
            words[start] = word[room:]
            prefix = lead + " " * indent
            continue
        end = _best_break(words, start, end, room)
        out.append(prefix + " ".join(words[start:end]))
        start = end
        prefix = lead + " " * indent
    return out


def _best_break(words: list[str], start: int, end: int, room: int) -> int:
    """Where the next line starts when ``words[start:end]`` fit on this one and ``words[end]`` does not.

    The strongest seam that leaves the line at least half full wins, the later
    of equals; failing that, the last seam that is not inside a phrase; failing
    that, the line is simply full.
    """
    cuts = []  # (where the next line starts, columns this line would take, strength of the seam)
    column = -1
    for cut in range(start + 1, end + 1):
        column += 1 + len(words[cut - 1])
        cuts.append((cut, column, _gap_strength(words[cut - 1], words[cut])))
    half_full = [(strength, cut) for cut, column, strength in cuts if column * 2 >= room and strength]
    if half_full:
        return max(half_full)[1]
    loose = [cut for cut, _, strength in cuts if strength]
    return loose[-1] if loose else end
