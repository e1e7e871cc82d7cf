"""The coach audit's item 9 and item 3 (its words): one fact in one wording, a certainty said as one.

Each test builds an evaluation by hand — the options' numbers as the search
would give them — and reads the lines a player sees: a hint
(:func:`hint_lines`), a decision of the analysis (:func:`decision_line`), the
JSON of ``ronda analyse --json`` (:func:`review_json`).
"""

from __future__ import annotations

from pathlib import Path

import ronda
from ronda.analysis.review import Decision, Moment
from ronda.analysis.search import Evaluation, Option, PlayFacts
from ronda.engine.actions import Play
from ronda.engine.cards import parse_card
from ronda.engine.game import Game
from ronda.engine.rules import Rules
from ronda.presentation.coaching import decision_line, hint_lines


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
