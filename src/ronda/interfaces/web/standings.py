"""Leaderboards and players' pages, read from the store (docs/web-protocol.md, "Ratings and players").

Each function is a read the journal runs (``journal.read(leaderboard, store,
2, 50)``), so it comes after every write asked for before it. The rating
changes themselves are written with each game's end
(:meth:`~.store.Store.rate_game`); nothing here writes.

A player's page hides their games at private tables (not listed in the lobby:
reached only by the invite link, which the table's id is) from everyone but
the player: such a game is left out entirely, with its table, its opponents
and its result, and the wins and losses shown count only the games shown.
The rating itself rests on every rated game, private ones included, without
saying which.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, select

from . import ratings
from .forms import name_keys
from .store import (
    Store,
    games_table,
    players_table,
    rated_table,
    rating_change,
    ratings_table,
    seats_table,
    tables_table,
)

MAX_NAME_KEY = 80
"""The longest name looked for (names are at most 24 letters; anything longer is nobody's, unread)."""

GAMES_SHOWN = 100
"""The most recent games a player's page lists (the wins and losses count every game it may show)."""


def leaderboard(store: Store, players: int, limit: int) -> dict[str, Any]:
    """The ratings of games of ``players``, best first: established players ranked, provisional ones apart."""
    conservative = ratings_table.c.mu - 3 * ratings_table.c.sigma
    query = (
        select(ratings_table, players_table.c.name)
        .join(players_table, players_table.c.id == ratings_table.c.player_id)
        .where(ratings_table.c.players == players)
        .order_by(conservative.desc(), ratings_table.c.player_id)
        .limit(limit)
    )
    with store.reading() as db:
        ranked = db.execute(query.where(ratings_table.c.games >= ratings.PROVISIONAL_GAMES)).all()
        provisional = db.execute(query.where(ratings_table.c.games < ratings.PROVISIONAL_GAMES)).all()
    return {
        "players": players,
        "provisional_games": ratings.PROVISIONAL_GAMES,
        "ranked": [dict(_standing(row), rank=i + 1) for i, row in enumerate(ranked)],
        "provisional": [_standing(row) for row in provisional],
    }


def _standing(row: Any) -> dict[str, Any]:
    skill = ratings.Skill(row.mu, row.sigma, row.games)
    return {
        "player_id": row.player_id,
        "name": row.name,
        "rating": ratings.shown(skill),
        "provisional": skill.provisional,
        "games": row.games,
        "wins": row.wins,
        "losses": row.games - row.wins,
    }


def find_player(store: Store, key: str) -> str | None:
    """The id of the player whose id is ``key``, or else whose name looks like it (ignoring case and look-alike
    letters, as names are kept unique: :func:`.forms.name_keys`); ``None`` for nobody."""
    with store.reading() as db:
        found = db.execute(select(players_table.c.id).where(players_table.c.id == key)).scalar()
    if found is None and len(key) <= MAX_NAME_KEY:
        holder = store.name_holder(name_keys(key))
        found = None if holder is None else holder.id
    return None if found is None else str(found)


def player_page(store: Store, player_id: str, viewer: str | None) -> dict[str, Any] | None:
    """What a player's page shows to ``viewer`` (the asker's player id, ``None``: nobody known); ``None``: no player.

    Games are the finished games of tables where the player held a seat, newest
    first; at a private table only when the viewer is the player.
    """
    own = viewer == player_id
    with store.reading() as db:
        player = db.execute(
            select(players_table.c.id, players_table.c.name, players_table.c.created).where(
                players_table.c.id == player_id
            )
        ).first()
        if player is None:
            return None
        held = db.execute(select(ratings_table).where(ratings_table.c.player_id == player_id)).all()
        query = (
            select(
                seats_table.c.table_id,
                seats_table.c.seat,
                tables_table.c.created,
                tables_table.c.public,
                tables_table.c.rules,
                games_table.c.game,
                games_table.c.winner,
                games_table.c.scores,
            )
            .join(tables_table, tables_table.c.id == seats_table.c.table_id)
            .join(games_table, games_table.c.table_id == seats_table.c.table_id)
            .where(seats_table.c.player_id == player_id, games_table.c.finished.is_(True))
            .order_by(tables_table.c.created.desc(), seats_table.c.table_id, games_table.c.game.desc())
        )
        if not own:
            query = query.where(tables_table.c.public.is_(True))
        played = db.execute(query).all()
        shown = played[:GAMES_SHOWN]
        ids = sorted({row.table_id for row in shown})
        seats: dict[str, list[dict[str, Any]]] = {}
        changes: dict[tuple[str, int], dict[str, Any]] = {}
        if ids:
            for s in db.execute(
                select(seats_table).where(seats_table.c.table_id.in_(ids)).order_by(seats_table.c.seat)
            ):
                seats.setdefault(s.table_id, []).append(
                    {"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level, "player_id": s.player_id}
                )
            for r in db.execute(
                select(rated_table).where(and_(rated_table.c.player_id == player_id, rated_table.c.table_id.in_(ids)))
            ):
                changes[r.table_id, r.game] = rating_change(r)
    record: dict[int, dict[str, int]] = {n: {"players": n, "wins": 0, "losses": 0} for n in ratings.PLAYER_COUNTS}
    games = []
    for i, row in enumerate(played):
        players = int(json.loads(row.rules)["players"])
        rated = changes.get((row.table_id, row.game))
        won = rated["result"] == ratings.WON if rated else ratings.side_of(players, row.seat) == row.winner
        if players in record:
            record[players]["wins" if won else "losses"] += 1
        if i >= GAMES_SHOWN:
            continue
        games.append(
            {
                "table_id": row.table_id,
                "game": row.game,
                "date": rated["finished"] if rated else row.created,
                "players": players,
                "public": bool(row.public),
                "seat": row.seat,
                "seats": seats.get(row.table_id, []),
                "scores": None if row.scores is None else json.loads(row.scores),
                "result": ratings.WON if won else ratings.LOST,
                "rated": rated is not None,
                "rating": rated,
                "replay": f"/t/{row.table_id}?replay&game={row.game}",
                "analysis": f"/t/{row.table_id}?replay&game={row.game}&analysis",
            }
        )
    standing = {r.players: ratings.Skill(r.mu, r.sigma, r.games) for r in held}
    rated_wins = {r.players: int(r.wins) for r in held}
    return {
        "player_id": player.id,
        "name": player.name,
        "since": player.created,
        "you": own,
        "ratings": [
            {
                "players": n,
                "rating": ratings.shown(standing[n]),
                "provisional": standing[n].provisional,
                "games": standing[n].games,
                "wins": rated_wins[n],
                "losses": standing[n].games - rated_wins[n],
            }
            for n in ratings.PLAYER_COUNTS
            if n in standing
        ],
        "record": [record[n] for n in ratings.PLAYER_COUNTS],
        "games": games,
    }
