"""The full-screen game of ``ronda play``, built on Textual.

A start screen for the choices, then the table: scores and target along the
top, the other seats (cards face down), the table with the open chain, your
hand, what to do now, and the play-by-play on the right. Every decision is a
key: card numbers or arrows and Enter to play, ``n``/``r``/``t`` to declare
(Enter declares what you hold), ``c`` to challenge, ``s`` to save, ``?`` for
the rules. Bots play in a worker at a pace a person can follow; their thinking
runs in a thread so the screen stays live.

Everything the game does goes through a :class:`~.session.Session`; this module
only draws and reads keys.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, TypeVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key, Resize
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ...analysis.grades import thresholds_text
from ...bots import levels as bot_levels
from ...engine.actions import DECLARES, PLAYS, Action, Challenge, Play
from ...engine.errors import RondaError
from ...engine.game import DECLARE, PLAY
from ...engine.presets import variant_value_text
from ...engine.rules import CHAIN_POINTS_CHOICES, Rules
from ...presentation.coaching import decisions_text
from ...presentation.messages import for_players
from .cards import coloured
from .session import (
    DEFAULT_LEVEL,
    IllegalMove,
    Session,
    Settings,
    cards_text,
    places_text,
    presets,
    rulebook,
    rules_help,
)
from .widgets import HandView, KeyFooter, PlayLog, PromptLine, ScoreBar, SeatBox, TableView, hanging


def game_keys(rules: Rules) -> list[tuple[str, str]]:
    """The keys of the game screen, for the ``?`` screen: one row a key, wrapped inside its own column.

    Written from the rules being played: a newcomer's audit read "n r t d … double ronda" in a game of three-card
    hands, where no double ronda can be declared (R8.1), and keys to declare and challenge with ``auto_declare``,
    where every hand declares what it holds by itself (R8.2).
    """
    keys = [("1-9", "play that card of your hand"), ("← → Enter", "choose a card, play it")]
    if rules.auto_declare:
        keys.append(("", "no declaring or challenging: every hand declares what it holds, by itself (auto declare)"))
    else:
        if rules.four_card_hands:
            keys.append(("n r t d", "declare none, ronda, tringa or double ronda"))
        else:
            keys.append(("n r t", "declare none, ronda or tringa"))
        keys += [
            ("Enter", "when a deal starts: declare what your hand holds"),
            (
                "c",
                "challenge an opponent's declaration (its seat number if several; then y to confirm, n or Esc not to)",
            ),
        ]
    keys += [
        (
            "h",
            "a hint: your best options now, with your chance to win after each and why (kept with the game when saved);"
            " Esc puts it away",
        ),
        ("a", "when the game is over: the analysis of your decisions, from what you could see then"),
        ("p", "when the game is over: play again, with the same choices and the next seed (asked first if not saved)"),
        ("n", "when the game is over: a new game, from the start screen (asked first if not saved)"),
        ("s", "save the game (resume with: ronda play --resume FILE)"),
        (
            "PgUp PgDn",
            "scroll the board when the terminal is too short to show all of it. On a short terminal a hint is shown"
            " beside the table, in the play-by-play's place, and these keys scroll the hint. On a terminal both"
            " short and narrow the hint goes under your hand and pushes the table out of sight: PgUp brings the"
            " table back, PgDn the hint.",
        ),
        ("?", "these rules"),
        ("q", "quit (a game whose last moves are not saved asks first)"),
    ]
    return keys


RULE_NUMBERS = (
    "Numbers like (R8.5) in a hint or the analysis name the rule it rests on: R8.5 is rule 5 of section R8 of"
    " ronda's full rules, docs/RULES.md in its source. The rules follow here in plain words, without the numbers."
)
"""What a rule's number in a hint means, said once on the ``?`` screen: hints cite "(R8.5)", "(R9.3)", which a
newcomer has never seen (an audit). ``ronda rules`` takes a preset's name, not a rule's number, so the numbers are
looked up in RULES.md."""


def keys_table(rules: Rules) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold #ffd700", no_wrap=True)
    table.add_column()
    for keys, meaning in game_keys(rules):
        table.add_row(keys, meaning)
    return table


Answer = TypeVar("Answer")


class Dialog(ModalScreen[Answer]):
    """A screen over the game whose box (``#dialog``) stands in the middle, as many columns free on its left as on
    its right.

    The box was 90 columns, at most 95% of the terminal, and Textual's
    centring gives the odd column left over to the right: at 50 and 60
    columns the box (47, 57) stood one column off the middle, a column of the
    board beneath on its left and two on its right. Its width is chosen here
    so that what is left over splits evenly.
    """

    WIDTH = 90
    """The box's columns on a terminal wide enough."""

    MARGIN = 2
    """Columns left free at least on either side of the box."""

    def on_mount(self) -> None:
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    box_width = WIDTH
    """The box's columns now, borders included."""

    def fit(self) -> None:
        """Size the box to the terminal: at most :attr:`WIDTH`, and a width that leaves an even number of columns."""
        width = self.size.width
        if width <= 2 * self.MARGIN:
            return
        box = min(self.WIDTH, width - 2 * self.MARGIN)
        self.box_width = box - (width - box) % 2
        self.query_one("#dialog").styles.width = self.box_width


class HelpScreen(Dialog[None]):
    """The rules in short, the keys, then the whole rules of the game being played.

    The rules come as whole paragraphs and the screen wraps them once, to its
    own width; the keys are a two-column table whose meanings wrap in their column.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close"),
    ]

    def __init__(self, rules: Rules, preset: str = "classic") -> None:
        super().__init__()
        self.rules = rules
        self.preset = preset

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="help"):
            yield Label("Ronda — the rules in short", classes="title")
            with VerticalScroll():
                yield Static(rules_help(self.rules), classes="rules")
                yield Label("Keys", classes="title section")
                yield Static(keys_table(self.rules), id="keys")
                yield Static(RULE_NUMBERS, id="rule-numbers", classes="section")
                yield Static(rulebook(self.rules, self.preset, width=None), classes="rules section")
            yield Static("Esc or ? to close · the whole rules follow the keys: scroll down", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class MessageScreen(Dialog[str]):
    """A summary (end of round, end of game) with a few answers by key; ↑/↓ scroll a long one."""

    def __init__(self, title: str, lines: list[str], answers: dict[str, str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.answers = answers

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="title")
            body = Text("\n").join(coloured(line) for line in self.lines)  # no empty line after the last
            with VerticalScroll():
                yield Static(body, id="summary")
            # A Static wraps where a Label cut the keys off on a narrow terminal ("s: save   q: quit" unseen).
            yield Static(self.answers_text(), classes="hint")

    def answers_text(self) -> str:
        return "   ".join(f"{key}: {what}" for key, what in self.answers.items())

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # the arrows scroll a summary taller than the screen

    def fit(self) -> None:
        """Give the summary every line the terminal has left once the title and the answers, as wrapped at the box's
        width, have theirs: the box leaves one line free above and below it, and scrolls only what is left over."""
        super().fit()
        answers = len(Text(self.answers_text()).wrap(self.app.console, self.box_width - self.FRAME_COLUMNS))
        rows = self.size.height - 2 * self.ROWS_FREE
        self.query_one("#dialog").styles.max_height = rows
        self.query_one(VerticalScroll).styles.max_height = max(3, rows - self.FRAME_LINES - answers)

    ROWS_FREE = 1
    """Lines of the screen left free above and below the box at least."""

    FRAME_LINES = 7
    """Lines of the box that are neither the summary nor the answers: its border and padding (4), the title and the
    line under it (2), the line above the answers (1)."""

    FRAME_COLUMNS = 6
    """Columns of the box that are not its text: its border (2) and padding (4)."""

    def on_key(self, event: Any) -> None:
        key = "Enter" if event.key == "enter" else "Esc" if event.key == "escape" else event.key
        if key in self.answers:
            event.stop()
            self.dismiss(key)


GAME_OVER_KEYS = "a: analysis of your decisions · p: play again · n: new game · q: quit · s: save"


class LeaveQuestion(MessageScreen):
    """Whether to leave a game whose last moves are not saved: its key again leaves, ``s`` saves first, Esc stays.

    A question on top of whatever screen is up, answered by the next key. It was a line under the board: asked
    from the rules screen it stood unseen beneath it, and once asked it held for good, so that the command
    palette's Quit, pressed later after Esc, quit at once with the moves unsaved (an audit).
    """

    def __init__(self, key: str, question: str, where: str) -> None:
        doing = LEAVING[key][1]
        super().__init__(
            "This game is not saved",
            [question, where],
            {key: doing, "s": "save first", "Esc": "back to the game"},
        )
        self.key = key


LEAVING = {
    "q": ("Quit without saving? Press q again to quit, or s to save first.", "quit"),
    "p": (
        "Play again without saving this game? Press p again to play the next game, or s to save this one first.",
        "play again",
    ),
    "n": ("A new game without saving this one? Press n again for the start screen, or s to save it first.", "new game"),
}
"""What leaving a game asks, by the key that leaves it (q quits, p plays again, n starts a new game), and that key's
answer in the question's keys."""


SHORT_FOR_A_HINT = 40
"""Terminal rows below which the board cannot show the other hands, the table, the hand and a hint together."""


class AnalysisScreen(Dialog[None]):
    """The analysis of the human's decisions after the game: searched in a thread with its progress, then read.

    Every decision the human took with a choice is valued from what the human
    could see then (:mod:`ronda.analysis`); the screen shows the summary — the
    average loss, the classes, the costliest decisions in words — and every
    decision that lost points. It is worked out once per game. Closed while it
    is searched, the search stops (at the next decision) rather than go on
    unseen beside the next game; ``a`` starts it again.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q,a", "close", "Back")]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.started = 0.0
        self.closed = threading.Event()

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="help"):
            yield Label("Analysis of your decisions", classes="title")
            with VerticalScroll():
                yield Static("Analysing your decisions from what you could see then…", id="analysis")
            yield Static("Enter or Esc: back · ↑/↓ scroll", id="analysis-keys", classes="hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
        self.started = time.monotonic()
        if self.session.review is None:
            self.query_one("#analysis-keys", Static).update("Enter or Esc: stop and go back (a starts it again)")
        self.analyse()

    @work(thread=True, exclusive=True, group="analysis")
    def analyse(self) -> None:
        # In this thread, not in worker processes: a full-screen app's terminal is no place to start them.
        def progress(done: int, total: int) -> None:
            if self.closed.is_set():
                raise _AnalysisStopped
            self.app.call_from_thread(self._progress, done, total)

        try:
            self.session.analyse(progress)
        except _AnalysisStopped:
            return  # no analysis is kept (Session.analyse): asked again, it starts over
        lines = [thresholds_text(), "", *self.session.analysis_lines()]
        if not self.closed.is_set():
            self.app.call_from_thread(self._show, lines)

    def _progress(self, done: int, total: int) -> None:
        left = (time.monotonic() - self.started) / done * (total - done)
        self.query_one("#analysis", Static).update(
            f"Analysing your {decisions_text(total)} from what you could see then: {done} done,"
            f" about {left:.0f} s left…"
        )

    def _show(self, lines: list[str]) -> None:
        body = Text()
        for line in lines:
            body.append_text(coloured(line))
            body.append("\n")
        self.query_one("#analysis", Static).update(body)
        self.query_one("#analysis-keys", Static).update("Enter or Esc: back · ↑/↓ scroll")

    def action_close(self) -> None:
        self.closed.set()
        self.dismiss(None)


class _AnalysisStopped(Exception):
    """Raised in the analysis's thread, from its progress, once its screen is closed: the search stops there."""


class VariantBox(Checkbox):
    """A variant's box that shows its state in characters, ``[x]`` or ``[ ]``, not in colour alone."""

    DEFAULT_CSS = """
    VariantBox > .toggle--button { color: $text; background: $panel; }
    VariantBox.-on > .toggle--button { color: $text-success; text-style: bold; }
    """

    def render(self) -> Content:
        box = Content.styled("[x]" if self.value else "[ ]", self.get_visual_style("toggle--button"))
        label = self.label.pad(1, 1).stylize_before(self.get_visual_style("toggle--label"))
        return Content.assemble(box, label)


class NumberField(Input):
    """A number box the arrows leave at its ends, so ←/→ walk the whole start screen, and that does the keys typed
    into it in the order they were typed."""

    async def on_key(self, event: Key) -> None:
        """Do a key bound in the box itself (Backspace, Delete, the arrows, Enter) now, in its turn with the digits.

        Textual types a digit into the box as soon as the box reads it, but
        does a bound key only once the key has bubbled up from the box to the
        app: a Backspace and a digit that arrive together (a paste, fast
        typing) were done digit first. On "41", all selected as Tab leaves it,
        Backspace then 3 typed 3 over the selection and Backspace erased it:
        the box showed nothing and the game took the preset's target (an
        audit; Textual issue 6605). Done here, the key is done where the app
        would have done it, the box's own binding, and goes no further.
        """
        active = self.screen.active_bindings.get(event.key)
        if active is None or active.node is not self or active.binding.priority:
            return  # typed text, or a key of the screen or the app: as Textual does it
        if await self.app.run_action(active.binding.action, self):
            event.stop()

    def action_cursor_left(self, select: bool = False) -> None:
        if self.cursor_position == 0 and not select:
            self.screen.focus_previous()
        else:
            super().action_cursor_left(select)

    def action_cursor_right(self, select: bool = False) -> None:
        if self.cursor_position >= len(self.value) and not select:
            self.screen.focus_next()
        else:
            super().action_cursor_right(select)


class Board(VerticalScroll):
    """The seats, the table, the hand and the prompt; PgUp/PgDn scroll a hint beside it, while it is longer than
    its pane.

    The board has the keys (it holds the focus), and a hint beside it (:meth:`RondaApp._place_hint`) is there
    because the terminal is short: its pane then often holds less than the whole hint, and a person reads the
    rest with the keys that scroll, not the mouse alone.
    """

    def _hint_pane(self) -> VerticalScroll | None:
        pane = self.screen.query("#hint-pane")
        hint = pane.first(VerticalScroll) if pane else None
        return hint if hint is not None and hint.display and hint.max_scroll_y > 0 else None

    def action_page_up(self) -> None:
        if (pane := self._hint_pane()) is not None:
            pane.scroll_page_up(animate=False)
        else:
            super().action_page_up()

    def action_page_down(self) -> None:
        if (pane := self._hint_pane()) is not None:
            pane.scroll_page_down(animate=False)
        else:
            super().action_page_down()


class SetupField(Horizontal):
    """A label and its control on the start screen, kept together on one line: a narrow terminal moves them whole."""

    DEFAULT_CSS = "SetupField { width: auto; height: auto; }"


class SetupRow(Container):
    """A line of the start screen's choices that breaks into more lines where the terminal is too narrow for it.

    A row of Textual's ``Horizontal`` cuts what passes its right edge: at 60
    columns the undeclared ronda's list lost its ▼, and with four players the
    third bot's level was out of reach. This row is a grid whose columns are
    as wide as their widest choice, and :meth:`fit` gives it as many columns as
    its width holds, so a choice that does not fit goes whole to the next line.
    """

    DEFAULT_CSS = "SetupRow { layout: grid; grid-size: 4; grid-columns: auto; grid-rows: auto; height: auto; }"

    def on_resize(self, event: Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """Take as many columns as the row's width holds: the most that keep every choice it shows whole."""
        width = self.size.width
        if not width:
            return  # not laid out yet: its first resize fits it
        viewport = self.app.size
        shown = [child for child in self.children if child.display]
        widths = [child.get_content_width(viewport, viewport) + child.styles.gutter.width for child in shown]
        gap = self.styles.grid_gutter_vertical  # Textual's name for the columns between two grid columns
        columns = max(1, len(shown))
        while columns > 1 and sum(max(widths[c::columns]) for c in range(columns)) + gap * (columns - 1) > width:
            columns -= 1
        if columns != self.styles.grid_size_columns:
            self.styles.grid_size_columns = columns
            self.call_after_refresh(self._show_focused)

    def _show_focused(self) -> None:
        """Keep the focused choice on screen once the lines moved: Tab scrolls to it, a new layout does not."""
        focused = self.screen.focused
        if focused is not None:
            focused.scroll_visible(animate=False)


NO_CHAIN = "none: no chain with 2 players"
"""Said on the start screen in place of the chain's points in a 2-player game, where there is no chain (R5.3)."""


SETUP_KEYS = "Tab or ←/→: next choice · Enter or ↓: open a list · Space: tick a box · Start: play · Esc: quit"
"""The start screen's keys as it says them: ↓ opens a list (it goes to the next choice only from a box or a button)."""


class SetupScreen(Screen[Settings]):
    """The start screen: players, your seat, each bot's level, rules preset and variants, target, seed.

    All of it works from the keyboard: Tab and Shift+Tab, or ← and →, go
    from control to control in reading order (↑ and ↓ too, except on a list,
    which ↓ opens); Enter or ↓ opens a list, Space
    or Enter ticks a box, digits fill a number, Enter on Start (or in a number
    box) starts the game.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.quit", "Quit"),
        Binding("right,down", "app.focus_next", "Next", show=False),
        Binding("left,up", "app.focus_previous", "Previous", show=False),
    ]

    BOOLEAN_VARIANTS = ("auto_declare", "ace_high", "dealer_duty", "four_card_hands", "transfer_scoring")
    """The variants the screen shows as boxes to tick."""
    CHOICE_VARIANTS = ("chain_points", "undeclared_ronda_penalty")
    """The variants the screen shows as lists (``target`` has its number box)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self._kept = {name: getattr(settings.rules, name) for name in self._unshown()}
        """The variants the screen has no control for, as the command line gave them (``--variant``): kept for the
        game and said on the form ("Also: ..."), where they were dropped and the game played without them. Only a
        preset that names one changes it."""
        self._seats_for: int | None = None
        """The player count the seat list was made for: it is made again when the count changes."""
        self._preset_shown: str | None = settings.preset if settings.preset in presets() else "classic"
        """The preset whose rules the boxes show: choosing another resets them to its rules; the select's own
        first change event, as it is mounted, does not (it reset ``--target 3`` and ``--variant`` to the preset's)."""
        self._four_chosen = False
        """Whether four-card hands were ticked before three players put the box out of reach."""

    def compose(self) -> ComposeResult:
        s = self.settings
        rules = s.rules
        levels = bot_levels()
        names = list(presets())
        with VerticalScroll(id="setup", can_focus=False):
            yield Label("Ronda — a new game", classes="title")
            with SetupRow():
                yield SetupField(
                    Label("Players", classes="label"),
                    _choice([(str(n), n) for n in (2, 3, 4)], rules.players, "players"),
                )
                yield SetupField(
                    Label("Your seat", classes="label"), _choice([(str(n), n) for n in range(4)], s.seat, "seat")
                )
            with SetupRow(id="levels"):
                for seat in range(4):
                    level = s.levels[seat] if seat < len(s.levels) and s.levels[seat] else DEFAULT_LEVEL
                    yield SetupField(
                        Label(f"Seat {seat}", classes="label"),
                        _choice(
                            [(name, name) for name in levels], level if level in levels else levels[0], f"level-{seat}"
                        ),
                        id=f"level-field-{seat}",
                    )
            with SetupRow():
                preset = s.preset if s.preset in names else "classic"
                yield SetupField(Label("Rules", classes="label"), _choice([(n, n) for n in names], preset, "preset"))
                target = NumberField(str(rules.target), type="integer", id="target", compact=True)
                yield SetupField(Label("Target", classes="label"), target)
                seed = "" if s.seed is None else str(s.seed)
                seed_field = NumberField(seed, placeholder="random", type="integer", id="seed", compact=True)
                yield SetupField(Label("Seed", classes="label"), seed_field)
            for group in (self.BOOLEAN_VARIANTS[:3], self.BOOLEAN_VARIANTS[3:]):
                with SetupRow():
                    for name in group:
                        yield VariantBox(name.replace("_", " "), getattr(rules, name), id=name, compact=True)
            with SetupRow(id="scoring"):
                chains = [("-".join(map(str, c)), c) for c in CHAIN_POINTS_CHOICES]
                yield SetupField(
                    Label("Chain points", classes="label"),
                    _choice(chains, rules.chain_points, "chain_points"),
                    Label(NO_CHAIN, id="no-chain"),
                )
                penalty = _choice([("1", 1), ("5", 5)], rules.undeclared_ronda_penalty, "undeclared_ronda_penalty")
                yield SetupField(Label("Undeclared ronda", classes="label"), penalty)
            yield Static(self._also_text(), id="also")
            yield Static("", id="setup-error")
            with Horizontal(classes="row", id="buttons"):
                yield Button("Start", variant="success", id="start", compact=True)
                yield Button("Quit", variant="error", id="quit", compact=True)
        # Outside the form, docked: at 60x20 the form's end (and with it this line) was below the screen's edge.
        yield Static(SETUP_KEYS, id="setup-keys", classes="hint")

    def on_mount(self) -> None:
        self._show_seats()
        self._show_kept()
        self.query_one("#start", Button).focus()

    @classmethod
    def _unshown(cls) -> list[str]:
        """The variants of :class:`Rules` this screen has no control for (none today: the next one added may)."""
        shown = {"players", "target", *cls.BOOLEAN_VARIANTS, *cls.CHOICE_VARIANTS}
        return [f.name for f in fields(Rules) if f.name not in shown]

    def _also_text(self) -> str:
        """The kept variants that change the rules, as typed on the command line: "Also: missa_points=2"."""
        default = Rules()
        changed = [f"{k}={variant_value_text(v)}" for k, v in self._kept.items() if v != getattr(default, k)]
        return f"Also: {', '.join(changed)}" if changed else ""

    def _show_kept(self) -> None:
        also = self.query_one("#also", Static)
        text = self._also_text()
        also.update(text)
        also.display = bool(text)

    def _show_seats(self) -> None:
        players = self._value("players", 2)
        seat = self._value("seat", 0)
        if players != self._seats_for:
            # Only the seats the game has: "Your seat 3" in a game of two was offered, then refused at Start.
            self._seats_for = players
            choice = self.query_one("#seat", Select)
            seat = min(seat, players - 1)
            choice.set_options([(str(n), n) for n in range(players)])
            choice.value = seat
        for s in range(4):
            self.query_one(f"#level-field-{s}").display = s < players and s != seat
        self.query_one("#levels", SetupRow).fit()  # a level shown or hidden: the row may need more lines or fewer
        # No chain with two players (R5.3): its points are not offered, and the screen says why. The list keeps
        # the preset's choice, so the game's rules (and its record) are what they were.
        self.query_one("#chain_points", Select).display = players > 2
        self.query_one("#no-chain", Label).display = players == 2
        self.query_one("#scoring", SetupRow).fit()
        # Four-card hands are for 2 or 4 players (R10): with 3 the box was offered, then refused at Start. It is
        # shown unticked and out of reach, saying why; back to 2 or 4 it is offered again (ticked once more if it
        # was: the person's choice is kept for the game that can have it).
        four = self.query_one("#four_card_hands", Checkbox)
        if players == 3 and not four.disabled:
            self._four_chosen = four.value
            four.value, four.disabled, four.label = False, True, "four card hands (2 or 4 players)"
        elif players != 3 and four.disabled:
            four.value, four.disabled, four.label = self._four_chosen, False, "four card hands"

    def _value(self, name: str, default: Any) -> Any:
        value = self.query_one(f"#{name}", Select).value
        return default if value is Select.NULL else value

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and event.value is not Select.NULL and event.value != self._preset_shown:
            self._preset_shown = str(event.value)
            preset = Rules.from_dict({"players": 2, **presets().get(str(event.value), {})})
            for name in self.BOOLEAN_VARIANTS:
                box = self.query_one(f"#{name}", Checkbox)
                if box.disabled:  # four-card hands with three players: kept for a count that can have them
                    self._four_chosen = getattr(preset, name)
                else:
                    box.value = getattr(preset, name)
            for name in self.CHOICE_VARIANTS:
                self.query_one(f"#{name}", Select).value = getattr(preset, name)
            self.query_one("#target", Input).value = str(preset.target)
            named = presets().get(str(event.value), {})
            self._kept.update({name: getattr(preset, name) for name in self._kept if name in named})
            self._show_kept()
        self._show_seats()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "quit":
            self.app.exit()
            return
        self.begin()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.begin()

    def begin(self) -> None:
        """Start the game with the choices on screen, or say which one is wrong."""
        try:
            settings = self.read_settings()
        except (RondaError, ValueError) as error:
            said = self.query_one("#setup-error", Static)
            said.update(Text(for_players(str(error)), style="bold #ff6e6e"))
            said.display = True
            said.scroll_visible(animate=False)  # Enter in a box at the top starts too: the error is further down
            return
        self.dismiss(settings)

    def read_settings(self) -> Settings:
        players = self._value("players", 2)
        seat = self._value("seat", 0)
        if seat >= players:
            raise RondaError(f"your seat must be from 0 to {players - 1}")
        levels = [self._value(f"level-{s}", DEFAULT_LEVEL) for s in range(players) if s != seat]
        variants: dict[str, Any] = {name: self.query_one(f"#{name}", Checkbox).value for name in self.BOOLEAN_VARIANTS}
        for name in self.CHOICE_VARIANTS:
            variants[name] = self._value(name, getattr(Rules(), name))
        variants.update(self._kept)
        target = self.query_one("#target", Input).value.strip()
        if target:
            variants["target"] = int(target)
        seed_text = self.query_one("#seed", Input).value.strip()
        return Settings.make(
            players,
            seat,
            levels,
            preset=self._value("preset", "classic"),
            variants=variants,
            seed=int(seed_text) if seed_text else None,
            pace=self.settings.pace,
            time_limit=self.settings.time_limit,
        )


def _choice(options: list[tuple[str, Any]], value: Any, id: str) -> Select[Any]:
    return Select(options, value=value, allow_blank=False, id=id, compact=True)


class QueuedKey(NamedTuple):
    """A game key pressed while a bot was to play, with the deal and phase it was pressed in."""

    action: str
    argument: object
    round: int
    deal: int
    phase: str


NARROW = 78
"""Columns under which the play-by-play is hidden: the board needs 46 and the log 30, or both are cut."""


class RondaApp(App[None]):
    """Ronda against bots, full screen."""

    TITLE = "Ronda"
    CSS = """
    Screen { background: #10281a; }
    #scores { height: auto; max-height: 2; background: #0a1a10; color: #e8f5e9; padding: 0 1; }
    #body { height: 1fr; }
    #board { width: 1fr; min-width: 46; }
    #seats { height: auto; }
    SeatBox { width: 1fr; height: auto; border: round #5b7f62; padding: 0 1; color: #e8f5e9; }
    SeatBox.turn { border: heavy #ffd700; }
    #body.four SeatBox { padding: 0; }  /* four players: three boxes share a row, no padding to spare */
    #table { height: auto; border: round #3f8f4f; background: #0b5d1e; padding: 0 1; }  /* least: TableView's */
    #hand { height: auto; border: round #5b7f62; padding: 0 1; }
    #hand.turn { border: heavy #ffd700; }
    #prompt { height: auto; min-height: 2; padding: 0 1; color: #ffffff; }
    #recent { height: auto; padding: 0 1; display: none; }
    #log { width: 40%; min-width: 30; max-width: 64; border: round #5b7f62; background: #0a1a10; }
    #hint-pane {
        width: 40%; min-width: 30; max-width: 64; border: round #5b7f62; background: #0a1a10; display: none;
        padding: 0 1; scrollbar-size-vertical: 1;
    }
    /* Four players: three seat boxes share the board's row, and at 80 columns the play-by-play's 32 left them 15
       each, their facts wrapped ("declared" over "ronda") and the seats scrolled away on 20 lines. A hint, asked
       for and read closely, keeps its width. */
    #body.four #log { width: 30%; min-width: 24; }
    ModalScreen { align: center middle; background: #000000 60%; }
    #dialog { width: 90; height: auto; max-height: 90%; border: heavy #ffd700;
              background: #13301f; padding: 1 2; }
    #dialog VerticalScroll { height: auto; }
    #dialog.help { height: 90%; }
    #dialog.help VerticalScroll { height: 1fr; max-height: 100%; }
    .title { text-style: bold; color: #ffd700; margin-bottom: 1; }
    .section { margin-top: 1; }
    .hint { color: #a5d6a7; margin-top: 1; }
    #setup { padding: 1 2 0 2; scrollbar-size-vertical: 1; }
    #setup .row, #setup SetupRow { height: auto; margin-bottom: 1; }
    #setup SetupRow { grid-gutter: 0 2; }
    #setup #buttons { margin-bottom: 0; }  /* the key line's own margin parts them: at 60x20 the form fits whole */
    #setup-keys { dock: bottom; padding: 0 2; }
    #setup .label { padding: 0 1 0 0; }
    #setup Select { width: 13; }
    #setup Input { width: 10; }
    #setup Button { margin-right: 2; }
    #setup-error { height: auto; display: none; }  /* shown with an error: empty, it took a line of 20 */
    #setup Select:focus > SelectCurrent, #setup Input:focus, #setup VariantBox:focus, #setup Button:focus {
        text-style: bold reverse;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Rules"),
        Binding("s", "save", "Save"),
        Binding("q", "quit", "Quit"),
        Binding("left", "move(-1)", "Choose", show=False),
        Binding("right", "move(1)", "Choose", show=False),
        Binding("enter", "confirm", "Play / declare"),
        Binding("c", "challenge", "Challenge"),
        Binding("y", "yes", "Yes", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("n", "declare('none')", "None"),  # in the footer as "New game", once the game is over
        Binding("r", "declare('ronda')", "Ronda", show=False),
        Binding("t", "declare('tringa')", "Tringa", show=False),
        Binding("d", "declare('double_ronda')", "Double ronda", show=False),
        Binding("h", "hint", "Hint"),
        Binding("a", "analysis", "Analysis"),
        Binding("p", "again", "Play again"),
        *[Binding(str(k), f"number({k})", str(k), show=False) for k in range(10)],
    ]

    GAME_ACTIONS = frozenset(
        ("save", "move", "confirm", "challenge", "yes", "cancel", "declare", "again", "number", "hint", "analysis")
    )
    """The actions of the game screen: they wait while another screen (start, help, summary) is on top."""

    QUEUED_KEYS = 3
    """Keys pressed while a bot is to play are kept, up to this many, and used when the human's turn comes."""

    MARK_SECONDS = 2.0
    """How long the cards a bot just played or took stay marked on the table."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        session: Session | None = None,
        setup: bool = True,
        save_path: str | Path | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or (session.settings if session else Settings())
        self.session: Session | None = session
        self.setup = setup and session is None
        self.save_path = save_path
        self.challenging = False
        self.confirming: int | None = None
        """The seat whose declaration the human is asked to confirm a challenge of (y/n), if any."""
        self.queued: list[QueuedKey] = []
        self.error = ""
        self.note = ""
        self.hint = ""
        """The last hint's text: shown while it is the note (until the decision it is for is taken)."""
        self._rounds_shown = 0
        self._mark_timer: Timer | None = None

    # ----------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield ScoreBar(id="scores")
        with Horizontal(id="body"):
            with Board(id="board"):
                yield Horizontal(id="seats")
                table = TableView(id="table")
                table.border_title = "Table"
                yield table
                yield Static(id="recent")
                yield HandView(id="hand")
                yield PromptLine(id="prompt")
            log = PlayLog(id="log")
            log.border_title = "Play by play"
            yield log
            with VerticalScroll(id="hint-pane", can_focus=False) as pane:
                pane.border_title = "Hint"
                yield Static(id="hint-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.session is not None:
            self.start(self.session)
        elif self.setup:
            self.push_screen(SetupScreen(self.settings), self._settings_chosen)
        else:
            self.start(Session(self.settings))

    def _settings_chosen(self, settings: Settings | None) -> None:
        if settings is None:
            self.exit()
            return
        try:
            session = Session(settings)
            if self.session is not None:
                self.session.followed_by(session)
        except (RondaError, ValueError) as error:
            self.settings = settings
            self.push_screen(SetupScreen(settings), self._settings_chosen)
            self.notify(for_players(str(error)), severity="error")
            return
        self.start(session)

    def start(self, session: Session) -> None:
        """Show a new session: fresh seat boxes and log, then let the bots play up to the human's turn.

        Nothing said about the game before carries over: "The game is over: p plays again…", said to a key
        pressed at the end of the last game, stood over the new game's first prompt after p (an audit).
        """
        self.session = session
        self.settings = session.settings
        self._rounds_shown = len(session.rounds)
        self.challenging = False
        self.confirming = None
        self.queued = []
        self.error = ""
        self.hint = ""
        self._unmark()
        seats = self.query_one("#seats", Horizontal)
        seats.remove_children()
        self.query_one("#body").set_class(session.rules.players == 4, "four")
        seats.mount_all([SeatBox(seat) for seat in range(session.rules.players) if seat != session.human])
        self.query_one(PlayLog).reset()
        self.refresh_bindings()  # the footer: the keys of a game being played (footer_label)
        self.log_lines([session.title(), *session.lines])
        self.note = f"Resumed {session.saved_to}" if session.saved_to else ""
        self.refresh_board()
        self.advance()

    # ----------------------------------------------------------- drawing

    def log_lines(self, lines: list[str]) -> None:
        """Lines into the play-by-play, wrapped between phrases (never inside 'seat 1' or '+1 (caida)')."""
        log = self.query_one(PlayLog)
        log.add(lines)
        self._show_recent(log)

    RECENT_LINES = 4
    """Play-by-play lines shown under the table when the terminal is too narrow for the play-by-play pane."""
    recent_lines = RECENT_LINES
    """Those shown now: fewer while the board would be taller than the screen (:meth:`fit_board`)."""
    REFITS = 3
    """Times :meth:`keep_prompt_in_view` fits the board again after a change, the parts laid out anew each time."""
    _refits = 0

    def _show_recent(self, log: PlayLog, size: Size | None = None) -> None:
        """The last lines of the play-by-play under the table, while its pane is hidden (a narrow terminal): what
        the bots did is otherwise on screen for the two seconds of its mark only."""
        recent = self.screen_stack[0].query_one("#recent", Static)
        # Not while a hint has the pane's place: that is for one decision, and the board is short then.
        recent.display = (size or self.size).width < NARROW
        recent.update(coloured("\n".join(log.entries[-self.recent_lines :]), style="#a5d6a7"))

    def refresh_board(self) -> None:
        session = self.session
        if session is None:
            return
        self.query_one(ScoreBar).show(session)
        for box in self.query(SeatBox):
            box.show(session)
        self.query_one(TableView).show(session)
        self.query_one(HandView).show(session)
        self._say_prompt()
        self._resize_refits = 0
        self.call_after_refresh(self.keep_prompt_in_view)
        self.set_timer(0.1, self.keep_prompt_in_view)  # the board fitted again once every part is laid out anew

    _resize_refits = 0

    def on_hand_view_resized(self, message: HandView.Resized) -> None:
        """Fit the board again when its parts' widths change under it: an overflowing board has a scrollbar, two
        columns narrower, so its seats' words wrap taller, and the fit reckoned there drew the hand one line a
        card — the scrollbar gone, the board had two lines to spare and nothing fitted it again (seen in tmux,
        four players at 80x20). A few times a state: a width that came and went for ever would not loop."""
        if self._resize_refits < self.REFITS:
            self._resize_refits += 1
            self.call_after_refresh(self.keep_prompt_in_view)

    def _say_prompt(self, size: Size | None = None) -> None:
        """The prompt, the last refusal and the note under the board, a hint placed first (:meth:`_place_hint`)."""
        note = self._place_hint(size)
        self.screen_stack[0].query_one(PromptLine).say(self.prompt_text(), self.error, note)

    def _place_hint(self, size: Size | None = None) -> str:
        """Put a hint where the table stays in sight with it, and return the note for under the prompt.

        Under the prompt, on a terminal shorter than :data:`SHORT_FOR_A_HINT`, a hint pushed the table and the
        other hand out of sight while it spoke of a caida on that table (an audit). Where the play-by-play has
        its pane (a terminal of :data:`NARROW` columns or more) the hint takes that pane's place beside the
        board until the decision is taken, and the play-by-play comes back then (it loses nothing meanwhile).
        On a terminal both short and narrow there is no room beside: the hint stays under the prompt, saying
        that PgUp brings the table back. ``size``: the terminal's, when it has just changed (a resize event's).
        """
        game = self.screen_stack[0]
        if not game.query("#hint-pane"):
            return self.note
        hinted = bool(self.hint) and self.note == self.hint
        size = size or self.size
        short = size.height < SHORT_FOR_A_HINT
        wide = size.width >= NARROW
        beside = hinted and short and wide
        pane = game.query_one("#hint-pane", VerticalScroll)
        pane.display = beside
        game.query_one(PlayLog).display = wide and not beside
        if beside:
            game.query_one("#hint-text", Static).update(hanging(self.hint, style="#a5d6a7"))
            pane.scroll_home(animate=False)
            self.call_after_refresh(self._say_hint_scrolls, pane)
            return ""
        if hinted and short:
            return f"{self.note}\nPgUp: the table and the other hands, above; PgDn: back to this hint."
        return self.note

    @staticmethod
    def _say_hint_scrolls(pane: VerticalScroll) -> None:
        """Name the keys that scroll a hint beside the board on its pane's edge, where it holds less than all."""
        pane.border_subtitle = "PgUp/PgDn: more" if pane.max_scroll_y > 0 else ""

    def fit_board(self) -> bool:
        """Draw the board as large as the screen lets it be; say whether anything changed (it is laid out again).

        At 80x24 with four players the seat boxes, two rows of table cards, the hand and a declaration's prompt
        were taller than the board's 22 lines: the board scrolled to its prompt and the other seats, the partner
        included, were out of sight at 50 of 120 decisions (``benchmarks/terminal_fit.py --no-fit``). The board
        is made smaller in steps, the first that fits taken: fewer lines of the play-by-play under the table (a
        narrow terminal's, down to one), then the table's cards a form tighter down to one line each (their
        corner: "│1c    ♥│"), then its note of what a bot just did, which the play-by-play says too, and last the
        hand's cards on one line each, the key before the corner ("│1 4c  ♥│"). That keeps the whole board in
        sight but in rare cases (a chain's long note): 1 of those 120 decisions at 80x24; at 80x20, where four
        players' seats were out of sight at 79 of 120 decisions with the table alone drawn tighter, at 14, and at
        none since the four players' play-by-play is narrower (the seat boxes' facts no longer wrap: the CSS).

        The choice is reckoned from the other parts' heights and what the table and those lines would take, not
        from the board's height after each step: read back after a step, the layout could still be the one before
        it, and a first version, stepping on what it read, went back and forth for ever.
        """
        if self.session is None or not self.screen_stack:  # a timer's call as the app closes: nothing to fit
            return False
        game = self.screen_stack[0]
        if not game.query("#board"):
            return False
        board = game.query_one("#board", VerticalScroll)
        table = game.query_one(TableView)
        hand = game.query_one(HandView)
        recent = game.query_one("#recent", Static)
        log = game.query_one(PlayLog)
        room = board.size.height - sum(
            part.outer_size.height for part in board.children if part.display and part not in (table, hand, recent)
        )
        width, hand_width = table.size.width, hand.size.width
        counts = range(self.RECENT_LINES, 0, -1) if recent.display else [self.recent_lines]
        steps = [(count, 0, False) for count in counts]
        steps += [(steps[-1][0], tighter, False) for tighter in range(1, table.tightest() + 1)]
        steps.append((steps[-1][0], steps[-1][1], True))
        lines, tighter, one_line = next(
            (
                (count, tighter, one_line)
                for count, tighter, one_line in steps
                if self._recent_height(recent, log, count)
                + table.outer_height(width, tighter)
                + (hand.outer_height(hand_width, one_line) if hand.display else 0)
                <= room
            ),
            steps[-1],
        )
        changed = (lines, tighter, one_line) != (self.recent_lines, table.tighter, hand.one_line)
        if lines != self.recent_lines:
            self.recent_lines = lines
            self._show_recent(log)
        if tighter != table.tighter:
            table.draw_tighter(tighter)
        if one_line != hand.one_line:
            hand.draw_one_line(one_line)
        return changed

    def _recent_height(self, recent: Static, log: PlayLog, count: int) -> int:
        """Lines the play-by-play's last ``count`` lines take under the table, wrapped as the widget wraps them."""
        if not recent.display:
            return 0
        width = max(recent.size.width, 1)
        return sum(len(Text(entry).wrap(self.console, width)) for entry in log.entries[-count:])

    def keep_prompt_in_view(self) -> None:
        """Scroll the board so that the prompt (what to do, the keys, a hint) is on screen: on a short terminal the
        board scrolls, and a prompt below its edge left a person with nothing saying what to press. The board is
        made smaller first, as far as that makes room (:meth:`fit_board`)."""
        if self.fit_board() and self._refits < self.REFITS:
            self._refits += 1  # once more, with the parts laid out anew (a bounded number of times)
            self.call_after_refresh(self.keep_prompt_in_view)
            return
        self._refits = 0
        if self.session is not None and self.screen_stack and self.query("#board"):
            # The prompt is the board's last piece: the board's end shows all of it (its height is known only
            # once laid out, which scroll_end waits for), the cards above as far as room allows.
            self.query_one("#board", VerticalScroll).scroll_end(animate=False)

    def on_resize(self, event: Resize) -> None:
        """Fit the screen: compact cards on a short terminal (the widgets read it), no play-by-play on a narrow one
        (the board needs its columns), and the prompt kept in view."""
        game = self.screen_stack[0]  # the game's screen, under any dialog on top
        if not game.query("#board"):
            return
        log = game.query_one(PlayLog)
        self._say_prompt(event.size)
        self._show_recent(log, event.size)
        for widget in (*game.query(TableView), *game.query(HandView)):
            widget.refresh(layout=True)
        self.call_after_refresh(self.keep_prompt_in_view)
        self.set_timer(0.1, self.keep_prompt_in_view)  # once the new sizes are laid out too

    def prompt_text(self) -> str:
        session = self.session
        if session is None:
            return ""
        if session.over:
            return " ".join(session.result()) + f"  {GAME_OVER_KEYS}"
        if not session.human_to_act():
            text = session.prompt()
            if self.queued:
                text += f"\nQueued: {' '.join(self._key_name(key) for key in self.queued)} (used when your turn comes)"
            return text
        view = session.view
        if view.phase == DECLARE:
            keys = "n none · r ronda · t tringa"
            if "double_ronda" in session.declarations():
                keys += " · d double ronda"
            return f"{session.prompt()}\nKeys: {keys} · Enter declares {session.true_declaration()}."
        if self.confirming is not None:
            return f"{session.challenge_question(self.confirming)}\nKeys: y challenges · n or Esc does not."
        if self.challenging:
            targets = ", ".join(str(t) for t in session.challenge_targets())
            return f"Challenge which seat? Press its number ({targets}); Esc cancels."
        numbers = "1" if len(view.hand) == 1 else f"1-{len(view.hand)}"
        text = f"{session.prompt()}\nKeys: {numbers} or ←/→ and Enter"
        if session.challenge_targets():
            text += " · c challenge"
        proven = session.unchallengeable_text()
        if proven:
            text += f"\n{proven}."
        return text

    @staticmethod
    def _key_name(key: QueuedKey) -> str:
        action, argument = key.action, key.argument
        if action == "number":
            return str(argument)
        if action == "declare":
            return str(argument).replace("_", " ")
        return {"confirm": "Enter", "challenge": "c"}.get(action, action)

    # ----------------------------------------------------------- playing

    def human(self, action: Action) -> None:
        """Apply the human's decision, or say why not."""
        session = self.session
        if session is None:
            return
        self.challenging = False
        self.confirming = None
        try:
            lines = session.act(action)
        except IllegalMove as error:
            self.error = str(error)
            self.refresh_board()
            return
        self.error = ""
        self.note = ""
        self._unmark()
        self.log_lines(lines)
        self.refresh_board()
        self.advance()

    def refuse(self, reason: str) -> None:
        self.error = reason
        self.refresh_board()

    def _mark(self, session: Session) -> None:
        """Show on the table, for a moment, what the bot just played and took."""
        table = self.query_one(TableView)
        table.mark = session.last_play
        if self._mark_timer is not None:
            self._mark_timer.stop()
        self._mark_timer = self.set_timer(self.MARK_SECONDS, self._unmark_and_draw)

    def _unmark(self) -> None:
        if self._mark_timer is not None:
            self._mark_timer.stop()
            self._mark_timer = None
        for table in self.query(TableView):  # none when the app is closing
            table.mark = None

    def _unmark_and_draw(self) -> None:
        """The moment is over. Its timer may fire as the app closes, with the board already gone."""
        self._unmark()
        if self.query(TableView):
            self.refresh_board()

    @work(exclusive=True, group="play")
    async def advance(self) -> None:
        """Round summaries, then bot decisions at the set pace, until the human must act or the game ends."""
        while self.session is not None:
            session = self.session
            while self._rounds_shown < len(session.rounds):
                summary = session.rounds[self._rounds_shown]
                self._rounds_shown += 1
                if not session.over:
                    self.queued = []  # the summary is to be read: keys pressed before it were for another deal
                    self._unmark()  # the last play's cards were of the round that ended
                    self.refresh_board()  # behind the summary: the next round as dealt, not the last turn's
                    await self.push_screen(
                        MessageScreen(
                            f"Round {summary.round + 1} is over",
                            summary.lines(session.rules.players, session.human)[1:],
                            {"Enter": "next round"},
                        ),
                        wait_for_dismiss=True,
                    )
            if session.over:
                self.queued = []
                await self._game_over(session)
                return
            seat = session.bot_to_act()
            if seat is None:
                break
            self.refresh_board()
            if session.settings.pace:
                await asyncio.sleep(session.settings.pace)
            else:
                await asyncio.sleep(0)
            bot, action = await asyncio.to_thread(session.bot_choice)
            if self.session is not session:
                return
            self.log_lines(session.apply_bot(bot, action))
            if isinstance(action, Play):
                self._mark(session)
            self.error = ""  # a refusal is about the position it was given in
        self.refresh_board()
        self._play_queued()

    def _play_queued(self) -> None:
        """The keys pressed during the bots' turns, in order, now that the human may act.

        A key pressed before a new deal was about a hand that is gone, and
        Enter pressed while the bots declared meant "declare", not "play": such
        keys are dropped, and the screen says so.
        """
        while self.queued and self.session is not None and self.session.human_to_act():
            key = self.queued.pop(0)
            view = self.session.view
            if (key.round, key.deal) != (view.round, view.deal):
                self.note = f"Not used: {self._key_name(key)}, pressed before this deal was dealt."
                continue
            if key.action == "confirm" and key.phase != view.phase:
                self.note = "Not used: Enter, pressed while the declarations were made."
                continue
            before = len(self.session.game.events)
            getattr(self, f"action_{key.action}")(*(() if key.argument is None else (key.argument,)))
            if self.confirming is not None or len(self.session.game.events) != before:
                self.queued = []  # a question to answer, or a move made: what was typed after it is void
        self.refresh_board()

    async def _game_over(self, session: Session) -> None:
        self.refresh_board()
        self.refresh_bindings()  # the footer: the keys of a finished game (footer_label)
        lines = session.result()
        for summary in session.round_tallies():
            lines += summary.lines(session.rules.players, session.human)
        answer = "a"
        while answer == "a":
            answer = await self.push_screen(
                MessageScreen(
                    "Game over",
                    lines,
                    {"a": "analysis", "p": "play again", "n": "new game", "s": "save", "q": "quit", "Esc": "look"},
                ),
                wait_for_dismiss=True,
            )
            if answer == "a":
                await self.push_screen(AnalysisScreen(session), wait_for_dismiss=True)
        if answer == "p":
            self.action_again()
        elif answer == "n":
            self.action_new_game()
        elif answer == "s":
            self.action_save()
        elif answer == "q":
            self.leave("q", self.exit)

    # ----------------------------------------------------------- keys

    def _human_ready(self, key: tuple[str, object] | None = None) -> Session | None:
        """The session when the human may act now; otherwise keeps ``key`` for later or says why not, and None."""
        session = self.session
        if session is None:
            return None
        if session.over:
            self.refuse("The game is over: p plays again, n starts a new game, a analyses it, s saves, q quits.")
            return None
        if not session.human_to_act():
            if key is not None and session.bot_to_act() is not None and len(self.queued) < self.QUEUED_KEYS:
                view = session.view
                self.queued.append(QueuedKey(key[0], key[1], view.round, view.deal, view.phase))
                self.error = ""
                self.refresh_board()
            else:
                self.refuse(f"Wait: it is {session.name(session.game.turn)}'s turn.")
            return None
        return session

    def _asked(self) -> bool:
        """While a challenge waits for y or n, every other key is refused: a challenge is never one stray key."""
        if self.confirming is None:
            return False
        self.refuse("Answer first: y challenges, n or Esc does not.")
        return True

    def action_number(self, number: int) -> None:
        session = self._human_ready(("number", number))
        if session is None or self._asked():
            return
        if self.challenging:
            self._ask_challenge(number)
            return
        if session.view.phase == DECLARE:
            self.refuse("Declare first: n none, r ronda, t tringa (Enter declares what you hold).")
            return
        cards = list(session.view.hand)
        if not 1 <= number <= len(cards):
            self.refuse(f"You hold {cards_text(len(cards))}: press {places_text(len(cards))}.")
            return
        self.query_one(HandView).selected = number - 1
        self.human(PLAYS[cards[number - 1]])

    def action_move(self, step: int) -> None:
        session = self.session
        if session is None or session.view.phase != PLAY:
            return
        hand = self.query_one(HandView)
        count = len(session.view.hand)
        if count:
            hand.selected = (hand.selected + step) % count
            hand.refresh(layout=True)

    def action_confirm(self) -> None:
        session = self._human_ready(("confirm", None))
        if session is None or self._asked():
            return
        if session.view.phase == DECLARE:
            self.human(DECLARES[session.true_declaration()])
            return
        if self.challenging:
            targets = session.challenge_targets()
            if len(targets) == 1:
                self._ask_challenge(targets[0])
            return
        cards = list(session.view.hand)
        hand = self.query_one(HandView)
        if cards:
            self.human(PLAYS[cards[min(hand.selected, len(cards) - 1)]])

    def action_declare(self, kind: str) -> None:
        session = self.session
        if kind == "none" and session is not None and session.over:
            self.action_new_game()
            return
        if kind == "none" and (self.confirming is not None or self.challenging):
            self.action_cancel()  # n answers "no" to a challenge's question, as Esc does
            return
        ready = self._human_ready(("declare", kind))
        if ready is None or self._asked():
            return
        self.human(DECLARES[kind])  # type: ignore[index]

    def action_challenge(self) -> None:
        session = self._human_ready(("challenge", None))
        if session is None or self._asked():
            return
        targets = session.challenge_targets()
        if not targets:
            if session.view.phase == DECLARE:
                reason = "Challenges come after the declarations, on your turn to play."
            else:
                proven = session.unchallengeable_text()
                reason = f"{proven}." if proven else "There is no opponent's declaration to challenge now."
            self.refuse(reason)
            return
        if len(targets) == 1:
            self._ask_challenge(targets[0])
            return
        self.challenging = True
        self.error = ""
        self.refresh_board()

    def _ask_challenge(self, target: int) -> None:
        """Put the challenge's question on screen (R8.8: a true declaration wins its side the game)."""
        session = self.session
        assert session is not None
        try:
            session.challenge_question(target)
        except IllegalMove as error:
            self.refuse(str(error))
            return
        self.challenging = False
        self.confirming = target
        self.error = ""
        self.refresh_board()

    def action_yes(self) -> None:
        if self.confirming is None:
            return
        target = self.confirming
        self.confirming = None
        self.human(Challenge(target))

    def action_cancel(self) -> None:
        """Esc: no challenge after all, the keys kept for your turn forgotten, or the hint put away.

        A hint closes on Esc as the rules and the summaries do; it stayed in the play-by-play's place until the
        decision was taken, and a person who had read it pressed Esc to see the play-by-play (an audit).
        """
        if self.challenging or self.confirming is not None:
            self.challenging = False
            self.confirming = None
            self.error = ""
            self.note = "No challenge."
            self.refresh_board()
        elif self.queued:
            self.queued = []
            self.refresh_board()
        elif self.hint and self.note == self.hint:
            self.note = ""
            self.refresh_board()

    def action_save(self) -> None:
        session = self.session
        if session is None:
            return
        path = session.save_path(self.save_path)
        try:
            session.save(path)
        except OSError as error:
            self.refuse(f"Could not save{f' to {path}' if path else ''}: {error.strerror or error}")
            return
        self.note = session.saved_text()
        self.error = ""
        self.refresh_board()

    def action_help(self) -> None:
        session = self.session
        settings = session.settings if session is not None else self.settings
        self.push_screen(HelpScreen(session.rules if session is not None else settings.rules, settings.preset))

    def action_hint(self) -> None:
        """A hint for the human's decision: searched in a thread, shown under the prompt, kept with the game."""
        session = self.session
        if session is None or self._asked():
            return
        if session.over:
            self.refuse("The game is over: a shows the analysis of your decisions.")
            return
        if not session.human_to_act():
            self.refuse("A hint is for your own decision: wait for your turn.")
            return
        self.error = ""
        self.note = "Thinking about a hint…"
        self.refresh_board()
        self.think_hint(session)

    @work(exclusive=True, group="hint")
    async def think_hint(self, session: Session) -> None:
        evaluation = await asyncio.to_thread(session.hint_evaluation)
        if self.session is not session:
            return
        lines = session.give_hint(evaluation)  # nothing when the decision was taken meanwhile
        self.hint = self.note = "\n".join(lines)  # where it goes: _place_hint
        self.refresh_board()

    def action_analysis(self) -> None:
        session = self.session
        if session is None:
            return
        if not session.over:
            self.refuse("The analysis comes when the game is over; for this decision, h gives a hint.")
            return
        self.push_screen(AnalysisScreen(session))

    def action_again(self) -> None:
        session = self.session
        if session is not None and session.over:
            self.leave("p", lambda: self.start(session.again()))

    def action_new_game(self) -> None:
        if self.session is not None and not self.session.over:
            return
        self.leave("n", self._new_game)

    def _new_game(self) -> None:
        settings = self.session.settings if self.session is not None else self.settings
        if self.session is not None:
            settings = Settings(
                self.session.rules,
                settings.seat,
                self.session.levels,
                None,
                settings.preset,
                settings.pace,
                settings.time_limit,
            )
        self.push_screen(SetupScreen(settings), self._settings_chosen)

    async def action_quit(self) -> None:
        """Quit, by q, Ctrl+Q or the command palette's Quit: a game with moves not yet saved asks first."""
        self.leave("q", self.exit)

    def leave(self, key: str, go: Callable[[], object]) -> None:
        """Leave the game by ``key`` (q quits, p plays again, n starts a new game): at once if nothing would be lost,
        else once :class:`LeaveQuestion` is answered with ``key`` again; ``s`` there saves the game instead.

        Whether it asks is :meth:`Session.asks_before_leaving`'s (a finished game asks as one in progress does, but
        p and n after a game never kept in a file go at once). Saving a finished game unasked was the other way,
        and the wrong one: a save writes two files, where a player who never pressed s expects none, and a player
        who saved at the first move and played to the end found the file still holding no move, with nothing said
        (an audit). The start screen is past asking: the game was left to reach it.
        """
        screen = self.screen
        if isinstance(screen, LeaveQuestion):
            if screen.key == key:
                screen.dismiss(key)  # its own key again, read as the app's binding before the question saw it
                return
            screen.dismiss(None)
        session = self.session
        if session is None or isinstance(screen, SetupScreen) or not session.asks_before_leaving(key == "q"):
            go()
            return
        path = session.save_path(self.save_path)
        where = f"s saves it to {path}." if path is not None else "s saves it to a new file named by the date and time."

        def answered(answer: str | None) -> None:
            if answer == key:
                go()
            elif answer == "s":
                self.action_save()

        self.push_screen(LeaveQuestion(key, LEAVING[key][0], where), answered)

    def footer_label(self, action: str, label: str) -> str | None:
        """A key's label in the footer now, or ``None`` to leave it out: the keys of a game being played while it
        is, the keys of a finished game (analysis, play again, new game) once it is over.

        The footer of a finished game offered "⏎ Play / declare  c Challenge  h Hint", keys with nothing left to
        do (an audit); n, a and p, the keys that lead on, were only said in the prompt.
        """
        over = self.session is not None and self.session.over
        if action in ("confirm", "challenge", "hint"):
            return None if over else label
        if action == "declare('none')":
            return "New game" if over else None
        if action in ("again", "analysis"):
            return label if over else None
        return label

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Game keys wait while another screen (start, help, summary) is on top; Tab and the rest always work."""
        if action == "challenge" and self.session is not None and self.session.rules.auto_declare:
            return False  # no declaration is ever false there (R8.2): not offered in the footer at all
        if action in self.GAME_ACTIONS:
            return self.screen is self.screen_stack[0] or None
        return True


__all__ = ["AnalysisScreen", "HelpScreen", "MessageScreen", "RondaApp", "SetupScreen"]
