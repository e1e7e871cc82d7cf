"""The plain line mode of ``ronda play``: the game as lines of text, decisions as typed commands.

For pipes, scripts and screen readers: nothing is redrawn, every line is a
sentence, and every command is a line (``play 5c``, ``declare ronda``,
``challenge 1``, ``save game.json``, ``help``, ``quit``). When the input is not
a terminal each command read is echoed after ``> `` so a transcript reads in
order.

>>> import io
>>> from .session import Session, Settings
>>> out = io.StringIO()
>>> session = Session(Settings(levels=(None, "random"), seed=2, pace=0))
>>> PlainGame(session, io.StringIO("declare\\nquit\\n"), out).run()
0
>>> "> declare" in out.getvalue() and "You declare" in out.getvalue()
True
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import TextIO

from ...analysis.grades import thresholds_text
from ...engine.actions import Action, Challenge
from ...engine.game import DECLARE
from ...presentation.coaching import CHOICES
from ...presentation.progress import Update, progress_lines
from .session import IllegalMove, Session, parse_command, rulebook, rules_help

COMMANDS = (
    "Commands: play 5c (or just 5c; play 2 plays your second card) · declare ronda (none, tringa; 'declare' alone"
    " declares what you hold) · challenge 1 (before playing; asks y/n first) · hint (your best options, with your"
    " chance to win after each) · state · save [FILE] · help · rules (the whole rules) · analysis (once the game is"
    " over) · quit"
)
"""The commands, one paragraph: ``help`` wraps it to the terminal's width (pre-wrapped at 110 columns, a terminal of
100 broke its lines again mid-word)."""


def commands_text(width: int | None = None) -> str:
    """:data:`COMMANDS` wrapped to ``width`` columns, the terminal's when None (80 where it cannot tell)."""
    columns = width or shutil.get_terminal_size((80, 24)).columns
    return textwrap.fill(COMMANDS, width=max(40, columns - 1), break_on_hyphens=False)


QUIT_WORDS = ("quit", "q", "exit", "no", "n")
"""What leaves a finished game ('no' and 'n' answer its "again?"); during a game, :func:`parse_command`'s quit."""

AGAIN_WORDS = ("again", "new", "yes", "y")
"""What plays the next game once one is over."""

LEAVING = {
    "quit": "Quit without saving? Type 'quit' again to leave, or 'save' to keep the game first",
    "again": "Play again without saving this game? Type 'again' again for the next game, or 'save' to keep this one "
    "first",
}
"""What leaving a game with moves not yet saved asks, by the command that leaves it, as the full screen's q and p
ask (:data:`~ronda.interfaces.terminal.app.LEAVING`); the command again leaves, anything else goes on."""

EXIT_INTERRUPTED = 130
"""The exit code of a game left with Ctrl-C, as shells report a program stopped by SIGINT."""


class PlainGame:
    """Reads commands, prints the game; one :class:`Session` at a time (``again`` starts the next)."""

    def __init__(
        self,
        session: Session,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        pace: float = 0.0,
        echo: bool | None = None,
        save_path: str | None = None,
    ) -> None:
        self.session = session
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.pace = pace
        self.echo = echo if echo is not None else not _isatty(self.stdin)
        self._shown_at = -1
        self.save_path = save_path
        self._asking: str | None = None  # the leaving command whose question is waiting for it again
        self._asked: str | None = None  # that question, when the line just read answers it

    def say(self, *lines: str) -> None:
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def read(self) -> str | None:
        """One command line, or ``None`` at the end of the input."""
        if not self.echo:
            self.stdout.write("> ")
            self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        if self.echo:
            self.say(f"> {line.strip()}")
        return line.strip()

    def run(self) -> int:
        """Play until the input ends or the player quits; the exit code (0, or 130 after Ctrl-C).

        Ctrl-C ends the line it interrupted, then says whether the game was saved.
        """
        try:
            return self._run()
        except KeyboardInterrupt:
            self.stdout.write("\n")
            self.say(f"Left the game: {self._saved_words()}.")
            return EXIT_INTERRUPTED

    def _next(self) -> str | None:
        """The next command: a question about leaving (:meth:`_leaves`) is answered by it alone, any other drops it."""
        self._asked, self._asking = self._asking, None
        return self.read()

    def _saved_words(self) -> str:
        session = self.session
        if session.over:
            return "it was over" + (f" and is saved in {session.saved_to}" if session.saved_to else "")
        if session.saved_to is not None and not session.unsaved():
            return f"it is saved in {session.saved_to} (ronda play --resume {session.saved_to})"
        if session.saved_to is not None:
            return f"the moves since the last save to {session.saved_to} are lost"
        return "it was not saved"

    def _run(self) -> int:
        self._start()
        over_told = False
        while True:
            session = self.session
            if session.over:
                if not over_told:
                    self.say(
                        *session.result(),
                        "Type 'again' for a new game, 'analysis' to see how you played, 'save' to keep it, or 'quit'.",
                    )
                    over_told = True
                text = self._next()
                if text is None:
                    return 0
                if text.lower() in QUIT_WORDS:
                    if self._leaves("quit"):
                        return 0
                    continue
                if text.lower() in AGAIN_WORDS:
                    if not self._leaves("again"):
                        continue
                    self.session = session.again()
                    over_told = False
                    self._start()
                    continue
                command = self._over_command(text)
                if command is None:
                    self.say("The game is over: type 'again', 'analysis', 'save', 'state' or 'quit'.")
                else:
                    self._interface_command(command)
                continue
            if not session.human_to_act():
                for lines in session.run_bots(self.pace):
                    self.say(*lines)
                continue
            self.show_state(full=self._shown_at != len(session.game.events))
            text = self._next()
            if text is None:
                self.say("End of input: the game is left unfinished ('save FILE' keeps a game to resume).")
                return 0
            if self._command(text) == "quit":
                return 0

    def _leaves(self, command: str) -> bool:
        """Whether ``command`` (quit, or again) leaves the game now: at once when no move would be lost
        (:meth:`Session.asks_before_leaving`), else when it is typed again right after the question it asks.

        The full screen asked and the plain mode quit unasked, a finished game as one in progress (an audit): a
        screen reader's user loses a game to one mistyped line as easily. A script's input ending still leaves.
        """
        session = self.session
        if self._asked == command or not session.asks_before_leaving(command == "quit"):
            return True
        path = session.save_path(self.save_path)
        where = f"it writes {path}" if path is not None else "it writes a new file named by the date and time"
        self.say(f"{LEAVING[command]} ({where}).")
        self._asking = command
        return False

    def _start(self) -> None:
        self.say(self.session.title(), "Type 'help' for the rules and the commands.", *self.session.lines)

    def show_state(self, full: bool = True) -> None:
        """What the player sees before a decision (R11: own hand and public facts only); only the prompt if not full."""
        session = self.session
        view = session.view
        self._shown_at = len(session.game.events)
        if full:
            self.say(f"Scores: {session.scores_text()} · {session.where_text()}")
            self.say(f"Table: {view.table or '(empty)'}")
            if session.chain_text():
                self.say(session.chain_text())
            for seat in range(session.rules.players):
                if seat != session.human:
                    self.say(session.seat_text(seat))
            self.say(f"Your hand: {view.hand}")
        if session.over:
            self.say(*session.result())
            return
        prompt = session.prompt()
        if view.phase == DECLARE:
            prompt += f" Type 'declare {session.true_declaration()}' (or just 'declare' to declare what you hold)."
        else:
            prompt += f" Type 'play {view.hand.names()[0]}' (or 'play 1' for your first card)"
            targets = session.challenge_targets()  # never one the cards you have seen prove true (R8.8)
            prompt += f" or 'challenge {targets[0]}'." if targets else "."
        self.say(prompt)

    def _command(self, text: str) -> str | None:
        session = self.session
        try:
            command: Action | str = parse_command(text, session)
            if isinstance(command, str):
                return self._interface_command(command)
            if isinstance(command, Challenge) and not self._confirmed(command.target):
                return None
            self.say(*session.act(command))
        except IllegalMove as error:
            self.say(str(error))
        return None

    def _confirmed(self, target: int) -> bool:
        """Ask before a challenge: a true declaration wins its side the game (R8.8). Only 'y' or 'yes' confirms."""
        self.say(self.session.challenge_question(target))  # raises IllegalMove when it is not allowed
        answer = self.read()
        if answer is not None and answer.lower() in ("y", "yes"):
            return True
        self.say("No challenge. Play a card.")
        return False

    def _over_command(self, text: str) -> str | None:
        """The interface commands that still mean something once the game is over: save, state, help, rules."""
        try:
            command = parse_command(text, self.session)
        except IllegalMove:
            return None
        if isinstance(command, str) and command.split()[0] in ("save", "state", "help", "rules", "analysis"):
            return command
        return None

    def _interface_command(self, command: str) -> str | None:
        if command == "quit":
            session = self.session
            if not self._leaves("quit"):
                return None
            self.say("Bye." + (" (The game was not saved.)" if session.unsaved() and not session.over else ""))
            return "quit"
        if command == "help":
            self.say(rules_help(self.session.rules), commands_text())
        elif command == "hint":
            self.say(*self.session.hint())  # IllegalMove when it is not the player's decision
        elif command == "analysis":
            self._analysis()
        elif command == "rules":
            self.say(rulebook(self.session.rules, self.session.settings.preset))
        elif command == "state":
            self.say(self.session.title())
            self._shown_at = -1
            if self.session.over:
                self.show_state()
        elif command.startswith("save"):
            path = command[len("save") :].strip() or self.session.save_path(self.save_path)
            try:
                self.session.save(path)
            except OSError as error:
                self.say(f"Could not save{f' to {path}' if path else ''}: {error.strerror or error}.")
            else:
                self.say(self.session.saved_text())
        elif command in ("y", "yes", "n", "no"):
            self.say(
                f"'{command}' answers a question, and none is asked now: after 'challenge 1' the game asks y/n "
                "first, and once the game is over y plays again and n quits."
            )
        else:
            self.say(f"'{command}' starts a new game once this one is over.")
        return None

    def _analysis(self) -> None:
        session = self.session
        if not session.over:
            self.say("The analysis comes when the game is over; for this decision, type 'hint'.")
            return
        if session.review is None and not self._analyse(session):
            return
        self.say(thresholds_text(), *session.analysis_lines())

    def _analyse(self, session: Session) -> bool:
        """Search the analysis with progress lines; ``False`` when Ctrl-C stopped it (the game-over prompt stays).

        It may take a minute: a silent wait read as a hang, and Ctrl-C, the only way out, left the game
        (coach audit, item 5). The progress lines go to the game's own output, among its lines, as plain lines
        (:func:`progress_lines`); Ctrl-C stops the search only, and 'analysis' starts it again.
        """
        self.say("Analysing your decisions from what you could see then (this takes a while; Ctrl-C stops it)…")
        updates: list[Update] = []

        def started(total: int) -> None:
            updates.append(progress_lines("Analysis", total, f"decisions {CHOICES}", stream=self.stdout))
            updates[0](0)

        try:
            session.analyse(lambda done, total: updates[0](done), started=started)
        except KeyboardInterrupt:
            self.stdout.write("\n")
            self.say("Analysis stopped. Type 'analysis' to start it again, 'again' for a new game, 'save' or 'quit'.")
            return False
        return True


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
