"""Issues 25 (item 4) and 28 (item 3): the coach's words name the right option with the right numbers.

Each costly decision says what the option taken was worth — its chance to
win the game, and its points — and what it risked (its own numbers, after its
own name), what the better option was worth, how much more, and where that
difference comes from — the card count and the round's last capture, caidas,
missas, the game won within the round — each number the better option's minus
the one taken, and each share said of the option it belongs to. Positions are
explicit decks; the end of a two-player round is searched exactly, so its
points are the rules' own, and its chances the win-probability model's at the
scores the round ends with.
"""

from __future__ import annotations

from dataclasses import replace

from decks import run, start
from ronda.analysis.grades import THRESHOLDS, grade, shown_chance
from ronda.analysis.review import Decision, Moment, analyse
from ronda.analysis.search import ChallengeFacts, Method, PlayFacts, evaluate
from ronda.bots.winprob import win_probability, with_scores
from ronda.engine.actions import DECLARES, Play, parse_action
from ronda.engine.cards import parse_card
from ronda.engine.game import Game
from ronda.engine.rules import Rules
from ronda.presentation.coaching import costly_text, decision_line, hint_lines, review_json

FEW = Method(guesses=10)

# A first round of medium bots (seed 4), frozen: at its last deal seat 1 holds 2e 4b 11o, seat 0 holds 12o 12e,
# and 11c is on the table. Taking 11c with 11o at once leaves seat 0 the round's last capture (its 12e takes the
# 12o it drops), and with it the cards left on the table (R7.1); dropping 2e or 4b first, seat 1's 11o later
# takes 11c and the 12o (R4.2) and is the last capture: the table is seat 1's.
LAST_DEAL_DECK = (
    "2o 7c 10b 1c 4c 1b 4o 10c 5b 3c 1o 3b 11b 6o 1e 2c 10e 10o 3e 11e 12c 7e 6c 7b 6e 4e 3o 5e 2b 5c "
    "5o 12b 6b 11c 7o 12e 12o 2e 4b 11o"
)
LAST_DEAL_PLAYS = (
    "declare none; declare ronda; play 10b; play 4c; play 7c; play 1c; play 2o; play 1b; "
    "declare none; declare none; play 1o; play 1e; play 3b; play 2c; play 11b; play 6o; "
    "declare ronda; declare none; play 3e; play 7e; play 10o; play 11e; play 10e; play 12c; "
    "declare ronda; declare none; play 6c; play 4e; play 7b; play 3o; play 6e; play 5e; "
    "declare ronda; declare none; play 2b; play 12b; play 5o; play 11c; play 5c; play 6b; "
    "declare ronda; declare none; play 7o; play 11o"
)


def last_capture_decision(target: int) -> Decision:
    """Seat 1's 11o at the last deal of the frozen round, analysed (exactly: the cards left are known)."""
    game = Game(Rules(players=2, target=target), decks=[[parse_card(c) for c in LAST_DEAL_DECK.split()]])
    for step in LAST_DEAL_PLAYS.split(";"):
        game.apply(parse_action(step))
    assert game.scores == [4, 3] and game.winner is None, game.scores
    decision = analyse(game.to_record(), method=FEW, seats=[1]).decisions[-1]
    assert decision.taken == Play.parse("11o") and decision.evaluation.exact
    return decision


def test_R7_1_the_better_option_gains_the_card_count_by_keeping_the_last_capture_and_the_table() -> None:
    decision = last_capture_decision(target=41)
    rules = Rules(players=2)
    # Each option's chance is the model's at the scores its round ends with (seat 0 deals the next round):
    # 4-6 after 2e (the card count's 3 points to seat 1), 7-3 after 11o.
    kept, lost = win_probability(rules, [4, 6], dealer=0)[1], win_probability(rules, [7, 3], dealer=0)[1]
    assert decision.evaluation.best.chance == kept and decision.evaluation.option(decision.taken).chance == lost
    text = costly_text(decision)
    # The option taken, with its own chance and points; the better one with its own, and the difference "more".
    assert text.startswith(f"round 1, deal 6: seat 1 played 11o, taking 11c: a {lost:.1%} chance to win the game")
    assert " (-3.00 points). " in text
    more = f"{100 * (round(kept, 3) - round(lost, 3)):.1f} percentage points more"  # the chances shown, subtracted
    assert f"2e (drops it) gave {kept:.1%}, {more}: +6.00 points from the card count" in text
    # What the better option gains, in words: the round's last capture and the table, for each option.
    # The cards left are known (searched exactly): what happens is said as certain, with no share of guesses.
    assert "(seat 1 makes the round's last capture, and so takes the cards left on the table, not after 11o)" in text
    assert "would have kept" not in text
    line = decision_line(decision)
    assert line.startswith(f"seat 1 played 11o, taking 11c: {lost:.1%} to win (-3.00 points), blunder (-{more[:-5]})")
    assert f"; best play 2e {kept:.1%} (+3.00 points): drops it; against 11o: +6.00 points from the card count" in line


def test_R9_3_a_won_game_is_said_of_the_option_it_belongs_to() -> None:
    # Target 5: seat 1 (3 points) wins the game with the card count the last capture brings, and loses it without.
    decision = last_capture_decision(target=5)
    text = costly_text(decision)
    assert text.startswith("round 1, deal 6: seat 1 played 11o, taking 11c: a 0.0% chance to win the game")
    assert "2e (drops it) gave 100.0%, 100.0 percentage points more" in text
    assert "; wins the game within this round, 11o does not; 11o loses the game within this round" in text
    assert "guesses" not in text  # the cards left are known: nothing is guessed
    assert "the game is lost in" not in decision_line(decision)  # every share names its option


def test_R5_1_the_risk_said_is_the_option_takens_and_never_the_better_options_downside() -> None:
    """Seat 0 takes 12b with 12c, leaving 4b and 2o: the table left to seat 1 may be cleared; dropping 4b was better.

    Dropping 4b risks a caida on it (seat 1 may hold a 4) — the better option's own downside, which is not why
    it is better; taking 12b leaves seat 1 the table for a missa: that is the cost of the option taken. A game
    to 6 points, where every point counts.
    """
    game = start(Rules(players=2, target=6), [{0: "12c 2o 4b", 1: "5c 2c 11b"}], table="5o 6o 7o 12b")
    run(game, "declare none; declare none; play 12c")
    review = analyse(game.to_record(), method=Method(guesses=40), seats=[0])
    decision = review.decisions[-1]
    evaluation = decision.evaluation
    taken, best = evaluation.option(decision.taken), evaluation.best
    assert decision.taken == Play.parse("12c") and best.action == Play.parse("4b") and decision.grade != "best"
    assert isinstance(taken.facts, PlayFacts) and isinstance(best.facts, PlayFacts)
    assert best.facts.reply_caida >= 0.2  # a risk the better option runs, not what makes it better
    missa = f"leaving seat 1 a chance of a missa ({taken.facts.reply_missa:.0%} of the guesses)"
    text = costly_text(decision)
    assert text.startswith(
        f"round 1, deal 1: seat 0 played 12c, taking 12b, {missa}: a {taken.chance:.1%} chance to win the game"
        f" ({taken.expected:+.2f} points). "
    )
    assert f"4b (drops it) gave {best.chance:.1%}, {100 * decision.loss:.1f} percentage points more: " in text
    line = decision_line(decision)
    assert line.startswith(f"seat 0 played 12c, taking 12b, {missa}: {taken.chance:.1%} to win")
    assert "holds a 4" not in line and "holds a 4" not in text
    # Each source's number is the better option's points minus the one taken's.
    missas = best.sources.missas - taken.sources.missas
    assert missas >= 0.1 and f"{missas:+.2f} points from missas" in text and f"{missas:+.2f} points from missas" in line


def test_R5_1_R6_1_a_dropped_caida_and_missa_are_said_as_the_points_the_capture_gains() -> None:
    game = start(Rules(players=2), [{0: "12c 2o 4b", 1: "5c 2c 11b"}], table="5o 6o 7o 12b")
    run(game, "declare none; declare none; play 12c; play 5c; play 2o; play 11b")
    review = analyse(game.to_record(), method=Method(guesses=40), seats=[1])
    decision = review.decisions[-1]
    taken, best = decision.evaluation.option(decision.taken), decision.evaluation.best
    caidas = best.sources.caidas - taken.sources.caidas
    missas = best.sources.missas - taken.sources.missas
    assert caidas >= 1.0 and missas >= 0.9  # the caida and the missa 2c takes at once, at least
    text = costly_text(decision)
    assert text.startswith(f"round 1, deal 1: seat 1 dropped 11b: a {taken.chance:.1%} chance to win the game")
    assert (
        f"2c (takes 2o — caida and missa) gave {best.chance:.1%}, {100 * decision.loss:.1f} percentage points" in text
    )
    assert f"{caidas:+.2f} points from caidas, {missas:+.2f} from missas" in text
    # The browser says the same from the JSON: every option carries its chance and its points by source.
    data = review_json(review)
    options = {o["play"]: o for o in data["decisions"][-1]["options"]}
    assert abs(options["2c"]["sources"]["caidas"] - options["11b"]["sources"]["caidas"] - caidas) < 2e-3
    assert options["2c"]["chance"] == shown_chance(best.chance)
    assert options["11b"]["chance"] == shown_chance(taken.chance)
    assert data["seats"][0]["costliest"][0]["text"] == text


def test_R8_2_R9_3_not_bluffing_a_ronda_at_39_with_nothing_in_hand_is_no_mistake() -> None:
    """Issue 28's example: 39-25, nothing in hand, the other seat has declared none.

    A bluffed ronda is scored at once (R8.5: only one side declared) and lends
    a point until the cards expose it (R8.6), so a caida or a missa meanwhile
    wins the game (R9.3); counted in points with a bonus for a game won within
    two deals, the coach once called declaring none a blunder of several points.
    But at 39 the seat wins the game almost surely either way: played out, both
    win as often. Graded by the chance to win, declaring none is no mistake.
    """
    game = start(Rules(players=2), [{0: "2o 6b 11e"}], dealer=0)
    run(game, "declare none")  # seat 1 first
    game = with_scores(game, [39, 25])
    view = game.view(0)
    assert view.scores == (39, 25) and view.turn == 0 and view.declarations[1] == "none"
    evaluation = evaluate(view, game.legal_actions(), Method(guesses=100), seed=0)
    none, ronda = evaluation.option(DECLARES["none"]), evaluation.option(DECLARES["ronda"])
    assert ronda.chance > 0.95 and none.chance > 0.95  # the game is all but won whatever is declared
    assert grade(evaluation.loss(DECLARES["none"])) not in ("mistake", "blunder")
    assert evaluation.loss(DECLARES["none"]) < THRESHOLDS["inaccuracy"]
    decision = Decision(Moment(0, 0, 1, view, tuple(game.legal_actions()), DECLARES["none"]), evaluation)
    assert decision.grade not in ("mistake", "blunder")
    assert "blunder" not in decision_line(decision) and "mistake" not in decision_line(decision)


def test_a_decision_graded_best_still_names_an_option_that_scored_clearly_more_points() -> None:
    """Where the game is decided either way, the chance to win cannot tell the two cards apart and 11o is "best",
    yet 2e keeps the round's last capture and the table (R7.1), 6 points more: the line names it with its points,
    where it used to say "best" and nothing more (the coach audit: "dropped 7c ... best", 12b never named)."""
    close = last_capture_decision(target=41)  # a costly decision names the best option already, once
    assert close.grade != "best" and "would have scored" not in decision_line(close)
    # The same decision in a game lost whatever seat 1 plays: every option's chance under a tenth of a percent.
    lost = tuple(replace(option, chance=0.0004) for option in close.evaluation.options)
    decided = replace(close, evaluation=replace(close.evaluation, options=lost))
    assert decided.grade == "best" and decided.points_behind == 6.0
    line = decision_line(decided)
    assert line.startswith("seat 1 played 11o, taking 11c: under 0.1% to win (-3.00 points), best; play 2e would ")
    assert line.endswith("play 2e would have scored 6.00 points more (under 0.1% to win)")


# A first round of a random seat 0 against a medium seat 1 (seed 2, seat 1 dealing), frozen at its last deal: seat 1
# has taken 22 cards and scored 24 points, seat 0 has 8 cards and holds 1c 5o 12b, no combination; it declares first.
LOST_DECK = (
    "10c 6c 6o 1e 1b 10b 3b 11b 10o 5b 2b 6b 10e 7o 4c 4o 5e 6e 11o 7e 5c 7b 3e 3o 3c 2e 11e 4e 12e 2c "
    "12c 2o 7c 12o 12b 1c 5o 1o 4b 11c"
)
LOST_PLAYS = (
    "declare none; declare ronda; play 6o; play 10b; play 6c; play 1e; play 10c; play 1b; "
    "declare none; declare ronda; play 10e; play 7o; play 6b; play 4o; play 2b; play 4c; "
    "declare tringa; declare ronda; play 5e; challenge 0; play 5c; play 6e; play 7e; play 11o; play 7b; "
    "declare ronda; declare none; play 3e; play 2e; play 3c; play 11e; play 3o; play 4e; "
    "declare tringa; declare none; play 12c; play 12o; play 12e; play 7c; play 2c; play 2o"
)


def test_R8_6_R9_3_in_a_lost_position_the_hint_puts_the_truth_before_a_bluff_that_ends_the_game() -> None:
    """The coach audit: at 10-36 in the round's last deal seat 1 wins the game whatever seat 0 declares (its 22
    cards and more give it the card count, R7.2), so every option's chance is 0% and the points alone ranked them.
    A bluffed tringa is scored at once (R8.5: +5), seat 1 proves it false and challenges before its first card
    (R8.8), and its penalty (R8.6) takes seat 1 to 41: the game ends there (R9.3), at +0.00 points, where the
    truthful "none" plays the lost round on to -11.00. The hint's first option was the bluff, and the analysis of
    "none" said the bluff "would have scored 11.00 points more"; with chances shown alike, the truth comes first.
    """
    deck = [parse_card(c) for c in LOST_DECK.split()]
    game = Game.from_scores(Rules(players=2), [10, 12], round=4, decks=[deck], dealer=1)
    run(game, LOST_PLAYS)
    assert game.scores == [10, 36] and game.stock == 0 and game.turn == 0 and str(game.hand(0)) == "1c 5o 12b"
    view = game.view(0)
    evaluation = evaluate(view, game.legal_actions(), FEW, seed=0)
    assert evaluation.exact and {option.chance for option in evaluation.options} == {0.0}
    tringa, none = evaluation.option(DECLARES["tringa"]), evaluation.option(DECLARES["none"])
    assert (tringa.expected, none.expected) == (0.0, -11.0)  # the bluff's count stops where the game ends
    lines = hint_lines(evaluation, me=0)
    assert lines[1] == (
        "  1. declare none: 0.0% to win (-11.00 points): your hand holds no combination;"
        " loses the game within this round"
    )
    assert lines[2].startswith("  2. declare tringa: 0.0% to win (+0.00 points): a bluff: ")
    assert lines[3].startswith("  3. declare ronda: 0.0% to win (-12.00 points): a bluff: ")
    decision = Decision(Moment(0, 4, 33, view, tuple(game.legal_actions()), DECLARES["none"]), evaluation)
    assert decision_line(decision, me=0) == "you declared none: 0.0% to win (-11.00 points), best"


# A game to 5 the coach audit played (seed 3): seat 1 declares a true ronda in each deal and the points it brings
# end the game in the third deal's declarations (0-5).
CHALLENGED_DECK = (
    "2e 7c 6c 2c 12c 12e 4b 12b 3c 1o 3o 7o 1e 11o 11e 3b 7b 4c 5e 1c 6b 1b 2o 5o 4e 6o 10e 10o 5b 6e "
    "11c 4o 2b 7e 5c 10c 12o 10b 11b 3e"
)
CHALLENGED_PLAYS = (
    "declare none; declare ronda; play 6c; play 12c; play 7c; play 12e; play 2e; play 2c; "
    "declare none; declare ronda; play 3o; play 3b; play 7o; play 11o; play 1e; play 11e; "
    "declare none; declare ronda"
)


def test_R8_8_a_challenge_that_loses_the_game_is_never_named_as_scoring_more() -> None:
    """The coach audit: beside seat 0's drops, graded best, the analysis said "challenge seat 1 would have scored
    2.15 points more (0.0% to win)": a challenge of a ronda that is true in every guess fails and loses the game at
    once (R8.8), so its points stop at +0.00 where the drop plays the round on. An option that wins less often is
    never named for its points, and a challenge that may fail ranks after a card whose chance is shown alike."""
    game = Game(Rules(players=2, target=5), decks=[[parse_card(c) for c in CHALLENGED_DECK.split()]])
    run(game, CHALLENGED_PLAYS)
    assert game.winner == 1 and game.scores == [0, 5]
    review = analyse(game.to_record(), seats=[0])  # as `ronda analyse` does, with its 200 guesses
    lines = [decision_line(decision, me=0) for decision in review.decisions]
    assert len(lines) == 9 and not [line for line in lines if "challenge seat 1 would" in line]
    assert any(line.startswith("you dropped 2e: 20.0% to win (-2.15 points), best") for line in lines)
    for decision in review.decisions:
        options = decision.evaluation.options
        for challenge in (o for o in options if type(o.facts) is ChallengeFacts):
            assert challenge.gamble  # the ronda is true in some guesses: the challenge may lose the game
            shown = round(challenge.chance, 3)
            alike = [o for o in options if not o.gamble and round(o.chance, 3) >= shown]
            assert all(options.index(o) < options.index(challenge) for o in alike)
