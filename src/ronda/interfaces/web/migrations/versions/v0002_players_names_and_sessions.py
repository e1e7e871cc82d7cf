"""Players, their names and their sessions (identity without sign-up, optional accounts); seats name their player.

Revision 0002, after 0001. Adds ``ronda_players`` (a stable id, the name chosen once, an optional username and
Argon2 password hash), ``ronda_names`` (each look-alike key of each player's name, unique: two players' names never
look alike), ``ronda_sessions`` (the SHA-256 of each browser's cookie token, never the token) and
``ronda_seats.player_id`` (who took a seat under their kept name; empty for every seat taken before).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ronda_players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("username", sa.String(80), nullable=True, unique=True),
        sa.Column("password_hash", sa.Text(), nullable=True),
    )
    op.create_table(
        "ronda_names",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("ronda_players.id"), nullable=False),
    )
    op.create_table(
        "ronda_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("ronda_players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("last_seen", sa.String(40), nullable=False),
        sa.Column("agent", sa.String(80), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
    )
    op.create_index("ix_ronda_sessions_player_id", "ronda_sessions", ["player_id"])
    op.add_column("ronda_seats", sa.Column("player_id", sa.String(32), nullable=True))
    op.create_index("ix_ronda_seats_player_id", "ronda_seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_ronda_seats_player_id", "ronda_seats")
    with op.batch_alter_table("ronda_seats") as seats:  # SQLite drops a column by copying the table
        seats.drop_column("player_id")
    op.drop_index("ix_ronda_sessions_player_id", "ronda_sessions")
    for name in ("ronda_sessions", "ronda_names", "ronda_players"):
        op.drop_table(name)
