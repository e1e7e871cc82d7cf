"""A card that gives a bluff away, said of the option a player took, and of a partner's bluff (four players).

1. An analysis of a finished game (``ronda analyse``, the terminal's analysis screen, the page's replay) said
   "you dropped 6b" for the card that exposed the player's own false tringa, where the best option's words
   said it ("drops it; exposes your false tringa: ..."): the option taken now says it too, in the same words
   (:func:`ronda.presentation.coaching._exposure`, coach.js's ``exposure``).
2. With four players a seat's card can expose its *partner's* false declaration: the card decides the
   settlement, whose award would bring the side to the target, so the side's hands are shown first and the
   first false one is exposed (R9.5, R8.6). The engine does it (``Announcements._show_declarations``); the
   hint now says it: "exposes your partner's false ronda".

Positions come from explicit decks (``decks.start``); each test reads the lines a player reads.
"""

from __future__ import annotations

import json
from pathlib import Path

from test_coach_hint_gaps import EXPOSED, bluffed_tringa, evaluation, hint, reasons
from test_coach_wording import browser_coach_says

from decks import run, start
from ronda.analysis.review import Review, analyse
from ronda.analysis.search import Method
from ronda.engine.actions import Play
from ronda.engine.events import Exposure
from ronda.engine.game import Game
from ronda.engine.rules import Rules
from ronda.presentation.coaching import review_json, review_lines, slips_lines

FEW = Method(guesses=10)

PARTNER_EXPOSED = "exposes your partner's false ronda: 1 to each opposing side in penalties (R8.6)"


def analysed(game: Game, seat: int) -> Review:
    return analyse(game.to_record(), method=FEW, seats=[seat])


def partner_bluffed() -> Game:
    """Four players, target 3. You (seat 0) hold 12o 12c 3c and declared ronda, truly; your partner (seat 2)
    declared ronda with 3o 4c 7e, no pair; seat 1 declared ronda with 5o 5c 4b, seat 3 none. Seat 2 has played
    3o and 4c, and every other 3 and 4 is in sight (your 3c, the table's 3e 4o, 4e 4b 3b played): its ronda is
    false for certain, though no card of its own has exposed it yet (R8.5). Seat 1 has played 5o and 4b (its
    pair a 4 or a 5). You have played 12o: 12c makes your ronda the 12s, the settlement is decided, and its 3
    points would bring your side to the target, so your side's hands are shown first (R9.5)."""
    game = start(
        Rules(players=4, target=3),
        [{0: "12o 12c 3c", 1: "5o 5c 4b", 2: "3o 4c 7e", 3: "3b 4e 10c"}],
        table="3e 4o 10o 11b",
        dealer=0,
    )
    run(game, "declare ronda; declare ronda; declare none; declare ronda")
    run(game, "play 5o; play 3o; play 4e; play 12o; play 4b; play 4c; play 3b")
    return game


def test_the_analysis_says_the_card_taken_exposed_your_bluff_as_the_best_options_words_do() -> None:
    """``ronda analyse`` (and its ``--json`` text): "you dropped 6b" now says what 6b gave away."""
    game = bluffed_tringa()
    run(game, "play 2o; play 12b; play 6b")
    lines = review_lines(analysed(game, 0), me=0)
    dropped = [line.strip() for line in lines if line.strip().startswith("you dropped 6b")]
    assert dropped and dropped[0].startswith(f"you dropped 6b, which {EXPOSED.format(n=5)}: "), lines
    first = [line.strip() for line in lines if line.strip().startswith("you dropped 2o")]
    assert first and first[0].startswith("you dropped 2o: "), first  # 2o left three of its rank possible
    text = [d["text"] for d in review_json(analysed(game, 0))["decisions"] if d["taken"] == {"play": "6b"}]
    theirs = EXPOSED.format(n=5).replace("your", "seat 0's")
    assert text[0].startswith(f"seat 0 dropped 6b, which {theirs}: "), text


def test_R9_5_the_card_that_shows_your_partners_false_ronda_says_it_exposes_it() -> None:
    game = partner_bluffed()
    events = game.copy().apply(Play.parse("12c"))
    assert [e.seat for e in events if type(e) is Exposure] == [2]  # the engine exposes the partner's, R9.5
    said = reasons(hint(game))
    assert said["play 12c"].startswith(f"takes 12o; {PARTNER_EXPOSED}"), said
    assert "expose" not in said["play 3c"], said
    facts = evaluation(game).option(Play.parse("12c")).facts
    assert (facts.exposes, facts.declared, facts.penalty, facts.taken_back, facts.partner) == (1.0, "ronda", 1, 0, True)


def test_R9_5_the_terminal_analysis_screen_says_the_card_taken_exposed_your_partners_bluff() -> None:
    """The terminal's analysis screen lists the decisions that lost a chance (:func:`slips_lines`)."""
    game = partner_bluffed()
    run(game, "play 12c")
    lines = slips_lines(analysed(game, 0), 0)
    assert any(
        line.startswith(f"round 1, deal 1: you played 12c, taking 12o, which {PARTNER_EXPOSED}: ") for line in lines
    ), lines


BROWSER_VERDICT = """
class Node {  // the little of the DOM that dom.js's el() uses: the words are what is read
  constructor(text = "") { this.kids = []; this.text = text; }
  append(child) { this.kids.push(child); }
  setAttribute() {}
  addEventListener() {}
  get textContent() { return this.text + this.kids.map((k) => k.textContent).join(""); }
}
globalThis.Node = Node;
globalThis.document = { documentElement: {}, createElement: () => new Node(), createTextNode: (s) => new Node(s) };
const { verdict } = await import(process.argv[2]);
const { setLanguage } = await import(new URL("./i18n.js", process.argv[2]).href);
const decisions = JSON.parse(process.argv[3]);
const sideName = (side) => `side ${side}`;
const names = { seatName: (s) => `seat ${s}`, sideName, isMine: (s) => s === 0, players: 4 };
const watcher = { seatName: (s) => `seat ${s}`, sideName, isMine: () => false, players: 4 };
for (const language of ["en", "fr", "ar"]) {
  setLanguage(language);
  for (const decision of decisions) console.log(verdict(decision, names, (c) => c).textContent);
}
setLanguage("en");
console.log(verdict(decisions[1], watcher, (c) => c).textContent);
"""


def test_the_replay_says_the_card_taken_exposed_the_bluff_in_english_french_and_arabic(tmp_path: Path) -> None:
    """The page's verdict on a decision: graded best, it said only "Best" for the card that gave the bluff away;
    a partner's bluff is said as the partner's (and, to one who watched, by the partner's name)."""
    own = bluffed_tringa()
    run(own, "play 2o; play 12b; play 6b")
    partner = partner_bluffed()
    run(partner, "play 12c")
    decisions = [
        next(d for d in review_json(analysed(own, 0))["decisions"] if d["taken"] == {"play": "6b"}),
        next(d for d in review_json(analysed(partner, 0))["decisions"] if d["taken"] == {"play": "12c"}),
    ]
    assert decisions[0]["class"] == "best" and decisions[1]["class"] != "best"
    script = BROWSER_VERDICT.replace("process.argv[3]", json.dumps(json.dumps(decisions)))
    said = browser_coach_says(tmp_path, script)
    assert said[0] == (
        "Best — exposes your false tringa: 5 to each opposing side in penalties, and the points it scored are"
        " taken back"
    )
    assert said[1].count("exposes your partner's false ronda: 1 to each opposing side in penalties") == 1, said[1]
    assert said[2] == (
        "Meilleur — démasque votre tringa fausse : 5 à chaque camp adverse en pénalités, et les points qu'elle a"
        " marqués sont repris"
    )
    assert "démasque la ronda fausse de votre partenaire : 1 à chaque camp adverse en pénalités" in said[3]
    assert said[4].endswith("تكشف كذب ترينكا التي أعلنتها: 5 لكل فريق خصم عقوبةً، وتُستردّ النقاط التي سجّلتها")
    assert "تكشف كذب روندا التي أعلنها شريكك: 1 لكل فريق خصم عقوبةً" in said[5]
    assert "exposes seat 2's false ronda: 1 to each opposing side in penalties" in said[6], said[6]
