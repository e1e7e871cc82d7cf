"""Hypothesis strategies and drivers for random games: rules, bluffs, challenges.

A random game here is a seeded shuffle plus a seeded chooser of legal actions
that bluffs, hides combinations and sometimes challenges, so property tests
reach every rule of R8 and not only the honest paths.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from hypothesis import strategies as st

from ronda.engine.actions import Action, Challenge, Declare, Play
from ronda.engine.combinations import hand_combination
from ronda.engine.events import Event
from ronda.engine.game import DECLARE, PLAY, Game
from ronda.engine.rules import Rules


@st.composite
def rules_strategy(draw: st.DrawFn, variants: bool = True) -> Rules:
    """Any valid Rules: 2, 3 or 4 players, every R10 variant in any valid combination."""
    players = draw(st.sampled_from([2, 3, 4]))
    if not variants:
        return Rules(players=players, target=draw(st.sampled_from([11, 21, 41])))
    return Rules(
        players=players,
        target=draw(st.sampled_from([5, 11, 25, 41])),
        auto_declare=draw(st.booleans()),
        ace_high=draw(st.booleans()),
        chain_points=draw(st.sampled_from([(1, 5, 10), (1, 6, 15)])),
        undeclared_ronda_penalty=draw(st.sampled_from([1, 5])),
        dealer_duty=draw(st.booleans()),
        four_card_hands=players != 3 and draw(st.booleans()),
        transfer_scoring=draw(st.booleans()),
    )


def choose(game: Game, rng: random.Random, challenge_rate: float = 0.04) -> Action:
    """A random legal action: declarations true, bluffed or hidden; rare challenges; random plays."""
    legal = game.legal_actions()
    if game.phase == DECLARE:
        truth = hand_combination(game.hand(game.turn).mask, game.rules.ace_high)
        if truth is not None and rng.random() < 0.6:
            return Declare(truth.kind)
        return legal[rng.randrange(len(legal))]
    challenges = [a for a in legal if isinstance(a, Challenge)]
    if challenges and rng.random() < challenge_rate:
        return challenges[rng.randrange(len(challenges))]
    plays = [a for a in legal if isinstance(a, Play)]
    return plays[rng.randrange(len(plays))]


def play_out(
    rules: Rules,
    seed: int,
    choice_seed: int,
    max_actions: int = 400,
    each: Callable[[Game, Action, list[Event]], None] | None = None,
) -> Game:
    """Play a seeded game with random choices; call ``each(game, action, events)`` after every action."""
    game = Game(rules, seed=seed)
    rng = random.Random(choice_seed)
    for _ in range(max_actions):
        if game.phase not in (DECLARE, PLAY):
            break
        action = choose(game, rng)
        events = game.apply(action)
        if each is not None:
            each(game, action, events)
    return game


def every_action(game: Game) -> Iterator[Action]:
    """Every action of any kind the engine knows, legal or not."""
    yield from (Play(card) for card in range(40))
    yield from (Declare(kind) for kind in ("none", "ronda", "tringa", "double_ronda"))
    yield from (Challenge(seat) for seat in range(4))


games = st.tuples(rules_strategy(), st.integers(0, 2**31), st.integers(0, 2**31))
"""(rules, deck seed, choice seed): one random game."""
