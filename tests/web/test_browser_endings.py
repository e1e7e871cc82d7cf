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
from test_browser import DESKTOP, get_json, open_page, served
from test_browser_ratings import decide_until, keep_name, leave, make_table_for_people, play_both_to_game_over

from ronda import Game, Rules
from ronda.engine.actions import Challenge, Declare
from ronda.engine.deck import shuffled_deck

browser = test_browser.browser  # the chromium of the browser tests, launched once a module
pytestmark = test_browser.pytestmark  # skipped without chromium, as they are
leaving_url = test_browser_ratings.leaving_url  # a short grace period: a page closed leaves the game at once


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served(tmp_path_factory, "endings")


def dealt(rules: Rules, wanted: Callable[[Game], bool]) -> list[int]:
    """A deck whose first deal is ``wanted`` (the lobby's first dealer is the last seat), found by dealing it."""
    for seed in range(100_000):
        deck = shuffled_deck(rules, random.Random(seed))
        if wanted(Game(rules, decks=[deck], dealer=rules.players - 1)):
            return deck
    raise AssertionError("no such deal")


def deal_every_game(monkeypatch: pytest.MonkeyPatch, deck: list[int]) -> None:
    import ronda.interfaces.web.lobby as lobby_module

    monkeypatch.setattr(lobby_module, "shuffled_deck", lambda rules, rng: list(deck))


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


def test_a_four_player_game_a_player_left_reads_lost_on_their_side_and_won_on_the_other(
    browser: Any, leaving_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bilal (seat 1) declares, then closes his page; the computer plays his seat to the end. He, back, and his
    partner Dounia read the game lost (their side loses it, whoever reached the target: ratings and players'
    pages count it so), Amira and Chadia read it won, a watcher reads who left; none of them reads a trophy or a
    rating change that says otherwise."""
    url = leaving_url
    # Nobody's first hand holds a ronda or a tringa: no declaration ends the game before Bilal has decided.
    deal_every_game(
        monkeypatch, dealt(Rules(players=4), lambda g: all(g.view(s).possible_kinds(s) == {"none"} for s in range(4)))
    )
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
        table_id = make_table_for_people(amira, people[1:], url, target=3)
        decide_until(people, bilal)
        leave(bilal, url, table_id, 1)
        play_both_to_game_over([amira, chadia, dounia], seconds=240)
        bilal.goto(f"{url}/t/{table_id}")  # Bilal comes back to the table
        watcher.goto(f"{url}/t/{table_id}?watch")
        summary = get_json(f"{url}/api/tables/{table_id}")
        assert [(c["result"], c["abandoned"]) for c in summary["ratings"]] == [
            ("won", False), ("lost", True), ("won", False), ("lost", False),
        ]  # fmt: skip
        stand_in_won = summary["winner"] == 1  # Bilal's side reached the target, his seat played by the computer
        # A side reaches the target: it is named, then whose seat the computer played.
        by_his_side = "Bilal & Dounia reached 3 first, with the computer playing Bilal's seat."

        left = end_screen(bilal)
        assert left["title"] == "You left the game: counted as a loss"
        assert left["verdict"] == (
            "Your side reached 3 first, with the computer playing your seat after you left."
            if stand_in_won
            else "The other side reached 3 first."
        )
        assert left["trophy"] is False and left["rating"].startswith("\u2212")
        assert "(left the game: counted as lost)" in bilal.inner_text("#summary #rating-changes .own")

        partner = end_screen(dounia)
        assert partner["title"] == "Bilal left the game: your side loses"
        assert partner["verdict"] == (
            "Your side reached 3 first, with the computer playing Bilal's seat."
            if stand_in_won
            else "The other side reached 3 first."
        )
        assert partner["trophy"] is False and partner["rating"].startswith("\u2212")

        for page in (amira, chadia):
            opponent = end_screen(page)
            assert opponent["title"] == "Bilal left the game: you win"
            assert opponent["verdict"] == (by_his_side if stand_in_won else "Your side reached 3 first.")
            assert opponent["trophy"] == "won" and opponent["rating"].startswith("+")

        watching = end_screen(watcher)
        assert watching["title"] == "Bilal left the game: counted as a loss"
        assert watching["verdict"] == (by_his_side if stand_in_won else "Amira & Chadia reached 3 first.")
        assert watching["trophy"] is False and watching["rating"] is None

        for screen in (left, partner, opponent, watching):
            said_once(screen, 3)
            assert "You win!" not in screen["text"] and "You lose" not in screen["text"]  # the rules' result unsaid

        chadia.select_option("#language", "fr")
        assert end_screen(chadia)["title"] == "Bilal a quitté la partie : vous gagnez"
        assert end_screen(chadia)["verdict"] == (
            "Bilal & Dounia ont atteint 3 en premier, l'ordinateur jouant la place de Bilal."
            if stand_in_won
            else "Votre camp a atteint 3 en premier."
        )


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
    and why, he the win and why, a watcher who won and how; nobody reads a target reached."""

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
        karima.click("[data-action='challenge-1']")
        karima.click("[data-action='confirm-challenge']")

        screen = end_screen(karima)
        assert screen["title"] == "You lose"
        assert screen["verdict"] == "Lost on a failed challenge: a true declaration was challenged."
        assert screen["trophy"] is False
        assert karima.locator("#log li").last.inner_text() == "Game over on a failed challenge — winner: Latif"

        screen = end_screen(latif)
        assert screen["title"] == "You win!" and screen["trophy"] == "won"
        assert screen["verdict"] == "Won on a failed challenge: the other side challenged a true declaration."
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
            "Gagné : l'autre camp a contesté une annonce vraie.",
        )
        assert latif.locator("#log li").last.inner_text() == "Partie terminée sur une contestation perdue — vous gagnez"
        latif.select_option("#language", "ar")
        assert end_screen(latif)["title"] == "فزت!"
        assert latif.locator("#log li").last.inner_text() == "انتهت اللعبة بتحدٍّ خاسر — فزت"
