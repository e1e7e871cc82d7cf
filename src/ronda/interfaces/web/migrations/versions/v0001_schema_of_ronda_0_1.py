"""The schema of ronda 0.1: tables, seats, games, rounds, actions, hints and analyses.

Revision 0001, the first. On an empty database it creates the tables. On a
database made before migrations existed, it adopts what is there: a table
that is missing is created, and ``ronda_tables`` of an older server gains the
columns added since (what the store once did with ``ALTER TABLE`` at every
start): tables made before tables became private by default stay private
(``public`` false), and tables made before hints existed have them off.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _added_since() -> list[sa.Column[object]]:
    """Columns of ``ronda_tables`` that the first stored tables lacked, with the values old tables get."""
    return [
        sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.text("FALSE")),
        sa.Column("spectators", sa.Boolean(), nullable=False, server_default=sa.text("TRUE")),
        sa.Column("creator", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.text("FALSE")),
    ]


def _table_key() -> sa.Column[str]:
    return sa.Column("table_id", sa.String(32), sa.ForeignKey("ronda_tables.id"), primary_key=True)


def upgrade() -> None:
    bind = op.get_bind()
    there = set(sa.inspect(bind).get_table_names())
    if "ronda_tables" not in there:
        op.create_table(
            "ronda_tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created", sa.String(40), nullable=False),
            sa.Column("rules", sa.Text(), nullable=False),
            sa.Column("preset", sa.String(40), nullable=True),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("game", sa.Integer(), nullable=False),
            sa.Column("public", sa.Boolean(), nullable=False),
            sa.Column("spectators", sa.Boolean(), nullable=False),
            sa.Column("creator", sa.Integer(), nullable=False),
            sa.Column("hints", sa.Boolean(), nullable=False),
        )
    else:
        columns = {column["name"] for column in sa.inspect(bind).get_columns("ronda_tables")}
        for column in _added_since():
            if column.name not in columns:
                op.add_column("ronda_tables", column)
    if "ronda_seats" not in there:
        op.create_table(
            "ronda_seats",
            _table_key(),
            sa.Column("seat", sa.Integer(), primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("name", sa.String(80), nullable=True),
            sa.Column("level", sa.String(40), nullable=True),
            sa.Column("token_hash", sa.String(64), nullable=True),
            sa.Column("auto_declare", sa.Boolean(), nullable=False),
        )
    if "ronda_games" not in there:
        op.create_table(
            "ronda_games",
            _table_key(),
            sa.Column("game", sa.Integer(), primary_key=True),
            sa.Column("dealer", sa.Integer(), nullable=False),
            sa.Column("base_version", sa.Integer(), nullable=False),
            sa.Column("finished", sa.Boolean(), nullable=False),
            sa.Column("winner", sa.Integer(), nullable=True),
            sa.Column("scores", sa.Text(), nullable=True),
        )
    if "ronda_rounds" not in there:
        op.create_table(
            "ronda_rounds",
            _table_key(),
            sa.Column("game", sa.Integer(), primary_key=True),
            sa.Column("round", sa.Integer(), primary_key=True),
            sa.Column("deck", sa.Text(), nullable=False),
        )
    if "ronda_actions" not in there:
        op.create_table(
            "ronda_actions",
            _table_key(),
            sa.Column("game", sa.Integer(), primary_key=True),
            sa.Column("number", sa.Integer(), primary_key=True),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("action", sa.Text(), nullable=False),
        )
    if "ronda_hints" not in there:
        op.create_table(
            "ronda_hints",
            _table_key(),
            sa.Column("game", sa.Integer(), primary_key=True),
            sa.Column("number", sa.Integer(), primary_key=True),
            sa.Column("hint", sa.Text(), nullable=False),
        )
    if "ronda_analyses" not in there:
        op.create_table(
            "ronda_analyses",
            _table_key(),
            sa.Column("game", sa.Integer(), primary_key=True),
            sa.Column("analysis", sa.Text(), nullable=False),
        )


def downgrade() -> None:
    for name in ("ronda_analyses", "ronda_hints", "ronda_actions", "ronda_rounds", "ronda_games", "ronda_seats"):
        op.drop_table(name)
    op.drop_table("ronda_tables")
