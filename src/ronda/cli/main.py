"""The ``ronda`` command: one entry point, a sub-command per job.

The engine commands (``replay``, ``bench``) need nothing beyond the standard
library; commands of the optional extras say which extra to install when it
is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.build import engine_build
from ..engine.errors import RecordError
from ..engine.jsontext import os_error_words
from ..engine.record import load_record, replay, replay_result
from ..presentation.narration import narrate

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_BAD_INPUT = 2


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        game = replay(load_record(args.file))
    except RecordError as error:
        print(f"ronda replay: {args.file}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        json.dump(replay_result(game), sys.stdout)
        sys.stdout.write("\n")
        return 0
    for line in narrate(game.events, game.rules.players):
        print(line)
    scores = ", ".join(f"{s}" for s in game.scores)
    if game.finished:
        print(f"final scores: {scores}")
    else:
        print(f"scores so far: {scores} (the record stops before the game is won)")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import random_rounds

    if args.rounds < 1:  # 0 rounds would print a speed of 0 rounds/s, a measurement of nothing
        print(f"ronda bench: --rounds must be at least 1, not {args.rounds}", file=sys.stderr)
        return EXIT_BAD_INPUT
    player_counts = [args.players] if args.players else [2, 3, 4]
    results = []
    for players in player_counts:
        result = random_rounds(players, args.auto_declare, args.rounds, seed=args.seed, api=args.api)
        results.append(result)
        if args.json:
            print(json.dumps({**result.to_json(), "engine": engine_build()}))
        else:
            mode = "auto-declare" if args.auto_declare else "random declarations"
            mode += ", through legal_actions/apply" if args.api else ", engine playouts"
            print(
                f"{players} players, {mode}: {result.rounds} rounds in {result.seconds:.2f} s "
                f"= {result.rounds_per_second:,.0f} rounds/s"
            )
    if not args.json:
        flags = f" --players {args.players}" if args.players else ""
        flags += " --auto-declare" if args.auto_declare else ""
        flags += " --api" if args.api else ""
        flags += f" --seed {args.seed}" if args.seed else ""  # the line repeats the same playouts
        print(f"(ronda bench{flags} --rounds {args.rounds}; one process, one core; engine: {engine_build()})")
    return 0


EXTRA_COMMANDS: tuple[str, ...] = ("play", "serve", "analyse", "rules", "arena")
"""Modules under ``ronda.cli`` that add a sub-command: each has ``register(commands)``
that adds its parser and sets ``run``. Registering must stay cheap: import an optional
extra inside ``run``, and say which extra to install when it is missing."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose help and usage text, when it cannot be written (``ronda --help > /dev/full``),
    fail as every command's output does (:func:`main`) instead of being dropped with exit status 0, as Python
    3.11's argparse does. Sub-commands' parsers are of the same class (``add_subparsers`` takes the parser's)."""

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        _output(file).write(self.format_help())

    def print_usage(self, file: SupportsWrite[str] | None = None) -> None:
        _output(file).write(self.format_usage())


def _output(file: SupportsWrite[str] | None = None) -> SupportsWrite[str]:
    """Where a text goes: ``file``, else standard output — which is None when the command was started with it
    closed (``ronda --help >&-``): said as the failed write it is, not an AttributeError's traceback."""
    stream = file or sys.stdout
    if stream is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return stream


class _Version(argparse.Action):
    """``--version``, written as the help is (argparse's own version action drops a failed write too)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        _output().write(f"ronda 0.1.0 (engine: {engine_build()})\n")
        parser.exit()


class _CommandList(argparse.HelpFormatter):
    """argparse's help, with the sub-commands' words beside their names: argparse measures a sub-command's name
    two columns short of where it prints it (its indentation grows by two in between), so the longest,
    "analyse (analyze)", had its words pushed onto a line of their own."""

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction):
            self._action_max_length += 2


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ronda",
        description="Ronda, the Moroccan fishing card game.",
        epilog="Run 'ronda COMMAND --help' for the options of a command. Start with: ronda play",
        formatter_class=_CommandList,
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="show the version of ronda and of its engine, and exit"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    import importlib

    for name in EXTRA_COMMANDS:
        importlib.import_module(f"ronda.cli.{name}").register(commands)
    p = commands.add_parser(
        "replay",
        help="replay a game record and check it against the rules",
        description="Replay a game record (RECORD.md) through the engine. A bad record exits 2 "
        "with one line naming the problem and the action at fault.",
        epilog="Examples: ronda replay examples/sample-2p.json · ronda replay game.json --json "
        "(what an independent implementation compares against). Each decision judged: ronda analyse game.json",
    )
    p.add_argument("file", help="the record, a JSON file")
    p.add_argument("--json", action="store_true", help="print the result object of RECORD.md instead of a play-by-play")
    p.set_defaults(run=_cmd_replay)

    p = commands.add_parser(
        "bench",
        help="measure engine speed with random playouts",
        description="Play rounds of uniformly random legal decisions (no challenges) and print rounds per second.",
        epilog="Examples: ronda bench · ronda bench --players 2 --auto-declare --rounds 10000 · "
        "ronda bench --api --json (docs/speed.md has the measured figures and how they were made)",
    )
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="only this many players (default: 2, 3 and 4)")
    p.add_argument("--auto-declare", action="store_true", help="declarations automatic and true (R10 auto_declare)")
    p.add_argument("--rounds", type=int, default=2000, help="rounds to play per player count (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random playouts (default 0)")
    p.add_argument(
        "--api",
        action="store_true",
        help="drive every decision through legal_actions() and apply(), as an interface does "
        "(default: the engine's own random playout, as bots' simulations do)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object per player count")
    p.set_defaults(run=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
    except KeyboardInterrupt:  # Ctrl-C while the commands load: gone quietly, as after
        return 130
    words = list(sys.argv[1:] if argv is None else argv)
    name = f"ronda {words[0]}" if words and not words[0].startswith("-") else "ronda"
    try:
        try:
            args = parser.parse_args(words)
        except SystemExit as done:  # --help, --version or a usage error, its text written
            if sys.stdout is not None:
                sys.stdout.flush()
            return 0 if done.code is None else done.code if isinstance(done.code, int) else 2
        if not getattr(args, "run", None):
            parser.print_help()
            code = 0
        else:
            code = args.run(args)
        if sys.stdout is not None:  # closed from the start (>&-): what a command printed went nowhere, as asked
            sys.stdout.flush()  # here, where a failure is told in words; at exit Python would say "Exception ignored"
    except BrokenPipeError:  # `ronda replay x.json | head` is fine: the reader has what it wanted
        _stdout_to_devnull()
        return 0
    except OSError as error:
        if not _output_error(error):
            raise
        _stdout_to_devnull()
        with contextlib.suppress(OSError):  # stderr may be as full as stdout: then the exit status says it
            print(f"{name}: cannot write the output: {os_error_words(error)}", file=sys.stderr)
        return EXIT_OUTPUT
    except KeyboardInterrupt:
        return 130
    return code


EXIT_OUTPUT = 1
"""The output could not be written (a full disk, an I/O error): the work was done, its result is lost."""

_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EBADF, getattr(errno, "EDQUOT", errno.ENOSPC)})


def _output_error(error: OSError) -> bool:
    """Whether ``error`` is a write that failed for lack of room or a device's fault, as on ``> /dev/full``.

    A write to an open stream names no file (``filename`` is None), unlike a file that cannot be opened, which
    each command reports itself; a command's output, or the records it writes, is the only thing written to.
    """
    return error.filename is None and error.errno in _OUTPUT_ERRNOS


def _stdout_to_devnull() -> None:
    """Point stdout's descriptor at /dev/null: what is still buffered is flushed there at exit, not reported again."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):  # a stream without a descriptor (tests)
        return
    os.dup2(os.open(os.devnull, os.O_WRONLY), fd)


if __name__ == "__main__":
    raise SystemExit(main())
