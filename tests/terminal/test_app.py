"""The full-screen game, driven headlessly with Textual's pilot; assertions read the characters on the screen."""

from __future__ import annotations

import threading
import time

from extras import require

require("tui")

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from terminal_helpers import (
    ScriptedBot,
    bluff_session,
    card_names_in,
    explicit_session,
    hidden_from,
    last_card_session,
    proven_ronda_session,
    quick_settings,
    screen_text,
)
from textual import events
from textual.widgets import Select

from decks import build_deck
from ronda.engine.actions import DECLARES, PLAYS, Action
from ronda.engine.cards import parse_card
from ronda.engine.game import DECLARE, Game
from ronda.engine.rules import Rules
from ronda.interfaces.terminal.app import HelpScreen, MessageScreen, RondaApp, SetupScreen
from ronda.interfaces.terminal.session import Session, Settings, spread_levels
from ronda.interfaces.terminal.widgets import TableView

SIZE = (150, 46)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


async def settle(pilot: Any, app: RondaApp) -> None:
    """Wait until the bots are done and the human must act, or a summary is on screen."""
    for _ in range(3000):
        await pilot.pause()
        if isinstance(app.screen, (MessageScreen, HelpScreen)):
            return
        busy = any(worker.is_running for worker in app.workers)
        if app.session is not None and not busy and (app.session.human_to_act() or app.session.over):
            return
    raise AssertionError("the app never came back to the human")


def test_a_full_round_against_bots_on_screen():
    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=5, level="medium"), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            turns = 0
            while True:
                await settle(pilot, app)
                if isinstance(app.screen, MessageScreen):
                    break
                session = app.session
                assert session is not None
                view = session.view
                text = screen_text(app)
                # R11: only the human's hand and public cards are ever drawn or told.
                assert not card_names_in(text) & hidden_from(session)
                for card in view.hand.names():
                    assert card in text
                for card in view.table.names():
                    assert card in text
                assert f"You: {view.scores[0]} · Seat 1: {view.scores[1]} (target 41)" in text
                assert "Seat 1 · medium" in text
                assert f"Round 1 · deal {view.deal + 1}/6" in text
                assert f"Stock {view.stock}" in text
                if view.phase == DECLARE:
                    assert "Keys: n none · r ronda · t tringa" in text
                    truth = session.true_declaration()
                    await pilot.press("enter")
                    assert f"You declare {truth}" in session.lines[-4:]
                else:
                    played = view.hand.names()[-1]
                    await pilot.press(str(len(view.hand)))
                    mine = [line for line in session.lines if line.startswith(("You drop", "You play", "You raise"))]
                    assert played in mine[-1]
                    await pilot.pause()
                    if len(mine[-1]) < 40 and not isinstance(app.screen, MessageScreen):
                        assert mine[-1] in screen_text(app)  # told in the play-by-play pane
                turns += 1
            assert turns == 6 * 4  # six deals: a declaration and three plays each
            session = app.session
            assert session is not None
            summary = session.rounds[0]
            text = screen_text(app)
            assert "Round 1 is over" in text
            assert "Round 2 · deal 1/6" in text and "Just now" not in text  # behind it, the board as it is now
            piles, totals = summary.piles, summary.totals
            assert piles is not None
            assert f"You: {piles[0]} cards, {summary.round_points(0):+d} this round, {totals[0]} in all" in text
            for side in (0, 1):  # the breakdown: where every point of the round came from
                parts = [f"{group} {points:+d}" for group, points in summary.breakdown(side)]
                assert (" · ".join(parts) if parts else "nothing scored") in text
                assert sum(points for _, points in summary.breakdown(side)) == summary.round_points(side)
            await pilot.press("enter")
            await settle(pilot, app)
            text = screen_text(app)
            assert f"You: {summary.totals[0]} · Seat 1: {summary.totals[1]}" in text
            assert "Round 2 · deal 1/6" in text
            assert "seat 0 · pile 0 · dealer" in text  # R3.2: the deal has passed to seat 0

    run(scenario)


async def refused(pilot: Any, app: RondaApp, keys: list[tuple[str, str]]) -> None:
    """Each key is refused with its message on screen, and the game is unchanged."""
    assert app.session is not None
    record = app.session.game.to_record()
    for key, message in keys:
        await pilot.press(key)
        assert message in screen_text(app)
        assert app.session.game.to_record() == record


def test_illegal_keys_are_explained_and_change_nothing():
    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=6), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None
            await refused(
                pilot,
                app,
                [
                    ("1", "Declare first: n none, r ronda, t tringa"),
                    ("c", "Challenges come after the declarations, on your turn to play."),
                    ("d", "A double ronda can only be declared with four-card hands."),
                ],
            )
            await pilot.press("n")
            await settle(pilot, app)
            await refused(
                pilot,
                app,
                [
                    ("9", "You hold 3 cards: press 1 to 3."),
                    ("r", "Declarations are made when a deal starts; now play a card."),
                    ("0", "You hold 3 cards: press 1 to 3."),
                ],
            )
            if not session.challenge_targets():
                await pilot.press("c")
                assert "There is no opponent's declaration to challenge now." in screen_text(app)
            second = session.view.hand.names()[1]
            await pilot.press("right", "enter")  # arrows then Enter play the second card
            assert second not in session.view.hand.names()
            assert any(line.startswith(("You drop " + second, "You play " + second)) for line in session.lines)

    run(scenario)


def test_challenging_a_bluff_by_keys():
    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 12c 2b"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await settle(pilot, app)
            assert "Seat 1's ronda scores 1: nobody else announced" in app.session.lines  # type: ignore[union-attr]
            assert "c challenge" in screen_text(app)
            await pilot.press("c")  # one declaration to challenge: the question comes at once
            assert "If seat 1 really holds a ronda, you lose the game. Challenge? y/n" in screen_text(app)
            await pilot.press("escape")
            assert "Challenge?" not in screen_text(app) and "No challenge." in screen_text(app)
            await pilot.press("c", "y")
            text = screen_text(app)
            assert "You challenge seat 1: hand 2b 11o 12c" in text
            assert "ronda (exposed as false), hand shown: 2b 11o 12c" in text
            assert "You: 1 · Seat 1: 0" in text  # the false ronda costs 1, and its point is taken back (R8.6)
            assert app.session.game.turn == 0  # type: ignore[union-attr]  # then the challenger plays (R8.8)

    run(scenario)


def test_a_failed_challenge_ends_the_game_and_another_can_start():
    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 11c 2b"))  # this time the ronda is true
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await settle(pilot, app)
            await pilot.press("c", "y")  # one target: its question, then y
            await settle(pilot, app)
            assert isinstance(app.screen, MessageScreen)
            text = screen_text(app)
            assert "Game over" in text
            assert "Seat 1 wins by a failed challenge!" in text
            assert "p: play again" in text
            await pilot.press("p")  # a game never saved: not kept, so play again asks nothing
            await settle(pilot, app)
            session = app.session
            assert session is not None and not session.over
            assert session.game.round == 0 and session.seed == 2
            assert "You: 0 · Seat 1: 0" in screen_text(app)

    run(scenario)


def test_save_and_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = "game.json"

    async def save() -> list[str]:
        app = RondaApp(quick_settings(seed=12), setup=False, save_path=path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")
            await settle(pilot, app)
            await pilot.press("1")
            await settle(pilot, app)
            await pilot.press("s")
            text = screen_text(app)  # the note wraps beside the play-by-play: its two halves
            assert f"Saved to {path} (the game) and game.play.json (your seat and the bots)." in text
            assert f"ronda play --resume {path}" in text
            assert app.session is not None
            return app.session.view.hand.names()

    async def resume(hand: list[str]) -> None:
        app = RondaApp(session=Session.resume(path, pace=0))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert f"Resumed {path}" in text
            assert all(card in text for card in hand)
            assert app.session is not None and app.session.view.hand.names() == hand

    hand = asyncio.run(save())
    assert (tmp_path / path).exists() and (tmp_path / "game.play.json").exists()
    run(lambda: resume(hand))


def test_quitting_an_unsaved_game_asks_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=2), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")
            await settle(pilot, app)
            await pilot.press("q")
            assert "Quit without saving? Press q again to quit, or s to save first." in screen_text(app)
            await pilot.press("s", "q")
            await pilot.pause()
            assert not app.is_running  # saved: q quits at once
        assert list(tmp_path.glob("ronda-*.json"))

    run(scenario)


def test_the_start_screen_sets_up_the_game():
    async def scenario() -> None:
        app = RondaApp(Settings.make(level="random", seed=3, pace=0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            text = screen_text(app)
            assert "Ronda — a new game" in text and "Start" in text
            app.screen.query_one("#four_card_hands").value = True
            await pilot.pause()
            app.screen.query_one("#players").value = 3
            await pilot.pause()
            # Not offered with three players (R10: 2 or 4), rather than refused at Start as it was.
            assert "[ ] four card hands (2 or 4 players)" in screen_text(app)
            app.screen.query_one("#preset").value = "short"
            await pilot.pause(0.3)  # a button ignores a second press while it still shows the first
            assert app.screen.query_one("#target").value == "25"  # the preset fills in its variants
            await pilot.click("#start")
            await settle(pilot, app)
            session = app.session
            assert session is not None
            assert session.rules == Rules(players=3, target=25)
            assert session.levels == (None, "random", "medium")
            text = screen_text(app)
            assert "Seat 1 · random" in text and "Seat 2 · medium" in text and "(target 25)" in text
            assert "Classic rules, target 25" in session.title()

    run(scenario)


def test_the_start_screen_keeps_the_target_and_variants_given_on_the_command_line():
    """An audit: `ronda play --target 3 --variant ace_high=true` showed target 41 and ace high unticked, and
    played them: the preset list's own first change event, as the screen was mounted, reset both."""

    async def scenario() -> None:
        settings = Settings.make(level="random", seed=3, pace=0, variants={"target": 3, "ace_high": True})
        app = RondaApp(settings, setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.3)
            assert isinstance(app.screen, SetupScreen)
            assert app.screen.query_one("#target").value == "3"
            assert app.screen.query_one("#ace_high").value is True
            await pilot.click("#start")
            await settle(pilot, app)
            assert app.session is not None and app.session.rules == Rules(players=2, target=3, ace_high=True)
            assert "target 3" in screen_text(app)

    run(scenario)


def test_the_start_screen_keeps_and_says_a_variant_it_has_no_control_for(monkeypatch: Any) -> None:
    """`ronda play --variant X` for a variant the form shows no control for was dropped: the form rebuilt the
    rules from its own controls ("Classic rules, target 41."), where --plain played it. Every variant has a
    control today, so one is taken off the form here, as the next variant added would come."""
    monkeypatch.setattr(SetupScreen, "BOOLEAN_VARIANTS", ("auto_declare", "dealer_duty", "four_card_hands"))

    async def scenario() -> None:
        settings = Settings.make(level="random", seed=3, pace=0, variants={"ace_high": True})
        app = RondaApp(settings, setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.3)
            assert isinstance(app.screen, SetupScreen)
            assert "ace high" not in screen_text(app)  # no box for it
            assert "Also: ace_high=True" in screen_text(app)
            app.screen.query_one("#preset").value = "short"  # a preset that does not name it keeps it
            await pilot.pause(0.3)
            assert "Also: ace_high=True" in screen_text(app)
            await pilot.click("#start")
            await settle(pilot, app)
            assert app.session is not None and app.session.rules == Rules(players=2, target=25, ace_high=True)
            assert "Classic rules with ace high (1s rank highest), target 25." in app.session.title()

    run(scenario)


def test_the_start_screen_offers_only_the_seats_the_game_has():
    """A newcomer was offered "Your seat 3" in a game of two, refused only after Start."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(players=4, seat=3, level="random", seed=3, pace=0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            seat = app.screen.query_one("#seat")
            assert [value for _, value in seat._options if value is not Select.BLANK] == [0, 1, 2, 3]
            assert seat.value == 3
            app.screen.query_one("#players").value = 2
            await pilot.pause()
            assert [value for _, value in seat._options if value is not Select.BLANK] == [0, 1]
            assert seat.value == 1  # the seat kept as near as the game allows
            await pilot.click("#start")
            await settle(pilot, app)
            assert app.session is not None and app.session.human == 1 and app.session.rules.players == 2

    run(scenario)


def test_the_rules_in_short_on_the_question_mark():
    """With the whole rules below the keys, titled in the start screen's words: "advanced rules", the preset the
    rules happen to match, titled a game started as classic with dealer duty ticked (an audit)."""

    async def scenario() -> None:
        settings = Settings.make(2, 0, "random", seed=1, pace=0, variants={"dealer_duty": True})
        app = RondaApp(settings, setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            text = screen_text(app)
            assert "Ronda — the rules in short" in text and "challenge an opponent's declaration" in text
            assert "Caida: take the card just dropped (+1)." in text
            assert re.search(r"\bp +when the game is over: play again, with the same choices", text)
            assert re.search(r"\bn +when the game is over: a new game, from the start screen", text)
            app.screen.query_one(".rules.section").scroll_visible(animate=False, top=True)
            await pilot.pause()
            text = screen_text(app)
            assert "Ronda — the rules of this game, 2 players" in text
            assert "Classic rules with dealer duty (the dealer's last card must capture)." in text
            assert "advanced" not in text.lower()
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
            assert app.session is not None and app.session.view.phase == DECLARE  # nothing was played

    run(scenario)


def test_declaring_truthfully_is_one_key():
    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 12c 2b", mine="5o 5c 3e"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "your hand holds a ronda (pair of 5s)" in text and "Enter declares ronda" in text
            await pilot.press("enter")
            assert app.session is not None and "You declare ronda" in app.session.lines

    run(scenario)


def test_four_players_fit_a_100_column_terminal_with_partner_and_levels_whole():
    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=5, players=4, level="medium"), setup=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "…" not in text  # no title or line cut short
            assert "medium · partner" in text  # seat 2 sits opposite, on our side (R2.2)
            assert "Us: 0 · Them (seats 1 & 3): 0" in text

    run(scenario)


async def press_focused(pilot: Any, app: RondaApp, key: str, expected: str) -> None:
    await pilot.press(key)
    await pilot.pause()
    assert app.focused is not None and app.focused.id == expected, f"{key} went to {app.focused}, not #{expected}"


async def choose(pilot: Any, steps: int) -> None:
    """Open the focused list with Enter, go ``steps`` options down (up if negative), take it with Enter."""
    await pilot.press("enter", *["down" if steps > 0 else "up"] * abs(steps), "enter")
    await pilot.pause()


def test_the_start_screen_works_from_the_keyboard_alone():
    """Tab reaches every control in reading order, each is changed by keys, and the game gets every choice."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(level="random", seed=3, pace=0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            assert "Tab or ←/→: next choice · Enter or ↓: open a list" in screen_text(app)  # the keys, said
            assert app.focused is not None and app.focused.id == "start"
            await press_focused(pilot, app, "tab", "quit")
            await press_focused(pilot, app, "tab", "players")
            await choose(pilot, 2)  # 2 → 4 players
            await press_focused(pilot, app, "tab", "seat")
            await choose(pilot, 1)  # seat 0 → 1
            for seat, steps in ((0, 1), (2, 2), (3, -2)):  # medium → hard, expert, random
                await press_focused(pilot, app, "tab", f"level-{seat}")
                await choose(pilot, steps)
            await press_focused(pilot, app, "tab", "preset")
            await choose(pilot, 1)  # classic → advanced: dealer duty ticked
            await press_focused(pilot, app, "tab", "target")
            await pilot.press("backspace", "backspace", "3", "0")
            await press_focused(pilot, app, "tab", "seed")
            await pilot.press("backspace", "7", "7")
            for name in ("auto_declare", "ace_high", "dealer_duty", "four_card_hands", "transfer_scoring"):
                await press_focused(pilot, app, "tab", name)
                await pilot.press("space")
            await press_focused(pilot, app, "tab", "chain_points")
            await choose(pilot, 1)
            await press_focused(pilot, app, "tab", "undeclared_ronda_penalty")
            await choose(pilot, 1)
            text = screen_text(app)
            assert "[x] auto declare" in text and "[ ] dealer duty" in text  # the state in characters
            await press_focused(pilot, app, "shift+tab", "chain_points")
            await press_focused(pilot, app, "right", "undeclared_ronda_penalty")  # arrows walk the screen too
            await press_focused(pilot, app, "right", "start")
            await press_focused(pilot, app, "left", "undeclared_ronda_penalty")
            await press_focused(pilot, app, "right", "start")  # (↓ on a list opens it: that is how it changes)
            await pilot.press("enter")
            await settle(pilot, app)
            session = app.session
            assert session is not None
            assert session.rules == Rules(
                players=4,
                target=30,
                auto_declare=True,
                ace_high=True,
                four_card_hands=True,
                transfer_scoring=True,
                chain_points=(1, 6, 15),
                undeclared_ronda_penalty=5,
            )
            assert session.human == 1
            assert session.levels == ("hard", None, "expert", "random")
            assert session.seed == 77  # "3" erased, then 7 7

    run(scenario)


async def burst(pilot: Any, app: RondaApp, *keys: tuple[str, str]) -> None:
    """Keys (name, character) as a terminal hands over a paste or fast typing: all at once, none waiting for the one
    before to be done (``pilot.press`` waits after each key, so it never shows what such a burst does)."""
    for key, character in keys:
        app.post_message(events.Key(key, character))
    await pilot.pause(0.1)


BACKSPACE = ("backspace", "\x7f")


def test_a_backspace_and_digits_typed_at_once_in_a_number_box_are_shown_and_played():
    """An audit: Backspace then 3, typed fast into the target box (41, all selected as Tab leaves it), left the box
    empty and the game at target 41. Textual typed the 3 over the selection first and did the Backspace after it."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(level="random", seed=3, pace=0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for control in ("quit", "players", "seat", "level-1", "preset", "target"):
                await press_focused(pilot, app, "tab", control)
            await burst(pilot, app, BACKSPACE, ("3", "3"))
            assert "Target 3 " in screen_text(app)
            await burst(pilot, app, ("0", "0"), BACKSPACE, BACKSPACE, ("2", "2"), ("5", "5"))
            assert "Target 25 " in screen_text(app)
            await press_focused(pilot, app, "tab", "seed")
            await burst(pilot, app, BACKSPACE, ("7", "7"), ("7", "7"))
            assert "Seed 77 " in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.session is not None and app.session.rules.target == 25 and app.session.seed == 77
            assert "(target 25)" in screen_text(app)

    run(scenario)


def test_R8_8_the_full_screen_never_offers_a_challenge_that_can_only_fail():
    async def scenario() -> None:
        app = RondaApp(session=proven_ronda_session())
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert "c challenge" in screen_text(app)
            await pilot.press("1")  # 5o
            await settle(pilot, app)
            await pilot.press("1")  # 3e
            await settle(pilot, app)
            text = screen_text(app)  # seat 0 has played 11o 11c 2b: its ronda is proven
            assert "c challenge" not in text
            assert "Seat 0's ronda is proven true by the cards you have seen: no challenge to make." in text
            record = app.session.game.to_record()  # type: ignore[union-attr]
            await pilot.press("c")
            assert "Seat 0's ronda is proven true by the cards you have seen: no challenge to make." in screen_text(app)
            assert "Challenge?" not in screen_text(app)
            await pilot.press("y")
            assert app.session.game.to_record() == record  # type: ignore[union-attr]

    run(scenario)


def test_R8_8_a_challenge_waits_for_y_and_no_other_key_makes_it():
    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 11c 2b"))  # seat 1's ronda is true
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await settle(pilot, app)
            session = app.session
            assert session is not None
            record = session.game.to_record()
            await pilot.press("c")
            assert "If seat 1 really holds a ronda, you lose the game. Challenge? y/n" in screen_text(app)
            for key in ("enter", "c", "1"):
                await pilot.press(key)
                assert "Answer first: y challenges, n or Esc does not." in screen_text(app)
            await pilot.press("n")
            assert "No challenge." in screen_text(app) and "Challenge?" not in screen_text(app)
            assert session.game.to_record() == record and session.view.phase == "play"
            await pilot.press("c", "y")
            await settle(pilot, app)
            text = screen_text(app)
            assert session.over and "Seat 1 wins by a failed challenge!" in text
            assert "— Round 1, not played out —" in text  # the round the game ended in, with its breakdown
            assert "Seat 1: +1 this round, 1 in all" in text and "announcements +1" in text

    run(scenario)


def chain_session() -> Session:
    """Four players: you (seat 0) drop 3e, seat 1 drops 2b, seat 2 drops 5o, seat 3 takes it with 5c — a caida,
    and the chain on 5s is open to you (R5.3)."""
    session = explicit_session(
        [{0: "3e 5e 12o", 1: "2b 6o 6b", 2: "5o 11c 12c", 3: "5c 11o 2c"}], table="7e 10e 4b 1c", players=4
    )
    for seat, plays in ((1, "2b"), (2, "5o"), (3, "5c")):
        session.bots[seat] = ScriptedBot("none", plays)
    while not session.human_to_act():
        session.step_bot()
    session.act(DECLARES["none"])
    while not session.human_to_act():
        session.step_bot()
    session.act(PLAYS[parse_card("3e")])
    while not session.human_to_act():
        session.step_bot()
    return session


def test_the_open_chain_is_told_whole_at_120_columns_naming_the_side_as_the_score_bar():
    async def scenario() -> None:
        session = chain_session()
        assert session.view.chain is not None
        app = RondaApp(session=session)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "…" not in text
            assert "Them (seats 1 & 3): 1" in text  # the score bar
            assert "Open chain on 5s: 5o 5c, taken by them (seats 1 & 3);" in text
            assert "another 5 raises it" in text

    run(scenario)


def dialog_lines(text: str) -> list[str]:
    """The lines inside the help dialog's heavy frame, without the frame."""
    return [line.split("┃")[1].strip() for line in text.splitlines() if line.count("┃") >= 2]


def test_the_rules_screen_wraps_its_text_once_and_keeps_the_keys_table_whole():
    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=1), setup=False)
        async with app.run_test(size=(100, 120)) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            await pilot.pause()
            lines = dialog_lines(screen_text(app))
            width = max(len(line) for line in lines)
            rows = {line.split()[0]: line for line in lines if line[:1] in "1←nrEcsq?" and "  " in line}
            assert rows["1-9"].endswith("play that card of your hand")  # key and meaning on one row
            assert rows["←"].endswith("choose a card, play it")
            assert rows["q"].endswith("quit (a game whose last moves are not saved asks first)")
            start = next(i for i, line in enumerate(lines) if line.startswith("Playing. On your turn"))
            end = lines.index("", start)
            paragraph = lines[start:end]
            assert len(paragraph) >= 2
            assert all(len(line) > width * 0.75 for line in paragraph[:-1]), paragraph  # no short line mid-paragraph

    run(scenario)


def a_bot_about_to_take_5o() -> tuple[Session, RondaApp]:
    """A game in which, once you declare none (n) and drop 5o (2), seat 1 takes it with 5c: a caida, marked."""
    session = explicit_session([{0: "5o 6c 3e", 1: "5c 11o 2b"}], table="7e 10e 4b 1c")
    session.bots[1] = ScriptedBot("none", "5c 2b 11o")
    return session, RondaApp(session=session)


async def drop_5o_for_the_bot(pilot: Any, app: RondaApp) -> None:
    await settle(pilot, app)
    await pilot.press("n")
    await settle(pilot, app)
    await pilot.press("2")  # 5o dropped; seat 1 takes it with 5c: a caida
    await settle(pilot, app)


def test_the_cards_a_bot_just_took_stay_marked_on_the_table_for_a_moment():
    async def scenario() -> None:
        session, app = a_bot_about_to_take_5o()
        app.MARK_SECONDS = 3.0  # long enough for a loaded machine to look before it is over
        async with app.run_test(size=SIZE) as pilot:
            await drop_5o_for_the_bot(pilot, app)
            text = screen_text(app)
            assert "5o" not in session.view.table.names()  # taken, yet still drawn, marked
            assert "┏━ took ┓ ┏━ play ┓" in text  # 5o taken and 5c played, side by side in rank order
            assert "Just now: Seat 1 plays 5c, takes 5o — caida! +1" in text
            await pilot.press("1")  # 3e; your move ends the mark, then seat 1 drops 2b
            await settle(pilot, app)
            text = screen_text(app)
            assert "took" not in text and "┏━ drop ┓" in text and "Just now: Seat 1 drops 2b" in text
            await pilot.pause(app.MARK_SECONDS + 0.5)
            text = screen_text(app)
            assert "drop ┓" not in text and "Just now" not in text  # the moment is over: the table as it is

    run(scenario)


def test_a_mark_that_ends_while_another_screen_is_up_ends_quietly():
    """The moment of a bot's play may end while the rules, a summary or the analysis is on top of the table."""

    async def scenario() -> None:
        _, app = a_bot_about_to_take_5o()
        app.MARK_SECONDS = 2.0  # long enough for a loaded machine to look before it is over
        async with app.run_test(size=SIZE) as pilot:
            await drop_5o_for_the_bot(pilot, app)
            assert "Just now: Seat 1 plays 5c" in screen_text(app)
            await pilot.press("question_mark")  # the rules on top of the table
            await pilot.pause(app.MARK_SECONDS + 0.5)  # the moment ends behind them
            await pilot.press("escape")
            await settle(pilot, app)
            text = screen_text(app)
            assert "Just now" not in text and "took" not in text
            await pilot.press("1")  # the game goes on
            await settle(pilot, app)
            assert "Seat 1 drops 2b" in screen_text(app)

    run(scenario)


def test_a_mark_that_ends_as_the_app_closes_and_the_table_is_gone_raises_nothing():
    """The moment's timer may fire while the app is closing and its widgets are already gone (seen in CI)."""

    async def scenario() -> None:
        _, app = a_bot_about_to_take_5o()
        app.MARK_SECONDS = 2.0  # long enough for a loaded machine to look before it is over
        async with app.run_test(size=SIZE) as pilot:
            await drop_5o_for_the_bot(pilot, app)
            assert "Just now: Seat 1 plays 5c" in screen_text(app)
            await app.query_one(TableView).remove()  # as when the app closes
            await pilot.pause(app.MARK_SECONDS + 0.5)  # the moment ends with no table to unmark

    run(scenario)


def held_bots(session: Session) -> threading.Event:
    """The bots of ``session`` think until the returned event is set: a key pressed meanwhile meets a bot's turn."""
    gate = threading.Event()
    gate.set()
    choose = session.bot_choice

    def held() -> tuple[int, Action]:
        assert gate.wait(30), "the test never let the bots play"
        return choose()

    session.bot_choice = held  # type: ignore[method-assign]
    return gate


def held_game() -> tuple[Session, threading.Event, RondaApp]:
    """You (seat 0: 5o 6c 3e) against seat 1 (5c 11o 2b), its bots held by the returned event."""
    session = explicit_session([{0: "5o 6c 3e", 1: "5c 11o 2b"}], table="7e 10e 4b 1c")
    return session, held_bots(session), RondaApp(session=session)


def test_a_key_pressed_while_a_bot_thinks_is_kept_for_your_turn():
    async def scenario() -> None:
        session, gate, app = held_game()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            gate.clear()
            await pilot.press("n")  # seat 1 declares next
            assert session.bot_to_act() == 1
            await pilot.press("3")
            text = screen_text(app)
            assert "Wait:" not in text
            assert "Queued: 3 (used when your turn comes)" in text
            gate.set()
            await settle(pilot, app)
            assert "You drop 6c" in session.lines  # the third card, played as soon as it was your turn
            assert "Queued" not in screen_text(app)

    run(scenario)


def test_a_long_game_over_summary_scrolls_and_keeps_its_answers_on_an_80_by_24_terminal():
    async def scenario() -> None:
        app = RondaApp(quick_settings(seed=1), setup=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            app.push_screen(MessageScreen("Game over", [f"summary line {i}" for i in range(60)], {"q": "quit"}))
            await pilot.pause()
            assert "summary line 0" in screen_text(app) and "q: quit" in screen_text(app)
            await pilot.press("end")
            await pilot.pause()
            assert "summary line 59" in screen_text(app) and "q: quit" in screen_text(app)

    run(scenario)


def test_a_second_enter_pressed_while_the_bots_declare_does_not_play_a_card():
    async def scenario() -> None:
        session, gate, app = held_game()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            gate.clear()
            await pilot.press("enter")  # declares none
            await pilot.press("enter")  # meant for the declaration, pressed twice
            assert "Queued: Enter" in screen_text(app)
            gate.set()
            await settle(pilot, app)
            assert session.view.phase == "play" and len(session.view.hand) == 3  # no card was played
            assert "Not used: Enter, pressed while the declarations were made." in screen_text(app)

    run(scenario)


def test_a_key_pressed_before_a_new_deal_is_not_used_on_the_new_hand():
    async def scenario() -> None:
        session, gate, app = held_game()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            for key in ("n", "1", "1"):
                await pilot.press(key)
                await settle(pilot, app)
            gate.clear()
            await pilot.press("1")  # your last card of the deal; seat 1 plays its last, then a new deal
            await pilot.press("2")
            assert "Queued: 2" in screen_text(app)
            gate.set()
            await settle(pilot, app)
            assert session.view.deal == 1 and session.view.phase == "declare"
            assert "Not used: 2, pressed before this deal was dealt." in screen_text(app)
            await pilot.press("n")  # seat 1 declares after you: a declaration marks no card
            await settle(pilot, app)
            assert session.view.phase == "play" and "Just now" not in screen_text(app)

    run(scenario)


async def until(pilot: Any, condition: Callable[[], bool]) -> None:
    for _ in range(3000):
        await pilot.pause()
        if condition():
            return
    raise AssertionError("the screen never showed what was awaited")


def test_h_shows_a_hint_under_the_prompt_and_keeps_it_with_the_game(tmp_path, monkeypatch):
    from ronda.analysis.hints import read_hints
    from ronda.analysis.search import Method
    from ronda.engine.record import load_record

    monkeypatch.chdir(tmp_path)

    async def scenario() -> None:
        session = Session(quick_settings(seed=3))
        session.method = Method(guesses=6)
        app = RondaApp(session=session, save_path="game.json")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: "Hint — your chance to win" in screen_text(app))
            text = screen_text(app)
            assert "1. declare none" in " ".join(text.split()) and "2. declare ronda" in " ".join(text.split())
            assert not card_names_in(text) & hidden_from(session)  # R11: the hint names no hidden card
            await pilot.press("enter")  # declaring clears the hint
            await settle(pilot, app)
            assert "Hint —" not in screen_text(app)
            await pilot.press("s")
        assert len(read_hints(load_record(tmp_path / "game.json"))) == 1

    run(scenario)


def test_on_a_short_terminal_the_hint_takes_the_play_by_play_s_place_beside_the_table():
    """An audit: at 80x24 the hint, under the hand, pushed the table and the other hand out of sight while it
    spoke of a caida on that table. It now takes the play-by-play's place beside the board for the decision, and
    the play-by-play comes back once it is taken; on a terminal both short and narrow (no pane beside), it stays
    under the hand and says that PgUp brings the table back."""
    from ronda.analysis.search import Method

    async def scenario() -> None:
        session = Session(quick_settings(seed=3))
        session.method = Method(guesses=6)
        app = RondaApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: "Hint — your chance to win" in screen_text(app))
            await settle(pilot, app)
            text = screen_text(app)
            assert "─ Hint ─" in text and "─ Table ─" in text and "Your hand" in text
            assert "Play by play" not in text and "PgUp: the table" not in text
            assert "1. declare none" in " ".join(text.split())
            # Longer than its pane: its edge names the keys, and PgDn brings its last option into sight.
            assert "PgUp/PgDn: more" in text and "3. declare" not in " ".join(text.split())
            await pilot.press("pagedown")
            await until(pilot, lambda: "3. declare" in " ".join(screen_text(app).split()))
            assert "─ Table ─" in screen_text(app)
            await pilot.press("enter")  # declared: the hint has done its work
            await settle(pilot, app)
            text = screen_text(app)
            assert "Play by play" in text and "Hint —" not in text and "─ Table ─" in text
        session = Session(quick_settings(seed=3))
        session.method = Method(guesses=6)
        app = RondaApp(session=session)
        async with app.run_test(size=(70, 24)) as pilot:  # narrow: no pane beside the board
            await settle(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: "PgUp: the table and the other hands, above" in screen_text(app))
            await settle(pilot, app)
            assert "─ Table ─" not in screen_text(app)  # scrolled away to show the hint
            await pilot.press("pageup")
            await until(pilot, lambda: "─ Table ─" in screen_text(app))
        async with RondaApp(session=Session(quick_settings(seed=3))).run_test(size=SIZE) as pilot:
            await pilot.press("h")
            await until(pilot, lambda: "Hint — your chance to win" in screen_text(pilot.app))
            text = screen_text(pilot.app)
            assert "PgUp" not in text and "─ Hint ─" not in text  # tall enough for all of it, under the hand
            assert "Play by play" in text

    run(scenario)


def hint_text(app: RondaApp) -> str:
    """The screen's words as one line, a pane's side borders left out: a hint's sentence wraps beside the
    play-by-play, whose border comes between its lines."""
    return " ".join(word for word in screen_text(app).split() if word != "│")


def test_h_says_on_screen_the_card_that_exposes_your_own_bluff():
    """A learner's audit: after bluffing a tringa (R8.2) with 2o 6b 11e and playing 2o, either card left shows the
    bluff false (R8.5, R8.6), and the hint said only "drops it". The screen now says what the card gives away."""
    from ronda.analysis.search import Method

    session = explicit_session([{0: "2o 6b 11e", 1: "5o 7c 12b"}], table="3c 4c 10o 1e")
    session.bots[1] = ScriptedBot("none", "12b 5o 7c")
    session.method = Method(guesses=6)
    session.act(DECLARES["tringa"])
    session.step_bot()
    session.act(PLAYS[parse_card("2o")])
    session.step_bot()
    text = hint_on_screen(session)
    for card in ("6b", "11e"):
        said = f"play {card}: "
        assert said in text, text
        reason = text.split(said, 1)[1].split(" points): ", 1)[1]
        assert reason.startswith(
            "drops it; exposes your false tringa: 5 to each opposing side in penalties, and the points it"
            " scored are taken back (R8.6)"
        ), reason


def hint_on_screen(session: Session) -> str:
    """The hint as the screen shows it after `h`, for the session's seat to play."""
    shown: list[str] = []

    async def scenario() -> None:
        app = RondaApp(session=session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            await until(pilot, lambda: "Hint — your chance to win" in screen_text(app))
            shown.append(hint_text(app))

    run(scenario)
    return shown[0]


def test_h_with_three_players_says_on_screen_that_the_others_points_are_their_average():
    """With three players an option's points are yours minus the other two players' average: "the others'" read
    as the two together (a learner's audit)."""
    from ronda.analysis.search import Method

    session = Session(quick_settings(seed=3, players=3))
    session.method = Method(guesses=6)
    text = hint_on_screen(session)
    assert "in brackets the expected points, yours minus the average of the other two players', within" in text


def test_h_while_a_bot_plays_says_to_wait_and_queues_nothing():
    async def scenario() -> None:
        session, gate, app = held_game()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            gate.clear()
            await pilot.press("n")  # seat 1 declares next
            assert session.bot_to_act() == 1
            await pilot.press("h")
            assert "A hint is for your own decision: wait for your turn." in screen_text(app)
            assert app.queued == [] and session.hints == []
            gate.set()
            await settle(pilot, app)

    run(scenario)


async def play_to_game_over(pilot: Any, app: RondaApp, session: Session) -> None:
    """Declare none and play the first card, closing each round's summary, until the game-over screen shows."""
    while not isinstance(app.screen, MessageScreen) or "Game over" not in screen_text(app):
        await settle(pilot, app)
        if isinstance(app.screen, MessageScreen):
            if "Game over" not in screen_text(app):
                await pilot.press("enter")  # a round's summary
            continue
        await pilot.press("enter" if session.view.phase == DECLARE else "1" if session.view.hand else "enter")


def test_a_on_the_game_over_screen_shows_the_analysis_of_your_decisions():
    """It also says what it counts (an audit: "You: 88 decisions" after a game of 112 moves read as a miscount):
    the decisions with a choice (a play of one card, or of cards of one rank, is none), of how many moves,
    counted here from the game's record."""
    from dataclasses import replace

    from ronda.analysis.search import Method

    async def scenario() -> None:
        settings = quick_settings(seed=8)
        session = Session(replace(settings, rules=settings.rules.replace(target=3)))
        session.method = Method(guesses=6)
        app = RondaApp(session=session)
        async with app.run_test(size=SIZE) as pilot:
            await play_to_game_over(pilot, app, session)
            moves = sum(1 for r in session.record()["rounds"] for a in r["actions"] if a["seat"] == session.human)
            assert "a: analysis" in screen_text(app) and "p: play again" in screen_text(app)
            await pilot.press("a")
            await until(pilot, lambda: "average loss" in screen_text(app))
            text = " ".join(screen_text(app).split())
            assert "Analysis of your decisions" in text
            review = session.review
            assert review is not None
            decisions = len(review.decisions)
            assert 0 < decisions < moves  # the game had moves without a choice: the two counts differ
            assert review.summary(0).decisions == decisions
            assert f"You: {decisions} decisions with a choice (of {moves} moves), average loss" in text
            assert "The costliest:" in text and " more: " in text
            await pilot.press("escape")
            await until(pilot, lambda: "Game over" in screen_text(app))
            assert session.over and app.session is session

    run(scenario)


def exposed_tringa_session() -> Session:
    """You (seat 0) hold 2o 6b 12e, nothing (R8.1); seat 1 holds 12b 6o 7c, declares none and plays them in order.
    Target 6: a false tringa declared scores 5 at once (R8.5), 12e takes the 12b dropped after 2o (a caida, the
    sixth point: won before any exposure, R9.2, R9.3), and 6b, beside 2o, leaves the tringa no candidate: exposed
    (R8.6), seat 1 at 5 and your 5 taken back, then 6o's caida on 6b wins it for seat 1."""
    rules = Rules(players=2, target=6)
    deck = build_deck(rules, [{0: "2o 6b 12e", 1: "12b 6o 7c"}], table="3c 4c 10o 1e", dealer=1)
    game = Game(rules, decks=[[parse_card(card) for card in deck]], dealer=1)
    session = Session(Settings(rules, 0, spread_levels("random", 2, 0), seed=1, pace=0), game)
    session.bots[1] = ScriptedBot("none", "12b 6o 7c")
    return session


def analysis_text(app: RondaApp) -> str:
    """The words inside the analysis's box as one line: its borders, and the scrollbar's blocks beside the lines,
    left out, so that a sentence the box wrapped reads whole."""
    rows = screen_text(app).splitlines()
    top = next(i for i, row in enumerate(rows) if "Analysis of your decisions" in row)
    left = rows[top].rfind("┃", 0, rows[top].find("Analysis of your decisions"))
    right = rows[top].find("┃", left + 1)
    inside = []
    for row in rows[top:]:
        if row[left : left + 1] != "┃":
            break
        inside.append(row[left + 1 : right])
    return " ".join(word for word in " ".join(inside).split() if word.strip("▁▂▃▄▅▆▇█▔▕▏▎▍▌▋▊▉"))


def test_a_on_the_game_over_screen_says_the_card_you_dropped_exposed_your_false_tringa():
    """The analysis screen's costliest decision and its list of every decision that lost some chance say what the
    card dropped gave away: "you dropped 6b" alone hid the penalty and the points taken back (R8.6) that lost the
    game, where 12e's caida won it. Only the analysis's own words are read, off the screen."""
    from ronda.analysis.search import Method

    exposed = (
        "you dropped 6b, which exposes your false tringa: 5 to each opposing side in penalties, and the points it"
        " scored are taken back (R8.6)"
    )

    async def scenario() -> None:
        session = exposed_tringa_session()
        session.method = Method(guesses=6)
        app = RondaApp(session=session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("t")  # a tringa, a bluff
            for card in ("2o", "6b"):
                await settle(pilot, app)
                await pilot.press(str(list(session.view.hand).index(parse_card(card)) + 1))
            await settle(pilot, app)
            assert "Game over" in screen_text(app) and "Seat 1 wins!" in screen_text(app)
            await pilot.press("a")
            await until(pilot, lambda: "average loss" in screen_text(app))
            text = analysis_text(app)
            costliest = text.split("The costliest: ", 1)[1]
            assert costliest.startswith(f"1. round 1, deal 1: {exposed}"), text
            assert "Every decision that lost some chance to win: round 1, deal 1:" in text
            # Its line in the list of every decision that lost some chance (": 16.7% to win"), below: scrolled to.
            slip = re.compile(re.escape(f"round 1, deal 1: {exposed}") + r"[^:]*: [0-9.]+% to win \(")
            await pilot.press("end")
            await until(pilot, lambda: slip.search(analysis_text(app)) is not None)

    run(scenario)


def test_closing_the_analysis_while_it_is_searched_stops_it_and_a_starts_it_again():
    """Esc during the search is the full-screen game's Ctrl-C: the key line says so, the search stops at the next
    decision rather than go on unseen beside the next game (a minute of both cores), keeps nothing, and ``a``
    searches the whole analysis again."""
    from dataclasses import replace

    from ronda.analysis.search import Method

    async def scenario() -> None:
        settings = quick_settings(seed=8)
        session = Session(replace(settings, rules=settings.rules.replace(target=3)))
        app = RondaApp(session=session)
        async with app.run_test(size=SIZE) as pilot:
            await play_to_game_over(pilot, app, session)
            session.method = Method(guesses=400)  # slow: about a second a decision
            searched: list[float] = []  # when each decision's search ended
            analyse = session.analyse

            def spied(progress: Any = None, **options: Any) -> Any:
                def counted(done: int, total: int) -> None:
                    searched.append(time.monotonic())
                    progress(done, total)

                return analyse(counted if progress else None, **options)

            session.analyse = spied  # type: ignore[method-assign]
            await pilot.press("a")
            await until(pilot, lambda: len(searched) >= 2)
            await pilot.press("escape")
            await until(pilot, lambda: "Game over" in screen_text(app))
            seen = len(searched)
            await pilot.pause(6 * (searched[-1] - searched[0]) / (len(searched) - 1))  # six decisions' time
            assert len(searched) <= seen + 1, (seen, len(searched))  # it stopped at the next decision
            assert session.review is None  # nothing half-done is kept
            session.method = Method(guesses=6)
            await pilot.press("a")
            await until(pilot, lambda: "average loss" in screen_text(app))
            assert "Enter or Esc: back" in screen_text(app) and "stop" not in screen_text(app)
            assert session.review is not None

    run(scenario)


def test_one_card_left_is_said_in_the_singular_on_screen():
    async def scenario() -> None:
        app = RondaApp(session=last_card_session())
        async with app.run_test(size=SIZE) as pilot:
            for key in ("n", "1", "1"):
                await settle(pilot, app)
                await pilot.press(key)
            await settle(pilot, app)
            text = screen_text(app)
            assert "▮ 1 in hand" in text and "Keys: 1 or ←/→ and Enter" in text
            await refused(pilot, app, [("2", "You hold 1 card: press 1.")])  # not "1 cards: press 1 to 1"

    run(scenario)


def test_a_game_key_once_the_game_is_over_names_the_keys_that_work_then():
    async def scenario() -> None:
        app = RondaApp(session=bluff_session("11o 11c 2b"))  # seat 1's ronda is true: challenging it ends the game
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await settle(pilot, app)
            await pilot.press("c", "y")
            await settle(pilot, app)
            await pilot.press("escape")  # look at the board
            await pilot.pause()
            await pilot.press("1")
            message = "The game is over: p plays again, n starts a new game, a analyses it, s saves, q quits."
            assert message in screen_text(app)  # "a plays again" said the key of the analysis

    run(scenario)


def test_down_on_the_start_screen_opens_a_list_as_its_keys_say():
    async def scenario() -> None:
        app = RondaApp(Settings.make(level="random", seed=3, pace=0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Tab or ←/→: next choice · Enter or ↓: open a list" in screen_text(app)  # not "arrows: next"
            await press_focused(pilot, app, "right", "quit")
            await press_focused(pilot, app, "right", "players")  # →: the next choice
            before = screen_text(app)
            await pilot.press("down")  # ↓ on a list: the list opens, the choice stays
            await pilot.pause()
            after = screen_text(app)
            assert app.screen.query_one("#players").expanded
            assert after != before and "Ronda — a new game" in after

    run(scenario)


async def help_words(variants: dict[str, Any]) -> tuple[list[str], str]:
    """The ``?`` screen of a game with these variants: the rows of its keys table (as read, key first), and all its
    words on one line."""
    settings = Settings.make(level="random", seed=1, pace=0, variants=variants)
    app = RondaApp(settings, setup=False)
    async with app.run_test(size=(100, 120)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        box = app.screen.query_one("#dialog").region
        rows = screen_text(app).splitlines()[box.y + 1 : box.bottom - 1]
        lines = [row[box.x + 1 : box.right - 1].strip() for row in rows]  # inside its frame, not the board's
    start, end = lines.index("Keys") + 2, next(i for i, line in enumerate(lines) if line.startswith("The pack."))
    return lines[start:end], " ".join(" ".join(lines).split())


def test_the_question_mark_lists_only_the_declarations_the_game_allows():
    """A newcomer's audit: the keys of a classic game of three-card hands offered "n r t d … double ronda", a
    declaration only four-card hands allow (R8.1); with auto_declare nobody declares at all (R8.2)."""

    async def scenario() -> None:
        rows, said = await help_words({})
        assert any(re.fullmatch(r"n r t +declare none, ronda or tringa", row) for row in rows), rows
        assert "double ronda" not in said and not any(row.startswith("n r t d") for row in rows)
        rows, said = await help_words({"four_card_hands": True})
        assert any(re.fullmatch(r"n r t d +declare none, ronda, tringa or double ronda", row) for row in rows), rows
        rows, said = await help_words({"auto_declare": True})
        assert not any(row.startswith("n r t") for row in rows), rows
        assert "challenge an opponent's declaration" not in said  # no declaration is false, none is challenged
        assert "no declaring or challenging: every hand declares what it holds, by itself" in said

    run(scenario)


def test_with_automatic_declarations_nothing_on_screen_offers_a_challenge():
    """A helper's note after the newcomer's audit: with auto_declare (R8.2: every declaration true, no challenge)
    the footer still offered "c Challenge" and the rules in short said "announce at the deal" and "A wrong
    challenge loses the game"."""

    async def scenario() -> None:
        settings = Settings.make(level="random", seed=1, pace=0, variants={"auto_declare": True})
        app = RondaApp(settings, setup=False)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            footer = screen_text(app).splitlines()[-1]
            assert "Hint" in footer and "Challenge" not in footer, footer
        _, said = await help_words({"auto_declare": True})
        assert "each hand declares itself at the deal" in said
        assert "challenge" not in said.split("The pack.")[0].lower().replace("no declaring or challenging", "")
        _, said = await help_words({})
        assert "A wrong challenge loses the game." in said  # a game with declarations says it still
        app = RondaApp(Settings.make(level="random", seed=1, pace=0), setup=False)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            assert "Challenge" in screen_text(app).splitlines()[-1]

    run(scenario)


def test_the_question_mark_says_plainly_what_pgup_and_pgdn_do():
    """A newcomer's audit read "(on one narrow too, the hint goes below the hand and pushes the table out of
    sight…)" on the ``?`` screen."""

    async def scenario() -> None:
        _, said = await help_words({})
        assert "narrow too" not in said
        assert (
            "PgUp PgDn scroll the board when the terminal is too short to show all of it. On a short terminal a hint"
            " is shown beside the table, in the play-by-play's place, and these keys scroll the hint. On a terminal"
            " both short and narrow the hint goes under your hand and pushes the table out of sight: PgUp brings the"
            " table back, PgDn the hint."
        ) in said

    run(scenario)


def test_the_question_mark_says_once_how_to_read_a_rule_number_of_a_hint():
    """A newcomer's audit: hints cite "(R8.5)", "(R9.3)", numbers a newcomer has never seen. The ``?`` screen says
    once what they are and where to read them; ``ronda rules`` takes a preset's name, not a rule's number."""

    async def scenario() -> None:
        _, said = await help_words({})
        told = (
            "Numbers like (R8.5) in a hint or the analysis name the rule it rests on: R8.5 is rule 5 of section R8"
            " of ronda's full rules, docs/RULES.md in its source. The rules follow here in plain words, without the"
            " numbers."
        )
        assert said.count(told) == 1, said

    run(scenario)


def region_lines(app: RondaApp, widget: Any) -> list[str]:
    """The screen's lines where ``widget`` stands, cut to its columns: what a person reads in it, where it is."""
    region = widget.content_region
    lines = screen_text(app).splitlines()
    return [line[region.x : region.right].rstrip() for line in lines[max(region.y, 0) : region.bottom]]


def assert_options_hang(app: RondaApp, lines: list[str]) -> int:
    """Every option of the hint whose first line is in ``lines`` reads as the hint says it, each line it wraps onto
    starting under the option's text (after "1. "), not at the pane's edge, as far as ``lines`` go (a pane that
    scrolls holds part of a hint); returns how many such wrapped lines were read."""
    options = [line.split() for line in app.hint.splitlines() if re.match(r" +\d+\. ", line)]
    assert options
    wrapped = 0
    for words in options:
        head = " ".join(words[:2])
        first = next((i for i, line in enumerate(lines) if line.lstrip().startswith(head)), None)
        if first is None:
            continue
        column = lines[first].index(head) + len(words[0]) + 1  # where the option's text starts, after "1. "
        read = lines[first].split()
        for line in lines[first + 1 : first + 1 + len(words)]:
            if len(read) >= len(words):
                break
            assert len(line) - len(line.lstrip()) == column, f"{line!r} does not start under {lines[first]!r}"
            read += line.split()
            wrapped += 1
        assert read == words[: len(read)], f"the option reads {read}, not {words}"
    return wrapped


def test_a_hint_s_wrapped_lines_start_under_their_option_s_text():
    """A newcomer's audit: the lines a hint's option wrapped onto started at the pane's edge, under "1.", so one
    option ran into the next. They now hang under the option's text, under the hand and in the pane beside it."""
    from ronda.analysis.search import Method

    async def scenario() -> None:
        for size in ((70, 60), (80, 24)):  # narrow: under the hand; short: in the play-by-play's place beside it
            session = Session(quick_settings(seed=3))
            session.method = Method(guesses=6)
            app = RondaApp(session=session)
            async with app.run_test(size=size) as pilot:
                await settle(pilot, app)
                await pilot.press("h")
                await until(pilot, lambda app=app: "Hint — your chance to win" in screen_text(app))
                await settle(pilot, app)
                where = app.query_one("#prompt" if size == (70, 60) else "#hint-pane")
                wrapped = assert_options_hang(app, region_lines(app, where))
                if size == (80, 24):
                    await pilot.press("pagedown", "pagedown")  # the pane holds part of the hint: its last option
                    await pilot.pause()
                    assert "3. declare tringa" in " ".join(region_lines(app, where))
                    wrapped += assert_options_hang(app, region_lines(app, where))
                assert wrapped >= 6, "few lines wrapped: the test shows nothing"

    run(scenario)


async def tab_stops(pilot: Any, app: RondaApp, presses: int = 20) -> list[str | None]:
    """The ids of what Tab reaches, in order, over ``presses`` presses: what a keyboard user can get to."""
    reached = []
    for _ in range(presses):
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not None
        reached.append(app.focused.id)
    return reached


def test_the_start_screen_offers_chain_points_only_where_there_is_a_chain():
    """A newcomer's audit: the start screen of a 2-player game offered "Chain points 1-5-10", where there is no
    chain (R5.3: more than two players only). With two players the choice is not offered and the screen says why;
    with three it is, and the game keeps what the rules preset says either way (its record is unchanged)."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(level="random", seed=3, pace=0, preset="heavy"), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            assert "Chain points none: no chain with 2 players" in text
            assert "1-6-15" not in text and "1-5-10" not in text
            reached = await tab_stops(pilot, app)
            assert "undeclared_ronda_penalty" in reached and "chain_points" not in reached
            app.screen.query_one("#players").value = 3
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            assert "Chain points 1-6-15 ▼" in text and "no chain" not in text
            app.screen.query_one("#players").value = 2
            await pilot.pause()
            assert "Chain points none: no chain with 2 players" in " ".join(screen_text(app).split())
            await pilot.click("#start")
            await settle(pilot, app)
            assert app.session is not None and app.session.rules == Rules(
                players=2, chain_points=(1, 6, 15), undeclared_ronda_penalty=5
            )

    run(scenario)


def test_the_start_screen_puts_four_card_hands_out_of_reach_for_three_players():
    """A newcomer's audit: three players with "four card hands" ticked was offered, then refused at Start (R10:
    2 or 4 players). With three the box is unticked and out of reach, saying why; with four it is ticked again."""

    async def scenario() -> None:
        app = RondaApp(Settings.make(level="random", seed=3, pace=0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.screen.query_one("#four_card_hands").value = True  # ticked in a game of two
            await pilot.pause()
            assert "[x] four card hands" in screen_text(app)
            app.screen.query_one("#players").value = 3
            await pilot.pause()
            text = screen_text(app)
            assert "[ ] four card hands (2 or 4 players)" in text and "[x] four card hands" not in text
            reached = await tab_stops(pilot, app)
            assert "four_card_hands" not in reached  # out of reach
            app.screen.query_one("#players").value = 4
            await pilot.pause()
            assert "[x] four card hands" in screen_text(app)  # the choice kept for a count that can have it
            app.screen.query_one("#players").value = 3
            await pilot.pause()
            await pilot.click("#start")
            for _ in range(200):  # the game begins (its bots' play is not waited for)
                if app.session is not None:
                    break
                await pilot.pause()
            assert app.session is not None, screen_text(app)
            assert app.session.rules.players == 3 and not app.session.rules.four_card_hands

    run(scenario)
