"""A point of the rules is written once, and the engine and the bots read it from there (docs/engine.md).

The missa's point (R6.1) is ``Rules.missa_points``; the caida's is the first of ``chain_points`` (R5.1, R10). A
variant that changed one (none of R10 does today: a subclass of the rules stands in for it) must change what the
engine scores and what the bots price at once: when the bots kept their own 1, a new variant would have left them
playing the old game without a word.
"""

from __future__ import annotations

from decks import run, scores, start
from ronda.bots.rules_based import judge_play
from ronda.bots.tactics import CARD_VALUE, priced_step
from ronda.engine.cards import parse_card
from ronda.engine.rules import Rules


class MissaOfThree(Rules):
    """The rules with a missa worth 3: what a new ``missa_points`` variant would make of them."""

    @property
    def missa_points(self) -> int:
        return 3


def test_a_missa_worth_more_is_scored_by_the_engine_and_priced_by_the_medium_bots_judgement() -> None:
    deals = [{0: "1c 5o 2e", 1: "6c 5c 11e"}]
    scored = {}
    priced = {}
    for points, rules in ((1, Rules()), (3, MissaOfThree())):
        game = start(rules, deals, table="1o 2o 3o 6o")
        run(game, "declare none; declare none; play 1c")
        # seat 1's 6c takes the 6o and clears the table: a missa (R6.1)
        priced[points] = judge_play(game.view(1), parse_card("6c"), CARD_VALUE, 0.0, True)
        scored[points] = scores(run(game, "play 6c"))
    assert scored == {1: [(1, 1, "missa", 1)], 3: [(1, 3, "missa", 1)]}
    assert priced[3] - priced[1] == 2


def test_the_rollouts_price_a_caida_at_the_first_of_the_chains_points() -> None:
    """R5.1: a 5 on the 5 just dropped, 6 and 10 on the table, is a caida; the rollouts' price follows chain_points."""
    table = 1 << 4 | 1 << 5 | 1 << 7  # 5 6 10
    one = priced_step(table, 4, -1, 0, 4, False, (1, 5, 10), False)[0]
    two = priced_step(table, 4, -1, 0, 4, False, (2, 5, 10), False)[0]
    assert two - one == 1


def test_the_rules_text_says_the_missas_points_the_engine_scores() -> None:
    """``ronda rules`` and the ``?`` screens wrote their own "1 more" and "+1"."""
    from ronda.presentation.rules_text import rules_summary, rules_text

    assert "Missa. A capture that leaves the table empty scores 3 more" in rules_text(MissaOfThree(), width=None)
    assert "Missa: empty the table (+3, not on the last card)" in rules_summary(MissaOfThree())
