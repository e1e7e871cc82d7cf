"""What an operator reads: ``/metrics`` (Prometheus' text format), ``/healthz`` and ``/readyz`` (docs/deploy.md)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from real_server import RealServer
from web_helpers import TEST_HOSTS, Client, Server, database, new_table, play_out, random_chooser

from ronda.interfaces.web.app import create_app
from ronda.interfaces.web.metrics import drain

LOOPBACK_CLIENT = ("127.0.0.1", 40000)


def operator_server(tmp_path: Path, client: tuple[str, int] = LOOPBACK_CLIENT, **options: Any) -> Server:
    options.setdefault("bot_delay", 0)
    options.setdefault("flood_rate", 10_000.0)
    options.setdefault("bot_workers", 1)
    options.setdefault("allowed_hosts", TEST_HOSTS)
    return Server(create_app(database(tmp_path), **options), client=client)


def samples(http: Server) -> dict[str, float]:
    """Every sample of ``/metrics``, parsed by prometheus_client's own parser, by name and labels."""
    response = http.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()) if k != "le")
            if "le" not in sample.labels:
                found[sample.name + (f"{{{labels}}}" if labels else "")] = sample.value
    return found


def test_metrics_parse_and_count_a_games_moves_and_name_no_table(tmp_path: Path) -> None:
    with operator_server(tmp_path, create_rate=1) as http:
        before = samples(http)
        assert before["ronda_move_update_seconds_count"] == 0 and before["ronda_tables_live"] == 0
        made = new_table(http, seats=[{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "easy"}])
        client = Client(http, made["table_id"], made["token"])
        client.hello()
        during = samples(http)
        assert during["ronda_tables_live"] == 1 and during["ronda_connections"] == 1
        play_out([client], random_chooser(random.Random(1)))
        moves = sum(1 for m in client.messages if m["type"] == "update")  # at least the person's own decisions
        after = samples(http)
        assert after["ronda_move_update_seconds_count"] >= 1
        assert after["ronda_move_update_seconds_count"] <= moves
        assert after["ronda_store_write_seconds_count"] > after["ronda_move_update_seconds_count"]  # bots' too
        assert after["ronda_bot_queue_wait_seconds_count"] >= 1
        # A second table inside the minute is refused by the rate limit, and counted.
        refused = http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert refused.status_code == 429
        assert samples(http)["ronda_rate_limit_refusals_total{limit=create}"] == 1
        client.close()
        text = http.get("/metrics").text
        assert made["table_id"] not in text and made["token"] not in text
        assert samples(http)["ronda_connections"] == 0


def test_metrics_are_served_to_the_allowed_addresses_only(tmp_path: Path) -> None:
    with operator_server(tmp_path, client=("203.0.113.5", 40000)) as http:
        refused = http.get("/metrics")
        assert refused.status_code == 403 and "--metrics-from" in refused.json()["error"]["message"]
        assert http.get("/healthz").status_code == 200  # the health checks are for everyone
    with operator_server(tmp_path) as http:  # loopback, but through a proxy the server was not told to trust
        assert http.get("/metrics", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 403
    with operator_server(tmp_path, client=("203.0.113.5", 40000), metrics_from=("203.0.113.0/24",)) as http:
        assert http.get("/metrics").status_code == 200
    with pytest.raises(ValueError, match="not 'prometheus'"):
        create_app(database(tmp_path), metrics_from=("prometheus",))


LOCKER = textwrap.dedent(
    """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
    db.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    sys.stdin.read()
    """
)


def test_readiness_follows_the_store_and_draining_while_liveness_stays(tmp_path: Path) -> None:
    with operator_server(tmp_path, store_timeout=0.5) as http:
        assert http.get("/readyz").json() == {"status": "ready"}
        locker = subprocess.Popen(
            [sys.executable, "-c", LOCKER, str(tmp_path / "ronda.sqlite3")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
            locked = http.get("/readyz")
            assert locked.status_code == 503 and locked.json() == {"status": "not_ready", "not_answering": ["store"]}
            assert http.get("/healthz").json() == {"status": "ok"}
        finally:
            assert locker.stdin is not None
            locker.stdin.close()
            locker.wait(timeout=10)
        assert http.get("/readyz").status_code == 200
        drain(http.app)
        draining = http.get("/readyz")
        assert draining.status_code == 503 and draining.json() == {"status": "draining"}
        assert http.get("/healthz").status_code == 200


def test_a_sigterm_with_drain_says_not_ready_while_it_still_serves(tmp_path: Path) -> None:
    with RealServer(tmp_path, "--drain", "60") as server:
        assert httpx.get(f"{server.base}/readyz").json() == {"status": "ready"}
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        while (ready := httpx.get(f"{server.base}/readyz")).status_code == 200:
            assert time.monotonic() < deadline, "the server never began to drain"
            time.sleep(0.05)
        assert ready.status_code == 503 and ready.json() == {"status": "draining"}
        assert httpx.get(f"{server.base}/api/meta").status_code == 200  # players are still served meanwhile
        server.process.send_signal(signal.SIGTERM)  # a second signal stops it at once
        server.process.wait(timeout=15)
