"""``ronda analyse FILE``: every decision of a game record valued from its seat's view, and a summary per seat.

Each option of each decision (the cards of different ranks, the declarations,
the challenges) gets its chance to win the game, and its expected points as
the explanation, from what the deciding seat could know then — never the
hidden cards — by determinized search with a fixed budget of guesses, so the
same record gives the same analysis on any machine (:mod:`ronda.analysis`).
A decision's loss is the chance to win the option taken gave up against the
best; its class follows from the loss.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..analysis.grades import thresholds_text
from ..analysis.search import DEFAULT_GUESSES
from ..presentation.messages import listed

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report a command that SIGINT stopped (128 + 2)."""

DESCRIPTION = (
    "Analyse a game record (RECORD.md): for every decision of every seat (or --seat N), each legal option's "
    "chance to win the game, from that seat's view only — what it could know then — by determinized search with "
    "a fixed budget (reproducible run to run and machine to machine), the chance the option taken gave up "
    "against the best (its loss), its class, and a summary per seat: the average loss per decision, the count of "
    "each class, the five costliest decisions in words. An option's chance: 1 for a game won within the rest of "
    "the round, 0 for one lost, else the win-probability model (docs/winprob.md) at the scores the round ends "
    "with. Its expected points, the explanation: the seat's side's points minus the others' (with three players, "
    "their average) over the rest of the round, by source (the card count, caidas, missas, combinations, penalties). "
    f"Classes: {thresholds_text()}."
)


def register(commands: Any) -> None:
    """Add the ``analyse`` sub-command to the ``ronda`` parser."""
    p = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="analyse every decision of a game record from each seat's view",
        description=DESCRIPTION,
        epilog="Examples: ronda analyse game.json · ronda analyse game.json --seat 0 --jobs 2 · "
        "ronda analyse game.json --json > analysis.json",
    )
    p.add_argument("file", help="the game record, a JSON file (RECORD.md)")
    p.add_argument("--seat", type=int, action="append", help="analyse only this seat's decisions (repeatable)")
    p.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_GUESSES,
        metavar="B",
        help=f"guesses of the hidden cards per decision (default {DEFAULT_GUESSES}); more is slower and more precise",
    )
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1); same results")
    p.add_argument("--seed", type=int, default=0, help="seed of the searches (default 0)")
    p.add_argument("--summary", action="store_true", help="print only each seat's summary, not every decision")
    p.add_argument("--json", action="store_true", help="print one JSON object: every decision, option and summary")
    p.add_argument(
        "--progress",
        action="store_true",
        help="show progress even when not on a terminal (then plain lines on stderr, every 5%% or 10 s)",
    )
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..analysis.review import analyse
    from ..analysis.search import Method
    from ..engine.errors import RecordError
    from ..engine.record import load_record
    from ..presentation.coaching import review_json, review_lines
    from .progress import progress_bar

    if args.budget < 1:
        return _fail(f"--budget is a number of guesses, 1 or more, not {args.budget}")
    if args.jobs < 1:
        return _fail(f"--jobs must be at least 1, not {args.jobs}")
    show = args.progress or (sys.stderr.isatty() and not args.no_progress)
    update, stop = progress_bar("analyse", 1, "decisions", False)
    total: int | None = None  # decisions to analyse, once the record is checked
    done = 0

    def started(count: int) -> None:
        nonlocal update, stop, total
        total = count
        update, stop = progress_bar("analyse", count, "decisions", show)  # at once: a decision may take minutes
        update(0)

    def progress(count: int, _total: int) -> None:
        nonlocal done
        done = count
        update(count)

    try:
        record = load_record(args.file)
        review = analyse(
            record,
            method=Method(guesses=args.budget),
            seats=args.seat,
            seed=args.seed,
            jobs=args.jobs,
            progress=progress,
            started=started,
        )
    except (RecordError, ValueError) as error:
        stop()
        return _fail(f"{args.file}: {error}")
    except KeyboardInterrupt:
        stop()
        if sys.stderr.isatty() and not (show and total is not None):
            print(file=sys.stderr)  # the terminal echoed ^C where the cursor was: start a fresh line
        print(f"ronda analyse: {_interrupted(done, total)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    stop()
    if args.json:
        json.dump(review_json(review), sys.stdout)
        sys.stdout.write("\n")
        return 0
    players = review.rules.players
    rounds = len(record["rounds"])
    seats = listed([str(s) for s in review.seats])
    count = len(review.decisions)
    print(
        f"Analysis of {args.file}: {players} players, {rounds} round{'s' if rounds != 1 else ''}, "
        f"seat{'s' if len(review.seats) != 1 else ''} {seats}, "
        f"{count} decision{'' if count == 1 else 's'} with a choice"
    )
    if review.withheld:
        print(
            f"The deal still being played is not analysed ({review.withheld} decision"
            f"{'s' if review.withheld != 1 else ''}): a seat's options there are a hand the other seats have not"
            " seen (R11). --seat N alone analyses seat N's own decisions there."
        )
    if review.far_target:
        print(far_target_warning(review))
    for line in review_lines(review, every=not args.summary):
        print(line)
    flags = f" --budget {args.budget}" if args.budget != DEFAULT_GUESSES else ""
    flags += "".join(f" --seat {s}" for s in args.seat or [])
    flags += f" --seed {args.seed}" if args.seed else ""
    print(f"(ronda analyse {args.file}{flags})")
    return 0


def far_target_warning(review: Any) -> str:
    """The warning of a record whose target is too far for chances to tell decisions apart (``--rounds`` records).

    Without it every decision reads "best", a bluff's penalty too, and a reader takes it for praise.
    """
    from ..analysis.grades import chance_points
    from ..analysis.review import SWING, chance_of_points

    rules = review.rules
    return (
        f"Warning: the target is {rules.target} points, so far that no decision moves the chance to win the game "
        f"measurably ({SWING} points ahead at the start: {chance_points(chance_of_points(rules))} percentage "
        "points more), and nearly every decision is graded best whatever it cost. Read the expected points in "
        "brackets instead (points_behind in --json). Records of ronda arena --rounds have such a target."
    )


def _interrupted(done: int, total: int | None) -> str:
    """What Ctrl-C left: how many of the decisions were analysed (none is printed)."""
    if total is None:
        return "interrupted while reading the record"
    decisions = "decision" if total == 1 else "decisions"
    if done == 0:
        return f"interrupted before any of the {total} {decisions} was analysed (a smaller --budget is quicker)"
    return f"interrupted after analysing {done} of the {total} {decisions} (a smaller --budget is quicker)"


def _fail(message: str) -> int:
    print(f"ronda analyse: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
