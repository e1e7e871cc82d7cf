"""Ratings in Debian's chromium: two people finish a game; each end screen shows their rating change, and the
player's page lists the game with its replay; the player's page and the leaderboard have no serious accessibility
violations (axe-core, as tests/web/test_browser_pages.py checks the other pages)."""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import test_browser
from test_browser import (
    DESKTOP,
    PHONE,
    get_json,
    hand_of,
    open_page,
    playwright_api,
    served,
    table_id_of,
    truthful,
)
from test_browser_pages import AXE, serious_violations

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are

CHANGE = re.compile(r"^[+\u2212]\d+ \u2192 \d{1,3}(,\d{3})*$")
"""A rating change as the page shows it: "+12 → 1,012"."""


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "ratings")


def keep_name(page: Any, url: str, name: str) -> None:
    """The person keeps a name from the lobby's You panel: only games between kept names are rated."""
    page.goto(url)
    page.fill("#me-name", name)
    page.click("#me-keep")
    page.wait_for_selector(f"#me-who:has-text('You play as {name}')")


def play_both_to_game_over(pages: list[Any], seconds: float = 60) -> None:
    """Each page declares truthfully and plays its first playable card, by clicking, until the game's end shows."""
    deadline = time.monotonic() + seconds
    while not all(page.locator("#summary[data-kind='game']").count() for page in pages):
        assert time.monotonic() < deadline, "the game did not end"
        for page in pages:
            with contextlib.suppress(playwright_api.Error):
                if page.locator("#summary[data-kind='round'] [data-action='continue']").count():
                    page.click("[data-action='continue']", timeout=1_000)
                elif page.locator("[data-action^='declare-']").count():
                    page.click(f"[data-action='declare-{truthful(hand_of(page))}']", timeout=1_000)
                elif page.locator("#hand .hand-card.playable").count():
                    page.locator("#hand .hand-card.playable").first.click(timeout=1_000)
        pages[0].wait_for_timeout(40)


def test_after_a_game_between_two_people_each_sees_their_rating_change_and_the_game_on_their_page(
    browser: Any, url: str
) -> None:
    with open_page(browser, **DESKTOP) as amina, open_page(browser, **DESKTOP) as brahim:
        keep_name(amina, url, "Amina")
        keep_name(brahim, url, "Brahim")
        amina.goto(url)  # the table is made under her kept name, and the friend joins under his
        amina.select_option("[data-seat-kind='1']", "human")
        amina.fill("#target", "1")  # the first point wins: a short game
        amina.click("#create")
        link = amina.locator("#invite-link")
        link.wait_for()
        brahim.goto(link.input_value())
        brahim.click("#join-button")
        for page in (amina, brahim):
            page.wait_for_selector("#hand .hand-card")
        table_id = table_id_of(amina)
        play_both_to_game_over([amina, brahim])
        for page in (amina, brahim):
            page.locator("#rating-changes .rating-change.own").wait_for()
        summary = get_json(f"{url}/api/tables/{table_id}")
        winner = summary["winner"]
        for seat, page in enumerate((amina, brahim)):
            mine = page.locator("#rating-changes .rating-change.own")
            assert mine.get_attribute("data-seat") == str(seat)
            shown = mine.locator(".delta").inner_text()
            assert CHANGE.match(shown), shown
            assert shown.startswith("+" if seat == winner else "\u2212")
            assert "(provisional)" in mine.inner_text()  # a first rated game
        # Amina's page, reached from her name on the end screen, lists the game with its rating change and replay.
        amina.click("#rating-changes .rating-change.own a")
        amina.wait_for_selector("#player .history-game")
        game = amina.locator(f".history-game[data-table='{table_id}']")
        assert game.locator(".delta").inner_text() == shown_change(summary, 0)
        assert "Brahim" in game.inner_text() and ("Won" if winner == 0 else "Lost") in game.inner_text()
        game.locator("a", has_text="Replay").click()
        amina.wait_for_selector("#replay-next")
        assert table_id_of(amina) == table_id
        amina.click("#my-page")  # the top bar leads to her page from anywhere
        amina.wait_for_selector(f"#player .history-game[data-table='{table_id}']")
        assert amina.inner_text("#player h1") == "Amina"
    if AXE.is_file() or os.environ.get("RONDA_CI"):  # axe-core: `npm ci --prefix tests/web/axe` (.ci/run does)
        # The page's Content-Security-Policy rightly refuses inline scripts: this context may add axe's.
        with open_page(browser, **PHONE, bypass_csp=True) as reader:
            for path, ready in (("/p/Amina", "#player h1"), ("/leaderboard", "#leaderboard table")):
                reader.goto(url + path)
                reader.select_option("#language", "ar")
                reader.wait_for_selector(f"html[dir='rtl'] {ready}")
                assert serious_violations(reader) == [], path
                assert table_id not in reader.content()  # the game was at a private table: not shown to others


def shown_change(summary: dict[str, Any], seat: int) -> str:
    """How the page writes the rating change of ``seat`` in the table's summary."""
    change = summary["ratings"][seat]
    sign = "+" if change["change"] >= 0 else "\u2212"
    return f"{sign}{abs(change['change'])} \u2192 {change['after']:,}"
