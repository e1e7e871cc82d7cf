"""Ratings: each player's rating at each player count, and each rated game's seats with their rating change.

Revision 0003. Two new tables, nothing else changes: ``ronda_ratings`` (a
player's rating at 2, 3 or 4 players, as of their last rated game) and
``ronda_rated`` (one row per seat of a rated game, written in the transaction
that finishes the game; indexed by player for the player's page). Games
finished before this revision stay unrated.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ronda_ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("ronda_players.id"), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
    )
    op.create_table(
        "ronda_rated",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ronda_tables.id"), primary_key=True),
        sa.Column("game", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("ronda_players.id"), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("finished", sa.String(40), nullable=False),
    )
    op.create_index("ix_ronda_rated_player_id", "ronda_rated", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_ronda_rated_player_id", table_name="ronda_rated")
    op.drop_table("ronda_rated")
    op.drop_table("ronda_ratings")
