"""Two gaps a learner's audit found in the hints: a card that gives one's own bluff away, and whose points are shown.

1. A seat that declared a combination it does not hold (R8.2) is exposed by
   its own cards (R8.5: no candidate left; R8.7: the hidden combination's last
   card), each opposing side scoring the penalty and the bluff's settlement
   points taken back (R8.6). The coach's chances counted it (the engine plays
   the card in every guess), but the hint said only "drops it" for the card
   that did it. The words now come from the engine's own exposure in the
   guesses, never from a second reading of the rules.
2. With three players an option's expected points are the seat's own minus
   the *average* of the other two players' (``ronda.bots.rollout.utility``, and
   :class:`~ronda.analysis.search.Sources`), and the header said "the others'",
   read as the two together.

Positions come from explicit decks (``decks.start``); each test reads the lines a player reads, in the terminal
(:func:`hint_lines`; the screen of ``ronda play`` in ``tests/terminal/test_app.py``) and on the page (coach.js and
i18n.js, through node; the hint panel of a three-player table in ``tests/web/test_browser_coaching.py``).
"""

from __future__ import annotations

from pathlib import Path

from test_coach_wording import browser_coach_says

from decks import run, start
from ronda.analysis.review import facts_json
from ronda.analysis.search import Evaluation, Method, evaluate
from ronda.engine.actions import Play
from ronda.engine.events import Exposure
from ronda.engine.game import Game
from ronda.engine.rules import Rules
from ronda.presentation.coaching import hint_lines, option_reason

FEW = Method(guesses=10)
"""What is said does not depend on the budget: the exposure is the same in every guess."""

EXPOSED = (
    "exposes your false tringa: {n} to each opposing side in penalties, and the points it scored are taken back (R8.6)"
)


def hint(game: Game) -> list[str]:
    return hint_lines(evaluation(game), me=game.turn)


def evaluation(game: Game) -> Evaluation:
    return evaluate(game.view(game.turn), game.legal_actions(), FEW, seed=1)


def reasons(lines: list[str]) -> dict[str, str]:
    """Each option's reason in a hint, by the option's name: ``{"play 6b": "drops it; ..."}``."""
    said = {}
    for line in lines[1:]:
        name, rest = line.strip().split(" ", 1)[1].split(": ", 1)
        said[name] = rest.split(" points): ", 1)[1]
    return said


def exposes(game: Game, card: str) -> bool:
    """What the engine does with ``card`` now: whether it exposes the player's own declaration (R8.6)."""
    seat = game.turn
    return any(type(e) is Exposure and e.seat == seat for e in game.copy().apply(Play.parse(card)))


def bluffed_tringa() -> Game:
    """You (seat 0) hold 2o 6b 11e, nothing (R8.1), and declared tringa; seat 1 declared none. 2o and 12b played."""
    game = start(Rules(players=2), [{0: "2o 6b 11e", 1: "5o 7c 12b"}], table="3c 4c 10o 1e", dealer=1)
    run(game, "declare tringa; declare none")
    return game


def test_R8_5_R8_6_the_card_that_leaves_a_bluffed_tringa_no_candidate_says_it_exposes_it() -> None:
    game = bluffed_tringa()
    first = reasons(hint(game))  # one card played leaves three of its rank possible: nothing is exposed yet
    assert set(first) == {"play 2o", "play 6b", "play 11e"} and not any("expose" in r for r in first.values()), first
    run(game, "play 2o; play 12b")
    assert exposes(game, "6b") and exposes(game, "11e")  # two ranks played: no tringa left (R8.5)
    said = reasons(hint(game))
    assert set(said) == {"play 6b", "play 11e"}
    for name, reason in said.items():  # the settlement gave the lone tringa its 5 at once (R8.5): taken back
        assert reason.startswith(f"drops it; {EXPOSED.format(n=5)}"), (name, reason)


def test_R8_7_a_false_tringa_over_a_pair_each_card_says_its_own_penalty() -> None:
    """Holding 2o 2c 11e (a ronda) and declaring tringa: 2c completes the hidden ronda (R8.7: 1 more to each
    opposing side, and the tringa exposed with it), 11e leaves no tringa (R8.5): 6 against 5, as the engine scores."""
    game = start(Rules(players=2), [{0: "2o 2c 11e", 1: "5o 7c 12b"}], table="3c 4c 10o 1e", dealer=1)
    run(game, "declare tringa; declare none; play 2o; play 12b")
    said = reasons(hint(game))
    assert said["play 2c"] == f"takes 2o 3c 4c; {EXPOSED.format(n=6)}"
    assert said["play 11e"].startswith(f"drops it; {EXPOSED.format(n=5)}")


def test_R8_7_four_card_hands_only_the_card_that_exposes_the_bluff_says_so() -> None:
    """A false double ronda over one pair: the pair's second card exposes it (R8.7), the other cards do not."""
    game = start(Rules(players=2, four_card_hands=True), [{0: "2o 2c 11e 7b", 1: "5o 6c 12b 1e"}], dealer=1)
    run(game, "declare double_ronda; declare none; play 2o; play 12b")
    assert exposes(game, "2c") and not exposes(game, "11e") and not exposes(game, "7b")
    said = reasons(hint(game))
    assert said["play 2c"] == (
        "takes 2o; exposes your false double ronda: 3 to each opposing side in penalties,"
        " and the points it scored are taken back (R8.6)"
    )
    assert said["play 11e"].startswith("drops it") and "expose" not in said["play 11e"]
    assert said["play 7b"].startswith("drops it") and "expose" not in said["play 7b"]


def test_R8_6_the_analysis_json_says_the_card_that_exposes_the_seats_bluff_in_its_name() -> None:
    """``ronda analyse --json`` has no reader: its reasons name the seat, and the facts carry the numbers."""
    game = bluffed_tringa()
    run(game, "play 2o; play 12b")
    option = evaluation(game).option(Play.parse("6b"))
    assert option_reason(option, seat=0, outcome=False, risks=False) == (
        "drops it; exposes seat 0's false tringa: 5 to each opposing side in penalties,"
        " and the points it scored are taken back (R8.6)"
    )
    facts = facts_json(option.facts)
    assert (facts["exposes"], facts["declared"], facts["penalty"], facts["taken_back"]) == (1.0, "tringa", 5, 5)


BROWSER_EXPOSED = """
globalThis.document = { documentElement: {} };  // what setLanguage writes the language to, outside a page
const { reason } = await import(process.argv[2]);
const { setLanguage } = await import(new URL("./i18n.js", process.argv[2]).href);
const names = { seatName: (s) => `seat ${s}` };
const play = (exposes, takenBack) => ({ won: 0, lost: 0, facts: { kind: "play", card: "6b", taken: [],
  raised: false, caida: false, missa: false, next_seat: null, reply_caida: 0, reply_missa: 0,
  exposes, declared: "tringa", penalty: 5, taken_back: takenBack } });
for (const language of ["en", "fr", "ar"]) {
  setLanguage(language);
  console.log(reason(play(1, 5), names, (c) => c, { risks: false }).join(""));
  console.log(reason(play(0.4, 0), names, (c) => c).join(""));
  console.log(reason(play(0, 0), names, (c) => c).join(""));
}
"""


def test_R8_6_the_page_says_the_card_that_exposes_your_bluff_in_english_french_and_arabic(tmp_path: Path) -> None:
    assert browser_coach_says(tmp_path, BROWSER_EXPOSED) == [
        "drops it · exposes your false tringa: 5 to each opposing side in penalties, and the points it scored are"
        " taken back",
        "drops it · exposes your false tringa in 40% of the guesses: 5 to each opposing side in penalties",
        "drops it",
        "la pose sur la table · démasque votre tringa fausse : 5 à chaque camp adverse en pénalités, et les points"
        " qu'elle a marqués sont repris",
        "la pose sur la table · démasque votre tringa fausse dans 40\u202f% des hypothèses : 5 à chaque camp adverse en"
        " pénalités",
        "la pose sur la table",
        "ترميها على الطاولة · تكشف كذب ترينكا التي أعلنتها: 5 لكل فريق خصم عقوبةً، وتُستردّ النقاط التي سجّلتها",
        "ترميها على الطاولة · تكشف كذب ترينكا التي أعلنتها في 40% من التخمينات: 5 لكل فريق خصم عقوبةً",
        "ترميها على الطاولة",
    ]


THREE_PLAYERS_HEADER = (
    "Hint — your chance to win the game after each option, from what you can see (10 guesses of the hidden cards);"
    " in brackets the expected points, yours minus the average of the other two players', within this round:"
)


def test_three_players_the_hint_says_the_others_points_are_their_average() -> None:
    game = start(Rules(players=3), [{0: "2o 6b 11e", 1: "5o 7c 12b", 2: "1o 3b 10c"}], dealer=2)
    run(game, "declare none; declare none; declare none")
    assert hint(game)[0] == THREE_PLAYERS_HEADER
    two = hint(bluffed_tringa())[0]  # two sides (and four players' two): the other side's, no average to say
    assert two.endswith("in brackets the expected points, your side's minus the others', within this round:")
