"""Plain progress lines, for a long search whose output is not a terminal, or is a line transcript.

``ronda analyse --progress`` and ``ronda arena --progress`` write them on stderr
off a terminal (:mod:`ronda.cli.progress`, where a bar draws nothing there);
``ronda play --plain`` writes them among the game's lines while it analyses a
finished game. They live here, with the other words a player reads, so that the
terminal interface may use them without importing the commands above it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

Update = Callable[[int], None]
"""Called with how many of the total are done."""


LINE_PERCENT = 5
"""Off a terminal, a progress line each time this many more percent of the task is done."""
LINE_SECONDS = 10.0
"""Off a terminal, a progress line at least this often (seconds) while the task moves: a decision may take long."""


def progress_lines(
    label: str,
    total: int,
    unit: str,
    clock: Callable[[], float] = time.perf_counter,
    stream: TextIO | None = None,
) -> Update:
    """``update`` that writes plain progress lines on stderr, for a log or a pipe (see the module).

    Like ``analyse: 17/334 decisions (5%), about 120 s left``; the first at ``update(0)``, the last when
    ``total`` is done. ``stream``: where instead of stderr — ``ronda play --plain`` writes them among the
    game's own lines, where its player reads (and its tests drive) the game.
    """
    start = clock()
    said: tuple[int, float] | None = None  # the percent and the time of the last line

    def update(done: int) -> None:
        nonlocal said
        now = clock()
        percent = done * 100 // max(total, 1)
        if said is not None:
            if said[0] >= 100:
                return  # the end is said once
            if done < total and percent < said[0] + LINE_PERCENT and now - said[1] < LINE_SECONDS:
                return
        said = (100 if done >= total else percent, now)
        line = f"{label}: {done}/{total} {unit} ({percent}%)"
        if 0 < done < total:
            line += f", about {(now - start) / done * (total - done):.0f} s left"
        print(line, file=sys.stderr if stream is None else stream, flush=True)

    return update


__all__ = ["LINE_PERCENT", "LINE_SECONDS", "Update", "progress_lines"]
