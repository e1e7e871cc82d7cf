"""``ronda play``: a game in the terminal against computer opponents.

Full screen (the ``tui`` extra, Textual) when the terminal allows it; plain
lines and typed commands with ``--plain``, when input or output is not a
terminal, or when Textual is not installed. ``ronda play`` alone is a
two-player classic game against the medium bot.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..engine.errors import install_hint
from .variants import add_variant_option, read_variants

EXIT_BAD_INPUT = 2
TUI_HINT = f"(plain mode: for the full-screen game, {install_hint('tui')})"


def register(commands: Any) -> None:
    """Add the ``play`` sub-command to the ``ronda`` parser."""
    p = commands.add_parser(
        "play",
        help="play Ronda in the terminal against bots",
        description="Play Ronda in the terminal against computer opponents. Full screen when the terminal "
        "allows it (keys: 1-9 or arrows+Enter play a card, n/r/t declare, c challenges, h a hint: your best "
        "options with your chance to win after each, a the analysis of your decisions once the game is over, "
        "s saves, ? shows the rules); --plain for readable lines and typed commands (play 5c, declare ronda, "
        "challenge 1, hint, analysis, help).",
        epilog="Examples: ronda play · ronda play --players 4 --level easy,hard,medium · "
        "ronda play --variant dealer_duty --target 25 · ronda play --plain --seed 7 · ronda play --resume game.json",
    )
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="2, 3 or 4 players, partners in 4 (default 2)")
    p.add_argument("--seat", type=int, help="your seat: 0 plays first in the first round (default 0)")
    p.add_argument(
        "--level",
        metavar="LEVEL[,LEVEL...]",
        help="the bots' level, or one per other seat in seat order: random, easy, medium, hard, expert "
        "(default medium)",
    )
    p.add_argument("--preset", help="a named set of variants (default classic: the rules with no variant)")
    add_variant_option(p)
    p.add_argument("--target", type=int, help="points to win (default: the preset's; 41, or 25 with --preset short)")
    p.add_argument("--seed", type=int, help="seed of the shuffles and the bots, to play a game again (default random)")
    p.add_argument(
        "--pace",
        type=float,
        help="seconds between two bot moves so you can follow them (default 0.6 full screen, 0 plain)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="cap a search bot's (hard, expert) thinking per decision; on a slow machine it then plays weaker "
        "(default: none, each bot thinks its full budget and --seed replays the same game)",
    )
    p.add_argument("--plain", action="store_true", help="plain text lines and typed commands, no full screen")
    p.add_argument("--no-setup", action="store_true", help="skip the start screen and play at once")
    p.add_argument("--resume", metavar="FILE", help="continue a game saved with s (or any game record)")
    p.add_argument(
        "--save",
        metavar="FILE",
        help="where s saves the game (default ronda-DATE-TIME.json here, or back to the file given to --resume); "
        "your seat and the bots go beside it (game.json: game.play.json); a game played again after it is saved "
        "to game-2.json, then game-3.json",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..engine.errors import RecordError, RondaError
    from ..interfaces.terminal.session import DEFAULT_PACE, Session, Settings, level_count_error

    plain = args.plain or not (sys.stdout.isatty() and sys.stdin.isatty())
    hint = ""
    if not plain:
        try:
            import textual  # noqa: F401
        except ImportError:
            plain = True
            hint = TUI_HINT
    pace = args.pace if args.pace is not None else (0.0 if plain else DEFAULT_PACE)
    if pace < 0:
        return _fail("--pace must be 0 or more seconds")
    if args.time_limit is not None and not args.time_limit > 0:
        return _fail("--time-limit must be more than 0 seconds")
    try:
        if args.resume:
            if args.players or args.preset or args.variant or args.target is not None:
                return _fail("--resume continues the saved game under its own rules: drop the rules options")
            resumed = Session.resume(args.resume, args.seat, args.level, pace, args.seed, args.time_limit)
            session: Session | None = resumed
            settings = resumed.settings
        else:
            players, seat = args.players or 2, args.seat or 0
            if args.level is not None and 0 <= seat < players:  # a seat out of range: the game's check names it
                wrong = level_count_error(len([n for n in args.level.split(",") if n.strip()]), players, seat)
                if wrong:
                    return _fail(f"--level: {wrong}")
            variants = read_variants(args.variant)
            if args.target is not None:
                variants["target"] = args.target
            settings = Settings.make(
                args.players or 2,
                args.seat or 0,
                args.level or "medium",
                preset=args.preset or "classic",
                variants=variants,
                seed=args.seed,
                pace=pace,
                time_limit=args.time_limit,
            )
            session = Session(settings) if plain or args.no_setup else None
            if session is None:
                Session(settings)  # check the bot levels now, not after the start screen
    except RecordError as error:  # names no file: the one at fault is the record resumed
        return _fail(_side_file_given(args.resume) or f"{args.resume}: {error}")
    except (RondaError, ValueError) as error:
        return _fail(str(error))
    if plain:
        from ..interfaces.terminal.plain import PlainGame

        if hint:
            print(hint)
        assert session is not None
        return PlainGame(session, pace=pace, save_path=args.save).run()
    from ..interfaces.terminal.app import RondaApp

    RondaApp(settings, session=session, setup=not args.no_setup, save_path=args.save).run()
    return 0


def _side_file_given(path: str) -> str | None:
    """What to say when ``--resume`` was given the other file a save writes (``game.play.json``), else ``None``.

    Its keys are not a record's, and "unknown record key 'levels'" left the player guessing which file to give.
    """
    from pathlib import Path

    from ..interfaces.terminal.session import SIDE_FILE_SUFFIX

    if not (path.endswith(SIDE_FILE_SUFFIX) and Path(path).is_file()):
        return None
    record = path.removesuffix(SIDE_FILE_SUFFIX) + ".json"
    return f"{path} holds only your seat and the bots of a saved game: resume the game itself, {record}"


def _fail(message: str) -> int:
    from ..presentation.messages import for_players

    print(f"ronda play: {for_players(message)}", file=sys.stderr)
    return EXIT_BAD_INPUT
