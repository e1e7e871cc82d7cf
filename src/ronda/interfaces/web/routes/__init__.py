"""The routes of ``ronda serve``, one router per part of docs/web-protocol.md.

Each module holds an ``APIRouter`` (``router``) and reaches the server's
wiring through the request (:mod:`..site`); :func:`~..app.create_app` only
includes them. A new part of the site (pairing, accounts, ratings) is a new
module here and one line in :data:`ROUTERS`.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import accounts, games, health, pages, pairing, ratings, sockets, tables

ROUTERS: tuple[APIRouter, ...] = (
    pages.router,
    tables.router,
    pairing.router,
    accounts.router,
    games.router,
    ratings.router,
    sockets.router,
    health.router,
)
"""Every router, in the order they are included."""

__all__ = ["ROUTERS"]
