"""What players saw in the browser, checked in Debian's chromium at 1440x900 and 390x844, in English and Arabic.

Each test reads what a player would notice: the analysis graph names every
line and has a scale, and sits above the fold beside the replay; the replay's
buttons are each their own shape, mirrored right to left like the slider; the
stock never covers a table card; the losing screen has no trophy; signed
scores read "+5" in Arabic too; on a phone the Challenge button (a wrong one
loses the game) stands well away from Hint; and axe-core, the accessibility
engine, finds nothing serious or critical on the lobby, a table and a replay.
The replay's play-by-play shows the step's own lines and the whole game, round
1's heading too, and a replay shows no one as here or thinking; a reader
scrolled up in the play-by-play stays there as the game goes on.
A lock-out as it happened once: 80 spectators from one address, then both
players still welcomed and able to play to the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import httpx
import test_browser
from test_browser import (
    create_table,
    hand_of,
    open_page,
    play_until_game_over,
    served,
    table_id_of,
    truthful,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are

WIDE = {"viewport": {"width": 1440, "height": 900}, "locale": "en-US"}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "en-US"}
AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on loopback: bots play at once, analyses searched with few guesses, the default caps."""
    yield from served(tmp_path_factory, "pages", analysis_budget=4)


def finish(page: Any) -> None:
    """Play the page's game to its end, through every round summary."""
    play_until_game_over(page, seconds=90, honest=False)


@pytest.fixture(scope="module")
def finished_three(url: str, browser: Any) -> str:
    """A finished three-player game (Amina and two bots, first to 2): its table id."""
    with open_page(browser, **WIDE) as page:
        table_id = create_table(page, url, name="Amina", players=3, target=2)
        finish(page)
    return table_id


@pytest.fixture(scope="module")
def finished_long(url: str) -> str:
    """A finished three-player game to 41 of two rounds or more (Nadia, playing from a script, and two easy bots):
    its table id. Its play-by-play is well over 120 lines; it is played in seconds, without a page."""
    for attempt in range(3):
        seats = [{"kind": "human", "name": "Nadia"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
        answer = httpx.post(f"{url}/api/tables", json={"players": 3, "seats": seats, "target": 41, "keep": False})
        assert answer.status_code == 201, answer.text
        table_id, token = answer.json()["table_id"], answer.json()["token"]
        with connect(f"ws{url[4:]}/ws/{table_id}", open_timeout=10, max_queue=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
            while ((message := json.loads(ws.recv(timeout=30))).get("view") or {}).get("phase") != "game_over":
                assert message["type"] != "error", message
                plays = [action for action in message.get("legal") or [] if "challenge" not in action]
                if plays:  # a legal move, never a challenge (the game ends on points), at a person's pace at most
                    test_browser.time.sleep(0.06)
                    act = {"type": "act", "action": plays[attempt % len(plays)], "version": message["version"]}
                    ws.send(json.dumps(act))
        steps = test_browser.get_json(f"{url}/api/tables/{table_id}/replay")["steps"]
        rounds = sum(event["type"] == "round_start" for step in steps for event in step["events"])
        if rounds >= 2 and sum(len(step["events"]) for step in steps) >= 160:
            return table_id
    pytest.fail("three games to 41 each ended in their first round")


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


# ------------------------------------------------------------------ the lock-out


def spectators_of(url: str, table_id: str, count: int) -> tuple[list[ClientConnection], int]:
    """``count`` spectators' hellos from this machine's one address: the connections welcomed, and the refusals."""
    welcomed, refused = [], 0
    for _ in range(count):
        ws = connect(f"ws{url[4:]}/ws/{table_id}", open_timeout=10, max_queue=None)
        ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
        first = json.loads(ws.recv(timeout=10))
        if first["type"] == "welcome":
            welcomed.append(ws)
        else:
            assert first["code"] == "too_many_connections", first
            refused += 1
            ws.close()
    return welcomed, refused


def take_turns(pages: list[Any], seconds: float = 60) -> None:
    """Two people at one table: each page declares truthfully and plays its first card, until the game is over."""
    deadline = test_browser.time.monotonic() + seconds
    while not all(page.locator("#summary[data-kind='game']").count() for page in pages):
        assert test_browser.time.monotonic() < deadline, "the game did not end"
        for page in pages:
            if page.locator("#summary[data-kind='round']").count():
                page.click("[data-action='continue']")
            elif page.locator("[data-action^='declare-']").count():
                with contextlib.suppress(Exception):
                    page.click(f"[data-action='declare-{truthful(hand_of(page))}']", timeout=2_000)
            elif page.locator("#hand .hand-card.playable").count():
                with contextlib.suppress(Exception):
                    page.locator("#hand .hand-card.playable").first.click(timeout=2_000)
        pages[0].wait_for_timeout(60)


def test_80_spectators_from_one_address_then_both_players_play_and_only_the_winner_sees_a_trophy(
    browser: Any, url: str
) -> None:
    with open_page(browser, **WIDE) as host, open_page(browser, **WIDE) as friend:
        host.goto(url)
        host.fill("#me-name", "Hamid")  # a name typed is kept on the server: each test's people have their own
        host.select_option("[data-seat-kind='1']", "human")
        host.fill("#target", "1")
        host.click("#create")
        host.locator("#invite-link").wait_for()
        invite = str(host.locator("#invite-link").input_value())
        table_id = table_id_of(host)
        welcomed, refused = spectators_of(url, table_id, 80)
        try:
            assert (len(welcomed), refused) == (32, 48)  # the address's cap; the table would take 64
            friend.goto(invite)
            friend.fill("#join-name", "Omar")
            friend.click("#join-button")
            friend.wait_for_selector("#hand .hand-card")
            host.reload()  # the creator comes back, from the same address as every spectator
            host.wait_for_selector("#hand .hand-card")
            # One more person watching from that address is told why, in words, and the page stops trying.
            with open_page(browser, **WIDE) as watcher:
                sockets: list[Any] = []
                watcher.on("websocket", lambda socket: sockets.append(socket))
                watcher.goto(invite)
                watcher.wait_for_selector(".toast")
                assert "Too many pages are open from your address" in watcher.inner_text("#toasts")
                watcher.wait_for_timeout(2_000)  # a page that retried would have opened a new socket by now
                assert len(sockets) == 1
            take_turns([host, friend])
        finally:
            for ws in welcomed:
                ws.close()
        summary = httpx.get(f"{url}/api/tables/{table_id}").json()
        assert summary["status"] == "finished" and not any(seat["stand_in"] for seat in summary["seats"])
        winner = summary["winner"]
        pages = {0: host, 1: friend}
        assert pages[winner].locator("#summary .trophy").count() == 1
        assert "win" in pages[winner].inner_text("#summary-title").lower()
        loser = pages[1 - winner]
        assert loser.inner_text("#summary-title") == "You lose"
        assert loser.locator("#summary .trophy").count() == 0  # the losing screen shows no trophy


# ------------------------------------------------------------------ the table


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["1440x900", "390x844"])
def test_the_stock_never_covers_a_table_card(browser: Any, url: str, size: dict[str, Any], tmp_path: Path) -> None:
    with open_page(browser, **size) as page:
        create_table(page, url, players=3)
        page.wait_for_selector("#table-cards .table-card")
        stock = page.locator("#stock").bounding_box()
        assert stock is not None and page.locator("#stock .stock-count").is_visible()
        for card in page.locator("#table-cards .table-card").all():
            box = card.bounding_box()
            assert box is not None and not boxes_overlap(stock, box), (stock, box)
        page.screenshot(path=str(tmp_path / "table.png"))


class Opponent(threading.Thread):
    """A person at seat 1 over a real websocket who always declares ronda (true or not) and plays their first card."""

    def __init__(self, url: str, table_id: str, token: str) -> None:
        super().__init__(daemon=True)
        self.ws = connect(f"ws{url[4:]}/ws/{table_id}", open_timeout=10)
        self.token = token
        self.stopping = threading.Event()

    def run(self) -> None:
        self.ws.send(json.dumps({"type": "hello", "token": self.token, "since": None}))
        while not self.stopping.is_set():
            try:
                message = json.loads(self.ws.recv(timeout=0.2))
            except TimeoutError:
                continue
            except ConnectionClosed:
                return
            legal = message.get("legal") or []
            plays = [a for a in legal if "play" in a]
            choice = {"declare": "ronda"} if {"declare": "ronda"} in legal else (plays[0] if plays else None)
            if choice is not None:
                self.ws.send(json.dumps({"type": "act", "action": choice}))

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=5)
        self.ws.close()


def test_on_a_phone_the_challenge_stands_well_apart_from_hint(browser: Any, url: str, tmp_path: Path) -> None:
    seats = [{"kind": "human", "name": "Amina"}, {"kind": "human"}]
    body = {"players": 2, "seats": seats, "hints": True, "keep": False}  # a script: it keeps no names
    created = httpx.post(f"{url}/api/tables", json=body).json()
    table_id = created["table_id"]
    joined = httpx.post(f"{url}/api/tables/{table_id}/join", json={"name": "Youssef", "keep": False}).json()
    opponent = Opponent(url, table_id, joined["token"])
    opponent.start()
    try:
        with open_page(browser, **PHONE) as page:
            page.goto(url)
            held = json.dumps({"seat": 0, "token": created["token"], "at": 1})
            page.evaluate(f"localStorage.setItem('ronda.seat.{table_id}', {json.dumps(held)})")
            page.goto(f"{url}/t/{table_id}")
            page.wait_for_selector("#hand .hand-card")
            deadline = test_browser.time.monotonic() + 30
            while not (page.locator("[data-action^='challenge-']").count() and page.locator("#hint-button").count()):
                assert test_browser.time.monotonic() < deadline, "no challenge was offered beside a hint"
                if page.locator("[data-action='declare-none']").count():
                    with contextlib.suppress(Exception):
                        page.click("[data-action='declare-none']", timeout=2_000)
                page.wait_for_timeout(60)
            page.screenshot(path=str(tmp_path / "challenge-phone.png"))
            hint = page.locator("#hint-button").bounding_box()
            challenge = page.locator("[data-action^='challenge-']").first.bounding_box()
            assert hint is not None and challenge is not None
            # A thumb that slips off Hint (or the cards) cannot land on Challenge: a clear band lies between.
            gap = challenge["y"] - (hint["y"] + hint["height"])
            assert gap >= 32, f"Challenge is {gap:.0f} px under Hint"
    finally:
        opponent.stop()


# ------------------------------------------------------------------ the replay and its analysis


def open_analysis(page: Any, url: str, table_id: str) -> None:
    page.goto(f"{url}/t/{table_id}?replay")
    page.click("#analyse")
    page.wait_for_selector("#analysis-graph", timeout=120_000)


def scale_as_seen(page: Any) -> list[str]:
    """The graph's scale as a person reads it: each tick's text, if it stands on one line and clear of the graph's
    plot, else what shows of it. The ticks' texts were right while "100.0%" broke after "100", under the plot,
    which hid the rest: the scale read "100", "50.0" (".0%", ".0%" in Arabic)."""
    return page.evaluate(
        """() => {
          const plot = document.getElementById('analysis-graph').getBoundingClientRect();
          return [...document.querySelectorAll('.graph-y .graph-tick')].map((tick) => {
            const range = document.createRange();
            range.selectNodeContents(tick);
            const lines = [...range.getClientRects()].filter((r) => r.width > 0);
            const text = tick.textContent.replace(/[\u2066\u2069]/g, '');
            const clear = lines.every((r) => r.right <= plot.left + 0.5 || r.left >= plot.right - 0.5);
            return lines.length === 1 && clear ? text : `${lines.length} lines, ${clear ? 'clear' : 'under the plot'}`;
          });
        }"""
    )


def test_the_graph_names_every_line_has_a_scale_and_sits_above_the_fold(
    browser: Any, url: str, finished_three: str, tmp_path: Path
) -> None:
    with open_page(browser, **WIDE) as page:
        open_analysis(page, url, finished_three)
        page.screenshot(path=str(tmp_path / "replay.png"))
        legend = page.inner_text("#graph-legend")
        for name in ("Amina", "Bot 2", "Bot 3"):  # three players: each line is named
            assert name in legend
        assert (
            page.locator(
                "#graph-legend .swatch.line-0, #graph-legend .swatch.line-1, #graph-legend .swatch.line-2"
            ).count()
            == 3
        )
        ticks = [page.inner_text(f".graph-y .tick-{where}") for where in ("top", "zero", "bottom")]
        assert [tick.strip("\u2066\u2069") for tick in ticks] == ["100.0%", "50.0%", "0.0%"]  # chances to win
        assert "chance to win" in page.inner_text(".graph-y-title")
        french = ["100,0\u202f%", "50,0\u202f%", "0,0\u202f%"]  # French sets "%" apart, a space that never breaks
        for language, scale in (("en", ticks), ("fr", french), ("ar", ticks)):  # on the right in Arabic
            page.select_option("#language", language)
            assert scale_as_seen(page) == [tick.strip("\u2066\u2069") for tick in scale], language
        page.select_option("#language", "en")
        graph = page.locator("#analysis-graph").bounding_box()
        assert graph is not None and graph["y"] + graph["height"] <= 900  # seen without scrolling
        assert page.evaluate("window.scrollY") == 0


def test_the_replay_buttons_are_each_their_own_and_point_the_sliders_way_in_arabic(
    browser: Any, url: str, finished_three: str, tmp_path: Path
) -> None:
    with open_page(browser, **WIDE) as page:
        page.goto(f"{url}/t/{finished_three}?replay")
        page.wait_for_selector("#replay-play")
        icons = page.evaluate(
            "[...document.querySelectorAll('.replay-buttons button')].map(b => b.querySelector('svg').innerHTML)"
        )
        assert len(icons) == len(set(icons)) == 5  # play and forward are no longer the same arrow
        assert page.inner_text("#replay-play") == "Play"
        mirrored = "[...document.querySelectorAll('.replay-buttons svg')].map(s => getComputedStyle(s).transform)"
        assert set(page.evaluate(mirrored)) == {"none"}
        page.select_option("#language", "ar")
        page.wait_for_selector("html[dir='rtl']")
        assert set(page.evaluate(mirrored)) == {"matrix(-1, 0, 0, 1, 0, 0)"}
        page.click("#replay-next")  # one step on: the slider's thumb moves the way the arrow now points
        assert page.evaluate("document.getElementById('replay-slider').value") == "1"
        page.locator(".replay-buttons").screenshot(path=str(tmp_path / "buttons-ar.png"))


def step_lines_in_sight(page: Any, since: int) -> str:
    """The step's own lines in the play-by-play (those after the first ``since``: the replay tells the game up to
    the step shown), if a person sees them all within the panel's visible region (to a pixel, as scrolled); else
    where they are."""
    return str(
        page.evaluate(
            """(since) => {
              const box = document.getElementById('log'), own = [...box.children].slice(since);
              if (!own.length) return `no line of its own: the panel has ${box.children.length}`;
              const seen = box.getBoundingClientRect();
              const top = own[0].getBoundingClientRect().top, bottom = own.at(-1).getBoundingClientRect().bottom;
              return top >= seen.top - 1.5 && bottom <= seen.bottom + 1.5 ? own.map((l) => l.textContent).join(' | ')
                : `out of sight: lines at ${Math.round(top)}-${Math.round(bottom)}, the panel shows `
                  + `${Math.round(seen.top)}-${Math.round(seen.bottom)}`
                  + ` (scrolled ${box.scrollTop} of ${box.scrollHeight})`;
            }""",
            since,
        )
    )


def lines_shown(page: Any) -> int:
    return int(page.locator("#log li").count())


def test_the_replays_play_by_play_shows_the_steps_own_lines_and_the_whole_game(
    browser: Any, url: str, finished_long: str
) -> None:
    """The audit: at step 40 of 144 the play-by-play beside the replay still showed deals 1 and 2 (scrolled 0 of
    1245 px), the step's move far below; at the last step it showed round 2's start, "Game over" out of sight; and
    round 1, its heading too, was gone: the panel kept only the last 120 lines."""
    steps = test_browser.get_json(f"{url}/api/tables/{finished_long}/replay")["steps"]
    seat_name = {0: "Nadia", 1: "Bot 2", 2: "Bot 3"}
    with open_page(browser, **WIDE) as page:
        page.goto(f"{url}/t/{finished_long}?replay")
        page.wait_for_selector("#replay-next")
        for _ in range(39):  # step by step, as a person clicks
            page.click("#replay-next")
        before = lines_shown(page)
        page.click("#replay-next")
        assert "Step 40 of" in page.inner_text(".replay-step")
        assert page.locator("#log").evaluate("box => box.scrollHeight > box.clientHeight")  # it scrolls
        seen = step_lines_in_sight(page, before)
        assert seen.startswith(seat_name[steps[40]["action"]["seat"]]), seen  # "Bot 2 drops 5o", in sight
        page.fill("#replay-slider", str(len(steps) // 2 - 1))
        before = lines_shown(page)
        page.fill("#replay-slider", str(len(steps) // 2))  # a jump there
        assert not step_lines_in_sight(page, before).startswith("out of sight")
        page.fill("#replay-slider", str(len(steps) - 2))
        before = lines_shown(page)
        page.click("#replay-last")
        assert "Game over" in step_lines_in_sight(page, before)
        first = page.locator("#log li").first.inner_text()
        assert first.startswith("Round 1 — ") and first.endswith(" deals"), first  # the whole game, from its start
        assert page.locator("#log li", has_text="Round 2 — ").count() == 1
        page.click("#analyse")  # a decision chosen in the analysis: the panel follows there too
        page.wait_for_selector("#analysis-graph", timeout=120_000)
        decisions = page.locator("#analysis .analysis-costly button")
        if decisions.count():
            decisions.first.click()  # the costliest
            assert not step_lines_in_sight(page, lines_shown(page) - 1).startswith("out of sight")
    with open_page(browser, **PHONE) as page:  # on a phone, in Arabic: the panel under the table follows too
        page.goto(f"{url}/t/{finished_long}?replay")
        page.select_option("#language", "ar")
        page.wait_for_selector("html[dir='rtl'] #replay-last")
        page.fill("#replay-slider", str(len(steps) - 2))
        before = lines_shown(page)
        page.click("#replay-last")
        assert "انتهت اللعبة" in step_lines_in_sight(page, before)


def test_the_tables_own_page_tells_the_whole_game(browser: Any, url: str, finished_long: str) -> None:
    """The table's own page, as its players and watchers see it (not its replay), kept only the last 120 lines
    too: at the end of a game of several rounds the first was gone."""
    with open_page(browser, **WIDE) as page:
        page.goto(f"{url}/t/{finished_long}?watch")
        page.wait_for_selector("#log li.ev-game_over")
        first = page.locator("#log li").first.inner_text()
        assert first.startswith("Round 1 — "), first
        assert page.locator("#log li.log-trimmed").count() == 0


def play_until(page: Any, done: str, seconds: float = 60) -> None:
    """Declare nothing and play the first playable card, by clicking, until the expression ``done`` is true."""
    deadline = test_browser.time.monotonic() + seconds
    while not page.evaluate(done):
        assert test_browser.time.monotonic() < deadline, f"still false: {done}"
        with contextlib.suppress(test_browser.playwright_api.Error):
            if page.locator("[data-action='declare-none']").count():
                page.click("[data-action='declare-none']", timeout=1_000)
            elif page.locator("#hand .hand-card.playable").count():
                page.locator("#hand .hand-card.playable").first.click(timeout=1_000)
        page.wait_for_timeout(50)


def test_a_reader_scrolled_up_in_the_play_by_play_stays_where_they_read_as_the_game_goes_on(
    browser: Any, url: str
) -> None:
    """Each move draws the panel anew: one scrolled up to read an earlier deal was thrown back to the game's first
    line at every move (with the whole game kept, round 1's start)."""
    first_seen = """() => {
        const box = document.getElementById('log'), top = box.getBoundingClientRect().top;
        return [...box.children].find((line) => line.getBoundingClientRect().bottom > top + 1).dataset.line;
    }"""
    with open_page(browser, viewport={"width": 1000, "height": 800}, locale="en-US") as page:  # the panel under
        create_table(page, url, name="Zineb")
        play_until(page, "document.querySelectorAll('#log li').length >= 16")
        play_until(page, "Boolean(document.querySelector('#hand .hand-card.playable'))")
        page.evaluate("document.getElementById('log').scrollTop = 60")  # up, from the newest lines
        reading = page.evaluate(first_seen)
        lines = page.locator("#log li").count()
        page.locator("#hand .hand-card.playable").first.click()
        test_browser.wait_until(page, f"document.querySelectorAll('#log li').length > {lines + 1}")  # and a bot's
        assert page.evaluate(first_seen) == reading
        assert page.evaluate("document.getElementById('log').scrollTop") == 60


def test_the_play_by_play_says_when_it_no_longer_shows_its_first_lines(browser: Any, url: str) -> None:
    """Lines are forgotten only past a cap no game nears (a page left open on game after game), and then the
    play-by-play says so at its top rather than start mid-game without a word."""
    with open_page(browser, **WIDE) as page:
        page.goto(url)
        said = page.evaluate(
            """async () => {
                const { KEPT_LINES, Narrator, namer } = await import("/static/js/narrate.js");
                const { TableScreen } = await import("/static/js/table.js");
                const screen = new TableScreen(document.createElement("div"), {});
                const fill = (count) => {
                    screen.narrator = new Narrator(namer(null, null));
                    for (let i = 0; i < count; i++) {
                        screen.narrator.push({ type: "declare", seat: i % 2, declaration: "none" });
                    }
                    return [...screen.narration().querySelectorAll("li")].map((li) => li.textContent);
                };
                return { kept: KEPT_LINES, whole: fill(KEPT_LINES), over: fill(KEPT_LINES + 50) };
            }"""
        )
    assert said["kept"] >= 1000  # a game to 41 is a few hundred lines
    assert len(said["whole"]) == said["kept"] and "no longer shown" not in said["whole"][0]
    assert said["over"][0] == "Earlier lines are no longer shown"
    assert len(said["over"]) == said["kept"] + 1


def test_a_replay_shows_no_live_players_presence_or_thinking(browser: Any, url: str, finished_three: str) -> None:
    """The audit: at step 94 a bot's seat showed the green "here" dot and "playing•••", the live table's, not the
    moment replayed."""
    steps = test_browser.get_json(f"{url}/api/tables/{finished_three}/replay")["steps"]
    bots_turns = [i for i, step in enumerate(steps) if step["state"]["turn"] in (1, 2)][:3]
    assert bots_turns
    with open_page(browser, **WIDE) as page:
        page.goto(f"{url}/t/{finished_three}?replay")
        page.wait_for_selector("#replay-next")
        for step in [0, *bots_turns, len(steps) - 1]:
            page.fill("#replay-slider", str(step))
            assert f"Step {step} of" in page.inner_text(".replay-step")
            assert page.locator(".seat.turn").count() == (step in bots_turns)  # whose turn it was: still shown
            assert page.locator(".presence:visible, .thinking:visible, #connection:visible").count() == 0, step


def test_arabic_scores_read_plus_then_number(browser: Any, url: str, tmp_path: Path) -> None:
    with open_page(browser, **WIDE) as page:
        create_table(page, url, players=2, target=1)
        finish(page)
        page.select_option("#language", "ar")
        page.wait_for_selector("html[dir='rtl'] #summary")
        page.locator("#summary .dialog").screenshot(path=str(tmp_path / "summary-ar.png"))
        # The sign is drawn left of the digits, as written: measured on the page, character by character.
        order = page.evaluate(
            """[...document.querySelectorAll('#summary .round-points bdi, #summary .card-points bdi')].map((b) => {
                const text = b.firstChild, r = document.createRange();
                r.setStart(text, 0); r.setEnd(text, 1); const first = r.getBoundingClientRect();
                r.setStart(text, text.length - 1); r.setEnd(text, text.length); const last = r.getBoundingClientRect();
                return [text.textContent, first.left <= last.left];
            })"""
        )
        assert order and all(left_to_right for _, left_to_right in order), order
        assert any(text.startswith("+") for text, _ in order)


# ------------------------------------------------------------------ accessibility


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now: rule, impact and the first element."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations)")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {v['nodes'][0]['target']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture(scope="module")
def axe_ready() -> None:
    if not AXE.is_file():
        message = "axe-core is not installed: npm ci --prefix tests/web/axe (.ci/run does)"
        if os.environ.get("RONDA_CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["1440x900", "390x844"])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_no_serious_accessibility_violations_on_the_lobby_a_table_and_a_replay(
    browser: Any, url: str, finished_three: str, axe_ready: None, size: dict[str, Any], language: str
) -> None:
    # The page's Content-Security-Policy rightly refuses inline scripts: the test context may add axe's.
    with open_page(browser, **size, bypass_csp=True) as page:
        page.goto(url)
        page.select_option("#language", language)
        assert serious_violations(page) == [], "the lobby"
        create_table(page, url, players=3)
        page.wait_for_selector("#decisions button, #decisions .prompt")
        assert serious_violations(page) == [], "a table"
        open_analysis(page, url, finished_three)
        assert serious_violations(page) == [], "a replay"
