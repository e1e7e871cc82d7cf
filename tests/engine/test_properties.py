"""Invariants of the engine over thousands of random games (hypothesis).

Every random game mixes true declarations, bluffs, hidden combinations and
challenges, over every variant combination, so the invariants hold where the
rules are hardest (R8) and not only on honest play.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from random_games import choose, every_action, games, play_out

from ronda.engine.cards import ALL_CARDS, CardSet, card_name, parse_card
from ronda.engine.errors import IllegalActionError, RondaError
from ronda.engine.events import Score
from ronda.engine.game import DECLARE, PLAY, Game
from ronda.engine.record import replay
from ronda.engine.state import GameState
from ronda.engine.view import SeatView


def _where(game: Game) -> list[int]:
    """Masks of every place a card can be this round: hands, piles, table, stock."""
    hands = [game.hand(seat).mask for seat in range(game.players)]
    piles = [game.pile(side).mask for side in range(game.rules.sides)]
    return [*hands, *piles, game.public_view().table.mask, CardSet(game.stock_cards()).mask]


def _check_cards(game: Game) -> None:
    places = _where(game)
    seen = 0
    for mask in places:
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == ALL_CARDS, "cards are missing"
    ranks = [card >> 2 for card in game.public_view().table]
    assert len(ranks) == len(set(ranks)), "two cards of one rank on the table (R4.2)"


def _cards_named(value: object) -> set[int]:
    """Every card named anywhere in a JSON-like value (strings that parse as cards)."""
    found: set[int] = set()
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            found.add(parse_card(value))
    elif isinstance(value, dict):
        for item in value.values():
            found |= _cards_named(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= _cards_named(item)
    return found


def _hidden_from(game: Game, seat: int) -> int:
    """Cards in other seats' hands that no challenge has shown: what ``seat`` may not see (R11)."""
    hidden = 0
    shown = game.public_view().shown
    for other in range(game.players):
        if other != seat and shown[other] is None:
            hidden |= game.hand(other).mask
    return hidden


def _view_cards(view: SeatView) -> int:
    mask = view.hand.mask | view.table.mask | view.opening_table.mask
    for _, card in view.plays:
        mask |= 1 << card
    if view.chain is not None:
        mask |= view.chain.cards.mask
    if view.last_drop is not None:
        mask |= 1 << view.last_drop
    return mask


@settings(max_examples=700, deadline=None)
@given(games)
def test_cards_conserved_and_table_ranks_distinct_after_every_action(game_spec: tuple) -> None:
    """R1.1, R4.2: the 40 cards are always somewhere, once; the table never holds two of a rank."""
    rules, seed, choice_seed = game_spec
    play_out(rules, seed, choice_seed, each=lambda game, action, events: _check_cards(game))


@settings(max_examples=700, deadline=None)
@given(games)
def test_scores_equal_the_sum_of_score_events(game_spec: tuple) -> None:
    """R9.1: every point is a score event; a score is their sum, side by side."""
    rules, seed, choice_seed = game_spec
    game = play_out(rules, seed, choice_seed)
    totals = [0] * rules.sides
    for event in game.events:
        if isinstance(event, Score):
            totals[event.side] += event.points
    assert totals == game.scores
    if rules.transfer_scoring:
        assert all(e.reason == "cards" for e in game.events if isinstance(e, Score))


@settings(max_examples=300, deadline=None)
@given(games)
def test_with_auto_declare_no_seat_is_ever_penalised_or_exposed(game_spec: tuple) -> None:
    """R8.2 auto_declare: every declaration is true, so no combination is undeclared (R8.7), no declaration
    is false (R8.6), and nothing is exposed: over whole random games, in every variant."""
    rules, seed, choice_seed = game_spec
    rules = replace(rules, auto_declare=True)
    game = play_out(rules, seed, choice_seed)
    penalties = [e for e in game.events if isinstance(e, Score) and e.reason in ("undeclared", "false_announcement")]
    assert penalties == []
    assert [e for e in game.events if e.TYPE == "exposure"] == []


@settings(max_examples=100, deadline=None)
@given(games)
def test_view_masks_are_the_seats_view_as_masks_after_every_action(game_spec: tuple) -> None:
    """``Game.view_masks`` (what the research environments encode) holds exactly the facts of ``view`` (R11)."""
    rules, seed, choice_seed = game_spec

    def check(game: Game, action: object, events: list) -> None:
        for seat in range(rules.players):
            assert game.view_masks(seat) == game.view(seat).masks()

    play_out(rules, seed, choice_seed, each=check)
    with pytest.raises(RondaError, match=f"there is no seat {rules.players} in a {rules.players}-player game"):
        Game(rules, seed=seed).view_masks(rules.players)


@settings(max_examples=500, deadline=None)
@given(games)
def test_no_view_or_event_shows_another_seats_hidden_cards(game_spec: tuple) -> None:
    """R11: a seat's view and every public event hold no card of another seat's unshown hand."""
    rules, seed, choice_seed = game_spec

    def check(game: Game, action: object, events: list) -> None:
        hidden = [_hidden_from(game, seat) for seat in range(rules.players)]  # once per action: views are costly
        shown = game.public_view().shown
        for seat in range(rules.players):
            view = game.view(seat)
            assert not _view_cards(view) & hidden[seat], f"seat {seat}'s view holds a hidden card"
            assert view.hand == game.hand(seat)
            assert view.shown == shown
        # Events before a new round's deal name cards of the round before, which the
        # new deal may have given to anyone: compare only what follows the last deal.
        since_deal = events
        for index, event in enumerate(events):
            if event.TYPE == "deal":
                since_deal = events[index:]
        named = _cards_named([event.to_json() for event in since_deal])
        for seat in range(rules.players):
            leaked = [card_name(c) for c in named if hidden[seat] >> c & 1]
            assert not leaked, f"an event names {leaked}, hidden from seat {seat}"

    play_out(rules, seed, choice_seed, each=check)


@settings(max_examples=500, deadline=None)
@given(games)
def test_a_saved_record_replays_to_the_identical_event_stream(game_spec: tuple) -> None:
    """RECORD.md: save, write as JSON, read back, replay: the same events, scores and winner."""
    rules, seed, choice_seed = game_spec
    game = play_out(rules, seed, choice_seed)
    record = json.loads(json.dumps(game.to_record()))
    again = replay(record)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
    assert again.scores == game.scores
    assert again.winner == game.winner
    assert again.phase == game.phase


# The declared fields of the engine's state (engine/state.py) that a refused action must leave as they were.
_SNAPSHOT_FIELDS = tuple(
    f.name
    for f in dataclasses.fields(GameState)
    if f.name not in ("_rng", "_events", "_log", "_round_actions", "_plays", "_rules", "_combos")
)


def _snapshot(game: Game) -> tuple:
    """Every field of the game's private state, copied, plus the length of its logs.

    A white-box test of the engine by its own tests: a refused action must change no field at all,
    not only what the public API shows (tests/test_code_quality.py lets only tests/engine do this).
    Lists are copied as their ``repr`` (deep, and several times cheaper than JSON: the test takes
    thousands of snapshots).
    """
    fields = []
    for name in _SNAPSHOT_FIELDS:
        value = getattr(game, name)
        fields.append(repr(value) if isinstance(value, (list, tuple)) else value)
    return (*fields, len(game.events), game.actions_taken, len(game.public_view().plays))


@settings(max_examples=200, deadline=None)
@given(games)
def test_legal_actions_are_exactly_the_actions_apply_accepts(game_spec: tuple) -> None:
    """R4.1, R8.2, R8.8: apply accepts every legal action and refuses, changing nothing, every other."""
    rules, seed, choice_seed = game_spec
    rng = random.Random(choice_seed ^ 0x5EED)
    game = Game(rules, seed=seed)
    for _ in range(400):
        if game.phase not in (DECLARE, PLAY):
            break
        if rng.random() < 0.15:
            legal = set(game.legal_actions())
            before = _snapshot(game)
            for action in every_action(game):
                if action in legal:
                    game.copy().apply(action)
                    continue
                try:
                    game.apply(action)
                except IllegalActionError as error:
                    assert str(error), "an illegal action is refused with a message"
                else:
                    raise AssertionError(f"{action} was accepted but is not legal")
                assert _snapshot(game) == before, f"refusing {action} changed the game"
        game.apply(choose(game, rng))
