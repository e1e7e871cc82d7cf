"""Who left each game: ``ronda_games.left``, so that a table rebuilt from the store rates as the live one would.

Revision 0006. A player who leaves a game past the grace period, or lets three
turns in a row run out, counts as having left it: a rated game is a loss for
them whatever the score (docs/server.md, "Leaving"). The table knew it only in
memory, so a server killed or restarted during the game (or a cluster's
table taken over by another process) forgot it: the leaver, back, played on
and was rated by the score, as if they had stayed. Who left, and how (``away``
or ``turns``), is now stored (a JSON object, seat to how) with the next
decision after a seat comes to count as having left. Games stored before keep
``NULL``: nobody is known to have left them, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ronda_games", sa.Column("left", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ronda_games") as games:  # SQLite drops a column by copying the table
        games.drop_column("left")
