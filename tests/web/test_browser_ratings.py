"""Ratings in Debian's chromium: two people finish a game; each end screen shows their rating change, and the
player's page lists the game with its replay; the player's page and the leaderboard have no serious accessibility
violations (axe-core, as tests/web/test_browser_pages.py checks the other pages)."""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
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

from decks import build_deck
from ronda.engine.cards import parse_card
from ronda.engine.rules import Rules
from ronda.interfaces.web import lobby, tables

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


def play_a_rated_game(url: str, host: Any, host_name: str, friend: Any, friend_name: str, public: bool = False) -> str:
    """``host`` and ``friend`` keep their names and play a short game (the first point wins) at the host's table
    (listed, if ``public``, so that anyone sees it on their pages), to its end; its table id."""
    keep_name(host, url, host_name)
    keep_name(friend, url, friend_name)
    # The table is made under the host's kept name, and the friend joins under theirs; the first point wins.
    table_id = make_table_for_people(host, [friend], url, target=1, public=public)
    play_both_to_game_over([host, friend])
    return table_id


def test_after_a_game_between_two_people_each_sees_their_rating_change_and_the_game_on_their_page(
    browser: Any, url: str
) -> None:
    with open_page(browser, **DESKTOP) as amina, open_page(browser, **DESKTOP) as brahim:
        table_id = play_a_rated_game(url, amina, "Amina", brahim, "Brahim")
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
            # Why the winner's gain is larger than the loser's loss, said under the changes (a newcomer's audit).
            assert page.inner_text("#rating-changes #provisional-note") == (
                "A new rating starts cautious and moves fast: until it settles, a win raises it more than a loss"
                " lowers it."
            )
        gains = [
            int(page.locator("#rating-changes .rating-change.own .delta").inner_text()[1:].split()[0])
            for page in (amina, brahim)
        ]
        assert gains[winner] > gains[1 - winner]  # what the note says: the win's gain above the loss's cost
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


WIDER_THAN_SHOWN = """((width) => {
  const wider = [...document.querySelectorAll("#player *")].filter((e) => {
    const box = e.getBoundingClientRect();
    if (box.width === 0) return false;
    for (let up = e.parentElement; up; up = up.parentElement) {  // inside a box of its own that scrolls: fine
      if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return false;
    }
    return box.left < -0.5 || box.right > width + 0.5;
  });
  const box = document.querySelector("#player .ratings-table").parentElement;
  return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
    table: [box.scrollWidth, box.clientWidth],
    cols: [...box.querySelectorAll("thead th")].map((c) => Math.round(c.getBoundingClientRect().width)),
    cells: [...box.querySelectorAll("tbody tr:first-child > *")].map((c) => Math.round(c.scrollWidth)),
    wider: wider.slice(0, 8).map((e) => `${e.tagName}.${e.className}: ${e.textContent.slice(0, 40)}`) };
})"""
"""What runs past the right edge of a screen ``width`` wide: the page's width, the window's (a phone's browser widens
its window to a page wider than the screen, zooming out: then the text is smaller than it should be), and the
elements of the player's page past either edge that no box of their own scrolls, and the widths of the ratings table
and of its box."""


def test_a_players_page_fits_a_phone_in_every_language(browser: Any, url: str, tmp_path: Path) -> None:
    """A player's page with a rated game, at 390 and at 320 px, in French (the longest words: "Toutes les parties,
    robots compris", "Analyser la partie"), English and Arabic: nothing runs past the window's right edge, and the
    page never scrolls sideways."""
    with open_page(browser, **DESKTOP) as chama, open_page(browser, **DESKTOP) as driss:
        table_id = play_a_rated_game(url, chama, "Chama", driss, "Driss", public=True)
    for width in (390, 320):
        with open_page(browser, **{**PHONE, "viewport": {"width": width, "height": 844}, "locale": "fr-FR"}) as phone:
            page_url = f"{url}/p/Chama"
            for language in ("fr", "en", "ar"):
                phone.goto(page_url)
                phone.select_option("#language", language)
                phone.wait_for_selector(f"html[lang='{language}'] #player .history-game[data-table='{table_id}']")
                phone.wait_for_timeout(100)  # the fonts and the layout settle
                phone.screenshot(path=str(tmp_path / f"profile-{language}-{width}.png"), full_page=True)
                shown = phone.evaluate(WIDER_THAN_SHOWN, width)
                assert shown["scroll"] <= width and shown["inner"] == width, (language, width, shown)
                assert shown["wider"] == [], (language, width, shown)
                table, box = shown["table"]
                assert table <= box, (language, width, shown)  # the ratings fit: not even their box scrolls


def make_table_for_people(host: Any, guests: list[Any], url: str, target: int, public: bool = False) -> str:
    """``host`` makes a table for people alone to ``target`` points (listed, if ``public``), and each of ``guests``
    in turn joins it by its invite, taking the next seat (the first guest seat 1); its id."""
    host.goto(url)
    host.click(f"label[for='players-{1 + len(guests)}']")
    for seat in range(1, 1 + len(guests)):
        host.select_option(f"[data-seat-kind='{seat}']", "human")
    host.fill("#target", str(target))
    if public:
        host.check("#create-public")
    host.click("#create")
    link = host.locator("#invite-link")
    link.wait_for()
    for guest in guests:
        # The server's answers to the guest's join, for the reader of a failure: a refusal is told in a toast gone
        # long before the wait below ends, and a join never sent (the form stopped) by nothing on the page at all.
        answers: list[Any] = []
        guest.on(
            "response", lambda response, to=answers: to.append(response) if response.url.endswith("/join") else None
        )
        guest.goto(link.input_value())
        guest.click("#join-button")
        try:  # seated: the next guest takes the next seat
            guest.wait_for_selector("#waiting, #hand .hand-card", timeout=30_000)
        except playwright_api.Error:  # what the guest's page says instead
            told = [f"{answer.status} {answer.text()[:300]}" for answer in answers] or ["never sent"]
            raise AssertionError(
                f"a guest was not seated; the join: {', '.join(told)}; {guest.url} shows: "
                f"{guest.inner_text('body')[:500]}"
            ) from None
    for page in (host, *guests):
        page.wait_for_selector("#hand .hand-card")
    return table_id_of(host)


def decide_until(pages: list[Any], leaver: Any, seconds: float = 30) -> None:
    """Each of ``pages`` whose turn it is decides, by clicking (declaring truthfully, playing its first playable
    card), until ``leaver`` has made one decision of its own: a game a person never played in is not rated."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "the leaver never had a decision to make"
        for page in pages:
            with contextlib.suppress(playwright_api.Error):
                if page.locator("[data-action^='declare-']").count():
                    page.click(f"[data-action='declare-{truthful(hand_of(page))}']", timeout=1_000)
                elif page.locator("#hand .hand-card.playable").count():
                    page.locator("#hand .hand-card.playable").first.click(timeout=1_000)
                else:
                    continue
                if page is leaver:
                    page.wait_for_timeout(300)  # the decision stored before the leaver goes
                    return
        pages[0].wait_for_timeout(100)


def leave(page: Any, url: str, table_id: str, seat: int, seconds: float = 30) -> None:
    """The person at ``page`` closes it; past the grace period the stand-in plays their ``seat``."""
    page.goto("about:blank")
    deadline = time.monotonic() + seconds
    while not get_json(f"{url}/api/tables/{table_id}")["seats"][seat]["stand_in"]:
        assert time.monotonic() < deadline, "the stand-in never played for the leaver"
        time.sleep(0.1)


def test_a_game_between_people_without_kept_names_says_why_it_is_not_rated(
    browser: Any, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An audit: two people played now with the name left empty ("You" and "Guest 2": names for that table only,
    no player kept) and finished a game; it is not rated (docs/server.md), but the end screen showed no Rating
    section and no reason. It says why, in the page's language.

    The game ends at once, on a failed challenge (R8.8): the deal gives seat 0 a true ronda (1o 1c), declared,
    and seat 1 challenges it. (Played out to 25 by clicking, the test took 87 s of a two-core run.)"""
    deck = [parse_card(card) for card in build_deck(Rules(players=2), [{0: "1o 1c 5e", 1: "2b 3b 7c"}])]
    for module in (lobby, tables):
        monkeypatch.setattr(module, "shuffled_deck", lambda rules, rng: list(deck))
    with open_page(browser, **DESKTOP) as first, open_page(browser, **DESKTOP) as second:
        for page in (first, second):
            page.goto(url)
            page.select_option("#play-preset", "short")
            page.uncheck("#play-bots")
            page.click("#play-button")  # the name left empty
        for page in (first, second):
            page.wait_for_selector("#hand .hand-card", timeout=20_000)
        table_id = table_id_of(first)
        declarer, challenger = (first, second) if "1o" in hand_of(first) else (second, first)
        deadline = time.monotonic() + 30
        while not all(page.locator("#summary[data-kind='game']").count() for page in (first, second)):
            assert time.monotonic() < deadline, "the failed challenge did not end the game"
            for page in (declarer, challenger):
                with contextlib.suppress(playwright_api.Error):
                    if page.locator("[data-action^='declare-']").count():
                        page.click(f"[data-action='declare-{truthful(hand_of(page))}']", timeout=1_000)
                    elif page is challenger and page.locator("[data-action='confirm-challenge']").count():
                        # Its own step: the dialog may come after a click's wait, and then covers the button.
                        page.click("[data-action='confirm-challenge']", timeout=1_000)
                    elif page is challenger and page.locator("[data-action='challenge-0']").count():
                        page.click("[data-action='challenge-0']", timeout=1_000)
                    elif page is declarer and page.locator("#hand .hand-card.playable").count():
                        page.locator("#hand .hand-card.playable").first.click(timeout=1_000)
            first.wait_for_timeout(40)
        assert get_json(f"{url}/api/tables/{table_id}")["unrated"] == ["guest"]
        for page in (first, second):
            said = page.locator("#summary #unrated")
            assert (
                said.inner_text() == "Not rated: a player without a kept name is not rated — keep a name to be rated."
            )
            assert page.locator("#summary #rating-changes").count() == 0
        second.select_option("#language", "fr")
        assert second.inner_text("#summary #unrated") == (
            "Partie non classée : un joueur sans nom gardé n'est pas classé — gardez un nom pour être classé."
        )


def leaving_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose grace period is short: a person who closes their page leaves the game within seconds.

    Not shorter: the grace starts for a seat not yet connected when its game begins, and on a loaded machine the
    last joiner's page took over 0.3 s to connect, so that player was counted as having left (a CI flake)."""
    yield from served(tmp_path_factory, "leaving", grace=3.0)


@pytest.fixture(scope="module")
def leaving_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """:func:`leaving_server`, for the module's tests."""
    yield from leaving_server(tmp_path_factory)


def test_who_left_a_rated_game_reads_it_lost_and_the_other_reads_it_won_whoever_reached_the_target(
    browser: Any, leaving_url: str
) -> None:
    """An audit: Amina left a rated game and her stand-in reached the target; back, she read a trophy and "You win!
    First to 41: You." above "(left the game: counted as lost)", and Brahim read "You lost" above his gain, while
    their pages listed the game as she lost it. The headline says the outcome that counts; the rules' result stays,
    told as her seat's, played by the computer, where it won."""
    url = leaving_url
    with open_page(browser, **DESKTOP) as amina, open_page(browser, **DESKTOP) as brahim:
        keep_name(amina, url, "Leila")
        keep_name(brahim, url, "Driss")
        table_id = make_table_for_people(amina, [brahim], url, target=3)
        # Leila makes one decision of her own (a game a person never played in is not rated), then closes her page.
        decide_until([amina, brahim], amina)
        leave(amina, url, table_id, 0)
        play_both_to_game_over([brahim], seconds=120)
        brahim.locator("#summary #rating-changes").wait_for()
        amina.goto(f"{url}/t/{table_id}")  # Leila comes back to the table
        amina.locator("#summary #rating-changes").wait_for()
        summary = get_json(f"{url}/api/tables/{table_id}")
        assert [(c["result"], c["abandoned"]) for c in summary["ratings"]] == [("lost", True), ("won", False)]
        stand_in_won = summary["winner"] == 0

        assert amina.inner_text("#summary-title") == "You left the game: counted as a loss"
        assert amina.locator("#summary .trophy").count() == 0
        assert amina.inner_text("#summary .verdict") == (
            "Your seat, played by the computer after you left, reached 3 first."
            if stand_in_won
            else "Driss reached 3 first."
        )
        assert "(left the game: counted as lost)" in amina.inner_text("#summary #rating-changes .own")

        assert brahim.inner_text("#summary-title") == "Leila left the game: you win"
        assert brahim.locator("#summary .trophy.won").count() == 1
        assert brahim.inner_text("#summary .verdict") == (
            "Leila's seat, played by the computer, reached 3 first." if stand_in_won else "You reached 3 first."
        )
        brahim.select_option("#language", "ar")
        assert brahim.inner_text("#summary-title") == "غادر Leila المباراة: فزت"
