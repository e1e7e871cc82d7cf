"""Caps on connections that never lock a player out: a real `ronda serve`, real websockets, several addresses.

Once, one address opened 64 spectator connections to a table (the invite link
is all it takes), after which both seat holders were refused (`bad_message
"this table takes 64 connections"`) and, past the grace, bots took their
seats; one address also held 150 connections across 150 tables. Now: one
address holds at most `--connections-per-client` (32) connections without a
seat across the server, a table takes at most `--spectators-per-table` (64)
spectators, a refusal is its own error, `too_many_connections`, followed by
close code 4429 — and a seat holder is always let in.

Every address here is on loopback (127.0.0.x: Linux routes the whole range to
this machine), so "another address" is another person as the server counts.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from real_server import RealServer, SeatSocket
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from ronda.interfaces.web.tables import SEAT_CONNECTIONS

PER_CLIENT, PER_TABLE = 32, 64  # the defaults of `ronda serve`


def socket_from(server: RealServer, table_id: str, address: str = "127.0.0.1") -> ClientConnection:
    url = f"ws://127.0.0.1:{server.port}/ws/{table_id}"
    # A spectator that reads nothing keeps what it was sent (max_queue None), so its close is answered at once.
    return connect(url, open_timeout=10, max_queue=None, source_address=(address, 0))


def watch(server: RealServer, table_id: str, address: str = "127.0.0.1") -> tuple[ClientConnection, dict[str, Any]]:
    """A spectator's hello from ``address``: the connection and the server's first answer."""
    ws = socket_from(server, table_id, address)
    ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
    return ws, json.loads(ws.recv(timeout=10))


def closed_with(ws: ClientConnection) -> int | None:
    """The close code the server ended ``ws`` with (reading past anything still queued)."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=10)
    return closed.value.rcvd.code if closed.value.rcvd else None


@contextlib.contextmanager
def spectators(server: RealServer, table_id: str, count: int, addresses: list[str]) -> Iterator[tuple[list[Any], int]]:
    """``count`` spectators' hellos, spread over ``addresses``: those welcomed (kept open) and how many were refused.

    Each refusal must be a ``too_many_connections`` error, then close code 4429.
    """
    welcomed: list[ClientConnection] = []
    refused = 0
    try:
        for i in range(count):
            ws, first = watch(server, table_id, addresses[i % len(addresses)])
            if first["type"] == "welcome":
                welcomed.append(ws)
                continue
            assert first["type"] == "error" and first["code"] == "too_many_connections", first
            assert "connections" in first["message"] or "spectators" in first["message"]
            assert closed_with(ws) == 4429
            refused += 1
        yield welcomed, refused
    finally:
        for ws in welcomed:
            ws.close()


def play(players: list[SeatSocket], moves: int) -> None:
    """The people play their first legal action in turn, ``moves`` times; each move reaches every player."""
    for _ in range(moves):
        mover = next((player for player in players if player.legal), None)
        assert mover is not None, "nobody may act"
        mover.act(mover.legal[0])
        mover.settle()  # its move is taken (the pong comes after it), so the others' pongs come after its update
        for player in players:
            player.settle()
        assert len({player.version for player in players}) == 1


def test_80_spectators_from_one_address_never_keep_the_players_out(tmp_path: Path) -> None:
    with RealServer(tmp_path / "data") as server:
        table_id, tokens = server.two_people()
        with spectators(server, table_id, 80, ["127.0.0.1"]) as (welcomed, refused):
            assert (len(welcomed), refused) == (PER_CLIENT, 80 - PER_CLIENT)
            players = [SeatSocket(server, table_id, tokens[seat]) for seat in (0, 1)]
            try:
                for player in players:  # from the very address that holds every spectator
                    assert player.hello(None)["type"] == "state"
                for player in players:
                    player.settle()
                before = players[0].version
                play(players, 20)  # both declare, then play a whole deal and more
                assert players[0].version > before + 20
                summary = server_summary(server, table_id)
                assert summary["status"] == "playing"
                assert not any(seat["stand_in"] for seat in summary["seats"])  # no bot ever took a seat
                assert [seat["connected"] for seat in summary["seats"]] == [True, True]
            finally:
                for player in players:
                    player.close()


def server_summary(server: RealServer, table_id: str) -> dict[str, Any]:
    import httpx

    summary: dict[str, Any] = httpx.get(f"{server.base}/api/tables/{table_id}").json()
    return summary


def test_a_full_table_of_spectators_still_lets_its_players_in(tmp_path: Path) -> None:
    with RealServer(tmp_path / "data") as server:
        table_id, tokens = server.two_people()
        addresses = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]  # three people: 90 spectators, under each one's cap
        with spectators(server, table_id, 90, addresses) as (welcomed, refused):
            assert (len(welcomed), refused) == (PER_TABLE, 90 - PER_TABLE)
            players = [SeatSocket(server, table_id, tokens[seat]) for seat in (0, 1)]
            try:
                for player in players:
                    assert player.hello(None)["type"] == "state"
                for player in players:
                    player.settle()
                play(players, 2)
                # A spectator who leaves makes room for another.
                welcomed.pop().close()
                players[0].settle()
                latecomer, first = watch(server, table_id, "127.0.0.5")
                assert first["type"] == "welcome" and first["seat"] is None
                latecomer.close()
            finally:
                for player in players:
                    player.close()


def test_one_address_watches_at_most_32_tables_at_once(tmp_path: Path) -> None:
    with RealServer(tmp_path / "data", "--tables-per-client", "100", "--join-rate", "1000") as server:
        tables = [server.two_people()[0] for _ in range(PER_CLIENT + 8)]
        held: list[ClientConnection] = []
        try:
            refusals = []
            for table_id in tables:
                ws, first = watch(server, table_id, "127.0.0.6")
                if first["type"] == "welcome":
                    held.append(ws)
                else:
                    refusals.append(first)
                    assert closed_with(ws) == 4429
            assert len(held) == PER_CLIENT
            assert [r["code"] for r in refusals] == ["too_many_connections"] * 8
            assert f"{PER_CLIENT} connections" in refusals[0]["message"]
            # Another address is another person: it may watch the same tables.
            other, first = watch(server, tables[-1], "127.0.0.7")
            assert first["type"] == "welcome"
            other.close()
            # One connection closed: the first address may watch one more.
            held.pop(0).close()
            for _ in range(50):
                ws, first = watch(server, tables[-1], "127.0.0.6")
                if first["type"] == "welcome":
                    held.append(ws)
                    break
                closed_with(ws)  # the server has not noticed the close yet: try again
            else:
                raise AssertionError("a closed connection never made room")
        finally:
            for ws in held:
                ws.close()


def test_sockets_that_never_say_hello_cannot_keep_a_player_out(tmp_path: Path) -> None:
    with RealServer(tmp_path / "data") as server:
        table_id, tokens = server.two_people()
        silent = [socket_from(server, table_id) for _ in range(PER_CLIENT + 8)]
        try:
            # The oldest silent sockets made room for the newer ones: told why, then closed.
            error = json.loads(silent[0].recv(timeout=10))
            assert error["type"] == "error" and error["code"] == "too_many_connections"
            assert closed_with(silent[0]) == 4429
            player = SeatSocket(server, table_id, tokens[0])
            try:
                assert player.hello(None)["type"] == "state"  # from the same address, past its cap
            finally:
                player.close()
        finally:
            for ws in silent:
                ws.close()


def test_one_seat_open_in_many_places_keeps_its_newest_connections_and_plays_on(tmp_path: Path) -> None:
    """A seat token opened 500 sockets once, all welcomed, each one's hellos answered with a whole state. Now a
    seat holds at most 8: each newer one closes the oldest (told why, close 4429); the player is never refused."""
    with RealServer(tmp_path / "data") as server:
        table_id, tokens = server.two_people()
        sockets = [SeatSocket(server, table_id, tokens[0]) for _ in range(SEAT_CONNECTIONS + 3)]
        try:
            for socket in sockets:
                assert socket.hello(None)["type"] == "state"
            for old in sockets[:3]:
                refusal = old.wait_for("error")
                assert refusal["code"] == "seat_elsewhere" and "oldest" in refusal["message"]
                with pytest.raises(ConnectionClosed) as closed:
                    old.ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
            other = SeatSocket(server, table_id, tokens[1])
            assert other.hello(None)["type"] == "state"
            newest, *kept = reversed(sockets[3:])
            players = [newest, other]
            play(players, 6)
            for socket in kept:  # every connection kept still hears the game
                socket.settle()
                assert socket.version == newest.version
            assert [seat["connected"] for seat in server_summary(server, table_id)["seats"]] == [True, True]
        finally:
            for socket in sockets:
                socket.close()
