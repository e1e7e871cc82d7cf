"""Learning the game in the terminal (issue 16): a hint on ``h``/``hint``, kept with the game; the analysis after it."""

from __future__ import annotations

import io
import json
import re
import shutil
import signal
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from terminal_helpers import (
    ScriptedBot,
    card_names_in,
    explicit_session,
    hidden_from,
    quick_settings,
    simple_choice,
)

import ronda
from ronda.analysis.hints import read_hints
from ronda.analysis.review import analyse
from ronda.analysis.search import Method
from ronda.engine.actions import Play
from ronda.engine.record import load_record, replay_result
from ronda.interfaces.terminal.plain import PlainGame
from ronda.interfaces.terminal.session import IllegalMove, Session, Settings, parse_command
from ronda.presentation.coaching import summary_lines

FEW = Method(guesses=6)
"""Hints and analyses in tests search few guesses: what is shown and kept does not depend on the budget."""


def caida_and_missa_session() -> Session:
    """You are seat 1; seat 0 (a random bot) dealt 12c 2o 4b; you hold 5c 2c 11b; the table is 5o 6o 7o 12b."""
    session = explicit_session([{0: "12c 2o 4b", 1: "5c 2c 11b"}], table="5o 6o 7o 12b", human=1)
    session.method = FEW
    return session


def test_a_hint_shows_the_best_options_with_points_and_reasons_and_is_kept_with_the_game(tmp_path) -> None:
    session = Session(quick_settings(seed=3))
    session.method = FEW
    lines = session.hint()
    assert lines[0].startswith(
        "Hint — your chance to win the game after each option, from what you can see (6 guesses of the hidden cards"
    )
    assert [line.split(" ")[4].rstrip(":") for line in lines[1:]] == ["none", "ronda", "tringa"]  # best first
    evaluation = session.hint_evaluation()
    for line, option in zip(lines[1:], evaluation.options, strict=True):  # each its own chance and points
        assert f": {option.chance:.1%} to win ({option.expected:+.2f} points): " in line
    assert "your hand holds no combination" in lines[1] or "what your hand holds" in lines[1]
    assert not card_names_in(" ".join(lines)) & hidden_from(session)  # R11: a hint names no hidden card
    session.act(parse_command(simple_choice(session), session))  # type: ignore[arg-type]
    path = session.save(tmp_path / "game.json")
    record = load_record(path)
    (hint,) = read_hints(record)
    assert (hint.round, hint.action, hint.seat, hint.guesses) == (0, 0, 0, 6)
    assert replay_result(session.game) == replay_result(Session.resume(path).game)  # the record stays valid
    resumed = Session.resume(path)
    assert resumed.hints == [hint]
    resumed.method = FEW
    while not resumed.human_to_act():
        resumed.step_bot()
    resumed.hint()
    resumed.save(path)
    assert len(read_hints(load_record(path))) == 2


def test_a_hint_on_your_last_card_says_first_that_there_is_nothing_to_choose_in_plain_mode() -> None:
    """A student's audit: ``ronda play --plain --seed 7 --target 11``, then these commands; with one card left the
    hint read "your chance to win the game after each option … 1. play 10o: 37.0% to win …", advice where there was
    no choice. It says first that the card is the only one, and keeps its chance to win and what the card risks."""
    session = Session(Settings.make(2, 0, "medium", variants={"target": 11}, seed=7, pace=0))
    session.method = FEW
    commands = "declare none\nplay 3o\nplay 2e\nplay 6c\ndeclare none\nplay 1\nplay 1\nhint\nquit\ny\n"
    out = io.StringIO()
    PlainGame(session, io.StringIO(commands), out).run()
    text = out.getvalue()
    assert "Your hand: 10o\n" in text  # the audit's position: one card left
    hint = text[text.index("> hint\n") + len("> hint\n") :].splitlines()
    assert hint[0].startswith(
        "Hint — your only card: 10o, nothing to choose. Your chance to win the game after it, from what you can see"
        " (6 guesses of the hidden cards)"
    ), hint[0]
    assert "each option" not in hint[0]
    assert hint[1].startswith("  play 10o: ") and "% to win (" in hint[1] and "points): drops it" in hint[1], hint[1]
    assert not hint[2].startswith("  "), hint[2]  # the one card, no list of "best options" under it
    assert len(session.hints) == 1  # kept with the game as any hint


@pytest.mark.parametrize("beside", ["nothing", "a ronda proven true"])
def test_h_on_your_last_card_says_on_screen_that_there_is_nothing_to_choose(beside: str) -> None:
    """The full-screen game says it too, where ``h`` shows the hint: the card, then its chance to win. Beside a ronda
    proven true (seat 0's three cards face up) too: the screen offers no challenge of it, and the hint listed that
    challenge (0%, the game lost) as a second option, "your chance to win the game after each option"."""
    import asyncio

    from terminal_helpers import last_card_session, proven_ronda_session, screen_text
    from test_app import SIZE, settle, until

    from ronda.interfaces.terminal.app import RondaApp

    proven = beside != "nothing"

    async def scenario() -> None:
        session = proven_ronda_session() if proven else last_card_session()
        session.method = FEW
        app = RondaApp(session=session)
        async with app.run_test(size=SIZE) as pilot:
            for key in ("1", "1") if proven else ("n", "1", "1"):
                await settle(pilot, app)
                await pilot.press(key)
            await settle(pilot, app)
            said = "Seat 0's ronda is proven true by the cards you have seen: no challenge to make."
            assert (said in screen_text(app)) == proven
            (card,) = session.view.hand.names()
            await pilot.press("h")
            await until(pilot, lambda: "Hint — " in screen_text(app))
            text = " ".join(screen_text(app).split())
            assert f"Hint — your only card: {card}, nothing to choose. Your chance to win the game after it" in text
            assert re.search(rf"play {card}: [\d.]+% to win \([+-]\d+\.\d\d points\)", text), text
            assert "1. play" not in text and "challenge seat 0" not in text

    asyncio.run(scenario())


def test_a_hint_on_cards_of_one_rank_says_they_play_alike() -> None:
    """Two 5s left and no challenge to make: the two cards play alike (R1.1), nothing to choose; said so, with the
    chance to win after either."""
    session = explicit_session([{0: "5o 5c 12b", 1: "11o 12c 2b"}], table="7e 10e 4b 1c")
    session.bots[1] = ScriptedBot("none", "11o 12c 2b")
    session.method = FEW
    session.act(parse_command("declare ronda", session))  # type: ignore[arg-type]
    session.step_bot()
    session.act(parse_command("play 12b", session))  # type: ignore[arg-type]
    session.step_bot()
    lines = session.hint()
    assert lines[0].startswith(
        "Hint — your cards 5o 5c are of one rank and play alike (R1.1): nothing to choose. Your chance to win the game"
        " after it, "
    ), lines[0]
    assert len(lines) == 2 and lines[1].startswith("  play 5") and "% to win (" in lines[1], lines


def test_a_hint_is_what_the_analysis_says_of_the_same_decision() -> None:
    session = caida_and_missa_session()
    while not (session.human_to_act() and session.view.phase == "play" and len(session.view.hand) == 2):
        if session.human_to_act():
            session.act(parse_command(simple_choice(session), session))  # type: ignore[arg-type]
        else:
            session.step_bot()
    evaluation = session.hint_evaluation()
    session.give_hint(evaluation)
    session.act(Play.parse("11b"))
    review = analyse(session.record(), method=FEW, seats=[1])
    decision = next(d for d in review.decisions if d.taken == Play.parse("11b"))
    assert decision.evaluation == evaluation
    assert decision.hinted


def test_a_hint_is_only_for_your_own_decision() -> None:
    session = explicit_session([{0: "12c 2o 4b", 1: "5c 2c 11b"}], table="5o 6o 7o 12b", human=1)
    assert not session.human_to_act()
    with pytest.raises(IllegalMove, match="A hint is for your own decision"):
        session.hint()
    assert session.hints == []


def test_a_hint_that_comes_after_its_decision_was_taken_is_not_kept() -> None:
    session = Session(quick_settings(seed=3))
    session.method = FEW
    evaluation = session.hint_evaluation()
    session.act(parse_command("declare", session))  # type: ignore[arg-type]
    while not session.human_to_act():
        session.step_bot()
    assert session.give_hint(evaluation) == []
    assert session.hints == []


def finished_session(seed: int = 8) -> Session:
    """A game to a target of 3 played to its end by the scripted human against a random bot."""
    settings = quick_settings(seed=seed)
    session = Session(replace(settings, rules=settings.rules.replace(target=3)))
    session.method = FEW
    while not session.over:
        if session.human_to_act():
            session.act(parse_command(simple_choice(session), session))  # type: ignore[arg-type]
        else:
            session.step_bot()
    return session


def test_the_analysis_after_a_game_sums_up_your_decisions_in_words() -> None:
    session = finished_session()
    lines = session.analysis_lines()
    review = session.review
    assert review is not None and review.seats == (0,)
    summary = review.summary(0)
    assert lines[0] == (
        f"You: {summary.decisions} decisions with a choice (of {summary.moves} moves),"
        f" average loss {100 * summary.average_loss:.1f}"
        " percentage points of the chance to win a decision"
    )
    assert lines[1].startswith("  best ")
    costly = [d for d in review.decisions if d.grade != "best"]
    assert len(costly) >= 2  # the scripted human plays its lowest card whatever the table
    assert "  The costliest:" in lines
    assert any(line.startswith("  1. round ") and ": you " in line for line in lines)
    slips = lines[lines.index("Every decision that lost some chance to win:") + 1 :]
    assert len(slips) == len(costly) and all(line.startswith("round ") and ": you " in line for line in slips)
    assert session.analysis_lines() == lines  # worked out once


BROWSER_SUMMARY = """
globalThis.document = { documentElement: {} };  // setLanguage marks the page's language on it
const { seatSummaryText } = await import(process.argv[2]);
const { setLanguage } = await import(process.argv[3]);
for (const language of ["en", "fr"]) {
  setLanguage(language);
  for (const seat of JSON.parse(process.argv[4])) console.log(seatSummaryText(seat));
}
"""


def test_the_replay_page_counts_the_decisions_with_a_choice_of_all_the_moves_as_the_terminal_does(tmp_path) -> None:
    """A terminal audit: "You: 88 decisions" after 112 moves read as a miscount. The replay page shows the same
    count from the same JSON (coach.js): it says what it counts, in its languages, and an analysis stored before
    the moves were counted says its decisions with a choice alone."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run the browser's coach.js")
    session = finished_session()
    review = analyse(session.record(), method=FEW)
    seats = review.to_json()["seats"]
    moves = [sum(1 for r in session.record()["rounds"] for a in r["actions"] if a["seat"] == s) for s in (0, 1)]
    assert [seat["moves"] for seat in seats] == moves
    stored_before = {key: value for key, value in seats[0].items() if key != "moves"}
    script = tmp_path / "summary.mjs"
    script.write_text(BROWSER_SUMMARY, encoding="utf-8")
    js = Path(ronda.__file__).parent / "interfaces/web/static/js"
    arguments = [(js / "coach.js").as_uri(), (js / "i18n.js").as_uri(), json.dumps([*seats, stored_before])]
    said = subprocess.run([node, str(script), *arguments], capture_output=True, text=True, timeout=60, check=True)
    lines = said.stdout.splitlines()  # in English, then in French: seat 0, seat 1, seat 0 as stored before
    for seat, line in zip(seats, lines[:2], strict=True):
        counted = f"{seat['decisions']} decisions with a choice (of {seat['moves']} moves), average loss "
        assert line.startswith(counted), line
        assert counted in summary_lines(review.summary(seat["seat"]))[0]  # the terminal's words
    assert lines[2].startswith(f"{seats[0]['decisions']} decisions with a choice, average loss "), lines[2]
    assert lines[3].startswith(f"{seats[0]['decisions']} décisions avec un choix (sur {seats[0]['moves']} coups),")


def test_plain_mode_hint_and_analysis_commands() -> None:
    session = finished_session()
    out = io.StringIO()
    PlainGame(session, io.StringIO("hint\nanalysis\nquit\n"), out).run()
    text = out.getvalue()
    assert "Type 'again' for a new game, 'analysis' to see how you played" in text
    assert "The game is over" in text or "> hint" in text
    assert "You: " in text and "average loss" in text
    assert "best < 1 ≤ good < 2.5" in text

    playing = Session(quick_settings(seed=4))
    playing.method = FEW
    out = io.StringIO()
    PlainGame(playing, io.StringIO("hint\nanalysis\nquit\n"), out).run()
    text = out.getvalue()
    assert "Hint — your chance to win the game after each option, from what you can see" in text
    assert "The analysis comes when the game is over; for this decision, type 'hint'." in text
    assert len(playing.hints) == 1


def test_audit_5_plain_mode_analysis_shows_its_progress_in_plain_lines() -> None:
    """The analysis after a game may search for a minute: plain mode said nothing meanwhile (coach audit, item 5)."""
    session = finished_session()
    out = io.StringIO()
    assert PlainGame(session, io.StringIO("analysis\nquit\n"), out).run() == 0
    text = out.getvalue()
    review = session.review
    assert review is not None
    total = len(review.decisions)
    start = text.index("Analysing your decisions from what you could see then (this takes a while; Ctrl-C stops it)…")
    first = text.index(f"\nAnalysis: 0/{total} decisions with a choice (0%)\n", start)
    last = text.index(f"\nAnalysis: {total}/{total} decisions with a choice (100%)\n", first)
    assert last < text.index("\nYou: ", last)


class SigintOnProgress(io.StringIO):
    """The game's output, where Ctrl-C is pressed once while the analysis's first progress line is shown."""

    pressed = False

    def write(self, text: str) -> int:
        written = super().write(text)
        if text.startswith("Analysis: 0/") and not self.pressed:
            self.pressed = True
            signal.raise_signal(signal.SIGINT)  # as a terminal does: KeyboardInterrupt in the search
        return written


def test_audit_5_ctrl_c_stops_the_plain_mode_analysis_and_the_game_stays_at_its_end() -> None:
    """Ctrl-C in the analysis left the game (exit 130); it stops the analysis only, which may be asked again.

    The key reaches the game as a terminal gives it to a program in the foreground, whose SIGINT raises
    KeyboardInterrupt: a test runner started in the background (``pytest &``, as CI may run it) ignores SIGINT,
    and its workers with it, so the pressed key would do nothing here.
    """
    session = finished_session()
    out = SigintOnProgress()
    runner_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert PlainGame(session, io.StringIO("analysis\nanalysis\nquit\n"), out).run() == 0
    finally:
        signal.signal(signal.SIGINT, runner_handler)
    text = out.getvalue()
    assert out.pressed and "Left the game" not in text
    stopped = text.index(
        "\nAnalysis stopped. Type 'analysis' to start it again, 'again' for a new game, 'save' or 'quit'.\n"
    )
    assert "\nYou: " not in text[:stopped]
    again = text.index("> analysis", stopped)
    assert "\nYou: " in text[again:] and session.review is not None
