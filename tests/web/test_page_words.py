"""The page's words in French and Arabic, as its own modules build them (i18n.js, cards.js, coach.js), run by node.

A newcomer's audit read "1 de épées" and "Cavalier de épées" (French elides
"de" before a vowel: "1 d'épées"), "5.2 points de pourcentage" (French
writes "5,2") and "2 لاعبين", "200 تخمينًا" (Arabic counts two in the dual and
a hundred and more in the genitive singular: "لاعبان", "200 تخمين"). The
browser tests (test_browser_words.py) read the same on the screen; these read
every card and every count the rules give, without a browser.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import ronda

JS = Path(ronda.__file__).parent / "interfaces/web/static/js"


def page_says(tmp_path: Path, script: str) -> object:
    """What a node ``script`` prints as JSON, given the page's modules: ``i18n``, ``cards``, ``coach``, ``narrate``,
    ``howto`` in scope."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run the page's modules")
    prelude = f"""
globalThis.document = {{ documentElement: {{}} }};  // what setLanguage writes the language to, outside a page
const i18n = await import({json.dumps((JS / "i18n.js").as_uri())});
const cards = await import({json.dumps((JS / "cards.js").as_uri())});
const coach = await import({json.dumps((JS / "coach.js").as_uri())});
const narrate = await import({json.dumps((JS / "narrate.js").as_uri())});
const howto = await import({json.dumps((JS / "howto.js").as_uri())});
const plain = (text) => text.replace(/[\\u2066-\\u2069]/g, "");
"""
    path = tmp_path / "words.mjs"
    path.write_text(prelude + script, encoding="utf-8")
    run = subprocess.run([node, str(path)], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(run.stdout)


CARDS = [f"{rank}{suit}" for suit in "oceb" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]


def test_french_card_names_elide_de_before_a_vowel(tmp_path: Path) -> None:
    said = page_says(
        tmp_path,
        f"""i18n.setLanguage("fr");
console.log(JSON.stringify({json.dumps(CARDS)}.map(cards.cardLabel)));""",
    )
    assert isinstance(said, list) and len(said) == 40
    assert {"1 d'épées", "Cavalier d'épées", "Roi de bâtons", "7 de deniers", "Valet de coupes"} <= set(said)
    vowels = "aeiouyàâéèêëîïôû"
    assert not [name for name in said if any(f" de {v}" in name.lower() for v in vowels)], said


def test_french_elides_de_before_a_players_name_that_starts_with_a_vowel(tmp_path: Path) -> None:
    """A template cannot know the name it is given: "la chance de Amina" is the word's to decide."""
    said = page_says(
        tmp_path,
        """i18n.setLanguage("fr");
const chance = (name) => plain(i18n.t("legendTwo", { name, other: "Hamid" }));
console.log(JSON.stringify([chance("Amina"), chance("\\u2068Omar\\u2069"), chance("Hamid"), chance("Robot 2")]));""",
    )
    assert isinstance(said, list)
    assert [line.split(" de gagner")[0] for line in said] == [
        "Chance d'Amina",
        "Chance d'Omar",
        "Chance de Hamid",
        "Chance de Robot 2",
    ]


def test_french_decimals_take_a_comma_and_arabic_keeps_its_point(tmp_path: Path) -> None:
    """French also sets "%" apart by a narrow no-break space ("34,9 %"), which the audit found missing."""
    said = page_says(
        tmp_path,
        """const out = {};
for (const language of ["en", "fr", "ar"]) {
  i18n.setLanguage(language);
  out[language] = [plain(coach.chance(0.349)), plain(coach.points(3.08)), plain(coach.points(-0.45)),
    coach.seatSummaryText({ decisions: 5, moves: 6, average_loss: 0.004 }),
    coach.seatSummaryText({ decisions: 12, moves: 20, average_loss: 0.052 })];
}
console.log(JSON.stringify(out));""",
    )
    assert said == {
        "en": [
            "34.9%",
            "+3.08",
            "\u22120.45",
            "5 decisions with a choice (of 6 moves), average loss 0.4 percentage points",
            "12 decisions with a choice (of 20 moves), average loss 5.2 percentage points",
        ],
        "fr": [
            "34,9\u202f%",
            "+3,08",
            "\u22120,45",
            "5 décisions avec un choix (sur 6 coups), perte moyenne 0,4 point de pourcentage",
            "12 décisions avec un choix (sur 20 coups), perte moyenne 5,2 points de pourcentage",
        ],
        "ar": [
            "34.9%",
            "+3.08",
            "\u22120.45",
            "5 قرارات فيها اختيار (من أصل 6 حركات)، متوسط الخسارة 0.4 نقطة مئوية",
            "12 قرارًا فيه اختيار (من أصل 20 حركة)، متوسط الخسارة 5.2 نقطة مئوية",
        ],
    }


def test_arabic_counts_agree_with_their_number(tmp_path: Path) -> None:
    """One: the singular with "واحد"; two: the dual, without the digit; 3 to 10: the plural; 11 to 99: the
    accusative singular; 100 and on: the genitive singular."""
    said = page_says(
        tmp_path,
        """i18n.setLanguage("ar");
const counts = [1, 2, 3, 10, 11, 99, 100, 200];
console.log(JSON.stringify({
  players: [2, 3, 4].map((n) => i18n.count("playersN", n)),
  guesses: counts.map((n) => i18n.count("hintGuesses", n)),
  decisions: counts.map((n) => coach.seatSummaryText({ decisions: n, average_loss: 0 }).split("،")[0]),
  days: [2, 3, 11, 100].map((n) => i18n.count("daysAgo", n)),
}));""",
    )
    assert said == {
        "players": ["لاعبان", "3 لاعبين", "4 لاعبين"],
        "guesses": [
            "تخمين واحد للأوراق المخفية",
            "تخمينان للأوراق المخفية",
            "3 تخمينات للأوراق المخفية",
            "10 تخمينات للأوراق المخفية",
            "11 تخمينًا للأوراق المخفية",
            "99 تخمينًا للأوراق المخفية",
            "100 تخمين للأوراق المخفية",
            "200 تخمين للأوراق المخفية",
        ],
        "decisions": [
            "قرار واحد فيه اختيار",
            "قراران فيهما اختيار",
            "3 قرارات فيها اختيار",
            "10 قرارات فيها اختيار",
            "11 قرارًا فيه اختيار",
            "99 قرارًا فيه اختيار",
            "100 قرار فيه اختيار",
            "200 قرار فيه اختيار",
        ],
        "days": ["منذ يومين", "منذ 3 أيام", "منذ 11 يومًا", "منذ 100 يوم"],
    }


def test_french_counts_agree_with_their_number(tmp_path: Path) -> None:
    """French counts 0 and 1 in the singular: "1 gagnée · 0 perdue", "1 carte en main"."""
    said = page_says(
        tmp_path,
        """i18n.setLanguage("fr");
const record = (wins, losses) => i18n.t("allGamesRecord",
  { wins: i18n.count("gamesWon", wins), losses: i18n.count("gamesLost", losses) });
const inHand = [1, 3].map((n) => i18n.count("cardsInHand", n));
console.log(JSON.stringify([record(1, 0), record(2, 3), ...inHand]));""",
    )
    assert said == ["1 gagnée · 0 perdue", "2 gagnées · 3 perdues", "1 carte en main", "3 cartes en main"]


def test_play_nows_name_for_a_nameless_person_is_said_in_the_pages_language(tmp_path: Path) -> None:
    """A newcomer's audit: a person who played now with no name sat as "Guest 1", in English in the French and
    Arabic lobbies. The server's name (nobody may type one like it) is said in the page's language, wherever a
    seat is named; a typed name stays as typed."""
    said = page_says(
        tmp_path,
        """const out = {};
const seats = [{ seat: 0, kind: "human", name: "Guest 1" }, { seat: 1, kind: "human", name: "Guest ab12" }];
const table = { players: 2, seats };
for (const language of ["en", "fr", "ar"]) {
  i18n.setLanguage(language);
  const names = narrate.namer(table, null);
  out[language] = [names.seatName(0), names.seatName(1), narrate.personName("Guestan"), narrate.personName("Amina")];
}
console.log(JSON.stringify(out));""",
    )
    assert said == {
        "en": ["Guest 1", "Guest ab12", "Guestan", "Amina"],
        "fr": ["Invité 1", "Invité ab12", "Guestan", "Amina"],
        "ar": ["ضيف 1", "ضيف ab12", "Guestan", "Amina"],
    }


def test_each_reason_a_game_is_not_rated_after_the_first_starts_a_sentence(tmp_path: Path) -> None:
    """The audit read "Not rated: games with a bot are not rated. a player without a kept name…": each reason is
    a sentence; the first follows the colon in lower case, the next ones begin with a capital (French too;
    Arabic has none)."""
    said = page_says(
        tmp_path,
        """const out = {};
for (const language of ["en", "fr", "ar"]) {
  i18n.setLanguage(language);
  out[language] = [i18n.sentence(i18n.t("unrated_guest")), i18n.sentence(i18n.t("unrated_bot"), false)];
}
console.log(JSON.stringify(out));""",
    )
    assert said["en"] == [
        "A player without a kept name is not rated — keep a name to be rated.",
        "games with a bot are not rated.",
    ]
    assert said["fr"][0].startswith("Un joueur sans nom gardé") and said["fr"][1].startswith("les parties")
    assert said["ar"] == ["لاعب بلا اسم محفوظ لا يُصنَّف — احفظ اسمًا لتُصنَّف.", "المباريات مع الحاسوب لا تُحتسب."]


LAST_LINE = """
const seats = (players) => [...Array(players).keys()].map((seat) => ({ seat, kind: "bot", level: "medium" }));
const line = (players, me, events) => {
  const narrator = new narrate.Narrator(narrate.namer({ players, seats: seats(players) }, me));
  let told = null;
  for (const event of events) told = narrator.push(event) ?? told;
  return plain(told.parts.map((part) => typeof part === "string" ? part : part.card).join(""));
};
"""
"""For a script of :func:`page_says`: ``line(players, me, events)``, the last line the page's play-by-play tells
seat ``me`` (``null``: a watcher) after ``events``, its cards by their codes, among bots."""


def test_a_failed_dealer_duty_names_the_opponents_who_score_it(tmp_path: Path) -> None:
    """An audit: a dealer's last card that captured nothing read "You drop 10c — dealer duty +5" to the dealer (and
    "… — dealer duty +5 — dealer duty +5" with three players), in each language, though the 5 went to each opposing
    side (R10 dealer_duty). The line names who got them, as the Python narration does; a kept duty stays the
    dealer's own "+5", and the felt's call names the scorer too."""
    said = page_says(
        tmp_path,
        """const out = {};
"""
        + LAST_LINE
        + """const calls = (players, me, events) => events.map((event) =>
  narrate.shout(event, narrate.namer({ players, seats: seats(players) }, me)))
  .filter(Boolean).map((call) => plain(call.text));
const drop = (seat) => ({ type: "drop", seat, card: "10c" });
const duty = (side, seat) => ({ type: "score", side, points: 5, reason: "dealer_duty", seat });
const kept = [{ type: "capture", seat: 1, card: "12c", cards: ["12o"] }, duty(1, 1)];
for (const language of ["en", "fr", "ar"]) {
  i18n.setLanguage(language);
  out[language] = [
    line(2, 1, [drop(1), duty(0, 1)]),
    line(3, 1, [drop(2), duty(0, 2), duty(1, 2)]),
    line(4, null, [drop(3), duty(0, 3)]),
    line(2, 0, kept),
    ...calls(2, 1, [duty(0, 1)]),
  ];
}
console.log(JSON.stringify(out));""",
    )
    assert said == {
        "en": [
            "You drop 10c — dealer duty failed: Bot 1 +5",
            "Bot 3 drops 10c — dealer duty failed: Bot 1 +5, You +5",
            "Bot 4 drops 10c — dealer duty failed: Bot 1 & Bot 3 +5",
            "Bot 2 plays 12c, takes 12o — dealer duty +5",
            "Dealer duty failed: Bot 1 +5",
        ],
        "fr": [
            "Vous posez 10c — devoir du donneur manqué : Robot 1 +5",
            "Robot 3 pose 10c — devoir du donneur manqué : Robot 1 +5, Vous +5",
            "Robot 4 pose 10c — devoir du donneur manqué : Robot 1 et Robot 3 +5",
            "Robot 2 joue 12c, prend 12o — devoir du donneur +5",
            "Devoir du donneur manqué : Robot 1 +5",
        ],
        "ar": [
            "ترمي 10c — فشل واجب الموزّع: الحاسوب 1 +5",
            "الحاسوب 3 يرمي 10c — فشل واجب الموزّع: الحاسوب 1 +5، أنت +5",
            "الحاسوب 4 يرمي 10c — فشل واجب الموزّع: الحاسوب 1 والحاسوب 3 +5",
            "الحاسوب 2 يلعب 12c ويأخذ 12o — واجب الموزّع +5",
            "فشل واجب الموزّع: الحاسوب 1 +5",
        ],
    }


def test_a_tables_help_says_what_its_variants_change_in_each_language(tmp_path: Path) -> None:
    """An audit: the table's "?" said "declare them at the start of each deal… Bluffing is allowed" where
    declarations are automatic and true, and "Missa: clear the table — +1" where points move cards (R10). Each
    variant that changes what holds changes the help's line, in English, French and Arabic alike."""
    said = page_says(
        tmp_path,
        """const tables = {
  plain: {},
  audit: { players: 3, auto_declare: true, transfer_scoring: true, chain_points: [1, 6, 15], dealer_duty: true,
    target: 25 },
  fours: { players: 4, four_card_hands: true, ace_high: true, undeclared_ronda_penalty: 5 },
};
const out = {};
for (const language of ["en", "fr", "ar"]) {
  i18n.setLanguage(language);
  out[language] = { double: i18n.kindWord("double_ronda") };
  for (const [name, rules] of Object.entries(tables)) {
    out[language][name] = { lines: howto.howTo(rules).map(plain),
      terms: howto.terms(rules).map(([term, means]) => `${term}: ${plain(means)}`) };
  }
}
console.log(JSON.stringify(out));""",
    )
    assert isinstance(said, dict)
    assert said["en"]["plain"]["lines"] == [
        "Play one card a turn. A card of the same rank as a card on the table takes it, with every card that follows "
        "it in the run 1 2 3 4 5 6 7 10 11 12.",
        "Caida: take the card the previous player has just dropped — +1.",
        "Missa: clear the table with a capture — +1, except with the round's last card.",
        "Ronda (a pair) and tringa (three of a kind): declare them at the start of each deal; the best one takes the "
        "points of all (12s highest, 1s lowest). Bluffing is allowed, and a challenge shows the hand: challenging a "
        "true declaration wins the game for its side.",
        "A false declaration gives each opponent its value; so does a combination held and not declared, once its "
        "cards are played (a ronda 1, a tringa 5).",
        "When the pack is played out, every card above 20 in a side's pile is a point. The first side to 41 wins.",
    ]
    audit = said["en"]["audit"]["lines"]
    assert audit[1] == "Caida: take the card the previous player has just dropped — +1 card."
    assert audit[3] == "Missa: clear the table with a capture — +1 card, except with the round's last card."
    assert "automatically and truly" in audit[4] and "No bluffing, no challenges." in audit[4]
    assert audit[5].startswith("Dealer's duty:") and audit[6].startswith("Paid in cards:")
    assert not any("false declaration" in line for line in audit)  # automatic declarations are true (R8.2)
    for language in ("en", "fr", "ar"):
        plain, audit, fours = (said[language][name]["lines"] for name in ("plain", "audit", "fours"))
        assert (len(plain), len(audit), len(fours)) == (6, 8, 7), language
        assert audit[0] == plain[0] and audit[1] != plain[1] and audit[3] != plain[2], language  # paid in cards
        assert "6" in audit[2] and "15" in audit[2] and "5" in fours[2], language  # the chain's own points
        assert audit[4] != plain[3] and fours[4] != plain[3] and said[language]["double"] in fours[4], language
        assert fours[5] != plain[4] and "5" in fours[5], language  # a hidden ronda costs 5
        assert "25" in audit[7] and "13" in audit[7] and "41" in fours[6], language
        terms = said[language]["fours"]["terms"]
        assert len(terms) == 5 and terms[3].startswith(said[language]["double"]), language
        assert said[language]["audit"]["terms"][2] != said[language]["plain"]["terms"][2], language
        if language != "en":  # every line in the page's language, none left in English
            for name in ("plain", "audit", "fours"):
                assert not set(said[language][name]["lines"][1:]) & set(said["en"][name]["lines"]), (language, name)


def test_a_hand_shown_before_a_win_is_told_against_its_declaration(tmp_path: Path) -> None:
    """An audit: a hand shown by R9.5 (its declaration's points would win the game, so the cards are laid down
    first) was told by the terminal's play-by-play but not by the page's, which said nothing of it; the shown
    cards, in the felt's order, and whether they make the declared combination (a double ronda is two pairs or
    four of a rank, R10 four_card_hands), in each language."""
    said = page_says(
        tmp_path,
        """const out = {};
"""
        + LAST_LINE
        + """const declare = (declaration) => ({ type: "declare", seat: 1, declaration });
const show = (hand) => ({ type: "show", seat: 1, hand });
for (const language of ["en", "fr", "ar"]) {
  i18n.setLanguage(language);
  out[language] = [
    line(2, 0, [declare("tringa"), show(["5e", "5o", "5c"])]),
    line(2, 1, [declare("ronda"), show(["12e", "5o", "7c"])]),
    line(2, 0, [declare("double_ronda"), show(["7b", "5o", "7e", "5c"])]),
    line(2, 0, [declare("ronda"), show(["5o", "5c", "5e"])]),
  ];
}
console.log(JSON.stringify(out));""",
    )
    assert said == {
        "en": [
            "Bot 2 shows the hand as dealt: 5o 5c 5e — the declaration was true",
            "You show your hand as dealt: 5o 7c 12e — the declaration was false",
            "Bot 2 shows the hand as dealt: 5o 5c 7e 7b — the declaration was true",
            "Bot 2 shows the hand as dealt: 5o 5c 5e — the declaration was false",
        ],
        "fr": [
            "Robot 2 montre sa main distribuée : 5o 5c 5e — l'annonce était vraie",
            "Vous montrez votre main distribuée : 5o 7c 12e — l'annonce était fausse",
            "Robot 2 montre sa main distribuée : 5o 5c 7e 7b — l'annonce était vraie",
            "Robot 2 montre sa main distribuée : 5o 5c 5e — l'annonce était fausse",
        ],
        "ar": [
            "الحاسوب 2 يكشف يده كما وُزّعت: 5o 5c 5e — الإعلان صادق",
            "تكشف يدك كما وُزّعت: 5o 7c 12e — الإعلان كاذب",
            "الحاسوب 2 يكشف يده كما وُزّعت: 5o 5c 7e 7b — الإعلان صادق",
            "الحاسوب 2 يكشف يده كما وُزّعت: 5o 5c 5e — الإعلان كاذب",
        ],
    }


def test_a_contests_points_say_what_they_are_made_of(tmp_path: Path) -> None:
    """An audit: "takes 7" against a double ronda ended a game at 0-7 with nothing saying that 7 is the tringa's 5
    and the bluffed double ronda's 2 (R8.4: the best takes the points of all, a bluff not yet exposed too). The page
    says it as the terminal does; a declaration exposed as false counts for nothing and is not named, and a tie's
    shared points are not explained."""
    said = page_says(
        tmp_path,
        """const out = {};
"""
        + LAST_LINE
        + """const deal = { type: "deal", deal: 0, hand_size: 4, stock: 32, table: [], last: false };
const declare = (seat, declaration) => ({ type: "declare", seat, declaration });
const score = (side, points) => ({ type: "score", side, points, reason: "announcement", seat: null });
for (const language of ["en", "fr", "ar"]) {
  i18n.setLanguage(language);
  out[language] = [
    line(2, 0, [deal, declare(0, "double_ronda"), declare(1, "tringa"), score(1, 7)]),
    line(2, 1, [deal, declare(0, "ronda"), declare(1, "tringa"), score(1, 6)]),
    line(2, 0, [deal, declare(0, "ronda"), declare(1, "tringa"), { type: "exposure", seat: 1, declaration: "tringa" },
      score(0, 1)]),
    line(2, 0, [deal, declare(0, "ronda"), declare(1, "ronda"), score(0, 1)]),
  ];
}
console.log(JSON.stringify(out));""",
    )
    assert isinstance(said, dict)
    assert said["en"] == [
        "Ronda contest decided: Bot 2 +7 (5 for Bot 2's tringa, 2 for your double ronda)",
        "Ronda contest decided: You +6 (5 for your tringa, 1 for Bot 1's ronda)",
        "Ronda contest decided: You +1",
        "Ronda contest decided: You +1",
    ]
    assert (
        said["fr"][0] == "Duel d'annonces tranché : Robot 2 +7 (5 pour la tringa de Robot 2, 2 pour votre double ronda)"
    )
    assert said["ar"][1].endswith("(5 لـترينكا الخاصة بك، 1 لـروندا الحاسوب 1)"), said["ar"][1]
