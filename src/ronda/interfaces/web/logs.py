"""The server's logs: as text for a person, or one JSON object a line for a log collector (``--log-format json``).

:func:`log_config` is the ``logging.config.dictConfig`` of every logger the
server writes — its own (``ronda.*``) and uvicorn's error and access logs —
so that in JSON mode no line is left in another format.

What a log may hold (R11): never a card and never a secret. The server's own
lines name tables and kinds of errors only; two filters keep what others
write in line too: :class:`HideSecrets` cuts the play-now ticket (it gives
back a seat's token) out of access log paths, and :class:`NoFrames` drops the
websocket library's debug lines, which quote the frames (cards, tokens) they
carry.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

FORMATS = ("text", "json")
TICKET_PATH = re.compile(r"(/api/play/)[^/?#\s\"]+")
"""A play-now ticket in a path: as secret as a seat token."""
TEXT_FORMAT = "%(levelname)s:     %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC), ``level``, ``logger``, ``message``, and an access line's parts.

    >>> record = logging.LogRecord("ronda.web", logging.WARNING, "", 0, "table %s: %s", ("t1", "gone"), None)
    >>> json.loads(JsonFormatter().format(record))["message"]
    'table t1: gone'
    """

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, _version, status = record.args
            entry.update(client=client, method=method, path=path, status=status)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class HideSecrets(logging.Filter):
    """Cut the play-now ticket out of the paths in uvicorn's access lines (``/api/play/…``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(isinstance(a, str) and "/api/play/" in a for a in record.args):
            record.args = tuple(TICKET_PATH.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args)
        return True


class NoFrames(logging.Filter):
    """Drop the websocket libraries' lines that quote a frame (``< TEXT '{"type": "update", …}'``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.DEBUG or not isinstance(record.msg, str):
            return True
        return not record.msg.startswith(("< ", "> ", "% sending", "% receiving"))


def log_config(log_format: str = "text", level: str = "info") -> dict[str, Any]:
    """The ``dictConfig`` of ``ronda serve``'s logs, on stderr, for uvicorn's ``log_config`` and ours alike."""
    if log_format not in FORMATS:
        raise ValueError(f"the log format is text or json, not {log_format!r}")
    formatter: dict[str, Any] = {"()": f"{__name__}.JsonFormatter"} if log_format == "json" else {"format": TEXT_FORMAT}
    handler = {"class": "logging.StreamHandler", "formatter": "ronda", "filters": ["secrets", "frames"]}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"ronda": formatter},
        "filters": {"secrets": {"()": f"{__name__}.HideSecrets"}, "frames": {"()": f"{__name__}.NoFrames"}},
        "handlers": {"default": {**handler, "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["default"], "level": level.upper()},
        "loggers": {
            name: {"handlers": [], "level": level.upper(), "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets")
        },
    }
