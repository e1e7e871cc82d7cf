"""Shared by the terminal tests: what a seat may see (R11), and a scripted human."""

from __future__ import annotations

import re

from decks import build_deck
from ronda.engine.actions import DECLARES, PLAYS, Action, Play
from ronda.engine.cards import card_name, parse_card
from ronda.engine.game import DECLARE, Game
from ronda.engine.rules import Rules
from ronda.engine.view import SeatView
from ronda.interfaces.terminal.session import Session, Settings, spread_levels

CARD_NAME = re.compile(r"(?<![0-9a-z])(1[0-2]|[1-7])([oceb])(?![0-9a-z])")


def card_names_in(text: str) -> set[str]:
    """Every card notation (5c, 12b) written in some text."""
    return {m.group(0) for m in CARD_NAME.finditer(text.lower())}


def hidden_from(session: Session) -> set[str]:
    """Cards the human may not know now: the other seats' hands (except hands shown by a challenge) and the stock.

    Read from the game itself, which only the test may do.
    """
    game = session.game
    view = session.view
    hidden: set[int] = set()
    for seat in range(game.rules.players):
        if seat != session.human and view.shown[seat] is None:
            hidden |= set(game.hand(seat))
    hidden |= set(game.stock_cards())
    return {card_name(c) for c in hidden}


def quick_settings(seed: int = 5, players: int = 2, seat: int = 0, level: str = "random") -> Settings:
    return Settings.make(players, seat, level, seed=seed, pace=0)


def simple_choice(session: Session) -> str:
    """The scripted human: declares what it holds, plays its lowest card."""
    if session.view.phase == DECLARE:
        return f"declare {session.true_declaration()}"
    return f"play {session.view.hand.names()[0]}"


def script_round(settings: Settings) -> list[str]:
    """The commands of :func:`simple_choice` through the first round of a game, found by playing it in-process."""
    session = Session(settings)
    commands = []
    from ronda.interfaces.terminal.session import parse_command

    while session.game.round == 0 and not session.over:
        if session.human_to_act():
            command = simple_choice(session)
            commands.append(command)
            action = parse_command(command, session)
            assert not isinstance(action, str)
            session.act(action)
        else:
            session.step_bot()
    return commands


def screen_text(app: object) -> str:
    """The characters on a running Textual app's screen, as a person would read them (no colours)."""
    import io as _io

    from rich.console import Console

    width, height = app.size  # type: ignore[attr-defined]
    console = Console(
        width=width,
        height=height,
        file=_io.StringIO(),
        record=True,
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        safe_box=False,
    )
    screen = app.screen  # type: ignore[attr-defined]
    console.print(screen._compositor.render_update(full=True, screen_stack=app._background_screens))  # type: ignore[attr-defined]
    return console.export_text()


def boxed(screen: str, title: str) -> str:
    """The words inside the box whose top border carries ``title``, as a person reads them off the screen.

    The box is found by its corners on the screen's characters (``╭─ Title ──╮``,
    heavy or light), and its lines are joined with single spaces, so a line the
    box wrapped reads whole. An empty string when no such box is on screen.
    """
    lines = screen.splitlines()
    for top, line in enumerate(lines):
        at = line.find(f"─ {title} ")
        at = at if at >= 0 else line.find(f"━ {title} ")
        if at < 0:
            continue
        left = max(line.rfind(corner, 0, at) for corner in "╭┏╔")
        right = min((i for i in (line.find(corner, at) for corner in "╮┓╗") if i >= 0), default=len(line))
        inside = []
        for row in lines[top + 1 :]:
            if row[left : left + 1] in ("╰", "┗", "╚", ""):
                break
            inside.append(row[left + 1 : right])
        return " ".join(" ".join(inside).split())
    return ""


class ScriptedBot:
    """A test opponent: declares ``kind`` every deal, plays the cards it is told in order while it holds them."""

    name = "scripted"

    def __init__(self, kind: str, plays: str) -> None:
        self.kind = kind
        self.plays = [parse_card(card) for card in plays.split()]

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        if view.phase == DECLARE:
            return DECLARES[self.kind]  # type: ignore[index]
        wanted = [PLAYS[card] for card in self.plays if card in view.hand]
        return wanted[0] if wanted else next(a for a in legal if isinstance(a, Play))


def explicit_session(deals: list[dict[int, str]], table: str, players: int = 2, human: int = 0) -> Session:
    """A session dealt from an explicit deck (``decks.build_deck``), random bots at the other seats."""
    rules = Rules(players=players)
    deck = [parse_card(c) for c in build_deck(rules, deals, table)]
    return Session(
        Settings(rules, human, spread_levels("random", players, human), seed=1, pace=0), Game(rules, decks=[deck])
    )


def last_card_session() -> Session:
    """You (seat 0) and seat 1, three known cards each; seat 1 declares none and plays its cards in order."""
    session = explicit_session([{0: "5o 6c 3e", 1: "11o 12c 2b"}], table="7e 10e 4b 1c")
    session.bots[1] = ScriptedBot("none", "11o 12c 2b")
    return session


def bluff_session(seat_one_hand: str, mine: str = "5o 6c 3e") -> Session:
    """You at seat 0; seat 1 declares ronda on every deal, holding one or not, and plays its lowest card."""
    session = explicit_session([{0: mine, 1: seat_one_hand}], table="7e 10e 4b 1c")
    session.bots[1] = ScriptedBot("ronda", "")
    return session


def proven_ronda_session() -> Session:
    """Seat 0 (a bot) declares a true ronda of 11s and plays 11o, 11c, 2b; you are seat 1, to play after 11o."""
    session = explicit_session([{0: "11o 11c 2b", 1: "5o 6c 3e"}], table="7e 10e 4b 1c", human=1)
    session.bots[0] = ScriptedBot("ronda", "11o 11c 2b")
    session.step_bot()
    session.act(DECLARES["none"])
    session.step_bot()
    return session
