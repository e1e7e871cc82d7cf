"""The rules in short, as the terminal's help screens show them: each variant in play is said (an audit found the
page's help and the terminal's both describing the classic game at a table with dealer duty, four-card hands or
points paid in cards)."""

from __future__ import annotations

import pytest

from ronda.engine.rules import Rules
from ronda.presentation.rules_text import rules_summary


@pytest.mark.parametrize(
    ("variant", "said"),
    [
        ({"dealer_duty": True}, "Dealer duty: the dealer's last card must capture"),
        ({"four_card_hands": True}, "double ronda = two pairs or four of a kind in a four-card hand (2)"),
        ({"transfer_scoring": True}, "Points are paid in cards"),
        ({"ace_high": True}, "1s rank highest"),
        ({"auto_declare": True}, "each hand declares itself at the deal"),
        ({"players": 3, "chain_points": (1, 6, 15)}, "same rank (6, 15)"),
        ({"target": 25}, "First to 25 wins"),
    ],
)
def test_each_variant_in_play_is_said_in_the_rules_in_short(variant: dict[str, object], said: str) -> None:
    rules = Rules(**{"players": 2, **variant})  # type: ignore[arg-type]
    assert said in rules_summary(rules)
    assert said not in rules_summary(Rules(players=rules.players))


def test_automatic_declarations_have_no_penalty_or_challenge_to_tell() -> None:
    assert "challenge" in rules_summary(Rules())
    assert "challenge" not in rules_summary(Rules(auto_declare=True))
