"""Every way into a full-screen game, read off the rendered screen as a person reads it.

Each test goes into a game the way a player does (the start screen, ``--no-setup``,
``--resume``, ``p`` to play again; 2, 3 and 4 players), makes the first moves by
keys, and reads the characters the screen shows: the "Play by play" box must tell
the game and the move just made, the "Your hand" box must show the hand, and the
prompt must say the keys. Nothing here reads a widget's state: a panel that holds
its lines but draws none (issue 25: the play-by-play stayed blank after the start
screen and after "play again") fails these tests. The last test drives the real
``ronda play`` in a terminal (tmux) and reads the terminal's own screen.
"""

from __future__ import annotations

from extras import require

require("tui")

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from terminal_helpers import bluff_session, boxed, quick_settings, screen_text, simple_choice
from test_app import SIZE, settle

import ronda
from ronda.engine.game import DECLARE
from ronda.interfaces.terminal.app import SETUP_KEYS, MessageScreen, RondaApp, SetupScreen
from ronda.interfaces.terminal.session import Session, Settings, parse_command
from ronda.interfaces.terminal.widgets import PlayLog


def words(text: str) -> str:
    """Text with every run of spaces and line ends made one space: how it reads once wrapped in a box."""
    return " ".join(text.split())


def play_by_play(app: RondaApp) -> str:
    return boxed(screen_text(app), "Play by play")


def assert_hand_and_prompt_shown(app: RondaApp) -> None:
    """Every card of the hand inside the "Your hand" box, and the keys to press under it."""
    session = app.session
    assert session is not None
    text = screen_text(app)
    hand = boxed(text, "Your hand")
    assert hand, "no 'Your hand' box on screen"
    for card in session.view.hand.names():
        assert card in hand, f"{card} is in the hand but not drawn in the hand's box"
    if session.view.phase == DECLARE:
        assert "Keys: n none · r ronda · t tringa" in text
    else:
        assert re.search(r"Keys: 1(-\d)? or ←/→ and Enter", text), "the prompt's keys are not on screen"


async def first_moves_on_screen(pilot: Any, app: RondaApp) -> None:
    """From the human's first turn: the game is told, a declaration and a card are played, each told on screen."""
    await settle(pilot, app)
    session = app.session
    assert session is not None
    log = play_by_play(app)
    assert words(session.title()) in log, f"the play-by-play does not tell the game: {log!r}"
    assert_hand_and_prompt_shown(app)
    if session.view.phase == DECLARE:
        truth = session.true_declaration()
        await pilot.press("enter")
        await settle(pilot, app)
        assert f"You declare {truth.replace('_', ' ')}" in play_by_play(app)
        assert_hand_and_prompt_shown(app)
    card = session.view.hand.names()[0]
    await pilot.press("1")
    await settle(pilot, app)
    assert not isinstance(app.screen, MessageScreen)
    log = play_by_play(app)
    assert re.search(rf"You (drop|play) {card}\b", log), f"the play of {card} is not in the play-by-play: {log!r}"
    assert_hand_and_prompt_shown(app)


def run(scenario: Any) -> None:
    asyncio.run(scenario())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_from_the_start_screen_the_play_by_play_tells_the_game(players: int) -> None:
    """The README's first command: the start screen, Start (Enter), declare (Enter), play 1."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(players, 0, "random", seed=3, pace=0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Ronda — a new game" in screen_text(app)
            await pilot.press("enter")  # Start has the focus
            await first_moves_on_screen(pilot, app)
            assert app.session is not None and app.session.rules.players == players

    run(scenario)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_without_the_start_screen_the_play_by_play_tells_the_game(players: int) -> None:
    """``ronda play --no-setup``."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=4, players=players), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await first_moves_on_screen(pilot, app)

    run(scenario)


def test_a_resumed_game_shows_its_story_so_far_and_goes_on(tmp_path: Path) -> None:
    """``ronda play --resume FILE``: what was played before the save is in the play-by-play, then the next moves."""
    session = Session(quick_settings(seed=12))
    for _ in range(2):  # declare, then play a card
        while not session.human_to_act():
            session.step_bot()
        command = simple_choice(session)
        action = parse_command(command, session)
        assert not isinstance(action, str)
        session.act(action)
    played = command.split()[-1]
    path = session.save(tmp_path / "game.json")

    async def scenario() -> None:
        app = RondaApp(session=Session.resume(path, pace=0))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert re.search(rf"You (drop|play) {played}\b", play_by_play(app))
            await first_moves_on_screen(pilot, app)

    run(scenario)


def test_after_play_again_the_play_by_play_tells_the_new_game() -> None:
    """``p`` on the game-over screen: the new game's story replaces the old one's on screen."""

    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 11c 2b"))  # seat 1's ronda is true: challenging it ends the game
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await settle(pilot, app)
            await pilot.press("c", "y")
            await settle(pilot, app)
            assert "Game over" in screen_text(app)
            await pilot.press("p")
            await first_moves_on_screen(pilot, app)
            assert "You challenge seat 1" not in play_by_play(app)  # the last game's story is gone

    run(scenario)


SRC = str(Path(ronda.__file__).resolve().parents[1])
"""The tree under test: the terminal's ``python3 -m ronda`` imports this ``ronda``, not an installed one."""

TMUX = shutil.which("tmux")


class Terminal:
    """A real terminal (a detached tmux session) running one command; its screen is read as characters."""

    def __init__(self, name: str, command: list[str], cwd: Path, size: tuple[int, int] = (140, 42)) -> None:
        assert TMUX is not None
        self.name = name
        env = f"PYTHONPATH={SRC}"
        line = " ".join([env, *(f"'{part}'" for part in command)])
        self.tmux("new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]), "-c", str(cwd), line)

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        return subprocess.run([TMUX, *args], capture_output=True, text=True, check=True, timeout=30).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def wait_for(self, pattern: str, box: str | None = None, seconds: float = 60) -> str:
        """Wait until ``pattern`` is on screen (inside ``box`` if named); then the screen (a generous bound)."""
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            where = boxed(screen, box) if box else screen
            if re.search(pattern, where):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"never on screen: {pattern!r} (in {box or 'the screen'}); it shows:\n{screen}")
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "kill-session", "-t", self.name], capture_output=True, check=False)


@pytest.mark.skipif(
    TMUX is None and not os.environ.get("RONDA_CI"),
    reason="tmux is not installed (Debian: apt-get install tmux); this test plays `ronda play` in a real terminal",
)
def test_ronda_play_in_a_real_terminal_tells_the_first_moves(tmp_path: Path) -> None:
    """The README's first command in a 140x42 terminal: start screen, Enter, Enter, 1, as issue 25 was found."""
    if TMUX is None:
        pytest.fail("RONDA_CI is set but tmux is not installed")
    command = [sys.executable, "-m", "ronda", "play", "--seed", "3", "--level", "random", "--pace", "0"]
    terminal = Terminal(f"ronda-test-{os.getpid()}", command, tmp_path)
    try:
        terminal.wait_for(r"Ronda — a new game")
        terminal.keys("Enter")  # Start
        terminal.wait_for(r"Keys: n none")
        terminal.wait_for(r"Ronda, 2 players: you are seat 0", box="Play by play")
        terminal.keys("Enter")  # declare what the hand holds
        screen = terminal.wait_for(r"Keys: 1-3")
        assert re.search(r"You declare (none|ronda|tringa)", boxed(screen, "Play by play"))
        hand = re.findall(r"\b(?:1[0-2]|[1-7])[oceb]\b", boxed(screen, "Your hand"))
        assert len(hand) == 3, f"three cards in the hand's box, read {hand}"
        terminal.keys("1")
        terminal.wait_for(rf"You (drop|play) {hand[0]}\b", box="Play by play")
        terminal.wait_for(r"Keys: 1-2")
    finally:
        terminal.close()


HINT_FIRST_OPTION = re.compile(r"1\. (play|declare) \S+: [\d.]+% to win")
"""A hint's best option, under the hand or in its pane beside the board (where its line wraps after "to win")."""


@pytest.mark.parametrize(("size", "players"), [((80, 24), 2), ((80, 24), 4), ((60, 20), 2)])
def test_on_a_small_terminal_the_hand_the_prompt_and_a_hint_stay_on_screen(size: tuple[int, int], players: int) -> None:
    """An audit at 80x24 found the prompt and the hand pushed off the screen once the table held two rows of
    cards, a hint shown only after PageDown, and at 60x20 the play-by-play cut and the prompt never seen. On a
    short terminal cards are drawn compact and the board keeps the prompt in view; on a narrow one the
    play-by-play gives the board its columns. Played by keys until the table holds five cards or more."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=11, players=players, level="random"), setup=False)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None
            assert ("Play by play" in screen_text(app)) == (size[0] >= 78)
            crowded = False
            for _ in range(60):
                assert_hand_and_prompt_shown(app)
                if session.over or isinstance(app.screen, MessageScreen):
                    break
                if session.view.phase != DECLARE and len(session.view.table) >= 5:
                    crowded = True
                    break
                await pilot.press("enter" if session.view.phase == DECLARE else "1")
                await settle(pilot, app)
                if isinstance(app.screen, MessageScreen):  # a round's summary: on to the next
                    await pilot.press("enter")
                    await settle(pilot, app)
            assert crowded, "the table never held five cards"
            if size[0] < 78:  # no play-by-play pane: its last lines stand under the table, what the bots just did
                last = app.query_one(PlayLog).entries[-1]
                assert words(last) in words(screen_text(app)), f"{last!r} is not on screen"
            await pilot.press("h")
            keys = re.compile(r"Keys: 1(-\d)? or ←/→ and Enter")
            # The board is fitted again once the hint's pane is laid out (a tenth of a second later, longer on a
            # loaded machine: the keys were read off screen between the two, with two test runs side by side).
            for _ in range(600):
                await pilot.pause(0.05)
                if HINT_FIRST_OPTION.search(screen_text(app)) and keys.search(screen_text(app)):
                    break
            text = screen_text(app)
            assert HINT_FIRST_OPTION.search(text), f"the hint's options are not on screen: {text}"
            assert keys.search(text), f"the keys are not on screen with the hint: {text}"

    run(scenario)


FOOTER_KEYS = ("? Rules", "s Save", "q Quit", "⏎ Play", "c Challenge", "h Hint", "^p")
"""The keys along the bottom of the game's screen, each with (the first word of) what it does."""


def assert_footer_whole(app: RondaApp) -> None:
    """Every key of the footer, with its word whole, on the screen's last line."""
    footer = screen_text(app).splitlines()[-1]
    for key in FOOTER_KEYS:
        assert re.search(rf"{re.escape(key)}(?=[\s▏]|$)", footer), f"{key!r} is not whole in the footer: {footer!r}"


@pytest.mark.parametrize("size", [(50, 16), (60, 20), (80, 24)])
def test_on_a_small_terminal_every_key_of_the_footer_is_whole(size: tuple[int, int]) -> None:
    """An audit found the keys at the bottom cut under about 60 columns: at 60 they stopped at "c Ch", at 50 at
    "⏎ Play / dec", so "c Challenge" and "h Hint" were never seen. Read at the size the game starts at, then after
    the terminal was made wide (every label whole: "Play / declare") and small again."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=7, level="random"), setup=False)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert_footer_whole(app)
            await pilot.resize_terminal(*SIZE)
            await pilot.pause(0.1)
            assert "⏎ Play / declare" in screen_text(app).splitlines()[-1]
            await pilot.resize_terminal(*size)
            await pilot.pause(0.1)
            assert_footer_whole(app)

    run(scenario)


def dialog_box(screen: str, inside: str) -> tuple[int, int, list[str]]:
    """The heavy box drawn around ``inside`` on the screen: the columns free on its left and on its right, and its
    lines between its borders. Every line of it must have its two sides where its corners are."""
    lines = screen.splitlines()
    width = max(len(line) for line in lines)
    middle = next(row for row, line in enumerate(lines) if inside in line)
    top = max(row for row in range(middle) if re.search(r"┏━{20,}┓", lines[row]))
    corner = re.search(r"┏━{20,}┓", lines[top])
    assert corner is not None
    left, right = corner.start(), corner.end() - 1
    bottom = next(row for row in range(middle, len(lines)) if lines[row][left : right + 1].startswith("┗━"))
    for row in range(top + 1, bottom):
        line = lines[row]
        assert (line[left : left + 1], line[right : right + 1]) == ("┃", "┃"), f"the box is broken on {line!r}"
    assert lines[bottom][right : right + 1] == "┛"
    return left, width - 1 - right, [line[left + 1 : right] for line in lines[top + 1 : bottom]]


async def to_the_first_summary(pilot: Any, app: RondaApp) -> Session:
    """Play by keys (declare what the hand holds, play the first card) until round 1's summary is on screen."""
    session = app.session
    assert session is not None
    for _ in range(60):
        await settle(pilot, app)
        if isinstance(app.screen, MessageScreen):
            return session
        await pilot.press("enter" if session.view.phase == DECLARE else "1")
    raise AssertionError("round 1 never ended")


@pytest.mark.parametrize("size", [(50, 16), (60, 20), (80, 24), (151, 46)])
def test_a_round_summary_stands_in_the_middle_and_tells_the_round_that_ended(size: tuple[int, int]) -> None:
    """An audit saw the summary at the end of a round one column off the middle, over the next round's board: at 50
    and 60 columns its box (95% of the width: 47, 57) left one column on its left and two on its right, Textual
    giving the odd one to the right; at 151 a 90-column box did the same. Played by keys to the end of round 1."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=7, level="random"), setup=False)
        async with app.run_test(size=size) as pilot:
            session = await to_the_first_summary(pilot, app)
            screen = screen_text(app)
            left, right, box = dialog_box(screen, "Round 1 is over")
            assert left == right, f"the summary has {left} free columns on its left, {right} on its right"
            said = words(" ".join(box))
            summary = session.rounds[0]
            piles = summary.piles
            assert piles is not None
            assert "Round 1 is over" in said and "Enter: next round" in said
            assert f"You: {piles[0]} cards, {summary.round_points(0):+d} this round" in said

    run(scenario)


def test_on_a_16_line_terminal_the_round_summary_tells_both_sides_whole() -> None:
    """At 50x16 the summary's box kept 4 lines for the summary, where the screen had room for 6 (it counted 12
    lines of frame, and an empty line after the last): "Seat 1: 22 cards, +6 this round, 6 in" was cut before
    "all". It now takes the lines the title and the answers, as wrapped, leave."""

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=7, level="random"), setup=False)
        async with app.run_test(size=(50, 16)) as pilot:
            session = await to_the_first_summary(pilot, app)
            _, _, box = dialog_box(screen_text(app), "Round 1 is over")
            said = words(" ".join(box))
            summary = session.rounds[0]
            piles = summary.piles
            assert piles is not None
            for side, name in enumerate(("You", "Seat 1")):
                told = f"{name}: {piles[side]} cards, {summary.round_points(side):+d} this round, "
                assert f"{told}{summary.totals[side]} in all" in said, f"not whole: {told}… in {said!r}"
            assert "Enter: next round" in said

    run(scenario)


def seen_where(app: RondaApp, widget: Any) -> str:
    """The characters the screen shows where ``widget`` stands, as a person reads them there: what lies past the
    screen's edge is not there to read, and what another widget (the docked key line) covers reads as that."""
    lines = screen_text(app).splitlines()
    region = widget.region
    rows = [lines[y][max(region.x, 0) : region.right] for y in range(max(region.y, 0), region.bottom) if y < len(lines)]
    return words(" ".join(rows)) if region.x >= 0 and region.y >= 0 else ""


def start_screen_controls(players: int) -> dict[str, str]:
    """Every control of the start screen in Tab order, with what it shows for ``Settings.make(players, seed=3)``."""
    levels = {f"level-{seat}": "random ▼" for seat in range(1, players)}
    boxes = {name: f"[ ] {name.replace('_', ' ')}" for name in SetupScreen.BOOLEAN_VARIANTS}
    return {
        "players": f"{players} ▼",
        "seat": "0 ▼",
        **levels,
        "preset": "classic ▼",
        "target": "41",
        "seed": "3",
        **boxes,
        **({"chain_points": "1-5-10 ▼"} if players > 2 else {}),  # no chain with two players (R5.3)
        "undeclared_ronda_penalty": "1 ▼",
        "start": "Start",
        "quit": "Quit",
    }


@pytest.mark.parametrize(("size", "players"), [((60, 20), 2), ((60, 20), 4), ((50, 16), 4)])
def test_on_a_small_terminal_every_choice_of_the_start_screen_is_reached_whole_and_its_keys_stay_said(
    size: tuple[int, int], players: int
) -> None:
    """An audit at 60x20 saw the start screen cut its last list's ▼ at the right edge and its key line at the
    bottom (with four players the third bot's level was past the edge too): a line of choices now breaks where the
    terminal is too narrow, the form scrolls under a key line docked at the bottom, and Tab brings each choice
    into view. Tab walks every choice: each reads whole where it stands, and the keys stay said, whole, below."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(players=players, level="random", seed=3, pace=0), setup=True)
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.3)
            assert isinstance(app.screen, SetupScreen)
            controls = start_screen_controls(players)
            reached: list[str] = []
            for _ in range(len(controls)):
                await pilot.press("tab")
                await pilot.pause(0.05)
                focused = app.focused
                assert focused is not None and focused.id is not None
                reached.append(focused.id)
                assert seen_where(app, focused) == controls[focused.id], f"{focused.id} is not seen whole"
                text = words(screen_text(app))
                assert text.endswith(words(SETUP_KEYS)), f"the key line is not whole at the bottom: {text!r}"
            assert reached == ["quit", *list(controls)[:-1]]  # from Start: Quit, then from the top round to Start

    run(scenario)
