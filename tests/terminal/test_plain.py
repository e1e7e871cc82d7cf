"""``ronda play --plain``: the game as lines, decisions as typed commands, driven by piping commands in."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from terminal_helpers import (
    bluff_session,
    card_names_in,
    hidden_from,
    last_card_session,
    proven_ronda_session,
    quick_settings,
    script_round,
    simple_choice,
)

import ronda
from ronda.cli import main as cli
from ronda.engine.game import Game
from ronda.engine.record import load_record, replay
from ronda.engine.rules import Rules
from ronda.interfaces.terminal.plain import PlainGame
from ronda.interfaces.terminal.session import Session, Settings, parse_command
from ronda.presentation.rules_text import rules_summary

SRC = str(Path(ronda.__file__).resolve().parents[1])
"""The tree under test: a subprocess run in another directory imports this ``ronda``, not an installed one."""


def run_ronda(*args: str, stdin: str = "", cwd: object = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ronda", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": SRC},
    )


def test_a_piped_round_plays_out_as_in_process():
    settings = quick_settings(seed=7)
    commands = script_round(settings)
    stdin = "\n".join([*commands, "quit", "quit"])  # the first asks: the game is not saved
    result = run_ronda("play", "--plain", "--seed", "7", "--level", "random", stdin=stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.splitlines()[0] == (
        "Ronda, 2 players: you are seat 0; bots: seat 1 (random). Classic rules, target 41. Seed 7."
    )
    # The same game in-process gives the same narration: the subprocess played what was typed.
    session = Session(settings)
    for command in [*commands, None]:
        while not session.human_to_act():
            session.step_bot()
        if command is not None:
            session.act(parse_command(command, session))  # type: ignore[arg-type]
    for line in session.lines:
        assert line in out
    assert "— Summary of round 1 —" in out
    totals = session.rounds[0].totals
    assert f"Scores: you {totals[0]}, seat 1 {totals[1]} (target 41)" in out
    assert all(f"> {command}" in out for command in commands)
    asked = "> quit\nQuit without saving? Type 'quit' again to leave, or 'save' to keep the game first (it writes a new"
    assert out.count(asked) == 1 and out.rstrip().endswith("> quit\nBye. (The game was not saved.)")


def test_the_plain_transcript_never_shows_a_hidden_card():
    """R11: at every prompt, the round so far names no card of another hand or of the stock."""

    class Checked(PlainGame):
        prompts = 0

        def read(self) -> str | None:
            text = self.stdout.getvalue()  # type: ignore[attr-defined]
            this_round = text[text.rindex("— round") :]
            assert not card_names_in(this_round) & hidden_from(self.session)
            Checked.prompts += 1
            if self.session.game.round >= 2 or self.session.over:
                return None
            return simple_choice(self.session)

    for players, seat in ((2, 1), (3, 2), (4, 0)):
        Checked(Session(quick_settings(seed=3, players=players, seat=seat)), io.StringIO(), io.StringIO()).run()
    assert Checked.prompts > 40


def plain(commands: str, seed: int = 4) -> str:
    out = io.StringIO()
    assert PlainGame(Session(quick_settings(seed=seed)), io.StringIO(commands), out).run() == 0
    return out.getvalue()


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_help_fits_the_terminal_it_is_read_in(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """An audit: the commands were wrapped for 110 columns, and a terminal of 100 broke them again mid-word."""
    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback=(80, 24): os.terminal_size((columns, 30)))
    out = plain("help\nquit\n")
    start = out.index("Commands: play 5c")
    said = out[start : out.index("· quit", start) + len("· quit")]
    assert all(len(line) < columns for line in said.splitlines()), said
    assert "'declare' alone declares what you hold" in " ".join(said.split())


def test_bad_commands_are_explained_and_the_game_goes_on():
    session = Session(quick_settings(seed=4))
    hand = session.view.hand.names()
    out = plain(f"play {hand[0]}\nchallenge 1\nflip\ndeclare none\nplay 12x\nhelp\nrules\nquit\n")
    assert "First declare for this deal: none, ronda, tringa." in out
    assert "Challenges come on your turn to play, after the declarations." in out
    # A word that is not a command is answered with the commands (an audit: "flip" got the card syntax), a
    # card that cannot be read with the card syntax.
    assert "Cannot read 'flip': say 'play 5c', 'declare ronda', 'challenge 1', 'help' or 'quit'." in out
    assert "You declare none" in out
    assert "Cannot read '12x': a card is rank then suit letter" in out
    assert rules_summary(session.rules) in out  # the rules in short
    assert "Challenge. On your turn, before playing, you may challenge" in out  # the whole rules
    assert "Commands: play 5c" in out


def test_a_finished_game_offers_another(monkeypatch):
    # A target of 1: the first point wins. Play on with the scripted human, then start again.
    settings = quick_settings(seed=9)
    from dataclasses import replace

    settings = replace(settings, rules=settings.rules.replace(target=1))

    class Scripted(PlainGame):
        games = 0

        def read(self) -> str | None:
            if self.session.over:
                Scripted.games += 1
                return "again" if Scripted.games == 1 else "quit"
            return simple_choice(self.session)

    out = io.StringIO()
    Scripted(Session(settings), io.StringIO(), out).run()
    text = out.getvalue()
    assert text.count("Final scores: ") == 2
    assert "Type 'again' for a new game, 'analysis' to see how you played, 'save' to keep it, or 'quit'." in text
    assert "Seed 10." in text  # the next game takes the next seed


def test_save_then_resume_from_the_command_line(tmp_path):
    result = run_ronda(
        "play",
        "--plain",
        "--seed",
        "3",
        "--level",
        "random",
        "--seat",
        "1",
        "--save",
        "mine.json",
        stdin="declare\nsave\nquit\n",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert (
        "Saved to mine.json (the game) and mine.play.json (your seat and the bots). "
        "Continue it later with: ronda play --resume mine.json"
    ) in result.stdout
    assert result.stdout.rstrip().endswith("Bye.")  # nothing happened since the save
    result = run_ronda("play", "--plain", "--resume", "mine.json", stdin="state\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "you are seat 1; bots: seat 0 (random)" in result.stdout  # the seat and bots of the side file
    assert "You declare" in result.stdout  # the history is told again
    resumed = Session.resume(tmp_path / "mine.json")
    assert f"Your hand: {resumed.view.hand}" in result.stdout


def test_help_and_bad_options():
    result = run_ronda("play", "--help")
    assert result.returncode == 0
    for option in (
        "--players",
        "--seat",
        "--level",
        "--preset",
        "--variant",
        "--target",
        "--seed",
        "--pace",
        "--plain",
        "--resume",
        "--save",
    ):
        assert option in result.stdout
    result = run_ronda("play", "--plain", "--level", "grandmaster")
    assert result.returncode == 2
    assert "unknown bot level 'grandmaster' (known: random, easy, medium" in result.stderr
    result = run_ronda("play", "--plain", "--variant", "four_card_hands", "--players", "3")
    assert result.returncode == 2 and "four_card_hands is played by 2 or 4 players" in result.stderr
    result = run_ronda("play", "--plain", "--resume", "no-such-file.json")
    assert result.returncode == 2 and "no-such-file.json: cannot read it: no such file or directory" in result.stderr


def test_without_textual_the_terminal_falls_back_to_plain_lines(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "textual", None)  # import textual now fails
    stdin = io.StringIO("quit\n")
    monkeypatch.setattr(stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli.main(["play", "--seed", "1", "--level", "random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"(plain mode: for the full-screen game, {sys.executable} -m pip install 'ronda[tui]')")
    assert "Your hand: " in out


def test_R8_8_plain_mode_never_hints_a_challenge_that_can_only_fail_and_asks_before_any():
    session = proven_ronda_session()
    record = session.game.to_record()
    out = io.StringIO()
    commands = "challenge 0\nn\nplay 3e\nplay 5o\nchallenge 0\nno\nquit\n"
    PlainGame(session, io.StringIO(commands), out).run()
    text = out.getvalue()
    first, proven = text.split("> play 5o")
    assert (
        "You may first challenge seat 0's ronda. Type 'play 3e' (or 'play 1' for your first card) or 'challenge 0'."
        in first
    )
    assert (
        "> challenge 0\nIf seat 0 really holds a ronda, you lose the game. Challenge? y/n\n> n\nNo challenge." in first
    )
    assert "challenge 0'" not in proven and "You may first challenge" not in proven  # all of seat 0's cards are up
    assert "Your turn: play a card. Type 'play 6c' (or 'play 1' for your first card)." in proven
    assert (
        "Seat 0's ronda is proven true by the cards you have seen: challenging it loses you the game. "
        "Challenge anyway? y/n\n> no\nNo challenge."
    ) in proven
    actions = session.game.to_record()["rounds"][0]["actions"]
    assert actions[: len(record["rounds"][0]["actions"])] == record["rounds"][0]["actions"]
    assert not any("challenge" in str(action) for action in actions)  # no 'n' ever challenged


def test_R8_8_plain_mode_challenges_after_a_yes():
    out = io.StringIO()
    PlainGame(bluff_session("11o 12c 2b"), io.StringIO("declare none\nchallenge 1\ny\nquit\n"), out).run()
    text = out.getvalue()
    assert "If seat 1 really holds a ronda, you lose the game. Challenge? y/n\n> y\n" in text
    assert "You challenge seat 1: hand 2b 11o 12c — the declaration is false" in text


RULE_ID = re.compile(r"\bR\d+(\.\d+)?\b")


def test_no_rule_id_in_what_a_player_reads():
    """Rule ids (R8.2) are for engineers, in exceptions and docstrings; a player reads the sentence alone."""
    session = Session(quick_settings(seed=4))
    hand = session.view.hand.names()
    commands = [f"play {hand[0]}", "challenge 1", "declare double ronda", "play", "declare none", "ronda"]
    commands += ["challenge 0", "challenge 1", "n", "help", "rules", *script_round(quick_settings(seed=4))[1:], "quit"]
    out = plain("\n".join(commands) + "\n")
    assert "First declare for this deal: none, ronda, tringa." in out
    assert not RULE_ID.search(out), RULE_ID.search(out)


def test_a_record_that_cannot_be_resumed_is_named_without_rule_ids(tmp_path):
    game = Game(Rules(players=2), seed=1)
    record = game.to_record()
    record["rounds"][0]["actions"] = [{"seat": 0, "declare": "double_ronda"}]
    (tmp_path / "bad.json").write_text(json.dumps(record))
    result = run_ronda("play", "--plain", "--resume", "bad.json", cwd=tmp_path)
    assert result.returncode == 2
    assert "double ronda can only be declared with four-card hands" in result.stderr
    assert not RULE_ID.search(result.stderr) and result.stdout == ""


def test_a_card_by_its_place_in_the_hand_as_in_full_screen():
    session = Session(quick_settings(seed=4))
    hand = session.view.hand.names()
    out = plain("play\ndeclare none\nplay 9\nplay\nplay 2\n3\nquit\n")
    assert out.count("First declare for this deal: none, ronda, tringa.") == 1  # 'play' before declaring
    assert "You hold 3 cards: play 1 to 3, or name the card" in out
    assert f"Play which card? Name it or give its place in your hand: 'play {hand[0]}' or 'play 1'." in out
    assert f"You drop {hand[1]}" in out or f"You play {hand[1]}" in out  # 'play 2': the second card
    assert parse_command("2", session) == parse_command(f"play {hand[1]}", session)


def test_save_and_state_still_work_once_the_game_is_over(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = quick_settings(seed=9)
    session = Session(replace(settings, rules=settings.rules.replace(target=1)))

    after = ["state", "save over.json", "quit"]

    class Scripted(PlainGame):
        def read(self) -> str | None:
            if self.session.over:
                command = after.pop(0)
                self.say(f"> {command}")
                return command
            return simple_choice(self.session)

    out = io.StringIO()
    Scripted(session, io.StringIO(), out).run()
    text = out.getvalue()
    after = text[text.index("> state") :]
    assert f"Scores: {session.scores_text()}" in after and "Final scores:" in after
    assert "Saved to over.json (the game) and over.play.json (your seat and the bots). " in after
    assert "Watch it again with: ronda replay over.json" in after
    assert replay(load_record(tmp_path / "over.json")).winner == session.game.winner


def test_one_card_left_is_said_in_the_singular():
    out = io.StringIO()
    commands = "declare none\nplay 1\nplay 1\nstate\nplay 2\nquit\n"
    PlainGame(last_card_session(), io.StringIO(commands), out).run()
    text = out.getvalue()
    assert "Seat 1 (random): 1 card in hand, its pile" in text  # not "1 cards"
    assert "You hold 1 card: play 1, or name the card ('play " in text  # not "play 1 to 1"
    assert "1 cards" not in text and "1 to 1" not in text


def test_y_in_the_middle_of_a_game_is_told_what_it_answers():
    out = io.StringIO()
    PlainGame(last_card_session(), io.StringIO("declare none\ny\nagain\nquit\n"), out).run()
    text = out.getvalue()
    assert "'y' answers a question, and none is asked now: after 'challenge 1' the game asks y/n first" in text
    assert "'again' starts a new game once this one is over." in text
    assert "means something only when a game is over" not in text


def test_save_names_both_files_it_writes_and_a_checkout_ignores_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    PlainGame(last_card_session(), io.StringIO("declare none\nsave\nquit\n"), out).run()
    written = sorted(path.name for path in tmp_path.iterdir())
    assert len(written) == 2, written
    record, side = (next(name for name in written if name.endswith(".play.json") == is_side) for is_side in (0, 1))
    assert f"Saved to {record} (the game) and {side} (your seat and the bots)." in out.getvalue()
    # In a checkout of ronda, a game saved where `ronda play` was started is not an untracked file.
    checkout = Path(__file__).resolve().parents[2]
    if not (checkout / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(
        ["git", "-C", str(checkout), "check-ignore", "--no-index", record, side, f"docs/{record}", "game.play.json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ignored.stdout.split() == [record, side, f"docs/{record}", "game.play.json"]


class Interrupted(io.StringIO):
    """Input that is Ctrl-C'd once its lines are read, as a terminal does on SIGINT."""

    def readline(self, *args: object) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_leaves_on_a_new_line_saying_whether_the_game_was_saved(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    game = PlainGame(Session(quick_settings(seed=4)), Interrupted("declare none\n"), out, echo=False)
    assert game.run() == 130
    assert out.getvalue().endswith("> \nLeft the game: it was not saved.\n")
    out = io.StringIO()
    game = PlainGame(Session(quick_settings(seed=4)), Interrupted("save g.json\n"), out, echo=False)
    assert game.run() == 130
    assert out.getvalue().endswith("> \nLeft the game: it is saved in g.json (ronda play --resume g.json).\n")


def test_a_real_sigint_ends_the_plain_game_cleanly(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "ronda", "play", "--plain", "--seed", "3", "--level", "random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": SRC},
        # Ctrl-C as a terminal gives it: a runner started in the background (CI) ignores SIGINT, and a child
        # would inherit that and never see the key.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None and process.stdin is not None
    for line in process.stdout:  # wait for the first question, then press Ctrl-C
        if line.startswith("Declare "):
            break
    process.send_signal(signal.SIGINT)
    # stdin stays open until the game has left: closing it now would race the signal with an end of input.
    process.wait(timeout=30)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert out.endswith("\nLeft the game: it was not saved.\n") and "Traceback" not in err


def test_playing_again_never_saves_over_the_game_before(tmp_path, monkeypatch):
    """``--save g.json``, a game won, saved, then 'again': the next game saves to g-2.json (an audit found the
    finished game's record written over without a word), and saving a game twice writes the same file."""
    monkeypatch.chdir(tmp_path)
    settings = quick_settings(seed=9)
    session = Session(replace(settings, rules=settings.rules.replace(target=1)))
    after = [["save", "save", "again"], ["save", "quit"]]
    games: list[Session] = []

    class Scripted(PlainGame):
        def read(self) -> str | None:
            if self.session.over:
                if not games or games[-1] is not self.session:
                    games.append(self.session)
                command = after[len(games) - 1].pop(0)
                self.say(f"> {command}")
                return command
            return simple_choice(self.session)

    out = io.StringIO()
    Scripted(session, io.StringIO(), out, save_path="g.json").run()
    text = out.getvalue()
    assert text.count("Saved to g.json (the game)") == 2 and "Saved to g-2.json (the game)" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g-2.json", "g-2.play.json", "g.json", "g.play.json"]
    first, second = (load_record(tmp_path / name) for name in ("g.json", "g-2.json"))
    assert first == games[0].record() and second == games[1].record() and first != second


def test_quitting_a_game_with_moves_not_saved_asks_first_as_the_full_screen_does(tmp_path, monkeypatch):
    """An audit: the full screen asked before its q lost a game, the plain mode quit at the first 'quit' (a screen
    reader's user loses a game to one mistyped line as easily). The question is answered by the next line alone."""
    monkeypatch.chdir(tmp_path)
    out = plain("declare none\nquit\nstate\nquit\nsave g.json\nquit\n")
    question = "Quit without saving? Type 'quit' again to leave, or 'save' to keep the game first"
    assert out.count(question) == 2  # 'state' between the two: the second 'quit' asked again
    assert "Saved to g.json (the game)" in out and out.rstrip().endswith("> quit\nBye.")  # saved: no question
    assert replay(load_record(tmp_path / "g.json")).events  # the game was kept, not lost
    asked_then_left = plain("declare none\nquit\nquit\nstate\n")
    assert asked_then_left.count(question) == 1 and "Bye. (The game was not saved.)" in asked_then_left
    assert "> state" not in asked_then_left  # the second 'quit' left: nothing after it was read


def finished_game(after: list[str], save_at_start: str | None = None) -> str:
    """A game to 1 point played out by simple choices, then the commands ``after`` typed once it is over."""
    settings = quick_settings(seed=9)
    session = Session(replace(settings, rules=settings.rules.replace(target=1)))
    first = [f"save {save_at_start}"] if save_at_start else []

    class Scripted(PlainGame):
        def read(self) -> str | None:
            command = first.pop(0) if first else after.pop(0) if self.session.over and after else None
            if command is None:
                return simple_choice(self.session) if not self.session.over else None
            self.say(f"> {command}")
            return command

    out = io.StringIO()
    Scripted(session, io.StringIO(), out).run()
    return out.getvalue()


def test_a_finished_game_not_saved_asks_before_quit_and_plays_again_at_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = finished_game(["quit", "state", "quit", "quit"])
    over = text[text.index("Type 'again' for a new game") :]
    assert over.count("Quit without saving? Type 'quit' again to leave") == 2
    assert over.rstrip().endswith("> quit")  # left on the quit typed right after its question
    # Playing again after a game never kept in a file goes at once (that player was not keeping it).
    text = finished_game(["again", "quit", "quit"])
    assert "Play again without saving" not in text and text.count("Seed 10.") == 1


def test_a_finished_game_kept_in_a_file_asks_before_play_again(tmp_path, monkeypatch):
    """Saved at the first move and played to the end: its file holds no move of the game, so 'again' asks, and the
    'save' the question offers writes the whole game."""
    monkeypatch.chdir(tmp_path)
    text = finished_game(["again", "save", "again"], save_at_start="g.json")
    over = text[text.index("Type 'again' for a new game") :]
    assert (
        "Play again without saving this game? Type 'again' again for the next game, or 'save' to keep this one "
        "first (it writes g.json)." in over
    )
    assert over.index("Saved to g.json") < over.index("Seed 10.")  # the next game only after the save
    assert replay(load_record(tmp_path / "g.json")).phase == "over"


@pytest.mark.parametrize(
    ("preset", "variants", "title"),
    [
        ("classic", {"dealer_duty": True}, "Classic rules with dealer duty (the dealer's last card must capture)"),
        ("advanced", {}, "Advanced rules: classic with dealer duty (the dealer's last card must capture)"),
        ("classic", {}, "Classic rules"),
    ],
)
def test_the_whole_rules_are_titled_as_the_game_was_started(preset, variants, title):
    """An audit: 'rules' titled a classic game with dealer duty "advanced rules", the preset its rules match, in
    words the start screen never used; now the game's own heading (the same rules as 'advanced' are named so)."""
    settings = Settings.make(2, 0, "random", preset=preset, variants=variants, seed=4, pace=0)
    out = io.StringIO()
    PlainGame(Session(settings), io.StringIO("rules\nquit\n"), out).run()
    heading = "Ronda — the rules of this game, 2 players"
    assert f"{heading}\n{'=' * len(heading)}\n\n{title}.\n\nThe pack." in out.getvalue()
