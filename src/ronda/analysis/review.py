"""Every decision of a game record analysed from its seat's view, and each seat's summary (``ronda analyse``).

The record is replayed by the engine (a bad record is refused with
:class:`~ronda.engine.errors.RecordError`, as ``ronda replay`` refuses it),
and every decision that offered a real choice — two cards of different ranks,
a declaration, a challenge — is searched from the view its seat had then
(:func:`~ronda.analysis.search.evaluate`). A play with one card, or with
cards of one rank only (suits never matter, R1.1), is not a choice and is left out.

**A game still being played** (a record saved mid-game, RECORD.md) keeps its
deal in progress hidden (R11): its decisions are not analysed, since a seat's
options there are its hand, which the other seats have not seen yet, and a
declaration's facts say whether it is true — what a challenge is decided on;
the record does not say whose eyes read the analysis. Every earlier deal is
played out, its cards seen by all. Asked for one seat alone (``seats=[S]``,
the player's own), that seat's decisions of the deal are analysed: its hand
is its own.

Each decision is seeded by :func:`~ronda.analysis.search.decision_seed` from
its index among the record's actions and its seat's view, so the analysis is
the same run after run, with any number of worker processes, on any machine;
and decisions whose seat saw the same thing get the same numbers whatever the
hidden cards were.

>>> from ronda import Game, Rules
>>> game = Game(Rules(players=2, target=3), seed=8)
>>> while not game.finished:
...     _ = game.apply(game.legal_actions()[0])
>>> review = analyse(game.to_record(), method=Method(guesses=2), seats=[0])
>>> {d.seat for d in review.decisions}, review.summary(0).decisions == len(review.decisions)
({0}, True)
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, action_from_record, action_to_record
from ..engine.cards import card_name, parse_card
from ..engine.game import WAITING, Game
from ..engine.record import replay
from ..engine.rules import Rules
from ..engine.view import SeatView
from .grades import GRADES, THRESHOLDS, Grade, grade, shown_chance, shown_loss
from .hints import Hint, read_hints
from .search import (
    SOURCES,
    DeclareFacts,
    Evaluation,
    Facts,
    Method,
    Option,
    PlayFacts,
    Sources,
    decision_seed,
    evaluate,
    has_choice,
    offered,
)

COSTLIEST = 5
"""How many of a seat's costliest decisions its summary tells."""

SWING = 5
"""Points a decision can cost at most short of a round's swing: a bluffed tringa's penalty, two caidas and a missa."""
FLAT = THRESHOLDS["inaccuracy"]
"""A game whose chance to win moves less than this for :data:`SWING` points at the start is too long to grade by
chances: a bluffed tringa would be at most "good" there (:func:`chance_of_points`)."""


def chance_of_points(rules: Rules, points: int = SWING) -> float:
    """How much ``points`` ahead at the start (0-0) raise a side's chance to win, by the win-probability model.

    About 11 percentage points for 5 points at the classic target 41, 2.6 at 1000, 0.8 at 10000 (the target of
    ``ronda arena --rounds`` records, which plays a number of rounds, not a game): there no decision moves the
    chance to win measurably against the search's precision, and every decision looks "best"
    (:attr:`Review.far_target`).

    >>> round(chance_of_points(Rules(players=2, target=10000)) * 100, 1)
    0.8
    """
    from ..bots.winprob import win_probability

    level = [0] * rules.sides
    ahead = [points, *level[1:]]
    dealer = rules.players - 1
    return win_probability(rules, ahead, dealer)[0] - win_probability(rules, level, dealer)[0]


FORMAT = "ronda-analysis/3"
"""The format of :meth:`Review.to_json`: 2 since options are valued by their chance to win the game (issue 28), 3
since each ``chance`` is given as shown, to a tenth of a percent, so that a decision's ``loss`` is the difference of
two of them (a student's audit: 0.9053 - 0.8795 beside a loss of 0.025). An analysis stored in an older format is
searched again when asked for, so that the server's answer stays the command line's."""


@dataclass(frozen=True, slots=True)
class Moment:
    """A decision of the record before it was taken: where it is, its seat's view, what was legal, what was taken.

    ``index`` counts every action of the record from 0; ``action`` is the index
    within its round's ``actions`` (RECORD.md), as errors and hints name it.
    """

    index: int
    round: int
    action: int
    view: SeatView
    legal: tuple[Action, ...]
    taken: Action

    @property
    def seat(self) -> int:
        return self.view.seat

    @property
    def deal(self) -> int:
        return self.view.deal

    def is_choice(self) -> bool:
        """Whether the seat had a real choice: not one card, nor cards of a single rank with no challenge to make.

        A challenge the seat's cards prove would fail is not one to make (:func:`.search.offered`) unless the
        seat made it: then it is graded, as the blunder it is.
        """
        return has_choice([*offered(self.view, self.legal), self.taken])


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed decision: the moment, the evaluation of its options, and whether a hint was shown for it."""

    moment: Moment
    evaluation: Evaluation
    hinted: bool = False

    @property
    def seat(self) -> int:
        return self.moment.seat

    @property
    def taken(self) -> Action:
        return self.moment.taken

    @property
    def loss(self) -> float:
        """The chance to win the game the action taken gave up against the best option, to a tenth of a percentage
        point: as it is shown, so that its class is the class of the number shown (:func:`.grades.shown_loss`), and
        the difference of the two chances as they are shown (:func:`.grades.shown_chance`)."""
        best, taken = self.evaluation.best.chance, self.evaluation.option(self.moment.taken).chance
        return shown_loss(max(0.0, shown_chance(best) - shown_chance(taken)))

    @property
    def points_behind(self) -> float:
        """The expected points the action taken scored less than the best option (negative: more)."""
        return self.evaluation.points_behind(self.moment.taken)

    @property
    def grade(self) -> Grade:
        return grade(self.loss)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat's decisions in a game: how many, the average loss, how many of each class, the costliest.

    ``decisions`` counts the decisions with a choice, the ones analysed;
    ``moves`` every move the seat made in the part analysed, a play of its
    last card too: what a person counts (``None`` where the review did not
    count them, :attr:`Review.moves`).
    """

    seat: int
    decisions: int
    average_loss: float
    classes: dict[Grade, int]
    costliest: tuple[Decision, ...]
    moves: int | None = None


@dataclass(frozen=True)
class Review:
    """The analysis of a game record: every analysed decision in order, and how it was searched."""

    rules: Rules
    decisions: tuple[Decision, ...]
    method: Method
    seed: int
    seats: tuple[int, ...]
    hints: tuple[Hint, ...] = field(default=())
    withheld: int = 0
    """Decisions of a deal still being played that were not analysed: they would show hands still hidden (the
    module)."""
    moves: dict[int, int] = field(default_factory=dict)
    """Each analysed seat's moves in the part analysed, with a choice or not: a summary says its decisions "of" them,
    since a person who made 112 moves and reads of 88 decisions takes it for a miscount (a terminal audit)."""

    @property
    def far_target(self) -> bool:
        """Whether the game's target is so far that its chances cannot tell decisions apart: :data:`SWING` points
        move the chance to win less than :data:`FLAT` (about target 1100 and more with two players). Its
        decisions are graded "best" whatever points they cost; their expected points still tell them apart."""
        return chance_of_points(self.rules) < FLAT

    def summary(self, seat: int) -> SeatSummary:
        """``seat``'s summary: average loss per decision, counts per class, its :data:`COSTLIEST` costliest."""
        mine = [d for d in self.decisions if d.seat == seat]
        classes: dict[Grade, int] = dict.fromkeys(GRADES, 0)
        for decision in mine:
            classes[decision.grade] += 1
        average = sum(d.loss for d in mine) / len(mine) if mine else 0.0
        # Only decisions worse than "best" are costly: below that, a loss is within the search's precision.
        costly = sorted((d for d in mine if d.grade != "best"), key=lambda d: (-d.loss, d.moment.index))
        return SeatSummary(seat, len(mine), average, classes, tuple(costly[:COSTLIEST]), self.moves.get(seat))

    def to_json(self) -> dict[str, Any]:
        """The analysis as plain data, no words: ``ronda analyse --json`` without its sentences.

        Format 2 (issue 28): options are valued by their ``chance`` to win the
        game, a decision's ``loss`` is in winning chances, and ``points_behind``
        says how many expected points it scored less than the best option.
        """
        return {
            "format": FORMAT,
            "method": {
                "guesses": self.method.guesses,
                "deals": self.method.deals,
                "exact_plays": self.method.exact_plays,
                "read_plays": self.method.read_plays,
                "value": "chance to win the game",
                "seed": self.seed,
            },
            "thresholds": dict(THRESHOLDS),
            "decisions": [_decision_json(d) for d in self.decisions],
            "seats": [_summary_json(self.summary(seat)) for seat in self.seats],
            "withheld": self.withheld,
            "far_target": self.far_target,
        }


def action_json(seat: int, action: Action) -> dict[str, Any]:
    """An action as in a record, without its seat: ``{"play": "5o"}``."""
    entry = action_to_record(seat, action)
    del entry["seat"]
    return entry


def facts_json(facts: Facts) -> dict[str, Any]:
    """An option's facts as plain data, for the words of any language (the browser's, ``--json`` readers').

    >>> from ronda.analysis.search import DeclareFacts
    >>> facts_json(DeclareFacts("ronda", "none", 1))
    {'kind': 'declare', 'declared': 'ronda', 'held': 'none', 'penalty': 1, 'shown': False}
    """
    if isinstance(facts, PlayFacts):
        return {
            "kind": "play",
            "card": card_name(facts.card),
            "taken": [card_name(c) for c in facts.taken],
            "caida": facts.caida,
            "missa": facts.missa,
            "raised": facts.raised,
            "next_seat": facts.next_seat,
            "reply_caida": round(facts.reply_caida, 3),
            "reply_missa": round(facts.reply_missa, 3),
            "exposes": round(facts.exposes, 3),
            "declared": facts.declared,
            "penalty": facts.penalty,
            "taken_back": facts.taken_back,
            "partner": facts.partner,
        }
    if isinstance(facts, DeclareFacts):
        return {
            "kind": "declare",
            "declared": facts.declared,
            "held": facts.held,
            "penalty": facts.penalty,
            "shown": facts.shown,
        }
    return {
        "kind": "challenge",
        "target": facts.target,
        "declared": facts.declared,
        "loses_game": round(facts.loses_game, 3),
        "proven": facts.proven,
    }


def sources_json(sources: Sources) -> dict[str, float]:
    """An option's points by source, and its sweep share (:class:`~ronda.analysis.search.Sources`).

    >>> sources_json(Sources(cards=1.5, sweep=1.0))["cards"], sources_json(Sources())["sweep"]
    (1.5, 0.0)
    """
    return {**{source: round(sources.margin(source), 3) for source in SOURCES}, "sweep": round(sources.sweep, 3)}


def option_json(seat: int, option: Option) -> dict[str, Any]:
    """One option with its value, its chances to end the game, its facts, and its points by source.

    Its ``chance`` as it is shown (:func:`.grades.shown_chance`), not to the place more that it once had: a
    decision's ``loss`` is the difference of the two chances as shown, and a tool that subtracted 0.8795 from
    0.9053 found 0.0258 beside a loss of 0.025 (a student's audit); a page that rounded 0.8795 again showed
    87.9% where the terminal said 88.0%. A chance shown "over 99.9%" or "under 0.1%" is 1.0 or 0.0 here, as it is
    graded: ``won`` and ``lost`` say how often the game was in fact won or lost within the search.
    """
    return {
        **action_json(seat, option.action),
        "chance": shown_chance(option.chance),
        "expected": round(option.expected, 3),
        "won": round(option.won, 3),
        "lost": round(option.lost, 3),
        "facts": facts_json(option.facts),
        "sources": sources_json(option.sources),
    }


def _decision_json(decision: Decision) -> dict[str, Any]:
    moment, evaluation = decision.moment, decision.evaluation
    return {
        "index": moment.index,
        "round": moment.round,
        "action": moment.action,
        "deal": moment.deal,
        "seat": moment.seat,
        "taken": action_json(moment.seat, moment.taken),
        "loss": round(decision.loss, 4),
        "points_behind": round(decision.points_behind, 3),
        "class": decision.grade,
        "best": action_json(moment.seat, evaluation.best.action),
        "exact": evaluation.exact,
        "guesses": evaluation.guesses,
        "hinted": decision.hinted,
        "options": [option_json(moment.seat, option) for option in evaluation.options],
    }


def _summary_json(summary: SeatSummary) -> dict[str, Any]:
    return {
        "seat": summary.seat,
        "decisions": summary.decisions,
        "moves": summary.moves,
        "average_loss": round(summary.average_loss, 4),
        "classes": dict(summary.classes),
        "costliest": [d.moment.index for d in summary.costliest],
    }


# ------------------------------------------------------------------ moments


def moments(record: Mapping[str, Any]) -> Iterator[Moment]:
    """Every decision of a record, in order, with the view of its seat just before it.

    The record is checked by :func:`~ronda.engine.record.replay` first, so a bad
    one raises :class:`~ronda.engine.errors.RecordError` naming the action at fault.
    """
    replay(record)
    rules = Rules.from_dict(record["rules"])
    rounds = record["rounds"]
    decks = [[parse_card(c) for c in rnd["deck"]] for rnd in rounds]
    game = Game(rules, decks=decks[:1], dealer=record.get("dealer", rules.players - 1))
    index = 0
    for round_index, rnd in enumerate(rounds):
        if round_index:
            assert game.phase == WAITING
            game.add_deck(decks[round_index])
        for action_index, entry in enumerate(rnd.get("actions", [])):
            seat, action = action_from_record(entry)
            yield Moment(index, round_index, action_index, game.view(seat), tuple(game.legal_actions()), action)
            game.apply(action, seat=seat)
            index += 1


def _evaluate(moment: Moment, method: Method, seed: int) -> Evaluation:
    return evaluate(moment.view, moment.legal, method, seed=decision_seed(moment.view, moment.index, seed))


def _evaluate_task(task: tuple[Moment, Method, int]) -> Evaluation:
    """:func:`_evaluate` for worker processes: module-level, one argument."""
    return _evaluate(*task)


def analyse(
    record: Mapping[str, Any],
    *,
    method: Method | None = None,
    seats: Iterable[int] | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    started: Callable[[int], None] | None = None,
) -> Review:
    """Analyse every real choice of ``seats`` (default: every seat) in a record; see the module.

    ``jobs`` worker processes share the decisions (the results are the same
    for any number); they are *spawned*, so a script that asks for more than
    one runs its work under ``if __name__ == "__main__":``, as multiprocessing
    requires. ``started(total)`` is called once the record is checked, before the
    first decision is searched (which may take minutes with a large budget: a
    progress bar shows at once), and ``progress(done, total)`` after each decision.
    Ctrl-C (``KeyboardInterrupt``) stops the workers at once, not after the
    decisions queued for them, and is raised again.
    Raises :class:`~ronda.engine.errors.RecordError` for a bad record or bad hints,
    ``ValueError`` for a seat the game does not have.
    """
    method = method or Method()
    every = list(moments(record))  # checks the record first
    found = [m for m in every if m.is_choice()]
    hints = tuple(read_hints(record))
    rules = Rules.from_dict(record["rules"])
    chosen = tuple(range(rules.players)) if seats is None else tuple(sorted(set(seats)))
    for seat in chosen:
        if not 0 <= seat < rules.players:
            raise ValueError(f"there is no seat {seat} in a {rules.players}-player game")
    hinted = {(h.round, h.action) for h in hints}
    hidden = deal_in_progress(record)
    own = chosen[0] if len(chosen) == 1 else None
    analysed = [m for m in every if m.seat in chosen and (m.seat == own or (m.round, m.deal) != hidden)]
    todo = [m for m in analysed if m.is_choice()]
    withheld = sum(1 for m in found if m.seat in chosen) - len(todo)
    evaluations = _run(todo, method, seed, jobs, progress, started)
    decisions = tuple(Decision(m, e, (m.round, m.action) in hinted) for m, e in zip(todo, evaluations, strict=True))
    return Review(rules, decisions, method, seed, chosen, hints, withheld, moves_of(analysed, chosen))


def moves_of(found: Iterable[Moment], seats: Iterable[int]) -> dict[int, int]:
    """How many of ``found`` each of ``seats`` made: its moves, what a summary counts its decisions "of".

    >>> from ronda import Game, Rules
    >>> game = Game(Rules(players=2, target=3), seed=8)
    >>> for _ in range(8):
    ...     _ = game.apply(game.legal_actions()[0])
    >>> moves_of(moments(game.to_record()), [0, 1])
    {0: 4, 1: 4}
    """
    counts = dict.fromkeys(seats, 0)
    for moment in found:
        if moment.seat in counts:
            counts[moment.seat] += 1
    return counts


def deal_in_progress(record: Mapping[str, Any]) -> tuple[int, int] | None:
    """The deal a record stops in the middle of, as (round index, deal), or ``None`` (a finished game, or one saved
    between rounds): its hands are not all played, so the other seats' decisions there are not analysed (R11).
    The record must have been checked (:func:`moments`)."""
    game = replay(record)
    if game.finished or game.phase == WAITING:
        return None
    return len(record["rounds"]) - 1, game.view(0).deal


def _run(
    todo: Sequence[Moment],
    method: Method,
    seed: int,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    started: Callable[[int], None] | None,
) -> list[Evaluation]:
    results: list[Evaluation] = []
    total = len(todo)
    if jobs <= 1 or total < 2:
        if started is not None:
            started(total)
        for moment in todo:
            results.append(_evaluate(moment, method, seed))
            if progress is not None:
                progress(len(results), total)
        return results
    with _workers(jobs) as pool:
        if started is not None:  # once the workers are there: Ctrl-C stops them from now on
            started(total)
        tasks = [(moment, method, seed) for moment in todo]
        for evaluation in pool.imap(_evaluate_task, tasks, chunksize=1):
            results.append(evaluation)
            if progress is not None:
                progress(len(results), total)
    return results


@contextlib.contextmanager
def _workers(jobs: int) -> Iterator[multiprocessing.pool.Pool]:
    """``jobs`` worker processes that Ctrl-C stops at once, quietly.

    Ctrl-C in a terminal sends SIGINT to the whole foreground process group,
    the workers too: each would print a ``KeyboardInterrupt`` traceback, and a
    ``concurrent.futures`` pool lets go only once every decision queued for it
    is searched (minutes with a large budget). So the workers ignore SIGINT
    (inherited from the moment they start, when the pool is made on the main
    thread, and set again as they start), and the parent, which gets the
    ``KeyboardInterrupt``, terminates them before raising it again. (A Ctrl-C
    in the milliseconds while the pool is made is ignored with the rest: the
    caller says it has started only once the pool is there.)

    Spawned, not forked: an interface that asks for an analysis has threads
    running (the terminal app's screen writer), and a fork copies their locks
    in whatever state they are.
    """
    context = multiprocessing.get_context("spawn")
    with _sigint_ignored():
        pool = context.Pool(jobs, initializer=_ignore_sigint)
    try:
        yield pool
    except BaseException:
        with _sigint_ignored():  # a second Ctrl-C must not leave the workers running
            pool.terminate()
            pool.join()
        raise
    pool.close()
    pool.join()


def _ignore_sigint() -> None:
    """In a worker: Ctrl-C is for the parent, which stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile, where a process can say so: on its main thread (else nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


__all__ = [
    "COSTLIEST",
    "FLAT",
    "SWING",
    "FORMAT",
    "Decision",
    "Moment",
    "Review",
    "SeatSummary",
    "action_json",
    "analyse",
    "chance_of_points",
    "facts_json",
    "moments",
    "moves_of",
    "option_json",
    "sources_json",
]
