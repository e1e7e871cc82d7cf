"""The websocket ``/ws/{table_id}``: one client at one table, its messages read and answered (docs/web-protocol.md).

A connection is counted by :class:`~..connections.AddressCaps` from its
upgrade, flood-limited by a :class:`~..rates.FloodWatch`, and served by
:func:`serve_connection` until it goes; an error goes back to that client only.
With several processes (:mod:`..cluster`), a connection whose table another
process owns is served by :func:`relay_connection` instead: checked here,
answered there.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ..connections import TOO_MANY, AddressCaps, Connection, Counted
from ..forms import HttpError
from ..lobby import Elsewhere
from ..metrics import Metrics
from ..protocol import (
    Act,
    Hello,
    ProtocolError,
    dumps,
    error_json,
    read_client_message,
)
from ..rates import FloodWatch
from ..site import client_of, cluster_of, invite_of, lobby_of, site_of
from ..store import StoreConflict
from ..tables import Table, TableMoved, answer

log = logging.getLogger("ronda.web")

router = APIRouter()
CONNECTIONS = itertools.count()
"""Numbers the connections, for their keys in the flood limit."""


@router.websocket("/ws/{table_id}")
async def websocket(websocket: WebSocket, table_id: str) -> None:
    site = site_of(websocket)
    caps = site.caps
    await websocket.accept()
    connection = Connection(websocket)
    pump = asyncio.get_running_loop().create_task(connection.pump())

    def evict() -> None:
        site.metrics.refused("connections")
        message = f"one address may hold {caps.cap} connections that have not said hello: this one was closed"
        connection.send(dumps(error_json("too_many_connections", message)))
        connection.close_soon(TOO_MANY)

    handle = await caps.open(client_of(websocket), evict)
    try:
        table = await lobby_of(websocket).open(table_id)
    except Elsewhere as elsewhere:  # another process owns the table: this one relays the connection to it
        await relay_connection(websocket, table_id, elsewhere, connection, pump, caps, handle)
        return
    except HttpError as error:
        why = {"closed": "closed", "store_unavailable": "store_unavailable"}.get(error.code, "not_found")
        connection.send(dumps(error_json(why, error.message)))
        await caps.close(handle)
        await connection.finish(pump, {"closed": 4410, "store_unavailable": 4503}.get(why, 4404))
        return
    code = 1000
    held = [table]

    async def reopen() -> Table:
        """The table left memory meanwhile: the lobby rebuilds it (a raise here reaches the client as an error)."""
        try:
            held[0] = await lobby_of(websocket).open(table_id)
        except HttpError as error:
            raise ProtocolError("not_found", error.message) from None
        return held[0]

    watch = FloodWatch(site.flood, f"connection {next(CONNECTIONS)}")
    try:
        await serve_connection(
            held, reopen, connection, watch, invite_of(websocket, table_id), caps, handle, site.metrics
        )
    except WebSocketDisconnect:
        pass
    except Exception as error:
        # A fault of the server's own: the kind is logged, never the message (it could name a card).
        log.error("table %s: a connection failed (%s); it is closed", table.id, type(error).__name__)
        code = 1011
    finally:
        held[0].leave(connection)
        await caps.close(handle)
        await watch.close()
        await connection.finish(pump, code)


async def relay_connection(
    websocket: WebSocket,
    table_id: str,
    elsewhere: Elsewhere,
    connection: Connection,
    pump: asyncio.Task[None],
    caps: AddressCaps,
    handle: Counted,
) -> None:
    """Serve a connection whose table another process owns: its frames are checked here (flood, form, hello first,
    caps) and answered there (:mod:`..cluster`); what the owner sends it comes back through this process.

    A frame refused here is answered here, but in its turn (:meth:`~..cluster.Cluster.answer_here`): after the owner's
    answers to the frames before it, as a connection to the owner would read them."""
    cluster = cluster_of(websocket)
    assert cluster is not None
    settling: set[asyncio.Task[None]] = set()

    def on_seat(seat: int | None) -> None:  # the owner said which seat the connection holds: count it as one
        task = asyncio.get_running_loop().create_task(caps.settle(handle, seat))
        settling.add(task)
        task.add_done_callback(settling.discard)

    relay = cluster.relay(elsewhere, table_id, connection, on_seat)
    watch = FloodWatch(site_of(websocket).flood, f"connection {next(CONNECTIONS)}")
    invite = invite_of(websocket, table_id)
    said_hello = False
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            if connection.closing is not None or relay.closing:
                continue  # closed from the owner's side (or it went, or a cap refused it here): the page reconnects
            admitted = await watch.admit()
            if admitted != "ok":
                if admitted == "flood":
                    flood = dumps(error_json("flood", "too many messages: slow down; these are ignored"))
                    cluster.answer_here(relay, flood)
                continue
            text = frame.get("text")
            raw = text if text is not None else frame.get("bytes")
            try:
                message = read_client_message(raw)
                if not said_hello and not isinstance(message, Hello):
                    raise ProtocolError("not_hello", 'say hello first: {"type": "hello", "token": ..., "since": null}')
                if isinstance(message, Hello) and message.token is None and not await caps.watch(handle):
                    raise ProtocolError(
                        "too_many_connections",
                        f"one address may watch with {caps.cap} connections at once: close some first",
                    )
            except ProtocolError as error:  # answered here, after the owner's answers to the frames before it
                if error.code == "too_many_connections":
                    site_of(websocket).metrics.refused("connections")  # counted here too, as the owner counts its own
                    cluster.answer_here(relay, dumps(error.to_json()), close=TOO_MANY)
                else:
                    cluster.answer_here(relay, dumps(error.to_json()))
                continue
            said_hello = said_hello or isinstance(message, Hello)
            wire = raw if isinstance(raw, str) else bytes(raw or b"").decode("utf-8")
            cluster.forward(relay, wire, invite if isinstance(message, Hello) else None)
    except WebSocketDisconnect:
        pass
    finally:
        cluster.unrelay(relay)
        await caps.close(handle)
        await watch.close()
        await connection.finish(pump, 1000)


async def serve_connection(
    held: list[Table],
    reopen: Callable[[], Awaitable[Table]],
    connection: Connection,
    gate: FloodWatch,
    invite: dict[str, Any],
    caps: AddressCaps | None = None,
    handle: Counted | None = None,
    metrics: Metrics | None = None,
) -> None:
    """Read one client's messages until it goes: each is checked, and an error goes back to that client only.

    ``held[0]`` is the table the connection is at; a table that left memory
    since (:class:`~.tables.TableMoved`) is opened again with ``reopen``.
    ``caps`` counts the connection (``handle``) as pending, watching or seated.
    ``metrics`` times each decision from its frame received to its updates sent.
    """
    websocket = connection.websocket
    said_hello = False
    while True:
        frame = await websocket.receive()
        received = time.monotonic()
        if frame["type"] == "websocket.disconnect":
            return
        admitted = await gate.admit()
        if admitted != "ok":
            if admitted == "flood":
                connection.send(dumps(error_json("flood", "too many messages: slow down; these are ignored")))
            continue
        try:
            text = frame.get("text")
            message = read_client_message(text if text is not None else frame.get("bytes"))
            table = held[0]
            if not said_hello and not isinstance(message, Hello):
                raise ProtocolError("not_hello", 'say hello first: {"type": "hello", "token": ..., "since": null}')
            if isinstance(message, Hello):
                if caps is not None and handle is not None and message.token is None and not await caps.watch(handle):
                    if metrics is not None:
                        metrics.refused("connections")
                    raise ProtocolError(
                        "too_many_connections",
                        f"one address may watch with {caps.cap} connections at once: close some first",
                    )
                try:
                    await table.hello(connection, message.token, message.since, invite)
                except TableMoved:
                    table.leave(connection)
                    await (await reopen()).hello(connection, message.token, message.since, invite)
                said_hello = True
                if caps is not None and handle is not None:
                    await caps.settle(handle, held[0].clients.get(connection))
            else:
                await answer(table, connection, message)
                if metrics is not None and isinstance(message, Act):
                    metrics.move_update.observe(time.monotonic() - received)
        except StoreConflict:
            # The store holds a row this connection's message would write again (a stored thing the table did not
            # know of): the message is refused, retryably; a store conflict never closes a connection.
            log.error("table %s: the store refused a write as a conflict; the message is refused", held[0].id)
            connection.send(dumps(error_json("store_unavailable", "this could not be saved just now: try again")))
        except ProtocolError as error:
            connection.send(dumps(error.to_json()))
            if error.code in ("closed", "no_spectators", "too_many_connections"):
                connection.close_soon({"closed": 4410, "no_spectators": 4403}.get(error.code, TOO_MANY))
                return
