"""The schema is versioned (Alembic): a new database is made by the migrations, and a database made by ronda
before migrations existed, in today's shape or an older one, upgrades in place with its games still replayable.

Both on SQLite and on PostgreSQL. The databases "of before" are made the way
such a server left them: a real game played and stored, then the record of
migrations taken away (today's shape), and for the older shape also the
columns and tables the first stored tables lacked (what the store once added
with ``ALTER TABLE`` at every start).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text
from test_web_ratings import rated, seat_two
from web_helpers import Client, new_table, play_out, random_chooser, seat_clients, server

from ronda.interfaces.web import migrations
from ronda.interfaces.web.store import Store, metadata, sqlalchemy_url

PERSON = {"kind": "human", "name": "Amina"}


def schema_differences(store: Store) -> list[Any]:
    """What differs between the database's tables and the tables the store's queries use."""
    with store.engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))


def test_a_new_database_is_made_by_the_migrations_as_the_store_uses_it(database_url: str) -> None:
    store = Store(database_url)
    try:
        assert migrations.current(store.engine) == migrations.head()
        assert schema_differences(store) == []
    finally:
        store.close()


def test_a_migration_that_pauses_longer_than_the_stores_timeout_is_not_ended_halfway(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the store ends a transaction idle longer than its timeout (a stopped writer holds no row), and a
    loaded machine once paused a test server's migration that long between two statements: PostgreSQL ended it
    ("terminating connection due to idle-in-transaction timeout") and the server did not start. A migration's own
    transaction is spared the store's idle and statement timeouts; here it pauses ten times the store's timeout."""
    import time

    upgrade = command.upgrade

    def pausing(settings: Any, revision: str) -> None:
        settings.attributes["connection"].execute(text("SELECT 1"))  # the transaction has begun: idle from here
        time.sleep(0.5)
        upgrade(settings, revision)

    monkeypatch.setattr(migrations.command, "upgrade", pausing)
    store = Store(database_url, timeout=0.05)
    try:
        assert migrations.current(store.engine) == migrations.head()
    finally:
        store.close()


def finished_game(tmp_path: Path, database_url: str) -> tuple[str, dict[str, Any]]:
    """A table with one finished game against a bot, and the game's replay as the server gives it."""
    with server(tmp_path, database_url) as http:
        created = new_table(http, 2, [PERSON, {"kind": "bot", "level": "easy"}], target=5, public=True)
        me = Client(http, created["table_id"], created["token"])
        me.hello()
        play_out([me], random_chooser(random.Random(7), challenge=0))
        me.close()
        replay = http.get(f"/api/tables/{created['table_id']}/replay")
        assert replay.status_code == 200, replay.text
        return created["table_id"], dict(replay.json())


def as_before_migrations(database_url: str, shape: str) -> None:
    """Make the database look as ronda left it before migrations: what revision 0001 makes (the later revisions taken
    back by their downgrades), no version; for ``older``, the first columns."""
    engine = create_engine(sqlalchemy_url(database_url))
    with engine.begin() as db:
        command.downgrade(migrations.config(connection=db), "0001")
        db.execute(text("DROP TABLE alembic_version"))
        if shape == "older":
            db.execute(text("DROP TABLE ronda_hints"))
            db.execute(text("DROP TABLE ronda_analyses"))
            for column in ("public", "spectators", "creator", "hints"):
                db.execute(text(f"ALTER TABLE ronda_tables DROP COLUMN {column}"))
    engine.dispose()


@pytest.mark.parametrize("shape", ["today", "older"])
def test_a_database_from_before_migrations_upgrades_and_its_games_replay(
    tmp_path: Path, database_url: str, shape: str
) -> None:
    table_id, before = finished_game(tmp_path, database_url)
    as_before_migrations(database_url, shape)
    with server(tmp_path, database_url) as http:  # the server migrates as it starts
        summary = http.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "finished"
        # An older table had no access settings: it stays unlisted, open to spectators, without hints.
        assert summary["public"] is (shape == "today")
        replay = http.get(f"/api/tables/{table_id}/replay")
        assert replay.status_code == 200, replay.text
        assert replay.json() == before
    store = Store(database_url, migrate=False)
    try:
        assert migrations.current(store.engine) == migrations.head()
        assert schema_differences(store) == []
    finally:
        store.close()


def test_a_game_stored_before_who_played_was_kept_trusts_every_seat_and_the_next_game_is_recorded(
    tmp_path: Path, database_url: str
) -> None:
    """A game in play in a database of before revision 0005 (who played in a game was not stored): after the upgrade
    its table is rebuilt with every seat trusted, as every rebuilt table was before, so it is rated as that server
    would have rated it, though Brahim never played. The rematch, stored since, knows he never played: not rated."""
    chooser = random_chooser(random.Random(17), challenge=0)
    with server(tmp_path, database_url, grace=1, stand_in="random") as http:
        table_id, _, tokens = seat_two(http, target=12)
        (me,) = seat_clients(http, table_id, {0: tokens[0]}).values()
        play_out([me], chooser, until=lambda: me.acted_at >= 0)
        me.sync()
        assert not me.over
    engine = create_engine(sqlalchemy_url(database_url))
    with engine.begin() as db:  # the schema of before, its game as such a server left it
        command.downgrade(migrations.config(connection=db), "0004")
    engine.dispose()
    with server(tmp_path, database_url, grace=1, stand_in="random") as http:  # the server migrates as it starts
        store = http.app.state.lobby.journal.store
        assert migrations.current(store.engine) == migrations.head()
        assert schema_differences(store) == []
        back = Client(http, table_id, tokens[0])
        back.hello()
        play_out([back], chooser)
        changes = rated(back)  # every seat trusted: Brahim's seat, played by the stand-in, counts as left
        assert [(c["result"], c["abandoned"]) for c in changes] == [("won", False), ("lost", True)]
        (old,) = store.load_tables([table_id])[0].games
        assert old.acted is None, "who played in a game of before stays unknown, not half known"
        back.send({"type": "rematch"})  # Brahim is away: the rematch starts at once
        back.expect("state")
        play_out([back], chooser)
        back.sync()
        assert store.game_ratings(table_id, 1) is None
        assert store.load_tables([table_id])[0].games[1].acted == [0]
