"""Run ronda's migrations by hand: ``python -m ronda.interfaces.web.migrations [--url URL] COMMAND``.

The commands are Alembic's (``upgrade head``, ``current``, ``history``,
``downgrade REV``, ``revision -m "..."``); the database is ``--url``, else
``DATABASE_URL``, else the SQLite file ``ronda serve`` uses by default.
"""

from __future__ import annotations

import logging
import os
import sys

from alembic.config import CommandLine

from ..store import sqlalchemy_url
from . import config

DEFAULT_URL = "sqlite:///ronda-data/ronda.sqlite3"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    url = os.environ.get("DATABASE_URL", "").strip() or DEFAULT_URL
    if len(args) >= 2 and args[0] == "--url":
        url, args = args[1], args[2:]
    line = CommandLine(prog="python -m ronda.interfaces.web.migrations")
    options = line.parser.parse_args(args)
    if not hasattr(options, "cmd"):
        line.parser.error("too few arguments")
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # Alembic says what it runs
    line.run_cmd(config(sqlalchemy_url(url)), options)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
