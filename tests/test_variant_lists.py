"""Every variant of :class:`Rules` reaches every place that lists the variants by hand.

An engineer adding a rule variant found about nine lists of the variants kept by hand, and nothing that said which
of them a new one was missing from: the terminal's start screen dropped it, the browser's form did not offer it,
the win-probability table and the observation had no word for it. Where a list could be written from
``fields(Rules)`` it is (``--variant``'s help, OpenSpiel's parameters, ``/api/meta``, the descriptions of
``presets.variant_values``); this test names, for a variant the others lack, every one still to change. The recipe
is docs/engine.md, "Adding a variant".

``target`` is a count every interface has its own box for; it is checked only in the rules.
"""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from ronda.bots import winprob
from ronda.engine.presets import PRESETS
from ronda.engine.rules import Rules
from ronda.presentation.rules_text import rules_text

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "ronda"
STATIC = SRC / "interfaces" / "web" / "static" / "js"

VARIANTS = [f.name for f in fields(Rules) if f.name not in ("players", "target")]

OTHER_VALUES: dict[str, Any] = {}
"""A value other than the default for a variant that is not a switch and that no preset names: what the rules text
is asked to tell apart (a new whole-number variant adds one here)."""


def _strings_assigned(path: Path, name: str) -> set[str]:
    """The strings in the value assigned to ``name`` (at module or class level) in a source file: read, not
    imported, so that the test needs none of the interfaces' or adapters' extras."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            assert node.value is not None
            return {n.value for n in ast.walk(node.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    raise AssertionError(f"{path.relative_to(ROOT)} assigns no {name}: this test must follow where it went")


def _rules_md_variants() -> set[str]:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text[text.index("## R10") :]
    section = section[: section.index("\n## ", 1)]
    return set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))


def _lobby_variants() -> set[str]:
    text = (STATIC / "lobby.js").read_text(encoding="utf-8")
    switches = re.search(r"const SWITCHES = \[(.*?)\];", text, flags=re.S)
    choices = re.search(r"const CHOICES = \{(.*?)\};", text, flags=re.S)
    assert switches and choices, "lobby.js no longer says SWITCHES and CHOICES: this test must follow where they went"
    return set(re.findall(r'"(\w+)"', switches.group(1))) | set(re.findall(r"(\w+):\s*\[", choices.group(1)))


def _i18n_keys() -> dict[str, str]:
    """Each language's block of i18n.js, by language."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    starts = {lang: text.index(f"const {lang} = {{") for lang in ("en", "fr", "ar")}
    ends = sorted([*starts.values(), text.index("const STRINGS")])
    return {lang: text[start : ends[ends.index(start) + 1]] for lang, start in starts.items()}


def _openspiel_parameters() -> str:
    tree = ast.parse((SRC / "adapters" / "openspiel.py").read_text(encoding="utf-8"))
    return ast.get_docstring(tree) or ""


def _other_value(name: str) -> Any:
    default = getattr(Rules(), name)
    if isinstance(default, bool):
        return not default
    if name in OTHER_VALUES:
        return OTHER_VALUES[name]
    return next((p.values[name] for p in PRESETS.values() if name in p.values), None)


def missing_places(variant: str) -> list[str]:
    """The places that list the variants by hand and do not name ``variant``."""
    missing = []
    if variant not in _rules_md_variants():
        missing.append(
            "docs/RULES.md: a row in R10's table (the contract's first: ../shared/RULES.md, "
            "tests/engine/test_rule_coverage.py compares them)"
        )
    app = SRC / "interfaces" / "terminal" / "app.py"
    if variant not in _strings_assigned(app, "BOOLEAN_VARIANTS") | _strings_assigned(app, "CHOICE_VARIANTS"):
        missing.append(
            "interfaces/terminal/app.py: SetupScreen.BOOLEAN_VARIANTS or CHOICE_VARIANTS, and its control in "
            "compose() (without one the start screen keeps it, says 'Also: ...', and cannot change it)"
        )
    if variant not in _lobby_variants():
        missing.append("interfaces/web/static/js/lobby.js: SWITCHES or CHOICES (the browser's table form)")
    defaults = re.search(
        r"function withDefaults\(rules\) \{(.*?)\n\}", (STATIC / "howto.js").read_text(encoding="utf-8"), re.S
    )
    assert defaults, "howto.js no longer says withDefaults: this test must follow where it went"
    if not re.search(rf"\b{variant}:", defaults.group(1)):
        missing.append(
            "interfaces/web/static/js/howto.js: withDefaults, and its line in a table's ? help if it changes one"
        )
    for lang, block in _i18n_keys().items():
        for prefix, what in (("v", "its line on the form"), ("s", "its words in a table's facts")):
            if not re.search(rf"\b{prefix}_{variant}\s*:", block):
                missing.append(f"interfaces/web/static/js/i18n.js: {prefix}_{variant} in {lang} ({what})")
    flags = _strings_assigned(SRC / "adapters" / "encoding.py", "_VARIANT_BITS")
    if not any(flag == variant or flag.startswith(variant + "_") for flag in flags):
        missing.append("adapters/encoding.py: its bit in _VARIANT_BITS (the observation grows: golden files, 855)")
    if variant not in {*winprob.NOT_IN_KEY, *winprob.FALLBACK_ORDER, *winprob.NEVER_SET_ASIDE}:
        missing.append(
            "bots/winprob.py: NOT_IN_KEY, FALLBACK_ORDER or NEVER_SET_ASIDE (and a shipped table in "
            "winprob_rounds.json, or the first search of every process builds one)"
        )
    if f"``{variant}``" not in _openspiel_parameters():
        missing.append("adapters/openspiel.py: its line in the module docstring's parameter table")
    other = _other_value(variant)
    if other is None:
        missing.append(f"tests/test_variant_lists.py: a value of {variant} other than its default in OTHER_VALUES")
    else:
        rules = Rules(players=4)  # a chain, and four-card hands: every variant has something to say
        if rules_text(rules, "any") == rules_text(rules.replace(**{variant: other}), "any"):  # the title aside
            missing.append("presentation/rules_text.py: a sentence of the rules text that says it")
    return missing


def test_every_variant_is_in_every_list_of_the_variants_kept_by_hand() -> None:
    lacking = {variant: places for variant in VARIANTS if (places := missing_places(variant))}
    assert not lacking, "a variant of Rules missing from places that list the variants by hand:\n" + "\n".join(
        f"- {variant}: {place}" for variant, places in lacking.items() for place in places
    )


def test_the_rules_name_the_target_and_every_variant() -> None:
    assert _rules_md_variants() == {f.name for f in fields(Rules)} - {"players"}


def test_a_variant_the_lists_lack_is_named_with_every_place_to_change() -> None:
    """What the engineer adding ``missa_points`` would read: the test says every place, not the first."""
    places = missing_places("missa_points")
    assert len(places) == 14, places
    assert places[0].startswith("docs/RULES.md")
    assert any("i18n.js: s_missa_points in ar" in place for place in places)
    assert places[-1].startswith("tests/test_variant_lists.py: a value of missa_points")
