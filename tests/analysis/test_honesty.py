"""Issue 16, point 4: an honest analysis sees only what the deciding seat could see, and says what players know.

- the same view and seed give the same analysis whatever the hidden cards are
  (one decision, and every decision of a whole record);
- a planted blunder from an explicit deck is classed a mistake or worse, and
  the best option of a position where a capture is worth a caida and a missa is
  the capture; a bluff, a hidden ronda and a challenge of a proven declaration
  cost what the rules make them cost.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from twins import twin

from decks import random_position, run, start
from ronda.analysis.grades import THRESHOLDS
from ronda.analysis.hints import shown_options
from ronda.analysis.review import Moment, analyse, moments
from ronda.analysis.search import ChallengeFacts, Method, PlayFacts, evaluate
from ronda.bots import make_bot
from ronda.engine.actions import CHALLENGES, DECLARES, Challenge, Play
from ronda.engine.cards import parse_card
from ronda.engine.game import DECLARE, OVER, PLAY, Game
from ronda.engine.rules import Rules
from ronda.presentation.coaching import decision_line, hint_lines

QUICK = Method(guesses=6)
"""Few guesses: the properties hold for any budget, and tests stay fast."""

RULES = [
    Rules(players=2),
    Rules(players=3, chain_points=(1, 6, 15)),
    Rules(players=4),
    Rules(players=2, auto_declare=True, ace_high=True),
    Rules(players=4, four_card_hands=True),
    Rules(players=2, transfer_scoring=True, dealer_duty=True),
]
"""Rules whose positions the analysis must treat honestly: every player count, chains, four-card hands, variants."""


@settings(max_examples=30, deadline=None)
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 10_000), steps=st.integers(0, 90))
def test_same_view_same_evaluation_whatever_the_hidden_cards(rules: Rules, seed: int, steps: int) -> None:
    game = random_position(rules, seed, steps, challenge_rate=0.05)
    seat = game.turn
    other = twin(game, seat, random.Random(seed))
    if other is None:
        return
    assert game.phase in (DECLARE, PLAY)
    first = evaluate(game.view(seat), game.legal_actions(), QUICK, seed=seed)
    second = evaluate(other.view(seat), other.legal_actions(), QUICK, seed=seed)
    assert first == second


def _bot_game(rules: Rules, seed: int, decisions: int) -> Game:
    """A game between medium bots, stopped after some decisions (a record may stop anywhere)."""
    game = Game(rules, seed=seed)
    bots = [make_bot("medium", seed=seed + s) for s in range(rules.players)]
    for _ in range(decisions):
        game.apply(bots[game.turn].choose(game.view(game.turn), game.legal_actions()))
    return game


def test_the_analysis_of_a_record_is_the_same_whatever_the_hidden_cards() -> None:
    compared = 0
    for seed in range(3):
        game = _bot_game(Rules(players=2), seed, decisions=60 + 7 * seed)
        seat = game.turn
        other = twin(game, seat, random.Random(seed))
        assert other is not None
        mine = analyse(game.to_record(), method=QUICK, seats=[seat], seed=seed)
        theirs = analyse(other.to_record(), method=QUICK, seats=[seat], seed=seed)
        assert len(mine.decisions) == len(theirs.decisions) > 10
        for a, b in zip(mine.decisions, theirs.decisions, strict=True):
            if a.moment.view == b.moment.view:
                assert a.evaluation == b.evaluation
                compared += 1
    assert compared >= 30


def test_the_same_record_gives_the_same_analysis_with_any_number_of_workers() -> None:
    record = _bot_game(Rules(players=3), 4, decisions=40).to_record()
    alone = analyse(record, method=QUICK, seed=2)
    shared = analyse(record, method=QUICK, seed=2, jobs=2)
    assert alone.decisions == shared.decisions
    assert alone.to_json() == analyse(record, method=QUICK, seed=2).to_json()
    assert analyse(record, method=QUICK, seed=3).to_json() != alone.to_json()


# ------------------------------------------------------------- positions from explicit decks


def _caida_and_missa_on_offer() -> Game:
    """Seat 0 has just dropped 2o on an empty table; seat 1 holds 2c (a caida and a missa) and 11b (a mere drop)."""
    game = start(Rules(players=2), [{0: "12c 2o 4b", 1: "5c 2c 11b"}], table="5o 6o 7o 12b")
    run(game, "declare none; declare none; play 12c; play 5c; play 2o")
    assert list(game.view(1).table) == [Play.parse("2o").card]
    return game


def test_R5_1_R6_1_a_planted_blunder_dropping_instead_of_taking_a_caida_and_a_missa_is_a_mistake_or_worse() -> None:
    game = _caida_and_missa_on_offer()
    run(game, "play 11b")  # the blunder: seat 0 plays on, the caida and the missa are gone
    review = analyse(game.to_record(), method=Method(guesses=60), seats=[1])
    decision = review.decisions[-1]
    assert decision.taken == Play.parse("11b")
    assert decision.evaluation.best.action == Play.parse("2c")
    assert not decision.evaluation.exact  # a real guess of the hidden cards, not the known end of a round
    assert decision.grade in ("mistake", "blunder")
    assert decision.points_behind >= 2.0  # a caida, a missa, the cards: about 2.5 points
    assert decision.loss >= THRESHOLDS["mistake"]  # about 5 percentage points of the chance to win, at 0-0
    assert review.summary(1).costliest[0] is decision


def test_R4_2_R5_1_the_best_option_of_a_position_that_calls_for_a_capture_is_the_capture() -> None:
    # Seat 1 has just dropped 7c; seat 0 holds 7o (a caida that takes 7c 10b) and 5b, a drop beside the 4o.
    game = start(Rules(players=2), [{0: "2c 7o 5b", 1: "7c 3b 5e"}], table="1o 4o 10b 12o")
    run(game, "declare none; declare none; play 2c; play 7c")
    for seed in range(3):
        evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=60), seed=seed)
        best = evaluation.best
        assert best.action == Play.parse("7o")
        assert isinstance(best.facts, PlayFacts) and best.facts.caida
        assert best.facts.taken == (Play.parse("7c").card, Play.parse("10b").card)
        assert evaluation.points_behind(Play.parse("5b")) >= 0.5
        assert evaluation.loss(Play.parse("5b")) >= THRESHOLDS["good"]


def test_R8_2_a_bluffed_tringa_costs_its_penalty_and_the_truth_is_best() -> None:
    game = start(Rules(players=2), [{0: "2c 7o 11c"}], table="1o 4o 10b 12o")
    evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=40), seed=0)
    assert evaluation.best.action == DECLARES["none"]
    assert 4.0 <= evaluation.points_behind(DECLARES["tringa"]) <= 6.0  # five to the opponent (R8.6), give or take
    assert evaluation.loss(DECLARES["tringa"]) >= THRESHOLDS["mistake"]  # five points at 0-0: about 12 of 100 games


def test_R8_7_declaring_none_over_a_ronda_is_a_mistake_or_worse() -> None:
    game = start(Rules(players=2), [{0: "6o 6c 10c"}], table="1o 4o 10b 12o")
    evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=40), seed=0)
    assert evaluation.best.action == DECLARES["ronda"]
    assert evaluation.points_behind(DECLARES["none"]) >= 1.0  # the ronda's point lost, the undeclared penalty given
    assert evaluation.loss(DECLARES["none"]) >= THRESHOLDS["inaccuracy"]


def test_R8_8_challenging_a_declaration_the_cards_prove_true_is_a_blunder_that_loses_the_game() -> None:
    # Seat 1 declared ronda and has played 5c and 5e; seat 0 holds 5o and saw 5b on the table: the ronda is proven.
    game = start(Rules(players=2), [{0: "5o 7e 10e", 1: "5c 5e 2b"}], table="5b 1o 3o 12b")
    run(game, "declare none; declare ronda; play 7e; play 5c; play 10e; play 5e")
    evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=20), seed=0)
    challenge = evaluation.option(CHALLENGES[1])
    assert isinstance(challenge.facts, ChallengeFacts)
    assert challenge.facts.proven == "true" and challenge.facts.loses_game == 1.0
    assert challenge.lost == 1.0
    assert challenge.chance == 0.0  # the game lost at once (R8.8): everything the best option had is lost
    assert evaluation.loss(CHALLENGES[1]) == evaluation.best.chance > THRESHOLDS["blunder"]
    assert evaluation.best.action == Play.parse("5o")  # the caida on 5e


def test_R8_8_a_last_card_beside_a_challenge_the_cards_prove_would_fail_is_nothing_to_choose() -> None:
    """The position above: seat 0's last card, 5o, and seat 1's ronda proven true. No interface offers that
    challenge, so the hint said "your best options" over two where the card was the only move to make (found on a
    fresh machine's browser run). The hint names the one card; the analysis grades the challenge only if it was made."""
    game = start(Rules(players=2), [{0: "5o 7e 10e", 1: "5c 5e 2b"}], table="5b 1o 3o 12b")
    run(game, "declare none; declare ronda; play 7e; play 5c; play 10e; play 5e")
    assert CHALLENGES[1] in game.legal_actions()  # the engine allows it: only the offer and the hint change
    evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=20), seed=0)
    assert [o.offered for o in evaluation.options] == [True, False]
    assert not evaluation.choice
    assert [str(o.action) for o in shown_options(evaluation)] == ["play 5o"]
    lines = hint_lines(evaluation, me=0)
    assert lines[0].startswith("Hint — your only card: 5o, nothing to choose."), lines[0]
    assert len(lines) == 2 and lines[1].startswith("  play 5o: "), lines
    played, challenged = game.copy(), game.copy()
    run(played, "play 5o")
    challenged.apply(CHALLENGES[1])
    assert challenged.phase == OVER  # the challenge failed and lost the game (R8.8)

    def last(game: Game) -> Moment:
        return [m for m in moments(game.to_record()) if m.seat == 0][-1]

    assert str(last(played).taken) == "play 5o" and not last(played).is_choice()
    assert last(challenged).taken == CHALLENGES[1] and last(challenged).is_choice()  # graded: the blunder it is
    (decision,) = [
        d for d in analyse(challenged.to_record(), method=QUICK, seats=[0]).decisions if d.moment.taken == CHALLENGES[1]
    ]
    assert decision.grade == "blunder"
    assert decision_line(decision, me=0).startswith(
        "you challenged seat 1's ronda, proven true by the cards seen: the challenge fails and loses the game (R8.8):"
        " 0.0% to win"
    ), decision_line(decision, me=0)


def test_the_end_of_a_two_player_round_is_searched_exactly_in_the_one_placement_counting_leaves() -> None:
    game = Game(Rules(players=2), seed=12)
    bots = [make_bot("medium", seed=s) for s in (1, 2)]
    while not (game.phase == PLAY and game.stock == 0 and len({c >> 2 for c in game.hand(game.turn)}) > 1):
        game.apply(bots[game.turn].choose(game.view(game.turn), game.legal_actions()))
    evaluation = evaluate(game.view(game.turn), game.legal_actions(), Method(guesses=50), seed=0)
    assert evaluation.exact and evaluation.guesses == 1
    again = evaluate(game.view(game.turn), game.legal_actions(), Method(guesses=50), seed=99)
    assert [o.expected for o in again.options] == [o.expected for o in evaluation.options]


def test_R8_8_a_challenge_sure_to_fail_is_never_better_than_playing_on_behind() -> None:
    """The last card of a round the seat loses by 13 points, the other seat's ronda proven true by the cards seen.

    Losing the game at once by a failed challenge (R8.8) was once rated better
    than the -13 of playing on, which leaves the game going: a game still going
    must be worth more than a game lost, whatever the margin of the round.
    """
    order = "6o 7e 12o 11b 6e 2e 1b 3o 12b 2c 6c 4b 7o 12e 12c 2o 6b 4c 11e 10o 5b 7b 5e 3e 1o 1e 7c 11o 10b 4e"
    deck = [parse_card(card) for card in f"{order} 1c 11c 5c 2b 3b 3c 10e 10c 5o 4o".split()]
    game = Game(Rules(players=2), decks=[deck], dealer=0)
    deals = [
        "declare none; declare none; play 6o; play 6e; play 7e; play 2e; play 12o; play 11b",
        "declare none; declare ronda; play 7o; play 12e; play 6c; play 12c; play 4b; play 2o",
        "declare none; declare none; play 11e; play 7b; play 4c; play 5b; play 6b; play 10o",
        "declare none; declare none; play 1o; play 11o; play 5e; play 1e; play 3e; play 7c",
        "declare none; declare none; play 10b; play 11c; play 1c; play 5c; play 4e; play 2b",
        "declare ronda; declare none; play 3c; play 5o; play 3b; play 10c; play 10e",
    ]
    run(game, "; ".join(deals))
    assert game.turn == 0 and str(game.hand(0)) == "4o"
    evaluation = evaluate(game.view(0), game.legal_actions(), QUICK, seed=0)
    challenge = evaluation.option(Challenge(1))
    assert isinstance(challenge.facts, ChallengeFacts) and challenge.facts.proven == "true"
    assert challenge.chance == 0.0 and challenge.lost == 1.0  # the game lost at once, whatever the points
    assert evaluation.best.action == Play.parse("4o")
    assert evaluation.loss(Challenge(1)) > 0
