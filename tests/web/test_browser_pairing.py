"""Play now in Debian's chromium: strangers asking for the same game sit at one table; a lone wait ends with bots."""

from __future__ import annotations

import contextlib
import json
import math
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import test_browser
from test_browser import DESKTOP, get_json, hand_of, open_page, served, table_id_of

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The module's server. Its pages all ask from one address, some thirty times in a minute or two, over the limit
    of twenty games asked for a minute (the rate limits have tests of their own): the limit is raised, or the last
    asks were refused "too fast" once the browser got quicker."""
    yield from served(tmp_path_factory, "pairing", create_rate=10_000)


def ask_to_play(page: Any, url: str, name: str, players: int, bots: bool = False, level: str = "medium") -> None:
    page.goto(url)
    page.fill("#me-name", name)  # the lobby's one name field, the "You" panel's
    page.click(f"label[for='play-players-{players}']")
    if not bots:
        page.uncheck("#play-bots")
    else:
        page.select_option("#play-wait", "10")
        page.select_option("#play-level", level)
    page.click("#play-button")


def test_three_people_asking_for_a_three_player_game_are_seated_together(browser: Any, url: str) -> None:
    with contextlib.ExitStack() as stack:
        pages = [stack.enter_context(open_page(browser, **DESKTOP)) for _ in range(3)]
        ask_to_play(pages[0], url, "Amina", 3)
        pages[0].wait_for_selector("#play-status:has-text('Waiting for 2 more')")
        ask_to_play(pages[1], url, "Brahim", 3)
        for page in pages[:2]:  # the first two wait, and can see how many they wait for
            page.wait_for_selector("#play-cancel:visible")
        ask_to_play(pages[2], url, "Chama", 3)
        for page in pages:
            page.wait_for_selector("#hand .hand-card", timeout=20_000)
        (table_id,) = {table_id_of(page) for page in pages}
        table = get_json(f"{url}/api/tables/{table_id}")
        assert sorted(s["name"] for s in table["seats"]) == ["Amina", "Brahim", "Chama"]
        assert all(s["kind"] == "human" for s in table["seats"]) and table["players"] == 3
        hands = [set(hand_of(page)) for page in pages]  # three seats: three different hands
        assert not (hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2])
        # Nobody chose a name in the "You" panel: the name each typed to play now is theirs to keep, in a cookie
        # the page cannot read, and their seat is the player's (so the game among them is rated).
        for page, name in zip(pages, ("Amina", "Brahim", "Chama"), strict=True):
            me = page.evaluate("fetch('/api/me').then((answer) => answer.json())")
            assert me["name"] == name and me["id"], me
            assert "ronda_player" not in page.evaluate("document.cookie")
        pages[1].goto(url)  # back in the lobby: the name is kept, and each form says it plays under it
        pages[1].wait_for_selector("#me-who:has-text('You play as Brahim')")
        assert pages[1].inner_text("#play-as") == pages[1].inner_text("#create-as") == "You play as Brahim"
        assert not pages[1].locator("#me-name").count()  # no name left to type


def test_a_lone_persons_wait_ends_with_bots_of_the_level_chosen(browser: Any, url: str) -> None:
    with open_page(browser, **DESKTOP) as page:
        ask_to_play(page, url, "Driss", 4, bots=True, level="hard")
        page.wait_for_selector("#play-status:has-text('Bots in')")
        page.wait_for_selector("#hand .hand-card", timeout=30_000)
        table = get_json(f"{url}/api/tables/{table_id_of(page)}")
        assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
        assert table["seats"][0]["name"] == "Driss" and {s["level"] for s in table["seats"][1:]} == {"hard"}


def test_cancelling_a_wait_means_nobody_is_seated_with_you(browser: Any, url: str) -> None:
    with open_page(browser, **DESKTOP) as quitter, open_page(browser, **DESKTOP) as other:
        ask_to_play(quitter, url, "Karim", 2)
        quitter.wait_for_selector("#play-cancel:visible")
        quitter.click("#play-cancel")
        quitter.wait_for_selector("#play-status:has-text('no longer waiting')")
        ask_to_play(other, url, "Laila", 2)
        other.wait_for_selector("#play-status:has-text('Waiting for 1 more')")  # Karim is not there any more
        other.click("#play-cancel")


def test_a_name_typed_while_the_table_list_loads_stays_in_the_field_typed_into(browser: Any, url: str) -> None:
    """The table list can take seconds to come (a busy server): typing a name meanwhile must not lose half of it.

    The lobby used to put the cursor in the "new table" form's name field once the list had come, so a person
    typing into play now saw the rest of their name land in another field, and sat down as "Guest 1".
    """
    with open_page(browser, **DESKTOP) as page:
        held: list[Any] = []
        # the table list's answer is held back, as a busy server would hold it
        page.route("**/api/tables?limit=*", lambda route: held.append(route))
        page.goto(url)
        page.wait_for_selector("#me-name")
        assert page.evaluate("document.activeElement.id") == "me-name"  # a newcomer can type at once
        page.keyboard.type("Nad")
        for _ in range(200):
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the page never asked for the table list"
        held[0].continue_()
        page.unroute("**/api/tables?limit=*")
        page.wait_for_selector("#table-list li")  # the list has come
        page.keyboard.type("ia")
        assert page.input_value("#me-name") == "Nadia"
        page.uncheck("#play-bots")
        page.click("#play-button")
        # Waiting, or seated at once where another page of this module's server still waited for a two-player game
        # (a fresh machine's slow run met one): either way the name typed is Nadia's.
        page.wait_for_selector("#play-cancel:visible, #hand .hand-card")
        me = page.evaluate("fetch('/api/me').then((answer) => answer.json())")
        assert me["name"] == "Nadia", me  # the whole name typed is the one kept
        if page.is_visible("#play-cancel"):
            page.wait_for_selector("#me-who:has-text('You play as Nadia')")  # and the panel says so while waiting
            page.click("#play-cancel")
            page.wait_for_selector("#play-status:has-text('no longer waiting')")


def test_a_name_typed_and_not_sent_yet_stays_when_the_language_changes(browser: Any, url: str) -> None:
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        page.wait_for_selector("#table-list li")
        page.fill("#me-name", "Salma B")
        page.select_option("#language", "fr")  # the lobby is drawn again, in French
        page.wait_for_selector("#play-now h2:has-text('Jouer maintenant')")
        assert page.input_value("#me-name") == "Salma B"


def test_a_language_chosen_while_the_lobby_loads_is_the_lobbys_language_once_loaded(browser: Any, url: str) -> None:
    """A helper's note: a language chosen before the lobby had its table list turned the page right to left and
    left the lobby's words in English: the change came while no screen was there to be drawn again."""
    with open_page(browser, **DESKTOP) as page:
        held: list[Any] = []
        page.route("**/api/tables?limit=*", lambda route: held.append(route))  # the table list, held back
        page.goto(url)
        page.wait_for_selector("#play-button")  # the lobby is drawn, still loading its tables
        assert held and page.inner_text("#play-button") == "Play now"
        page.select_option("#language", "ar")
        for route in held:
            route.continue_()
        page.wait_for_selector("html[dir='rtl']")
        page.wait_for_selector("#play-button:has-text('العب الآن')", timeout=10_000)


def test_a_wait_that_ends_elsewhere_is_told_not_silently_dropped(browser: Any, url: str) -> None:
    """A wait can end away from the page: the person stops it in another tab, or the server forgets it (a restart
    empties one process's queue). The page used to empty its status line without a word."""
    with open_page(browser, **DESKTOP) as page:
        ask_to_play(page, url, "Rachid", 2)
        page.wait_for_selector("#play-status:has-text('Waiting for 1 more')")
        other = page.context.new_page()  # the same browser, another tab: it shows the same wait
        other.goto(url)
        other.wait_for_selector("#play-cancel:visible")
        other.click("#play-cancel")
        page.wait_for_selector("#play-status:has-text('no longer waiting')")  # told in this tab too
        assert page.is_enabled("#play-button") and not page.is_visible("#play-cancel")
        other.close()
        # Asked again, then the server forgets the request (what a restart does, or the drop of a wait nobody
        # looked at for 10 s, as a background tab's slowed timers can cause; here its ticket is cancelled behind
        # the page's back, so the page still holds it and learns of the loss by looking). The person never chose
        # to stop: the page asks again by itself, with a new ticket, and waits on.
        page.click("#play-button")
        page.wait_for_selector("#play-status:has-text('Waiting for 1 more')")
        ticket = page.evaluate("localStorage.getItem('ronda.playTicket')")
        request = urllib.request.Request(f"{url}/api/play/{ticket}", method="DELETE")
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.load(answer)["status"] == "cancelled"
        page.wait_for_function(
            "old => { const t = localStorage.getItem('ronda.playTicket'); return t !== null && t !== old; }",
            arg=ticket,
        )
        page.wait_for_selector("#play-status:has-text('Waiting for 1 more')")
        assert not page.is_enabled("#play-button") and page.is_visible("#play-cancel")
        renewed = page.evaluate("localStorage.getItem('ronda.playTicket')")
        with urllib.request.urlopen(f"{url}/api/play/{renewed}", timeout=10) as answer:
            assert json.load(answer)["status"] == "waiting"  # the server holds the new request
        page.click("#play-cancel")  # not left waiting for the next test's person


def test_asking_again_from_another_device_stops_the_first_page_instead_of_a_loop(browser: Any, url: str) -> None:
    """A second audit: one player waiting on two devices (one kept name, two browsers) made the pages replace each
    other's request for ever, the bots' wait starting over each time. The older page is told and stops."""
    with open_page(browser, **DESKTOP) as phone, open_page(browser, **DESKTOP) as laptop:
        ask_to_play(phone, url, "Rachida", 4)
        phone.wait_for_selector("#play-status:has-text('Waiting for 3 more')")
        laptop.context.add_cookies(phone.context.cookies())  # the same player (her cookie), on another device
        laptop.goto(url)
        laptop.click("label[for='play-players-4']")
        laptop.uncheck("#play-bots")
        laptop.click("#play-button")
        laptop.wait_for_selector("#play-status:has-text('Waiting for 3 more')")
        phone.wait_for_selector("#play-status:has-text('You asked to play from another page or device')")
        assert phone.is_enabled("#play-button") and not phone.is_visible("#play-cancel")
        ticket = laptop.evaluate("localStorage.getItem('ronda.playTicket')")
        laptop.wait_for_timeout(2_500)  # a few of the laptop's looks: its request stays the one waiting
        assert laptop.evaluate("localStorage.getItem('ronda.playTicket')") == ticket
        laptop.click("#play-cancel")


LAID_OUT = """(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const labelled = (id) => {
    const control = document.getElementById(id);
    const label = control.labels[0];
    const words = label ? [...label.children].find((c) => c !== control) : null;
    return {words: words ? words.innerText : null, label: words ? box(words) : null, control: box(control)};
  };
  const check = document.getElementById("play-bots");
  return {
    check: box(check), checkWords: box(check.labels[0].querySelector("span")),
    name: labelled("me-name"), wait: labelled("play-wait"), level: labelled("play-level"),
    names: document.querySelectorAll("input[autocomplete=nickname]").length,
    playAs: document.getElementById("play-as").innerText, createAs: document.getElementById("create-as").innerText,
  };
})()"""


def test_play_now_s_controls_each_have_a_visible_label_and_the_bots_box_sits_on_its_line(
    browser: Any, url: str
) -> None:
    """At 1280 wide: the bots' box is a box (not 40 px tall) on the line of its words, level with the selects beside
    it; the lobby's one name field has a visible "Your name"; the wait and the level have visible labels."""
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        page.wait_for_selector("#play-bots")
        shown = page.evaluate(LAID_OUT)
        check, words = shown["check"], shown["checkWords"]
        assert 12 <= check["h"] <= 24 and 12 <= check["w"] <= 24, check
        assert check["x"] + check["w"] <= words["x"], (check, words)  # the box before its words
        middle = check["y"] + check["h"] / 2
        assert words["y"] <= middle <= words["y"] + words["h"], (check, words)  # on their line, not above it
        wait = shown["wait"]["control"]
        assert abs(middle - (wait["y"] + wait["h"] / 2)) <= 8, (check, wait)  # level with the wait's select
        # One "Your name" on the page (there were three: the "You" panel's, play now's and a new table's, and only
        # the first name sent was kept), and each form says it plays under it.
        assert shown["name"]["words"] == "Your name" and shown["names"] == 1
        assert shown["playAs"] == shown["createAs"] == "You play under the name typed in “You”, above."
        assert shown["wait"]["words"] == "After waiting for people"
        assert shown["level"]["words"] == "The bots' level"
        for field in ("name", "wait", "level"):
            label, control = shown[field]["label"], shown[field]["control"]
            assert label["h"] > 0 and label["w"] > 0, (field, label)
            assert label["y"] + label["h"] <= control["y"] + 1, (field, label, control)  # above its control
        assert page.locator("#me-name").get_attribute("placeholder") == "e.g. Amina"


def test_play_now_remembers_the_wait_and_the_level_chosen(browser: Any, url: str) -> None:
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        assert page.input_value("#play-wait") == "30" and page.input_value("#play-level") == "medium"
        page.select_option("#play-wait", "10")
        page.select_option("#play-level", "easy")
        page.goto(url)  # the next visit
        page.wait_for_selector("#play-wait")
        assert page.input_value("#play-wait") == "10" and page.input_value("#play-level") == "easy"
        page.select_option("#language", "fr")  # the lobby drawn again keeps them too
        page.wait_for_selector("#play-now h2:has-text('Jouer maintenant')")
        assert page.input_value("#play-wait") == "10" and page.input_value("#play-level") == "easy"
    with open_page(browser, **DESKTOP) as fresh:  # another browser: the defaults
        fresh.goto(url)
        fresh.wait_for_selector("#play-wait")
        assert fresh.input_value("#play-wait") == "30" and fresh.input_value("#play-level") == "medium"


def test_play_now_says_its_tables_are_public(browser: Any, url: str) -> None:
    """New table is private unless listed; a play now table is listed and watchable by anyone: the panel says so."""
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        said = page.locator("#play-now #play-public")
        said.wait_for()
        assert said.inner_text() == "Play now tables are public: listed in the lobby, and anyone may watch."
        assert said.is_visible()
        button = page.locator("#play-button").bounding_box()
        line = said.bounding_box()
        assert line is not None and button is not None and line["y"] < button["y"]  # read before pressing Play now
        page.select_option("#language", "fr")
        page.wait_for_selector("#play-public:has-text('publiques')")
        page.select_option("#language", "ar")
        page.wait_for_selector("#play-public:has-text('عامة')")


def test_a_long_wait_for_people_only_says_how_long_and_what_else_to_do(browser: Any, url: str, tmp_path: Path) -> None:
    """Bots unticked and nobody else coming: after 20 s the page says how long the wait has lasted and what the
    person can do (tick the bots' box, or invite a friend to a new table); ticking the box then brings bots, the
    wait already spent counting towards theirs."""
    with open_page(browser, **DESKTOP) as page:
        page.clock.install()  # the page's time, jumped ahead below (the server's wait goes on in real time)
        ask_to_play(page, url, "Farid", 2)
        page.wait_for_selector("#play-status:has-text('Waiting for 1 more…')")
        assert not page.locator("#play-alone").is_visible()  # not at once: people may come
        page.clock.fast_forward(25_000)
        page.wait_for_selector("#play-alone:visible")
        assert re.fullmatch(
            r"Nobody else has asked for this game yet: you have waited 2\d s\.", page.inner_text("#play-waited")
        ), page.inner_text("#play-waited")
        advice = page.inner_text("#play-advice")
        assert "Tick “Bots fill the empty seats”" in advice and "“A friend (invite)”" in advice, advice
        assert_inside_the_window(page, "#play-alone")
        page.screenshot(path=str(tmp_path / "waiting-alone-en.png"))
        page.check("#play-bots")  # the wait chosen is 30 s, 25 of which are spent: bots in about 5 s
        page.wait_for_selector("#play-status:has-text('Bots in')")
        assert not page.locator("#play-alone").is_visible()
        page.wait_for_selector("#hand .hand-card", timeout=30_000)
        table = get_json(f"{url}/api/tables/{table_id_of(page)}")
        assert [s["kind"] for s in table["seats"]] == ["human", "bot"]


def wait_on_the_server(page: Any, url: str, name: str, seconds: float) -> str:
    """``name`` asks to play a 2-player game alone and waits until the server has counted ``seconds`` of the wait
    (real seconds: the page's own clock may be a test's); the wait's ticket."""
    ask_to_play(page, url, name, 2)
    page.wait_for_selector("#play-status:has-text('Waiting for 1 more…')")
    ticket = str(page.evaluate("localStorage.getItem('ronda.playTicket')"))
    deadline = time.monotonic() + 20
    while get_json(f"{url}/api/play/{ticket}")["waited"] < seconds:
        assert time.monotonic() < deadline, "the server's count of the wait did not grow"
        page.wait_for_timeout(200)
    return ticket


def test_a_wait_opened_again_counts_on_from_the_servers_count_not_from_zero(browser: Any, url: str) -> None:
    """An audit: the page counted the wait itself, so a reload started "you have waited" at 0 again. The server's
    status says how long the request has waited (``waited``): the page opened again counts on from there."""
    with open_page(browser, **DESKTOP) as page:
        page.clock.install()  # the page's time, jumped ahead below; the server's wait goes on in real time
        ticket = wait_on_the_server(page, url, "Hicham", 5)
        page.reload()
        page.wait_for_selector("#play-status:has-text('Waiting for 1 more…')")
        assert page.evaluate("localStorage.getItem('ronda.playTicket')") == ticket  # the same wait, taken up again
        page.clock.fast_forward(16_000)  # 16 s on the page since the reload: 21 s or more since the ask
        page.wait_for_selector("#play-alone:visible")
        said = page.inner_text("#play-waited")
        shown = re.fullmatch(r"Nobody else has asked for this game yet: you have waited (\d+) s\.", said)
        assert shown and int(shown.group(1)) >= 21, said
        page.click("#play-cancel")


def test_a_wait_the_server_forgot_and_the_page_asked_again_for_counts_on_from_the_first_ask(
    browser: Any, url: str
) -> None:
    """The last closing note: a wait the server dropped (a restart, or a background tab's slowed timers) was asked
    for again by the page, and "you have waited" started again from 0, as if the person had just come."""
    with open_page(browser, **DESKTOP) as page:
        page.clock.install()  # the page's time, jumped ahead below; the server's wait goes on in real time
        ticket = wait_on_the_server(page, url, "Yassine", 10)
        request = urllib.request.Request(f"{url}/api/play/{ticket}", method="DELETE")  # the server forgets it
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.load(answer)["status"] == "cancelled"
        page.wait_for_function(
            "old => { const t = localStorage.getItem('ronda.playTicket'); return t !== null && t !== old; }",
            arg=ticket,
        )  # asked again by the page, a new ticket
        page.clock.fast_forward(16_000)  # 16 s on the page since: 26 s or more since the server's first count
        page.wait_for_selector("#play-alone:visible")
        said = page.inner_text("#play-waited")
        shown = re.fullmatch(r"Nobody else has asked for this game yet: you have waited (\d+) s\.", said)
        # Counted from the first ask: 16 s or so if from the new one. The page's count began with the server's first
        # answer, a little after the server's (a fresh clone's loaded run read 25 s): a second of slack.
        assert shown and int(shown.group(1)) >= 25, said
        page.click("#play-cancel")


def test_the_arabic_wait_counts_one_and_two_in_the_singular_and_the_dual(browser: Any, url: str) -> None:
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        page.select_option("#language", "ar")
        for players, said in (
            (2, "في انتظار لاعب آخر…"),
            (3, "في انتظار لاعبَين آخرَين…"),
            (4, "في انتظار 3 لاعبين آخرين…"),
        ):
            page.click(f"label[for='play-players-{players}']")
            page.uncheck("#play-bots")
            page.click("#play-button")
            page.wait_for_selector("#play-cancel:visible")
            page.wait_for_selector(f"#play-status:has-text('{said}')")
            page.click("#play-cancel")
            page.wait_for_selector("#play-button:enabled")


def assert_inside_the_window(page: Any, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    window = page.viewport_size
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= window["height"], (selector, box, window)


def test_the_wait_starts_in_view_on_a_desktop_whose_window_ends_above_it(
    browser: Any, url: str, tmp_path: Path
) -> None:
    """At 1280 by 800 px the Play now buttons are just above the window's bottom edge and the status below it: pressing
    Play now brings the status into view, so that the person reads that they wait (not greyed buttons only)."""
    with open_page(browser, **{**DESKTOP, "viewport": {"width": 1280, "height": 800}}) as page:
        ask_to_play(page, url, "Ghita", 2, bots=True)
        page.wait_for_selector("#play-status:has-text('Bots in')")
        page.wait_for_timeout(200)  # any scrolling done
        page.screenshot(path=str(tmp_path / "waiting-desktop-1280x800.png"))
        assert_inside_the_window(page, "#play-status")
        assert_inside_the_window(page, "#play-cancel")
        page.click("#play-cancel")


def test_switching_the_language_while_waiting_keeps_the_wait_and_says_it_in_the_new_language(
    browser: Any, url: str
) -> None:
    """A newcomer's audit: switching the page's language while waiting in Play now lost the wait: the lobby drawn
    again in the new language showed Play now to press and no wait until the server answered a look (for ever, for a
    server slow to answer), and a form back at 2 players and bots ticked, which asked again for that other game at
    the next change. The wait goes on, shown at once in the new language: the same ticket, the same count of people
    waited for, the bots' countdown going on, the form as it was."""
    with open_page(browser, **DESKTOP) as page:
        cancelled: list[str] = []
        page.on("request", lambda request: cancelled.append(request.url) if request.method == "DELETE" else None)
        page.goto(url)
        page.wait_for_selector("#table-list li")
        page.select_option("#language", "ar")
        page.wait_for_selector("#play-now h2:has-text('العب الآن')")
        page.fill("#me-name", "Zineb")
        page.click("label[for='play-players-3']")
        page.select_option("#play-wait", "120")
        page.click("#play-button")
        page.wait_for_selector("#play-status:has-text('في انتظار لاعبَين آخرَين… الحاسوب بعد')")
        ticket = page.evaluate("localStorage.getItem('ronda.playTicket')")
        before = get_json(f"{url}/api/play/{ticket}")
        held: list[Any] = []
        page.route("**/api/play/*", lambda route: held.append(route))  # a server slow to answer the page's looks
        page.select_option("#language", "fr")
        page.wait_for_selector("#play-now h2:has-text('Jouer maintenant')")
        # Shown at once, before the server answers: the wait, its count, the bots' countdown, Stop waiting.
        page.wait_for_selector("#play-status:has-text('Encore 2 à attendre… Robots dans')")
        shown = page.inner_text("#play-status")
        bots_in = re.search(r"Robots dans (\d+) s\.", shown)
        assert bots_in, shown
        assert before["bots_in"] - 15 <= int(bots_in.group(1)) <= math.ceil(before["bots_in"]), (shown, before)
        assert page.is_visible("#play-cancel") and page.inner_text("#play-cancel") == "Ne plus attendre"
        assert not page.is_enabled("#play-button")
        assert page.is_checked("#play-players-3") and page.input_value("#play-wait") == "120"  # the form as it was
        for route in held:
            route.continue_()
        page.unroute("**/api/play/*")
        page.wait_for_timeout(1_500)  # a look or two in the new language: still waiting
        assert page.evaluate("localStorage.getItem('ronda.playTicket')") == ticket  # the same wait, not a new one
        held_now = get_json(f"{url}/api/play/{ticket}")
        assert held_now["status"] == "waiting" and held_now["players"] == 3, held_now
        assert held_now["others"] == before["others"] and held_now["bots_in"] < before["bots_in"], (before, held_now)
        # A change of the bots' level asks again for the game waited for, not for the 2 players of a form reset.
        page.select_option("#play-level", "hard")
        page.wait_for_function(f"fetch('/api/play/{ticket}').then((r) => r.json()).then((a) => a.level === 'hard')")
        after = get_json(f"{url}/api/play/{ticket}")
        assert after["players"] == 3 and after["status"] == "waiting", after
        page.wait_for_selector("#play-status:has-text('Encore 2 à attendre…')")
        assert cancelled == [], cancelled
        page.click("#play-cancel")
        page.wait_for_selector('#play-status:has-text("Vous n\'attendez plus.")')


def test_play_now_remembers_the_rules_and_the_players_chosen(browser: Any, url: str) -> None:
    """An audit: after choosing "Short game", a 10 s wait and easy bots, the lobby came back with 10 s and easy but
    Classic rules: only the wait and the level were remembered. The rules and the player count are, like them."""
    with open_page(browser, **DESKTOP) as page:
        page.goto(url)
        page.wait_for_selector("#play-preset option", state="attached")
        assert page.input_value("#play-preset") == "classic" and page.is_checked("#play-players-2")
        page.click("label[for='play-players-4']")
        page.select_option("#play-preset", "short")
        page.select_option("#play-wait", "10")
        page.select_option("#play-level", "easy")
        page.reload()  # the next visit
        page.wait_for_selector("#play-preset option", state="attached")
        assert page.input_value("#play-preset") == "short"
        assert page.locator("#play-preset option:checked").inner_text() == "Short game"
        assert page.is_checked("#play-players-4")
        assert page.input_value("#play-wait") == "10" and page.input_value("#play-level") == "easy"
        page.select_option("#play-preset", "four-card")
        page.click("label[for='play-players-3']")  # four-card hands are for 2 or 4 players: Classic is shown
        assert page.input_value("#play-preset") == "classic"
        page.goto(url)
        page.wait_for_selector("#play-preset option", state="attached")
        assert page.is_checked("#play-players-3") and page.input_value("#play-preset") == "classic"
    with open_page(browser, **DESKTOP) as fresh:  # another browser: the defaults
        fresh.goto(url)
        fresh.wait_for_selector("#play-preset option", state="attached")
        assert fresh.input_value("#play-preset") == "classic" and fresh.is_checked("#play-players-2")
