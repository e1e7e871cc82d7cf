"""The database's schema, versioned: Alembic migrations, the same on SQLite and PostgreSQL.

Every change to the tables of :mod:`..store` is a new revision in
``versions/`` (drafted with ``python -m ronda.interfaces.web.migrations revision``: see
docs/server.md), and :func:`migrate` brings a database to the
newest one; the store does so when it opens, so ``ronda serve`` migrates at
start. The first revision adopts a database made before migrations existed
(by ronda 0.1, in any of the shapes it left, older ones included), so such a
database upgrades in place, its games kept.

On PostgreSQL the upgrade holds an advisory lock for its transaction, so
that several servers starting at once (issue 30) migrate one after another.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

HERE = Path(__file__).resolve().parent
LOCK = 0x526F6E6461
"""The PostgreSQL advisory lock held while migrating ("Ronda" in ASCII)."""


def config(url: str | None = None, connection: Connection | None = None) -> Config:
    """Alembic's configuration for ronda's migrations: on ``url``, or on an open ``connection``."""
    settings = Config()
    settings.set_main_option("script_location", str(HERE))
    settings.set_main_option("file_template", "v%%(rev)s_%%(slug)s")  # a module name, not starting with a digit
    if url is not None:
        settings.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        settings.attributes["connection"] = connection
    return settings


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The revision a database is at (``None``: not versioned yet, or empty)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (the newest by default), in one transaction where the database allows.

    On PostgreSQL the store's connections end a transaction idle longer than its timeout, and a statement running
    longer (:class:`~ronda.interfaces.web.store.Store`): right for a game's writes, which must fail fast, wrong for
    a migration, which pauses between its statements to load its scripts and may rewrite a large table. A loaded
    machine with a short store timeout had PostgreSQL end a server's migration halfway ("terminating connection
    due to idle-in-transaction timeout"), and the server did not start. Both are lifted for the migration's own
    transaction (``SET LOCAL``); the lock timeout stays, so a migration waiting on another process's lock still
    gives up.
    """
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SET LOCAL idle_in_transaction_session_timeout = 0")
            connection.exec_driver_sql("SET LOCAL statement_timeout = 0")
        command.upgrade(config(connection=connection), revision)
