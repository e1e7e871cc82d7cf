"""The determinizer guesses only what the view allows, and can guess every placement the view allows.

Property tests over random positions of random games (several player counts
and variants): every sample rebuilds a game whose view for the seat is the very
view it was sampled from, and over many samples every place a hidden card could
be (each unknown hand, the stock) is guessed.
"""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from decks import build_deck, random_position
from ronda.bots.determinize import KINDS, DeclarationModel, Determinizer
from ronda.bots.inference import PlayModel
from ronda.engine.actions import Declare, Play
from ronda.engine.cards import cards_of, parse_card
from ronda.engine.combinations import NONE, hand_combination
from ronda.engine.game import DECLARE, PLAY, Game
from ronda.engine.rules import Rules

RULES = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=2, auto_declare=True),
    Rules(players=4, auto_declare=True),
    Rules(players=4, four_card_hands=True),
    Rules(players=2, four_card_hands=True, auto_declare=True),
]


positions = st.builds(
    random_position,
    st.sampled_from(RULES),
    st.integers(0, 10_000),
    st.integers(0, 120),
)


@settings(max_examples=60, deadline=None)
@given(game=positions, seat_pick=st.integers(0, 3), seed=st.integers(0, 1000))
def test_every_sample_is_consistent_with_the_view(game: Game, seat_pick: int, seed: int) -> None:
    assert game.phase in (DECLARE, PLAY)
    seat = seat_pick % game.players
    view = game.view(seat)
    sampler = Determinizer(view)
    rng = random.Random(seed)
    for _ in range(20):
        placement = sampler.sample(rng)
        # build() with check=True refuses hand sizes, seen cards or cards placed twice
        guess = sampler.builder.build(placement.hands, placement.stock)
        assert guess.view(seat) == view
        assert guess.legal_actions() == game.legal_actions() or seat != game.turn
        for other in range(game.players):
            if other != seat and view.declarations[other] is not None and game.rules.auto_declare:
                combo = hand_combination(guess.dealt_hand(other).mask, game.rules.ace_high)
                assert (combo[0] if combo else NONE) == view.declarations[other]


def _could_hold(sampler: Determinizer, seat: int, card: int, holding: bool = True) -> bool:
    """Whether some hand for ``seat`` holding ``card`` (or, ``holding=False``, without it) is allowed by its
    hard constraints (single seat)."""
    view = sampler.view
    size = view.hand_sizes[seat]
    if size == 0:
        return not holding
    weights = [sampler.model.likelihood(view.declarations[seat], k, view.rules.auto_declare) for k in KINDS]
    played = 0
    for s, c in view.plays[view.deal_start :]:
        if s == seat:
            played |= 1 << c
    others = [c for c in cards_of(sampler.builder.hidden) if c != card]
    from itertools import combinations

    for rest in combinations(others, size - 1 if holding else size):
        hand = 1 << card if holding else 0
        for c in rest:
            hand |= 1 << c
        combo = hand_combination(hand | played, view.rules.ace_high)
        if weights[KINDS.index(combo[0] if combo else NONE)] > 0:
            return True
    return False


@settings(max_examples=40, deadline=None)
@given(
    game=st.builds(
        random_position,
        st.sampled_from([r for r in RULES if r.players == 2] + [Rules(players=3)]),
        st.integers(0, 10_000),
        st.integers(0, 120),
    ),
    pick=st.integers(0, 1000),
)
@example(game=random_position(Rules(players=2, auto_declare=True), 512, 100), pick=437)
def test_every_consistent_place_of_a_hidden_card_is_sampled(game: Game, pick: int) -> None:
    """Support, not frequency: a sceptical model makes bluffs common enough to be seen in a quick test."""
    seat = game.turn
    view = game.view(seat)
    sampler = Determinizer(view, DeclarationModel(conceal=0.5, bluff=0.5, misdeclare=0.5))
    hidden = cards_of(sampler.builder.hidden)
    if not hidden:
        return
    card = hidden[pick % len(hidden)]
    unknown = sampler.builder.unknown_seats()
    possible: set[int | str] = {s for s in unknown if _could_hold(sampler, s, card)}
    # In the stock only if every hand can do without it: a declared ronda whose only possible pair is
    # this card (auto_declare makes declarations true) keeps it out of the stock.
    if view.stock and all(_could_hold(sampler, s, card, holding=False) for s in unknown):
        possible.add("stock")
    seen: set[int | str] = set()
    rng = random.Random(pick)
    for _ in range(2000):
        placement = sampler.sample(rng)
        where = [s for s, hand in placement.hands.items() if hand >> card & 1]
        seen.add(where[0] if where else "stock")
        if seen == possible:
            break
    assert seen == possible


def test_declarations_are_evidence_not_proof() -> None:
    """A declared ronda makes a pair likely in the guesses, yet some guesses are bluffs."""
    rules = Rules(players=2)
    for seed in range(50):
        game = Game(rules, seed=seed)
        if game.view(1).hand.mask and hand_combination(game.hand(0).mask, False) is None:
            break
    game.apply(game.legal_actions()[1])  # seat 0 declares ronda, falsely
    view = game.view(1)
    sampler = Determinizer(view)
    rng = random.Random(3)
    kinds = []
    for _ in range(400):
        placement = sampler.sample(rng)
        combo = hand_combination(placement.hands[0], False)
        kinds.append(combo[0] if combo else NONE)
    share = kinds.count("ronda") / len(kinds)
    assert 0.6 < share < 0.99  # believed, but bluffs are guessed too
    believing_nothing = Determinizer(view, DeclarationModel(conceal=1.0, bluff=1.0, misdeclare=1.0))
    plain = [believing_nothing.sample(rng).hands[0] for _ in range(400)]
    plain_share = sum(1 for h in plain if (c := hand_combination(h, False)) and c[0] == "ronda") / 400
    assert plain_share < 0.35
    probabilities = sampler.kind_probabilities(0)
    assert abs(probabilities["ronda"] - share) < 0.08


def test_reading_plays_makes_a_refused_caida_unlikely() -> None:
    """Seat 1 could have taken seat 0's 5 as a caida (R5.1) but dropped a 12: it probably holds no 5."""
    rules = Rules(players=2)
    deck = build_deck(rules, deals=[{0: "5o 1c 2e", 1: "12b 3c 4e"}], table="7e 10e 12o 2c")
    game = Game(rules, decks=[[parse_card(c) for c in deck]])
    game.apply(Declare("none"))
    game.apply(Declare("none"))
    game.apply(Play(parse_card("5o")))
    game.apply(Play(parse_card("12b")))
    view = game.view(0)

    def share_holding_a_five(sampler: Determinizer) -> float:
        rng = random.Random(7)
        hits = sum(1 for _ in range(800) if sampler.sample(rng).hands[1] & (0xF << 16))
        return hits / 800

    blind = share_holding_a_five(Determinizer(view))
    reading = share_holding_a_five(Determinizer(view, play_model=PlayModel()))
    assert 0.1 < blind < 0.3  # two unknown cards among the unseen, three 5s unseen
    assert reading < 0.6 * blind
