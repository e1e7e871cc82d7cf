"""What a newcomer's audit of ``ronda play`` found on the full screen, each read off the screen as a person reads it.

Each test plays a short game by keys (a known seed, a low target, or a bluff
called at the first turn so that the game ends at once) and reads the
characters the screen shows: the play-by-play's box, the prompt, the footer,
a question on top.
"""

from __future__ import annotations

from extras import require

require("tui")

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from terminal_helpers import bluff_session, boxed, quick_settings, screen_text
from test_app import settle, until

from ronda.analysis.search import Method
from ronda.interfaces.terminal.app import MessageScreen, RondaApp
from ronda.interfaces.terminal.session import Session, Settings
from ronda.interfaces.terminal.widgets import HandView, TableView


def run(scenario: Any) -> None:
    asyncio.run(scenario())


def words(text: str) -> str:
    """Text with every run of spaces and line ends made one space: how it reads once wrapped in a box."""
    return " ".join(text.split())


def said(app: RondaApp) -> str:
    """The screen's words as one line, the boxes' side borders left out: a sentence wrapped beside a pane reads
    whole."""
    return " ".join(word for word in screen_text(app).split() if word not in {"│", "┃"})


def play_by_play(app: RondaApp) -> str:
    return boxed(screen_text(app), "Play by play")


async def called_bluff(pilot: Any, app: RondaApp) -> None:
    """From the first turn of :func:`bluff_session` with a true ronda: declare none, challenge it, lose the game
    (R8.8), and look at the board behind the summary."""
    await settle(pilot, app)
    await pilot.press("n")
    await settle(pilot, app)
    await pilot.press("c", "y")
    await settle(pilot, app)
    assert isinstance(app.screen, MessageScreen) and "Game over" in screen_text(app)


@pytest.mark.parametrize("close_first", [False, True], ids=["hint-open", "hint-closed-by-esc"])
def test_your_own_move_after_a_hint_is_in_the_play_by_play(close_first: bool) -> None:
    """``--target 5 --seed 123`` at 100x32, then n, h, 2: the play-by-play showed seat 1's answer but not
    "You play 4c, take 4b", which came while the hint had the pane's place. Esc did not close the hint."""

    async def scenario() -> None:
        settings = Settings.make(2, 0, "medium", variants={"target": 5}, seed=123, pace=0)
        session = Session(settings)
        session.method = Method(guesses=6)
        app = RondaApp(session=session)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await settle(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: "─ Hint ─" in screen_text(app))
            assert "Play by play" not in screen_text(app)  # the hint has its place
            if close_first:
                await pilot.press("escape")
                await pilot.pause()
                text = screen_text(app)
                assert "─ Hint ─" not in text and "Hint —" not in text and "Play by play" in text
            card = session.view.hand.names()[1]
            await pilot.press("2")
            await settle(pilot, app)
            log = words(play_by_play(app))
            assert re.search(rf"You (play {card}, take|drop {card})", log), f"your move is not told: {log!r}"

    run(scenario)


def test_play_again_starts_with_nothing_said_about_the_game_before() -> None:
    """A key pressed after the end ("The game is over: p plays again…") stood over the next game's first prompt."""

    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 11c 2b"))
        async with app.run_test(size=(100, 32)) as pilot:
            await called_bluff(pilot, app)
            await pilot.press("escape", "c")
            await pilot.pause()
            assert "The game is over: p plays again" in screen_text(app)
            await pilot.press("p")  # the game is not saved: p again plays on without it
            await pilot.pause()
            await pilot.press("p")
            await settle(pilot, app)
            assert app.session is not None and not app.session.over
            text = screen_text(app)
            assert "The game is over" not in text
            assert "Keys: n none · r ronda · t tringa" in text

    run(scenario)


def test_the_play_by_play_stays_at_its_end_when_the_terminal_is_made_smaller() -> None:
    """At game over, Esc, then the terminal made shorter: the pane showed its first lines, "Game over" out of sight."""

    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 11c 2b"))
        async with app.run_test(size=(100, 40)) as pilot:
            await called_bluff(pilot, app)
            await pilot.press("escape")
            await pilot.pause()
            assert "by a failed challenge" in words(play_by_play(app))  # all of it fits
            await pilot.resize_terminal(100, 16)
            await pilot.pause()
            await pilot.pause()
            log = words(play_by_play(app))
            assert "Game over: seat 1 wins, by a failed challenge" in log, f"the end is out of sight: {log!r}"
            assert "Ronda, 2 players" not in log  # the pane is shorter than the story: its end is what shows

    run(scenario)


async def palette_quit(pilot: Any) -> None:
    """Ctrl+P, "quit", Enter: the command palette's Quit."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"quit")
    await pilot.pause()
    await pilot.pause()
    await pilot.press("enter")
    for _ in range(5):
        await pilot.pause()


QUIT_QUESTION = "Quit without saving? Press q again to quit, or s to save first."


def test_every_way_to_quit_an_unsaved_game_asks_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """q asked, but the command palette's Quit then quit at once (the question was still "asked"), and a quit
    from the rules screen asked under it, where the question could not be read."""
    monkeypatch.chdir(tmp_path)

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=2), setup=False)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")  # a move: something to lose
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            assert QUIT_QUESTION in said(app)
            await pilot.press("escape")  # go on playing
            await pilot.pause()
            await palette_quit(pilot)
            assert app.is_running, "the command palette's Quit quit without asking"
            assert QUIT_QUESTION in said(app)
            await pilot.press("escape")
            await pilot.pause()
            assert QUIT_QUESTION not in said(app)
            await pilot.press("question_mark")
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.is_running and QUIT_QUESTION in said(app)  # on top of the rules, read
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running
        assert not list(tmp_path.glob("*.json"))  # quit without saving, as answered

    run(scenario)


def test_leaving_a_finished_game_with_moves_not_saved_asks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--save mygame.json``, s at the first move, then to the end: p, n and q left it at once, and the file kept
    the game as it was at the first move. A game never saved is not kept: p after it asks nothing."""
    monkeypatch.chdir(tmp_path)

    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 11c 2b"), save_path="mygame.json")
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, app)
            await pilot.press("s")
            await pilot.pause()
            saved = json.loads((tmp_path / "mygame.json").read_text())
            await called_bluff(pilot, app)
            for key, question in (
                ("q", QUIT_QUESTION),
                ("n", "A new game without saving this one? Press n again"),
                ("p", "Play again without saving this game? Press p again"),
            ):
                await pilot.press(key)
                await pilot.pause()
                text = words(screen_text(app))
                assert question in text and "s saves it to mygame.json" in text, f"{key} did not ask: {text!r}"
                assert app.is_running and app.session is not None and app.session.over
                await pilot.press("escape")
                await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            await pilot.press("s")  # save first
            await pilot.pause()
            assert "Saved to mygame.json" in words(screen_text(app))
            await pilot.press("p")  # saved: nothing to ask
            await settle(pilot, app)
            assert app.session is not None and not app.session.over and app.session.sitting == 2
        assert saved["rounds"][0]["actions"] == []
        app = RondaApp(session=bluff_session("11o 11c 2b"))
        async with app.run_test(size=(100, 32)) as pilot:
            await called_bluff(pilot, app)
            await pilot.press("p")
            await settle(pilot, app)
            assert app.session is not None and not app.session.over and app.session.sitting == 2
        finished = json.loads((tmp_path / "mygame.json").read_text())
        assert finished["rounds"][0]["actions"][-1] == {"seat": 0, "challenge": 1}  # the game to its end

    run(scenario)


def test_a_game_played_after_a_resumed_one_is_saved_by_the_resumed_file_s_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--help``: "a game played again after it is saved to game-2.json"; after ``--resume g.json`` it went to
    ronda-DATE-TIME.json."""
    monkeypatch.chdir(tmp_path)
    first = bluff_session("11o 11c 2b")
    first.save("g.json")

    async def scenario() -> None:
        app = RondaApp(session=Session.resume("g.json", pace=0))
        async with app.run_test(size=(100, 32)) as pilot:
            await called_bluff(pilot, app)
            await pilot.press("p")
            await pilot.pause()
            await pilot.press("p")  # not saved: asked, and played again all the same
            await settle(pilot, app)
            assert app.session is not None and not app.session.over
            await pilot.press("s")
            await pilot.pause()
            assert "Saved to g-2.json" in words(screen_text(app))

    run(scenario)
    assert (tmp_path / "g-2.json").exists() and not list(tmp_path.glob("ronda-*.json"))


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            {"variants": {"auto_declare": True, "ace_high": True, "target": 4}},
            "Classic rules with auto declare (every hand declares itself) and ace high (1s rank highest), target 4.",
        ),
        (
            {"variants": {"dealer_duty": True}},
            "Classic rules with dealer duty (the dealer's last card must capture), target 41.",
        ),
        (
            {"preset": "cards"},
            "Cards rules: classic with transfer scoring (points paid in captured cards), target 41.",
        ),
    ],
    ids=["variants", "dealer-duty", "cards"],
)
def test_the_play_by_play_names_the_rules_in_words_as_the_start_screen_does(options: dict[str, Any], said: str) -> None:
    """ "Rules with auto_declare=True, ace_high=True" (the code's words); "Advanced rules" for a game whose start
    screen said "Rules classic" with dealer duty ticked; "Cards rules", a name a newcomer cannot read."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(2, 0, "random", seed=3, pace=0, **options), setup=True)
        async with app.run_test(size=(150, 46)) as pilot:
            await pilot.pause()
            preset = options.get("preset", "classic")
            assert re.search(rf"Rules\s+{preset}\b", screen_text(app))  # what the start screen says
            await pilot.press("enter")  # Start
            await settle(pilot, app)
            log = words(play_by_play(app))
            assert said in log, f"the rules are not said in words: {log!r}"
            assert "=True" not in log

    run(scenario)


def test_a_contest_s_points_say_what_they_are_made_of() -> None:
    """Four-card hands, seed 3, a bluffed double ronda against a true tringa of 12s: "takes 7" ended the game at
    0-7, and nothing said 7 was 5 for the tringa and 2 for the double ronda (R8.4, R9.5)."""

    async def scenario() -> None:
        settings = Settings.make(2, 0, "medium", variants={"four_card_hands": True, "target": 5}, seed=3, pace=0)
        app = RondaApp(session=Session(settings))
        async with app.run_test(size=(150, 46)) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            await settle(pilot, app)
            await pilot.press("escape")  # the board behind the game's summary
            await pilot.pause()
            log = words(play_by_play(app))
            assert "takes 7 (5 for seat 1's tringa, 2 for your double ronda)" in log, log

    run(scenario)


def box_lines(lines: list[str], title: str) -> list[str]:
    """The lines inside the box whose top border carries ``title``, each as the screen breaks it (a round border,
    or the heavy one of the box whose turn it is)."""
    top = next(row for row, line in enumerate(lines) if f"─ {title} " in line or f"━ {title} " in line)
    heavy = f"━ {title} " in lines[top]
    at = lines[top].index(f"{'━' if heavy else '─'} {title} ")
    left, right = lines[top].rfind("┏" if heavy else "╭", 0, at), lines[top].find("┓" if heavy else "╮", at)
    inside = []
    for line in lines[top + 1 :]:
        if line[left] in "╰┗":
            return inside
        inside.append(line[left + 1 : right])
    return inside


def test_three_players_at_80_by_24_keep_each_fact_on_its_line_and_the_footer_offers_what_works() -> None:
    """Each seat's box wrapped "pile" from its number, "Your turn" took a second status line, and the footer of
    a finished game offered Play, Challenge and Hint."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=3, players=3), setup=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            lines = screen_text(app).splitlines()
            assert "Stock" in lines[0] and lines[1].lstrip().startswith("╭─ Seat 1"), lines[:2]  # one status line
            for seat in (1, 2):
                inside = box_lines(lines, f"Seat {seat} · random")
                assert any(re.search(r"pile \d+", line) for line in inside), f"seat {seat}'s pile is cut: {inside}"
        app = RondaApp(quick_settings(seed=3, players=4), setup=False)  # four boxes share the row
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for seat in (1, 2, 3):  # the play-by-play narrower with four players: each fact whole on its line
                inside = [line.strip() for line in box_lines(screen_text(app).splitlines(), f"Seat {seat}")]
                assert inside[0] == ("random · partner" if seat == 2 else "random"), inside  # "random ·" over "partner"
                assert re.fullmatch(r"▮+ \d+ · pile \d+", inside[1]), inside  # then its word over its number
        app = RondaApp(session=bluff_session("11o 11c 2b"))
        async with app.run_test(size=(80, 24)) as pilot:
            await called_bluff(pilot, app)
            await pilot.press("escape")
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            for gone in ("Play / declare", "Challenge", "Hint"):
                assert gone not in footer, f"the footer of a finished game offers {gone}: {footer!r}"
            for offered in ("p Play again", "n New game", "a Analysis", "q Quit", "s Save"):
                assert offered in footer, f"{offered} is not in the footer: {footer!r}"

    run(scenario)


async def settled_board(pilot: Any, app: RondaApp) -> None:
    """Wait until the board's fit is settled (asked again, it changes nothing): it is fitted again a moment after
    each state is drawn, once every part is laid out; one that went back and forth would never settle."""
    for _ in range(40):
        await asyncio.sleep(0.05)
        await pilot.pause()
        if isinstance(app.screen, MessageScreen) or not app.fit_board():
            return
    raise AssertionError("the board's fit never settled")


ONE_LINE_CARD = re.compile(r"[│┃║][0-9]{1,2}[oceb] +[♦♥♠♣][│┃║]")
"""A card drawn on one line (its corner between its sides), as the table draws it on a screen too short for more."""


@pytest.mark.parametrize("size", [(80, 24), (70, 24)])
def test_four_players_on_a_small_terminal_keep_the_other_seats_in_sight_by_drawing_the_board_tighter(
    size: tuple[int, int],
) -> None:
    """At 80x24 with four players the seat boxes, two rows of table cards, the hand and a declaration's prompt were
    taller than the screen: the board scrolled to its prompt and the other seats, the partner too, were out of
    sight at a third of the decisions or more (13 to 20 of 40 in three games: `benchmarks/terminal_fit.py
    --no-fit`). The table's cards are now drawn on one line each while that is needed, and whole again once there
    is room: the seats stay in sight but where the table can draw no tighter. At 70 columns the play-by-play's
    last lines under the table are fewer first (98 of 120 decisions out of sight before, none now)."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=1, players=4, level="medium"), setup=False)
        seen_one_line = back_to_compact = False
        out_of_sight = 0
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            for _ in range(40):
                if app.session is None or app.session.over:
                    break
                await settled_board(pilot, app)
                if isinstance(app.screen, MessageScreen):  # a round's summary: on to the next round
                    await pilot.press("enter")
                    await settle(pilot, app)
                    continue
                lines = screen_text(app).splitlines()
                table = box_lines(lines, "Table") if any("─ Table " in line for line in lines) else []
                one_line = any(ONE_LINE_CARD.search(line) for line in table)
                seen_one_line |= one_line
                back_to_compact |= seen_one_line and any("╭───────╮" in line for line in table)
                if not any(re.match(r"[╭┏][─━] Seat 1 ", line) for line in lines[1:3]):  # the seats scrolled away
                    out_of_sight += 1
                    tightest = app.query_one(TableView).tighter == app.query_one(TableView).tightest()
                    assert tightest and app.query_one(HandView).one_line, (
                        f"the seats are out of sight while the board could be drawn tighter:\n{lines}"
                    )
                await pilot.press("enter")
                await settle(pilot, app)
        assert seen_one_line, "the table never drew its cards on one line"
        assert back_to_compact, "the table's cards never came back to three lines once there was room"
        assert out_of_sight <= 2, f"the seats were out of sight at {out_of_sight} of 40 decisions (17 before the fit)"


ONE_LINE_HAND_CARD = re.compile(r"[│║][1-4] [0-9]{1,2}[oceb] +[♦♥♠♣][│║]")
"""A card of the hand drawn on one line, its key before its corner ("│1 4c  ♥│")."""


async def hand_fitted_by_the_app(pilot: Any, app: RondaApp) -> bool:
    """Whether, within two seconds, the app's own fits leave the hand one line a card only where its three-line
    cards would not fit, the board laid out as it is then (polled: a slow machine fits later, never otherwise)."""
    for _ in range(40):
        await asyncio.sleep(0.05)
        await pilot.pause()
        if isinstance(app.screen, MessageScreen) or not app.query_one(HandView).one_line:
            return True
        board, hand = app.query_one("#board"), app.query_one(HandView)
        parts = sum(part.outer_size.height for part in board.children if part.display)
        if parts - hand.outer_size.height + hand.outer_height(hand.size.width, False) > board.size.height:
            return True
    return False


DECISIONS = 16
"""Decisions read in the nineteen-line test: a round and the next round's first deal."""


def test_four_players_on_a_nineteen_line_terminal_draw_the_hand_one_line_a_card_and_whole_again_with_room() -> None:
    """At 80x20 with four players the board was taller than the screen at every decision, and with the table alone
    drawn tighter the seats were still out of sight at 79 of 120 (``benchmarks/terminal_fit.py --players 4 --size
    80x20``): the hand's cards are now drawn one line each as the last step, their keys before their corners, the
    chosen card between double sides; its three-line cards come back once there is room. With the play-by-play
    narrower for four players (each seat's facts on their lines) 80x20 needs that step at 10 of 120 decisions, the
    seats in sight at all; 80x19 needs it at 9 of these 16 (the seats out of sight at none; at most one allowed,
    with the board as tight as it goes)."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=3, players=4, level="medium"), setup=False)
        one_line_seen = three_lines_back = chosen_seen = False
        out_of_sight = 0
        async with app.run_test(size=(80, 19)) as pilot:
            await settle(pilot, app)
            for _ in range(DECISIONS):
                if app.session is None or app.session.over:
                    break
                # The hand one line a card only where three-line cards would not fit, once the app has fitted the
                # board itself: the board's scrollbar, two columns, once made the seats' words wrap taller, and the
                # hand stayed one line a card after the scrollbar had gone (this test asks for no fit here).
                assert await hand_fitted_by_the_app(pilot, app), screen_text(app)
                await settled_board(pilot, app)
                if isinstance(app.screen, MessageScreen):
                    await pilot.press("enter")
                    await settle(pilot, app)
                    continue
                lines = screen_text(app).splitlines()
                hand = box_lines(lines, "Your hand")
                one_line = any(ONE_LINE_HAND_CARD.search(line) for line in hand)
                assert one_line == app.query_one(HandView).one_line, hand  # what is drawn is what the fit chose
                if one_line:
                    one_line_seen = True
                    cards = len(app.session.view.hand)
                    assert sum(len(ONE_LINE_HAND_CARD.findall(line)) for line in hand) == cards, hand
                    if app.session.view.phase == "play" and cards > 1:
                        await pilot.press("right")  # the next card is chosen: drawn between ║ sides
                        await pilot.pause()
                        key = app.query_one(HandView).selected + 1
                        hand = box_lines(screen_text(app).splitlines(), "Your hand")
                        assert any(re.search(rf"║{key} [0-9]{{1,2}}[oceb] +[♦♥♠♣]║", line) for line in hand), hand
                        chosen_seen = True
                three_lines_back |= one_line_seen and any("╭─ 1 ───╮" in line for line in hand)
                if not any(re.match(r"[╭┏][─━] Seat 1 ", line) for line in lines[1:3]):
                    out_of_sight += 1
                    table = app.query_one(TableView)
                    assert table.tighter == table.tightest() and app.query_one(HandView).one_line, lines
                await pilot.press("enter")
                await settle(pilot, app)
        assert one_line_seen and chosen_seen, "the hand was never drawn one line a card, or no card was chosen so"
        assert three_lines_back, "the hand's three-line cards never came back once there was room"
        assert out_of_sight <= 1, f"seats out of sight at {out_of_sight} of {DECISIONS} decisions (all without the fit)"

    run(scenario)

    run(scenario)
