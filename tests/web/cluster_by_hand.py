"""The real page in chromium, behind a load balancer in front of two `ronda serve --redis`, through a SIGKILL.

Not a test (nothing is asserted, and a browser run costs the suite too much):
a script to see that the page itself, reconnecting by itself after its
process died, lands on a process that serves its table and plays on. It
starts a throwaway PostgreSQL and Redis (tests/web/conftest.py), two
processes and a round-robin TCP balancer (tests/web/balancer.py); the page
creates a table against a bot, plays two decisions, and the table's owner is
killed. Twice: first with everything (page, websocket) on the owner, then
with the page's connection spread by the balancer. Run from the repository
root::

    PYTHONPATH=src:tests/web:tests python3 tests/web/cluster_by_hand.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import redis
import test_browser as browsing
from balancer import Balancer
from conftest import Cluster, RedisServer
from real_server import RealServer
from test_web_cluster import OPTIONS


def decide(page: Any, count: int) -> None:
    """Click ``count`` decisions (truthful declarations, the first playable card) as a player would."""
    clicks, deadline = 0, time.monotonic() + 20
    while clicks < count and time.monotonic() < deadline:
        if page.locator("[data-action^='declare-']").count():
            kind = browsing.truthful(browsing.hand_of(page))
            page.click(f"[data-action='declare-{kind}']", timeout=2000)
            clicks += 1
        elif page.locator("#hand .hand-card.playable").count():
            page.locator("#hand .hand-card.playable").first.click(timeout=2000)
            clicks += 1
        page.wait_for_timeout(100)


def run(spread: bool) -> None:
    postgres, cache = Cluster(), RedisServer()
    database = postgres.database()
    folder = Path(tempfile.mkdtemp(prefix="ronda-cluster-"))
    servers = [RealServer(folder / f"p{i}", "--redis", cache.url, *OPTIONS, database_url=database) for i in range(2)]
    balancer = Balancer([s.port for s in servers] if spread else [servers[0].port])
    try:
        with browsing.playwright_api.sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=browsing.CHROMIUM, args=browsing.CHROMIUM_ARGS, headless=True
            )
            with browsing.open_page(chromium, **browsing.DESKTOP) as page:
                table_id = browsing.create_table(page, balancer.base, target=12)
                leases = redis.Redis(port=cache.port, decode_responses=True)
                owner = str(leases.get(f"ronda:lease:{table_id}"))
                victim = next(s for s in servers if f"-{s.process.pid}-" in owner)
                decide(page, 2)
                killed = time.monotonic()
                victim.kill()
                balancer.ports = [s.port for s in servers]
                page.wait_for_timeout(300)
                print(f"spread={spread}: 0.3 s after the SIGKILL the page says {page.inner_text('#connection')!r}")
                browsing.wait_until(page, "!document.querySelector('#connection').classList.contains('off')", 15)
                print(f"  connected again {time.monotonic() - killed:.2f} s after it")
                clicks = browsing.play_until_summary(page, seconds=60)
                print(f"  played on to the round's summary ({clicks} clicks); the table's lease now: ", end="")
                print(leases.get(f"ronda:lease:{table_id}"), f"(was {owner})")
            chromium.close()
    finally:
        balancer.close()
        for server in servers:
            server.stop()
        cache.remove()
        postgres.remove()


if __name__ == "__main__":
    run(spread=False)
    run(spread=True)
