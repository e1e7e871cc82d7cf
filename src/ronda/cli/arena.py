"""ronda arena BOT BOT [BOT [BOT]]: bots against bots on duplicate deals.

Two names play one against one, three each for itself, four as two
partnerships (the 1st and 3rd name against the 2nd and 4th); two names with
--players 4 make two partnerships of one level each. Every game of a unit is
dealt the same decks, the seats rotated, so luck cancels.

--rounds plays each game's first round only, from 0-0, and counts rounds won.
The rules are the preset's with the target raised to 10,000, so no round's
points end the game; the search bots (hard, expert) then value their choices
by the chance to win a game to 10,000, not a game to 41 (docs/bots.md).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from ..engine.errors import MissingExtraError, RulesError, install_hint
from ..engine.jsontext import os_error_words
from ..engine.presets import preset_rules
from ..engine.rules import MAX_TARGET
from .progress import progress_bar
from .variants import add_variant_option, read_variants

UNITS_HELP = "duplicate units to play (default 50): each is one deal sequence played once per seating"
ROUNDS_TARGET = MAX_TARGET
"""The target of a --rounds game: far enough that no round's points end it, so every round reaches its card count."""
EXAMPLES = """examples:
  ronda arena hard medium --units 100
      whole games to 41, seats swapped: win rates and the margin, with 95% intervals
  ronda arena hard medium --rounds --sprt 0.5,0.6 --units 200
      first rounds until 'hard beats medium' is decided, or where the test stands after 200 units
  ronda arena medium easy --variant dealer_duty --variant ace_high --json
      rules outside the presets, the result as one JSON object"""


def _entrants(bots: list[str], players: int | None) -> tuple[tuple[str, ...], int]:
    if len(bots) == 4:
        if players not in (None, 4):
            raise ValueError("four bots make a 4-player game")
        return (f"{bots[0]}+{bots[2]}", f"{bots[1]}+{bots[3]}"), 4
    if len(bots) == 3:
        if players not in (None, 3):
            raise ValueError("three bots make a 3-player game")
        return tuple(bots), 3
    if len(bots) == 2:
        if players == 3:
            raise ValueError("a 3-player game needs three bots")
        return tuple(bots), players or 2
    raise ValueError("give two, three or four bots")


PLUGINS = {"policy": "ronda.adapters.policy"}
"""Entrant families beyond the bot levels, and the module that registers each (imported in every worker)."""


def _plugins(entrants: tuple[str, ...]) -> tuple[str, ...]:
    """Import the modules of the families the entrants name (``policy:PATH``), and list them for the workers."""
    modules = []
    for entrant in entrants:
        for name in entrant.split("+"):
            prefix, colon, _ = name.partition(":")
            if colon and prefix in PLUGINS and PLUGINS[prefix] not in modules:
                modules.append(PLUGINS[prefix])
    for module in modules:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:  # numpy, for a policy: an extra not installed, said as such
            raise MissingExtraError(
                f"policy:PATH bots need {error.name}, which is not installed: {install_hint('research')}"
            ) from None
    return tuple(modules)


def _print_table(result: dict[str, Any]) -> None:
    unit = result["unit"]
    units = result["units"]
    # A --rounds game is one round: "10 games, 10 rounds" counted the same thing twice.
    played = f"{result['rounds']} rounds" if unit == "round" else f"{result['games']} games, {result['rounds']} rounds"
    plural = "s" if units != 1 else ""
    print(f"{result['players']} players, {units} duplicate unit{plural}: {played}, {result['seconds']} s")
    won = "rounds won" if unit == "round" else "games won"
    times = f"{'choice median':>15}{'p95':>11}{'mean':>11}"
    shown = _table_names([e["name"] for e in result["entrants"]])
    width = max(22, 2 + max(len(name) for name in shown))  # the columns stay under their headings
    print(f"{'entrant':<{width}}{won:>11}{'win rate (95%)':>24}{'points/round (95%)':>28}{times}")
    for e, name in zip(result["entrants"], shown, strict=True):
        wins = e["rounds_won"] if unit == "round" else e["games_won"]
        rate = f"{e['win_rate']:.1%} [{e['win_rate_95'][0]:.1%}, {e['win_rate_95'][1]:.1%}]"
        points = (
            f"{e['points_per_round']:+.2f} [{e['points_per_round_95'][0]:+.2f}, {e['points_per_round_95'][1]:+.2f}]"
            if units > 1
            else f"{e['points_per_round']:+.2f} [no interval]"  # one unit has no spread to measure
        )
        median, p95 = _duration(e["choice_cpu_seconds_median"]), _duration(e["choice_cpu_seconds_p95"])
        mean = _duration(e["choice_cpu_seconds_mean"])
        print(f"{name:<{width}}{wins:>11}{rate:>24}{points:>28}{median:>15}{p95:>11}{mean:>11}")
    # One measure, said once: forced cards and declarations take microseconds and would pull a median of
    # every decision far below what a player waits for (the JSON has that one too, move_seconds_*).
    print("choice median, p95, mean: CPU time of each card choice (cards of two or more ranks) on this machine")
    for e, name in zip(result["entrants"], shown, strict=True):
        line = _announcements_line(e["announcements"])
        if line:
            print(f"{name}: {line}")
    if "margin_per_round" in result:
        m = result["margin_per_round"]
        of = f"{shown[0]} - {shown[1]}"
        if units > 1:
            print(f"margin per round ({of}): {m['mean']:+.3f}, 95% interval [{m['95'][0]:+.3f}, {m['95'][1]:+.3f}]")
        else:
            print(f"margin per round ({of}): {m['mean']:+.3f}, no interval from 1 unit (give --units 2 or more)")
    if "sprt" in result:
        print(_sprt_line(result["sprt"]))


def _sprt_line(state: dict[str, Any]) -> str:
    """The test's outcome in one line; an undecided one too, or a run capped by --units reads as --sprt ignored.

    >>> _sprt_line({"claim": "hard beats medium", "decision": "undecided", "units": 50, "llr": 1.0007,
    ...             "bounds": [-2.9444, 2.9444]})  # doctest: +NORMALIZE_WHITESPACE
    "SPRT: 'hard beats medium' undecided after 50 units: log-likelihood ratio +1.00, between the bounds -2.94 and
    +2.94; run more units (--units)"
    """
    units = f"{state['units']} unit{'s' if state['units'] != 1 else ''}"
    llr, (lower, upper) = state["llr"], state["bounds"]
    if state["decision"] == "undecided":
        return (
            f"SPRT: '{state['claim']}' undecided after {units}: log-likelihood ratio {llr:+.2f}, between the bounds "
            f"{lower:+.2f} and {upper:+.2f}; run more units (--units)"
        )
    bound = (
        f"at or above the upper bound {upper:+.2f}"
        if state["verdict"] == "H1"
        else f"at or below the lower bound {lower:+.2f}"
    )
    return f"SPRT: '{state['claim']}' {state['decision']} after {units}: log-likelihood ratio {llr:+.2f}, {bound}"


TABLE_NAME = 32
"""The most characters of an entrant's name the table shows: a policy:PATH can be any length, and a row wider
than the terminal wraps and loses its columns."""


def _table_names(names: list[str]) -> list[str]:
    """The entrants' names as the table shows them: a long one keeps its family and the end of its path.

    The whole names stay in the command line echoed under the table and in --json; if two shortened names read
    the same, the whole ones are shown.

    >>> _table_names(["policy:/tmp/runs/of-a-long-training/checkpoints/best.npz", "medium"])
    ['policy:…ing/checkpoints/best.npz', 'medium']
    """
    shortened = []
    for name in names:
        if len(name) > TABLE_NAME:
            family = name.split(":", 1)[0] + ":" if ":" in name else ""
            name = family + "…" + name[-(TABLE_NAME - len(family) - 1) :]
        shortened.append(name)
    return shortened if len(set(shortened)) == len(set(names)) else names


def _duration(seconds: float) -> str:
    """A time as people read it, one way for every number of a table, so a p95 never reads below its median.

    >>> _duration(0.00012), _duration(0.0004), _duration(0.0354), _duration(2.5)
    ('0.1 ms', '0.4 ms', '35.4 ms', '2.50 s')
    """
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _announcements_line(a: dict[str, int]) -> str:
    """An entrant's bluffs and challenges in one line, or nothing if it made none."""
    parts = []
    if a["bluffs"]:
        parts.append(
            f"{a['bluffs']} bluffs in {a['declarations']} declarations, {a['bluffs_exposed']} exposed "
            f"({a['bluffs_challenged']} challenged, {a['bluffs_shown']} shown, {a['bluffs_played']} by play; "
            f"{a['bluff_penalty']} penalty points), games won/lost in their deal {a['bluff_games_won']}/"
            f"{a['bluff_games_lost']}"
        )
    if a["challenges"]:
        parts.append(
            f"{a['challenges']} challenges, {a['challenges_won']} won ({a['challenge_points']} points, "
            f"{a['challenge_games_won']} games won in their deal), {a['challenges_lost']} lost (each a game)"
        )
    return "; ".join(parts)


def _run(args: argparse.Namespace) -> int:
    from ..arena import MatchSpec, parse_sprt, run_match, summary
    from ..bots import levels, make_bot

    try:
        entrants, players = _entrants(args.bots, args.players)
        plugins = _plugins(entrants)
        known = levels()
        for entrant in entrants:
            for name in entrant.split("+"):
                if ":" in name:
                    bot = make_bot(name)  # loads it now: a missing or wrong file is named before any game
                    trained = getattr(bot, "players", None)  # a policy plays the player count it was trained for
                    if trained is not None and trained != players:
                        raise ValueError(f"{name} was trained for {trained}-player games, not {players}")
                elif name not in known:
                    raise ValueError(f"unknown bot {name!r} (known: {', '.join(known)}, policy:PATH)")
        overrides = read_variants(args.variant)
        if args.rounds:
            if args.target is not None or "target" in overrides:  # None unless given: plain --rounds is fine
                raise ValueError("--target does not go with --rounds: single rounds are played to their end, no target")
            overrides["target"] = ROUNDS_TARGET  # single rounds are never cut short by a win
        elif args.target is not None:
            overrides["target"] = args.target
        rules = preset_rules(args.preset, players, **overrides)
        sprt = parse_sprt(args.sprt) if args.sprt else None
        if sprt is not None and len(entrants) != 2:
            raise ValueError("--sprt compares two entrants (2 players, or two partnerships)")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
        if args.units < 1:
            raise ValueError(f"--units must be at least 1, not {args.units}")
        if args.time_limit is not None and not args.time_limit > 0:
            raise ValueError("--time-limit is a number of seconds above 0")
        if args.records:
            if Path(args.records).exists() and not Path(args.records).is_dir():  # "file exists" said why not
                raise ValueError(f"--records {args.records} is a file: give a folder to save the records in")
            try:
                Path(args.records).mkdir(parents=True, exist_ok=True)
            except OSError as error:
                words = os_error_words(error)
                raise ValueError(f"--records {args.records}: cannot make the folder: {words}") from None
    except (ValueError, RulesError, MissingExtraError) as error:
        print(f"ronda arena: {error}", file=sys.stderr)
        return 2
    spec = MatchSpec(
        entrants,
        rules,
        rounds_only=args.rounds,
        seed=args.seed,
        records=args.records,
        plugins=plugins,
        time_limit=args.time_limit,
    )
    show = args.progress or (sys.stderr.isatty() and not args.no_progress)
    update, stop = progress_bar("arena", args.units, "units", show)
    update(0)
    try:
        outcome = run_match(
            spec, args.units, jobs=args.jobs, backend=args.backend, sprt=sprt, on_unit=lambda done, tally: update(done)
        )
    except RuntimeError as error:
        stop()
        print(f"ronda arena: {error}", file=sys.stderr)
        return 2
    stop()
    result = summary(spec, outcome)
    if args.json:
        print(json.dumps(result))
    else:
        _print_table(result)
        flags = " ".join(sys.argv[2:]) if sys.argv[1:2] == ["arena"] else ""
        if flags:
            print(f"(ronda arena {flags})")
    return 0


def register(commands: Any) -> None:
    p = commands.add_parser(
        "arena",
        help="play bots against each other on duplicate deals",
        description=__doc__,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="bot levels: random, easy, medium, hard, expert; policy:PATH plays a trained policy",
    )
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="with two bots, 4 makes two partnerships")
    p.add_argument("--units", "--games", type=int, default=50, help=UNITS_HELP)
    p.add_argument(
        "--rounds",
        action="store_true",
        help="play each game's first round only, from 0-0, and count rounds won (the target is raised to 10,000, "
        "so search bots value a game to 10,000: see above)",
    )
    p.add_argument("--preset", default="classic", help="rule preset (see 'ronda rules --list'; default classic)")
    add_variant_option(p)
    p.add_argument("--target", type=int, help="points to win (default: the preset's; not with --rounds)")
    p.add_argument("--seed", type=int, default=0, help="seed of the decks and the bots (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes on this machine (default 1)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help=f"ray needs {install_hint('ray')}")
    p.add_argument(
        "--sprt",
        metavar="P0,P1",
        help="stop once 'first beats second' is decided: p0,p1 or Elo0,Elo1 (undecided after "
        "--units: said, with the log-likelihood ratio)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="cap each search bot's thinking per decision, as in interactive play (default: none, the bots' "
        "fixed budgets alone, so the numbers are the same on any machine)",
    )
    p.add_argument("--records", metavar="DIR", help="save every game as a record in DIR")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument(
        "--progress",
        action="store_true",
        help="show progress even when not on a terminal (then plain lines on stderr, every 5%% or 10 s)",
    )
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    p.set_defaults(run=_run)
