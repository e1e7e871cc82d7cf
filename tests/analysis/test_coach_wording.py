"""The coach audit's item 9 and item 3 (its words): one fact in one wording, a certainty said as one.

Each test builds an evaluation by hand — the options' numbers as the search
would give them — and reads the lines a player sees: a hint
(:func:`hint_lines`), a decision of the analysis (:func:`decision_line`), the
JSON of ``ronda analyse --json`` (:func:`review_json`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import ronda
from decks import run, start
from ronda.analysis.review import Decision, Moment, analyse
from ronda.analysis.search import DeclareFacts, Evaluation, Method, Option, PlayFacts, evaluate
from ronda.engine.actions import DECLARES, Play
from ronda.engine.cards import parse_card
from ronda.engine.game import Game
from ronda.engine.rules import Rules
from ronda.presentation.coaching import decision_line, hint_lines, review_json


def drop(card: str, chance: float, reply_caida: float = 0.0, won: float = 0.0) -> Option:
    """Seat 0 drops ``card``; seat 1, next, takes it for a caida in ``reply_caida`` of the guesses."""
    facts = PlayFacts(parse_card(card), (), False, False, False, 1, reply_caida, 0.0)
    return Option(Play.parse(card), chance, 2 * chance - 1, won, 0.0, facts)


def played(options: tuple[Option, ...], taken: Option, exact: bool = False, guesses: int = 200) -> Decision:
    """A decision of seat 0 at the first turn of a two-player game, ``taken`` the option it took."""
    game = Game(Rules(players=2), seed=1)
    view = game.view(game.turn)
    evaluation = Evaluation(view.seat, "play", options, guesses, exact, 0)
    moment = Moment(0, 0, 0, view, tuple(option.action for option in options), taken.action)
    return Decision(moment, evaluation)


def test_item_9_a_caida_the_hint_calls_a_chance_the_analysis_calls_a_chance_too() -> None:
    three, seven = drop("3o", 0.40, reply_caida=0.26), drop("7c", 0.60)
    decision = played((seven, three), taken=three)
    hint = hint_lines(decision.evaluation, me=decision.seat)
    said = "holds a 3 in 26% of the guesses: a chance of a caida"
    assert any(said in line for line in hint), hint
    assert "giving seat 1 a chance of a caida (a 3 in 26% of the guesses)" in decision_line(decision)
    # The browser builds the same sentence from the same facts, in the same words.
    english = (Path(ronda.__file__).parent / "interfaces/web/static/js/i18n.js").read_text(encoding="utf-8")
    assert 'why_maybeCaida: "{name} holds a {rank} in {share} of the guesses: a chance of a caida"' in english


def test_item_9_where_the_cards_left_are_known_a_caida_is_said_as_a_certainty() -> None:
    """Searched exactly from known cards, each share is 0 or 1: "in 100% of the guesses: a likely caida" was a
    certainty said as a guess."""
    eleven, seven = drop("11o", 0.30, reply_caida=1.0, won=1.0), drop("7c", 0.60)
    decision = played((seven, eleven), taken=eleven, exact=True, guesses=1)
    hint = hint_lines(decision.evaluation, me=decision.seat)
    assert "the cards left are known: searched exactly" in hint[0]
    reason = "drops it; seat 1 holds an 11: a caida; wins the game within this round"
    assert hint[2] == f"  2. play 11o: 30.0% to win (-0.40 points): {reason}"
    assert not any("guesses" in line for line in hint[1:]), hint
    line = decision_line(decision)
    assert line.startswith("seat 0 dropped 11o, giving seat 1 a caida (seat 1 holds an 11): 30.0% to win")
    assert "guesses" not in line
    # Guessed cards keep their shares.
    guessed = played((seven, eleven), taken=eleven, exact=True, guesses=40)
    assert "seat 1 holds an 11 in 100% of the guesses: a likely caida" in hint_lines(guessed.evaluation, me=0)[2]


BROWSER_REASONS = """
const { gains, reason } = await import(process.argv[2]);
const names = { seatName: (s) => `seat ${s}` };
const drop = (card, caida, won) => ({ won, lost: 0, facts: { kind: "play", card, taken: [], raised: false,
  caida: false, missa: false, next_seat: 1, reply_caida: caida, reply_missa: 0 } });
console.log(reason(drop("11o", 1, 1), names, (c) => c, { known: true }).join(""));
console.log(reason(drop("3o", 0.26, 0), names, (c) => c).join(""));
const tringa = { won: 0, lost: 0, facts: { kind: "declare", declared: "tringa", held: "ronda", penalty: 6 } };
console.log(reason(tringa, names, (c) => c).join(""));
const shown = { won: 0, lost: 0,
  facts: { kind: "declare", declared: "tringa", held: "none", penalty: 5, shown: true } };
console.log(reason(shown, names, (c) => c).join(""));
const sources = (cards, sweep) => ({ cards, caidas: 0, missas: 0, combinations: 0, penalties: 0, dealer_duty: 0,
  sweep });
const kept = { play: "2e", won: 1, lost: 0, sources: sources(3, 1) };
const given = { play: "11o", won: 0, lost: 1, sources: sources(-3, 0) };
console.log(gains(kept, given, "seat 1", true).replace(/[\\u0002\\u2066\\u2069]/g, ""));
const more = { play: "5c", won: 0.2, lost: 0.1, sources: sources(2.6, 0.7) };
const less = { play: "6b", won: 0.2, lost: 0.1, sources: sources(0, 0.8) };
console.log(gains(more, less, "seat 1").replace(/[\\u0002\\u2066\\u2069]/g, ""));
"""


def browser_coach_says(tmp_path: Path, script: str) -> list[str]:
    """The lines a node ``script`` prints with the page's coach.js (its URL the script's first argument)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run the browser's coach.js")
    path = tmp_path / "coach-script.mjs"
    path.write_text(script, encoding="utf-8")
    coach = (Path(ronda.__file__).parent / "interfaces/web/static/js/coach.js").as_uri()
    run = subprocess.run([node, str(path), coach], capture_output=True, text=True, timeout=60, check=True)
    return run.stdout.splitlines()


def test_item_9_item_3_the_browser_says_a_caida_and_a_bluff_in_the_hints_words(tmp_path: Path) -> None:
    """The browser builds its reasons from the same facts (coach.js): a certainty and a chance, as the terminal."""
    # The browser names ranks by their Spanish names (Caballo: the 11).
    assert browser_coach_says(tmp_path, BROWSER_REASONS) == [
        "drops it · seat 1 holds a Caballo: a caida · wins the game within this round",
        "drops it · seat 1 holds a 3 in 26% of the guesses: a chance of a caida",
        "a false tringa (you hold a ronda): its settlement points are scored first, and it pays if the game is won"
        " before your cards expose it; an opponent who counts the cards may challenge it; exposed, 6 to each"
        " opposing side in penalties",
        "a bluff: its points would bring your side to the target, so your hand is shown before they are given;"
        " exposed, 5 to each opposing side",
        "+6.00 from the card count (seat 1: the round's last capture, and the cards left on the table, not after 11o)"
        " · wins the game within this round, 11o does not · 11o loses the game within this round",
        "+2.60 from the card count",  # the last capture went the other way (70% against 80%): it explains nothing
    ]


def test_item_9_the_json_reasons_name_the_seat_as_its_lines_do() -> None:
    """``ronda analyse --json`` has no reader: "seat 1 declared none" beside "your hand holds no combination" spoke
    of one seat in two persons."""
    game = start(Rules(players=2), [{1: "2o 6b 11e"}], dealer=0)
    run(game, "declare none")  # seat 1 first, holding no combination
    data = review_json(analyse(game.to_record(), method=Method(guesses=10), seats=[1]))
    decision = data["decisions"][0]
    assert decision["text"].startswith("seat 1 declared none: ")
    reasons = {option["declare"]: option["reason"] for option in decision["options"]}
    assert reasons["none"] == "seat 1's hand holds no combination"
    assert reasons["ronda"].startswith("a bluff: ") and "seat 1's cards" in reasons["ronda"]
    assert not any("you" in reason.split() or "your" in reason.split() for reason in reasons.values()), reasons


def test_item_3_a_bluff_says_how_it_pays_and_what_may_expose_it_not_only_its_cost() -> None:
    """R8.5 to R8.9: the settlement's points come first, the game must be won before the cards (or a challenge)
    expose it. A reason that gave only "6 to each opponent in penalties" recommended a bluff with no why."""
    game = Game(Rules(players=2), seed=1)
    view = game.view(game.turn)
    tringa = Option(DECLARES["tringa"], 0.706, 2.01, 0.3, 0.0, DeclareFacts("tringa", "ronda", 6))
    ronda = Option(DECLARES["ronda"], 0.621, 0.63, 0.1, 0.0, DeclareFacts("ronda", "ronda", 0))
    hint = hint_lines(Evaluation(view.seat, "declare", (tringa, ronda), 200, False, 0), me=view.seat)
    assert hint[1] == (
        "  1. declare tringa: 70.6% to win (+2.01 points): a false tringa (you hold a ronda): its settlement points"
        " are scored first (R8.5), and it pays if the game is won (R9.3) before your cards expose it (R8.5);"
        " an opponent who counts the cards may challenge it (R8.8); exposed, 6 to each opposing side in penalties"
        " (R8.6, R8.7); wins the game within this round in 30% of the guesses"
    )
    nothing = Option(DECLARES["ronda"], 0.5, 0.0, 0.0, 0.0, DeclareFacts("ronda", "none", 1))
    none = Option(DECLARES["none"], 0.6, 0.0, 0.0, 0.0, DeclareFacts("none", "none", 0))
    hint = hint_lines(Evaluation(view.seat, "declare", (none, nothing), 200, False, 0), me=view.seat)
    assert hint[2].endswith(
        ": a bluff: its settlement points are scored first (R8.5), and it pays if the game is won (R9.3) before your"
        " cards expose it (R8.5); an opponent who counts the cards may challenge it (R8.8);"
        " exposed, 1 to each opposing side (R8.6)"
    )


def test_R9_5_a_bluff_whose_points_would_reach_the_target_is_said_to_be_shown_first_not_scored_first() -> None:
    """A learner's audit: at 36-30 a bluffed tringa's reason said "its settlement points are scored first (R8.5)",
    but its 5 would reach 41, so the hand is shown before they are given (R9.5) and the bluff exposed then: the
    engine gives the other side 5 and nothing to the bluffer. A ronda's point (37) is still scored first."""
    game = Game.from_scores(Rules(players=2), [36, 30], seed=0, dealer=1)
    assert str(game.hand(0)) == "4b 7c 11b" and game.turn == 0  # nothing to declare
    evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=10), seed=0)
    tringa, ronda = evaluation.option(DECLARES["tringa"]), evaluation.option(DECLARES["ronda"])
    assert isinstance(tringa.facts, DeclareFacts) and tringa.facts.shown
    assert isinstance(ronda.facts, DeclareFacts) and not ronda.facts.shown
    lines = hint_lines(evaluation, shown=3, me=0)[1:]
    said_of = {kind: next(line for line in lines if f"declare {kind}:" in line) for kind in ("tringa", "ronda")}
    assert (
        "a bluff: its points would bring your side to the target, so your hand is shown before they are given"
        " (R9.5); exposed, 5 to each opposing side (R8.6)"
    ) in said_of["tringa"]
    assert "its settlement points are scored first (R8.5)" in said_of["ronda"]
    game.apply(DECLARES["tringa"])
    game.apply(DECLARES["none"])
    assert game.scores == [36, 35]  # shown, exposed: 5 to seat 1, never 5 to seat 0 (R9.5, R8.6)


BROWSER_FLOORS = """
const { outcomeFloors, reason } = await import(process.argv[2]);
const names = { seatName: (s) => `seat ${s}` };
const drop = (card, won) => ({ won, lost: 0, facts: { kind: "play", card, taken: [], raised: false,
  caida: false, missa: false, next_seat: 1, reply_caida: 0, reply_missa: 0 } });
const options = [drop("6c", 0.261), drop("7c", 0.18), drop("2e", 0.02)];
const floors = outcomeFloors(options);
for (const option of options) console.log(reason(option, names, (c) => c, { floors }).join(""));
"""


def test_options_shown_together_each_say_their_share_of_games_won_once_one_does(tmp_path: Path) -> None:
    """A learner's audit: of three near-equal first plays only one carried "wins the game within this round in
    26%", the next (18.5%, under the 20% from which a share is said) nothing, and they read as different. Once one
    option shown says its share, each says its own from 5%; a share under that stays unsaid. The browser's hint
    panel words them the same way (coach.js)."""
    game = Game(Rules(players=2), seed=1)
    view = game.view(game.turn)
    options = tuple(drop(card, 0.3, won=won) for card, won in (("6c", 0.261), ("7c", 0.18), ("2e", 0.02)))
    lines = hint_lines(Evaluation(view.seat, "play", options, 200, False, 0), me=view.seat)
    assert lines[1].endswith("; wins the game within this round in 26% of the guesses")
    assert lines[2].endswith("; wins the game within this round in 18% of the guesses")
    assert "wins the game" not in lines[3]
    alone = hint_lines(Evaluation(view.seat, "play", options[1:], 200, False, 0), me=view.seat)
    assert not any("wins the game" in line for line in alone)  # none says it: 18% alone is no news
    assert browser_coach_says(tmp_path, BROWSER_FLOORS) == [
        "drops it · wins the game within this round in 26% of the guesses",
        "drops it · wins the game within this round in 18% of the guesses",
        "drops it",
    ]
