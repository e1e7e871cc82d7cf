"""``ronda rules``: list the presets, or print a preset's whole rulebook in plain words."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..engine.errors import RulesError
from ..engine.presets import preset_rules
from ..presentation.rules_text import preset_lines, rules_text


def _run(args: argparse.Namespace) -> int:
    if args.list or not args.name:
        for line in preset_lines():
            print(line)
        if not args.list:
            print("\n(ronda rules NAME prints the whole rules of a preset)")
        return 0
    try:
        rules = preset_rules(args.name, args.players)
    except RulesError as error:
        print(f"ronda rules: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(rules_text(rules, args.name))
    return 0


def register(commands: Any) -> None:
    p = commands.add_parser(
        "rules",
        help="list the rule presets, or print one's rules in plain words",
        description="Rule presets are named sets of the variants of the rules (classic, advanced, ...).",
        epilog="Examples: ronda rules --list · ronda rules classic (the rules most play, in plain words) · "
        "ronda rules short · ronda rules --players 4 four-card. Rule ids such as R8.5 in hints and errors are "
        "the numbers of docs/RULES.md's rules.",
    )
    p.add_argument("name", nargs="?", help="the preset to print (see --list)")
    p.add_argument("--list", action="store_true", help="one line per preset")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="number of players (default 2)")
    p.set_defaults(run=_run)
