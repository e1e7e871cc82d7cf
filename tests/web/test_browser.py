"""The page in a real browser: Playwright drives Debian's chromium against a real uvicorn server.

These tests click what a player clicks (create a table, declare, play cards,
take a seat from an invite link, ask for another game, step through a replay)
and read what a player reads (cards, scores, the summaries, the play-by-play),
so they fail when the page, the protocol or the server breaks. `.ci/run`
installs chromium; test tools cannot download browsers on this machine, hence
`executable_path`. Screenshots go to pytest's tmp_path, never into the tree.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
uvicorn = pytest.importorskip("uvicorn")

from ronda.interfaces.web.app import create_app  # noqa: E402

CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's chromium, in its headless build where it is installed (``chromium-headless-shell``: the same Blink and V8
without the browser's windows, as Playwright itself runs headless pages): it spends a third to a half of the full
browser's CPU, and on this two-core machine the browser tests took 464 s of the two workers' time against 617 s and
628 s with the full chromium, the whole suite 9 min 44 s against 11 min 57 s and 11 min 42 s (``pytest
--durations=0`` in the checkout, the same day). The full chromium elsewhere."""
# Skipped on a machine without chromium, except in CI (RONDA_CI set by .ci/run), where that is a failure.
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("RONDA_CI"),
    reason="Debian's chromium is not installed (.ci/run installs it)",
)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP = {"viewport": {"width": 1280, "height": 860}, "locale": "en-US"}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "en-US"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def served(tmp_path_factory: pytest.TempPathFactory, name: str, **options: Any) -> Iterator[str]:
    """A real server on loopback for a module's tests, bots playing without pause, on a fresh SQLite file in a folder
    named ``name``; ``options`` of :func:`create_app` beside those. Its module's fixture yields from it."""
    folder = tmp_path_factory.mktemp(name)
    options = {"bot_delay": 0, "bot_workers": 1, "listen_host": "127.0.0.1", **options}
    with serving(create_app(f"sqlite:///{folder / 'ronda.sqlite3'}", **options)) as url:
        yield url


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on loopback, bots playing without pause, on a fresh SQLite file."""
    yield from served(tmp_path_factory, "web")


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """A uvicorn server for ``app`` on a free loopback port, in a thread, for as long as the block lasts."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.fail("RONDA_CI is set but Debian's chromium is not installed")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


def console_error(message: Any) -> bool:
    """An error the page logged; the browser's own notes of a refused call (a 409 the page handles, a server that is
    down while the page reconnects) are not one."""
    text = message.text
    return bool(
        message.type == "error"
        and not text.startswith("Failed to load resource")
        and not (text.startswith("WebSocket connection to") and "failed" in text)
    )


@contextlib.contextmanager
def open_page(browser: Any, **context_options: Any) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage); any script error on the page fails the test.

    The reader prefers reduced motion unless the test says otherwise (``reduced_motion="no-preference"``): the
    page's motion is read where it is the point (:func:`test_a_whole_round_against_a_bot_by_clicking` plays a round
    with it, every card flying), and elsewhere software-drawn animations cost a two-core machine about a tenth of
    the browser tests' time (312 s against 282 s for tests/web/test_browser*.py with ``-n 2``), the words on the
    screen being the same.
    """
    context_options.setdefault("reduced_motion", "reduce")
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if console_error(message) else None)
    try:
        yield page
        assert errors == [], f"the page raised: {errors}"
    finally:
        context.close()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


def table_id_of(page: Any) -> str:
    parts = page.url.split("?")[0].rsplit("/t/", 1)
    assert len(parts) == 2, page.url
    return str(parts[1])


FRESH_NAMES = (f"Amina {n}" for n in itertools.count(1))
"""The creators' names when a test names none: a name typed is kept on the server, so each table has its own."""


def create_table(page: Any, base_url: str, name: str | None = None, players: int = 2, target: int | None = None) -> str:
    page.goto(base_url)
    page.fill("#me-name", name or next(FRESH_NAMES))
    page.click(f"label[for='players-{players}']")
    if target is not None:
        page.fill("#target", str(target))
    page.click("#create")
    page.wait_for_selector("#hand .hand-card")
    return table_id_of(page)


def create_table_for_a_friend(page: Any, base_url: str, name: str = "Amina", hints: bool = False) -> str:
    """``name`` creates a two-player table with the other seat for a person; returns the invite link shown.

    A name typed is kept on that server: each test's people have names of their own. ``hints`` ticks the box
    that lets the players ask for hints (off by default among people).
    """
    page.goto(base_url)
    page.fill("#me-name", name)
    page.select_option("[data-seat-kind='1']", "human")
    if hints:
        page.check("#create-hints")
    page.click("#create")
    invite = page.locator("#invite-link")
    invite.wait_for()
    # The test servers are on loopback: the waiting dialog says friends elsewhere cannot use the link, and why.
    note = page.inner_text("#invite-note")
    assert "Only this computer can open this link" in note or "This link names this computer" in note
    return str(invite.input_value())


def wait_until(page: Any, expression: str, timeout: float = 15.0) -> None:
    """Poll a JavaScript expression until it is true.

    Playwright's ``wait_for_function`` builds its predicate with ``eval``, which
    the page's Content-Security-Policy (no ``unsafe-eval``) rightly refuses;
    ``page.evaluate`` goes through the DevTools protocol and is not refused.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def hand_of(page: Any) -> list[str]:
    return [card.get_attribute("data-card") for card in page.locator("#hand .hand-card").all()]


def truthful(hand: list[str]) -> str:
    """What an honest player declares for a three-card hand (R8.1)."""
    ranks = [card[:-1] for card in hand]
    most = max(ranks.count(rank) for rank in ranks)
    return {3: "tringa", 2: "ronda"}.get(most, "none")


def play_until_summary(page: Any, seconds: float = 40, honest: bool = True) -> int:
    """Declare (truthfully, by clicking) and play the first playable card until a summary shows; returns the clicks."""
    clicks = 0
    deadline = time.monotonic() + seconds
    while not page.locator("#summary").count():
        assert time.monotonic() < deadline, "no summary came"
        if page.locator("[data-action^='declare-']").count():
            kind = truthful(hand_of(page)) if honest else "none"
            with contextlib.suppress(playwright_api.Error):
                page.click(f"[data-action='declare-{kind}']", timeout=2_000)
                clicks += 1
        elif page.locator("#hand .hand-card.playable").count():
            with contextlib.suppress(playwright_api.Error):
                page.locator("#hand .hand-card.playable").first.click(timeout=2_000)
                clicks += 1
        page.wait_for_timeout(60)
    return clicks


def play_until_game_over(page: Any, seconds: float = 40, honest: bool = True) -> None:
    """Play the page's game to its end (:func:`play_until_summary`), closing each round's summary with Continue."""
    while True:
        play_until_summary(page, seconds=seconds, honest=honest)
        if page.locator("#summary").get_attribute("data-kind") == "game":
            return
        page.click("[data-action='continue']")  # a round ended with nobody at the target yet


def shown_scores(page: Any) -> list[int]:
    return [int(points.inner_text()) for points in page.locator("#scores .points").all()]


def test_a_whole_round_against_a_bot_by_clicking(browser: Any, base_url: str, tmp_path: Path) -> None:
    with open_page(browser, **DESKTOP, reduced_motion="no-preference") as page:  # with the page's motion
        table_id = create_table(page, base_url, name="Hamid")
        # Three face-up cards in hand, four on the table (R3.3), the bot's hand as three backs.
        assert len(hand_of(page)) == 3
        assert page.locator("#table-cards .table-card").count() == 4
        assert page.locator(".seat .seat-hand .card.back").count() == 3
        # Every card is drawn and labelled for screen readers, every decision is a real button.
        first = page.locator("#hand .hand-card").first
        assert " of " in first.locator("svg[role='img']").get_attribute("aria-label")  # the button's name
        assert first.evaluate("node => node.tagName") == "BUTTON"
        assert page.locator("#hand .hand-card svg").count() == 3
        # The declaration buttons are exactly the legal actions the server sent.
        offered = {b.get_attribute("data-action") for b in page.locator("[data-action^='declare-']").all()}
        assert offered == {"declare-none", "declare-ronda", "declare-tringa"}
        honest = page.locator("[data-action^='declare-'].honest").get_attribute("data-action")
        assert honest == f"declare-{truthful(hand_of(page))}"  # the truthful choice is marked
        page.screenshot(path=str(tmp_path / "declare.png"))
        # Motion is short: 1.5 s after a move (and the bot's answer) nothing is still flying across the table.
        page.click(f"[data-action='declare-{truthful(hand_of(page))}']")
        page.wait_for_selector("#hand .hand-card.playable")
        page.locator("#hand .hand-card.playable").first.click()
        page.wait_for_timeout(1500)
        moving = "a => a.playState === 'running' && a.effect.getTiming().iterations !== Infinity"
        assert page.evaluate(f"document.getAnimations().filter({moving}).length") == 0
        page.screenshot(path=str(tmp_path / "after-a-move.png"))
        clicks = play_until_summary(page) + 2
        assert clicks >= 18  # 18 cards of ours over six deals, plus declarations
        summary = page.locator("#summary")
        assert summary.get_attribute("data-kind") in {"round", "game"}
        # The scores on the page are the server's.
        server = get_json(f"{base_url}/api/tables/{table_id}")
        assert shown_scores(page) == server["scores"]
        assert [int(cell.inner_text()) for cell in summary.locator("td.total").all()] == server["scores"]
        if summary.get_attribute("data-kind") == "round":
            # Every card of the round ended in a pile, and the card count (R7.2) is shown for each side.
            piles = [int(cell.inner_text()) for cell in summary.locator("td.piles").all()]
            assert sum(piles) == 40
            counted = [int(cell.inner_text().lstrip("+")) for cell in summary.locator("td.card-points").all()]
            assert counted == [max(0, pile - 20) for pile in piles]
        # The play-by-play told the round in the game's words.
        log = page.inner_text("#log")
        assert "You drop" in log or "You play" in log
        assert "Round over" in log
        assert page.locator("#log li").count() > 20
        page.screenshot(path=str(tmp_path / "round-summary.png"))
        if summary.get_attribute("data-kind") == "round":
            page.click("[data-action='continue']")
            assert not page.locator("#summary").count()
            # "Always declare truthfully for me": the server declares for us from now on.
            page.click("label.switch")
            wait_until(page, "document.querySelector('#auto-declare').checked")
            page.wait_for_selector("#hand .hand-card.playable")
            assert not page.locator("[data-action^='declare-']").count()


def test_the_help_says_the_rules_of_its_own_table_in_each_language(browser: Any, base_url: str) -> None:
    """An audit: at a table with automatic declarations and points paid in cards, "?" said "declare them at the
    start of each deal… Bluffing is allowed, and a challenge shows the hand" and "Missa: clear the table — +1", the
    lobby's general how-to. The help is written from the table's rules (R10), as the terminal's is."""
    with open_page(browser, **DESKTOP) as page:
        page.goto(base_url)
        page.fill("#me-name", next(FRESH_NAMES))
        page.click("label[for='players-3']")
        page.click("#variants summary")
        for variant in ("auto_declare", "transfer_scoring", "dealer_duty"):
            page.check(f"input[data-variant='{variant}']")
        page.select_option("select[data-variant='chain_points']", "[1,6,15]")
        page.click("#create")
        page.wait_for_selector("#hand .hand-card")
        said: dict[str, str] = {}
        for language in ("en", "fr", "ar"):
            page.select_option("#language", language)
            if not page.locator("#help").count():
                page.keyboard.press("?")
            page.wait_for_selector(f"html[lang='{language}'] #help li")
            said[language] = re.sub("[\u2066-\u2069]", "", page.inner_text("#help"))
        en = said["en"]
        assert "Bluffing is allowed" not in en and "declare them" not in en and "— +1." not in en, en
        for words in (
            "declared for every hand, automatically and truly, at the start of each deal",
            "No bluffing, no challenges.",
            "Missa: clear the table with a capture — +1 card",
            "Chain: after a caida the next player may play a third card of that rank and take the whole capture — "
            "+6 cards; a fourth, by the player after — +15 cards.",
            "Dealer's duty: the dealer's last card of the round must capture.",
            "Paid in cards: each point won in play moves one card from the payer's pile to the scorer's (a caida",
            "every card above 13 in a player's pile is a point: the only points the score gets. The first player to "
            "41 wins, at the end of a round.",
            "a pair in the hand as dealt: 1 point, declared for every hand automatically at the deal",
        ):
            assert words in en, (words, en)
        fr, ar = said["fr"], said["ar"]
        assert "Le bluff est permis" not in fr and "Ni bluff ni contestation." in fr, fr
        assert "Missa : vider la table en prenant — +1 carte" in fr and "+6 cartes" in fr and "Devoir du donneur" in fr
        assert "Payé en cartes" in fr and "en fin de manche" in fr, fr
        assert "الخداع مسموح" not in ar and "لا خداع ولا تحدّي." in ar, ar
        assert "إفراغ الطاولة بالأخذ — ورقة واحدة" in ar and "6 أوراق" in ar and "واجب الموزّع" in ar, ar
        assert "الدفع بالأوراق" in ar, ar


def test_house_rules_chosen_on_the_form_are_the_tables_rules(browser: Any, base_url: str, tmp_path: Path) -> None:
    with open_page(browser, **DESKTOP) as page:
        page.goto(base_url)
        page.fill("#me-name", "Rachid")
        page.select_option("#preset", "advanced")
        page.click("#variants summary")
        duty = page.locator("input[data-variant='dealer_duty']")
        assert duty.is_checked()  # the preset's own values are where the variants start
        assert not page.locator("input[data-variant='ace_high']").is_checked()
        duty.uncheck()
        page.check("input[data-variant='ace_high']")
        page.select_option("select[data-variant='chain_points']", "[1,6,15]")
        assert page.inner_text("#variants-changed") == "3 changed"
        page.click("label[for='players-3']")  # R10: no four-card hands for three players
        assert page.locator("input[data-variant='four_card_hands']").is_disabled()
        page.click("label[for='players-2']")
        assert page.locator("input[data-variant='four_card_hands']").is_enabled()
        page.screenshot(path=str(tmp_path / "variants.png"))
        page.click("#create")
        page.wait_for_selector("#hand .hand-card")
        table_id = table_id_of(page)
        summary = get_json(f"{base_url}/api/tables/{table_id}")
        assert summary["preset"] == "advanced"
        assert summary["changed"] == {"ace_high": True, "dealer_duty": False, "chain_points": [1, 6, 15]}
        page.goto(base_url)  # the table list names the house rules
        facts = page.locator(f"[data-table='{table_id}'] .table-who small").inner_text()
        assert "ace high" in facts and "no dealer duty" in facts and "chain 1-6-15" in facts


def test_arabic_is_right_to_left_with_the_games_own_words(browser: Any, base_url: str, tmp_path: Path) -> None:
    with open_page(browser, viewport={"width": 1280, "height": 860}, locale="fr-FR") as page:
        page.goto(base_url)
        page.wait_for_selector("#new-table")
        assert page.evaluate("document.documentElement.lang") == "fr"  # picked from the browser's language
        expect(page.locator("#app")).to_contain_text("Nouvelle table")
        page.select_option("#language", "ar")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        assert page.evaluate("document.documentElement.lang") == "ar"
        # The lobby is drawn again in Arabic once it has asked who this is: wait for it, as a reader would.
        expect(page.locator("#app")).to_contain_text("طاولة جديدة")
        create_table(page, base_url, name="أمينة")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        declare = page.locator("[data-action='declare-ronda']")
        declare.wait_for()
        expect(declare).to_have_text(re.compile(r"^\s*روندا"), use_inner_text=True)
        tringa = page.locator("[data-action='declare-tringa']")
        expect(tringa).to_have_text(re.compile(r"^\s*ترينكا"), use_inner_text=True)
        label = page.locator("#hand .hand-card svg").first.get_attribute("aria-label")
        assert label.split(" ")[-1] in {"ذهب", "كوبا", "شبادة", "خال"}  # the suits as the seeds name them
        # The felt still reads left to right on the card faces, the page right to left around them.
        assert page.locator("section.mine").evaluate("node => getComputedStyle(node).direction") == "rtl"
        page.screenshot(path=str(tmp_path / "arabic.png"))
        page.reload()  # the language is remembered, the seat is taken back with its token
        page.wait_for_selector("#hand .hand-card")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        assert page.locator("[data-action='declare-ronda']").count() == 1
        expect(page.locator("#log")).to_contain_text("الجولة 1")  # the play-by-play in Arabic too
        page.select_option("#language", "en")
        assert page.evaluate("document.documentElement.dir") == "ltr"
        expect(declare).to_have_text(re.compile(r"^\s*Ronda"), use_inner_text=True)
        expect(page.locator("#log")).to_contain_text("Round 1")  # told again in the new language


def test_a_phone_screen_shows_the_hand_without_sideways_scrolling(browser: Any, base_url: str, tmp_path: Path) -> None:
    with open_page(browser, **PHONE, reduced_motion="reduce") as page:
        create_table(page, base_url, name="Samira")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for card in page.locator("#hand .hand-card").all():
            box = card.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            assert box["width"] >= 56  # big enough to tap
        page.locator("[data-action='declare-none'], #hand .hand-card.playable").first.tap()  # touch works as a click
        page.wait_for_selector("#hand .hand-card.playable")
        before = len(hand_of(page))
        page.locator("#hand .hand-card.playable").first.tap()
        wait_until(page, f"document.querySelectorAll('#hand .hand-card').length < {before}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # The reader asked for less motion: nothing on the page moves.
        assert page.evaluate("document.getAnimations().filter(a => a.playState === 'running').length") == 0
        page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


def test_an_invite_link_seats_a_friend_and_each_sees_only_their_own_hand(browser: Any, base_url: str) -> None:
    with open_page(browser, **DESKTOP) as host:
        link = create_table_for_a_friend(host, base_url)
        assert link.endswith(f"/t/{table_id_of(host)}")
        with open_page(browser, **DESKTOP) as late, open_page(browser, **DESKTOP) as friend:
            late.goto(link)  # someone else opens the same link first, but is slower to take the seat
            late.wait_for_selector("#join-name")
            friend.goto(link)
            assert "Amina" in friend.inner_text("#join")
            friend.fill("#join-name", "Youssef")
            friend.click("#join-button")
            friend.wait_for_selector("#hand .hand-card")
            host.wait_for_selector("#hand .hand-card")
            assert not host.locator("#waiting").count()
            mine = set(hand_of(host))
            theirs = set(hand_of(friend))
            assert len(mine) == len(theirs) == 3 and not mine & theirs
            # R11: neither page holds the other's cards anywhere, not even hidden in the markup.
            assert not any(f'data-card="{card}"' in host.content() for card in theirs)
            assert "Youssef" in host.inner_text(".seats, .ring")
            # The play-by-play names the friend now, from its very first line ("Youssef deals", not "Seat 2 deals").
            wait_until(host, "document.querySelector('#log').innerText.includes('Youssef deals')")
            assert "Seat 2" not in host.inner_text("#log")
            # The seat is gone: a polite notice, and the late guest watches instead.
            late.fill("#join-name", "Karim")
            late.click("#join-button")
            late.wait_for_selector(".toast")
            assert "taken" in late.inner_text("#toasts")
            late.wait_for_selector(".watch-note")
            assert not late.locator("#hand .hand-card").count()


def labels_of_hand(page: Any) -> list[str]:
    return sorted(card.get_attribute("aria-label") for card in page.locator("#hand .hand-card svg").all())


def test_a_friends_ronda_challenged_with_the_button_shows_their_hand(browser: Any, base_url: str) -> None:
    """R8.8 by clicking: the friend declares ronda (a bluff unless the hand holds a pair), the host challenges."""
    with open_page(browser, **DESKTOP) as host, open_page(browser, **DESKTOP) as friend:
        friend.goto(create_table_for_a_friend(host, base_url, "Salma"))
        friend.fill("#join-name", "Omar")
        friend.click("#join-button")
        friend.wait_for_selector("#hand .hand-card")
        dealt, dealt_labels = hand_of(friend), labels_of_hand(friend)
        bluff = truthful(dealt) != "ronda"
        # Both declare: the host truthfully, the friend "ronda" whatever the hand holds.
        deadline = time.monotonic() + 20
        while host.locator("[data-action^='declare-']").count() or friend.locator("[data-action^='declare-']").count():
            assert time.monotonic() < deadline, "the declarations did not end"
            if host.locator("[data-action^='declare-']").count():
                with contextlib.suppress(playwright_api.Error):
                    host.click(f"[data-action='declare-{truthful(hand_of(host))}']", timeout=2_000)
            if friend.locator("[data-action='declare-ronda']").count():
                with contextlib.suppress(playwright_api.Error):
                    friend.click("[data-action='declare-ronda']", timeout=2_000)
            host.wait_for_timeout(60)
        # The friend plays if it is their turn first; then the host's turn offers the challenge. The friend's
        # turn to declare may reach its page only after the loop above saw no button on either page (the host
        # had declared, the friend's buttons were not drawn yet): it declares here then.
        challenge = host.locator("[data-action='challenge-1']")
        deadline = time.monotonic() + 20
        while not challenge.count():
            assert time.monotonic() < deadline, "the challenge was never offered"
            if friend.locator("[data-action='declare-ronda']").count():
                with contextlib.suppress(playwright_api.Error):
                    friend.click("[data-action='declare-ronda']", timeout=2_000)
            if friend.locator("#hand .hand-card.playable").count():
                with contextlib.suppress(playwright_api.Error):
                    friend.locator("#hand .hand-card.playable").first.click(timeout=2_000)
            host.wait_for_timeout(60)
        assert "Omar" in challenge.inner_text() and "ronda" in challenge.inner_text().lower()
        challenge.click()  # a wrong challenge loses the game: the click only asks, in the game's words
        confirm = host.locator("#challenge-confirm")
        confirm.wait_for()
        assert "If Omar really holds a ronda, you lose the game" in confirm.inner_text()
        host.click("[data-action='cancel-challenge']")  # Cancel changes nothing
        assert not host.locator("#challenge-confirm").count() and challenge.count()
        assert not host.locator(".seat[data-seat='1'] .shown").count()
        challenge.click()
        host.click("[data-action='confirm-challenge']")
        shown = host.locator(".seat[data-seat='1'] .shown .chip")
        shown.first.wait_for()
        assert sorted(chip.get_attribute("aria-label") for chip in shown.all()) == dealt_labels
        wait_until(host, "document.querySelector('#log').innerText.includes('You challenge Omar')")
        if bluff:
            # Exposed (R8.6): marked false on both pages, and the game goes on with the host to play.
            host.wait_for_selector(".seat[data-seat='1'] .declared.exposed")
            host.wait_for_selector("#hand .hand-card.playable")
            assert not host.locator("#summary").count()
            assert "ronda was false" in host.inner_text("#log")
        else:
            # A true ronda: the challenger's side loses the game at once, each told so without a subject
            # (an audit: "Them won…", in French "Vous gagne…").
            for page, said in ((host, "Lost on a failed challenge"), (friend, "Won on a failed challenge")):
                page.wait_for_selector("#summary[data-kind='game']")
                assert said in page.inner_text("#summary")
            assert "the declaration was true" in host.inner_text("#log")
            # Opened again, the page says the same (an audit: it said "First to 41", which nobody reached).
            friend.reload()
            friend.wait_for_selector("#summary[data-kind='game']")
            assert "Won on a failed challenge" in friend.inner_text("#summary")
            assert "First to" not in friend.inner_text("#summary")


def test_game_over_replay_step_by_step_then_play_again(browser: Any, base_url: str, tmp_path: Path) -> None:
    with open_page(browser, **DESKTOP) as page:
        table_id = create_table(page, base_url, name="Nadia", target=1)  # the first point scored wins
        play_until_game_over(page)
        summary = get_json(f"{base_url}/api/tables/{table_id}")
        assert summary["status"] == "finished" and summary["winner"] is not None
        title = page.inner_text("#summary h2")
        assert title == ("You win!" if summary["winner"] == 0 else "You lose")
        assert [int(c.inner_text()) for c in page.locator("#summary td.total").all()] == summary["scores"]
        page.screenshot(path=str(tmp_path / "game-over.png"))
        # The finished game is in the lobby's list, to replay step by step with every hand face up.
        page.click("[data-action='lobby']")
        finished = page.locator(f".table-item[data-table='{table_id}'][data-status='finished'] a.btn")
        assert finished.inner_text() == "Replay"
        finished.click()
        page.wait_for_selector("#replay-next")
        steps = get_json(f"{base_url}/api/tables/{table_id}/replay")["steps"]
        assert f"Step 0 of {len(steps) - 1}" in page.inner_text(".replay-controls")
        assert page.locator(".seat .card.face").count() == 3  # the bot's hand, shown now the game is over
        box = page.locator(".seat .card.face").first.bounding_box()
        assert box is not None and box["width"] >= 44  # large enough to read
        page.click("#replay-next")
        page.click("#replay-next")
        assert f"Step 2 of {len(steps) - 1}" in page.inner_text(".replay-controls")
        middle = (len(steps) - 1) // 2  # a game of target 1 can be over after the declarations: few steps
        page.fill("#replay-slider", str(middle))
        assert f"Step {middle} of {len(steps) - 1}" in page.inner_text(".replay-controls")
        page.click("#replay-last")
        assert shown_scores(page) == steps[-1]["state"]["scores"] == summary["scores"]
        page.screenshot(path=str(tmp_path / "replay.png"))
        # Back at the table (the seat's token is kept): the result, then another game at the same table.
        page.goto(f"{base_url}/t/{table_id}")
        page.click("[data-action='rematch']")
        page.wait_for_selector("#summary", state="detached")
        wait_until(page, "[...document.querySelectorAll('#scores .points')].every(p => p.textContent === '0')")
        assert get_json(f"{base_url}/api/tables/{table_id}")["status"] == "playing"
        page.wait_for_selector("#hand .hand-card")


def test_while_the_connection_is_down_no_turn_is_offered(browser: Any, tmp_path: Path) -> None:
    """A real `ronda serve`, SIGKILLed mid-game and started again: the page offers nothing until it is back."""
    from real_server import RealServer

    data = tmp_path / "data"
    first = RealServer(data)
    try:
        with open_page(browser, **DESKTOP) as page:
            create_table(page, first.base)
            page.wait_for_selector("[data-action^='declare-']")
            assert "Your turn" in page.title() or page.locator("#turn").count()
            first.kill()
            page.wait_for_selector(".connection.off")
            assert "Connection lost" in page.inner_text("#turn")
            assert not page.locator("[data-action^='declare-']").count()
            assert not page.locator("#hand .hand-card.playable").count()
            assert not page.title().startswith("●")
            page.screenshot(path=str(tmp_path / "offline.png"))
            page.keyboard.press("n")  # the keyboard cannot act either
            second = RealServer(data, port=first.port)
            try:
                page.wait_for_selector("[data-action^='declare-']", timeout=20_000)
                assert not page.locator(".connection.off").count()
            finally:
                second.stop()
    finally:
        first.stop()


def proven_ronda_deal() -> tuple[list[int], list[int], list[int]]:
    """A two-player deck (seat 1 dealing) where the host (seat 0) holds no combination and the friend a ronda that
    the host's view proves true once each has played two cards, the friend its pair: the deck, the host's cards,
    and the friend's cards in the order they are played. Found by playing deals through the engine."""
    import random as random_module

    from ronda import Game, Rules
    from ronda.engine.actions import Challenge, Declare, Play
    from ronda.engine.deck import shuffled_deck

    rules = Rules(players=2)
    for seed in range(100_000):
        deck = shuffled_deck(rules, random_module.Random(seed))
        game = Game(rules, decks=[deck], dealer=1)
        if game.view(0).possible_kinds(0) != {"none"} or game.view(1).possible_kinds(1) != {"ronda"}:
            continue
        held = list(game.view(1).hand)
        host = sorted(game.view(0).hand)
        friend = sorted(held, key=lambda c: (sum(c >> 2 == d >> 2 for d in held) < 2, c))  # the pair first
        game.apply(Declare("none"), seat=0)
        game.apply(Declare("ronda"), seat=1)
        for k in range(2):
            game.apply(Play(host[k]), seat=0)
            game.apply(Play(friend[k]), seat=1)
        if game.view(0).proof(1) == "true" and Challenge(1) in game.legal_actions():
            return deck, host, friend
    raise AssertionError("no such deal in 100,000 seeds")


def play_to_the_proven_ronda(
    page: Any, guest: Any, url: str, host: list[int], friend: list[int], hints: bool = False
) -> None:
    """On :func:`proven_ronda_deal`'s deck: the host (``page``) invites Youssef (``guest``), who declares his ronda;
    each plays two cards, and the host is left with one, the ronda proven true by her cards."""
    from ronda.engine.cards import card_name

    guest.goto(create_table_for_a_friend(page, url, hints=hints))
    guest.fill("#join-name", "Youssef")
    guest.click("#join-button")
    page.click("[data-action='declare-none']")
    guest.click("[data-action='declare-ronda']")
    for k in range(2):
        page.click(f"#hand [data-card='{card_name(host[k])}'].playable")
        guest.click(f"#hand [data-card='{card_name(friend[k])}'].playable")
        if k == 0:
            # With one card of the pair face up, the challenge is offered: it could still fail or win.
            page.wait_for_selector("[data-action='challenge-1']")
            assert not page.locator(".proven-note").count()
    page.locator(".proven-note").wait_for()


def test_a_challenge_the_seats_own_cards_prove_would_fail_is_never_offered(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12's trap: the friend's pair is face up and the host holds what rules out a tringa: no challenge button."""
    import ronda.interfaces.web.lobby as lobby_module

    deck, host, friend = proven_ronda_deal()
    monkeypatch.setattr(lobby_module, "shuffled_deck", lambda rules, rng: list(deck))
    app = create_app(f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0, bot_workers=1)
    with serving(app) as url, open_page(browser, **DESKTOP) as page, open_page(browser, **DESKTOP) as guest:
        play_to_the_proven_ronda(page, guest, url, host, friend)
        note = page.locator(".proven-note")
        note.wait_for()
        assert "Youssef's ronda is proven by your cards" in note.inner_text()
        assert page.locator("[data-action='challenge-1']").count() == 0
        page.screenshot(path=str(tmp_path / "proven.png"))


def test_the_turn_clock_is_counted_down_on_screen_and_the_stand_in_makes_the_move_let_pass(
    browser: Any, tmp_path: Path
) -> None:
    """With a turn clock (here 8 s), the page says how long is left for the person's own decision, then the
    stand-in makes it; the person plays on from the next decision, and the page counts that one down afresh."""
    app = create_app(
        f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0, bot_workers=1, listen_host="127.0.0.1", turn_time=8
    )
    with serving(app) as url, open_page(browser, **DESKTOP) as page:
        create_table(page, url)
        page.wait_for_selector("[data-action^='declare-']")
        page.wait_for_selector("#turn-clock:has-text('s left, then the computer plays this one for you')")
        first = int(page.inner_text("#turn-clock").split()[0])
        time.sleep(1.5)
        later = page.locator("#turn-clock").inner_text()
        assert not later or int(later.split()[0]) < first <= 7  # counting down
        # Nobody clicks: the stand-in declares for this seat, the page says so, and the game goes on.
        page.wait_for_selector("#turn-over:has-text('Your time ran out')")
        page.wait_for_selector("[data-action^='declare-']", state="detached", timeout=15_000)
        page.wait_for_selector("#hand .hand-card.playable", timeout=15_000)
        page.wait_for_selector("#turn-clock:has-text('s left')")
        assert int(page.inner_text("#turn-clock").split()[0]) >= 5  # a fresh clock for the new decision
        # Beside "Your turn — play a card" the note is in the past: no "play on when your turn comes" (an audit).
        assert page.inner_text("#turn") == "Your turn — play a card"
        assert page.inner_text("#turn-over") == "Your time ran out on your last move: the computer made it for you."
        card = page.locator("#hand .hand-card.playable").first
        chosen = card.get_attribute("data-card")
        card.click()  # the person plays on, by hand
        page.wait_for_selector("#turn-over", state="detached", timeout=3_000)  # said until the person acts again
        page.wait_for_selector(f"#hand [data-card='{chosen}']", state="detached", timeout=15_000)
        page.screenshot(path=str(tmp_path / "turn-clock.png"))


def test_three_turns_let_pass_hand_the_seat_to_the_computer_and_i_m_back_takes_it_again(
    browser: Any, tmp_path: Path
) -> None:
    """An audit: after three time-outs the page still said only 'Your time ran out' and nothing said the game
    now counted as left. The page says so, the computer plays on for the seat, and "I'm back" takes it again."""
    app = create_app(
        f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0.3, bot_workers=1, listen_host="127.0.0.1", turn_time=3
    )
    with serving(app) as url, open_page(browser, **DESKTOP) as page:
        create_table(page, url)
        page.wait_for_selector("#stand-in-note:has-text('You let three turns pass')", timeout=30_000)
        page.screenshot(path=str(tmp_path / "stand-in.png"))
        page.click("#take-seat-back")
        page.wait_for_selector("#stand-in-note", state="detached", timeout=10_000)
        # The seat is the person's again: their next decision is offered with its clock, and taken by hand.
        page.wait_for_selector("#turn-clock", state="attached", timeout=15_000)
        assert not page.locator("#stand-in-note").count()


def test_the_play_by_play_tells_a_declaration_of_nothing_even_one_the_clock_made(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An audit: the play-by-play told ronda and tringa but never "nothing" (R8.2), so a person whose turn clock ran
    out while declaring read only a notice that the computer moved, not what it declared for them. Every
    declaration is told now, in each of the page's languages, as the terminal tells it ("You declare none"); one
    the computer made for the person is told as the computer's ("The computer declared nothing for you")."""
    import random as random_module

    import ronda.interfaces.web.lobby as lobby_module
    from ronda import Game, Rules
    from ronda.engine.deck import shuffled_deck

    rules = Rules(players=2)
    for seed in range(100_000):  # a first deal with no combination in either hand: both declare nothing
        deck = shuffled_deck(rules, random_module.Random(seed))
        game = Game(rules, decks=[deck], dealer=1)
        if game.view(0).possible_kinds(0) == game.view(1).possible_kinds(1) == {"none"}:
            break
    monkeypatch.setattr(lobby_module, "shuffled_deck", lambda rules, rng: list(deck))
    app = create_app(
        f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0, bot_workers=1, listen_host="127.0.0.1", turn_time=3
    )
    with serving(app) as url, open_page(browser, **DESKTOP) as page:
        create_table(page, url, name="Latifa")
        page.wait_for_selector("[data-action^='declare-']")
        # Nobody clicks: the clock runs out and the computer declares for the person (truly: nothing).
        page.wait_for_selector("#turn-over:has-text('Your time ran out')")
        wait_until(page, "document.querySelector('#log').innerText.includes('The computer declared nothing for you')")
        # The other seat's "nothing" is told too, once the bot has declared (after a human-like pause of its own).
        wait_until(page, "document.querySelector('#log').innerText.includes('Bot 2 declared nothing')")
        page.screenshot(path=str(tmp_path / "declared-nothing.png"))
        # Told again in the page's other languages, in their own grammar.
        page.select_option("#language", "fr")
        expect(page.locator("#log")).to_contain_text("L'ordinateur n'annonce rien pour vous")
        expect(page.locator("#log")).to_contain_text("Robot 2 n'annonce rien")
        page.select_option("#language", "ar")
        expect(page.locator("#log")).to_contain_text("الحاسوب لم يعلن شيئًا عنك")
        expect(page.locator("#log")).to_contain_text("الحاسوب 2 لم يعلن شيئًا")


def test_the_help_dialog_names_every_key_the_game_answers_to_in_each_language(browser: Any, base_url: str) -> None:
    """A newcomer's audit: the ? dialog said "Keys: 1-9 play a card, N/R/T declare", not H (the Hint button's own
    title says "(H)") nor ? itself; and N/R/T where four-card hands also declare a double ronda with D."""
    with open_page(browser, **DESKTOP) as page:
        create_table(page, base_url)
        page.keyboard.press("?")
        keys = page.locator("#help #help-keys")
        assert keys.inner_text() == "Keys: 1\u20139 play a card, N/R/T declare, H a hint, ? this help · first to 41"
        page.keyboard.press("Escape")
        page.wait_for_selector("#help", state="detached")
        page.keyboard.press("h")  # H does what the help says: the hint comes
        page.wait_for_selector("#hint-panel, .hint-options", timeout=30_000)
        page.select_option("#language", "fr")
        page.keyboard.press("?")
        assert keys.inner_text() == (
            "Touches : 1\u20139 jouent une carte, N/R/T annoncent, H un conseil, ? cette aide · en 41 points"
        )
        page.select_option("#language", "ar")
        assert keys.inner_text().startswith("المفاتيح: 1\u20139 للعب ورقة، N/R/T للإعلان، H لنصيحة، ? لهذه المساعدة")
    with open_page(browser, **DESKTOP) as page:
        page.goto(base_url)
        page.fill("#me-name", next(FRESH_NAMES))
        page.select_option("#preset", "four-card")
        page.click("#create")
        page.wait_for_selector("#hand .hand-card")
        page.keyboard.press("?")
        assert page.inner_text("#help #help-keys").startswith("Keys: 1\u20139 play a card, N/R/T/D declare, H a hint")
