"""What the search bots compute about a play is the engine's play step, priced (bots/tactics.py, bots/inference.py).

The rules of a play are written once, in ``ronda.engine.table.play_step``;
``tactics.take`` reads them from a table made from the engine's capture run.
These tests check both against the engine on every table, and the prices
against positions worked out by hand.
"""

from __future__ import annotations

import random

from ronda.bots.inference import moments
from ronda.bots.tactics import CARD_VALUE, priced_step, take
from ronda.engine.actions import Challenge
from ronda.engine.game import OVER, PLAY, Game
from ronda.engine.rules import Rules
from ronda.engine.table import capture_run
from ronda.engine.table import play_step as engine_step


def _ranks(text: str) -> int:
    """A rank mask from printed ranks: '5 6 10'."""
    index = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 10: 7, 11: 8, 12: 9}
    return sum(1 << index[int(word)] for word in text.split())


def test_take_is_the_engines_play_step_on_every_table_rank_and_drop() -> None:
    """R4.2, R5.1, R6.1: cards taken, caida and missa as the engine says, for all 1024 tables."""
    for table in range(1 << 10):
        for rank in range(10):
            for drop in range(-1, 10):
                taken, caida, _, table_after, _, _, _ = engine_step(table, drop, -1, 0, rank, chains=False)
                for missa in (False, True):
                    value, after = take(table, drop, rank, missa)
                    assert after == table_after
                    expected = 0.0
                    if taken:
                        expected = CARD_VALUE * (taken.bit_count() + 1)
                        expected += 1.0 if caida else 0.0
                        expected += 1.0 if missa and not table_after else 0.0
                    assert value == expected, (bin(table), rank, drop, missa)


def test_priced_step_is_the_engines_play_step_on_every_table_rank_drop_and_chain() -> None:
    """R4.2-R5.3: the table, drop rank and chain after every play, and its worth, as the engine says."""
    for table in range(1 << 10):
        for rank in range(10):
            chains = [(-1, 0, drop) for drop in range(-1, 10)] + [(rank, 2, -1), (rank, 3, -1), (3, 2, rank)]
            for chain, count, drop in chains:
                for multi in (False, True):
                    taken, caida, raised, *rest = engine_step(table, drop, chain, count, rank, multi)
                    value, *after = priced_step(table, drop, chain, count, rank, True, (1, 6, 15), multi)
                    assert after == rest, (bin(table), rank, drop, chain, multi)  # table, drop rank, chain after
                    if raised:
                        expected = (1, 6, 15)[count - 1] + CARD_VALUE * (count + 1)
                    else:
                        expected = CARD_VALUE * (taken.bit_count() + 1) + caida + (not rest[0]) if taken else 0.0
                    assert value == expected


def test_what_a_card_is_worth_in_positions_worked_out_by_hand() -> None:
    # a 5 on 5 6 10 takes 5 and 6 (R4.2): three cards
    assert take(_ranks("5 6 10"), -1, 4, missa=True) == (CARD_VALUE * 3, _ranks("10"))
    # the same 5 on a 5 dropped just before: a caida (R5.1), and the table is left empty: a missa (R6.1)
    assert take(_ranks("5 6"), 4, 4, missa=True) == (CARD_VALUE * 3 + 2.0, 0)
    # no missa on the round's last card (R6.2)
    assert take(_ranks("5 6"), 4, 4, missa=False) == (CARD_VALUE * 3 + 1.0, 0)
    # a 7 takes 7 10 11 12 (R1.3); a drop is worth nothing now
    assert take(_ranks("7 10 11 12"), -1, 6, missa=False) == (CARD_VALUE * 5, 0)
    assert take(_ranks("7 10"), -1, 0, missa=True) == (0.0, _ranks("1 7 10"))
    # a raise on an open chain of two 5s: the third card's 5 points (R5.3)
    assert priced_step(_ranks("10"), -1, 4, 2, 4, True, (1, 5, 10), True) == (
        5 + CARD_VALUE * 3,
        _ranks("10"),
        -1,
        4,
        3,
    )
    # with three players a caida opens the chain; with two it does not
    assert priced_step(_ranks("5 10"), 4, -1, 0, 4, True, (1, 5, 10), True)[3:] == (4, 2)
    assert priced_step(_ranks("5 10"), 4, -1, 0, 4, True, (1, 5, 10), False)[3:] == (-1, 0)


def test_the_engines_capture_run_follows_the_run_order() -> None:
    """R4.2, R1.3: from the matched rank up without a gap; 10 follows 7; nothing follows 12."""
    assert capture_run(_ranks("6 7 10 12"), 5) == _ranks("6 7 10")
    assert capture_run(_ranks("12 1 2"), 9) == _ranks("12")
    assert capture_run(_ranks("3 5"), 3) == 0


def test_the_table_before_each_play_is_the_real_one() -> None:
    """bots/inference.moments replays the round's public plays: the table it finds is the game's."""
    for rules in (Rules(players=2), Rules(players=3), Rules(players=4, four_card_hands=True)):
        game = Game(rules, seed=21)
        rng = random.Random(2)
        before = []
        while game.round == 0 and game.phase != OVER:
            if game.phase == PLAY:
                state = game.search_state()
                before.append((state.table, state.drop, state.chain, state.chain_count))
            game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Challenge)]))
            if game.round == 0 and game.phase == PLAY:
                found = moments(game.view(game.turn))
                assert [(m.table, m.drop, m.chain, m.chain_count) for m in found] == before
        assert len(before) > 20
