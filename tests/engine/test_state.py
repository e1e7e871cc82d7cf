"""The game's state is declared once (engine/state.py) and the code agrees with the declaration.

Each field of :class:`~ronda.engine.state.GameState` says when it is reset, how
a copy takes it, and where a game rebuilt from a view takes it. These tests
check the set-up, the resets, :meth:`Game.copy`, :meth:`Game.from_view`, the
views and the masks against that declaration on real games, so that a field
added and forgotten in one of those places fails here in a second — not in a
long property test, or in a search that quietly plays a different game.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from random_games import play_out

from ronda.engine.game import DECLARE, PLAY, Game, _Blank
from ronda.engine.rules import Rules
from ronda.engine.state import DEAL, GAME, HIDDEN, HISTORY, LIST, PUBLIC, ROUND, ROWS, SHARED, GameState
from ronda.engine.view import PublicView, SeatView, ViewMasks

FIELDS = dataclasses.fields(GameState)
NAMES = [f.name for f in FIELDS]
RULES = [
    Rules(players=2),
    Rules(players=3, dealer_duty=True),
    Rules(players=4, four_card_hands=True),
    Rules(players=2, transfer_scoring=True),
    Rules(players=3, transfer_scoring=True, auto_declare=True),
]


def _named(word: str, key: str) -> set[str]:
    return {f.name for f in FIELDS if f.metadata[key] == word}


def _positions(rules: Rules, games: int = 3) -> list[Game]:
    """Copies of every position of some random games (with challenges, bluffs, hidden combinations)."""
    seen: list[Game] = []

    def keep(game: Game, *_: Any) -> None:
        if game.phase in (DECLARE, PLAY):
            seen.append(game.copy())

    for seed in range(games):
        play_out(rules, seed=seed, choice_seed=seed + 100, max_actions=120, each=keep)
    return seen


def test_the_declaration_is_the_only_list_of_fields() -> None:
    """Every class of the game adds no field of its own: the slots are the declared fields, nothing else."""
    with pytest.raises(AttributeError):
        Game(Rules(players=2), seed=1)._not_declared = 1  # type: ignore[attr-defined]
    if hasattr(GameState, "__slots__"):  # pure Python (a compiled class keeps its fields in itself)
        assert set(GameState.__slots__) == set(NAMES)
        for cls in Game.__mro__[:-1]:
            assert cls is GameState or cls.__dict__.get("__slots__") == (), f"{cls.__name__} declares its own fields"
    for f in FIELDS:
        assert {"lifetime", "copy", "source"} <= set(f.metadata), f"{f.name} is declared without its three words"


def test_set_up_sets_every_field_and_each_reset_exactly_the_fields_of_its_lifetime() -> None:
    game = _Blank()  # no set-up yet
    game._setup(Rules(players=3), 2, None, [])
    for name in NAMES:
        getattr(game, name)  # AttributeError: a declared field the set-up forgets

    if not hasattr(GameState, "__slots__"):
        pytest.skip("a compiled game's fields hold only their declared types: the sentinels are for pure Python")
    read_by_resets = {"_n", "_rules", "_dealer"}
    for reset, lifetime in ((Game._new_round_state, ROUND), (Game._new_deal_state, DEAL)):
        game = Game(Rules(players=3), seed=4)
        sentinel = object()
        for name in NAMES:
            if name not in read_by_resets:
                setattr(game, name, sentinel)
        reset(game)
        changed = {name for name in NAMES if getattr(game, name) is not sentinel} - read_by_resets
        assert changed == _named(lifetime, "lifetime"), f"{reset.__name__} and the declared {lifetime} fields differ"


@pytest.mark.parametrize("history", [True, False])
def test_copy_takes_every_field_as_declared(history: bool) -> None:
    """SHARED fields are the same object, LIST and ROWS fields equal but never shared, HISTORY only with history."""
    for rules in RULES:
        for game in _positions(rules, games=1)[::7]:
            copy = game.copy(history=history)
            for f in FIELDS:
                mine, theirs = getattr(game, f.name), getattr(copy, f.name)
                how = f.metadata["copy"]
                if how == SHARED:
                    assert theirs == mine, f.name
                    if isinstance(mine, (list, dict)):
                        assert theirs is mine, f"{f.name} is declared shared (never changed once made)"
                elif how in (LIST, ROWS):
                    assert theirs == mine and theirs is not mine, f"{f.name} is shared with the copy"
                    if how == ROWS:
                        assert all(a is not b for a, b in zip(theirs, mine, strict=True)), f"{f.name}'s rows are shared"
                elif history and f.name != "_rng":
                    assert theirs == mine and (theirs is not mine or mine is None), f.name
                elif not history:
                    assert theirs in (None, []), f"{f.name} is kept by a copy without history"


# Fields the engine leaves as they were once what they describe is gone: compared only while it is there.
MEANINGFUL_WHILE = {
    "_chain_cards": "_chain_rank",
    "_chain_count": "_chain_rank",
    "_chain_side": "_chain_rank",
    "_last_drop_seat": "_last_drop",
}


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_a_position_rebuilt_from_a_view_has_every_public_and_hidden_field_of_the_game(rules: Rules) -> None:
    """Game.from_view with the true hidden cards: every PUBLIC and HIDDEN field equals the real game's."""
    compared = _named(PUBLIC, "source") | _named(HIDDEN, "source")
    for game in _positions(rules):
        seat = game.turn
        hidden = {s: game.hand(s) for s in range(game.players) if s != seat}
        rebuilt = Game.from_view(game.view(seat), hidden, game.stock_cards())
        for name in sorted(compared):
            mine, theirs = getattr(game, name), getattr(rebuilt, name)
            if name in MEANINGFUL_WHILE and getattr(game, MEANINGFUL_WHILE[name]) < 0:
                continue
            if name == "_deck":  # the stock is placed; the order of the cards dealt is not a fact of the position
                mine, theirs = mine[game._stock_pos :], theirs[game._stock_pos :]
            if name == "_piles" and rules.transfer_scoring:  # which cards were paid away is not in a view
                mine, theirs = [p.bit_count() for p in mine], [p.bit_count() for p in theirs]
            assert theirs == mine, f"{name} differs in the position rebuilt from seat {seat}'s view"


def test_views_and_masks_carry_the_same_facts_by_name() -> None:
    """ViewMasks has a view's fields, by name (the chain spelt out), and both ways of making one agree."""
    chain = ("chain_rank", "chain_cards", "chain_count", "chain_side")
    public = list(PublicView._fields)
    i = public.index("chain")
    assert list(ViewMasks._fields) == [*public[:i], *chain, *public[i + 1 :], "seat", "hand"]
    assert list(SeatView._fields) == [*public, "seat", "hand"]
    for rules in RULES:
        for game in _positions(rules, games=1):
            for seat in range(game.players):
                view = game.view(seat)
                assert game.view_masks(seat) == view.masks()
                chain = view.chain
                facts = {  # every field of a seat's view, from the state field it shows (by name, not by place)
                    "rules": game._rules,
                    "phase": game._phase,
                    "turn": game._turn,
                    "dealer": game._dealer,
                    "round": game._round,
                    "deal": game._deal,
                    "deals_in_round": len(game._sizes),
                    "table": game._table_cards,
                    "opening_table": game._opening_table,
                    "hand_sizes": tuple(h.bit_count() for h in game._hands),
                    "pile_sizes": tuple(p.bit_count() for p in game._piles),
                    "stock": 40 - game._stock_pos,
                    "scores": tuple(game._scores),
                    "plays": tuple(game._plays),
                    "deal_start": game._deal_start,
                    "declarations": tuple(game._declared),
                    "exposed": tuple(game._exposed),
                    "shown": tuple(game._shown),
                    "settlement_given": tuple(game._given),
                    "last_drop": None if game._last_drop < 0 else game._last_drop,
                    "chain": None if game._chain_rank < 0 else (game._chain_rank, game._chain_cards, game._chain_count),
                    "last_capture_side": None if game._last_capture_side < 0 else game._last_capture_side,
                    "challenged_this_turn": game._challenged,
                    "winner": game._winner,
                    "debts": tuple(map(tuple, game._debts)),
                    "seat": seat,
                    "hand": game._hands[seat],
                }
                assert set(facts) == set(SeatView._fields), "a view field this test does not know"
                shown = {
                    "table": view.table.mask,
                    "opening_table": view.opening_table.mask,
                    "shown": tuple(None if h is None else h.mask for h in view.shown),
                    "chain": None if chain is None else (chain.rank, chain.cards.mask, chain.count),
                    "hand": view.hand.mask,
                }
                assert {name: shown.get(name, getattr(view, name)) for name in facts} == facts


def test_every_declared_field_is_one_of_the_words() -> None:
    for f in FIELDS:
        assert f.metadata["lifetime"] in (GAME, ROUND, DEAL)
        assert f.metadata["copy"] in (SHARED, LIST, ROWS, HISTORY)
        assert f.metadata["source"] in (PUBLIC, HIDDEN, "derived", HISTORY)
