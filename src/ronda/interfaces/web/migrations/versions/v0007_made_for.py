"""Which decisions the computer made for a person: ``ronda_actions.made_for``, so that a rebuilt table tells them so.

Revision 0007. When a person's turn clock runs out, or the stand-in plays for
a person gone, the computer makes the decision for their seat, and that seat's
page tells it as the computer's move, not as theirs (``made_for_you``,
docs/web-protocol.md). The table knew it only in memory: after a server was
killed or restarted, or a cluster's table taken over, the person's page told
those moves as "You play ...". The seat the computer chose for is now stored
with the decision, in its row; decisions stored before keep ``NULL``: told as
the person's, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ronda_actions", sa.Column("made_for", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ronda_actions") as actions:  # SQLite drops a column by copying the table
        actions.drop_column("made_for")
