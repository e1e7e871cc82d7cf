"""Shared by the terminal tests: what a seat may see (R11), and a scripted human."""

from __future__ import annotations

import re

from ronda.engine.cards import card_name
from ronda.engine.game import DECLARE
from ronda.interfaces.terminal.session import Session, Settings

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
    hidden |= set(game.deck[game.stock_pos :]) if game.deck else set()
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
