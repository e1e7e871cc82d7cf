"""A person away in Debian's chromium, read as each person reads it (a newcomer's audit): Eve closes her page in a
rated game, stays away past the grace period, comes back and plays on to the end, her side reaching the target.

While she is away Dana read "Eve is playing…" with the thinking dots, though nobody played for her; back, Eve read
an ordinary "Declare your hand" and learnt only at the end that the game counted as a loss for her; and both end
screens said the computer had played her seat to the target, under a play-by-play that said she won it herself.
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import test_browser
from test_browser import DESKTOP, get_json, open_page, playwright_api, served
from test_browser_endings import STAND_IN_SEEDS, deal_every_game, dealt, end_screen, seed_the_stand_in
from test_browser_ratings import decide_until, keep_name, make_table_for_people, play_both_to_game_over

from ronda import Game, Rules
from ronda.bots import make_bot
from ronda.engine.actions import Action, Declare, Play
from ronda.engine.game import OVER, WAITING

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are

GRACE = 6.0
"""Long enough for Dana to play while Eve is away within it, on a loaded machine too."""
BOT_DELAY = 1.5
"""The stand-in's pause before its move: Dana reads who plays Eve's seat meanwhile."""


@pytest.fixture
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own for the test: its grace period and the stand-in's pace are this test's."""
    yield from served(tmp_path_factory, "away", grace=GRACE, bot_delay=BOT_DELAY)


def policy(game: Game, seat: int) -> Action:
    """What a person of this test decides, as :func:`play_both_to_game_over` clicks it: a truthful declaration, else
    the first card of the hand as the page shows it."""
    mine = game.view(seat)
    if any(isinstance(a, Declare) for a in game.legal_actions()):
        (kind,) = mine.possible_kinds(seat)
        return Declare(kind)
    return Play(next(iter(mine.hand)))


def eve_back_wins(game: Game) -> bool:
    """Whether the test's game goes as wanted on this deal: both decide by :func:`policy` until Eve (seat 1) has
    decided once; she goes; Dana decides once, which makes it Eve's turn; the medium stand-in makes Eve's decision
    with the server's first seed (:func:`seed_the_stand_in`); Eve is back, and both decide by :func:`policy` to the
    end of the first round, where Eve's side has reached the target, with at least one decision of Eve's own."""
    seeds = random.Random(STAND_IN_SEEDS)

    def step(seat: int, action: Action) -> bool:
        game.apply(action, seat=seat)
        return game.view(0).phase not in (OVER, WAITING)

    decided = False
    while not decided:
        seat = game.turn
        decided = seat == 1
        if not step(seat, policy(game, seat)):
            return False
    if game.turn != 0 or not step(0, policy(game, 0)) or game.turn != 1:
        return False
    bot = make_bot("medium", seed=seeds.randrange(2**32))
    if not step(1, bot.choose(game.view(1), game.legal_actions())):
        return False
    hers = 0
    while (view := game.view(0)).phase not in (OVER, WAITING):
        seat = game.turn
        hers += seat == 1
        game.apply(policy(game, seat), seat=seat)
    return view.phase == OVER and view.winner == 1 and hers > 0


def click_one_decision(page: Any, seconds: float = 10) -> None:
    """The page makes the decision it owes now, by clicking, as :func:`play_both_to_game_over` does."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "no decision to make"
        with contextlib.suppress(playwright_api.Error):
            if page.locator("[data-action^='declare-']").count():
                hand = [c.get_attribute("data-card") for c in page.locator("#hand .hand-card").all()]
                ranks = [card[:-1] for card in hand]
                kind = {3: "tringa", 2: "ronda"}.get(max(ranks.count(r) for r in ranks), "none")
                page.click(f"[data-action='declare-{kind}']", timeout=1_000)
                return
            if page.locator("#hand .hand-card.playable").count():
                page.locator("#hand .hand-card.playable").first.click(timeout=1_000)
                return
        page.wait_for_timeout(50)


def test_a_person_back_after_the_grace_period_is_told_it_counts_as_left_and_the_end_says_she_played_it(
    browser: Any, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dana reads that Eve is away, and how long the table waits for her, then that the computer plays for her —
    never that Eve is playing; Eve, back, reads at once that she counts as having left and that the game, if rated,
    is a loss for her whatever the score, and that she may play on (in English, French and Arabic); at the end,
    where Eve reached the target herself, neither end screen credits the computer with it: each says the rules'
    result, as the play-by-play says it, and why it counts as left all the same."""
    rules = Rules(players=2, target=3)
    deal_every_game(monkeypatch, dealt(rules, eve_back_wins))
    seed_the_stand_in(monkeypatch)
    with open_page(browser, **DESKTOP) as dana, open_page(browser, **DESKTOP) as eve:
        keep_name(dana, url, "Dana")
        keep_name(eve, url, "Eve")
        table_id = make_table_for_people(dana, [eve], url, target=rules.target)
        decide_until([dana, eve], eve)
        eve.goto("about:blank")  # Eve closes her page
        dana.wait_for_selector(".seat[data-seat='1'].away")
        click_one_decision(dana)  # then it is Eve's turn, while she is away

        # Away within the grace period: nobody plays for her; the table waits, and says how long.
        away = re.compile(r"^Eve is away: the computer plays for them unless they are back within [1-6] s\.$")
        eve_seat = dana.locator(".seat[data-seat='1']")
        playwright_api.expect(dana.locator("#turn")).to_have_text(away)
        playwright_api.expect(eve_seat.locator(".grace-left")).to_have_text(re.compile(r"^[1-6] s to come back$"))
        assert eve_seat.locator(".thinking").count() == 0  # no dots: nobody is thinking for her
        assert "playing" not in dana.inner_text("#turn")

        # Past it: the computer plays for her, and the page says so, not that Eve plays.
        playwright_api.expect(dana.locator("#turn")).to_have_text("The computer is playing for Eve…", timeout=10_000)
        assert eve_seat.locator(".thinking").inner_text() == "the computer is playing"
        seats = get_json(f"{url}/api/tables/{table_id}")["seats"]
        assert (seats[1]["stand_in"], seats[1]["left"]) == (True, "away")
        dana.wait_for_selector("#hand .hand-card.playable", timeout=10_000)  # the stand-in made Eve's move

        # Eve is back: told at once, before she plays on.
        eve.goto(f"{url}/t/{table_id}")
        note = eve.locator("#left-note")
        playwright_api.expect(note).to_have_text(
            "You were away for more than 6 s, so you count as having left this game: if it is rated, it is a loss for"
            " you, whatever the score. You may still play on."
        )
        eve.select_option("#language", "fr")
        playwright_api.expect(note).to_have_text(
            "Votre absence a duré plus de 6 s : vous comptez comme ayant quitté la partie ; si elle est classée, elle"
            " compte comme perdue pour vous, quel que soit le score. Vous pouvez continuer à jouer."
        )
        eve.select_option("#language", "ar")
        playwright_api.expect(note).to_have_text(
            "غبت أكثر من 6 ث، فتُحتسب كمن غادر هذه المباراة: إن كانت مصنّفة تُحتسب خسارة لك مهما كانت النتيجة."
            " يمكنك مواصلة اللعب."
        )
        eve.select_option("#language", "en")
        assert dana.locator("#left-note").count() == 0  # hers alone

        play_both_to_game_over([dana, eve], seconds=120)
        summary = get_json(f"{url}/api/tables/{table_id}")
        assert (summary["winner"], summary["rules"]["target"]) == (1, 3), summary
        assert (summary["seats"][1]["left"], summary["seats"][1]["ended_by_stand_in"]) == ("away", False)

        hers = end_screen(eve)
        assert hers["title"] == "You left the game: counted as a loss"
        assert hers["verdict"] == (
            "You reached 3 first. You had been away for more than 6 s: that counts as having left."
        )
        assert eve.locator("#log li").last.inner_text() == "Game over — you win"  # the play-by-play agrees
        theirs = end_screen(dana)
        assert theirs["title"] == "Eve left the game: you win"
        assert theirs["verdict"] == (
            "Eve reached 3 first. Eve had been away for more than 6 s: that counts as having left."
        )
        for screen in (hers, theirs):
            assert "computer" not in screen["text"], screen["text"]
        dana.select_option("#language", "fr")
        assert end_screen(dana)["verdict"] == (
            "Eve a atteint 3 en premier. L'absence d'Eve avait duré plus de 6 s : cela compte comme avoir quitté"
            " la partie."
        )
