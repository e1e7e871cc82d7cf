"""The coach audit, items 2 and 3: how the coach's search values a declaration.

- A bluff is played out against opponents who count cards: a seat whose view
  proves a live declaration false challenges it at its turn (R8.8), as the bots
  from ``medium`` up do, so a false tringa no longer collects its settlement and
  waits for a caida while the opponent could expose it at once.
- In the last deal of a two-player round the declarations are searched exactly,
  as the cards after them are: a declaration and the next card, with nothing
  learnt between them, get the same chance to win the game.
- Where no declaration that may be challenged is false, a play-out plays the
  cards it always played.

The positions are a frozen round of the audit's game (``ronda arena medium easy
--preset advanced --target 25 --seed 7``, its third round, scores 15-15 at its
start, seat 1 dealing): an explicit deck and the decisions the bots took.
"""

from __future__ import annotations

import random

from pytest import MonkeyPatch

from decks import random_position, run
from ronda.analysis import search
from ronda.analysis.grades import THRESHOLDS
from ronda.analysis.search import _POLICY, DeclareFacts, Method, _play_on, evaluate
from ronda.bots.rollout import rollout
from ronda.engine.actions import CHALLENGES, DECLARES, Play
from ronda.engine.cards import parse_card
from ronda.engine.events import Capture, ChallengeMade, Drop, Raise
from ronda.engine.game import Game
from ronda.engine.rules import Rules

RULES = Rules(players=2, target=25, dealer_duty=True)

DECK = (
    "2o 7e 5b 6o 3o 3c 5c 12o 4o 7c 10o 4c 10c 12e 3e 7b 1e 12c 1b 2e 2b 6e 6b 6c 7o 5o 10e 3b 11o 4e "
    "11c 1o 1c 11b 11e 2c 4b 5e 12b 10b"
)
PLAYS = (
    "declare none; declare ronda; play 5b; play 3o; play 7e; play 3c; play 2o; play 6o; "
    "declare ronda; declare none; play 4c; play 3e; play 10c; play 12e; play 10o; play 7b; "
    "declare ronda; declare ronda; play 12c; play 6e; play 1e; play 2b; play 1b; play 2e; "
    "declare ronda; declare none; play 6b; play 5o; play 6c; play 10e; play 7o; play 3b; "
    "declare ronda; declare ronda; play 4e; play 11b; play 11o; play 1c; play 11c; play 1o; "
    "declare none; declare none; play 11e; play 10b"
)
STEPS = [step.strip() for step in PLAYS.split(";")]


def frozen(steps: int) -> Game:
    """The frozen round after its first ``steps`` decisions."""
    game = Game.from_scores(RULES, [15, 15], round=2, decks=[[parse_card(c) for c in DECK.split()]], dealer=1)
    run(game, "; ".join(STEPS[:steps]))
    return game


def test_R8_8_a_false_tringa_the_opponent_can_prove_false_is_not_preferred_to_the_true_ronda() -> None:
    # Deal 5, 17-18: seat 0 declared its ronda of 11s; seat 1 holds 1o 1c 11b, a ronda. A false tringa would take
    # the settlement at once (R8.5: a tringa beats a ronda), 24 points, one short of the target. But seat 0 has
    # seen 1e and 1b played and holds 11o 11c: no three cards of a rank are left that it has not seen, so before
    # its first card it knows the tringa is false, and a challenge of it cannot fail (R8.8).
    game = frozen(33)
    assert game.scores == [17, 18] and game.turn == 1 and str(game.hand(1)) == "1o 1c 11b"
    bluff = game.copy()
    run(bluff, "declare tringa")
    assert "tringa" not in bluff.view(0).possible_kinds(1) and CHALLENGES[1] in bluff.legal_actions()
    evaluation = evaluate(game.view(1), game.legal_actions(), Method(guesses=40), seed=0)
    tringa = evaluation.option(DECLARES["tringa"])
    assert isinstance(tringa.facts, DeclareFacts) and not tringa.facts.truthful
    assert evaluation.best.action == DECLARES["ronda"]
    assert evaluation.loss(DECLARES["tringa"]) >= THRESHOLDS["blunder"]
    # In the play-outs seat 0 challenges before its first card, where the bluff once went unchallenged.
    played = bluff.copy(history=False)
    _play_on(played, random.Random(1), 0)
    first = next(e for e in played.events if isinstance(e, (ChallengeMade, Capture, Drop, Raise)) and e.seat == 0)
    assert isinstance(first, ChallengeMade) and first.target == 1 and not first.truthful


def test_the_last_deal_s_declaration_is_worth_what_the_best_card_after_it_is_worth() -> None:
    # The last deal, 20-18: seat 0 holds 2c 4b 11e, seat 1 (the dealer) 5e 10b 12b, the table 7o 10e 11c. Seat 1
    # keeps 10b for its last card and avoids the dealer's duty (R10): the cards were searched exactly, but the
    # declarations were played out by rollouts, which lost the duty and gave seat 0 the game 70% of the time.
    declaring = frozen(40)
    assert declaring.stock == 0 and declaring.scores == [20, 18]
    first = evaluate(declaring.view(0), declaring.legal_actions(), Method(guesses=20), seed=0)
    assert first.exact and first.guesses == 1 and first.best.action == DECLARES["none"]
    answering = frozen(41)
    second = evaluate(answering.view(1), answering.legal_actions(), Method(guesses=20), seed=0)
    assert second.exact and second.best.action == DECLARES["none"]
    playing = frozen(42)
    card = evaluate(playing.view(0), playing.legal_actions(), Method(guesses=20), seed=0)
    assert card.exact and card.best.action in (Play.parse("2c"), Play.parse("4b"))
    # Nothing is learnt between the decisions: the same chance, each side's from its own seat.
    assert abs(first.best.chance - card.best.chance) < 1e-9
    assert abs(second.best.chance - (1.0 - card.best.chance)) < 1e-9
    assert abs(first.best.expected - card.best.expected) < 1e-9


def test_a_play_out_in_which_nobody_challenges_plays_the_cards_a_rollout_plays() -> None:
    # Random positions (random declarations: bluffs among them), every player count, four-card hands, a horizon
    # of some deals: where no seat could prove a declaration false, nothing changed from the rollouts.
    rules = [Rules(players=2), Rules(players=3), Rules(players=4), Rules(players=2, four_card_hands=True)]
    unchanged = challenged = 0
    for seed in range(120):
        game = random_position(rules[seed % 4], seed, seed % 40, challenge_rate=0.0)
        deals = seed % 3
        old, new = game.copy(history=False), game.copy(history=False)
        rollout(old, random.Random(seed), _POLICY, deals)
        _play_on(new, random.Random(seed), deals)
        if any(isinstance(e, ChallengeMade) for e in new.events):
            challenged += 1
            assert all(not e.truthful for e in new.events if isinstance(e, ChallengeMade))  # none can fail
            continue
        assert new.events == old.events and new.scores == old.scores and new.phase == old.phase
        unchanged += 1
    assert unchanged >= 60 and challenged >= 1


def test_cards_keep_their_values_where_no_false_declaration_may_be_challenged(monkeypatch: MonkeyPatch) -> None:
    # Cards of the frozen round: with the rondas of both seats live and true (deal 3 and deal 5), no declaration
    # (deal 4), and in the last deal (searched exactly). Valued again as before the challenges came in: plain
    # rollouts, nobody ever proving a declaration false. The same numbers.
    decisions = [frozen(steps) for steps in (18, 19, 26, 34, 35, 42, 43)]
    now = [evaluate(g.view(g.turn), g.legal_actions(), Method(guesses=20), seed=3) for g in decisions]
    monkeypatch.setattr(search, "_play_on", lambda game, rng, deals: rollout(game, rng, _POLICY, deals))
    monkeypatch.setattr(search, "_false_declarers", lambda game: [])
    before = [evaluate(g.view(g.turn), g.legal_actions(), Method(guesses=20), seed=3) for g in decisions]
    assert all(e.phase == "play" for e in now) and now == before
