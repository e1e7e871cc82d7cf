"""The server's schedule of full garbage collections (interfaces/web/collector.py): no long pause of the
event loop at a heap's whim, yet no cycle kept for ever, and Python's own settings given back."""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import weakref

import pytest

from extras import require

require("web")

from ronda.interfaces.web.collector import Collector  # noqa: E402


class Node:
    """An object in a reference cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


def test_a_cycle_that_outlives_the_young_collections_is_freed_at_the_next_scheduled_full_collection() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[bool, bool]:
        collector = Collector(full=0.2)
        await collector.start()
        node = Node()
        gone = weakref.ref(node)
        gc.collect(1)  # the node survives the young collections: it is now in the old generation
        del node
        for _ in range(50):  # young collections by themselves leave it there
            gc.collect(1)
        kept_by_young = gone() is not None
        await asyncio.sleep(0.5)  # the scheduled full collection comes
        freed = gone() is None
        await collector.stop()
        return kept_by_young, freed

    kept_by_young, freed = asyncio.run(scenario())
    assert kept_by_young
    assert freed
    assert gc.get_threshold() == before


FULL_COLLECTIONS = """
import asyncio, gc, json
from ronda.interfaces.web.collector import Collector
full = []
def count(phase, info):
    if phase == "start" and info["generation"] == 2:
        full.append(1)
async def scenario():
    collector = Collector(full=3600)
    await collector.start()
    gc.callbacks.append(count)
    try:
        garbage = [[[] for _ in range(10)] for _ in range(20_000)]  # enough young collections for several full ones
        del garbage
        return len(full)
    finally:
        gc.callbacks.remove(count)
        await collector.stop()
during = asyncio.run(scenario())
gc.callbacks.append(count)
garbage = [[[] for _ in range(10)] for _ in range(200_000)]
del garbage
gc.callbacks.remove(count)
print(json.dumps({"during": during, "after": len(full) - during}))
"""
"""Run in a fresh interpreter, as a server starts: Python begins a full collection only once the objects new since
the last one reach a quarter of the old ones, so in a test worker that has run hundreds of tests the same garbage
took 13 s to bring one about."""


def test_python_starts_no_full_collection_while_the_collector_runs_and_does_again_after() -> None:
    run = subprocess.run([sys.executable, "-c", FULL_COLLECTIONS], capture_output=True, text=True, check=True)
    counted = json.loads(run.stdout)
    assert counted["during"] == 0
    assert counted["after"] > 0, "after stop Python collects in full by itself again"


def test_a_schedule_of_no_time_is_refused() -> None:
    with pytest.raises(ValueError, match="above zero"):
        Collector(full=0)


def test_the_middle_generation_is_collected_often_so_that_each_of_its_pauses_is_short() -> None:
    """Every third collection takes the middle generation while the server runs (Python's own: every eleventh)."""
    generations: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    def churn() -> list[int]:
        generations.clear()
        gc.callbacks.append(note)
        try:
            kept = [[[] for _ in range(10)] for _ in range(20_000)]  # survivors: what the middle generation holds
            del kept
        finally:
            gc.callbacks.remove(note)
        return generations[:]

    async def scenario() -> list[int]:
        collector = Collector(full=3600)
        await collector.start()
        try:
            return churn()
        finally:
            await collector.stop()

    running = asyncio.run(scenario())
    assert running.count(1) * 4 >= len(running) > 20
    after = churn()
    assert after.count(1) * 4 < len(after), "after stop Python's own thresholds are back"
