"""The exact search through the last deal's dealing (``expert:exact=2``, issue 28 item 4).

With two players, once the stock holds only the last deal, the search can solve the rest of the round in
each guess: the current deal, the last deal dealt from the guess's stock as the engine deals it, every seat
declaring its hand's true combination (never a bluff or a challenge inside the search), then the last deal.
"""

from __future__ import annotations

import random

import pytest

from decks import random_position, run, start
from ronda.bots import ExpertBot, PimcBot, make_bot
from ronda.bots.endgame import solve
from ronda.bots.rollout import utility
from ronda.bots.search import distinct_plays
from ronda.engine.actions import Challenge, Declare, Play
from ronda.engine.cards import parse_card
from ronda.engine.game import DECLARE, PLAY, Game, SearchState
from ronda.engine.rules import Rules

RULES = Rules(players=2)


def _lowest(state: SearchState, draw: object) -> int:
    hand = state.hands[state.seat]
    return (hand & -hand).bit_length() - 1


def penultimate_deal() -> Game:
    """The first card of the penultimate deal (the stock holds the last deal's six cards): seat 0 holds
    1o 4o 12c, seat 1 holds 3e 6e 10b, and the last deal gives seat 0 a ronda of 5s (5o 5c 7e) and seat 1
    nothing (2b 6b 11o). The deals before are played out by the lowest card, truthfully declared."""
    game = start(
        RULES,
        deals=[{}, {}, {}, {}, {0: "1o 4o 12c", 1: "3e 6e 10b"}, {0: "5o 5c 7e", 1: "2b 6b 11o"}],
        dealer=1,
    )
    game.playout(random.Random(0), deals=4, policy=_lowest, truthful=True)
    run(game, "declare none; declare none")
    assert game.phase == PLAY and game.turn == 0 and game.deal == 4 and game.stock == 6
    return game


def brute_force(game: Game, side: int, start: list[int], declared: dict[int, str]) -> float:
    """Minimax over every card of every seat, no pruning, the last deal's declarations as ``declared`` says."""
    if game.phase == DECLARE:
        game = game.copy(history=False)
        while game.phase == DECLARE:
            game.apply(Declare(declared[game.turn]))  # type: ignore[arg-type]
    if game.phase != PLAY:
        return utility(game, start, side, 10.0)
    values = []
    for action in game.legal_actions():
        if isinstance(action, Challenge):
            continue
        child = game.copy(history=False)
        child.apply(action)
        values.append(brute_force(child, side, start, declared))
    mine = RULES.side_of(game.turn) == side
    return max(values) if mine else min(values)


def test_the_search_through_the_last_deal_gives_each_card_the_brute_force_value() -> None:
    """Each of seat 0's three cards: alpha-beta through the last deal's dealing equals the minimax of every
    line of play of both deals with the hands' true declarations (seat 0's ronda, R8.2), and not the one in
    which seat 0 keeps its ronda quiet: the declarations in the search are the true ones, and they count."""
    game = penultimate_deal()
    start_scores = list(game.scores)
    differs = False
    for card in ("1o", "4o", "12c"):
        child = game.copy(history=False)
        child.apply(Play(parse_card(card)))
        exact = solve(child, 0, start_scores, 10.0)
        assert exact == brute_force(child, 0, start_scores, {0: "ronda", 1: "none"}), card
        differs |= exact != brute_force(child, 0, start_scores, {0: "none", 1: "none"})
    assert differs


def test_every_line_of_the_search_ends_the_round_with_the_true_declarations() -> None:
    """The search goes on past the penultimate deal's last card: every line it values ends the round
    (R7), after the last deal in which seat 0 declared its ronda and seat 1 none."""
    game = penultimate_deal()
    ends: list[tuple[str, int, tuple[str | None, ...]]] = []

    def leaf(end: Game) -> float:
        ends.append((end.phase, end.deal, end.view(0).declarations))
        return float(end.scores[0] - end.scores[1])

    solve(game.copy(history=False), 0, list(game.scores), 10.0, leaf=leaf)
    assert ends
    assert set(ends) == {("waiting", 5, ("ronda", "none"))}


def test_the_expert_with_exact_2_values_each_card_by_the_exact_search_of_its_guesses() -> None:
    """At the penultimate deal, ``expert:exact=2`` gives each card the sum over its guesses (drawn from the
    seat's view alone, R11) of the exact search's value, no rollout; the default expert does not."""
    game = penultimate_deal()
    view = game.view(0)
    plays = distinct_plays(game.legal_actions())
    bot = ExpertBot(3, exact=2, exact_samples=5)
    sampler = bot.guesses(view)
    totals = bot.evaluate(view, plays, sampler)
    rng = random.Random(3)
    scores = list(view.scores)
    expected = [0.0] * len(plays)
    for _ in range(5):
        guess = sampler.sample_game(rng)
        rng.getrandbits(64)
        for i, play in enumerate(plays):
            child = guess.copy(history=False)
            child.apply(play)
            expected[i] += solve(child, 0, scores, bot.win_value, leaf=lambda end: bot.leaf(end, scores, 0))
    assert totals == pytest.approx(expected)
    default = ExpertBot(3, samples=5)
    assert default.evaluate(view, plays, sampler) != pytest.approx(expected)


def test_the_exact_setting_is_parsed_and_checked() -> None:
    assert make_bot("expert:exact=2").exact == 2  # type: ignore[attr-defined]
    assert make_bot("expert:exact=2,exact_samples=32").exact_samples == 32  # type: ignore[attr-defined]
    assert make_bot("expert").exact == 1  # type: ignore[attr-defined]
    for bad in ("0", "3", "two", ""):
        with pytest.raises(ValueError, match=rf"exact in bot 'expert:exact={bad}' is 1 or 2 .*not '{bad}'"):
            make_bot(f"expert:exact={bad}")
    with pytest.raises(ValueError, match=r"exact_samples in bot 'hard:exact_samples=-4' is a whole number"):
        make_bot("hard:exact_samples=-4")
    with pytest.raises(ValueError, match=r"exact is one of 1, 2 .* not exact=5"):
        PimcBot(1, exact=5)


MAIN = {
    (14, 34): "play 11e",
    (15, 34): "play 5o",
    (19, 35): "play 3o",
    (34, 35): "play 4e",
}
"""The choices of main's expert (``expert:samples=16``, seed 5, before ``exact`` existed) at the first card of
the penultimate deal in ``random_position(Rules(players=2), seed, steps)``, keyed ``(seed, steps)``."""


@pytest.mark.parametrize(("seed", "steps"), list(MAIN))
def test_the_default_expert_decides_as_before(seed: int, steps: int) -> None:
    """``exact=1``, the default, is today's search: at the penultimate deal, main's expert's card."""
    game = random_position(RULES, seed, steps)
    assert game.phase == PLAY and game.stock == 6
    view, legal = game.view(game.turn), game.legal_actions()
    assert str(make_bot("expert:samples=16,exact=1", seed=5).choose(view, legal)) == MAIN[seed, steps]
    assert str(make_bot("expert:samples=16", seed=5).choose(view, legal)) == MAIN[seed, steps]


def test_exact_2_may_choose_another_card_there() -> None:
    """The window is searched differently: at one of those positions ``exact=2`` plays the 6 instead of the 3."""
    game = random_position(RULES, 19, 35)
    view, legal = game.view(game.turn), game.legal_actions()
    assert str(make_bot("expert:samples=16,exact=2", seed=5).choose(view, legal)) == "play 6c"
