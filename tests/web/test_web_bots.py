"""Bots off the event loop: worker processes, shared fairly, surviving a killed worker, retrying a refused store."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_web_faults import Locker
from web_helpers import Client, new_table, play_out, random_chooser, server

from ronda import Game, Rules
from ronda.engine.actions import Play
from ronda.interfaces.web.store import Store
from ronda.interfaces.web.workers import BotPool


def mid_deal() -> Game:
    """A two-player game in its play phase: expert bots think a while here."""
    game = Game(Rules(players=2), seed=1)
    while game.view(0).phase == "declare":
        game.apply(game.legal_actions()[0])
    return game


def test_a_killed_worker_is_replaced_and_its_decision_still_comes() -> None:
    async def scenario() -> tuple[list[Any], int, list[int], list[int]]:
        pool = BotPool(1)
        game = mid_deal()
        view, legal = game.view(game.view(0).turn), game.legal_actions()
        try:
            first = await pool.choose("random", 1, view, legal)  # the worker is up
            before = pool.pids()
            asking = asyncio.ensure_future(pool.choose("expert", 2, view, legal))
            await asyncio.sleep(0.05)
            os.kill(before[0], signal.SIGKILL)  # for real, mid-decision
            second = await asyncio.wait_for(asking, 30)
            return [first, second], pool.restarts, before, pool.pids()
        finally:
            await pool.close()

    answers, restarts, before, after = asyncio.run(scenario())
    assert all(isinstance(a, Play) for a in answers)
    assert restarts == 1 and after and after != before


def test_a_decision_inherited_by_a_rebuilt_table_is_served_before_those_queued_after_the_worker_was_busy() -> None:
    """After a takeover the rebuilt table's bot turn was owed before the others in line: it does not wait behind
    them (in a 500-game takeover it waited 20 s behind fresh turns)."""

    async def scenario() -> list[str]:
        pool = BotPool(1)
        game = mid_deal()
        view, legal = game.view(game.view(0).turn), game.legal_actions()
        served: list[str] = []

        async def ask(name: str, level: str, inherited: bool = False) -> None:
            await pool.choose(level, 1, view, legal, inherited=inherited)
            served.append(name)

        try:
            await pool.choose("random", 0, view, legal)  # the worker is up
            busy = asyncio.ensure_future(ask("busy", "expert"))
            await asyncio.sleep(0.01)
            fresh = [asyncio.ensure_future(ask(f"fresh {n}", "easy")) for n in range(3)]
            await asyncio.sleep(0.01)
            inherited = asyncio.ensure_future(ask("inherited", "easy", inherited=True))
            await asyncio.gather(busy, inherited, *fresh)
            return served
        finally:
            await pool.close()

    assert asyncio.run(scenario()) == ["busy", "inherited", "fresh 0", "fresh 1", "fresh 2"]


def test_one_table_cannot_keep_the_workers_from_another() -> None:
    """One worker, a table asking for expert decisions back to back: another table's decision waits for one, not all."""

    async def scenario() -> tuple[int, int]:
        pool = BotPool(1)
        game = mid_deal()
        view, legal = game.view(game.view(0).turn), game.legal_actions()
        busy_done = 0

        async def busy_table() -> None:
            nonlocal busy_done
            for seed in range(4):
                await pool.choose("expert", seed, view, legal)
                busy_done += 1

        try:
            await pool.choose("random", 0, view, legal)  # the worker is up
            hog = asyncio.ensure_future(busy_table())
            await asyncio.sleep(0.01)
            await pool.choose("easy", 1, view, legal)
            served_after = busy_done
            await hog
            return served_after, busy_done
        finally:
            await pool.close()

    served_after, total = asyncio.run(scenario())
    assert total == 4 and served_after <= 1


def test_a_table_with_bots_plays_through_the_worker_after_one_is_killed(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        created = new_table(http, 2, [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "hard"}], target=8)
        me = Client(http, created["table_id"], created["token"])
        me.hello()
        pool = http.app.state.pool  # type: ignore[attr-defined]
        choose = random_chooser(random.Random(2), challenge=0)
        play_out([me], choose, until=lambda: bool(pool.pids()) and bool(me.legal))
        os.kill(pool.pids()[0], signal.SIGKILL)
        play_out([me], choose)
        assert me.over and not me.errors()
        assert pool.restarts >= 1


def test_a_bot_whose_move_the_store_refused_tries_again_and_plays(tmp_path: Path) -> None:
    """The bot declares first; while the file is locked its decision is refused (nobody sees it), then it goes on."""
    url = f"sqlite:///{tmp_path / 'ronda.sqlite3'}"
    with server(tmp_path, url, store_timeout=0.2) as http:
        seats = [{"kind": "bot", "level": "easy"}, {"kind": "human", "name": "Amina"}]
        created = new_table(http, 2, seats, me=1)
        locker = Locker(tmp_path / "ronda.sqlite3")
        try:
            me = Client(http, created["table_id"], created["token"])
            state = me.hello()
            assert state["view"]["turn"] == 0 and state["version"] == me.version
            time.sleep(1.0)  # the bot tries, is refused, waits, tries again...
            assert [m for m in me.sync() if m["type"] == "update"] == []
        finally:
            locker.release()
        update = me.expect("update", timeout=10)
        assert update["events"][0] == {"type": "declare", "seat": 0, "declaration": update["events"][0]["declaration"],
                                       "version": state["version"] + 1}  # fmt: skip
        play_out(
            [me],
            random_chooser(random.Random(3), challenge=0),
            until=lambda: me.over or me.version > state["version"] + 8,
        )
    store = Store(url)
    numbers = store.action_numbers(created["table_id"], 0)
    store.close()
    assert numbers == list(range(len(numbers)))
