"""Who played in each game: ``ronda_games.acted``, so that a table rebuilt from the store rates as the live one would.

Revision 0005. A game in which a person never made a decision of their own is
not rated (docs/server.md, "What is rated"); the table knew who played only in
memory, so a table rebuilt after a restart, or after it left memory idle,
trusted every seat and rated a game a second name never played. The seats
whose person played are now stored (a JSON list) with the decision that adds
one. Games stored before keep ``NULL``, "not recorded": their tables trust
every seat, as they did.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ronda_games", sa.Column("acted", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ronda_games") as games:  # SQLite drops a column by copying the table
        games.drop_column("acted")
