"""A progress bar with the time left, for the long commands (``arena``, ``analyse``).

Rich draws it when installed (the ``arena`` extra); without it one line on
stderr is rewritten in place. Either way it goes to stderr, so ``--json`` on
stdout stays clean. Off a terminal (``--progress`` with stderr to a file or a
pipe, as in a log) a bar draws nothing — rich leaves a transient bar out, and a
rewritten line is one endless line of carriage returns — so progress is plain
lines there: one every :data:`LINE_PERCENT` percent or :data:`LINE_SECONDS`
seconds, whichever comes first, and one at the end
(:mod:`ronda.presentation.progress`, where ``ronda play --plain`` finds them too).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from ..presentation.progress import LINE_PERCENT, LINE_SECONDS, Update, progress_lines


def progress_bar(label: str, total: int, unit: str, enabled: bool) -> tuple[Update, Callable[[], None]]:
    """``(update, stop)`` for a task of ``total`` steps called ``unit``; both do nothing when not ``enabled``.

    The bar shows at the first ``update`` (call ``update(0)`` to show it at
    once), not before ``stop`` is in the caller's hands: a Ctrl-C while it
    starts is then caught where ``stop`` can take it away, instead of leaving it
    drawing over the line that says why the command stopped.
    """
    if not enabled:
        return (lambda done: None), (lambda: None)
    if not sys.stderr.isatty():
        return progress_lines(label, total, unit), (lambda: None)
    try:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        bar = Progress(
            TextColumn(f"[bold]{label}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(unit),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        task = bar.add_task(unit, total=total)
        shown = False

        def update(done: int) -> None:
            nonlocal shown
            if not shown:
                shown = True
                bar.start()
            bar.update(task, completed=done)

        return update, bar.stop
    except ImportError:
        start = time.perf_counter()

        def update(done: int) -> None:
            left = (time.perf_counter() - start) / max(done, 1) * (total - done)
            print(f"\r{label}: {done}/{total} {unit}, about {left:.0f} s left ", end="", file=sys.stderr, flush=True)

        return update, (lambda: print(file=sys.stderr))


__all__ = ["LINE_PERCENT", "LINE_SECONDS", "progress_bar", "progress_lines"]
