"""The fencing number of a table's owner in a cluster of servers (issue 30): ``ronda_tables.lease_epoch``.

Revision 0004. A process that takes a table over stores its lease's epoch in
the table's row; every write of the table's owner checks it in its own
transaction, so a stale owner (one stopped past its lease) cannot write. Tables
stored before have epoch 0, which is what one process alone always leaves.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("ronda_tables")}
    if "lease_epoch" not in columns:  # a database that 0001 adopted from the newest unversioned shape has it
        op.add_column(
            "ronda_tables", sa.Column("lease_epoch", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )


def downgrade() -> None:
    with op.batch_alter_table("ronda_tables") as batch:
        batch.drop_column("lease_epoch")
