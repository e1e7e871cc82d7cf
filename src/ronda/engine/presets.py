"""Named rule sets players recognise: a preset is a name for some variant values (R10).

Every preset comes from the rules texts ``docs/RULES.md`` was built from: each one's
``source`` says where. Regional names (Tangier, Tetouan, ...) are not used:
those texts do not say which town plays which variant, and a preset must not
invent folklore.

>>> preset_rules("advanced").dealer_duty
True
>>> preset_rules("four-card", players=4).deal_sizes()
(4, 3, 3)
>>> preset_rules("no-such")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ronda.engine.errors.RulesError: unknown preset 'no-such' (known: classic, advanced, ...)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError, quoted
from .rules import CHAIN_POINTS_CHOICES, MAX_TARGET, UNDECLARED_RONDA_PENALTIES, Rules


@dataclass(frozen=True)
class Preset:
    """A named set of variant values, with a one-line summary and its source in the seeds."""

    name: str
    summary: str
    source: str
    values: dict[str, Any] = field(default_factory=dict)
    players: tuple[int, ...] = (2, 3, 4)


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "classic",
            "the game as most play it: three-card hands, four cards up, caida 1, first to 41",
            "the rules of the English and French texts, no variant",
        ),
        Preset(
            "advanced",
            "the dealer must capture with the last card: a 12 scores 5, a drop or a 1 gives 5 to each opponent",
            'French text, "Jeu avancé": makes up for the dealer\'s last-capture advantage',
            {"dealer_duty": True},
        ),
        Preset(
            "four-card",
            "no cards to the table; four-card hands, where two pairs make a double ronda (2 or 4 players)",
            'French text, "Aucune carte distribuée à la table; mains de quatre cartes"',
            {"four_card_hands": True},
            players=(2, 4),
        ),
        Preset(
            "cards",
            "points are paid in captured cards instead of chips; only the card count scores",
            'French text, "Score en transférant des cartes": many players keep the score this way',
            {"transfer_scoring": True},
        ),
        Preset(
            "short",
            "a shorter game, first to 25",
            'both texts: "some play to targets other than 41, for example 25"',
            {"target": 25},
        ),
        Preset(
            "heavy",
            "a chain pays 1, 6 and 15, and a hidden ronda costs 5 like a hidden tringa",
            'French text, "Variations de notation"',
            {"chain_points": (1, 6, 15), "undeclared_ronda_penalty": 5},
        ),
        Preset(
            "ace-high",
            "a pair or three of 1s is the highest ronda or tringa, then 12, 11, 10 down to 2",
            'French text, "Rang des rondas et des tringas"',
            {"ace_high": True},
        ),
    )
}


def preset_rules(name: str, players: int = 2, **overrides: Any) -> Rules:
    """The rules of a preset for some players, with any variant overridden; validated as usual."""
    try:
        preset = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {quoted(name)} (known: {', '.join(PRESETS)})") from None
    if players not in preset.players:
        allowed = " or ".join(str(p) for p in preset.players)
        raise RulesError(f"the {name} preset is played by {allowed} players, not {players}")
    return Rules.from_dict({"players": players, **preset.values, **overrides})


def preset_of(rules: Rules) -> str | None:
    """The name of the preset these rules are exactly, if any."""
    wanted = {k: v for k, v in rules.to_dict().items() if k != "players"}
    for preset in PRESETS.values():
        values = {k: list(v) if isinstance(v, tuple) else v for k, v in preset.values.items()}
        if values == wanted and rules.players in preset.players:
            return preset.name
    return None


_ON = ("true", "yes", "on", "1")
_OFF = ("false", "no", "off", "0")


_DESCRIBED = ("chain_points", "undeclared_ronda_penalty", "target")
"""The variants :func:`variant_values` names the values of; any other it describes by its type."""


def variant_values(name: str) -> str:
    """The values a variant takes, as they are typed: what an error about that variant offers.

    A variant named here is described by its choices; any other by its field in :class:`Rules`, from the type
    of its default (a switch, a whole number, whole numbers in a row), so a new variant is never described as
    a switch it is not.

    >>> variant_values("dealer_duty")
    'on or off (dealer_duty alone is on; also true/false, yes/no, 1/0)'
    >>> variant_values("chain_points")
    '1,5,10 or 1,6,15 (also written 1_6_15 or 1-6-15)'
    """
    if name == "chain_points":
        choices = " or ".join(",".join(map(str, choice)) for choice in CHAIN_POINTS_CHOICES)
        last = CHAIN_POINTS_CHOICES[-1]
        return f"{choices} (also written {'_'.join(map(str, last))} or {'-'.join(map(str, last))})"
    if name == "undeclared_ronda_penalty":
        return " or ".join(str(p) for p in UNDECLARED_RONDA_PENALTIES)
    if name == "target":
        return f"a whole number of points from 1 to {MAX_TARGET}"
    default = getattr(Rules(), name)
    if isinstance(default, bool):
        return f"on or off ({name} alone is on; also true/false, yes/no, 1/0)"
    if isinstance(default, tuple):
        return f"{len(default)} whole numbers such as {','.join(map(str, default))} (the default), parted by , _ or -"
    return f"a whole number ({default} by default)"


def _whole_numbers(text: str) -> tuple[int, ...] | None:
    """Whole numbers written with any separator (``1,6,15``, ``1_6_15``, ``1-6-15``, ``[1, 6, 15]``), else ``None``.

    The parts are split on every separator first: Python's ``int("1_6_15")`` reads underscores as digit separators
    (1615)."""
    parts = re.split(r"[\s,_\-]+", text.strip().strip("[]()").strip())
    if all(re.fullmatch(r"[0-9]{1,3}", part) for part in parts):
        return tuple(int(part) for part in parts)
    return None


def parse_chain_points(text: str) -> tuple[int, int, int]:
    """``chain_points`` as it is written anywhere: ``1,6,15``, ``1_6_15`` (OpenSpiel), ``1-6-15``, ``[1, 6, 15]``.

    One reader for the command line and the OpenSpiel game string: Python's ``int("1_6_15")`` reads underscores as
    digit separators (1615), so the parts are split on every separator first.

    >>> parse_chain_points("1_6_15"), parse_chain_points("[1, 5, 10]")
    ((1, 6, 15), (1, 5, 10))
    >>> parse_chain_points("1615")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ronda.engine.errors.RulesError: variant chain_points takes 1,5,10 or 1,6,15 (...), not '1615'
    """
    points = _whole_numbers(text)
    for choice in CHAIN_POINTS_CHOICES:
        if points == choice:
            return choice
    raise RulesError(f"variant chain_points takes {variant_values('chain_points')}, not {quoted(text)}")


def parse_variant(text: str) -> tuple[str, Any]:
    """``dealer_duty`` or ``chain_points=1,6,15`` or ``target=25`` as a (name, value) pair for :class:`Rules`.

    The one reader of a variant typed as text, for every command that takes one (``ronda play``, ``ronda arena``):
    the same spellings and the same refusals everywhere. An empty value (``dealer_duty=``) is refused, not read as
    on: a value was meant and is missing.

    >>> parse_variant("chain_points=1,6,15"), parse_variant("ace_high"), parse_variant("target=25")
    (('chain_points', [1, 6, 15]), ('ace_high', True), ('target', 25))
    >>> parse_variant("chain_points=1_6_15"), parse_variant("dealer-duty=off")
    (('chain_points', [1, 6, 15]), ('dealer_duty', False))
    """
    name, equals, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    known = Rules.__dataclass_fields__
    if name not in known or name == "players":
        names = ", ".join(n for n in known if n != "players")
        raise RulesError(f"unknown variant {quoted(name)} (variants: {names})")
    default = getattr(Rules(), name)
    raw = raw.strip()
    if not equals and isinstance(default, bool):
        return name, True
    if not raw:
        where = " after '='" if equals else ""
        raise RulesError(f"variant {name} needs a value{where}: it takes {variant_values(name)}")
    if isinstance(default, bool):
        if raw.lower() not in _ON + _OFF:
            raise RulesError(f"variant {name} takes {variant_values(name)}, not {quoted(raw)}")
        return name, raw.lower() in _ON
    if name == "chain_points":
        return name, list(parse_chain_points(raw))
    value: Any
    if isinstance(default, tuple):
        numbers = _whole_numbers(raw)
        if numbers is None or len(numbers) != len(default):
            raise RulesError(f"variant {name} takes {variant_values(name)}, not {quoted(raw)}")
        value = list(numbers)
    elif re.fullmatch(r"[0-9]+", raw):  # not int(): it would read 4_1 as 41, and ٤١ too
        value = int(raw)
    else:
        raise RulesError(f"variant {name} takes {variant_values(name)}, not {quoted(raw)}")
    try:
        Rules.from_dict({"players": 2, name: value})
    except RulesError:
        if name in _DESCRIBED:
            raise RulesError(f"variant {name} takes {variant_values(name)}, not {quoted(raw)}") from None
        raise  # the rules' own words name the values a variant described only by its type takes
    return name, value


def variant_value_text(value: Any) -> str:
    """A variant's value as it is typed on the command line: ``1,6,15``, ``25``, ``True``."""
    return ",".join(str(v) for v in value) if isinstance(value, tuple) else str(value)
