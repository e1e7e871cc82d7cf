"""``--variant NAME[=VALUE]``: one reader, the same spellings and refusals in ``ronda play`` and ``ronda arena``."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass

import pytest

from ronda.cli.main import EXIT_BAD_INPUT, main
from ronda.engine import presets
from ronda.engine.errors import RulesError
from ronda.engine.presets import parse_variant
from ronda.engine.rules import Rules


@pytest.mark.parametrize(
    "text",
    [
        "chain_points=1,6,15",
        "chain_points=1_6_15",
        "chain_points=1-6-15",
        "chain_points=[1, 6, 15]",
        "chain-points= 1 6 15",
    ],
)
def test_chain_points_is_read_in_every_spelling_the_project_documents(text: str) -> None:
    """OpenSpiel's game string writes ``1_6_15`` (research.md); Python's int() read it as 1615 and refused it."""
    assert parse_variant(text) == ("chain_points", [1, 6, 15])


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("dealer_duty=", "variant dealer_duty needs a value after '=': it takes on or off (dealer_duty alone is on"),
        ("ace_high= ", "variant ace_high needs a value after '=': it takes on or off"),
        ("chain_points=", "variant chain_points needs a value after '=': it takes 1,5,10 or 1,6,15"),
        (
            "chain_points=1615",
            "variant chain_points takes 1,5,10 or 1,6,15 (also written 1_6_15 or 1-6-15), not '1615'",
        ),
        ("target=4_1", "variant target takes a whole number of points from 1 to 10000, not '4_1'"),
        ("undeclared_ronda_penalty=3", "variant undeclared_ronda_penalty takes 1 or 5, not '3'"),
    ],
)
def test_an_empty_or_wrong_value_is_refused_naming_the_variant_and_its_values(text: str, said: str) -> None:
    """``dealer_duty=`` turned the variant on, and ``target=4_1`` played to 41: a value meant and mistyped."""
    with pytest.raises(RulesError) as refused:
        parse_variant(text)
    assert str(refused.value).startswith(said)


def test_play_takes_openspiels_spelling_and_refuses_an_empty_value(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    argv = ["play", "--plain", "--seed", "1", "--level", "random"]
    assert main([*argv, "--variant", "chain_points=1_6_15"]) == 0
    assert "Classic rules with chain points 1-6-15, target 41." in capsys.readouterr().out.splitlines()[0]
    assert main([*argv, "--variant", "dealer_duty="]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("ronda play: variant dealer_duty needs a value after '='")


def test_the_arena_plays_rules_outside_the_presets_and_says_which_in_its_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """dealer_duty with ace_high is no preset: the arena could not measure it (no --variant)."""
    argv = ["arena", "easy", "medium", "--units", "1", "--json", "--no-progress"]
    assert (
        main([*argv, "--variant", "dealer_duty", "--variant", "ace-high=on", "--variant", "chain_points=1_6_15"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["rules"] == {"players": 2, "ace_high": True, "chain_points": [1, 6, 15], "dealer_duty": True}
    assert result["games"] == 2
    assert main([*argv, "--preset", "short", "--variant", "undeclared_ronda_penalty=5"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == {"players": 2, "target": 25, "undeclared_ronda_penalty": 5}


@pytest.mark.parametrize("text", ["dealer_duty=", "chain_points=1615", "four_card", "target=0"])
def test_play_and_the_arena_refuse_a_bad_variant_in_the_same_words(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "easy", "medium", "--units", "1", "--variant", text]) == EXIT_BAD_INPUT
    arena = capsys.readouterr()
    assert main(["play", "--plain", "--variant", text]) == EXIT_BAD_INPUT
    play = capsys.readouterr()
    assert arena.out == play.out == "" and arena.err.count("\n") == 1
    assert arena.err.removeprefix("ronda arena: ") == play.err.removeprefix("ronda play: ")


def test_a_target_variant_does_not_go_with_rounds_any_more_than_target_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "easy", "medium", "--rounds", "--variant", "target=25"]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == (
        "ronda arena: --target does not go with --rounds: single rounds are played to their end, no target\n"
    )


@dataclass(frozen=True, slots=True)
class _WiderRules(Rules):
    """The rules with two variants R10 does not have: what an engineer adding a whole-number or a tuple variant
    gives the readers of ``--variant``."""

    missa_points: int = 1  # type: ignore[assignment]  # a field where Rules has a property: what the variant does
    dealer_duty_points: tuple[int, int] = (5, 5)

    def __post_init__(self) -> None:
        Rules.__post_init__(self)
        if self.missa_points not in (1, 2):
            raise RulesError(f"missa_points must be 1 or 2, not {self.missa_points}")


def test_a_new_whole_number_or_tuple_variant_is_described_and_read_by_its_type(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A new integer variant was described as a switch: "variant missa_points takes on or off (...), not '3'"."""
    monkeypatch.setattr(presets, "Rules", _WiderRules)
    assert presets.variant_values("missa_points") == "a whole number (1 by default)"
    assert (
        presets.variant_values("dealer_duty_points") == "2 whole numbers such as 5,5 (the default), parted by , _ or -"
    )
    assert parse_variant("missa_points=2") == ("missa_points", 2)
    assert parse_variant("dealer-duty-points=4_5") == ("dealer_duty_points", [4, 5])
    for text, said in [
        ("missa_points=on", "variant missa_points takes a whole number (1 by default), not 'on'"),
        ("missa_points=3", "missa_points must be 1 or 2, not 3"),
        ("missa_points", "variant missa_points needs a value: it takes a whole number (1 by default)"),
        (
            "dealer_duty_points=4",
            "variant dealer_duty_points takes 2 whole numbers such as 5,5 (the default), parted by",
        ),
    ]:
        with pytest.raises(RulesError) as refused:
            parse_variant(text)
        assert str(refused.value).startswith(said), text
