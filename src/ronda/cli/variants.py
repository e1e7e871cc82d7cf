"""``--variant NAME[=VALUE]``, one option for every command that sets rules by name (``play``, ``arena``).

The words of its help and its reader (:func:`ronda.engine.presets.parse_variant`) are shared, so a variant typed
for one command means the same, or is refused with the same words, in the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

VARIANT_HELP = (
    "a variant of the rules, repeatable: auto_declare, ace_high, dealer_duty, four_card_hands, transfer_scoring "
    "(alone: on; =off: off), chain_points=1,6,15, undeclared_ronda_penalty=5"
)


def add_variant_option(parser: Any) -> None:
    """Add ``--variant`` to a command's parser, with the words every command uses."""
    parser.add_argument("--variant", action="append", default=[], metavar="NAME[=VALUE]", help=VARIANT_HELP)


def read_variants(texts: Iterable[str]) -> dict[str, Any]:
    """The variants typed, by name; ``RulesError`` naming the first bad one and the values it takes."""
    from ..engine.presets import parse_variant

    return dict(parse_variant(text) for text in texts)
