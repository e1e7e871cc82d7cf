"""How often the terminal game's board is taller than the screen, and the other seats out of sight.

    PYTHONPATH=src python3 benchmarks/terminal_fit.py --players 4 --size 80x24 --seeds 1,2,3

(a few seconds a game; ``--no-fit`` draws the table as before the fit, for the comparison.)

Plays games against ``medium`` bots on Textual's pilot, the person pressing Enter (their hand's first card, or the
declaration their hand holds) at each decision, and reads, at each of the first ``--decisions`` decisions, whether
the board's parts are taller than its room and whether it is scrolled (the seat boxes, at its top, out of sight),
and how often the board's last step was taken: the person's hand drawn one line a card.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "terminal"))
sys.path.insert(0, str(ROOT / "tests"))

from terminal_helpers import quick_settings  # noqa: E402  (the tests' own helpers: the games they play)
from test_app import settle  # noqa: E402

from ronda.interfaces.terminal.app import MessageScreen, RondaApp  # noqa: E402
from ronda.interfaces.terminal.widgets import HandView  # noqa: E402


async def probe(players: int, seed: int, size: tuple[int, int], decisions: int) -> tuple[int, int, int, int]:
    """Decisions read, those where the board's parts were taller than its room, those with the seats scrolled away,
    those with the hand drawn one line a card."""
    app = RondaApp(quick_settings(seed=seed, players=players, level="medium"), setup=False)
    read = taller = hidden = one_line = 0
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        while read < decisions and app.session is not None and not app.session.over:
            if not isinstance(app.screen, MessageScreen):
                for _ in range(3):  # the board's fit takes a layout or two after the state is drawn
                    await pilot.pause()
                board = app.query_one("#board")
                parts = sum(part.outer_size.height for part in board.children if part.display)
                read += 1
                taller += parts > board.size.height
                hidden += board.scroll_y > 0
                one_line += app.query_one(HandView).one_line
            await pilot.press("enter")
            await settle(pilot, app)
    return read, taller, hidden, one_line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--size", default="80x24", help="the terminal's columns x lines (default 80x24)")
    parser.add_argument("--seeds", default="1,2,3", help="the games' seeds (default 1,2,3)")
    parser.add_argument("--decisions", type=int, default=40, help="decisions read a game (default 40)")
    parser.add_argument("--no-fit", action="store_true", help="never draw the table tighter (as before the fit)")
    args = parser.parse_args(argv)
    columns, lines = (int(n) for n in args.size.lower().split("x"))
    if args.no_fit:
        RondaApp.fit_board = lambda self: False  # type: ignore[method-assign]
    total = [0, 0, 0, 0]
    for seed in (int(s) for s in args.seeds.split(",")):
        counts = asyncio.run(probe(args.players, seed, (columns, lines), args.decisions))
        read, taller, hidden, one_line = counts
        said = f"board taller than the screen at {taller}, seats out of sight at {hidden}"
        said += f", hand on one line at {one_line}"
        print(f"seed {seed}: {read} decisions, {said}")
        total = [a + b for a, b in zip(total, counts, strict=True)]
    read, taller, hidden, one_line = total
    print(f"all: {read} decisions, taller at {taller}, seats out of sight at {hidden}, hand on one line at {one_line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
