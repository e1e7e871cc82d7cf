"""The analysis of finished games for their replays: every decision valued from its seat's view, off the event loop.

``GET /api/tables/{id}/analysis?game=N`` asks for it. The first request starts
it: the stored record is read, its decisions with a choice are listed
(:func:`ronda.analysis.review.moments`) and each is searched in the bot
workers as a *background* job (:meth:`.workers.BotPool.evaluate`: moves and
hints go first, and one worker is always left for them), with the seed
``ronda analyse`` gives it — so the browser shows the numbers the command line
prints for the same record and budget. Until it is done every request gets
its progress; once done it is stored (``ronda_analyses``) and every later
request, after a restart too, reads it at once.

At most :data:`RUNNING` analyses are searched at a time over the whole server;
a request for another one meanwhile is refused (503 ``busy``, with
``Retry-After``) and may be asked again: a server that many people use keeps
its workers for their games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

from ...analysis.hints import read_hints
from ...analysis.review import FORMAT, Decision, Moment, Review, moments, moves_of
from ...analysis.search import Evaluation, Method, decision_seed
from ...engine.errors import RecordError
from ...engine.rules import Rules
from .forms import HttpError
from .store import Journal, StoreUnavailable
from .workers import BotFailed, BotPool

log = logging.getLogger("ronda.web")

RUNNING = 2
"""Analyses searched at once over the whole server."""
BUSY_RETRY = 10
"""Seconds a refused request is told to wait (``Retry-After``)."""


@dataclass
class _Run:
    """One analysis being searched: how many decisions, how many done, the result or the failure once known."""

    total: int
    moves: dict[int, int]
    """Each seat's moves, with a choice or not: the summaries count the decisions analysed "of" them."""
    done: int = 0
    result: dict[str, Any] | None = None
    failed: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)


def _choices_and_moves(record: dict[str, Any]) -> tuple[list[Moment], dict[int, int]]:
    """A record's decisions with a choice, the ones searched, and each seat's moves: the summaries count the first
    "of" the second, as ``ronda analyse`` does. Raises :class:`RecordError` for a record that cannot be replayed."""
    every = list(moments(record))
    seats = range(Rules.from_dict(record["rules"]).players)
    return [m for m in every if m.is_choice()], moves_of(every, seats)


class Analyses:
    """Every analysis the server searches or has stored, by table and game."""

    def __init__(self, journal: Journal, pool: BotPool, method: Method) -> None:
        self.journal = journal
        self.pool = pool
        self.method = method
        self.runs: dict[tuple[str, int], _Run] = {}

    async def get(self, table_id: str, game: int) -> tuple[int, dict[str, Any]]:
        """The analysis of a finished game (200), or its progress (202); starts it when nobody has yet.

        The caller has checked that the game is finished and may be shown.
        """
        key = (table_id, game)
        run = self.runs.get(key)
        if run is not None and run.result is not None:
            return 200, {"status": "done", "analysis": run.result}
        if run is not None and not run.failed:
            return 202, {"status": "running", "done": run.done, "total": run.total}
        try:
            stored = await self.journal.read(self.journal.store.load_analysis, table_id, game)
            if stored is not None and stored.get("format") == FORMAT:
                return 200, {"status": "done", "analysis": stored}
            # An analysis stored in an older format (points, before issue 28) is searched again, and replaced.
            if sum(1 for r in self.runs.values() if r.result is None and not r.failed) >= RUNNING:
                raise HttpError(503, "busy", "the server is analysing other games: ask again in a moment", BUSY_RETRY)
            record = await self.journal.read(self.journal.store.load_record, table_id, game)
        except StoreUnavailable:
            raise HttpError(503, "store_unavailable", "the server cannot read its games just now: try again") from None
        try:
            found, moves = await asyncio.to_thread(_choices_and_moves, record)
        except RecordError as error:
            log.error("table %s: game %d cannot be analysed (%s)", table_id, game, error.where)
            raise HttpError(
                500, "damaged", "this game's record cannot be replayed (the server's log says where)"
            ) from None
        run = _Run(len(found), moves)
        self.runs[key] = run
        run.task = asyncio.get_running_loop().create_task(self._search(key, run, record, found))
        return 202, {"status": "running", "done": 0, "total": run.total}

    async def _search(self, key: tuple[str, int], run: _Run, record: dict[str, Any], found: list[Moment]) -> None:
        async def one(moment: Moment) -> Evaluation:
            seed = decision_seed(moment.view, moment.index)
            evaluation = await self.pool.evaluate(moment.view, moment.legal, self.method, seed, background=True)
            run.done += 1
            return evaluation

        try:
            evaluations = await asyncio.gather(*(one(m) for m in found))
        except BotFailed as error:
            log.error("table %s: the analysis of game %d failed (%s)", key[0], key[1], error)
            run.failed = True
            return
        hinted = {(h.round, h.action) for h in read_hints(record)}
        rules = Rules.from_dict(record["rules"])
        decisions = tuple(
            Decision(m, e, (m.round, m.action) in hinted) for m, e in zip(found, evaluations, strict=True)
        )
        review = Review(rules, decisions, self.method, 0, tuple(range(rules.players)), moves=run.moves)
        run.result = review.to_json()
        try:
            await self.journal.write(self.journal.store.save_analysis, key[0], key[1], run.result)
        except StoreUnavailable:
            return  # kept in memory: asked again after a restart, it is searched again
        self.runs.pop(key, None)

    async def close(self) -> None:
        """Stop the analyses being searched (the server is stopping): they start again when asked for."""
        for run in self.runs.values():
            if run.task is not None:
                run.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await run.task
        self.runs.clear()


__all__ = ["RUNNING", "Analyses"]
