"""Bots think in worker processes, never on the server's event loop.

A bot's decision can take tens of milliseconds (``hard``) or more
(``expert``); on the event loop, or on threads of the server's process (one
interpreter lock), that time is taken from every other table's websockets. A
:class:`BotPool` keeps ``workers`` processes (by default one per core) and
hands each one job at a time: a seat's :class:`~ronda.engine.view.SeatView`,
the legal actions, the bot's level and a seed. Nothing else crosses to a
worker (R11): a worker never holds a game, only what the seat may know.

Fairness: each table asks for at most one decision at a time (its driver
awaits the answer), and waiting jobs are served first come, first served, so
every table with a bot to move gets a worker in turn: a table of expert bots
cannot keep the workers from the others, it only waits longer for its own.
One exception: a decision *inherited* by a table just rebuilt from the store
(another process that owned it died, or the server restarted) was owed
before anything queued here, and its people have waited for it all through
the takeover: it goes first (``choose(..., inherited=True)``). A table
inherits at most one such decision per rebuild, so this cannot keep the
workers from the others either.

Workers run at a lower CPU priority than the server (:data:`WORKER_NICENESS`):
when bots keep every core busy, a socket still never waits for a bot.

The same workers search hints and analyses (:mod:`ronda.analysis`, one
decision a job: :meth:`BotPool.evaluate`), for the same reasons. A hint is
asked for by a person waiting, like a bot's move, and queues with them; the
decisions of a game's analysis are *background* jobs, given a worker only when
no other job waits and never more than all workers but one, so an analysis of
a long game delays a bot's move by one decision's search at most.

A worker that dies (killed, out of memory, a crash in a bot) is replaced at
once and its job given to another worker; a job that kills two workers in a
row fails with :class:`BotFailed`, and the table plays a legal action for
the seat instead (logged), so a game never stalls on a bot.

Workers are plain subprocesses (``python -m ronda.interfaces.web.workers``)
that speak length-prefixed pickles over their standard input and output: no
fork of the server's threads (the store's, uvicorn's), no re-import of the
server's main module, and a dead worker shows at once as the end of its pipe.
They start when the first bot decision is asked for (about 0.4 s each).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import pickle
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ...analysis.search import Evaluation, Method, evaluate
from ...engine.actions import Action
from ...engine.view import SeatView

log = logging.getLogger("ronda.web")

CRASHES_PER_JOB = 2
"""Workers a job may take down with it before it is given up."""

_LENGTH = struct.Struct("!I")


class BotFailed(Exception):
    """A bot could not give a decision (it raised, or its worker died twice)."""


def default_workers() -> int:
    """One worker per core the server may use."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores)


def think(level: str, seed: int, view: SeatView, legal: Sequence[Action]) -> Action:
    """One bot decision, as a worker computes it: a fresh bot of ``level`` seeded with ``seed``.

    Bots keep nothing between decisions that the view does not hold, so a new
    bot per decision plays as the same bot would, and any worker can serve
    any table.

    >>> from ronda import Game, Rules
    >>> game = Game(Rules(players=2), seed=1)
    >>> think("easy", 3, game.view(game.turn), game.legal_actions()) in game.legal_actions()
    True
    """
    from ...bots import make_bot

    return make_bot(level, seed=seed).choose(view, list(legal))


def evaluate_decision(view: SeatView, legal: Sequence[Action], method: Method, seed: int) -> Evaluation:
    """One decision's options valued from its seat's view (:func:`ronda.analysis.search.evaluate`), as a worker does."""
    return evaluate(view, legal, method, seed=seed)


TASKS: dict[str, Callable[..., Any]] = {"think": think, "evaluate": evaluate_decision}
"""What a worker does, by the name a job gives: a bot's decision, or the evaluation of a decision."""


def frame(message: object) -> bytes:
    """One message as sent down a pipe: its length, then its pickle.

    >>> framed = frame(None)
    >>> int.from_bytes(framed[:4], "big") == len(framed) - 4
    True
    """
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(data)) + data


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """A worker's life: answer jobs until told to stop (``None``) or the server goes away.

    Only the server writes to a worker's pipe, so unpickling its messages is safe.
    """
    while True:
        head = _read_exactly(requests, _LENGTH.size)
        if head is None:
            return
        body = _read_exactly(requests, _LENGTH.unpack(head)[0])
        if body is None:
            return
        job = pickle.loads(body)
        if job is None:
            return
        number, task, args = job
        try:
            answer: tuple[int, Any, str | None] = (number, TASKS[task](*args), None)
        except Exception as error:  # the kind only: a message could name a card of the seat's hand
            answer = (number, None, type(error).__name__)
        try:
            answers.write(frame(answer))
            answers.flush()
        except (BrokenPipeError, OSError):
            return


@dataclass
class _Job:
    number: int
    task: str
    payload: tuple[Any, ...]
    future: asyncio.Future[Any]
    queue: collections.deque[_Job] = field(repr=False, compare=False)
    """The line it waits in (and goes back to the front of if its worker dies)."""
    crashes: int = 0
    queued_at: float = field(default_factory=time.monotonic)


@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    job: _Job | None = None
    buffer: bytearray = field(default_factory=bytearray)
    served: int = 0

    @property
    def fd(self) -> int:
        assert self.process.stdout is not None
        return self.process.stdout.fileno()


@dataclass
class BotPool:
    """Worker processes for bot decisions; :meth:`choose` is awaited from the event loop."""

    workers: int = field(default_factory=default_workers)
    _idle: list[_Worker] = field(default_factory=list)
    _busy: dict[int, _Worker] = field(default_factory=dict)
    _waiting: collections.deque[_Job] = field(default_factory=collections.deque)
    _inherited: collections.deque[_Job] = field(default_factory=collections.deque)
    """Decisions owed since before a takeover or a restart: served before ``_waiting`` (see the module)."""
    _background: collections.deque[_Job] = field(default_factory=collections.deque)
    _numbers: int = 0
    _closed: bool = False
    restarts: int = 0
    """Workers replaced after dying (a figure for tests and logs)."""
    on_wait: Callable[[float], None] | None = None
    """Told how long each job waited in line before a worker took it (the bot queue wait metric)."""

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"a bot pool needs at least one worker, not {self.workers}")

    # ------------------------------------------------------------- asking

    async def choose(
        self, level: str, seed: int, view: SeatView, legal: Sequence[Action], *, inherited: bool = False
    ) -> Action:
        """The decision of a ``level`` bot for the seat of ``view``; :class:`BotFailed` if none came.

        ``inherited``: the decision was owed before its table was rebuilt from the store (a takeover, a restart):
        it is served before the others waiting (see the module).
        """
        queue = self._inherited if inherited else self._waiting
        action: Action = await self._ask("think", (level, seed, view, tuple(legal)), queue)
        return action

    async def evaluate(
        self, view: SeatView, legal: Sequence[Action], method: Method, seed: int, *, background: bool = False
    ) -> Evaluation:
        """The options of the decision ``view`` faces, valued from that view alone; :class:`BotFailed` if it failed.

        ``background``: a job of an analysis, served only when nothing else waits (see the module).
        """
        queue = self._background if background else self._waiting
        evaluation: Evaluation = await self._ask("evaluate", (view, tuple(legal), method, seed), queue)
        return evaluation

    async def _ask(self, task: str, payload: tuple[Any, ...], queue: collections.deque[_Job]) -> Any:
        if self._closed:
            raise BotFailed("the bot pool is closed")
        loop = asyncio.get_running_loop()
        self._numbers += 1
        job = _Job(self._numbers, task, payload, loop.create_future(), queue)
        queue.append(job)
        self._dispatch()
        try:
            return await job.future
        finally:
            if not job.future.done():  # the asker stopped waiting (shutdown, a closed page): the job is dropped
                with contextlib.suppress(ValueError):
                    queue.remove(job)

    def pids(self) -> list[int]:
        """The process ids of the live workers (tests kill one for real)."""
        return [w.process.pid for w in [*self._idle, *self._busy.values()]]

    @property
    def queued(self) -> int:
        """Jobs waiting for a free worker (background ones too)."""
        return len(self._inherited) + len(self._waiting) + len(self._background)

    # ------------------------------------------------------------ workers

    def _start_worker(self) -> _Worker:
        env = dict(os.environ)
        # The worker imports the same ronda as the server, wherever it was imported from.
        env["PYTHONPATH"] = os.pathsep.join(p for p in [_package_root(), env.get("PYTHONPATH", "")] if p)
        process = subprocess.Popen(
            [sys.executable, "-m", "ronda.interfaces.web.workers"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            close_fds=True,
        )
        assert process.stdout is not None
        os.set_blocking(process.stdout.fileno(), False)
        return _Worker(process)

    def _next_job(self) -> _Job | None:
        """The job to serve next: inherited decisions, then moves and hints; an analysis's only with a worker to
        spare."""
        for queue in (self._inherited, self._waiting, self._background):
            while queue and queue[0].future.done():
                queue.popleft()  # its asker stopped waiting
        if self._inherited:
            return self._inherited[0]
        if self._waiting:
            return self._waiting[0]
        # Background jobs leave one worker free for moves and hints (unless there is only one).
        if self._background and len(self._busy) < max(1, self.workers - 1):
            return self._background[0]
        return None

    def _dispatch(self) -> None:
        while not self._closed and (job := self._next_job()) is not None:
            if self._idle:
                worker = self._idle.pop()
            elif len(self._busy) < self.workers:
                worker = self._start_worker()
            else:
                return
            job.queue.popleft()
            if self.on_wait is not None and not job.crashes:  # a job sent again after a crash waited once already
                self.on_wait(time.monotonic() - job.queued_at)
            self._send(worker, job)

    def _send(self, worker: _Worker, job: _Job) -> None:
        worker.job = job
        fd = worker.fd
        self._busy[fd] = worker
        asyncio.get_running_loop().add_reader(fd, self._readable, fd)
        try:
            assert worker.process.stdin is not None
            worker.process.stdin.write(frame((job.number, job.task, job.payload)))
            worker.process.stdin.flush()
        except (OSError, ValueError):
            self._died(fd)

    def _readable(self, fd: int) -> None:
        worker = self._busy.get(fd)
        if worker is None:
            return
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._died(fd)
            return
        worker.buffer += chunk
        if len(worker.buffer) < _LENGTH.size:
            return
        size = _LENGTH.unpack_from(worker.buffer)[0]
        if len(worker.buffer) < _LENGTH.size + size:
            return
        number, answer, failure = pickle.loads(bytes(worker.buffer[_LENGTH.size : _LENGTH.size + size]))
        del worker.buffer[: _LENGTH.size + size]
        asyncio.get_running_loop().remove_reader(fd)
        del self._busy[fd]
        job, worker.job = worker.job, None
        worker.served += 1
        if job is not None and job.number == number and not job.future.done():
            if failure is None:
                job.future.set_result(answer)
            else:
                job.future.set_exception(BotFailed(f"the bot raised {failure}"))
        self._idle.append(worker)
        self._dispatch()

    def _died(self, fd: int) -> None:
        """A worker's pipe closed: it is gone. Replace it, and give its job to another (or give the job up)."""
        worker = self._busy.pop(fd)
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(fd)
        _stop(worker, wait=0.5)
        self.restarts += 1
        job = worker.job
        log.warning("a bot worker stopped (exit %s); another takes its place", worker.process.returncode)
        if job is not None and not job.future.done():
            job.crashes += 1
            if job.crashes >= CRASHES_PER_JOB:
                job.future.set_exception(BotFailed("the bot's worker stopped twice on this decision"))
            else:
                job.queue.appendleft(job)
        if not self._closed:
            self._dispatch()

    async def close(self) -> None:
        """Stop every worker (politely, then for good) and fail the jobs still waiting."""
        self._closed = True
        loop = asyncio.get_running_loop()
        for job in [*self._inherited, *self._waiting, *self._background]:
            if not job.future.done():
                job.future.set_exception(BotFailed("the server is stopping"))
        self._inherited.clear()
        self._waiting.clear()
        self._background.clear()
        everyone = [*self._idle, *self._busy.values()]
        for fd, worker in list(self._busy.items()):
            with contextlib.suppress(Exception):
                loop.remove_reader(fd)
            if worker.job is not None and not worker.job.future.done():
                worker.job.future.set_exception(BotFailed("the server is stopping"))
        self._idle, self._busy = [], {}
        await asyncio.to_thread(_stop_all, everyone)


def _package_root() -> str:
    """The folder that holds the ``ronda`` package this server runs."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))))


def _stop_all(workers: list[_Worker]) -> None:
    for worker in workers:
        _stop(worker, wait=2.0)


def _stop(worker: _Worker, wait: float) -> None:
    process = worker.process
    with contextlib.suppress(Exception):
        assert process.stdin is not None
        process.stdin.close()  # the worker reads the end of its input and leaves
    try:
        process.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=2)
    with contextlib.suppress(Exception):
        assert process.stdout is not None
        process.stdout.close()


WORKER_NICENESS = 10
"""How much lower a worker's CPU priority is than the server's: when bots keep every core busy, the
server's event loop (sockets, the engine's quick work) still runs first, and bots take what is left."""


def main() -> None:
    """Run as a worker: the answers go to the original standard output, anything printed to standard error."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
