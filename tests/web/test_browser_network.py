"""A network that drops while a person plays, in Debian's chromium.

An audit: with the network gone on Youssef's page (``context.set_offline``) for about 100 s while the turn passed to
him, his header kept "● Connected", his screen kept "Amina is declaring…" while his clock ran on the server, and
"Nothing" greyed the buttons with no word. The page pinged without ever checking for the answer and ignored the
browser's ``offline`` event. Now the page says it is reconnecting as soon as the browser says the network is gone,
or once the server has answered nothing for a while (a line that dies without a word), offers no turn meanwhile,
and catches up when the network is back, sending again a move the dead line swallowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import test_browser
from test_browser import DESKTOP, create_table_for_a_friend, hand_of, open_page, served, truthful, wait_until

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are

HEARTBEAT = 30_000
"""The page's time within which a line gone silent must be noticed (a ping, then its answer's wait; ms)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "network")


@contextmanager
def seated(browser: Any, base_url: str, host: str, guest: str, fake_clock: bool = False) -> Iterator[tuple[Any, Any]]:
    """Two people at a table, ``host`` to declare first; ``fake_clock``: the guest's page time is the test's to jump."""
    with open_page(browser, **DESKTOP) as amina, open_page(browser, **DESKTOP) as youssef:
        if fake_clock:
            youssef.clock.install()  # flows as real time does, until the test jumps it ahead
        youssef.goto(create_table_for_a_friend(amina, base_url, name=host))
        youssef.fill("#join-name", guest)
        youssef.click("#join-button")
        for page in (amina, youssef):
            page.wait_for_selector("#hand .hand-card")
            page.wait_for_selector(".seat .presence:not(.off)")
        amina.wait_for_selector("[data-action^='declare-']")
        assert youssef.inner_text("#turn") == f"{host} is declaring…"
        yield amina, youssef


class Line:
    """The guest's websocket, through a line the test can cut: cut, whatever either end sends is lost without a
    word, and the socket stays open, as on a network that dies silently. New sockets pass once it is mended."""

    def __init__(self, page: Any) -> None:
        self.cut = False
        page.route_web_socket(re.compile(r"/ws/"), self.connect)

    def connect(self, socket: Any) -> None:
        server = socket.connect_to_server()
        socket.on_message(lambda message: None if self.cut else server.send(message))
        server.on_message(lambda message: None if self.cut else socket.send(message))


def reconnecting(page: Any) -> bool:
    return bool(page.locator(".connection.off").count()) and page.inner_text("#connection") == "Reconnecting…"


def no_turn_offered(page: Any) -> bool:
    usable = "[data-action^='declare-']:not([disabled]), #hand .hand-card.playable"
    return "Connection lost" in page.inner_text("#turn") and not page.locator(usable).count()


def noticed_within(page: Any, milliseconds: int) -> int:
    """Jump the page's time ahead a second at a time until it says it is reconnecting; the page time it took."""
    waited = 0
    while not reconnecting(page):
        assert waited < milliseconds, f"still '{page.inner_text('#connection')}' after {waited} ms of page time"
        page.clock.fast_forward(1_000)
        waited += 1_000
        page.wait_for_timeout(20)
    return waited


def test_the_browser_going_offline_says_reconnecting_at_once_and_online_catches_up(browser: Any, base_url: str) -> None:
    """Offline, Youssef's page says it is reconnecting within a second and offers nothing (Amina's shows him away),
    while Amina declares and the turn passes to him; back online, it reconnects at once (not after the growing pause
    between tries) and shows his turn, with Amina's declaration told; his declaration then reaches Amina."""
    with seated(browser, base_url, "Amina", "Youssef") as (amina, youssef):
        youssef.context.set_offline(True)
        wait_until(youssef, "document.querySelector('#connection .label')?.textContent === 'Reconnecting…'", 1.5)
        assert no_turn_offered(youssef)
        amina.wait_for_selector(".seat .presence.off[aria-label='away']", timeout=5_000)  # his page let go of it
        amina.click(f"[data-action='declare-{truthful(hand_of(amina))}']")
        youssef.wait_for_timeout(6_000)  # its tries to reconnect fail meanwhile, each after a longer pause
        assert reconnecting(youssef) and no_turn_offered(youssef)
        youssef.keyboard.press("n")  # the keyboard cannot act either
        youssef.context.set_offline(False)
        youssef.wait_for_selector(".connection:not(.off)", timeout=2_000)
        youssef.wait_for_selector("[data-action^='declare-']:not([disabled])")
        assert youssef.inner_text("#connection") == "Connected"
        assert "Amina declared" in youssef.inner_text("#log")
        youssef.click(f"[data-action='declare-{truthful(hand_of(youssef))}']")
        wait_until(amina, "document.querySelector('#log').innerText.includes('Youssef declared')")


def test_a_line_gone_silent_is_noticed_by_the_heartbeat_and_the_page_catches_up(browser: Any, base_url: str) -> None:
    """The line dies without a word (no offline event, the socket stays open) and Amina declares: within the
    heartbeat's time Youssef's page says it is reconnecting and offers nothing; mended, it shows his turn."""
    with seated(browser, base_url, "Nadia", "Karim", fake_clock=True) as (nadia, karim):
        line = Line(karim)
        karim.reload()  # the page's socket now goes through the line
        karim.wait_for_selector(".connection:not(.off)")
        wait_until(karim, "document.querySelector('#turn')?.textContent === 'Nadia is declaring…'")
        line.cut = True
        nadia.click(f"[data-action='declare-{truthful(hand_of(nadia))}']")
        nadia.wait_for_timeout(500)
        assert karim.inner_text("#turn") == "Nadia is declaring…"  # what was sent to it is lost
        noticed_within(karim, HEARTBEAT)
        assert no_turn_offered(karim)
        line.cut = False
        karim.wait_for_selector(".connection:not(.off)")
        karim.wait_for_selector("[data-action^='declare-']:not([disabled])")
        assert "Nadia declared" in karim.inner_text("#log")


def test_a_move_sent_into_a_silent_line_is_noticed_and_sent_again_once_back(browser: Any, base_url: str) -> None:
    """Karim's turn: the line dies silently and he declares. The move gets no answer: within 10 s of page time (less
    than a ping's round) his page says it is reconnecting; mended, the page sends the move again by itself and the
    game goes on, once: Salma's page tells his declaration, and his turn is not offered again."""
    with seated(browser, base_url, "Salma", "Omar", fake_clock=True) as (salma, omar):
        line = Line(omar)
        omar.reload()
        omar.wait_for_selector(".connection:not(.off)")
        salma.click(f"[data-action='declare-{truthful(hand_of(salma))}']")
        omar.wait_for_selector("[data-action^='declare-']:not([disabled])")
        line.cut = True
        omar.click(f"[data-action='declare-{truthful(hand_of(omar))}']")
        assert omar.locator("[data-action^='declare-'][disabled]").count()  # greyed: sent, not answered
        assert noticed_within(omar, 11_000) <= 11_000
        assert no_turn_offered(omar)
        salma.wait_for_timeout(500)
        assert "Omar declared" not in salma.inner_text("#log")  # the dead line swallowed it
        line.cut = False
        wait_until(salma, "document.querySelector('#log').innerText.includes('Omar declared')")
        omar.wait_for_selector(".connection:not(.off)")
        wait_until(omar, "document.querySelector('#log').innerText.includes('You declared')")
        assert salma.inner_text("#log").count("Omar declared") == 1
        assert not omar.locator("[data-action^='declare-']").count()
        assert not omar.locator(".toast").count()  # taken, not refused
