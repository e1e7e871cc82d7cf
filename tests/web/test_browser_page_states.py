"""Three states of the table page a newcomer's audit found confusing or out of the keyboard's reach, in Debian's
chromium: the computer playing for a seat whose person let three turns pass (the page still offered "Your turn"
under "the computer plays for you now"), Play again once the other person has left (a greyed-out button and no
word why), and the end of a game, whose dialog the keyboard could neither reach nor stay in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import test_browser
from test_browser import DESKTOP, create_table, hand_of, open_page, serving, truthful, wait_until

from ronda.interfaces.web.app import create_app

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are

WATCH_DECISIONS = """() => {
  window.seen = [];
  const note = () => {
    const box = document.querySelector('#decisions');
    if (!box || !document.querySelector('#stand-in-note')) return;
    window.seen.push({
      said: box.innerText,
      parts: [...box.children].map((child) => child.id || child.className),
      playable: document.querySelectorAll('#hand .hand-card.playable').length,
      clock: document.querySelectorAll('#turn-clock').length,
      title: document.title,
      theirs: Boolean(document.querySelector('.seat .thinking')),
    });
  };
  new MutationObserver(note).observe(document.querySelector('.table-screen'), { childList: true, subtree: true });
}"""
"""Every drawing of the seat's decisions while the stand-in note shows, as the person saw it: what the box said,
what it held, whether a card could be played, a clock ran or the tab's title said "Your turn", and whether the
turn was another seat's (its "playing…" shows)."""


def test_while_the_computer_plays_for_me_the_page_offers_nothing_but_i_m_back(browser: Any, tmp_path: Path) -> None:
    """An audit: after three turns let pass, each of the seat's turns flashed "Your turn — play a card · 7 s left,
    then the computer plays this one for you" with playable cards, right above "You let three turns pass: the
    computer plays for you now", the prompt changing at each of the stand-in's moves. Now the page says only that the
    computer plays for the seat, with "I'm back: play myself", which gives the seat back: the ordinary prompt
    returns on the person's next turn, its clock running and its cards playable."""
    app = create_app(
        f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0.3, bot_workers=1, listen_host="127.0.0.1", turn_time=3
    )
    with serving(app) as url, open_page(browser, **DESKTOP) as page:
        create_table(page, url)
        note = page.locator("#stand-in-note")
        note.wait_for(timeout=30_000)
        page.evaluate(WATCH_DECISIONS)
        page.wait_for_timeout(4_000)  # the stand-in plays on for the seat at the table's pace, the bot between
        seen = page.evaluate("window.seen")
        assert any(s["theirs"] for s in seen) and any(not s["theirs"] for s in seen), seen  # the seat's turns too
        said = "You let three turns pass: the computer plays for you now, and this game counts as left.\n"
        assert {s["said"] for s in seen} == {said + "I'm back: play myself"}, seen
        assert {tuple(s["parts"]) for s in seen} == {("stand-in-note", "take-seat-back")}
        assert not [s for s in seen if s["playable"] or s["clock"] or "Your turn" in s["title"]], seen
        page.screenshot(path=str(tmp_path / "stand-in.png"))
        page.click("#take-seat-back")
        note.wait_for(state="detached", timeout=10_000)
        # The seat is the person's again: the ordinary prompt, its clock, cards to play, and nothing else said.
        prompts = "['Your turn — play a card', 'Declare your hand:']"
        wait_until(page, f"{prompts}.includes(document.querySelector('#turn')?.textContent)", 15)
        if page.locator("[data-action^='declare-']").count():  # a new deal's declaration first: made by hand
            page.click(f"[data-action='declare-{truthful(hand_of(page))}']")
            wait_until(page, "document.querySelector('#turn')?.textContent === 'Your turn — play a card'", 15)
        page.wait_for_selector("#turn-clock:has-text('s left, then the computer plays this one for you')")
        assert page.locator("#hand .hand-card.playable").count() >= 1
        assert page.title().startswith("● Your turn")
        assert not page.locator("#turn-over").count()
        card = page.locator("#hand .hand-card.playable").first
        chosen = card.get_attribute("data-card")
        card.click()  # played by hand, and taken
        page.wait_for_selector(f"#hand [data-card='{chosen}']", state="detached", timeout=10_000)
        assert not note.count()


def test_play_again_says_who_has_left_the_table_and_what_is_left_to_do(browser: Any, tmp_path: Path) -> None:
    """An audit: at the end of a game Amina pressed Play again, and Youssef pressed Lobby. Her button went back to a
    greyed-out "Play again" beside Cancel, with no word why, and his seat still showed "connected" (nobody was shown
    away once a game was over). Now she reads that he has left the table, what Play again does without him (the
    computer plays for whoever is not back) and where to find someone else (Lobby, then Play now), in each language;
    his seat shows him away."""
    from test_browser_clock import play_both_until_game_over, two_people_to_one_point

    # A long grace period: Amina's game, asked for, does not start while the test reads her page.
    app = create_app(
        f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0, bot_workers=1, listen_host="127.0.0.1", grace=600
    )
    with serving(app) as url, open_page(browser, **DESKTOP) as amina, open_page(browser, **DESKTOP) as youssef:
        two_people_to_one_point(url, amina, "Amina", youssef, "Youssef")
        play_both_until_game_over([amina, youssef])
        presence = amina.locator(".seat[data-seat='1'] .presence")
        assert presence.get_attribute("aria-label") == "connected"
        assert amina.locator("#rematch-left").count() == 0
        again = amina.locator("[data-action='rematch']")
        again.click()
        assert again.inner_text() == "Waiting for Youssef…"
        youssef.click("[data-action='lobby']")
        youssef.wait_for_selector("#play-button")
        left = amina.locator("#rematch-left")
        left.wait_for()
        assert left.inner_text() == (
            "Youssef has left the table. Unless someone comes back, your new game starts shortly, the computer "
            "playing for whoever is not back. To play someone else instead, press “Lobby”, then “Play now”."
        )
        assert again.inner_text() == "Starting shortly…" and again.is_disabled()
        assert amina.locator("[data-action='rematch-cancel']").is_enabled()
        # His seat, behind the end screen, shows him away now that the game is over.
        assert presence.get_attribute("aria-label") == "away"
        assert "away" in amina.inner_text(".seat[data-seat='1'] .seat-who")
        amina.screenshot(path=str(tmp_path / "rematch-left.png"))
        amina.select_option("#language", "fr")
        said = "document.querySelector('#rematch-left')?.textContent"
        wait_until(amina, f"{said}.startsWith('Youssef a quitté la table. ')")
        assert left.inner_text().endswith("appuyez sur « Accueil », puis sur « Jouer maintenant ».")
        assert again.inner_text() == "Début sous peu…"
        amina.select_option("#language", "ar")
        wait_until(amina, f"{said}.startsWith('غادر Youssef الطاولة. ')")
        assert left.inner_text().endswith("اضغط «الرئيسية» ثم «العب الآن».")
        amina.select_option("#language", "en")
        # She takes her request back: Play again is hers to press again, and says what it would start.
        amina.click("[data-action='rematch-cancel']")
        wait_until(amina, "document.querySelector('[data-action=\"rematch\"]')?.textContent === 'Play again'")
        assert again.is_enabled()
        assert left.inner_text() == (
            "Youssef has left the table. In a new game here the computer plays for whoever is not back. "
            "To play someone else, press “Lobby”, then “Play now”."
        )
        amina.click("[data-action='lobby']")  # where the note sends her: Play now is there
        assert amina.locator("#play-button").inner_text() == "Play now"


FOCUSED = """(() => {
  const at = document.activeElement;
  const what = at?.dataset.focus || at?.dataset.action || at?.textContent || at?.tagName;
  return { inside: Boolean(at?.closest('#summary')), what };
})()"""
"""Where the keyboard is: inside the end dialog or not, and what it is on."""

BEHIND = """(() => {
  const inert = (selector) => Boolean(document.querySelector(selector)?.closest('[inert]'));
  return {
    topbar: inert('#topbar a'), board: inert('.board'), dialog: inert('#summary button'),
    toasts: inert('#toasts'), language: inert('#language'),
  };
})()"""
"""Which parts of the page are inert: the top bar's links, the board, the dialog's buttons, the toasts, the
language (a page-wide choice, switched with the end dialog up)."""


IN_SIGHT = """(() => {
  const dialog = document.querySelector('#summary .dialog');
  const box = dialog.getBoundingClientRect();
  const seen = (node) => {
    const r = node.getBoundingClientRect();
    return r.top >= box.top && r.bottom <= box.bottom && r.top >= 0 && r.bottom <= innerHeight;
  };
  return {
    scrolls: dialog.scrollHeight > dialog.clientHeight,
    focused: seen(document.activeElement),
    title: seen(dialog.querySelector('#summary-title')),
  };
})()"""
"""Whether the end dialog scrolls inside itself, and whether the focused button and the title are in sight in it."""


def test_the_end_of_a_game_takes_the_keyboard_to_play_again_and_keeps_it_in_the_dialog(
    browser: Any, tmp_path: Path
) -> None:
    """An audit: after a game between two people the focus was on the page itself, not on "Play again", so Enter did
    nothing, and Tab went through the "?" button, the automatic-declaration switch, the play-by-play and the names
    behind the dialog before reaching it (a round's summary took the focus on Continue). Now the end dialog takes
    the focus on its first action, Tab and Shift+Tab stay inside it, and Escape closes it as it closes a round's
    summary: "Show the result" then has the focus, and brings it back."""
    from test_browser_clock import play_both_until_game_over, two_people_to_one_point

    app = create_app(f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0, bot_workers=1, listen_host="127.0.0.1")
    with serving(app) as url, open_page(browser, **DESKTOP) as amina, open_page(browser, **DESKTOP) as brahim:
        two_people_to_one_point(url, amina, "Amina", brahim, "Brahim")
        play_both_until_game_over([amina, brahim])
        # The seats' news and the ratings come after the game's last move: the dialog is drawn again meanwhile.
        amina.wait_for_selector("#summary #rating-changes, #summary #unrated")
        wait_until(amina, "document.activeElement?.dataset.action === 'rematch'", 5)
        assert amina.evaluate("document.activeElement.textContent") == "Play again"
        # On a phone held sideways the rated game's dialog is taller than the screen and scrolls inside itself: the
        # button with the focus stays in sight at its foot, and so does the title at its head (an audit: "Play
        # again" had the focus out of sight, below the ratings).
        amina.set_viewport_size({"width": 844, "height": 390})
        sight = amina.evaluate(IN_SIGHT)
        assert sight["scrolls"] and sight["focused"] and sight["title"], sight
        amina.set_viewport_size(DESKTOP["viewport"])
        # Behind it the page is inert, not only out of Tab's way: a screen reader's reading stayed on the table
        # behind a dialog (an audit). The toasts stay live, so that an error said meanwhile is heard.
        live = {"dialog": False, "toasts": False, "language": False}
        assert amina.evaluate(BEHIND) == {"topbar": True, "board": True, **live}
        # Tab goes round the dialog's own links and buttons, and back to Play again, never behind it.
        visited = []
        for _ in range(12):
            amina.keyboard.press("Tab")
            visited.append(amina.evaluate(FOCUSED))
        assert all(stop["inside"] for stop in visited), visited
        names = [stop["what"] for stop in visited]
        assert {"lobby", "watch-replay", "rematch"} <= set(names), names
        for _ in range(12):
            amina.keyboard.press("Shift+Tab")
            assert amina.evaluate(FOCUSED)["inside"], amina.evaluate(FOCUSED)
        # Enter presses the action the focus is on: Play again, once the keyboard is back on it.
        while amina.evaluate("document.activeElement?.dataset.action") != "rematch":
            amina.keyboard.press("Tab")
        amina.keyboard.press("Enter")
        wait_until(brahim, "document.querySelector('#rematch-wanted')?.textContent === 'Amina wants to play again.'")
        assert amina.evaluate("document.activeElement?.dataset.action") == "rematch-cancel"
        # Escape closes it, as a round's summary closes: Show the result has the focus, and Enter shows it again.
        amina.keyboard.press("Escape")
        amina.wait_for_selector("#summary", state="detached")
        assert amina.evaluate("document.querySelectorAll('[inert]').length") == 0  # the page given back
        assert amina.evaluate("document.activeElement?.textContent") == "Show the result"
        amina.keyboard.press("Enter")
        amina.wait_for_selector("#summary[data-kind='game']")
        wait_until(amina, "document.activeElement?.dataset.action === 'rematch-cancel'", 5)  # Play again is asked
        amina.keyboard.press("Tab")
        assert amina.evaluate(FOCUSED)["inside"]


REACHED = """(selector) => {
  const node = document.querySelector(selector);
  const r = node.getBoundingClientRect();
  const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
  const around = [[x, y - 21], [x, y + 21], [x - 21, y], [x + 21, y]];
  return around.every(([a, b]) => node.contains(document.elementFromPoint(a, b)));
}"""
"""Whether a touch 21 px from the middle of the element, up, down, left or right, lands on it: a 44 px target."""

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "locale": "en-US"}

IN_VIEW = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight + 1;  // within a pixel: the page scrolls by whole pixels
}"""


def test_a_small_phone_and_the_keyboard_alone_get_the_turn_its_clock_and_its_news(browser: Any, tmp_path: Path) -> None:
    """An audit on a 360x640 phone, with the keyboard alone and a screen reader's eyes: the hand and the decision
    stood below the fold at every turn; the turn clock never showed, nothing redrawing the page while the person
    thought, and the computer played for them unwarned; the moves and the turn were never told, the live regions
    being drawn anew with their news; the stock's count was hidden from screen readers; and after each move the
    keyboard went back to the page's top, three Tabs from the cards."""
    app = create_app(
        f"sqlite:///{tmp_path / 'ronda.sqlite3'}", bot_delay=0, bot_workers=1, listen_host="127.0.0.1", turn_time=40
    )
    with serving(app) as url, open_page(browser, **SMALL_PHONE) as page:
        page.clock.install()  # the page's time, moved on below: the server's clock runs as ever
        create_table(page, url, name="Karim")
        page.wait_for_selector("[data-action^='declare-']")
        wait_until(page, f"({IN_VIEW})('#decisions')", 5)  # brought into view: the turn has come
        assert page.evaluate(f"({IN_VIEW})('.mine .hand-card')")
        assert page.locator(".stock-count .long").is_visible()  # read, though drawn as the short count
        assert page.get_by_role("img", name="Dealer", exact=True).count() == 1  # its "D" was read as "D"
        for small in ("#rules-button", ".mine .switch"):  # 30 and 20 px high before: a finger's reach is 44
            assert page.evaluate(REACHED, small), f"a touch 21 px from the middle of {small} misses it"
        assert page.inner_text("#turn-clock") == ""  # more than 30 s left
        page.clock.fast_forward(12_000)  # 27 s left on the page's count (it counts from a second early)
        wait_until(page, "document.querySelector('#turn-clock').textContent.startsWith('27 s left')", 5)
        told = "27 s left, then the computer plays this one for you"
        wait_until(page, f"document.querySelector('#announce').textContent.includes({told!r})", 5)
        # The keyboard alone: the truthful declaration, then a card, each by Enter on the focused button.
        page.focus(f"[data-action='declare-{truthful(hand_of(page))}']")
        page.keyboard.press("Enter")
        page.wait_for_selector("#hand .hand-card.playable")
        announced = page.inner_text("#announce")
        assert "You declare" in announced and "Your turn — play a card" in announced, announced
        assert page.evaluate("document.activeElement.closest('.mine, #decisions') !== null")  # not the page's top
        card = page.locator("#hand .hand-card.playable").first.get_attribute("data-card")
        page.focus(f"#hand .hand-card[data-card='{card}']")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#hand .hand-card[data-card='{card}']", state="detached")
        focused = page.evaluate("document.activeElement.tagName + ' ' + (document.activeElement.className || '')")
        assert page.evaluate("document.activeElement.closest('.mine, #decisions') !== null"), focused
        wait_until(page, "/You (play|drop)/.test(document.querySelector('#announce').textContent)", 5)
