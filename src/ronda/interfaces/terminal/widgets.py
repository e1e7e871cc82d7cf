"""The pieces of the game screen. Each draws from the :class:`Session` it is given, and only from the human's view.

A widget never reads the game itself: ``session.view`` (R11) and the
session's words are all it has, so another seat's hand can only appear
face down.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol, cast

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.compose import compose
from textual.events import Resize
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from ...engine.cards import card_name
from ...engine.game import DECLARE, PLAY
from .cards import backs, coloured, spread, spread_height
from .session import PlayMark, Session
from .wrap import wrap_phrases

COMPACT_BELOW = 30
"""Terminal lines under which cards are drawn compact (three lines, the corner alone): at 80x24 whole faces of a
hand and two rows of table cards push the prompt and the hint off the screen."""


class SessionWidget(Widget):
    """A widget that redraws itself from a session."""

    DEFAULT_CSS = "SessionWidget { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.session: Session | None = None

    @property
    def compact(self) -> bool:
        """Whether cards are drawn compact: the terminal is short (:data:`COMPACT_BELOW`)."""
        return self.app.size.height < COMPACT_BELOW

    def show(self, session: Session) -> None:
        self.session = session
        self.refresh(layout=True)


class ScoreBar(SessionWidget):
    """Scores and target, round and deal, dealer, stock, whose turn: one line.

    Where the line is longer than the terminal is wide, whose turn it is is left out: the prompt under the hand
    and the heavy border of the box whose turn it is say it too. With three players at 80 columns "Your turn"
    went onto a second line of its own (an audit), a line the board needs.
    """

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self._text(width).wrap(self.app.console, max(width, 1)))

    def render(self) -> Text:
        return self._text(self.size.width)

    def _text(self, width: int) -> Text:
        text = self._facts()
        turn = self._turn()
        if not width or cell_len(text.plain) + cell_len(turn.plain) <= width:
            text.append_text(turn)
        return text

    def _turn(self) -> Text:
        """' │ Your turn', ' │ Seat 2 to play', ' │ Game over', or nothing between deals."""
        session = self.session
        if session is None:
            return Text("")
        view = session.view
        if view.phase in (DECLARE, PLAY):
            turn = "Your turn" if view.turn == session.human else f"Seat {view.turn} to {_doing(view.phase)}"
            return Text(f" │ {turn}", style="bold #ffd700" if view.turn == session.human else "")
        if session.over:
            return Text(" │ Game over", style="bold")
        return Text("")

    def _facts(self) -> Text:
        session = self.session
        if session is None:
            return Text("")
        view = session.view
        text = Text()
        for side, points in enumerate(view.scores):
            if side:
                text.append(" · ")
            mine = side == view.side
            text.append(f"{session.side_title(side)}: {points}", style="bold #ffd700" if mine else "bold")
        text.append(f" (target {session.rules.target})", style="dim")
        text.append(f" │ Round {view.round + 1} · deal {view.deal + 1}/{view.deals_in_round}")
        text.append(f" │ Stock {view.stock}")
        return text


def _doing(phase: str) -> str:
    return "declare" if phase == DECLARE else "play"


class SeatBox(SessionWidget):
    """Another seat as everyone sees it: cards face down, its side's pile, its declaration, dealer and turn."""

    def __init__(self, seat: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seat = seat

    def show(self, session: Session) -> None:
        view = session.view
        # Four boxes share a row in 4 players: level and partner move into the box so the title is never cut.
        if session.rules.players == 4:
            self.border_title = f"Seat {self.seat}"
        else:
            self.border_title = f"Seat {self.seat} · {session.levels[self.seat]}"
        self.border_subtitle = "dealer" if view.dealer == self.seat else ""
        self.set_class(view.turn == self.seat and view.phase in (DECLARE, PLAY), "turn")
        super().show(session)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self._text(width).wrap(self.app.console, max(width, 1)))

    def render(self) -> Text:
        return self._text(self.size.width)

    def _text(self, width: int) -> Text:
        session = self.session
        if session is None:
            return Text("")
        view = session.view
        count = view.hand_sizes[self.seat]
        pile = view.pile_sizes[session.rules.side_of(self.seat)]
        if session.rules.players == 4:
            level = session.levels[self.seat] or ""
            # Four boxes of 16 columns at 80: "random · partner" wrapped with its dot hanging; the word goes under.
            partner = "" if view.is_opponent(self.seat) else " · partner"
            if partner and cell_len(level + partner) > width:
                partner = "\npartner"
            text = Text(f"{level}{partner}\n")
        else:
            text = Text()
        text.append_text(self._hand_line(count, pile, width))
        declared = session.declaration_text(self.seat)
        text.append("\n")
        if declared:
            exposed = view.exposed[self.seat]
            text.append_text(coloured(f"declared {declared}", style="bold #ff8a80" if exposed else "bold #80cbc4"))
        else:
            text.append("to declare" if view.phase == DECLARE else "", style="dim")
        return text

    def _hand_line(self, count: int, pile: int, width: int) -> Text:
        """The cards face down, their number and the side's pile, in the first of these forms that fits the box's
        ``width``: "▮▮▮ 3 in hand · pile 0", "▮▮▮ 3 · pile 0", then the pile on a line of its own.

        Three boxes share a row of 80 columns beside the play-by-play, and the first form wrapped there as
        "▮▮▮ 3 in hand · pile" over "0", the pile's number cut from its word (an audit).
        """
        forms = [f" {count} · pile {pile}", f" {count}\npile {pile}"]
        if self.session is not None and self.session.rules.players != 4:
            forms.insert(0, f" {count} in hand · pile {pile}")
        drawn = max(count, 1)  # backs() draws an empty hand as one "—"
        fits = [form for form in forms if drawn + cell_len(form.split("\n")[0]) <= width]
        text = backs(count)
        text.append(forms[0] if not width else fits[0] if fits else forms[-1])  # no width yet: laid out again
        return text


class TableView(SessionWidget):
    """The cards face up on the table, then what to know about them in words, wrapped, never cut.

    Under the cards: the open chain (R5.3) or the card just dropped (a caida
    waits on it), and, for a moment after a bot plays, what it did. Then the
    cards it took are still drawn, marked "took", beside the card it played,
    marked "play" (a dropped card is marked "drop"), so the move is seen on
    the table and not only read in the log.
    """

    LEAST_LINES, TIGHT_LEAST_LINES = 5, 3
    """The table's least height with its edges, and while drawn tighter (:meth:`draw_tighter`): no empty lines
    kept then. Its CSS and :meth:`outer_height` both read them."""
    DEFAULT_CSS = f"TableView {{ min-height: {LEAST_LINES}; }}\nTableView.-tight {{ min-height: {TIGHT_LEAST_LINES}; }}"

    FORMS = ("whole", "compact", "one_line")
    """How a table card is drawn, tallest first: its whole face (5 lines), its corner between its edges (3), its
    corner alone (1)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.mark: PlayMark | None = None
        self.tighter = 0
        """Forms tighter than the terminal's height gives (:attr:`compact`): set by the app while the board is
        taller than the screen (:meth:`~.app.RondaApp.fit_board`)."""

    def form(self, tighter: int | None = None) -> str:
        """The form the cards are drawn in, ``tighter`` steps (the table's own by default) below the terminal's."""
        start = 1 if self.compact else 0
        return self.FORMS[min(start + (self.tighter if tighter is None else tighter), len(self.FORMS) - 1)]

    def _form_steps(self) -> int:
        """Steps from the terminal's form to cards on one line each."""
        return len(self.FORMS) - (2 if self.compact else 1)

    def tightest(self) -> int:
        """The most steps :attr:`tighter` may take: down to cards on one line each, then, where the play-by-play
        is on screen (its pane beside the board, or its last lines under the table) and says the same, without
        the note of what a bot just did."""
        said = [*self.screen.query("#log"), *self.screen.query("#recent")]
        return self._form_steps() + (1 if any(part.display for part in said) else 0)

    def outer_height(self, width: int, tighter: int | None = None) -> int:
        """Lines the table takes with its edges: :meth:`height`, and at least its least height (a tighter table's
        is smaller)."""
        tighter = self.tighter if tighter is None else tighter
        return max(self.TIGHT_LEAST_LINES if tighter else self.LEAST_LINES, self.height(width, tighter) + 2)

    def draw_tighter(self, tighter: int) -> None:
        """Draw the table ``tighter`` steps below the terminal's form (:attr:`tighter`)."""
        self.tighter = tighter
        self.set_class(tighter > 0, "-tight")
        self.refresh(layout=True)

    def height(self, width: int, tighter: int | None = None) -> int:
        """Lines the table takes inside its edges in ``width`` columns: its cards in :meth:`form`, then its notes."""
        form = self.form(tighter)
        count = len(self._cards()[0]) if self.session is not None else 0
        cards = max(1, spread_height(count, width, form == "compact", form == "one_line"))
        return cards + len(self._note_lines(width, tighter))

    def notes(self, tighter: int | None = None) -> list[str]:
        session = self.session
        if session is None:
            return []
        view = session.view
        notes = []
        tighter = self.tighter if tighter is None else tighter
        if self.mark is not None and tighter <= self._form_steps():
            notes.append(f"Just now: {self.mark.line}")
        if view.chain is not None:
            notes.append(session.chain_text())
        elif view.last_drop is not None and view.phase == PLAY:
            seat = _last_dropper(session)
            who = "you" if seat == session.human else f"seat {seat}"
            notes.append(f"{card_name(view.last_drop)} just dropped by {who}: its rank takes it for a caida")
        return notes

    def _cards(self) -> tuple[list[int], dict[int, str]]:
        """The cards to draw, with the marks of the bot's play shown for a moment."""
        assert self.session is not None
        cards = set(self.session.view.table)
        mark = self.mark
        if mark is None:
            return sorted(cards), {}
        if mark.taken:
            marks = {card: "took" for card in mark.taken}
            marks[mark.card] = "play"
        else:
            marks = {mark.card: "drop"} if mark.card in cards else {}
        return sorted(cards | set(marks)), marks

    def _note_lines(self, width: int, tighter: int | None = None) -> list[str]:
        return [line for note in self.notes(tighter) for line in wrap_phrases(note, max(width, 20))]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        if self.session is None:
            return 1
        return self.height(width)

    def render(self) -> Text:
        session = self.session
        if session is None:
            return Text("")
        cards, marks = self._cards()
        width = self.size.width
        form = self.form()
        text = (
            spread(cards, width, marks=marks, compact=form == "compact", one_line=form == "one_line")
            if cards
            else Text("(the table is empty)", style="dim italic")
        )
        for line in self._note_lines(width):
            text.append("\n")
            text.append_text(coloured(line, style="#a5d6a7"))
        return text


def _last_dropper(session: Session) -> int:
    view = session.view
    for seat, card in reversed(view.plays):
        if card == view.last_drop:
            return seat
    return -1


class HandView(SessionWidget):
    """The human's hand, numbered for the keys, with the chosen card raised."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.selected = 0
        self.one_line = False
        """Cards drawn one line each, the key before the corner ("│1 4c  ♥│"): set by the app as the last of its
        steps while the board is taller than the screen, the table drawn as tight as it goes
        (:meth:`~.app.RondaApp.fit_board`)."""

    def height(self, width: int, one_line: bool | None = None) -> int:
        """Lines the hand takes inside its edges in ``width`` columns, its cards on one line each or not."""
        one_line = self.one_line if one_line is None else one_line
        return max(1, spread_height(len(self.cards()), width, self.compact, one_line))  # one line wins over compact

    def outer_height(self, width: int, one_line: bool | None = None) -> int:
        """Lines the hand takes with its edges (``#hand``'s border, one line above and one below)."""
        return self.height(width, one_line) + 2

    def draw_one_line(self, one_line: bool) -> None:
        """Draw the hand's cards one line each, or as the terminal's height gives (:attr:`one_line`)."""
        self.one_line = one_line
        self.refresh(layout=True)

    class Resized(Message):
        """The hand was laid out at another size: the board's scrollbar came or went, and every part's width
        with it (the app fits the board again, :meth:`~.app.RondaApp.fit_board`)."""

    def on_resize(self, event: Resize) -> None:
        self.post_message(self.Resized())

    def show(self, session: Session) -> None:
        view = session.view
        self.selected = min(self.selected, max(0, len(view.hand) - 1))
        facts = [f"seat {session.human}", f"pile {view.pile_sizes[view.side]}"]
        declared = session.declaration_text(session.human)
        if declared:
            facts.append(f"declared {declared}")
        if view.dealer == session.human:
            facts.append("dealer")
        self.border_title = "Your hand"
        self.border_subtitle = " · ".join(facts)
        self.set_class(session.human_to_act(), "turn")
        super().show(session)

    def cards(self) -> list[int]:
        return list(self.session.view.hand) if self.session is not None else []

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.height(width)

    def render(self) -> Text:
        cards = self.cards()
        if not cards:
            return Text("(no cards in hand)", style="dim italic")
        selected = self.selected if self.session is not None and self.session.view.phase == PLAY else None
        return spread(
            cards, self.size.width, selected=selected, labels=True, compact=self.compact, one_line=self.one_line
        )


_OPTION = re.compile(r"( *(?:\d+\. )?)(.*)")
"""A line's hanging part: its leading spaces and the number of a hint's option ("  1. "), then its text."""


def hanging(text: str, style: str = "") -> Group:
    """``text``'s lines, card names coloured (:func:`coloured`), each wrapping under its own text: a line that
    starts with spaces, or with an option's number ("  1. declare none: …"), wraps onto lines that start where its
    text does, at whatever width the widget is drawn.

    Wrapped by the widget alone, a hint's option went on at the pane's left edge, under its "1.", so an option ran
    into the next (a newcomer's audit). Each such line is a grid of two columns, its indent and its text, so
    the text wraps in its own column.
    """
    rows: list[Text | Table] = []
    for line in text.split("\n"):
        match = _OPTION.fullmatch(line)
        indent, words = (match.group(1), match.group(2)) if match else ("", line)
        if not indent or not words:
            rows.append(coloured(line, style=style))
            continue
        grid = Table.grid()
        grid.add_column(width=cell_len(indent), no_wrap=True)
        grid.add_column()
        grid.add_row(Text(indent, style=style), coloured(words, style=style))
        rows.append(grid)
    return Group(*rows)


class PromptLine(Static):
    """What to do now, the keys for it, why the last key was refused, and a note or a hint under the hand."""

    def say(self, text: str, error: str = "", note: str = "") -> None:
        parts: list[RenderableType] = []
        if error:
            parts.append(Text(error, style="bold #ff6e6e"))
        if note:
            parts.append(hanging(note, style="#a5d6a7"))
        parts.append(coloured(text, style="bold"))
        self.update(Group(*parts))


class PlayLog(RichLog):
    """The play-by-play: narration lines wrapped between phrases to the pane's width, again whenever it changes.

    A RichLog draws a line once, at the width it has then; this one keeps the
    lines and draws them anew at the pane's width whenever that width is not
    the one they were drawn at: on a resize, on its first layout, and when
    lines come after the log was emptied for a new game (the pane keeps its
    size then, so no resize would come to draw them). A line is never cut or
    broken inside "seat 1" or "+1 (caida)".

    Lines that come while the pane is hidden (a hint has its place beside the
    board) have no width to be drawn at: they wait, counted, and are drawn when
    the pane is shown again. A newcomer's audit saw "You play 4c, take 4b"
    missing after a hint: the pane came back at the width its other lines were
    drawn at, so nothing drew the line that came while it was away.

    A pane scrolled to its last line stays there when the terminal changes
    size: made shorter, it showed its first lines and "Game over" was out of
    sight until scrolled to (an audit).
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, min_width=20)
        self.entries: list[str] = []
        self._drawn_width = 0
        """The width the lines on screen were drawn at; 0 before the pane has one."""
        self._drawn = 0
        """How many of :attr:`entries` are drawn: the others came while the pane had no width."""
        self._at_end = True
        """Whether the last line was in sight the last time the pane scrolled: kept there when its size changes."""

    def add(self, lines: list[str]) -> None:
        self.entries += lines
        self._catch_up()

    def reset(self) -> None:
        """Empty the log for a new game; the pane keeps its width, so what is added next is drawn at once."""
        self.entries = []
        self._drawn = 0
        self.clear()

    def on_resize(self, event: Resize) -> None:
        self._catch_up()
        if self._at_end:
            self.scroll_end(animate=False, x_axis=False)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._at_end = new_value >= self.max_scroll_y

    def _catch_up(self) -> None:
        """Draw what is not drawn yet, all of it again if the width changed; nothing while the pane has no width."""
        width = self.scrollable_content_region.width
        if not width:
            return  # hidden, or not laid out yet: its next resize draws what waits
        if width != self._drawn_width:
            self._redraw(width)
            return
        for line in self.entries[self._drawn :]:
            self._draw(line, width)
        self._drawn = len(self.entries)

    def _redraw(self, width: int) -> None:
        self.clear()
        self._drawn_width = width
        for line in self.entries:
            self._draw(line, width)
        self._drawn = len(self.entries)

    def _draw(self, line: str, width: int) -> None:
        style = ""
        if line.startswith(("You", "Your")):
            style = "bold"
        elif line.startswith(("—", "  ")):
            style = "#a5d6a7"
        self.write(coloured("\n".join(wrap_phrases(line, width)), style=style), width=width)


class _FooterKey(Protocol):
    """What :class:`KeyFooter` reads and sets of the keys Textual's footer is made of (its ``FooterKey``, a widget
    Textual does not export: read by what it has, not imported from a private module a Textual release may move)."""

    key_display: str
    description: str
    action: str

    def has_class(self, *names: str) -> bool: ...


class KeyFooter(Footer):
    """The keys along the bottom of the screen, every one of them whole at any width from 50 columns.

    Textual's footer is one line that cuts what does not fit: at 60 columns it
    stopped at "c Ch", at 50 at "⏎ Play / dec", and "c Challenge" and "h Hint"
    were never seen. A wrapped footer would take a line from a 16-line
    terminal, so this one keeps its line and takes the first of its forms that
    fits: Textual's own (a space either side of every key), then Textual's
    compact form, the same with the short labels of :attr:`SHORT_LABELS`,
    then that with the command palette's key alone, ``^p`` without its word.
    """

    SHORT_LABELS: ClassVar[dict[str, str]] = {"confirm": "Play", "again": "Again", "declare('none')": "New"}
    """A key's label in the compact forms, by its action, where the full one ("Play / declare") costs too much."""

    DEFAULT_CSS = "KeyFooter.-compact FooterKey.-command-palette { margin-right: 0; }"
    """The palette's key, docked on the right, ends at the screen's edge (the compact form put a column after it)."""

    def __init__(self) -> None:
        super().__init__()
        self._width = 0
        """The width the keys were composed for: they are composed again when it changes."""

    def compose(self) -> ComposeResult:
        self._width = self.app.size.width
        children = compose(self, super().compose())
        label_now = getattr(self.app, "footer_label", None)
        if label_now is not None:  # the keys that do something now, as they are called now (RondaApp.footer_label)
            kept = []
            for child in children:
                if hasattr(child, "key_display"):
                    key = cast(_FooterKey, child)
                    label = label_now(key.action, key.description)
                    if label is None:
                        continue
                    key.description = label
                kept.append(child)
            children = kept
        keys = [cast(_FooterKey, child) for child in children if hasattr(child, "key_display")]
        shown = [key.key_display for key in keys]
        full = [key.description for key in keys]
        short = [self.SHORT_LABELS.get(key.action, key.description) for key in keys]
        bare = ["" if key.has_class("-command-palette") else label for key, label in zip(keys, short, strict=True)]
        for compact, labels in ((False, full), (True, full), (True, short), (True, bare)):
            if _footer_width(shown, labels, compact) <= self._width:
                break  # the first form that fits; the last one if none does
        self.compact = compact
        for key, label in zip(keys, labels, strict=True):
            key.description = label
        yield from children

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self.call_after_refresh(self.recompose)


def _footer_width(shown: list[str], labels: list[str], compact: bool) -> int:
    """The columns Textual's footer takes for these keys (as shown) and labels, by its CSS: a key, a space and its
    label if any, then two spaces in the full form (one either side of the key), one in the compact form (between
    two keys, or the bar before the palette's key docked on the right)."""
    gap = 1 if compact else 2
    return sum(
        cell_len(key) + (cell_len(label) + 1 if label else 0) + gap for key, label in zip(shown, labels, strict=True)
    )


__all__ = ["HandView", "hanging", "KeyFooter", "PlayLog", "PromptLine", "ScoreBar", "SeatBox", "TableView"]
