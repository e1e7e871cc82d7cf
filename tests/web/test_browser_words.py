"""Words and numbers as a newcomer reads them in the browser (Debian's chromium against a real server).

A newcomer's audit read the pages in English, French and Arabic: the hint ran
an option's points into its reason ("(-6.31 points)your hand holds no
combination"); the analysis' list of decisions numbered each entry beside its
last line, said each grade twice, and was named as the graph's marks are
while it held more ("Good" entries the graph leaves unmarked); French wrote
"5.2 points de pourcentage" and "1 gagnées · 0 perdues"; the Arabic "How to
play" read "1+" where the rest of the page reads "+1". Each test reads what
shows on the screen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import test_browser
from test_browser import DESKTOP, create_table, open_page, play_until_game_over, served
from test_browser_coaching import as_page

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on loopback: bots play at once, analyses searched with few guesses."""
    yield from served(tmp_path_factory, "words", analysis_budget=4)


@pytest.fixture(scope="module")
def finished(url: str, browser: Any) -> str:
    """A finished game against a bot (first to 3): its table id."""
    with open_page(browser, **DESKTOP) as page:
        table_id = create_table(page, url, name="Zineb", target=3)
        play_until_game_over(page, seconds=90, honest=False)
    return table_id


# ------------------------------------------------------------------ the hint

POINTS_THEN_REASON = {
    "en": re.compile(r"\(([+\u2212]\d+\.\d\d) points\)( — )?(\S)"),
    "fr": re.compile(r"\(([+\u2212]\d+,\d\d) points?\)( — )?(\S)"),  # under 2 points, "point"
    "ar": re.compile(r"\(([+\u2212]\d+\.\d\d) نقطة\)( — )?(\S)"),
}


def test_a_hint_sets_each_options_reason_apart_from_its_points_in_every_language(browser: Any, url: str) -> None:
    """The audit read "Declare Nothing 34.9% (-6.31 points)your hand holds no combination": the reason ran into the
    points, in every language. A dash sets it apart, as the replay's verdict sets a value apart from its reason; French
    writes its decimals with a comma ("(+3,08 points)")."""
    with open_page(browser, **DESKTOP) as page:
        create_table(page, url, name="Hamza")
        page.wait_for_selector("[data-action^='declare-']")
        page.click("#hint-button")
        page.wait_for_selector("#hint .hint-options li")
        for language, shape in POINTS_THEN_REASON.items():
            page.select_option("#language", language)
            page.wait_for_selector(f"html[lang='{language}'] #hint .hint-options li")
            options = [
                re.sub("[\u2066-\u2069]", "", text) for text in page.locator("#hint .hint-options li").all_inner_texts()
            ]
            for option in options:
                said = shape.search(option)
                assert said, (language, option)
                assert said.group(2) == " — ", (language, option)  # the points, a dash, then the reason


# ------------------------------------------------------------------ the analysis' list of decisions

GRADED = (("good", 0.013), ("inaccuracy", 0.031), ("mistake", 0.052), ("blunder", 0.118))
"""The classes given to a game's first decisions (docs/coach.md, "Classes"), with a loss in each class's range."""

GRADE_NAMES = {
    "en": {"good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"},
    "fr": {"good": "Bon", "inaccuracy": "Imprécision", "mistake": "Erreur", "blunder": "Gaffe"},
    "ar": {"good": "جيد", "inaccuracy": "عدم دقة", "mistake": "خطأ", "blunder": "خطأ فادح"},
}


def numbers_and_lines(page: Any) -> list[tuple[tuple[float, float], list[tuple[float, float]]]]:
    """Each entry of the analysis' list of decisions as Chromium laid it out: its number's top and bottom (right to
    left, "1" and "." may be two boxes), and its lines' tops and bottoms, top to bottom. The number is the entry's
    ::marker, which no page script measures: Chromium's own layout snapshot (DOMSnapshot) has its box, and the boxes
    of each line of text."""
    cdp = page.context.new_cdp_session(page)
    try:
        snap = cdp.send("DOMSnapshot.captureSnapshot", {"computedStyles": []})
    finally:
        cdp.detach()
    strings = snap["strings"]
    document = snap["documents"][0]
    nodes, layout, texts = document["nodes"], document["layout"], document["textBoxes"]
    parent = nodes["parentIndex"]

    def ancestors(node: int) -> Iterator[int]:
        while node >= 0:
            yield node
            node = parent[node]

    def classes(node: int) -> list[str]:
        pairs = nodes["attributes"][node]
        return next(
            (strings[pairs[i + 1]].split() for i in range(0, len(pairs), 2) if strings[pairs[i]] == "class"), []
        )

    listed = {
        node
        for node, name in enumerate(nodes["nodeName"])
        if strings[name] == "LI" and any("analysis-costly" in classes(up) for up in ancestors(node))
    }
    pseudo = dict(zip(nodes["pseudoType"]["index"], nodes["pseudoType"]["value"], strict=True))
    markers = {
        parent[node]: node for node, kind in pseudo.items() if strings[kind] == "marker" and parent[node] in listed
    }
    entries = []
    for item in sorted(listed):
        number: list[tuple[float, float]] = []
        boxes: list[tuple[float, float]] = []
        for layout_index, (_, top, _, height) in zip(texts["layoutIndex"], texts["bounds"], strict=True):
            node = layout["nodeIndex"][layout_index]
            above = list(ancestors(node))
            if item in above:
                (number if markers.get(item) in above else boxes).append((top, top + height))
        lines: list[tuple[float, float]] = []  # boxes that overlap are one line: a grade chip sits on its text's line
        for top, bottom in sorted(boxes):
            if lines and top < lines[-1][1]:
                lines[-1] = (lines[-1][0], max(lines[-1][1], bottom))
            else:
                lines.append((top, bottom))
        assert number, "an entry without its number"
        entries.append(((min(top for top, _ in number), max(bottom for _, bottom in number)), lines))
    return entries


def regrade(page: Any) -> dict[str, Any]:
    """The analysis the page fetches, its first decisions given a class each (GRADED), the first seat an average
    loss of 0.4 points: whatever the bot played, the list holds entries of every class, long enough to wrap."""
    analysed: dict[str, Any] = {}

    def answer(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        if body.get("status") == "done":
            for decision, (grade, loss) in zip(body["analysis"]["decisions"], GRADED, strict=False):
                decision["class"], decision["loss"] = grade, loss
            body["analysis"]["seats"][0]["average_loss"] = 0.004
            analysed.update(body["analysis"])
        route.fulfill(response=response, body=json.dumps(body))

    page.route("**/api/tables/*/analysis*", answer)
    return analysed


def test_the_list_of_decisions_numbers_each_entry_at_its_first_line_and_says_its_grade_once(
    browser: Any, url: str, finished: str, tmp_path: Path
) -> None:
    """The audit: "1." stood beside an entry's last line (the entry's button laid out inline: the number takes the
    line's baseline, the button's last), and each entry said its grade twice ("Mistake Round 2, deal 6: … —
    Mistake, 5.2 …"). Right to left too, where the number stands at the right."""
    with open_page(browser, **DESKTOP) as page:
        analysed = regrade(page)
        page.goto(f"{url}/t/{finished}?replay")
        page.click("#analyse")
        page.wait_for_selector("#analysis-graph", timeout=120_000)
        listed = sorted(
            (d for d in analysed["decisions"] if d["class"] != "best"), key=lambda d: (-d["loss"], d["index"])
        )
        for language in ("en", "fr", "ar"):
            page.select_option("#language", language)
            page.wait_for_selector(f"html[lang='{language}'] #analysis .analysis-costly li")
            entries = numbers_and_lines(page)
            assert len(entries) == len(listed)
            for (top, bottom), lines in entries:
                assert len(lines) >= 2, lines  # the entry wraps: which line its number stands by shows
                first_top, first_bottom = lines[0]
                assert first_top <= (top + bottom) / 2 <= first_bottom, (language, (top, bottom), lines)
            texts = page.locator("#analysis .analysis-costly li").all_inner_texts()
            for decision, text in zip(listed, texts, strict=True):
                grade = GRADE_NAMES[language][decision["class"]]
                assert text.startswith(grade) and text.count(grade) == 1, (language, text)
            page.locator("#analysis .analysis-costly").screenshot(path=str(tmp_path / f"costly-{language}.png"))


def open_regraded(page: Any, url: str, table_id: str) -> dict[str, Any]:
    """The replay of ``table_id`` with its analysis shown, regraded (:func:`regrade`): the analysis as shown."""
    analysed = regrade(page)
    page.goto(f"{url}/t/{table_id}?replay")
    page.click("#analyse")
    page.wait_for_selector("#analysis-graph", timeout=120_000)
    return analysed


MARKED = ("inaccuracy", "mistake", "blunder")
"""The classes the graph marks (coach.js: not best, not good)."""


def test_the_graphs_legend_names_what_it_marks_and_the_lists_heading_what_it_lists(
    browser: Any, url: str, finished: str
) -> None:
    """The legend said its marks were "a decision that lost winning chances" and the list's heading "decisions that
    lost winning chances (11)", but the list held "Good" entries the graph leaves unmarked: the same words for two
    different sets. The legend names the classes it marks; the heading counts the entries, good ones among them."""
    with open_page(browser, **DESKTOP) as page:
        analysed = open_regraded(page, url, finished)
        listed = [d for d in analysed["decisions"] if d["class"] != "best"]
        marked = [d for d in listed if d["class"] in MARKED]
        assert any(d["class"] == "good" for d in listed) and marked
        for language in ("en", "fr", "ar"):
            page.select_option("#language", language)
            page.wait_for_selector(f"html[lang='{language}'] #graph-legend")
            assert page.locator("#analysis-graph .graph-mark").count() == len(marked)
            legend = page.inner_text("#graph-legend .legend-marks").lower()
            names = GRADE_NAMES[language]
            assert all(names[grade].lower() in legend for grade in MARKED), (language, legend)
            assert names["good"].lower() not in legend, (language, legend)
            assert page.inner_text("#analysis .analysis-costly summary").endswith(f"({len(listed)})")
            assert page.locator("#analysis .analysis-costly li").count() == len(listed)


MARK_COLOURS = """() => {
  // Each legend entry of the marks, its words and the colour of the swatch beside them; each class's marks on the
  // graph, and the colours they are filled with, as Chromium paints them.
  const legend = [...document.querySelectorAll('#graph-legend .legend-marks > *')].map((entry) => {
    const swatch = entry.closest('.swatch') || entry.querySelector('.swatch');
    return [entry.textContent.trim(), getComputedStyle(swatch).backgroundColor];
  });
  const marks = {};
  for (const mark of document.querySelectorAll('#analysis-graph .graph-mark')) {
    const grade = [...mark.classList].find((name) => name.startsWith('grade-')).slice(6);
    (marks[grade] ||= new Set()).add(getComputedStyle(mark).fill);
  }
  return { legend, marks: Object.fromEntries(Object.entries(marks).map(([grade, fills]) => [grade, [...fills]])) };
}"""


def test_the_legend_shows_each_marked_class_in_the_colour_the_graph_draws_it(
    browser: Any, url: str, finished: str, tmp_path: Path
) -> None:
    """A student's audit: the legend said "An inaccuracy, a mistake or a blunder (a button to its step)" beside one
    red dot, where the graph draws inaccuracies yellow and mistakes orange. Each class has its entry, its swatch of
    the colour its marks are filled with, in every language."""
    with open_page(browser, **DESKTOP) as page:
        open_regraded(page, url, finished)
        for language in ("en", "fr", "ar"):
            page.select_option("#language", language)
            page.wait_for_selector(f"html[lang='{language}'] #graph-legend")
            seen = page.evaluate(MARK_COLOURS)
            assert set(seen["marks"]) == set(MARKED), seen  # the regraded game has marks of every class
            swatches = dict(seen["legend"])
            assert len(swatches) == len(MARKED), seen["legend"]
            for grade in MARKED:
                (fill,) = seen["marks"][grade]
                assert swatches[GRADE_NAMES[language][grade]] == fill, (language, grade, seen)
            assert len({swatches[GRADE_NAMES[language][grade]] for grade in MARKED}) == len(MARKED)
            assert "(" in page.inner_text("#graph-legend .legend-marks")  # what a mark does: a button to its step
        page.locator("#graph-legend").screenshot(path=str(tmp_path / "legend.png"))


def test_in_french_the_analysis_writes_its_decimals_with_a_comma(browser: Any, url: str, finished: str) -> None:
    """The audit read "5.2 points de pourcentage", "perte moyenne 0.4": French writes "5,2" and "0,4" — and "0,4
    point", a number under 2 counting in the singular. Arabic pages keep their Western digits with a point."""
    with open_page(browser, **DESKTOP) as page:
        analysed = open_regraded(page, url, finished)
        page.select_option("#language", "fr")
        page.wait_for_selector("html[lang='fr'] #analysis .analysis-costly li")
        summary = page.inner_text("#analysis .analysis-seats li[data-seat='0']")
        assert "perte moyenne 0,4 point de pourcentage" in summary, summary
        losses = [
            re.sub("[\u2066-\u2069]", "", text)
            for text in page.locator("#analysis .analysis-costly li").all_inner_texts()
        ]
        listed = sorted(
            (d for d in analysed["decisions"] if d["class"] != "best"), key=lambda d: (-d["loss"], d["index"])
        )
        for decision, text in zip(listed, losses, strict=True):
            shown = as_page(100 * decision["loss"], 1).replace(".", ",")
            unit = "point" if 100 * decision["loss"] < 2 else "points"
            assert f"— {shown} {unit} de pourcentage de chance" in text, text
        page.select_option("#language", "ar")
        page.wait_for_selector("html[lang='ar'] #analysis .analysis-costly li")
        assert "متوسط الخسارة 0.4 نقطة مئوية" in page.inner_text("#analysis .analysis-seats li[data-seat='0']")


# ------------------------------------------------------------------ Arabic: signs and counts

SIGNS_AS_DRAWN = """(scope) => {
  // Every "+" or minus sign written before a digit in `scope`, with whether it is drawn left of its digit, as written.
  const found = [];
  const walker = document.createTreeWalker(document.querySelector(scope), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    for (const match of text.matchAll(/[+\\u2212][\\u2066-\\u2069]*\\d/g)) {
      const box = (at) => {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return range.getBoundingClientRect();
      };
      const sign = box(match.index), digit = box(match.index + match[0].length - 1);
      found.push([text, sign.left < digit.left]);
    }
  }
  return found;
}"""


def test_arabic_how_to_play_reads_plus_then_number_in_the_lobby_and_at_the_table(browser: Any, url: str) -> None:
    """The audit read "ميسا (لحسة): إفراغ الطاولة — +1." as "1+": a sign after a space and before digits takes the
    direction of the right-to-left text around it. The rest of the page isolates its numbers and reads "+1"."""
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        page.wait_for_selector("#table-list li")  # the lobby loaded (its tables listed), then turned to Arabic
        page.select_option("#language", "ar")
        page.wait_for_selector("html[dir='rtl'] .howto li")
        signs = page.evaluate(SIGNS_AS_DRAWN, ".howto")
        assert len(signs) >= 2 and all(left_of_digit for _, left_of_digit in signs), signs
        create_table(page, url, name="Sanae")
        page.click("#rules-button")
        page.wait_for_selector("#help dd")
        signs = page.evaluate(SIGNS_AS_DRAWN, "#help")
        assert len(signs) >= 4 and all(left_of_digit for _, left_of_digit in signs), signs  # the how-to and the terms


def test_arabic_counts_two_players_in_the_dual_and_guesses_in_their_number(browser: Any, url: str) -> None:
    """The audit read "2 لاعبين", "2 players" in the plural of three to ten: two take the dual, "لاعبان". The hint's "4
    تخمينًا" took the accusative singular of eleven to ninety-nine: four guesses are "4 تخمينات"."""
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        page.wait_for_selector("#table-list li")  # the lobby loaded (its tables listed), then turned to Arabic
        page.select_option("#language", "ar")
        page.wait_for_selector("html[dir='rtl'] #players label")
        assert page.locator("#players label").all_inner_texts() == ["لاعبان", "3 لاعبين", "4 لاعبين"]
        create_table(page, url, name="Siham")
        page.wait_for_selector("[data-action^='declare-']")
        page.click("#hint-button")
        page.wait_for_selector("#hint .hint-options li")
        assert "(4 تخمينات للأوراق المخفية)" in page.inner_text("#hint .hint.muted")


# ------------------------------------------------------------------ French: the games record


def test_in_french_my_games_record_agrees_with_each_number(browser: Any, url: str) -> None:
    """The audit read "1 gagnées · 0 perdues": each count agrees with its own number, "1 gagnée · 0 perdue" (in
    French 0 and 1 take the singular), "2 gagnées"."""
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        page.fill("#me-name", "Yousra")
        page.click("#me-keep")
        page.wait_for_selector("#me-who:has-text('You play as Yousra')")
        page.fill("#target", "1")  # the first point wins: a short game
        page.click("#create")
        play_until_game_over(page)
        page.goto(f"{url}/p/Yousra")
        page.wait_for_selector("#player tr[data-players='2'] .all-games")
        page.select_option("#language", "fr")
        record = page.evaluate("fetch('/api/players/Yousra').then((answer) => answer.json())")["record"][0]
        assert record["wins"] + record["losses"] == 1

        def agreed(n: int, word: str) -> str:
            return f"{n} {word}" if n < 2 else f"{n} {word}s"

        said = page.locator("#player tr[data-players='2'] .all-games").inner_text()
        assert said == f"{agreed(record['wins'], 'gagnée')} · {agreed(record['losses'], 'perdue')}"
