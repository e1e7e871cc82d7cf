"""``ronda serve --log-format json``: every line one JSON object, and no card or secret in any of them (R11)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import httpx
from real_server import RealServer, SeatSocket

CARD = re.compile(r"(?<![\w-])(?:1[012]|[1-7])[oceb](?![\w-])")
"""A card's name ("5o", "12e") standing alone: what a log line must never hold."""


def test_a_whole_games_json_logs_hold_no_card_and_no_secret(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with log.open("w") as stderr:
        server = RealServer(tmp_path / "data", "--log-format", "json", "--log-level", "debug", stderr=stderr)
        with server:
            table_id, tokens = server.two_people()
            seats = {seat: SeatSocket(server, table_id, token) for seat, token in tokens.items()}
            for seat in seats.values():
                seat.hello(None)
            rng = random.Random(7)
            while not all(seat.over for seat in seats.values()):
                for seat in seats.values():
                    seat.settle()
                for seat in seats.values():
                    if seat.legal and not seat.over:
                        plays = [a for a in seat.legal if "challenge" not in a]
                        seat.act(rng.choice(plays or seat.legal))
            for seat in seats.values():
                seat.close()
            asked = httpx.post(f"{server.base}/api/play", json={"players": 2, "preset": "classic"}).json()
            ticket = asked["ticket"]
            assert httpx.get(f"{server.base}/api/play/{ticket}").json()["status"] == "waiting"
    lines = log.read_text().splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= entry.keys() for entry in entries)
    loggers = {entry["logger"] for entry in entries}
    assert "uvicorn.access" in loggers and "uvicorn.error" in loggers
    assert any(entry.get("path") == "/api/play/…" for entry in entries)  # the ticket is cut out
    text = "\n".join(lines)
    for secret in [*tokens.values(), ticket]:
        assert secret not in text
    assert not CARD.findall(text.replace(table_id, "TABLE"))
