"""Alembic's entry point for ronda's migrations (run by :func:`~ronda.interfaces.web.migrations.migrate`,
or by hand with ``python -m ronda.interfaces.web.migrations``)."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection, create_engine, pool, text

from ronda.interfaces.web.migrations import LOCK
from ronda.interfaces.web.store import metadata, sqlalchemy_url


def run_on(connection: Connection) -> None:
    """Run the migrations asked for on ``connection``; on PostgreSQL, one server at a time."""
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
        context.run_migrations()


def run() -> None:
    if context.is_offline_mode():
        raise SystemExit("ronda's migrations look at the database they upgrade: run them on a database, not --sql")
    given: Connection | None = context.config.attributes.get("connection")
    if given is not None:
        run_on(given)
        return
    url = context.config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL", "")
    if not url:
        raise SystemExit("say which database: DATABASE_URL=... or --url")
    engine = create_engine(sqlalchemy_url(url), poolclass=pool.NullPool)
    try:
        with engine.begin() as connection:
            run_on(connection)
    finally:
        engine.dispose()


if getattr(context, "config", None) is not None:  # imported by Alembic, not by a doctest collector or a linter
    run()
