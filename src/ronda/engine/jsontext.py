"""JSON that anyone may have written, read with its size and nesting bounded before it is parsed.

Every reader of outside JSON goes through here: game records (``ronda replay``,
``ronda analyse``, ``ronda play --resume``), the terminal game's saved settings,
a policy file's meta, and the web server's messages and request bodies (which
count depth with :func:`json_depth`). Two things make a plain
:func:`json.loads` unsafe on such input:

- it recurses once per level of nesting, so a few hundred kilobytes of
  ``[[[[…`` exhaust Python's recursion limit: a ``RecursionError`` and a
  traceback instead of a refusal;
- a file is read whole into memory, whatever its size.

So a file's size is checked before it is read (and no more than the limit is
ever read), and the nesting is counted before the text is parsed. An
:class:`~ronda.engine.errors.InputError` names the problem in a player's words
and never the file: the caller says which file, once.

>>> parse_json('{"rounds": [{"deck": []}]}', what="a record", max_depth=32)
{'rounds': [{'deck': []}]}
>>> parse_json("[" * 5000 + "]" * 5000, what="a record", max_depth=32)
Traceback (most recent call last):
ronda.engine.errors.InputError: a record nests arrays and objects at most 32 deep, and this one nests them deeper
>>> parse_json('{"dealer": 1, "dealer": 0}', what="a record", max_depth=32)
Traceback (most recent call last):
ronda.engine.errors.InputError: a record gives the key 'dealer' twice in one object: which one is meant?
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from .errors import InputError, quoted

_JSON_TOKENS = re.compile(r'\\.|["\[\]{}]', re.DOTALL)


def json_depth(text: str, stop_above: int | None = None) -> int:
    """How deeply arrays and objects nest in a JSON text, counted without parsing it (brackets in strings aside).

    Run before :func:`json.loads`, which recurses once per level. It is linear
    in the text and stops as soon as the depth passes ``stop_above`` (so a
    huge ``[[[[…`` costs nothing); a malformed text gives some number, and
    the parser then refuses it.

    >>> json_depth('{"type": "act", "action": {"play": "5o"}}'), json_depth('["[[[", "\\\\"]]"]'), json_depth("[" * 900)
    (2, 1, 900)
    >>> json_depth("[" * 900, stop_above=6)
    7
    """
    depth = deepest = 0
    in_string = False
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string or token[0] == "\\":
            continue
        elif token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop_above is not None and deepest > stop_above:
                    break
        else:
            depth -= 1
    return deepest


def parse_json(text: str, *, what: str, max_depth: int) -> Any:
    """``text`` parsed as JSON; an :class:`InputError` if it nests deeper than ``max_depth`` or is not JSON.

    ``what`` is what the text should be, as the message says it ("a record").
    """
    if json_depth(text, stop_above=max_depth) > max_depth:
        raise InputError(f"{what} nests arrays and objects at most {max_depth} deep, and this one nests them deeper")
    try:
        return json.loads(text, object_pairs_hook=_no_key_twice)
    except _KeyTwice as error:
        raise InputError(f"{what} gives the key {quoted(error.key)} twice in one object: which one is meant?") from None
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    except ValueError:  # the only other refusal: an integer longer than Python converts
        raise InputError(f"invalid JSON: a number of more than {sys.get_int_max_str_digits()} digits") from None


class _KeyTwice(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object, refused if it names a key twice.

    Why: :func:`json.loads` keeps the last of two equal keys without a word, so
    a record with ``"dealer": 1, "dealer": 0`` (or a second ``"rounds"``) would
    replay as something its writer may not have meant, and the error, if any,
    would point elsewhere. The JSON standard leaves it open; a reader checking
    another program's records strictly refuses it, as it refuses unknown keys.

    >>> _no_key_twice([("seat", 0), ("play", "5o")])
    {'seat': 0, 'play': '5o'}
    """
    made = dict(pairs)
    if len(made) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return made


def read_json(path: str | Path, *, what: str, max_bytes: int, max_depth: int) -> Any:
    """The JSON file at ``path``, refused with an :class:`InputError` if unreadable, too large, too deep or not JSON.

    The size is checked before reading, and at most ``max_bytes + 1`` bytes are
    ever read (a pipe or a device has no size to check first). The messages do
    not name the file: the caller does, once. A UTF-8 byte-order mark at the start is
    skipped: editors on Windows save one, and the text is the same record.
    """
    limit = f"{what} is at most {_size(max_bytes)}"
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > max_bytes:
                raise InputError(f"{limit}, and this file holds {size:,} bytes")
            data = file.read(max_bytes + 1)
    except OSError as error:
        raise InputError(f"cannot read it: {os_error_words(error)}") from None
    if len(data) > max_bytes:
        raise InputError(f"{limit}, and this file holds more")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark first is allowed: Windows editors write one
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text") from None
    return parse_json(text, what=what, max_depth=max_depth)


def os_error_words(error: OSError) -> str:
    """What the system said, without the path it names (the caller names the file, once).

    >>> os_error_words(FileNotFoundError(2, "No such file or directory", "/nowhere/x.json"))
    'no such file or directory'
    """
    reason = error.strerror or type(error).__name__
    return reason[:1].lower() + reason[1:]


def _size(count: int) -> str:
    """A limit in bytes as people read it: "16 MiB", "64 KiB", "812 bytes"."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale and count % scale == 0:
            return f"{count // scale} {unit}"
    return f"{count:,} bytes"


__all__ = ["json_depth", "os_error_words", "parse_json", "read_json"]
