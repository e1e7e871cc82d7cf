"""``--variant NAME[=VALUE]``, one option for every command that sets rules by name (``play``, ``arena``).

The words of its help and its reader (:func:`ronda.engine.presets.parse_variant`) are shared, so a variant typed
for one command means the same, or is refused with the same words, in the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from ..engine.presets import PRESETS, parse_variant, variant_value_text
from ..engine.rules import Rules


def variant_help() -> str:
    """``--variant``'s help, written from the fields of :class:`Rules`: every switch, and every other variant with a
    value a preset gives it (else its default), so a new variant is offered without a word changed here.

    ``target`` is left to each command's ``--target``.
    """
    default = Rules()
    switches, others = [], []
    for f in fields(Rules):
        value = getattr(default, f.name)
        if f.name in ("players", "target"):
            continue
        if isinstance(value, bool):
            switches.append(f.name)
        else:
            example = next((p.values[f.name] for p in PRESETS.values() if f.name in p.values), value)
            others.append(f"{f.name}={variant_value_text(example)}")
    return f"a variant of the rules, repeatable: {', '.join(switches)} (alone: on; =off: off), {', '.join(others)}"


VARIANT_HELP = variant_help()


def add_variant_option(parser: Any) -> None:
    """Add ``--variant`` to a command's parser, with the words every command uses."""
    parser.add_argument("--variant", action="append", default=[], metavar="NAME[=VALUE]", help=VARIANT_HELP)


def read_variants(texts: Iterable[str]) -> dict[str, Any]:
    """The variants typed, by name; ``RulesError`` naming the first bad one and the values it takes."""
    return dict(parse_variant(text) for text in texts)
