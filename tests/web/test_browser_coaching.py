"""Hints and the analysis in a real browser (Debian's chromium through Playwright), against a real uvicorn server.

A player at a table with a bot asks for a hint and reads its options; the
finished game's replay shows the analysis: a graph whose marks are buttons to
their steps, each step's class, in English, French and Arabic. Screenshots go
to pytest's tmp_path, to look at.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import httpx
import test_browser
from test_browser import (
    DESKTOP,
    PHONE,
    create_table,
    get_json,
    hand_of,
    open_page,
    play_until_game_over,
    served,
    serving,
    table_id_of,
    truthful,
)
from websockets.sync.client import connect

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are

BUDGET = 8
"""Guesses a decision: enough to read, few enough for a test."""


def as_page(number: float, places: int) -> str:
    """``number`` to ``places`` decimals as the page writes it: a half rounds up, as JavaScript's ``toFixed`` and
    ``Intl.NumberFormat`` round the number's exact value (Python's format rounds a half to even: 0.625 -> "0.62")."""
    return str(Decimal(number).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


@pytest.fixture(scope="module")
def coach_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "coach", analysis_budget=BUDGET)


def test_the_new_table_form_turns_hints_on_against_the_computer_and_off_among_people(
    browser: Any, coach_url: str
) -> None:
    with open_page(browser, **DESKTOP) as page:
        page.goto(coach_url)
        assert page.is_checked("#create-hints")  # the other seat is a bot
        page.select_option("[data-seat-kind='1']", "human")
        assert not page.is_checked("#create-hints")  # people only
        page.select_option("[data-seat-kind='1']", "bot")
        assert page.is_checked("#create-hints")
        page.uncheck("#create-hints")  # a choice the form keeps from then on
        page.click("label[for='players-3']")
        assert not page.is_checked("#create-hints")


def test_a_hint_shows_the_best_options_with_points_and_reasons_then_goes_with_the_move(
    browser: Any, coach_url: str, tmp_path: Path
) -> None:
    with open_page(browser, **DESKTOP) as page:
        table_id = create_table(page, coach_url, name="Hamid")  # a name typed is kept: each test has its own
        page.wait_for_selector("[data-action^='declare-']")
        page.click("#hint-button")
        page.wait_for_selector("#hint .hint-options li")
        options = page.locator("#hint .hint-options li")
        assert 1 <= options.count() <= 3
        text = page.inner_text("#hint")
        assert "Your best options" in text and f"{BUDGET} guesses of the hidden cards" in text
        first = options.first.inner_text()
        assert "Declare" in first and ("+" in first or "\u2212" in first)  # points with their sign
        assert re.search(r"\d+\.\d%", first) and "points)" in first  # the chance to win, then the points
        told = page.inner_text("#announce")  # to screen readers, which were told nothing of it (an audit)
        assert "Your best options" in told and first.split("%")[0] in told, told
        assert page.get_attribute("#hint-button", "disabled") is not None  # one hint a decision
        page.screenshot(path=str(tmp_path / "hint-declare.png"))
        page.click(f"[data-action='declare-{truthful(hand_of(page))}']")
        page.wait_for_selector("#hint", state="detached")
        # A card choice: the hint names cards as chips, and H asks for it from the keyboard.
        page.wait_for_selector("#hand .hand-card.playable")
        page.keyboard.press("h")
        page.wait_for_selector("#hint .hint-options li")
        assert page.locator("#hint .chip").count() >= 1
        page.screenshot(path=str(tmp_path / "hint-play.png"))
        # French: the same hint, in the page's language.
        page.select_option("#language", "fr")
        assert "Vos meilleures options" in page.inner_text("#hint")
        record = get_json(f"{coach_url}/api/tables/{table_id}")
        assert record["hints"] is True


def test_with_three_players_the_hint_says_the_others_points_are_their_average(browser: Any, coach_url: str) -> None:
    """With three players an option's points are yours minus the other two players' average; the note under the
    options said "the others'", read as the two together (a learner's audit). In the three languages."""
    with open_page(browser, **DESKTOP) as page:
        create_table(page, coach_url, name="Yasmine", players=3)
        page.wait_for_selector("[data-action^='declare-']")
        page.click("#hint-button")
        page.wait_for_selector("#hint .hint-options li")
        note = "#hint .hint.muted"
        assert "in brackets the expected points, yours minus the average of the other two players'" in page.inner_text(
            note
        )
        page.select_option("#language", "fr")
        assert "les vôtres moins la moyenne de ceux des deux autres joueurs" in page.inner_text(note)
        page.select_option("#language", "ar")
        assert "نقاطك ناقص متوسط نقاط اللاعبَين الآخرَين" in page.inner_text(note)


FORCED = {
    "en": ("Nothing to choose", "Your only card:", "Your chance to win the game after it"),
    "fr": ("Rien à choisir", "Votre seule carte :", "Votre chance de gagner la partie après ce coup"),
    "ar": ("لا خيار أمامك", "ورقتك الوحيدة:", "فرصتك للفوز باللعبة بعد هذه الحركة"),
}
"""A hint's words where there is nothing to choose: its title, what it says first, its note."""


def test_a_hint_on_your_last_card_says_first_that_there_is_nothing_to_choose(
    browser: Any, coach_url: str, tmp_path: Path
) -> None:
    """A student's audit: with one card left the hint said "Your best options … 4 44.9% (+0.81 points) — drops it",
    advice where there was no choice. It says there is nothing to choose, names the card, and still gives its chance
    to win, in English, French and Arabic."""
    with open_page(browser, **DESKTOP) as page:
        create_table(page, coach_url, name="Karima")
        deadline = time.monotonic() + 60
        # The deal's last card, with no challenge to make instead (a choice, then). A challenge the seat's cards
        # prove would fail is no choice: the page shows a note, not a button, and the hint does not list it.
        challenges = "[data-action^='challenge-']"
        while True:
            assert time.monotonic() < deadline, "no last card came"
            if page.locator("[data-action^='declare-']").count():
                with contextlib.suppress(test_browser.playwright_api.Error):
                    page.click(f"[data-action='declare-{truthful(hand_of(page))}']", timeout=2_000)
            elif page.locator("#hand .hand-card.playable").count():
                if len(hand_of(page)) == 1 and not page.locator(challenges).count():
                    break
                with contextlib.suppress(test_browser.playwright_api.Error):
                    page.locator("#hand .hand-card.playable").first.click(timeout=2_000)
            page.wait_for_timeout(60)
        (card,) = hand_of(page)
        page.click("#hint-button")
        page.wait_for_selector("#hint .hint-options li")
        assert page.locator("#hint .hint-options li").count() == 1
        for language, (title, first, note) in FORCED.items():
            page.select_option("#language", language)
            page.wait_for_selector(f"html[lang='{language}'] #hint")
            assert page.inner_text("#hint-title") == title
            assert page.inner_text("#hint-forced").strip().startswith(first)
            assert page.locator("#hint-forced .chip").get_attribute("title") == page.evaluate(
                "async (card) => (await import('/static/js/cards.js')).cardLabel(card)", card
            )
            option = re.sub("[\u2066-\u2069]", "", page.inner_text("#hint .hint-options li"))
            assert re.search(r"\d+[.,]\d\s?%", option), option  # its chance to win, still said
            assert page.inner_text("#hint .hint.muted").startswith(note)
            page.screenshot(path=str(tmp_path / f"hint-forced-{language}.png"))


def test_a_hint_beside_a_ronda_proven_true_offers_no_challenge_and_the_last_card_is_nothing_to_choose(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The friend's ronda is proven true by the host's cards: the page shows a note in place of the challenge button,
    yet the hint listed that challenge (0%, the game lost) as a second option, under "Your best options", where the
    last card was the only move to make (a fresh machine's run met it)."""
    import ronda.interfaces.web.lobby as lobby_module
    from ronda.engine.cards import card_name

    deck, host, friend = test_browser.proven_ronda_deal()
    monkeypatch.setattr(lobby_module, "shuffled_deck", lambda rules, rng: list(deck))
    app = test_browser.create_app(
        f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0, bot_workers=1, analysis_budget=BUDGET
    )
    with serving(app) as url, open_page(browser, **DESKTOP) as page, open_page(browser, **DESKTOP) as guest:
        test_browser.play_to_the_proven_ronda(page, guest, url, host, friend, hints=True)
        assert page.locator("[data-action^='challenge-']").count() == 0
        page.click("#hint-button")
        page.wait_for_selector("#hint .hint-options li")
        assert page.inner_text("#hint-title") == "Nothing to choose"
        assert page.inner_text("#hint-forced").strip().startswith("Your only card:")
        assert page.locator("#hint-forced .chip").get_attribute("title") == page.evaluate(
            "async (card) => (await import('/static/js/cards.js')).cardLabel(card)", card_name(host[2])
        )
        options = page.locator("#hint .hint-options li")
        assert options.count() == 1
        assert "Youssef" not in options.inner_text() and "challenge" not in options.inner_text().lower()
        page.screenshot(path=str(tmp_path / "hint-proven.png"))


def test_a_finished_games_replay_shows_its_analysis_a_graph_and_each_steps_class(
    browser: Any, coach_url: str, tmp_path: Path
) -> None:
    with open_page(browser, **DESKTOP) as page:
        table_id = create_table(page, coach_url, name="Amina", target=3)
        play_until_game_over(page, honest=False)  # declaring none over a ronda: a decision that costs
        page.goto(f"{coach_url}/t/{table_id}?replay")
        # Space presses the button the keyboard is on, as Enter does: it started the replay instead (an audit).
        page.focus("#analyse")
        page.keyboard.press(" ")
        page.wait_for_selector("#analysis-graph", timeout=120_000)
        assert page.get_attribute("#replay-play", "data-icon") == "play", "Space started the replay"
        analysis = get_json(f"{coach_url}/api/tables/{table_id}/analysis")["analysis"]
        graph = page.locator("#analysis-graph")
        assert graph.get_attribute("aria-labelledby") == "graph-title graph-desc"
        assert page.locator("#graph-title").text_content() == "Chance to win over the game"
        assert "above the middle line" in page.locator("#graph-desc").text_content()
        # What the screen reader hears, a sighted player reads under the graph: whose side is up.
        assert "Above the dashed line Amina is ahead, below it Bot 2." in page.inner_text("#analysis figcaption")
        costly = [d for d in analysis["decisions"] if d["class"] not in ("best", "good")]
        marks = page.locator("#analysis-graph .graph-mark")
        assert marks.count() == len(costly)
        for seat in analysis["seats"]:
            summary = page.inner_text(f"#analysis .analysis-seats li[data-seat='{seat['seat']}']")
            # The page rounds as JavaScript does (1.125 shows 1.13, Python's format 1.12): compare the numbers.
            counted = f"with a choice (of {seat['moves']} moves)"  # what the count is of: not every move
            one = seat["decisions"] == 1
            said = f"1 decision {counted}, loss" if one else f"{seat['decisions']} decisions {counted}, average loss"
            shown = re.search(rf"{re.escape(said)} (\d+\.\d) percentage points", summary)
            assert shown and abs(float(shown.group(1)) - 100 * seat["average_loss"]) <= 0.051
        page.screenshot(path=str(tmp_path / "analysis.png"), full_page=True)
        # Every decision that lost points is a button to its step, where the step says its class.
        listed = [d for d in analysis["decisions"] if d["class"] != "best"]
        assert page.locator("#analysis .analysis-costly li").count() == len(listed)
        # Each names its card as the replay's caption does: "drops" where the card was laid on the table.
        replay_steps = get_json(f"{coach_url}/api/tables/{table_id}/replay")["steps"]
        labels = page.locator("#analysis .analysis-costly button").all_inner_texts()
        for decision, label in zip(sorted(listed, key=lambda d: (-d["loss"], d["index"])), labels, strict=True):
            if "play" in decision["taken"]:
                events = replay_steps[decision["index"] + 1]["events"]
                dropped = any(e["type"] == "drop" and e["seat"] == decision["seat"] for e in events)
                assert (" drops " in label, " plays " in label) == (dropped, not dropped), label
        if listed:
            worst = max(listed, key=lambda d: (d["loss"], -d["index"]))
            page.locator("#analysis .analysis-costly button").first.click()
            steps = len(get_json(f"{coach_url}/api/tables/{table_id}/replay")["steps"]) - 1
            assert f"Step {worst['index'] + 1} of {steps}" in page.inner_text(".replay-controls")
            verdict = page.inner_text("#replay-verdict")
            assert verdict.startswith(worst["class"].capitalize())
            assert f"{as_page(100 * worst['loss'], 1)} percentage points less chance to win than the best" in verdict
            # Issue 25: the option taken with its own value, the best with its own, and what the best gains.
            taken = next(o for o in worst["options"] if all(o.get(k) == v for k, v in worst["taken"].items()))
            sign = "+" if taken["expected"] >= 0 else "\N{MINUS SIGN}"  # the page's minus, as a typesetter writes it
            chosen = verdict.split("best:")[0]
            assert "chosen:" in chosen and f"{as_page(100 * taken['chance'], 1)}%" in chosen
            assert f"{sign}{as_page(abs(taken['expected']), 2)}" in chosen
            assert "best:" in verdict and ("against" in verdict or worst["loss"] < 0.3)
        if costly:
            marks.first.focus()
            page.keyboard.press("Enter")
            assert f"Step {costly[0]['index'] + 1} of" in page.inner_text(".replay-controls")
        # Arabic: right to left, the graph mirrored, its words in Arabic.
        page.select_option("#language", "ar")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        assert page.locator("#graph-title").text_content() == "فرصة الفوز على مدار اللعبة"
        assert "التحليل" in page.inner_text("#analysis h2")
        page.screenshot(path=str(tmp_path / "analysis-ar.png"), full_page=True)


def test_the_analysis_fits_a_phone(browser: Any, coach_url: str, tmp_path: Path) -> None:
    with open_page(browser, **DESKTOP) as page:
        table_id = create_table(page, coach_url, name="Nadia", target=1)
        play_until_game_over(page)
    with open_page(browser, **PHONE) as page:
        page.goto(f"{coach_url}/t/{table_id}?replay")
        page.click("#analyse")
        page.wait_for_selector("#analysis-graph", timeout=120_000)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390 + 1  # no sideways scrolling
        box = page.locator("#analysis-graph").bounding_box()
        assert box is not None and box["width"] <= 390
        page.screenshot(path=str(tmp_path / "analysis-phone.png"), full_page=True)


def test_the_analysis_lists_the_card_that_exposed_a_false_tringa_with_its_cost_in_three_languages(
    browser: Any, coach_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The list of decisions that lost winning chances says what the card dropped gave away (R8.6), in the page's
    language: "drops 6b" alone hid the penalty and the points taken back that lost the game, where 12e's caida
    won it. Salma (seat 0) holds 2o 6b 12e, nothing, and declares tringa; her friend (seat 1) holds 12b 6o 7c and
    declares none. Target 6: the tringa's 5 come at once (R8.5); after 2o and 12b, 12e's caida is the sixth point,
    6b leaves the tringa no candidate (exposed: 5 to seat 1, Salma's 5 taken back), and 6o's caida on it wins."""
    import ronda.interfaces.web.lobby as lobby_module
    from decks import build_deck
    from ronda.engine.cards import parse_card
    from ronda.engine.rules import Rules

    dealt = build_deck(Rules(players=2), [{0: "2o 6b 12e", 1: "12b 6o 7c"}], table="3c 4c 10o 1e", dealer=1)
    monkeypatch.setattr(lobby_module, "shuffled_deck", lambda rules, rng: [parse_card(card) for card in dealt])
    with open_page(browser, **DESKTOP) as page, open_page(browser, **DESKTOP) as friend:
        page.goto(coach_url)
        page.fill("#me-name", "Salma")
        page.select_option("[data-seat-kind='1']", "human")
        page.fill("#target", "6")
        page.click("#create")
        friend.goto(page.locator("#invite-link").input_value())
        friend.fill("#join-name", "Driss")
        friend.click("#join-button")
        table_id = table_id_of(page)
        page.click("[data-action='declare-tringa']")  # a bluff
        friend.click("[data-action='declare-none']")
        for mine, theirs in (("2o", "12b"), ("6b", "6o")):
            page.click(f"#hand [data-card='{mine}'].playable")
            friend.click(f"#hand [data-card='{theirs}'].playable")
        page.wait_for_selector("#summary[data-kind='game']")
        page.goto(f"{coach_url}/t/{table_id}?replay")
        # Space presses the button the keyboard is on, as Enter does: it started the replay instead (an audit).
        page.focus("#analyse")
        page.keyboard.press(" ")
        page.wait_for_selector("#analysis-graph", timeout=120_000)
        assert page.get_attribute("#replay-play", "data-icon") == "play", "Space started the replay"
        analysis = get_json(f"{coach_url}/api/tables/{table_id}/analysis")["analysis"]
        dropped = next(d for d in analysis["decisions"] if d["taken"] == {"play": "6b"})
        assert dropped["class"] != "best"  # a costly decision: it is listed
        listed = page.locator("#analysis .analysis-costly li")
        said = {  # the replay names every seat, its player's own too, as its captions do ("Salma drops 6b")
            "en": "exposes Salma's false tringa: 5 to each opposing side in penalties, and the points it scored are"
            " taken back",
            "fr": "démasque la tringa fausse de Salma : 5 à chaque camp adverse en pénalités, et les points qu'elle a"
            " marqués sont repris",
            "ar": "تكشف كذب ترينكا التي أعلنها Salma: 5 لكل فريق خصم عقوبةً، وتُستردّ النقاط التي سجّلتها",
        }
        for language, words in said.items():
            page.select_option("#language", language)
            texts = listed.all_inner_texts()
            line = page.inner_text(f"#analysis .analysis-costly [data-step='{dropped['index'] + 1}']")
            assert words in line, line
            assert [words in text for text in texts].count(True) == 1, texts  # the card alone: no other decision
        page.screenshot(path=str(tmp_path / "analysis-exposed.png"), full_page=True)


# ------------------------------------------------------------------ asking for the analysis until it is done

RUNNING = json.dumps({"status": "running", "done": 9, "total": 26})
"""The server's answer while it searches: "Analysing: 9 of 26 decisions with a choice…"."""


@pytest.fixture(scope="module")
def finished(coach_url: str) -> str:
    """A finished two-player game (a person playing from a script, and an easy bot; first to 3), played without a
    page, and its analysis searched already: its table id."""
    seats = [{"kind": "human", "name": "Nawal"}, {"kind": "bot", "level": "easy"}]
    answer = httpx.post(f"{coach_url}/api/tables", json={"players": 2, "seats": seats, "target": 3, "keep": False})
    assert answer.status_code == 201, answer.text
    table_id, token = answer.json()["table_id"], answer.json()["token"]
    with connect(f"ws{coach_url[4:]}/ws/{table_id}", open_timeout=10, max_queue=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        while ((message := json.loads(ws.recv(timeout=30))).get("view") or {}).get("phase") != "game_over":
            assert message["type"] != "error", message
            plays = [action for action in message.get("legal") or [] if "challenge" not in action]
            if plays:
                ws.send(json.dumps({"type": "act", "action": plays[0], "version": message["version"]}))
    deadline = time.monotonic() + 120
    while httpx.get(f"{coach_url}/api/tables/{table_id}/analysis").json()["status"] != "done":
        assert time.monotonic() < deadline, "the analysis never finished"
        time.sleep(0.2)
    return table_id


def test_the_analysis_page_asks_on_past_an_answer_lost_failed_or_never_given(
    browser: Any, coach_url: str, finished: str
) -> None:
    """A student's audit: the page stayed on "Analysing: 9 of 26 decisions with a choice…" for two minutes, having
    asked three times, while the server had long finished. The page asks until the analysis is done, past a network
    error, a proxy's error page and an answer that never comes (given up after 10 s, the page's clock run on)."""
    with open_page(browser, **DESKTOP) as page:
        page.clock.install()
        given: list[str] = []
        held: list[Any] = []

        def answer(route: Any) -> None:
            script = ["running", "network error", "502", "running", "no answer"]
            kind = script[len(given)] if len(given) < len(script) else "the server's"
            given.append(kind)
            if kind == "running":
                route.fulfill(status=202, content_type="application/json", body=RUNNING)
            elif kind == "network error":
                route.abort("connectionreset")
            elif kind == "502":
                route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")
            elif kind == "no answer":
                held.append(route)
            else:
                route.continue_()

        page.route("**/api/tables/*/analysis*", answer)
        page.goto(f"{coach_url}/t/{finished}?replay&game=0&analysis")
        page.wait_for_selector("#analysis-progress:has-text('Analysing: 9 of 26 decisions with a choice')")
        deadline = time.monotonic() + 15
        while not held:
            assert time.monotonic() < deadline, f"the page stopped asking after {given}"
            assert "/t/" in page.url and page.locator("#replay").count(), f"the page left the replay after {given}"
            page.wait_for_timeout(100)
        assert "Analysing: 9 of 26" in page.inner_text("#analysis")  # still saying where it was meanwhile
        page.clock.fast_forward(11_000)  # the answer that never comes, given up
        page.wait_for_selector("#analysis-graph", timeout=15_000)
        assert given[-1] == "the server's" and "replay" in page.url


def test_the_analysis_page_says_when_it_could_not_get_the_analysis_and_offers_to_try_again(
    browser: Any, coach_url: str, finished: str
) -> None:
    """Every answer lost (the network down): after three in a row the page says it could not get the analysis, on
    the replay, with a button to try again, which then shows it. It went to the lobby on the first."""
    with open_page(browser, **DESKTOP) as page:
        down = [True]
        asked: list[str] = []

        def answer(route: Any) -> None:
            asked.append(route.request.url)
            if down[0]:
                route.abort("internetdisconnected")
            else:
                route.continue_()

        page.route("**/api/tables/*/analysis*", answer)
        page.goto(f"{coach_url}/t/{finished}?replay&game=0&analysis")
        page.wait_for_selector("#analysis-failed", timeout=10_000)
        assert page.inner_text("#analysis-failed") == "Could not get the analysis: the server did not answer."
        assert len(asked) == 3 and page.locator("#replay").count()  # asked three times, on the replay still
        assert page.inner_text("#analyse") == "Try again"
        page.select_option("#language", "fr")
        assert page.inner_text("#analysis-failed") == "L'analyse n'a pas pu être obtenue : le serveur n'a pas répondu."
        page.select_option("#language", "en")
        down[0] = False
        page.click("#analyse")
        page.wait_for_selector("#analysis-graph", timeout=10_000)


def test_a_replay_that_loads_late_is_not_drawn_over_the_newer_one_that_asks(
    browser: Any, coach_url: str, finished: str
) -> None:
    """The page's route ran twice (a second click on the link, back and forward) and the first replay's game came
    last: drawn over the second, then stopped as left behind, it stood on the page with its progress line for good
    ("Analysing: 9 of 26…"), while the second asked on out of sight. A screen the page has moved past draws nothing."""
    with open_page(browser, **DESKTOP) as page:
        held: list[Any] = []
        searching = [True]

        def replay(route: Any) -> None:
            if not held:
                held.append(route)  # the first route's game, slow to come
            else:
                route.continue_()

        def analysis(route: Any) -> None:
            if searching[0]:
                route.fulfill(status=202, content_type="application/json", body=RUNNING)
            else:
                route.continue_()

        page.route("**/api/tables/*/replay*", replay)
        page.route("**/api/tables/*/analysis*", analysis)
        page.goto(f"{coach_url}/t/{finished}?replay&game=0&analysis")
        deadline = time.monotonic() + 10
        while not held:
            assert time.monotonic() < deadline, "the replay was never asked for"
            page.wait_for_timeout(50)
        page.evaluate("history.pushState(null, '', location.href); dispatchEvent(new PopStateEvent('popstate'))")
        page.wait_for_selector("#analysis-progress:has-text('Analysing: 9 of 26')")
        held[0].continue_()  # the first game comes now
        page.wait_for_timeout(1_500)
        searching[0] = False  # the server is done
        page.wait_for_selector("#analysis-graph", timeout=10_000)
        assert page.locator("#replay").count() == 1
