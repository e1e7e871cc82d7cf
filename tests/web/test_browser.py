"""The page in a real browser: Playwright drives Debian's chromium against a real uvicorn server.

These tests click what a player clicks (create a table, declare, play cards)
and read what a player reads (cards, scores, the summary), so they fail when
the page, the protocol or the server breaks. `.ci/run` installs chromium;
test tools cannot download browsers on this machine, hence `executable_path`.
"""

from __future__ import annotations

import contextlib
import json
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
uvicorn = pytest.importorskip("uvicorn")

from ronda.interfaces.web.app import create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on loopback, bots playing without pause, on a fresh SQLite file."""
    folder = tmp_path_factory.mktemp("web")
    app = create_app(f"sqlite:///{folder / 'ronda.sqlite3'}", bot_delay=0)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@contextlib.contextmanager
def open_page(browser: Any, **context_options: Any) -> Iterator[Any]:
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
        assert errors == [], f"the page raised: {errors}"
    finally:
        context.close()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


def create_table_against_a_bot(page: Any, base_url: str, name: str = "Amina") -> str:
    page.goto(base_url)
    page.fill("#name", name)
    page.select_option("#players", "2")
    page.click("#create")
    page.wait_for_selector("#hand .hand-card")
    match = page.url.rsplit("/t/", 1)
    assert len(match) == 2, page.url
    return match[1]


def test_a_whole_round_against_a_bot_by_clicking(browser: Any, base_url: str, tmp_path: Path) -> None:
    with open_page(browser, viewport={"width": 1280, "height": 860}) as page:
        table_id = create_table_against_a_bot(page, base_url)
        # Three face-up cards in hand, four on the table (R3.3), the bot's hand as backs.
        assert page.locator("#hand .hand-card").count() == 3
        assert page.locator("#table-cards .table-card").count() == 4
        assert page.locator(".seat .seat-hand .card").count() == 3
        clicks = 0
        deadline = time.monotonic() + 90
        while not page.locator("#summary").count():
            assert time.monotonic() < deadline, "the round never ended"
            declare = page.locator("[data-action^='declare-']")
            playable = page.locator("#hand .hand-card.playable")
            if declare.count():
                # Declare what the hand holds, as an honest player does: the server's legal list decides the buttons.
                hand = [card.get_attribute("data-card") for card in page.locator("#hand .hand-card").all()]
                ranks = [card[:-1] for card in hand]
                kind = "tringa" if len(set(ranks)) == 1 else "ronda" if len(set(ranks)) < len(ranks) else "none"
                page.click(f"[data-action='declare-{kind}']")
                clicks += 1
            elif playable.count():
                playable.first.click()
                clicks += 1
            page.wait_for_timeout(120)
        assert clicks >= 20  # 20 cards each over six deals, plus declarations
        summary = page.locator("#summary")
        assert summary.get_attribute("data-kind") in {"round", "game"}
        # The totals on the page are the server's scores.
        server_scores = get_json(f"{base_url}/api/tables/{table_id}")["scores"]
        shown = [int(cell.inner_text()) for cell in summary.locator("td.total").all()]
        assert shown == server_scores
        bar = [int(points.inner_text()) for points in page.locator("#scores .points").all()]
        assert bar == server_scores
        # Every card of the round went somewhere: the piles in the summary hold all 40 minus the new round's nothing.
        if summary.get_attribute("data-kind") == "round":
            piles = [int(row.locator("td").first.inner_text()) for row in summary.locator("tr[data-side]").all()]
            assert sum(piles) == 40
        assert page.locator("#log li").count() > 20  # the play-by-play told the round
        page.screenshot(path=str(tmp_path / "round-summary.png"))
        if summary.get_attribute("data-kind") == "round":
            page.click("[data-action='continue']")
            assert not page.locator("#summary").count()


def test_arabic_is_right_to_left_with_the_games_own_words(browser: Any, base_url: str, tmp_path: Path) -> None:
    with open_page(browser, viewport={"width": 1280, "height": 860}, locale="fr-FR") as page:
        page.goto(base_url)
        assert page.evaluate("document.documentElement.lang") == "fr"  # picked from the browser's language
        assert "Nouvelle table" in page.inner_text("#app")
        page.select_option("#language", "ar")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        assert "طاولة جديدة" in page.inner_text("#app")
        create_table_against_a_bot(page, base_url, name="أمينة")
        declare = page.locator("[data-action='declare-ronda']")
        declare.wait_for()
        assert declare.inner_text() == "روندا"
        assert page.locator("[data-action='declare-tringa']").inner_text() == "ترينكا"
        page.reload()  # the language is remembered, the seat is taken back with its token
        page.wait_for_selector("#hand .hand-card")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        page.screenshot(path=str(tmp_path / "arabic.png"))


def test_a_phone_screen_shows_the_hand_without_sideways_scrolling(browser: Any, base_url: str, tmp_path: Path) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "en-US"}
    with open_page(browser, **phone) as page:
        create_table_against_a_bot(page, base_url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for card in page.locator("#hand .hand-card").all():
            box = card.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        playable = page.locator("#hand .hand-card.playable, [data-action='declare-none']")
        playable.first.tap()  # touch works as a click
        page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


def test_an_invite_link_seats_a_friend_and_both_see_only_their_own_hand(browser: Any, base_url: str) -> None:
    with open_page(browser, viewport={"width": 1000, "height": 800}) as host:
        host.goto(base_url)
        host.fill("#name", "Amina")
        host.select_option("[data-seat-kind='1']", "human")
        host.click("#create")
        invite = host.locator("#invite-link")
        invite.wait_for()
        link = invite.input_value()
        with open_page(browser, viewport={"width": 1000, "height": 800}) as friend:
            friend.goto(link)
            friend.fill("#join-name", "Youssef")
            friend.click("#join-button")
            friend.wait_for_selector("#hand .hand-card")
            host.wait_for_selector("#hand .hand-card")
            mine = {c.get_attribute("data-card") for c in host.locator("#hand .hand-card").all()}
            theirs = {c.get_attribute("data-card") for c in friend.locator("#hand .hand-card").all()}
            assert len(mine) == len(theirs) == 3 and not mine & theirs
            # R11: neither page holds the other's cards anywhere, not even hidden in the markup.
            assert not any(f'data-card="{card}"' in host.content() for card in theirs)
            assert "Youssef" in host.inner_text(".seats")


def play_until_summary(page: Any, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not page.locator("#summary").count():
        assert time.monotonic() < deadline, "no summary came"
        choice = page.locator("[data-action='declare-none'], #hand .hand-card.playable")
        if choice.count():
            choice.first.click()
        page.wait_for_timeout(100)


def test_game_over_then_play_again_and_replay_step_by_step(browser: Any, base_url: str) -> None:
    with open_page(browser, viewport={"width": 1280, "height": 860}) as page:
        page.goto(base_url)
        page.fill("#name", "Amina")
        page.fill("#target", "1")  # the first point scored wins
        page.click("#create")
        page.wait_for_selector("#hand .hand-card")
        table_id = page.url.rsplit("/t/", 1)[1]
        while True:
            play_until_summary(page)
            if page.locator("#summary").get_attribute("data-kind") == "game":
                break
            page.click("[data-action='continue']")  # a round ended with nobody at the target yet
        summary = get_json(f"{base_url}/api/tables/{table_id}")
        assert summary["status"] == "finished" and summary["winner"] is not None
        verdict = page.locator("#summary .verdict").inner_text()
        assert verdict == ("You win!" if summary["winner"] == 0 else "You lose.")
        assert [int(c.inner_text()) for c in page.locator("#summary td.total").all()] == summary["scores"]
        # The finished game is listed in the lobby and replays from the deal to the last event.
        page.goto(base_url)
        page.click(f"a[href='/t/{table_id}?replay']")
        page.wait_for_selector("#replay-next")
        first = page.locator(".replay-hand").first.inner_text()
        page.click("#replay-next")
        page.click("#replay-next")
        assert page.locator(".replay-hand").first.inner_text() != first or page.locator(".log-lines li").count() > 0
        steps = len(get_json(f"{base_url}/api/tables/{table_id}/replay")["steps"])
        assert f"2 / {steps - 1}" in page.inner_text(".replay-controls")
