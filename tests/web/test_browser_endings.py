"""The end of a game in Debian's chromium, read as each person reads it: a 4-player game one player left (the
leaver, their partner, an opponent, a watcher), a game watched to its end, and a game lost by challenging a true
declaration (R8.8). Each screen says who won once, and how once, with nothing beside it that says otherwise (a
trophy above "counted as a loss", a rating that went down under "you win")."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

import test_browser
import test_browser_ratings
from playwright import sync_api as playwright_api
from test_browser import DESKTOP, get_json, open_page, served
from test_browser_ratings import decide_until, keep_name, leave, make_table_for_people, play_both_to_game_over

from ronda import Game, Rules
from ronda.bots import make_bot
from ronda.engine.actions import Action, Challenge, Declare, Play
from ronda.engine.deck import shuffled_deck
from ronda.engine.game import OVER, WAITING

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "endings")


@pytest.fixture
def leaving_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose grace period is short (a page closed leaves the game at once), one for each test: the same
    people keep the same names in each case of a test (a kept name is a server's)."""
    yield from test_browser_ratings.leaving_server(tmp_path_factory)


def dealt(rules: Rules, wanted: Callable[[Game], bool]) -> list[int]:
    """A deck whose first deal is ``wanted`` (the lobby's first dealer is the last seat), found by dealing it."""
    for seed in range(100_000):
        deck = shuffled_deck(rules, random.Random(seed))
        if wanted(Game(rules, decks=[deck], dealer=rules.players - 1)):
            return deck
    raise AssertionError("no such deal")


def deal_every_game(monkeypatch: pytest.MonkeyPatch, deck: list[int]) -> None:
    """Every game the lobby starts, and every round after its first, deals ``deck``."""
    import ronda.interfaces.web.lobby as lobby_module
    import ronda.interfaces.web.tables as tables_module

    for module in (lobby_module, tables_module):
        monkeypatch.setattr(module, "shuffled_deck", lambda rules, rng: list(deck))


STAND_IN_SEEDS = 2026
"""The seed of the random numbers the server draws for its bots' decisions (one per decision, each the seed of a
fresh bot; the medium stand-in breaks ties with it) while :func:`seed_the_stand_in` holds."""


def seed_the_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server draws its bots' seeds from :data:`STAND_IN_SEEDS`, so that the stand-in plays as
    :func:`side_that_wins` plays it. Its decks come from :func:`deal_every_game`: only the bots draw from it."""
    import ronda.interfaces.web.tables as tables_module

    monkeypatch.setattr(tables_module, "SECURE_RNG", random.Random(STAND_IN_SEEDS))


def side_that_wins(game: Game, leaver: int) -> int | None:
    """The side that wins ``game`` in its first round as the four-player test plays it, or ``None`` if none does (a
    longer game: not wanted). Every person declares truly and plays the first card of their hand as the page shows
    it (:func:`play_both_to_game_over`), until ``leaver`` has made one decision (:func:`decide_until`); from then
    the medium stand-in plays the leaver's seat with the server's seeds (:func:`seed_the_stand_in`)."""
    seeds = random.Random(STAND_IN_SEEDS)
    decided = False
    while (view := game.view(0)).phase not in (OVER, WAITING):
        seat, legal = game.turn, game.legal_actions()
        mine = game.view(seat)
        action: Action
        if seat == leaver and decided:
            action = make_bot("medium", seed=seeds.randrange(2**32)).choose(mine, legal)
        elif any(isinstance(a, Declare) for a in legal):
            (kind,) = mine.possible_kinds(seat)
            action = Declare(kind)
        else:
            action = Play(next(iter(mine.hand)))
        decided = decided or seat == leaver
        game.apply(action, seat=seat)
    return view.winner if view.phase == OVER else None


def end_screen(page: Any) -> dict[str, Any]:
    """What the end-of-game dialog shows: its headline, its verdict, whether a trophy (and a winner's) stands above
    them, the page's own rating change, and the whole dialog's text."""
    summary = page.locator("#summary[data-kind='game']")
    summary.locator("#rating-changes, #unrated").first.wait_for()  # a rated game's changes come once stored
    own = summary.locator("#rating-changes .own")
    return {
        "title": summary.locator("#summary-title").inner_text(),
        "verdict": summary.locator(".verdict").inner_text(),
        "trophy": "won" if summary.locator(".trophy.won").count() else bool(summary.locator(".trophy").count()),
        "rating": own.locator(".delta").inner_text() if own.count() else None,
        "text": summary.inner_text(),
    }


def said_once(screen: dict[str, Any], target: int | None) -> None:
    """The target is said once, in the verdict (an audit: "First to 41: You.", and "first to 41" below it)."""
    assert "first to" not in screen["text"].lower(), screen["text"]
    if target is not None:
        assert screen["text"].count(f"{target} first") == 1, screen["text"]


HIS_SIDE_WINS = {
    "side": 1,
    "leaver": "Your side reached 3 first, with the computer playing your seat after you left.",
    "partner": "Your side reached 3 first, with the computer playing Bilal's seat.",
    "opponent": "Bilal & Dounia reached 3 first, with the computer playing Bilal's seat.",
    "watcher": "Bilal & Dounia reached 3 first, with the computer playing Bilal's seat.",
    "opponent_fr": "Bilal & Dounia ont atteint 3 en premier, l'ordinateur jouant la place de Bilal.",
}
"""Bilal's side reaches the target, his seat played by the computer: it is named, then whose seat the computer
played; his side still loses the game."""
THE_OTHER_SIDE_WINS = {
    "side": 0,
    "leaver": "The other side reached 3 first.",
    "partner": "The other side reached 3 first.",
    "opponent": "Your side reached 3 first.",
    "watcher": "Amira & Chadia reached 3 first.",
    "opponent_fr": "Votre camp a atteint 3 en premier.",
}
"""Amira and Chadia reach the target: nobody reads of the computer's play."""


@pytest.mark.parametrize(
    "ending", [HIS_SIDE_WINS, THE_OTHER_SIDE_WINS], ids=["his-side-reaches-the-target", "the-other-side-does"]
)
def test_a_four_player_game_a_player_left_reads_lost_on_their_side_and_won_on_the_other(
    browser: Any, leaving_url: str, monkeypatch: pytest.MonkeyPatch, ending: dict[str, Any]
) -> None:
    """Bilal (seat 1) declares, then closes his page; the computer plays his seat to the end. He, back, and his
    partner Dounia read the game lost (their side loses it, whoever reached the target: ratings and players'
    pages count it so), Amira and Chadia read it won, a watcher reads who left; none of them reads a trophy or a
    rating change that says otherwise. Each ending is read: the deck (and the stand-in's seeds) are those on which
    the side of ``ending`` reaches the target, found by playing the game as this test plays it."""
    url = leaving_url
    rules = Rules(players=4, target=3)

    def wanted(game: Game) -> bool:
        # Nobody's first hand holds a ronda or a tringa: no declaration ends the game before Bilal has decided.
        no_declaration = all(game.view(s).possible_kinds(s) == {"none"} for s in range(4))
        return no_declaration and side_that_wins(game, leaver=1) == ending["side"]

    deal_every_game(monkeypatch, dealt(rules, wanted))
    seed_the_stand_in(monkeypatch)
    names = ["Amira", "Bilal", "Chadia", "Dounia"]
    with (
        open_page(browser, **DESKTOP) as amira,
        open_page(browser, **DESKTOP) as bilal,
        open_page(browser, **DESKTOP) as chadia,
        open_page(browser, **DESKTOP) as dounia,
        open_page(browser, **DESKTOP) as watcher,
    ):
        people = [amira, bilal, chadia, dounia]
        for page, name in zip(people, names, strict=True):
            keep_name(page, url, name)
        table_id = make_table_for_people(amira, people[1:], url, target=rules.target)
        decide_until(people, bilal)
        leave(bilal, url, table_id, 1)
        # His partner is told while the game goes on: the loss is the side's (her page said nothing: an audit).
        note = "Bilal counts as having left this game: if it is rated, it is a loss for your side, whatever the score."
        dounia.wait_for_selector("#left-note", timeout=15_000)
        assert dounia.inner_text("#left-note") == note
        assert not amira.locator("#left-note").count()  # the other side's business is the end screen's
        play_both_to_game_over([amira, chadia, dounia], seconds=240)
        bilal.goto(f"{url}/t/{table_id}")  # Bilal comes back to the table
        watcher.goto(f"{url}/t/{table_id}?watch")
        summary = get_json(f"{url}/api/tables/{table_id}")
        assert (summary["winner"], summary["rules"]["target"]) == (ending["side"], 3), summary
        assert [(c["result"], c["abandoned"]) for c in summary["ratings"]] == [
            ("won", False), ("lost", True), ("won", False), ("lost", False),
        ]  # fmt: skip

        left = end_screen(bilal)
        assert (left["title"], left["verdict"]) == ("You left the game: counted as a loss", ending["leaver"])
        assert left["trophy"] is False and left["rating"].startswith("\u2212")
        assert "(left the game: counted as lost)" in bilal.inner_text("#summary #rating-changes .own")

        partner = end_screen(dounia)
        assert (partner["title"], partner["verdict"]) == ("Bilal left the game: your side loses", ending["partner"])
        assert partner["trophy"] is False and partner["rating"].startswith("\u2212")

        for page in (amira, chadia):
            opponent = end_screen(page)
            assert (opponent["title"], opponent["verdict"]) == ("Bilal left the game: you win", ending["opponent"])
            assert opponent["trophy"] == "won" and opponent["rating"].startswith("+")

        watching = end_screen(watcher)
        assert (watching["title"], watching["verdict"]) == ("Bilal left the game: counted as a loss", ending["watcher"])
        assert watching["trophy"] is False and watching["rating"] is None

        for screen in (left, partner, opponent, watching):
            said_once(screen, 3)
            assert "You win!" not in screen["text"] and "You lose" not in screen["text"]  # the rules' result unsaid

        chadia.select_option("#language", "fr")
        assert end_screen(chadia)["title"] == "Bilal a quitté la partie : vous gagnez"
        assert end_screen(chadia)["verdict"] == ending["opponent_fr"]


def seat_and_watch(url: str, people: dict[str, Any], watcher: Any, target: int) -> str:
    """Each of ``people`` (name: page) keeps their name and sits at a table the first makes, played to
    ``target``, with ``watcher`` watching it; the table's id."""
    for name, page in people.items():
        keep_name(page, url, name)
    host, *others = people.values()
    table_id = make_table_for_people(host, others, url, target=target)
    watcher.goto(f"{url}/t/{table_id}?watch")
    watcher.wait_for_selector(".watch-note")
    return table_id


def test_a_game_watched_to_its_end_says_who_won_once_to_the_watcher_and_to_each_player(
    browser: Any, url: str, tmp_path: Path
) -> None:
    """Two people play to 3 while a third person watches. The winner reads "You win!" and how ("You reached 3
    first."), the loser and the watcher who reached it; in French the winner is "vous" inside the sentence, never
    "Vous" as a name ("Premier à 3 : Vous."), and the play-by-play's last line says the same."""
    with (
        open_page(browser, **DESKTOP) as idris,
        open_page(browser, **DESKTOP) as jamila,
        open_page(browser, **DESKTOP) as watcher,
    ):
        table_id = seat_and_watch(url, {"Idris": idris, "Jamila": jamila}, watcher, target=3)
        play_both_to_game_over([idris, jamila], seconds=120)
        winner = get_json(f"{url}/api/tables/{table_id}")["winner"]
        won, lost = (idris, jamila) if winner == 0 else (jamila, idris)
        name = "Idris" if winner == 0 else "Jamila"

        screen = end_screen(won)
        assert (screen["title"], screen["verdict"], screen["trophy"]) == ("You win!", "You reached 3 first.", "won")
        assert screen["rating"].startswith("+")
        said_once(screen, 3)
        assert won.locator("#log li").last.inner_text() == "Game over — you win"

        screen = end_screen(lost)
        assert (screen["title"], screen["verdict"], screen["trophy"]) == ("You lose", f"{name} reached 3 first.", False)
        assert screen["rating"].startswith("\u2212")
        said_once(screen, 3)
        assert lost.locator("#log li").last.inner_text() == f"Game over — winner: {name}"

        screen = end_screen(watcher)  # a watcher's trophy is the winner's, not theirs: no "won" on it
        watcher.screenshot(path=str(tmp_path / "watched.png"))
        assert (screen["title"], screen["verdict"], screen["trophy"]) == (
            f"{name} wins!",
            f"{name} reached 3 first.",
            True,
        )
        said_once(screen, 3)
        assert watcher.locator("#summary [data-action='rematch']").count() == 0  # nothing to play again: not a seat
        watcher.select_option("#language", "fr")
        screen = end_screen(watcher)
        assert (screen["title"], screen["verdict"]) == (f"{name} gagne !", f"{name} a atteint 3 en premier.")

        won.select_option("#language", "fr")
        screen = end_screen(won)
        assert (screen["title"], screen["verdict"]) == ("Vous gagnez !", "Vous avez atteint 3 en premier.")
        assert "Premier à" not in screen["text"] and "premier à" not in screen["text"]
        assert won.locator("#log li").last.inner_text() == "Partie terminée — vous gagnez"
        won.screenshot(path=str(tmp_path / "won-fr.png"))
        won.select_option("#language", "ar")
        screen = end_screen(won)
        assert (screen["title"], screen["verdict"]) == ("فزت!", "وصلت إلى 3 أولًا.")
        assert won.locator("#log li").last.inner_text() == "انتهت اللعبة — فزت"
        won.screenshot(path=str(tmp_path / "won-ar.png"))


def test_a_game_lost_by_challenging_a_true_ronda_says_so_to_each_and_never_that_a_target_was_reached(
    browser: Any, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.8: Karima challenges Latif's ronda, which his hand truly holds: his side wins at once. She reads the loss
    and why, he the win and why and who challenged, a watcher who won and how; nobody reads a target reached."""

    def ronda_to_challenge(game: Game) -> bool:
        # Karima holds nothing, Latif a ronda; once declared, Karima may challenge it and her cards do not prove it.
        if game.view(0).possible_kinds(0) != {"none"} or game.view(1).possible_kinds(1) != {"ronda"}:
            return False
        game.apply(Declare("none"), seat=0)
        game.apply(Declare("ronda"), seat=1)
        return Challenge(1) in game.legal_actions() and game.view(0).possible_kinds(1) != {"ronda"}

    deal_every_game(monkeypatch, dealt(Rules(players=2), ronda_to_challenge))
    with (
        open_page(browser, **DESKTOP) as karima,
        open_page(browser, **DESKTOP) as latif,
        open_page(browser, **DESKTOP) as watcher,
    ):
        table_id = seat_and_watch(url, {"Karima": karima, "Latif": latif}, watcher, target=41)
        karima.click("[data-action='declare-none']")
        latif.click("[data-action='declare-ronda']")
        # Latif's badge is read for what it says, where a screen reader read "Ronda" alone (an audit).
        karima.get_by_role("img", name="Declared for this deal: Ronda", exact=True).wait_for()
        karima.click("[data-action='challenge-1']")
        karima.click("[data-action='confirm-challenge']")

        screen = end_screen(karima)
        assert screen["title"] == "You lose"
        assert screen["verdict"] == "Lost on a failed challenge: you challenged a true declaration."
        assert screen["trophy"] is False
        assert karima.locator("#log li").last.inner_text() == "Game over on a failed challenge — winner: Latif"

        screen = end_screen(latif)
        assert screen["title"] == "You win!" and screen["trophy"] == "won"
        assert screen["verdict"] == "Won on a failed challenge: Karima challenged a true declaration."
        assert latif.locator("#log li").last.inner_text() == "Game over on a failed challenge — you win"

        screen = end_screen(watcher)
        assert (screen["title"], screen["verdict"]) == ("Latif wins!", "Latif won on a failed challenge.")
        for page in (karima, latif, watcher):
            said_once(end_screen(page), None)
            assert "reached" not in end_screen(page)["text"]  # nobody reached 41

        summary = get_json(f"{url}/api/tables/{table_id}")
        assert summary["winner"] == 1 and [c["result"] for c in summary["ratings"]] == ["lost", "won"]
        assert end_screen(karima)["rating"].startswith("\u2212") and end_screen(latif)["rating"].startswith("+")

        latif.select_option("#language", "fr")
        screen = end_screen(latif)
        assert (screen["title"], screen["verdict"]) == (
            "Vous gagnez !",
            "Gagné : Karima a contesté une annonce vraie.",
        )
        assert latif.locator("#log li").last.inner_text() == "Partie terminée sur une contestation perdue — vous gagnez"
        latif.select_option("#language", "ar")
        assert end_screen(latif)["title"] == "فزت!"
        assert latif.locator("#log li").last.inner_text() == "انتهت اللعبة بتحدٍّ خاسر — فزت"


def test_an_invitation_to_four_says_each_seats_side_and_lets_the_friend_choose_it(browser: Any, url: str) -> None:
    """An audit of four friends: the invitation said "free seat" three times and sat a friend in the first free seat,
    so whoever came second played against the host, and a friend meant to be the host's partner had to come third,
    which no page said. Now each seat says its side, the host's partner or against the host, and the free seats are
    a choice (the first by default, as before)."""
    with open_page(browser, **DESKTOP) as amira, open_page(browser, **DESKTOP) as dounia:
        amira.goto(url)
        amira.fill("#me-name", "Amira")
        amira.click("label[for='players-4']")
        for seat in (1, 2, 3):
            amira.select_option(f"[data-seat-kind='{seat}']", "human")
        amira.click("#create")
        link = amira.locator("#invite-link")
        link.wait_for()
        dounia.goto(link.input_value())
        dounia.wait_for_selector("#join .seat-choice")
        seats = [" ".join(item.inner_text().split()) for item in dounia.locator("#join .seat-list li").all()]
        assert seats == [
            "1 Amira", "2 free seat · against Amira", "3 free seat · Amira's partner", "4 free seat · against Amira",
        ]  # fmt: skip
        assert dounia.is_checked("#join-seat-1")  # the first free seat unless another is chosen
        dounia.check("#join-seat-2")  # Amira's partner
        dounia.fill("#join-name", "Dounia")
        dounia.click("#join-button")
        dounia.wait_for_selector("#waiting")
        table_id = link.input_value().rstrip("/").split("/t/")[1].split("?")[0]
        seated = get_json(f"{url}/api/tables/{table_id}")["seats"]
        assert [(s["seat"], s["name"]) for s in seated if s["taken"]] == [(0, "Amira"), (2, "Dounia")]
        host_sees = amira.locator("#waiting .seat-list li").nth(2)
        playwright_api.expect(host_sees).to_contain_text("Dounia")  # on the host's waiting list too
