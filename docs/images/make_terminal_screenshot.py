"""Draw docs/images/terminal.svg, the README's picture of the terminal game, from a real game.

``python docs/images/make_terminal_screenshot.py`` (needs the ``tui`` extra) starts ``ronda play``'s app
headless at 120x34, plays the first few decisions of a seeded game against the medium bot by pressing
the keys a person would (Enter declares what the hand holds, ``1`` plays the first card), and saves
what the terminal shows. The same seed draws the same picture.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from ronda.interfaces.terminal.app import RondaApp
from ronda.interfaces.terminal.session import Settings

OUT = Path(__file__).resolve().parent / "terminal.svg"


async def draw() -> None:
    app = RondaApp(Settings.make(2, 0, "medium", seed=11, pace=0), setup=False)
    async with app.run_test(size=(120, 34)) as pilot:
        for key in ["enter", "1", "1", "1"]:
            for _ in range(400):
                await pilot.pause()
                session = app.session
                busy = any(worker.is_running for worker in app.workers)
                if session is not None and not busy and session.human_to_act():
                    break
            await pilot.press(key)
        for _ in range(100):
            await pilot.pause()
        app.save_screenshot(filename=OUT.name, path=str(OUT.parent))


if __name__ == "__main__":
    asyncio.run(draw())
    print(f"wrote {OUT.name}")
